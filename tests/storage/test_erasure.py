"""Forgetting a member or a server, on SQLite and PostgreSQL: every table of the schema checked, generically."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import re
from datetime import date

import pytest

from bot.core.daily import DailyEntry, Schedule
from bot.core.gaps import asker_hash, query_hash
from bot.core.normalize import normalize
from bot.core.status import Outcome
from bot.storage import stores_on
from bot.storage.erasure import ANONYMOUS, GUILD_COLUMN, HASH_COLUMNS, MARK_COLUMNS, MISS_COLUMN, OWNER_COLUMNS
from bot.storage.errors import DatabaseBusy
from bot.storage.journal import scrub_journals
from bot.storage.records import (
    CommentRecord,
    GapRecord,
    LookupRecord,
    SuggestionChoiceRecord,
    UnloggedRecord,
    VoteRecord,
    record_fields,
)
from bot.storage.tables import TABLES
from bot.storage.writer import WriteQueue
from tests.helpers import NoDatabase

G, H = 424242424242424242, 535353535353535353  # two servers (snowflake-sized: more than 32 bits)
MEMBER, OTHER = 777777777777777777, 888888888888888888
GONE = 999999999999999999  # a member, and a server, forgotten before the tests begin
AT = "2026-12-03T10:00:00+00:00"
EARLIER, LATER = "2026-11-01T10:00:00+00:00", "2026-12-04T10:00:00+00:00"
PERSON = re.compile(r"user|author|_by$|^by_|asker|voter|member|owner")  # a column that may name a person
NOT_A_PERSON = {"guild_id", "editor_role_id"}  # (a server; a role)


@pytest.fixture
def stores(database):
    return stores_on(database)


async def fill(stores, salt: str) -> None:
    """Rows in every table, for two members in two servers: each member asks, picks, writes, proposes, decides."""
    for guild in (G, H):
        for who in (MEMBER, OTHER):
            asker = asker_hash(salt, who)
            await stores.gaps.record_gaps([GapRecord(guild, "nebula", normalize("nebula"), asker, None, "lookup", AT)])
            await stores.gaps.record_picks(
                [SuggestionChoiceRecord(guild, query_hash(normalize("nebula")), "horovod", asker, AT)]
            )
            await stores.feedback.record_votes([VoteRecord(guild, "horovod", asker, "helpful", AT)])
            await stores.feedback.record_comments([CommentRecord(guild, "ray", asker, "Falta un ejemplo", AT)])
        await stores.usage.record_lookups([LookupRecord(guild, "2026-12-03", Outcome.FOUND, "horovod", 3)])
        await stores.gaps.record_unlogged([UnloggedRecord(guild, "2026-12-03")])
        await stores.daily.configure(guild, guild + 1, Schedule(9, 30, "Europe/Madrid"))
        await stores.daily.record_pick(guild, DailyEntry(date(2026, 12, 3), "horovod", 0))
        await stores.daily.claim(guild, date(2026, 12, 3), guild + 1, AT, AT)
        await stores.roles.set_editor_role(guild, guild + 2)
        await stores.digests.configure(guild, guild + 1, 0)
        await stores.server_terms.save(guild, "mio", {"term": "Mío"}, MEMBER, AT, previous_id=None)
        await stores.server_terms.save(guild, "mio", {"term": "Mío", "en": "Mine"}, OTHER, AT, previous_id="mio")
        await stores.server_terms.save(guild, "suyo", {"term": "Suyo"}, OTHER, AT, previous_id=None)
        await stores.server_terms.add_alias(guild, "hvd", "hvd", "horovod", MEMBER, AT)
        mine = await stores.proposals.add(guild, MEMBER, "es-ES", {"term": "Propio"}, AT, limit=5)
        theirs = await stores.proposals.add(guild, OTHER, "es-ES", {"term": "Ajeno"}, AT, limit=5)
        await stores.proposals.decide(guild, mine, "rejected", OTHER, AT, "no")  # an outcome MEMBER awaits
        await stores.proposals.decide(guild, theirs, "published", MEMBER, AT)
    await stores.erasure.left(H, AT)
    async with stores.unit.transaction():
        await stores.applied.mark(["run-1"])
    # a member and a server forgotten before (with nothing left of them): the forgotten list holds them
    await stores.erasure.forget_member(GONE, asker_hash(salt, GONE), at=EARLIER, dry_run=False)
    await stores.erasure.forget_server(GONE, at=EARLIER, dry_run=False)


async def rows(db, table: str) -> list[dict]:
    columns = TABLES[table]
    found = await (await db.reader.execute(f"SELECT {', '.join(columns)} FROM {table}")).fetchall()
    return [dict(zip(columns, row, strict=True)) for row in found]


async def everything(db) -> dict[str, list[dict]]:
    return {table: await rows(db, table) for table in TABLES}


def test_every_column_that_could_name_a_person_is_known_to_the_erasure():
    """A new table with a member's id or hash must name its column as the others do, or forgetting misses it."""
    known = OWNER_COLUMNS | MARK_COLUMNS | HASH_COLUMNS
    for table, columns in TABLES.items():
        for column in columns:
            if PERSON.search(column) and column not in NOT_A_PERSON:
                assert column in known, f"{table}.{column} may name a person: add it to bot/storage/erasure.py"


