"""What was made before a member or a server was forgotten is not written back by the write queue, wherever it comes
from: a journal replayed after the erasure, or another process's queue; what was made after it is written. On SQLite
and on PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.app.application import write_handlers
from bot.core.gaps import asker_hash, query_hash
from bot.core.status import Outcome
from bot.storage import open_stores, repairs, stores_on
from bot.storage.journal import journal_line
from bot.storage.postgres import PgDatabase
from bot.storage.records import (
    CommentRecord,
    GapRecord,
    LookupCountsRecord,
    SuggestionChoiceRecord,
    UnloggedRecord,
    VoteRecord,
    record_fields,
)
from bot.storage.writer import WriteQueue
from tests.helpers import eventually
from tests.postgres import sql

G, H = 424242424242424242, 535353535353535353
MEMBER, OTHER = 777777777777777777, 888888888888888888
BEFORE, ERASED, AFTER = "2026-12-03T09:00:00+00:00", "2026-12-03T10:00:00+00:00", "2026-12-03T10:00:01+00:00"


@pytest.fixture
def stores(database):
    return stores_on(database)


def queue_for(stores, journal, **kw) -> WriteQueue:
    """The write queue as the bot and `replay-log` make it: with the forgotten list of its database."""
    return WriteQueue(
        write_handlers(stores),
        journal,
        unit=stores.unit,
        applied=stores.applied,
        forgotten=stores.erasure,
        reserve=0,
        attempts=2,
        first_delay=0.01,
        linger=0,
        **kw,
    )


def asked(guild: int, asker: str, sample: str, at: str) -> list:
    """What one member's visit leaves for the queue: a gap, a pick, a vote and a comment."""
    return [
        GapRecord(guild, sample, sample, asker, None, "lookup", at),
        SuggestionChoiceRecord(guild, query_hash(sample), "horovod", asker, at),  # (a pick among its suggestions)
        VoteRecord(guild, "horovod", asker, "unhelpful", at),
        CommentRecord(guild, "horovod", asker, f"{sample}: falta un ejemplo", at),
    ]


def write_journal(path, records: list, run: str = "other") -> None:
    lines = [journal_line({"op": r.OP, "id": f"{run}-{n}", **record_fields(r)}) for n, r in enumerate(records)]
    path.write_text("\n".join(lines) + "\n")


async def column(stores, sql: str) -> list:
    return sorted(row[0] for row in await (await stores.database.reader.execute(sql)).fetchall())


async def test_a_journal_replayed_after_a_member_was_forgotten_writes_none_of_theirs_back(stores, tmp_path, caplog):
    salt = await stores.meta.salt()
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    journal = tmp_path / "g.db.0-of-2.pending.jsonl"  # (another process's, journaled before the erasure)
    before = [*asked(G, mine, "antes", BEFORE), *asked(G, theirs, "suyo", BEFORE), *asked(H, mine, "otro", ERASED)]
    write_journal(journal, [*before, *asked(G, mine, "después", AFTER)])  # ... and once they were back
    copy = journal.read_text()

    await stores.erasure.forget_member(MEMBER, mine, at=ERASED, dry_run=False)
    queue = queue_for(stores, tmp_path / "g.db.pending.jsonl", others=[journal])
    caplog.set_level("INFO", logger="bot.storage.writer")
    assert await queue.replay_journal() == 8  # the other member's visit and the member's after the erasure
    assert queue.skipped_forgotten == 8 and queue.duplicates == 0 and queue.rejected == 0
    assert "skipped 8 journaled write(s) of a member or server forgotten after they were made" in caplog.text
    assert mine not in caplog.text  # (named nowhere)

    assert await column(stores, "SELECT sample FROM misses") == ["después", "suyo"]
    assert await column(stores, "SELECT asker FROM miss_askers") == sorted([mine, theirs])
    assert await column(stores, "SELECT comment FROM feedback") == [
        "después: falta un ejemplo",
        "suyo: falta un ejemplo",
    ]
    assert await column(stores, "SELECT COUNT(*) FROM pick_askers") == [2]

    # The same journal again (a copy another process kept): skipped as forgotten again, not as already written.
    journal.write_text(copy)
    again = queue_for(stores, tmp_path / "g.db.pending.jsonl", others=[journal])
    assert await again.replay_journal() == 0
    assert again.skipped_forgotten == 8 and again.duplicates == 8


