"""A read shared by the callers that come while it runs (bot/app/community/reads.py), through the editor role of a
server (EditorRoles): a read that fails reaches the callers still waiting, and one that fails after every caller
gave up is logged once, a warning naming what was read and the server, and asyncio has nothing left to say of it.
Real SQLite file; the database failing is a store that raises, holding the read until the test lets it fail."""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3

import pytest

from tests.app.test_server_terms import GUILD, open_app


@pytest.fixture
async def app(tmp_path):
    application = await open_app(tmp_path)
    yield application
    await application.close()


class Failing:
    """The real store; reading the editor role waits for `fail`, then raises as a failing disk does."""

    def __init__(self, store) -> None:
        self.store, self.reading, self.fail = store, asyncio.Event(), asyncio.Event()

    def __getattr__(self, name):
        return getattr(self.store, name)

    async def editor_role(self, guild_id):
        self.read = asyncio.current_task()  # (the shared read's own task)
        self.reading.set()
        await self.fail.wait()
        raise sqlite3.OperationalError("disk I/O error")


def warnings_of_reads(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.app.community.reads"]


def never_retrieved(caplog) -> list[logging.LogRecord]:
    gc.collect()  # (asyncio says it of a failed task as it is collected)
    return [r for r in caplog.records if "never retrieved" in r.getMessage()]


@pytest.mark.parametrize("gives_up", ["before", "as it fails"])
async def test_a_read_that_fails_after_every_caller_gave_up_is_logged_once(app, caplog, gives_up):
    roles = app.roles
    roles.store = store = Failing(roles.store)
    callers = [asyncio.create_task(roles.editor_role(GUILD)) for _ in range(3)]  # (one read, shared)
    await store.reading.wait()
    read = store.read
    if gives_up == "before":
        for caller in callers:
            caller.cancel()
        await asyncio.gather(*callers, return_exceptions=True)
        store.fail.set()
    else:  # (in the same turn of the loop as the read fails)
        store.fail.set()
        for caller in callers:
            caller.cancel()
        await asyncio.gather(*callers, return_exceptions=True)
    await asyncio.wait({read})  # (its end, which no caller sees)
    del callers, read, store.read
    assert never_retrieved(caplog) == []
    (warning,) = warnings_of_reads(caplog)
    assert warning.levelno == logging.WARNING
    assert warning.getMessage() == f"reading the editor role of guild {GUILD} failed after every caller had given up"
    assert isinstance(warning.exc_info[1], sqlite3.OperationalError)


async def test_a_read_that_fails_reaches_the_callers_still_waiting_and_is_not_logged_again(app, caplog):
    roles = app.roles
    roles.store = store = Failing(roles.store)
    gone, waiting = (asyncio.create_task(roles.editor_role(GUILD)) for _ in range(2))
    await store.reading.wait()
    gone.cancel()
    await asyncio.gather(gone, return_exceptions=True)
    store.fail.set()
    with pytest.raises(sqlite3.OperationalError):
        await waiting  # (its reply reports it: the member's apology and the logged error)
    assert warnings_of_reads(caplog) == []
    assert never_retrieved(caplog) == []