async def test_forgetting_a_member_leaves_no_row_naming_them_and_keeps_the_rest(stores):
    db = stores.database
    salt = await stores.meta.salt()
    await fill(stores, salt)
    before = await everything(db)
    for table in TABLES:  # every table holds something, so every table is really checked below
        assert before[table], f"fill() leaves {table} empty: add a row of it"
    mine = asker_hash(salt, MEMBER)

    planned = await stores.erasure.forget_member(MEMBER, mine, at=LATER, dry_run=True)
    assert await everything(db) == before  # a dry run changes nothing
    done = await stores.erasure.forget_member(MEMBER, mine, at=LATER, dry_run=False)
    assert done == planned  # what the dry run said is what was done
    assert done.removed["proposals"] == 2 and done.removed["miss_askers"] == 2 and done.removed["pick_askers"] == 2
    assert done.removed["feedback"] == 4  # their vote and their comment, in each server
    assert done.anonymised["server_terms"] == 2 and done.anonymised["server_term_versions"] == 2
    assert done.anonymised["server_aliases"] == 2 and done.anonymised["proposals"] == 2

    after = await everything(db)
    for table, columns in TABLES.items():
        for row in after[table]:
            for column in columns:
                assert not (column in OWNER_COLUMNS | MARK_COLUMNS and row[column] == MEMBER), (table, row)
                assert not (column in HASH_COLUMNS and row[column] == mine), (table, row)
    # What is not theirs stays: the other member's rows, the gaps' counts, the terms (now by "un miembro").
    theirs = asker_hash(salt, OTHER)
    assert sum(r["asker"] == theirs for r in after["miss_askers"]) == 2
    assert [r["count"] for r in after["misses"]] == [r["count"] for r in before["misses"]] == [2, 2]
    terms = {(r["guild_id"], r["term_id"]): (r["author_id"], r["updated_by"]) for r in after["server_terms"]}
    assert terms[(G, "mio")] == (ANONYMOUS, OTHER) and terms[(G, "suyo")] == (OTHER, OTHER)
    assert [(r["user_id"], r["decided_by"]) for r in after["proposals"]] == [(OTHER, ANONYMOUS)] * 2
    assert await stores.proposals.waiting_to_be_told() == {OTHER}  # MEMBER's pending notices went with them
    assert len(after["feedback"]) == 4 and {r["voter"] for r in after["feedback"]} == {theirs}
    for table in TABLES.keys() - {"miss_askers", "pick_askers", "proposals", "feedback", "forgotten_members"}:
        assert len(after[table]) == len(before[table]), table
    # ... and who was forgotten, and when: their salted hash (never their id), beside the one forgotten before
    assert sorted(after["forgotten_members"], key=str) == sorted(
        [*before["forgotten_members"], {"hash": mine, "at": LATER}], key=str
    )
    again = await stores.erasure.forget_member(MEMBER, mine, at=LATER, dry_run=False)
    assert again.total == 0


async def test_forgetting_a_server_removes_its_every_row_and_no_other(stores):
    db = stores.database
    await fill(stores, await stores.meta.salt())
    before = await everything(db)
    g_misses = {r["id"] for r in before["misses"] if r["guild_id"] == G}

    planned = await stores.erasure.forget_server(G, at=LATER, dry_run=True)
    assert await everything(db) == before
    done = await stores.erasure.forget_server(G, at=LATER, dry_run=False)
    assert done == planned and done.removed["miss_askers"] == 2 and done.removed["server_terms"] == 2

    after = await everything(db)
    for table, columns in TABLES.items():
        ours = [r for r in after[table] if r.get(GUILD_COLUMN) == G or r.get(MISS_COLUMN) in g_misses]
        assert not ours, table
        if GUILD_COLUMN in columns or MISS_COLUMN in columns:  # the other server keeps all of its rows
            assert len(after[table]) == len(before[table]) - done.removed[table], table
            assert after[table], table
    assert sum(done.removed.values()) == sum(len(before[t]) - len(after[t]) for t in TABLES if t != "forgotten_guilds")
    assert after["meta"] == before["meta"] and after["applied_writes"] == before["applied_writes"]
    assert sorted(after["forgotten_guilds"], key=str) == sorted(  # its id, and when
        [*before["forgotten_guilds"], {"id": G, "at": LATER}], key=str
    )
    assert after["forgotten_members"] == before["forgotten_members"]


