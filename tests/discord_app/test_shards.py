"""Two bots splitting the gateway shards (GLOSARIO_SHARDS 0/2 and 1/2) on one database, against the fake Discord:
each server is answered by exactly one of them, gaps from both land, the term of the day is posted once per
server, commands are published once, and a reload in one is made by the other."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.shards import parse_shards, shard_of
from tests.discord_app.conftest import Harness
from tests.discord_app.test_daily import MODERATOR, NOW, cog
from tests.fake_discord.server import ChannelRef, FakeDiscord, Guild
from tests.helpers import eventually

GUILDS = [Guild(id=(i << 22) | 5) for i in range(20)]  # shard (id >> 22) % 2: ten each


@pytest.fixture(params=["sqlite", "postgresql"])
async def split(request, tmp_path):
    """The two bots on one SQLite file, or on one PostgreSQL database."""
    postgres_url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    fake = await FakeDiscord(GUILDS).start()
    harness = Harness(fake, tmp_path, postgres_url)
    first, second = await asyncio.gather(
        harness.start(clock=lambda: NOW, shards=parse_shards("0/2")),
        harness.start(clock=lambda: NOW, shards=parse_shards("1/2")),
    )
    yield fake, harness, first, second
    await harness.stop_all()
    await fake.stop()


async def test_each_server_is_served_by_exactly_one_process_and_gaps_from_both_land(split):
    fake, harness, first, second = split
    assert sorted(fake.shard_identifies) == [(0, 2), (1, 2)]
    assert {g.id for g in first.guilds} == {g.id for g in GUILDS if shard_of(g.id, 2) == 0}
    assert {g.id for g in second.guilds} == {g.id for g in GUILDS if shard_of(g.id, 2) == 1}
    asked = [
        await fake.command("termino", {"termino": f"nada parecido {i}"}, guild=g, user_id=100 + i)  # (rate limits)
        for i, g in enumerate(GUILDS)
    ]
    for iid in asked:
        reply = await fake.response(iid)
        assert reply["type"] == 4 and "todavía no está en el glosario" in reply["data"]["content"]
    await asyncio.sleep(0.2)
    assert all(len(fake.responses[iid]) == 1 for iid in asked)  # one answer each: nobody answered twice
    await harness.flushed(first)
    await harness.flushed(second)
    logged = harness.rows("SELECT guild_id, count FROM misses")
    assert sorted(logged) == sorted((g.id, 1) for g in GUILDS)


async def test_commands_are_published_once_by_the_process_of_shard_0(split):
    fake, _, _, _ = split
    published = [path for method, path, _ in fake.requests if method == "PUT" and path.endswith("/commands")]
    assert len(published) == 1 and fake.find_command("termino")


async def test_the_term_of_the_day_is_posted_once_per_server(split):
    fake, harness, first, second = split
    for i, guild in enumerate(GUILDS):
        options = {"canal": ChannelRef(guild.channel_ids[0]), "hora": "09:00", "zona": "Europe/Madrid"}
        iid = await fake.command(
            "glosario-admin diario configurar", options, guild=guild, permissions=MODERATOR, user_id=200 + i
        )
        assert "09:00 (Europe/Madrid)" in (await fake.response(iid))["data"]["content"]
    await fake.wait_for(lambda: all(len(fake.channel_messages.get(str(g.channel_ids[0]), [])) == 1 for g in GUILDS))
    await asyncio.gather(cog(first).tick(), cog(second).tick())  # both schedulers look at every server again
    assert all(len(fake.channel_messages[str(g.channel_ids[0])]) == 1 for g in GUILDS)
    statuses = harness.rows("SELECT status, COUNT(*) FROM daily_posts GROUP BY status")
    assert statuses == [("posted", 20)]  # no server marked failed by the process that does not own it


async def test_the_weekly_digest_is_posted_once_per_server_by_the_process_that_serves_it(split):
    fake, harness, first, second = split
    for i, guild in enumerate(GUILDS):
        options = {"canal": ChannelRef(guild.channel_ids[0]), "dia": NOW.weekday()}
        iid = await fake.command(
            "glosario-admin resumen configurar", options, guild=guild, permissions=MODERATOR, user_id=300 + i
        )
        assert "(UTC)" in (await fake.response(iid))["data"]["content"]
    digests = [first.get_cog("DigestCog"), second.get_cog("DigestCog")]
    for _ in range(2):  # both look at every server, twice: each server's digest goes out once
        await asyncio.gather(*(digest.tick() for digest in digests))
    posted = {g.id: fake.channel_messages.get(str(g.channel_ids[0]), []) for g in GUILDS}
    assert all(len(messages) == 1 for messages in posted.values())
    assert harness.rows("SELECT COUNT(*) FROM guild_settings WHERE digest_posted_at IS NOT NULL") == [(20,)]
    assert harness.rows("SELECT COUNT(*) FROM guild_settings WHERE digest_error IS NOT NULL") == [(0,)]


async def test_a_reload_in_one_process_is_made_by_the_other(split):
    _, _, first, second = split
    assert await second.app.glossary.follow_others() is None  # nothing happened yet
    before = second.app.catalog.current
    assert not isinstance(await first.app.glossary.reload(), Exception)
    report = await second.app.glossary.follow_others()
    assert report is not None and second.app.catalog.current is not before
    assert await second.app.glossary.follow_others() is None  # once
    assert await first.app.glossary.follow_others() is None  # its own reload is not made twice
    assert second.get_cog("OperationCog").follow_reloads.is_running()  # what calls follow_others every 10 s


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_two_real_processes_split_the_shards_and_each_reports_its_own_health(request, tmp_path, backend):
    import functools
    import signal
    import subprocess
    import sys

    from tests.conftest import ROOT
    from tests.fake_discord.process import env_for, finish, run_bot

    fake = await FakeDiscord(GUILDS).start()
    extra = {}
    if backend == "postgresql":  # (the local files still go to the test's folder)
        data = tmp_path / "data"
        extra = {"GLOSARIO_DB": request.getfixturevalue("postgres_url"), "GLOSARIO_CACHE_DIR": str(data / "cache")}
    procs = []

    def env(plan: str, **more: str) -> dict[str, str]:
        beat = tmp_path / "data" / f"heartbeat-{plan.replace('/', '-of-')}"
        local = {"GLOSARIO_HEARTBEAT": str(beat), "GLOSARIO_JOURNAL": str(tmp_path / "data" / f"j{plan[0]}.jsonl")}
        return env_for(fake, tmp_path, GLOSARIO_SHARDS=plan, **(local if extra else {}), **extra, **more)

    try:
        for plan in ("0/2", "1/2"):
            procs.append(await run_bot(env(plan, LOG_LEVEL="INFO"), "run"))
        await fake.wait_ready(timeout=30)
        await fake.wait_for(lambda: "global" in fake.commands, timeout=30)
        asked = [
            await fake.command("termino", {"termino": f"sin respuesta {i}"}, guild=g, user_id=500 + i)
            for i, g in enumerate(GUILDS)
        ]
        for iid in asked:
            assert (await fake.response(iid, timeout=30))["type"] == 4
        for plan in ("0/2", "1/2"):  # each process has its own heartbeat, and says its shard is connected
            beat = tmp_path / "data" / f"heartbeat-{plan.replace('/', '-of-')}"
            await eventually(beat.exists, timeout=15)  # written once the process's shards are all ready
            command = [sys.executable, "-m", "bot", "health"]
            done = functools.partial(subprocess.run, cwd=ROOT, env=env(plan, LANG="en_US.UTF-8"), capture_output=True)
            health = await asyncio.to_thread(done, command, text=True)
            assert health.returncode == 0 and f"shards: {plan[0]})" in health.stdout, health.stdout + health.stderr
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        outputs = [await finish(proc) for proc in procs]
        await fake.stop()
    assert [code for code, _ in outputs] == [0, 0]
    assert all(len(fake.responses[iid]) == 1 for iid in asked)
    published = [path for method, path, _ in fake.requests if method == "PUT" and path.endswith("/commands")]
    assert len(published) == 1
    assert "[shard 0/2]" in outputs[0][1] and "[shard 1/2]" in outputs[1][1]  # log lines carry the shard
    harness = Harness(fake, tmp_path, extra.get("GLOSARIO_DB"))
    logged = {row[0] for row in harness.rows("SELECT guild_id FROM misses")}
    assert logged == {g.id for g in GUILDS}  # gaps from both processes, in the one database
