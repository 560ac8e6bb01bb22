"""Faults a real `glosario-bot run` process survives: a read-only data directory, SIGKILL, lost replies."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.fake_discord.process import env_for, finish, run_bot, serving
from tests.fake_discord.server import MANAGE_MESSAGES, MEMBER_PERMISSIONS


@contextlib.contextmanager
def read_only(directory: Path):
    """Make a directory read-only for the bot, even when the tests run as root (who ignores permission bits):
    there the directory is made immutable, which root cannot write either."""
    if os.geteuid() != 0:
        directory.chmod(0o555)
        try:
            yield
        finally:
            directory.chmod(0o755)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(directory)]).returncode != 0:
        pytest.skip("running as root and this file system cannot make a directory immutable (chattr +i)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(directory)], check=True)


def journaled_and_stored(data: Path) -> list[str]:
    """Every miss the bot kept: in the database, or in its journal waiting to be replayed."""
    with sqlite3.connect(data / "glosario.db") as conn:
        stored = [sample for (sample,) in conn.execute("SELECT sample FROM misses")]
    journal = data / "glosario.db.pending.jsonl"
    if journal.exists():
        import json

        stored += [json.loads(line)["sample"] for line in journal.read_text().splitlines() if '"miss"' in line]
    return stored


async def test_sigterm_with_a_read_only_data_directory_still_stops_and_says_what_failed(fake, tmp_path):
    data = tmp_path / "data"
    proc = await run_bot(env_for(fake, tmp_path), "run")
    try:
        await serving(fake, proc)
        for _ in range(200):  # written as the gateway connection opens
            if (data / "heartbeat").exists():
                break
            await asyncio.sleep(0.05)
        with read_only(data):
            reply = await fake.response(await fake.command("termino", {"termino": "computación cuántica"}))
            assert "todavía no está" in reply["data"]["content"]
            proc.send_signal(signal.SIGTERM)
            code, out = await finish(proc, within=12)  # Docker waits 10 s before it kills
    finally:
        if proc.returncode is None:
            proc.kill()
    assert code == 1, out
    assert "ERROR" in out and "could not remove the heartbeat file" in out
    assert "Traceback" not in out.split("could not remove the heartbeat file")[0][-2000:]
    assert journaled_and_stored(data) == ["computación cuántica"]  # nothing lost on the way out


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing database"])
async def test_start_up_refuses_a_data_directory_it_cannot_write(fake, tmp_path, existing):
    data = tmp_path / "data"
    data.mkdir()
    if existing:
        sqlite3.connect(data / "glosario.db").close()
    with read_only(data):
        code, out = await finish(await run_bot(env_for(fake, tmp_path), "run"))
    assert code == 1, out
    assert f"No se puede escribir en la base de datos {data / 'glosario.db'}" in out
    assert f"el directorio {data} no admite escritura" in out and "GLOSARIO_DB" in out
    assert "Traceback" not in out
    assert fake.requests == []  # refused before talking to Discord


async def test_sigkill_half_a_second_after_50_misses_loses_none(fake, tmp_path):
    proc = await run_bot(env_for(fake, tmp_path, LOG_LEVEL="INFO"), "run")
    try:
        await serving(fake, proc)
        queries = [f"laguna número {n}" for n in range(50)]
        ids = [await fake.command("termino", {"termino": q}, user_id=7000 + n) for n, q in enumerate(queries)]
        for iid in ids:
            assert "todavía no está" in (await fake.response(iid))["data"]["content"]
        await asyncio.sleep(0.5)  # the window docs/privacy.md promises (misses reach the disk within 100 ms)
    finally:
        proc.kill()
    await finish(proc)
    assert sorted(journaled_and_stored(tmp_path / "data")) == sorted(queries)


async def test_replies_do_not_wait_behind_another_process_holding_the_write_lock(fake, harness):
    bot = await harness.start()
    locker = await harness.locked()  # another process writing, for longer than Discord's 3 s
    try:
        miss = await fake.command("termino", {"termino": "computación cuántica"}, user_id=5)
        assert "todavía no está" in (await fake.response(miss, timeout=2.5))["data"]["content"]
        # the write queue is now waiting for the lock: replies that read or write must not queue behind it
        today = await fake.command("termino-del-dia", user_id=6)
        assert (await fake.response(today, timeout=2.5))["data"]["embeds"][0]["author"]["name"].startswith(
            "Término del día"
        )
        moderator = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
        listing = await fake.command("glosario-admin pendientes", permissions=moderator, user_id=7)
        assert (await fake.response(listing, timeout=2.5))["data"]["embeds"]
    finally:
        locker.rollback()
        locker.close()
    await harness.flushed(bot, within=20)
    assert harness.rows("SELECT sample FROM misses") == [("computación cuántica",)]  # and nothing was lost


async def test_health_notices_the_database_was_replaced_under_the_running_bot(fake, harness):
    from datetime import UTC, datetime

    from bot.app.health import check

    bot = await harness.start()
    db_path = harness.db_path
    for _ in range(100):  # the heartbeat is written as the gateway connection opens
        if db_path.with_name("heartbeat").exists():
            break
        await asyncio.sleep(0.05)
    assert check(db_path.with_name("heartbeat"), db_path, datetime.now(UTC)).healthy is True
    db_path.rename(db_path.with_name("moved-away.db"))
    db_path.mkdir()  # an operator's mistake: a directory where the database was
    found = check(db_path.with_name("heartbeat"), db_path, datetime.now(UTC))
    assert found.healthy is False and found.reason == "health_db_replaced"
    db_path.rmdir()
    shutil.copy(db_path.with_name("moved-away.db"), db_path)  # a copy is another file, too
    assert check(db_path.with_name("heartbeat"), db_path, datetime.now(UTC)).reason == "health_db_replaced"
    del bot


async def test_postgresql_stopped_mid_traffic_keeps_every_answered_gap_once(
    fake, tmp_path, postgres_url, postgres_cluster
):
    """The issue's outage: PostgreSQL stops while members ask; the bot is stopped while it is down and started again
    once it is back. Every gap answered is counted once: before, during and after, in the database or the journal."""
    import json

    from bot.app.limits import RateLimit
    from tests.discord_app.conftest import Harness

    harness = Harness(fake, tmp_path, postgres_url)
    journal = tmp_path / "data" / "glosario.pending.jsonl"
    asked: list[str] = []

    async def ask(count: int) -> None:
        for _ in range(count):
            asked.append(f"laguna número {len(asked)}")
            iid = await fake.command("termino", {"termino": asked[-1]}, user_id=7000 + len(asked))
            assert "todavía no está" in (await fake.response(iid))["data"]["content"]  # acknowledged

    try:
        bot = await harness.start()
        bot.guard.rate = RateLimit(10_000, 20)
        await ask(20)
        stopping = asyncio.create_task(asyncio.to_thread(postgres_cluster.halt))
        while not stopping.done():  # asked while the server stops: some writes are cut mid-statement
            await ask(1)
        await ask(20)
        await harness.stop(bot)  # while PostgreSQL is down: what the database did not take is journaled
        records = [json.loads(line) for line in journal.read_text().splitlines()]
        journaled = [r["sample"] for r in records if r["op"] == "miss"]
        await asyncio.to_thread(postgres_cluster.resume)
        stored = [sample for (sample,) in harness.rows("SELECT sample FROM misses")]
        # Every one in one place or the other; in both when a commit landed but its answer was cut with the
        # connection (the replay skips those by their ids).
        assert set(stored) | set(journaled) == set(asked)
        bot = await harness.start()  # replays the journal
        bot.guard.rate = RateLimit(10_000, 20)
        await ask(20)
        await harness.flushed(bot)
        counted = dict(harness.rows("SELECT sample, count FROM misses"))
    finally:
        await harness.stop_all()
        with contextlib.suppress(RuntimeError):  # (already running, unless the test failed while it was down)
            postgres_cluster.resume()
    assert sorted(counted) == sorted(asked) and set(counted.values()) == {1}, len(asked)  # each exactly once
    assert journaled and not journal.exists()