async def test_departures_are_noted_once_cancelled_and_listed_by_time(stores):
    erasure = stores.erasure
    await erasure.left(G, "2026-12-01T10:00:00+00:00")
    await erasure.left(G, "2026-12-05T10:00:00+00:00")  # still the first departure
    await erasure.left(H, "2026-12-02T10:00:00+00:00")
    assert await erasure.departed("2026-11-30T00:00:00+00:00") == []
    assert await erasure.departed("2026-12-03T00:00:00+00:00") == [G, H]
    assert await erasure.returned(H) and not await erasure.returned(H)
    assert await erasure.departed("2026-12-31T00:00:00+00:00") == [G]


async def test_the_servers_with_data_are_every_table_s_but_guild_0(stores):
    assert await stores.erasure.guilds() == set()
    await fill(stores, await stores.meta.salt())
    await stores.feedback.record_votes([VoteRecord(0, "horovod", "a-hash", "helpful", AT)])  # (a member's own)
    assert await stores.erasure.guilds() == {G, H}


# -- the write journals --------------------------------------------------------------------------------------


def line(record, **extra) -> str:
    return json.dumps({"op": record.OP, "id": f"r-{id(record)}", **record_fields(record), **extra})


def records(asker: str, guild: int = G) -> list:
    return [
        GapRecord(guild, "nebula", "nebula", asker, None, "lookup", AT),
        SuggestionChoiceRecord(guild, "0badc0de", "horovod", asker, AT),
    ]


def names(asker: str):
    return lambda record: asker in record.values()


def test_the_journals_lose_the_picked_records_and_keep_every_other_line(tmp_path):
    journal, rejected = tmp_path / "g.db.pending.jsonl", tmp_path / "g.db.rejected.jsonl"
    claimed = tmp_path / "g.db.pending.jsonl.replaying-123-abcd"  # a copy a stopped replay left
    others = [line(r) for r in records("theirs")] + [line(LookupRecord(G, "2026-12-03", Outcome.FOUND, "x"))]
    journal.write_text("\n".join([*(line(r) for r in records("mine")), *others, "{not json"]) + "\n")
    rejected.write_text(line(records("mine")[0], rejected_because="ValueError") + "\n")
    claimed.write_text("\n".join(line(r) for r in records("mine")) + "\n")
    files = [journal, rejected, tmp_path / "g.db.0-of-2.pending.jsonl"]  # (one nobody wrote: nothing happens)

    assert scrub_journals(files, names("mine"), dry_run=True) == 5
    assert len(journal.read_text().splitlines()) == 6 and claimed.exists()
    assert scrub_journals(files, names("mine"), dry_run=False) == 5
    assert journal.read_text().splitlines() == [*others, "{not json"]  # an unreadable line is not ours to drop
    assert not rejected.exists() and not claimed.exists()  # emptied: removed
    assert not (tmp_path / "g.db.0-of-2.pending.jsonl.lock").exists()
    assert scrub_journals(files, names("mine"), dry_run=False) == 0


async def test_a_journal_being_replayed_is_waited_for_never_rewritten_under_its_replayer(tmp_path):
    journal = tmp_path / "g.db.pending.jsonl"
    claimed = tmp_path / "g.db.pending.jsonl.replaying-99-beef"
    text = "\n".join(line(r) for r in [*records("mine"), *records("theirs")]) + "\n"
    claimed.write_text(text)
    replayer = os.open(claimed, os.O_RDONLY)  # holds the lock as a replaying process does (writer._held)
    fcntl.flock(replayer, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        with pytest.raises(DatabaseBusy):
            scrub_journals([journal], names("mine"), dry_run=False, wait=0.1)
        assert claimed.read_text() == text  # untouched while it is replayed
        waiting = asyncio.create_task(asyncio.to_thread(scrub_journals, [journal], names("mine"), dry_run=False))
        await asyncio.sleep(0.2)
        assert not waiting.done() and claimed.read_text() == text
    finally:
        os.close(replayer)  # the replay is over
    assert await asyncio.wait_for(waiting, 10) == 2
    assert [json.loads(x)["asker"] for x in claimed.read_text().splitlines()] == ["theirs", "theirs"]


async def test_the_queue_drops_the_picked_records_before_they_are_written(tmp_path):
    written = []

    async def write(batch):
        written.extend(batch)

    queue = WriteQueue(
        {GapRecord: write, SuggestionChoiceRecord: write}, tmp_path / "j.jsonl", unit=NoDatabase(), linger=0
    )
    for record in [*records("mine"), *records("theirs"), *records("mine", H)]:
        queue.submit(record)
    assert queue.forget(names("mine")) == 4 and queue.pending == 2
    await queue.start()
    await asyncio.wait_for(queue.drain(), 10)
    assert [r.asker for r in written] == ["theirs", "theirs"]
    assert await queue.close(grace=1) == 0
