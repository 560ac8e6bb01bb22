"""The write queue under bad records, replays and a full disk, on a real SQLite file in a temp dir."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage.db import SqlAppliedWrites
from bot.storage.gaps import SqlGapStore
from bot.storage.records import GapRecord, record_fields
from bot.storage.writer import WriteQueue
from tests.conftest import ROOT


@pytest.fixture
def db(database):
    """On SQLite and on PostgreSQL (tests/conftest.py): the journal's guarantees hold on both."""
    return database


def queue_for(db, journal, handlers: dict | None = None, **kw) -> WriteQueue:
    """A write queue into `db` that retries quickly and writes at once (gaps, unless `handlers` says what)."""
    return WriteQueue(
        handlers or {GapRecord: SqlGapStore(db).record_gaps},
        journal,
        unit=db,
        applied=SqlAppliedWrites(db),
        attempts=2,
        first_delay=0.01,
        linger=0,
        **kw,
    )


def miss(sample: str, normalized: str | None = None) -> GapRecord:
    return GapRecord(1, sample, normalized or sample, "a", None, "lookup", "2026-12-03T10:00:00")


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

    queue = WriteQueue({GapRecord: stuck}, journal, unit=db, linger=0)
    await queue.start()
    for n in range(3):
        queue.submit(miss(f"q{n}"))
    assert await asyncio.wait_for(queue.close(grace=0.1), 5) == 3


