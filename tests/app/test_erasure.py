"""Forgetting a member while the write queue is busy: nothing it is still writing brings them back."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.app.privacy import erasure as erasure_module
from bot.app.privacy.erasure import Erasure
from bot.core.gaps import asker_hash
from bot.storage.records import Erased, GapRecord
from bot.storage.writer import WriteQueue

SALT = "0123456789abcdef0123456789abcdef"
G, MEMBER, OTHER = 424242424242424242, 777777777777777777, 888888888888888888
AT = "2026-12-03T10:00:00+00:00"


class Unavailable:
    """A unit of work whose database refuses every write (locked, stopped) until `down` is set to False."""

    def __init__(self) -> None:
        self.down = True
        self.tried = asyncio.Event()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        self.tried.set()
        if self.down:
            raise OSError("database is locked")
        yield

    def refuses_content(self, error: BaseException) -> bool:
        return not isinstance(error, OSError)


class NothingStored:
    """An erasure store with nothing in it (what is under test here is the queue and the journals)."""

    async def forget_member(self, user_id: int, asker: str | None, *, at: str, dry_run: bool) -> Erased:
        return Erased({})


def gap(who: int) -> GapRecord:
    return GapRecord(G, "nebula", "nebula", asker_hash(SALT, who), None, "lookup", AT)


@pytest.mark.parametrize("back", [False, True], ids=["still-down", "back-after-the-erasure"])
async def test_a_batch_being_written_during_the_erasure_neither_writes_nor_journals_the_member(
    tmp_path, monkeypatch, back
):
    monkeypatch.setattr(erasure_module, "DRAIN_WAIT", 0.05)  # (the batch outlasts the wait, as on a busy database)
    written: list[GapRecord] = []

    async def write(batch):
        written.extend(batch)

    unit, journal = Unavailable(), tmp_path / "g.db.pending.jsonl"
    queue = WriteQueue({GapRecord: write}, journal, unit=unit, reserve=0, attempts=3, first_delay=0.2, linger=0)
    await queue.start()
    queue.submit(gap(MEMBER))
    queue.submit(gap(OTHER))
    await asyncio.wait_for(unit.tried.wait(), 5)  # both are in the batch being written (and retried)
    erasure = Erasure(
        NothingStored(), SALT, lambda: [journal], lambda: datetime.now(UTC), grace=timedelta(days=30), writer=queue
    )

    await erasure.forget_member(MEMBER)
    unit.down = not back
    await asyncio.wait_for(queue.drain(), 10)

    mine = asker_hash(SALT, MEMBER)
    kept = [json.loads(line) for line in journal.read_text().splitlines()] if journal.exists() else []
    assert mine not in [r.asker for r in written] + [r["asker"] for r in kept]
    assert [r.asker for r in written] + [r["asker"] for r in kept] == [asker_hash(SALT, OTHER)]  # theirs stays
    assert await queue.close(grace=1) == 0


async def test_lookup_counts_handed_to_the_queue_while_a_server_is_forgotten_are_not_written_back(
    tmp_path, monkeypatch
):
    """The lookup counts are handed to the write queue every second (`Lookups.flush`), whatever else runs: one
    flush while a server is being forgotten, after its queued writes were dropped, must not hand over counts of that
    server that the erasure has not dropped from memory yet (they would be written after its rows went)."""
    import sqlite3

    from bot.core.status import Outcome
    from tests.app.test_server_terms import open_app

    app = await open_app(tmp_path)
    try:
        app.lookups.count(G, Outcome.FOUND, "horovod")  # counted, not yet handed to the queue
        app.lookups.count(OTHER, Outcome.FOUND, "horovod")  # another server's
        erase = app.erasure.store.forget_server

        async def flushed_meanwhile(guild_id: int, *, at: str, dry_run: bool) -> Erased:
            app.lookups.flush()  # the flusher's tick, between the queue's clearing and the rows' removal
            return await erase(guild_id, at=at, dry_run=dry_run)

        monkeypatch.setattr(app.erasure.store, "forget_server", flushed_meanwhile)
        await app.erasure.forget_server(G)
        app.lookups.flush()
        await asyncio.wait_for(app.writer.drain(), 10)
    finally:
        assert await app.close() == []
    with contextlib.closing(sqlite3.connect(tmp_path / "g.db")) as db:
        assert db.execute("SELECT guild_id, SUM(count) FROM lookups GROUP BY guild_id").fetchall() == [(OTHER, 1)]


async def test_a_forgotten_servers_editor_role_leaves_memory_with_its_row(tmp_path):
    """The editor role, kept in memory a short while (asked at every interaction of a non-moderator), goes with the
    server's rows at once: a server forgotten and back has no editors until it sets a role again."""
    from tests.app.test_server_terms import open_app

    app = await open_app(tmp_path)
    try:
        await app.roles.set_editor_role(G, 12345)
        assert await app.roles.editor_role(G) == 12345  # (now in memory)
        await app.erasure.forget_server(G)
        assert await app.roles.editor_role(G) is None
    finally:
        assert await app.close() == []
