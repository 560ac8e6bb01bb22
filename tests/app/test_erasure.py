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

    async def forget_member(self, user_id: int, asker: str | None, *, dry_run: bool) -> Erased:
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