FULL_DISK = textwrap.dedent(
    """
    import asyncio, json, resource, signal, sys
    from pathlib import Path
    from bot.storage.records import GapRecord
    from bot.storage.writer import WriteQueue
    from tests.helpers import NoDatabase

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing past the limit fails with EFBIG, like a full disk
    journal = Path(sys.argv[1])
    limit = journal.stat().st_size + 300
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    async def refuse(records):
        raise OSError(28, "No space left on device")

    async def main():
        queue = WriteQueue({GapRecord: refuse}, journal, unit=NoDatabase(), attempts=1, linger=0)
        await queue.start()
        for n in range(30):
            queue.submit(GapRecord(1, "x" * 40, f"x{n}", "a", None, "lookup", "t"))
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


@pytest.fixture
async def second_connection(db):
    """The same database opened again: what another process sharing it has (its own connections and locks)."""
    from bot.storage import open_stores

    other = await open_stores(db.path if isinstance(db.path, Path) else db.url)
    yield other.database
    await other.close()


def journal_of(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def records_like(n: int, run: str = "old") -> list[dict]:
    return [{"op": "miss", "id": f"{run}-{i}", **record_fields(miss("tokenizacion"))} for i in range(n)]


async def test_ids_claimed_already_are_told_apart_and_the_batch_goes_on_in_its_transaction(db):
    """A batch holding ids the database has (a replay, a batch whose commit landed after all): only the new ones are
    claimed, in the same transaction as the records written after the claim, which commit together."""
    applied = SqlAppliedWrites(db)
    async with db.transaction():
        assert await applied.mark(["r-1", "r-2"]) == {"r-1", "r-2"}
    async with db.transaction():
        assert await applied.mark(["r-2", "r-3", "r-1", "r-4"]) == {"r-3", "r-4"}  # (the first statement there)
        await SqlGapStore(db).record_gaps([miss("tras el reclamo")])
    assert await applied.applied(["r-1", "r-2", "r-3", "r-4", "r-5"]) == {"r-1", "r-2", "r-3", "r-4"}
    assert [g.sample for g in await SqlGapStore(db).gaps()] == ["tras el reclamo"]
    with pytest.raises(RuntimeError):
        async with db.transaction():
            assert await applied.mark(["r-5", "r-1"]) == {"r-5"}
            raise RuntimeError("the records could not be written")
    assert await applied.applied(["r-5"]) == set()  # a claim rolls back with its records


async def test_two_processes_replaying_copies_of_one_journal_at_once_count_each_record_once(
    db, second_connection, tmp_path
):
    records = records_like(20)
    first = queue_for(db, journal_of(tmp_path / "a.pending.jsonl", records))
    second = queue_for(second_connection, journal_of(tmp_path / "b.pending.jsonl", records))
    done = await asyncio.gather(first.replay_journal(), second.replay_journal())
    (gap,) = await SqlGapStore(db).gaps()
    assert gap.count == 20 and sorted(done) == [0, 20]  # each id claimed in the transaction that applies it
    assert first.duplicates + second.duplicates == 20  # whether the two overlapped or one came after the other


async def test_a_journal_replayed_after_another_process_applied_it_counts_every_record_as_a_duplicate(
    db, second_connection, tmp_path
):
    records = records_like(20)
    first = queue_for(db, journal_of(tmp_path / "a.pending.jsonl", records))
    second = queue_for(second_connection, journal_of(tmp_path / "b.pending.jsonl", records))
    assert await first.replay_journal() == 20
    assert await second.replay_journal() == 0  # found applied before writing: nothing written twice
    assert (first.duplicates, second.duplicates) == (0, 20)
    (gap,) = await SqlGapStore(db).gaps()
    assert gap.count == 20


async def test_processes_starting_together_replay_the_old_shared_journal_once_and_lose_nothing(
    db, second_connection, tmp_path
):
    shared = journal_of(tmp_path / "g.db.pending.jsonl", records_like(20))  # left by the old shared default
    mine, theirs = tmp_path / "g.db.0-of-2.pending.jsonl", tmp_path / "g.db.1-of-2.pending.jsonl"
    first = queue_for(db, mine, others=[shared, theirs])
    second = queue_for(second_connection, theirs, others=[shared, mine])
    assert sorted(await asyncio.gather(first.replay_journal(), second.replay_journal())) == [0, 20]
    (gap,) = await SqlGapStore(db).gaps()
    assert gap.count == 20
    assert sorted(p.name for p in tmp_path.glob("*.jsonl*") if not p.name.endswith((".lock", ".reserve"))) == []


async def test_a_replay_cut_short_is_finished_by_the_next_start_and_a_live_one_is_left_alone(db, tmp_path):
    import fcntl

    shared = tmp_path / "g.db.pending.jsonl"
    crashed = journal_of(tmp_path / "g.db.pending.jsonl.replaying-77-dead", records_like(3, "crashed"))
    live = journal_of(tmp_path / "g.db.pending.jsonl.replaying-78-live", records_like(5, "live"))
    held = os.open(live, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)  # a process replaying it right now
    queue = queue_for(db, tmp_path / "mine.pending.jsonl", others=[shared])
    assert await queue.replay_journal() == 3
    os.close(held)  # (it stopped: the lock goes with it)
    assert not crashed.exists() and live.exists()
    assert await queue_for(db, tmp_path / "mine.pending.jsonl", others=[shared]).replay_journal() == 5
    (gap,) = await SqlGapStore(db).gaps()
    assert gap.count == 8 and not live.exists()


class FullDisk:
    """A disk of `capacity` bytes per folder, for the writer's file writes: the space its files take (a released
    reserve gives its bytes back) decides whether a write fits, as on a real full disk."""

    def __init__(self, capacities: dict[Path, int]) -> None:
        self.capacities = capacities

    def used(self, folder: Path) -> int:
        return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())

    def write(self, path: Path, fh, text: str) -> None:
        folder = path.parent
        if folder in self.capacities and self.used(folder) + len(text.encode()) > self.capacities[folder]:
            raise OSError(28, "No space left on device")
        fh.write(text)


@pytest.mark.parametrize("where", ["journal", "fallback", "log"])
async def test_a_full_disk_at_stop_keeps_every_record_in_the_journal_the_fallback_or_the_log_once(
    tmp_path, monkeypatch, caplog, where
):
    import bot.storage.journal as journal_files
    import bot.storage.writer as writer
    from tests.helpers import NoDatabase

    main, spare = tmp_path / "data", tmp_path / "spare"
    main.mkdir(), spare.mkdir()
    journal = main / "g.db.pending.jsonl"

    async def refuse(records):
        raise OSError(28, "No space left on device")

    queue = WriteQueue(
        {GapRecord: refuse},
        journal,
        unit=NoDatabase(),
        attempts=1,
        linger=0,
        reserve=64 * 1024 if where == "journal" else 0,
        fallback=spare / journal.name if where != "log" else None,
    )
    await queue.start()  # (the reserve is set aside now, while the disk has room)
    disk = FullDisk({main: FullDisk({}).used(main), spare: 1 << 20 if where == "fallback" else 0})
    monkeypatch.setattr(journal_files, "_write_text", disk.write)
    for n in range(30):
        queue.submit(GapRecord(1, f"pregunta {n}", f"pregunta {n}", "a", None, "lookup", "t"))
    lost = await queue.close(grace=2)

    def ids(path: Path) -> list[str]:
        return [json.loads(line)["id"] for line in path.read_text().splitlines()] if path.exists() else []

    logged = [
        json.loads(r.getMessage().split(writer.UNSAVED, 1)[1])["id"]
        for r in caplog.records
        if writer.UNSAVED in r.getMessage() and r.getMessage().startswith(writer.UNSAVED)
    ]
    kept = {"journal": ids(journal), "fallback": ids(spare / journal.name), "log": logged}
    assert len(kept[where]) == 30 and len(set(kept[where])) == 30  # every record, once
    assert sum(len(v) for v in kept.values()) == 30  # and nowhere else
    assert lost == (30 if where == "log" else 0)
    assert queue.journaled == (0 if where == "log" else 30)


async def test_what_memory_held_is_not_lost_when_stop_interrupts_its_second_try(tmp_path, caplog):
    import bot.storage.writer as writer
    from tests.helpers import NoDatabase

    (tmp_path / "a-file").write_text("x")
    journal = tmp_path / "a-file" / "pending.jsonl"  # the journal refuses: what the database refused stays in memory
    calls, blocked = [], asyncio.Event()

    async def handler(records):
        calls.append([r.sample for r in records])
        if len(calls) == 1:
            raise OSError(28, "No space left on device")  # the first: refused, kept in memory
        if len(calls) == 3:
            await blocked.wait()  # its second try, after the next batch went in: still running at stop

    queue = WriteQueue({GapRecord: handler}, journal, unit=NoDatabase(), attempts=1, linger=0)
    await queue.start()
    queue.submit(miss("primera"))
    await asyncio.sleep(0.2)
    queue.submit(miss("segunda"))
    await asyncio.sleep(0.2)
    assert calls == [["primera"], ["segunda"], ["primera"]]
    assert await asyncio.wait_for(queue.close(grace=0.1), 5) == 1  # (was 0: it was in no list any more)
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith(writer.UNSAVED)]
    assert len(logged) == 1 and '"primera"' in logged[0]


async def test_the_default_reserve_on_a_disk_with_room_is_whole_and_says_nothing(tmp_path, caplog):
    """The journal's reserve is set aside in whole blocks of the disk; rounded down, it always came out a few records
    short of the queue's limit and every start warned of a disk with little room."""
    from bot.storage.writer import MAX_WAITING, RECORD_ROOM
    from tests.helpers import NoDatabase

    queue = WriteQueue({}, tmp_path / "g.db.pending.jsonl", unit=NoDatabase(), attempts=1, linger=0)
    with caplog.at_level(logging.WARNING):
        await queue.start()
    try:
        assert not [r for r in caplog.records if "little room" in r.getMessage()]
        assert (tmp_path / "g.db.pending.jsonl.reserve").stat().st_size >= MAX_WAITING * RECORD_ROOM
    finally:
        await queue.close(grace=1)