async def test_a_journal_replayed_after_a_server_was_forgotten_writes_none_of_its_records_back(stores, tmp_path):
    salt = await stores.meta.salt()
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    journal = tmp_path / "g.db.pending.jsonl"
    counts = [["2026-12-03", Outcome.FOUND, "horovod", 3], ["2026-12-04", Outcome.FOUND, "horovod", 1]]
    write_journal(
        journal,
        [
            *asked(G, mine, "antes", BEFORE),
            *asked(G, theirs, "antes", BEFORE),
            *asked(H, mine, "en otro servidor", BEFORE),
            LookupCountsRecord(G, counts),  # its erasure day's rows go, the next day's are written
            LookupCountsRecord(H, counts),
            UnloggedRecord(G, "2026-12-03"),
            UnloggedRecord(H, "2026-12-03"),
            *asked(G, theirs, "de vuelta", AFTER),  # the server added back, and used again
        ],
    )

    await stores.erasure.forget_server(G, at=ERASED, dry_run=False)
    queue = queue_for(stores, tmp_path / "g.db.1-of-2.pending.jsonl", others=[journal])
    assert (
        await queue.replay_journal() == 4 + 2 + 1 + 4
    )  # H's visit, H's counts and G's next day, H's unlogged, G's later
    assert queue.skipped_forgotten == 8 + 1

    rows = await (await stores.database.reader.execute("SELECT guild_id, sample FROM misses")).fetchall()
    assert sorted(map(tuple, rows)) == [(G, "de vuelta"), (H, "en otro servidor")]
    lookups = "SELECT guild_id, day, count FROM lookups"
    assert sorted(map(tuple, await (await stores.database.reader.execute(lookups)).fetchall())) == [
        (G, "2026-12-04", 1),
        (H, "2026-12-03", 3),
        (H, "2026-12-04", 1),
    ]
    assert await stores.gaps.unlogged(guild_id=G) == 0 and await stores.gaps.unlogged(guild_id=H) == 1
    assert await column(stores, f"SELECT comment FROM feedback WHERE guild_id = {G}") == ["de vuelta: falta un ejemplo"]


async def test_another_process_s_queue_writes_nothing_of_a_member_forgotten_meanwhile(stores, tmp_path):
    """The records another process held in memory when a member was forgotten (`forget-user` from the command line,
    or `/glosario olvidarme` served by another process) are dropped when that process writes them."""
    salt = await stores.meta.salt()
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    queue = queue_for(stores, tmp_path / "g.db.pending.jsonl")
    for record in [*asked(G, mine, "antes", BEFORE), *asked(G, theirs, "suyo", BEFORE)]:
        queue.submit(record)  # queued, not written yet

    elsewhere = await open_stores(
        stores.database.url if isinstance(stores.database, PgDatabase) else stores.database.path
    )
    try:
        await elsewhere.erasure.forget_member(MEMBER, mine, at=ERASED, dry_run=False)
    finally:
        await elsewhere.close()
    await queue.start()
    for record in asked(G, mine, "después", AFTER):
        queue.submit(record)
    await asyncio.wait_for(queue.drain(), 10)
    assert await queue.close(grace=2) == 0

    assert queue.skipped_forgotten == 4 and queue.written == 8
    assert await column(stores, "SELECT sample FROM misses") == ["después", "suyo"]
    assert await column(stores, "SELECT voter FROM feedback") == sorted([mine, theirs])


