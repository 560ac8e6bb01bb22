"""The write queue under bad records, replays and a full disk, on a real SQLite file in a temp dir."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap

import pytest

from bot.storage.db import SqlAppliedWrites
from bot.storage.gaps import SqlGapStore
from bot.storage.records import MissRecord, record_fields
from bot.storage.writer import WriteQueue
from tests.conftest import ROOT


@pytest.fixture
def db(database):
    """On SQLite and on PostgreSQL (tests/conftest.py): the journal's guarantees hold on both."""
    return database


def queue_for(db, journal, **kw) -> WriteQueue:
    return WriteQueue(
        {MissRecord: SqlGapStore(db).record_misses},
        journal,
        unit=db,
        applied=SqlAppliedWrites(db),
        attempts=2,
        first_delay=0.01,
        linger=0,
        **kw,
    )


def miss(sample: str, normalized: str | None = None) -> MissRecord:
    return MissRecord(1, sample, normalized or sample, "a", None, "lookup", "2026-12-03T10:00:00")


async def test_a_record_the_database_cannot_take_is_set_aside_and_never_stops_the_others(db, tmp_path):
    journal = tmp_path / "g.db.pending.jsonl"
    queue = queue_for(db, journal)
    await queue.start()
    queue.submit(miss("antes"))
    queue.submit(miss("roto \ud800", "roto \ud800"))  # a lone surrogate: neither UTF-8 nor SQLite take it
    queue.submit(miss("después"))
    await asyncio.wait_for(queue.drain(), 10)
    queue.submit(miss("más tarde"))  # the worker is still alive
    await asyncio.wait_for(queue.drain(), 10)
    assert await queue.close(grace=2) == 0
    assert sorted(g.sample for g in await SqlGapStore(db).gaps()) == ["antes", "después", "más tarde"]
    (line,) = (tmp_path / "g.db.pending.jsonl.rejected").read_text().splitlines()
    kept = json.loads(line)
    assert kept["sample"] == "roto \ud800" and "UnicodeEncodeError" in kept["rejected_because"]
    assert not journal.exists()


async def test_replaying_a_journal_twice_counts_each_record_once(db, tmp_path):
    journal = tmp_path / "g.db.pending.jsonl"
    records = [{"op": "miss", "id": f"run1-{i}", **record_fields(miss("tokenizacion"))} for i in range(3)]
    journal.write_text("".join(json.dumps(r) + "\n" for r in records))
    copy = journal.read_text()
    first = queue_for(db, journal)
    assert await first.replay_journal() == 3
    # A crash between the database write and the journal cleanup: the same journal is there again.
    journal.write_text(copy + '{"op": "miss", "id": "run1-3", "guild_id": 1, "sam')  # and a half-written line
    second = queue_for(db, journal)
    assert await second.replay_journal() == 0
    (gap,) = await SqlGapStore(db).gaps()
    assert gap.count == 3
    assert not journal.exists()


async def test_close_always_returns_and_says_what_it_could_not_save(db, tmp_path):
    (tmp_path / "a-file").write_text("x")
    journal = tmp_path / "a-file" / "pending.jsonl"  # neither the database (blocked) nor the journal take it
    blocked = asyncio.Event()

    async def stuck(records):
        await blocked.wait()

    queue = WriteQueue({MissRecord: stuck}, journal, unit=db, linger=0)
    await queue.start()
    for n in range(3):
        queue.submit(miss(f"q{n}"))
    assert await asyncio.wait_for(queue.close(grace=0.1), 5) == 3


FULL_DISK = textwrap.dedent(
    """
    import asyncio, json, resource, signal, sys
    from pathlib import Path
    from bot.storage.records import MissRecord
    from bot.storage.writer import WriteQueue
    from tests.helpers import NoDatabase

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing past the limit fails with EFBIG, like a full disk
    journal = Path(sys.argv[1])
    limit = journal.stat().st_size + 300
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    async def refuse(records):
        raise OSError(28, "No space left on device")

    async def main():
        queue = WriteQueue({MissRecord: refuse}, journal, unit=NoDatabase(), attempts=1, linger=0)
        await queue.start()
        for n in range(30):
            queue.submit(MissRecord(1, "x" * 40, f"x{n}", "a", None, "lookup", "t"))
        print(json.dumps({"lost": await queue.close(grace=2)}))

    asyncio.run(main())
    """
)


def test_a_full_disk_never_leaves_a_half_written_journal(tmp_path):
    journal = tmp_path / "pending.jsonl"
    old = [{"op": "miss", "id": f"old-{i}", **record_fields(miss(f"y{i}"))} for i in range(5)]
    before = "".join(json.dumps(record) + "\n" for record in old)
    journal.write_text(before)
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(journal)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"lost": 30}  # said, not silently dropped
    assert "could be saved neither in the database nor in" in done.stderr
    assert journal.read_text() == before  # the old records whole, and no partial new one
    assert not list(tmp_path.glob(".pending.jsonl-*"))  # no temp file left behind
