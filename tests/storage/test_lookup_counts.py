"""Lookup counts written as one record per server and flush window (LookupCountsRecord), on SQLite and PostgreSQL:
the same counts as one record per term; journals of older versions (one record per term) still replay; a process
killed between its journal and the database neither loses nor doubles a count."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import textwrap
from pathlib import Path
from subprocess import PIPE

import pytest

from bot.core.status import Outcome
from bot.storage.gaps import ROWS_PER_STATEMENT, SqlUsageStore
from bot.storage.records import LookupCountsRecord, LookupRecord, record_fields, record_from
from bot.storage.writer import WriteQueue
from tests.conftest import ROOT
from tests.storage.test_writer import queue_for as writer_queue

ROWS = [
    ["2026-12-02", "found", "horovod", 3],
    ["2026-12-02", "not_found", "", 2],
    ["2026-12-03", "found", "horovod", 1],
    ["2026-12-03", "found", "ray", 5],
    ["2026-12-03", "ambiguous", "", 4],
]
TOTALS = {"found": 9, "not_found": 2, "ambiguous": 4}


@pytest.fixture
def db(database):
    """On SQLite and on PostgreSQL (tests/conftest.py)."""
    return database


def queue_for(db, journal: Path) -> WriteQueue:
    usage = SqlUsageStore(db)
    return writer_queue(
        db, journal, {LookupRecord: usage.record_lookups, LookupCountsRecord: usage.record_lookup_counts}
    )


async def figures(usage: SqlUsageStore, guild_id: int) -> tuple:
    return (
        await usage.outcomes(guild_id=guild_id),
        await usage.outcomes(guild_id=guild_id, since="2026-12-03"),
        await usage.term_counts(guild_id=guild_id),
        await usage.daily_outcomes(guild_id, "2026-12-01"),
    )


async def test_one_record_of_a_flush_window_counts_what_one_record_per_term_counts(db):
    usage = SqlUsageStore(db)
    await usage.record_lookups([LookupRecord(1, day, Outcome(o), term, n) for day, o, term, n in ROWS])
    await usage.record_lookup_counts([LookupCountsRecord(2, ROWS)])
    assert await usage.outcomes(guild_id=1) == TOTALS
    assert await figures(usage, 2) == await figures(usage, 1)
    await usage.record_lookup_counts([LookupCountsRecord(2, ROWS[:1]), LookupCountsRecord(2, ROWS[:1])])
    assert (await usage.term_counts(guild_id=2))["horovod"] == 4 + 3 + 3  # added to what is there, each once


async def test_more_counts_than_one_statement_takes_are_all_added(db):
    usage = SqlUsageStore(db)
    many = [["2026-12-03", "found", f"term-{n}", n % 3 + 1] for n in range(ROWS_PER_STATEMENT * 2 + 1)]
    await usage.record_lookup_counts([LookupCountsRecord(3, many)])
    assert await usage.term_counts(guild_id=3) == {term: n for _, _, term, n in many}


def test_a_journal_line_gives_back_the_same_record():
    record = LookupCountsRecord(7, [["2026-12-03", Outcome.FOUND, "horovod", 2]])
    line = json.loads(json.dumps({"op": record.OP, "id": "r-1", **record_fields(record)}))
    back = record_from(line["op"], line)
    assert back == LookupCountsRecord(7, [["2026-12-03", "found", "horovod", 2]])


def journal_of(path: Path, records: list[tuple[str, LookupRecord | LookupCountsRecord]]) -> str:
    text = "".join(json.dumps({"op": r.OP, "id": key, **record_fields(r)}) + "\n" for key, r in records)
    path.write_text(text)
    return text


async def test_a_journal_of_an_older_version_replays_beside_the_new_records_each_once(db, tmp_path):
    journal = tmp_path / "g.db.pending.jsonl"
    old = [(f"old-{i}", LookupRecord(1, day, Outcome(o), term, n)) for i, (day, o, term, n) in enumerate(ROWS)]
    text = journal_of(journal, [*old, ("new-0", LookupCountsRecord(1, ROWS))])
    assert await queue_for(db, journal).replay_journal() == len(ROWS) + 1
    usage = SqlUsageStore(db)
    doubled = {outcome: 2 * n for outcome, n in TOTALS.items()}
    assert await usage.outcomes(guild_id=1) == doubled
    journal.write_text(text)  # a crash between the database write and the journal cleanup: the same journal again
    assert await queue_for(db, journal).replay_journal() == 0
    assert await usage.outcomes(guild_id=1) == doubled
    assert not journal.exists()


KILLED_AFTER_JOURNALING = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from datetime import UTC, datetime
    from pathlib import Path
    from bot.app.catalog import CatalogHolder, load_catalog
    from bot.app.lookup.lookups import Lookups
    from bot.core.status import Outcome
    from bot.storage.records import LookupCountsRecord
    from bot.storage.writer import WriteQueue
    from tests.conftest import SHIPPED
    from tests.helpers import NoDatabase

    async def refuse(records):
        raise OSError(28, "No space left on device")

    async def main():
        queue = WriteQueue({LookupCountsRecord: refuse}, Path(sys.argv[1]), unit=NoDatabase(), attempts=1, linger=0)
        await queue.start()
        clock = lambda: datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
        lookups = Lookups(CatalogHolder(load_catalog(SHIPPED)), queue, "salt", clock)
        for guild, outcome, term, times in [(1, Outcome.FOUND, "horovod", 3), (1, Outcome.NOT_FOUND, "", 2),
                                            (2, Outcome.FOUND, "horovod", 4), (1, Outcome.FOUND, "ray", 1)]:
            for _ in range(times):
                lookups.count(guild, outcome, term)
        lookups.flush()
        await queue.drain()  # the disk refused both: they are in the journal, and nowhere else
        print(queue.journaled, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # before anything could apply them

    asyncio.run(main())
    """
)


async def test_counts_journaled_by_a_process_killed_before_applying_them_are_counted_once(db, tmp_path):
    journal = tmp_path / "g.db.pending.jsonl"
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", KILLED_AFTER_JOURNALING, str(journal), cwd=ROOT, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(child.communicate(), 60)
    assert child.returncode == -signal.SIGKILL, err.decode()
    assert out.split() == [b"2"]  # one record per server
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert sorted((line["op"], line["guild_id"]) for line in lines) == [("lookups", 1), ("lookups", 2)]
    text = journal.read_text()
    usage = SqlUsageStore(db)
    expected = ({"found": 4, "not_found": 2}, {"horovod": 3, "ray": 1}, {"found": 4}, {"horovod": 4})
    for _ in range(2):  # the second time: the journal back as if the first replay had crashed before removing it
        await queue_for(db, journal).replay_journal()
        got = (
            await usage.outcomes(guild_id=1),
            await usage.term_counts(guild_id=1),
            await usage.outcomes(guild_id=2),
            await usage.term_counts(guild_id=2),
        )
        assert got == expected
        assert not journal.exists()
        journal.write_text(text)