async def test_an_erasure_on_postgresql_waits_for_a_batch_under_way_and_removes_what_it_wrote(postgres_url, tmp_path):
    """Another process's batch that read the forgotten list before the erasure and commits after it: the erasure
    waits for that batch to commit, then removes its rows (without waiting, the rows stay)."""
    writing = await open_stores(postgres_url)
    erasing = await open_stores(postgres_url)
    try:
        mine = asker_hash(await writing.meta.salt(), MEMBER)
        handlers = write_handlers(writing)
        underway, release = asyncio.Event(), asyncio.Event()

        async def slow_gaps(records):  # the batch has claimed its ids and read the list: it writes now
            underway.set()
            await release.wait()
            await writing.gaps.record_gaps(records)

        queue = WriteQueue(
            {**handlers, GapRecord: slow_gaps},
            tmp_path / "g.pending.jsonl",
            unit=writing.unit,
            applied=writing.applied,
            forgotten=writing.erasure,
            reserve=0,
            linger=0,
        )
        await queue.start()
        queue.submit(asked(G, mine, "antes", BEFORE)[0])
        await asyncio.wait_for(underway.wait(), 10)
        erasure = asyncio.create_task(erasing.erasure.forget_member(MEMBER, mine, at=ERASED, dry_run=False))

        waiting = "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'LOCK TABLE%'"
        await eventually(lambda: erasure.done() or bool(sql(postgres_url, waiting)))  # it waits, or ends first
        release.set()
        await asyncio.wait_for(erasure, 10)
        await asyncio.wait_for(queue.drain(), 10)
        await queue.close(grace=2)
        assert await column(writing, "SELECT asker FROM miss_askers") == []
    finally:
        await writing.close()
        await erasing.close()


async def test_a_replay_of_many_members_looks_each_up_whatever_their_number(stores):
    """A journal is replayed as one batch, of as many members as it holds: looked up a few hundred at a time."""
    hashes = [f"h{n}" for n in range(1200)]
    for n in (0, 599, 1199):
        await stores.erasure.forget_member(n + 1, hashes[n], at=ERASED, dry_run=False)
    await stores.erasure.forget_server(H, at=AFTER, dry_run=False)
    found = await stores.erasure.forgotten(hashes, [G, H])
    assert found.members == {hashes[0]: ERASED, hashes[599]: ERASED, hashes[1199]: ERASED}
    assert found.guilds == {H: AFTER}
    assert (await stores.erasure.forgotten([], [H])).guilds == {H: AFTER}
    assert not await stores.erasure.forgotten(hashes[1:599], [])


async def test_an_erasure_time_that_cannot_be_read_holds_back_only_that_server_s_records(
    stores, tmp_path, caplog, monkeypatch
):
    """A forgotten server whose time a hand edit made no time: its records are not written (privacy first: as if
    forgotten for good), said once; the other servers' records in the same batch are written as usual, and nothing
    waits in the journal."""
    await stores.erasure.forget_server(G, at=ERASED, dry_run=False)
    async with stores.unit.transaction():
        await stores.database.conn.execute("UPDATE forgotten_guilds SET at = ? WHERE id = ?", ("ayer", G))
    queue = queue_for(stores, tmp_path / "g.db.pending.jsonl")
    caplog.set_level("WARNING", logger="bot.storage.repairs")
    monkeypatch.setattr(repairs, "_said", set())  # (said once per process: said again in this test)
    for record in [*asked(G, "h1", "de vuelta", AFTER), *asked(H, "h2", "en otro servidor", AFTER)]:
        queue.submit(record)
    await queue.start()
    await asyncio.wait_for(queue.drain(), 10)
    assert await queue.close(grace=2) == 0
    assert queue.journaled == 0 and queue.written == 4 and queue.skipped_forgotten == 4
    assert await column(stores, "SELECT sample FROM misses") == ["en otro servidor"]
    assert "forgotten_guilds" in caplog.text and "ayer" not in caplog.text


async def test_a_second_erasure_with_an_earlier_time_keeps_the_later_one(stores):
    """Two processes' clocks differ: forgotten again by one whose clock is behind, the member or server stays
    forgotten as of the later time, so what was made between the two times is not written back."""
    await stores.erasure.forget_member(MEMBER, "h-member", at=AFTER, dry_run=False)
    await stores.erasure.forget_server(H, at=AFTER, dry_run=False)
    await stores.erasure.forget_member(MEMBER, "h-member", at=BEFORE, dry_run=False)
    await stores.erasure.forget_server(H, at=BEFORE, dry_run=False)
    found = await stores.erasure.forgotten(["h-member"], [H])
    assert (found.members, found.guilds) == ({"h-member": AFTER}, {H: AFTER})
    later = "2026-12-04T08:00:00+00:00"
    await stores.erasure.forget_member(MEMBER, "h-member", at=later, dry_run=False)
    assert (await stores.erasure.forgotten(["h-member"], [])).members == {"h-member": later}
