"""Operation in-process: shutdown lets replies finish and turns new work away politely; reload swaps safely."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import shutil
import sqlite3
import weakref
from pathlib import Path

import pytest

from bot import heap
from bot.core.errors import GlossaryError
from tests.conftest import SHIPPED
from tests.helpers import eventually

FAILS_TO_READ = Path("/proc/self/mem")  # (Linux: reading it through a link fails)
CAN_FAIL_TO_READ = FAILS_TO_READ.exists()


async def test_shutdown_finishes_in_flight_and_answers_newcomers(fake, harness):
    bot = await harness.start()
    fake.callback_delay = 0.5
    first = await fake.command("termino", {"termino": "horovod"})
    await fake.wait_for(lambda: fake.callbacks_started >= 1)
    stopping = asyncio.create_task(bot.shutdown(grace=5))
    await asyncio.sleep(0.05)
    late = await fake.command("termino", {"termino": "ray"}, user_id=5)
    await asyncio.wait_for(stopping, 10)
    assert (await fake.response(first, timeout=1))["data"]["embeds"][0]["title"] == "Horovod"
    late_reply = await fake.response(late, timeout=1)
    assert "reiniciando" in late_reply["data"]["content"] and late_reply["data"]["flags"] & 64
    assert bot.is_closed()


async def test_reload_swaps_only_a_valid_glossary(fake, harness, tmp_path):
    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    bot = await harness.start(data_dir=data)
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: Ajuste Fino\n    definition: Fine-tuning.\n")
    report = await bot.app.glossary.reload()
    assert len(report.catalog.glossary) == 18
    assert [t.term for t in report.changes.added] == ["Ajuste Fino"]
    reply = await fake.response(await fake.command("termino", {"termino": "ajuste fino"}))
    assert reply["data"]["embeds"][0]["title"] == "Ajuste Fino"
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: [roto\n")
    error = await bot.app.glossary.reload()
    assert isinstance(error, GlossaryError)
    assert str(data / "extra.yaml") in error.report()
    assert len(bot.app.catalog.glossary) == 18  # the last good glossary keeps serving
    if CAN_FAIL_TO_READ:  # a term file that cannot be read at all (an input/output error)
        (data / "extra.yaml").unlink()
        (data / "extra.yaml").symlink_to(FAILS_TO_READ)
        error = await bot.app.glossary.reload()
        assert isinstance(error, GlossaryError) and f"{data / 'extra.yaml'}: no se puede leer (" in error.report()
        reply = await fake.response(await fake.command("termino", {"termino": "ajuste fino"}, user_id=7))
        assert reply["data"]["embeds"][0]["title"] == "Ajuste Fino"  # still served


async def test_a_reload_frees_the_replaced_glossary_and_keeps_the_new_one_out_of_the_collector(fake, harness):
    bot = await harness.start()
    heap.settle()  # as `glosario-bot run` does once the glossary is loaded
    old_index = weakref.ref(bot.app.catalog.index)
    bot.app.catalog.index.lookup("horovd")  # fill its caches, as serving does
    report = await bot.app.glossary.reload()
    assert old_index() is None  # frozen objects are never collected: the old glossary was let go first
    assert gc.get_freeze_count() > len(report.catalog.glossary)  # the new one is out of the collector's way
    assert not any(obj is report.catalog.index for obj in gc.get_objects())


async def test_an_unexpected_failure_gets_a_short_apology_not_the_exception(fake, harness):
    from bot.discord_app.kit.i18n import STRINGS
    from tests.fake_discord.server import MANAGE_MESSAGES, MEMBER_PERMISSIONS

    bot = await harness.start()
    await bot.app.stores.close()  # the database is gone from under the bot
    moderator = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
    reply = await fake.response(await fake.command("glosario-admin pendientes", permissions=moderator))
    assert reply["data"]["flags"] & 64
    assert reply["data"]["content"] == STRINGS["es"]["error"]  # no exception text
    lookup = await fake.response(await fake.command("termino", {"termino": "horovod"}))
    assert lookup["data"]["embeds"][0]["title"] == "Horovod"  # answering from memory still works


def _loops(bot) -> dict:
    """Every background loop of the bot, by name: (the loop, what its tick calls, where to make that fail)."""
    import bot.discord_app.daily._cog as daily_module
    import bot.discord_app.digest._cog as digest_module

    operation = bot.get_cog("OperationCog")
    return {
        "reloads": (operation.follow_reloads, bot.app.glossary, "follow_others"),
        "heartbeat": (operation.heartbeat, bot.app, "beat"),
        "daily": (bot.get_cog("DailyCog").scheduler, daily_module, "each_server"),
        "digest": (bot.get_cog("DigestCog").scheduler, digest_module, "each_server"),
        "counters": (None, bot.app.lookups, "flush"),
    }


@pytest.mark.parametrize("name", ["reloads", "heartbeat", "daily", "digest", "counters"])
async def test_every_background_loop_outlives_any_error_and_goes_on(fake, harness, monkeypatch, caplog, name):
    import bot.app.application as application
    from bot.core.problems import said
    from bot.storage.errors import DatabaseBusy, StorageError

    monkeypatch.setattr(application, "LOOKUP_FLUSH_SECONDS", 0.01)
    bot = await harness.start()
    loop, owner, attribute = _loops(bot)[name]
    real = getattr(owner, attribute)
    failures = [DatabaseBusy("database is locked"), StorageError(said("db_upgrade_bot")), RuntimeError("unexpected")]
    calls = []

    def tick(*args, **kwargs):
        calls.append(name)
        if failures:
            raise failures.pop(0)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, attribute, tick)
    if loop is not None:  # (a new interval counts from the next sleep: restart, or wait out the one under way)
        loop.change_interval(seconds=0.01)
        loop.restart()
    await eventually(lambda: len(calls) >= 5)  # three failing ticks, then it went on
    assert loop is None or loop.is_running()
    assert "Unhandled exception" not in caplog.text
    assert "unexpected" in caplog.text and "trying again at the next tick" in caplog.text


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_following_reloads_survives_the_database_going_away_and_resumes(fake, tmp_path, caplog, request, backend):
    from bot.app.glossary import RELOADED_KEY
    from tests.discord_app.conftest import Harness

    harness = Harness(fake, tmp_path, request.getfixturevalue("postgres_url") if backend == "postgresql" else None)

    async def another_process_reloads(token: str, gap: str) -> None:  # with a gap the reloaded glossary answers
        await harness.edit(
            "INSERT INTO misses (guild_id, normalized, query_hash, sample, first_seen, last_seen) "
            "VALUES (1, ?, ?, ?, 't', 't')",
            gap,
            gap,
            gap,
        )
        await harness.edit(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            RELOADED_KEY,
            token,
        )

    try:
        bot = await harness.start()
        loop = bot.get_cog("OperationCog").follow_reloads
        loop.change_interval(seconds=3600)
        await another_process_reloads("otro-1", "horovod")
        with _database_down(request, harness):  # (SQLite: the reload's write of the answered gap is refused)
            loop.change_interval(seconds=0.05)
            await eventually(lambda: "following reloads by other processes: the database is unavailable" in caplog.text)
        await another_process_reloads("otro-2", "ray")
        resolved = "SELECT sample FROM misses WHERE status = 'resolved' ORDER BY sample"
        await eventually(lambda: harness.rows(resolved) == [("horovod",), ("ray",)])
        assert loop.is_running() and "Unhandled exception" not in caplog.text
    finally:
        await harness.stop_all()


@contextlib.contextmanager
def _database_down(request, harness):
    """PostgreSQL stopped; for SQLite, the stand-in: another connection holding the file's exclusive lock."""
    if harness.postgres_url is not None:
        with request.getfixturevalue("postgres_cluster").down():
            yield
        return
    locker = sqlite3.connect(harness.db_path, timeout=5, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another process writing, for as long as the block lasts
    try:
        yield
    finally:
        locker.execute("ROLLBACK")
        locker.close()
