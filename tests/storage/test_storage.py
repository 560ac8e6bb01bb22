"""Storage on a real SQLite file in a temp dir: migrations, start-up errors, gaps, the write queue."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.core.gaps import asker_hash, query_hash
from bot.core.normalize import normalize
from bot.core.status import Outcome
from bot.storage import repairs
from bot.storage.daily import SqlDigestStore
from bot.storage.db import SCHEMA_VERSION, Database, StorageError
from bot.storage.gaps import SqlGapStore, SqlUsageStore
from bot.storage.records import (
    AliasSuggestion,
    DailyOutcome,
    GapRecord,
    LookupRecord,
    ServerAlias,
    SuggestionChoice,
    SuggestionChoiceRecord,
)
from bot.storage.server_terms import SqlServerTermStore
from bot.storage.writer import WriteQueue
from tests.storage.schemas import sqlite_at


def miss(sample: str, guild_id: int = 1, asker: str = "a", at: str = "t", best_guess: str | None = None) -> GapRecord:
    return GapRecord(guild_id, sample, normalize(sample), asker, best_guess, "lookup", at)


async def test_first_open_creates_dir_migrates_and_uses_wal(tmp_path):
    path = tmp_path / "nuevo" / "glosario.db"
    db = await Database.open(path)
    await db.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db = await Database.open(path)  # reopening applies nothing twice
    salt = await db.salt()
    assert salt == await db.salt() and len(salt) == 32
    await db.close()


async def test_newer_schema_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "g.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(StorageError, match=r"más nuevo que el de esta versión del bot.*Actualiza el bot"):
        await Database.open(path)


async def test_corrupt_file_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "g.db"
    path.write_bytes(b"esto no es sqlite" * 100)
    with pytest.raises(StorageError, match=rf"{path}.*no es una base de datos SQLite válida"):
        await Database.open(path)


async def test_directory_that_cannot_be_created(tmp_path):
    (tmp_path / "archivo").write_text("x")
    with pytest.raises(StorageError, match="No se puede crear el directorio"):
        await Database.open(tmp_path / "archivo" / "sub" / "g.db")


@pytest.fixture
def db(database):
    """Each store test runs on SQLite and on PostgreSQL (the `database` fixture, tests/conftest.py)."""
    return database


@pytest.fixture
async def sqlite_db(tmp_path):
    """For the tests that lock the SQLite file from outside (PostgreSQL's locks have their own test)."""
    database = await Database.open(tmp_path / "g.db")
    yield database
    await database.close()


async def test_misses_aggregate_per_guild_and_normalised_query(db):
    log = SqlGapStore(db)
    for guild, text, asker, at in [
        (1, "Tokenización", "a", "2026-12-01T10:00:00"),
        (1, "tokenizacion", "b", "2026-12-02T10:00:00"),
        (1, "TOKENIZACIÓN", "a", "2026-12-02T11:00:00"),
        (1, "embeddings", "a", "2026-12-02T12:00:00"),
        (2, "tokenizacion", "c", "2026-12-02T09:00:00"),
    ]:
        await log.record_gaps([miss(text, guild, asker, at)])
    gaps = await log.gaps(guild_id=1)
    assert [(g.normalized, g.count, g.askers) for g in gaps] == [("tokenizacion", 3, 2), ("embeddings", 1, 1)]
    assert gaps[0].sample == "TOKENIZACIÓN"  # the latest spelling
    assert (gaps[0].first_seen, gaps[0].last_seen) == ("2026-12-01T10:00:00", "2026-12-02T11:00:00")
    assert [g.normalized for g in await log.gaps(guild_id=1, order="recent")] == ["embeddings", "tokenizacion"]
    assert [g.guild_id for g in await log.gaps(guild_id=2)] == [2]
    assert len(await log.gaps()) == 3
    assert await log.gaps(status="ignored") == []


async def test_an_export_reads_a_big_server_in_table_order_and_a_small_one_by_its_index(db):
    log = SqlGapStore(db)
    await log.record_gaps([miss(f"consulta {i}", 1, f"a{i % 3}", f"2026-12-0{1 + i % 5}") for i in range(40)])
    await log.record_gaps([miss("horovd", 2, "a"), miss("horovd", 2, "b"), miss("Horovd!", 2, "b"), miss("ray", 2)])
    await log.record_gaps([miss("consulta 7", 1, "z")])
    plans = []
    on_sqlite = isinstance(db, Database)  # (the plan is SQLite's; PostgreSQL's planner chooses by itself)
    if on_sqlite:
        await db.reader.set_trace_callback(lambda sql: plans.append(sql) if "ORDER BY m.count" in sql else None)
    big, small = await log.export(guild_id=1, most_asked=True), await log.export(guild_id=2, most_asked=True)
    if on_sqlite:
        await db.reader.set_trace_callback(None)
        assert "NOT INDEXED" in plans[0] and "NOT INDEXED" not in plans[1]  # 40 of 42 gaps, then 2 of 42
    assert [(g.normalized, g.count, g.askers) for g in big[:1]] == [("consulta 7", 2, 2)]
    assert [g.normalized for g in big[1:]] == [g.normalized for g in await log.gaps(guild_id=1, limit=100)][1:]
    assert [(g.sample, g.count, g.askers) for g in small] == [("horovd", 3, 2), ("ray", 1, 1)]  # most asked spelling
    # `gaps --limit N` reads only the N first rows, in the same order, rather than every gap of the table
    first = await log.export(guild_id=1, most_asked=True, limit=3)
    assert [g.normalized for g in first] == [g.normalized for g in big[:3]]
    assert [g.normalized for g in await log.export(guild_id=None, status=None, limit=1)] == ["horovd"]


async def test_picks_are_alias_proposals(db):
    log = SqlGapStore(db)
    await log.record_gaps([miss("horovd x", best_guess="horovod")])
    for asker in ("a", "a", "a", "b"):  # one member clicking three times is one voice
        await log.record_picks([SuggestionChoiceRecord(1, query_hash("horovd x"), "horovod", asker, "t")])
    await log.record_picks([SuggestionChoiceRecord(1, "deadbeef", "ray", "c", "t")])  # no such question here
    await log.record_picks([SuggestionChoiceRecord(2, query_hash("horovd x"), "ray", "c", "t")])  # nor there
    assert await log.picks(guild_id=1) == [SuggestionChoice(sample="horovd x", term_id="horovod", times=2)]
    (suggestion,) = await log.proposals(1)
    assert suggestion == AliasSuggestion(normalized="horovd x", sample="horovd x", term_id="horovod", people=2)
    assert await log.picks(guild_id=2) == []


async def test_usage_counts(db):
    usage = SqlUsageStore(db)
    found, missed = Outcome.FOUND, Outcome.NOT_FOUND
    for outcome, term in [(found, "ray"), (found, "ray"), (found, "feast"), (missed, "")]:
        await usage.record_lookups([LookupRecord(1, "2026-12-02", outcome, term)])
    assert await usage.term_counts(guild_id=1) == {"ray": 2, "feast": 1}
    await usage.record_lookups([LookupRecord(1, "2026-12-01", missed, "", 4), LookupRecord(2, "2026-12-02", found, "")])
    assert await usage.daily_outcomes(1, "2026-12-02") == [
        DailyOutcome(day="2026-12-02", outcome=found, lookups=3),
        DailyOutcome(day="2026-12-02", outcome=missed, lookups=1),
    ]


async def test_a_servers_accepted_aliases(db):
    store = SqlServerTermStore(db)
    await store.add_alias(1, "hvd", "HVD", "horovod", 7, "2026-12-02T10:00:00")
    await store.add_alias(2, "rl", "RL", "ray", 7, "2026-12-02T10:00:00")
    assert await store.aliases(1) == [ServerAlias(normalized="hvd", spelling="HVD", term_id="horovod")]


def test_asker_hash_is_salted_and_not_the_id():
    assert asker_hash("s1", 42) != asker_hash("s2", 42)
    assert "42" not in asker_hash("s1", 42)


async def quick_queue(db, log: SqlGapStore, journal) -> WriteQueue:
    """A started write queue for misses that gives up fast (two attempts, 10 ms apart)."""
    queue = WriteQueue(
        {GapRecord: log.record_gaps},
        journal,
        unit=db,
        attempts=2,
        first_delay=0.01,
        linger=0,
    )
    await queue.start()
    return queue


async def test_writes_the_database_refuses_are_journaled_then_replayed(sqlite_db, tmp_path):
    db = sqlite_db
    journal = tmp_path / "g.db.pending.jsonl"
    log = SqlGapStore(db)
    queue = await quick_queue(db, log, journal)
    locker = sqlite3.connect(tmp_path / "g.db", timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        await db.conn.execute("PRAGMA busy_timeout = 50")
        queue.submit(miss("x"))
        await asyncio.wait_for(queue.drain(), 10)
        assert journal.exists() and '"op": "miss"' in journal.read_text()
    finally:
        locker.rollback()
        locker.close()
    await queue.close()
    replay = WriteQueue({GapRecord: log.record_gaps}, journal, unit=db)
    await replay.start()
    assert not journal.exists()
    assert [g.sample for g in await log.gaps()] == ["x"]
    await replay.close()


async def test_close_journals_what_it_could_not_write(db, tmp_path):
    journal = tmp_path / "j.jsonl"
    blocked = asyncio.Event()

    async def slow(records):
        await blocked.wait()

    queue = WriteQueue({LookupRecord: slow}, journal, unit=db)
    await queue.start()
    queue.submit(LookupRecord(1, "2026-12-02", Outcome.FOUND, "ray", 1))
    queue.submit(LookupRecord(1, "2026-12-02", Outcome.FOUND, "ray", 2))
    await queue.close(grace=0.1)
    lines = journal.read_text().splitlines()
    assert len(lines) >= 1 and all('"op": "lookup"' in line for line in lines)


async def test_when_neither_database_nor_journal_take_a_write_it_waits_in_memory(sqlite_db, tmp_path):
    db = sqlite_db
    (tmp_path / "not-a-dir").write_text("x")
    journal = tmp_path / "not-a-dir" / "pending.jsonl"  # cannot be created: the disk refuses the journal too
    log = SqlGapStore(db)
    queue = await quick_queue(db, log, journal)
    locker = sqlite3.connect(tmp_path / "g.db", timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    await db.conn.execute("PRAGMA busy_timeout = 50")
    queue.submit(miss("primera"))
    await asyncio.wait_for(queue.drain(), 10)
    assert queue.pending == 1 and not journal.exists()  # kept, not dropped
    locker.rollback()
    locker.close()
    queue.submit(miss("segunda"))
    await asyncio.wait_for(queue.drain(), 10)
    assert queue.pending == 0
    assert sorted(g.sample for g in await log.gaps()) == ["primera", "segunda"]
    await queue.close()


async def test_migration_5_turns_the_spanish_schedule_days_into_neutral_values(tmp_path):
    path = tmp_path / "g.db"
    with sqlite_at(path, 4) as conn:  # a database as version 4 of the bot left it
        conn.executemany(
            "INSERT INTO guild_settings (guild_id, daily_enabled, daily_channel_id, daily_hour, daily_minute, "
            "daily_days, editor_role_id) VALUES (?, 1, 10, 9, 0, ?, ?)",
            [(1, "todos", 77), (2, "laborables", None)],
        )
        conn.execute("INSERT INTO guild_settings (guild_id, editor_role_id) VALUES (3, 5)")  # no schedule: default
    db = await Database.open(path)
    assert db.migrated == list(range(5, SCHEMA_VERSION + 1))
    await db.close()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT guild_id, daily_days, editor_role_id FROM guild_settings ORDER BY 1").fetchall()
        assert rows == [(1, "every_day", 77), (2, "weekdays", None), (3, "every_day", 5)]
        with pytest.raises(sqlite3.IntegrityError):  # a value the code does not know cannot be stored
            conn.execute("UPDATE guild_settings SET daily_days = 'todos' WHERE guild_id = 1")


async def test_a_transaction_commits_together_or_not_at_all(db):
    log = SqlGapStore(db)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await log.record_gaps([miss("primera")])  # a store's own transaction joins the outer one
            raise RuntimeError("something failed half-way")
    assert await log.gaps() == []
    async with db.transaction():
        await log.record_gaps([miss("segunda")])
        await log.record_gaps([miss("tercera")])
    assert sorted(g.sample for g in await log.gaps()) == ["segunda", "tercera"]


async def test_a_read_waiting_for_its_turn_hides_no_write_from_the_reads_made_after_it(db):
    """The stores share one connection for reads. On SQLite, a read whose statement had run but whose rows were not
    taken yet (its coroutine waiting for its turn on a busy event loop) kept the file's snapshot of that moment open
    on the connection, and every read made meanwhile saw the file as it was then: a server whose digest had just
    been set up was missing from the scheduler's look (the next one ten minutes away)."""
    digests = SqlDigestStore(db)
    await digests.configure(1, 10, 0)
    waiting = await db.reader.execute("SELECT guild_id FROM guild_settings")  # its rows not taken yet
    await digests.configure(2, 20, 0)
    assert sorted(s.guild_id for s in await digests.enabled()) == [1, 2]
    assert [tuple(row) for row in await waiting.fetchall()] == [(1,)]  # (that read: the file as it was when made)


async def test_two_processes_starting_at_once_migrate_once_under_the_write_lock(tmp_path):
    path = tmp_path / "nuevo.db"
    first, second = await asyncio.gather(Database.open(path), Database.open(path))
    try:
        assert sorted(first.migrated + second.migrated) == list(range(1, SCHEMA_VERSION + 1))  # each exactly once
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        await first.close()
        await second.close()


async def test_two_processes_starting_at_once_share_one_salt(tmp_path):
    first, second = await Database.open(tmp_path / "g.db"), await Database.open(tmp_path / "g.db")
    try:
        salts = await asyncio.gather(first.salt(), second.salt(), first.salt())
        assert len(set(salts)) == 1  # distinct askers are counted alike by both
    finally:
        await first.close()
        await second.close()


async def test_on_postgresql_a_locked_table_sends_writes_to_the_journal_and_they_come_back(postgres_url, tmp_path):
    import asyncpg

    from bot.storage import open_stores

    stores = await open_stores(postgres_url)
    journal = tmp_path / "pending.jsonl"
    queue = await quick_queue(stores.database, stores.gaps, journal)
    locker = await asyncpg.connect(postgres_url)
    try:
        async with stores.database.pool.acquire() as conn:  # waiting for a lock fails fast, as SQLite's 50 ms
            await conn.execute("ALTER DATABASE " + postgres_url.rsplit("/", 1)[1] + " SET lock_timeout = '50ms'")
        await stores.database.pool.expire_connections()
        transaction = locker.transaction()
        await transaction.start()
        await locker.execute("LOCK TABLE misses IN ACCESS EXCLUSIVE MODE")
        queue.submit(miss("bloqueada"))
        await asyncio.wait_for(queue.drain(), 10)
        assert journal.exists() and '"sample": "bloqueada"' in journal.read_text()  # nothing lost
        await transaction.rollback()
    finally:
        await locker.close()
    await queue.close()
    replay = await quick_queue(stores.database, stores.gaps, journal)  # the next start replays it
    await replay.close()
    assert [g.sample for g in await stores.gaps.gaps()] == ["bloqueada"] and not journal.exists()
    await stores.close()


async def test_on_postgresql_a_schema_newer_than_the_bot_is_refused(postgres_url):
    import asyncpg

    from bot.storage import open_stores

    await (await open_stores(postgres_url)).close()
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(f"UPDATE schema_version SET version = {SCHEMA_VERSION + 3}")
    finally:
        await conn.close()
    with pytest.raises(StorageError, match="más nuevo que el de esta versión del bot") as refused:
        await open_stores(postgres_url)
    assert "Upgrade the bot" in refused.value.text("en")


async def test_on_postgresql_processes_starting_at_once_migrate_once(postgres_url):
    from bot.storage import open_stores

    opened = await asyncio.gather(*(open_stores(postgres_url) for _ in range(4)))
    try:
        assert sorted(n for stores in opened for n in stores.migrated) == list(range(1, SCHEMA_VERSION + 1))
        assert {await stores.schema_version() for stores in opened} == {SCHEMA_VERSION}
    finally:
        for stores in opened:
            await stores.close()


def test_a_database_that_cannot_be_opened_leaves_no_worker_thread_behind(tmp_path):
    """A command that reports the failed open and ends: aiosqlite's worker thread has ended too (else it may wake
    the loop asyncio.run has closed: 'Event loop is closed' from a thread, after the command's own message)."""
    import threading

    def workers() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()]

    async def fail() -> list[list[threading.Thread]]:
        left = []
        for _ in range(20):
            with pytest.raises(StorageError):
                await Database.open_read_only(tmp_path / "nothing" / "x.db")
            left.append(workers())  # (at once, as a command that prints the error and returns)
        return left

    assert asyncio.run(fail()) == [[]] * 20


@pytest.mark.parametrize("name", ["datos#2.db", "¿datos?.db", "100% datos.db", "datos%23.db"])
async def test_a_database_whose_name_a_uri_would_cut_is_read_where_it_is_written(tmp_path, name):
    """The reading connections open the file through a URI (read-only): a `#`, `?` or `%` in its name once made
    them read another file, created empty beside it, while the writes went to the right one."""
    from bot.storage import open_stores
    from bot.storage.db import probe

    path = tmp_path / name
    stores = await open_stores(path)
    try:
        await stores.gaps.record_gaps([miss("embeddings", 5)])
        assert [gap.sample for gap in await stores.gaps.gaps(guild_id=5, limit=10)] == ["embeddings"]
    finally:
        await stores.close()
    reader = await open_stores(path, read_only=True)  # (the editors' commands: gaps, daily, feedback)
    try:
        assert [gap.sample for gap in await reader.gaps.gaps(guild_id=5, limit=10)] == ["embeddings"]
    finally:
        await reader.close()
    assert probe(path) is None
    assert {p.name for p in tmp_path.iterdir()} <= {name, f"{name}-wal", f"{name}-shm"}


async def test_reads_under_way_when_text_that_is_not_utf8_is_first_met_are_each_made_again(tmp_path, monkeypatch):
    """Several reads (moderators listing gaps at once) meet the first text that is not UTF-8 together: the first turns
    the read-only connection to reading it repaired, and the others, which failed before that, are made again too
    (they were a traceback and the apology)."""
    db = await Database.open(tmp_path / "g.db")
    try:
        await db.conn.execute(
            "INSERT INTO misses (guild_id, normalized, query_hash, sample, count, first_seen, last_seen) "
            "VALUES (1, 'roto', 'h', CAST(X'726F746FEDA080' AS TEXT), 5, '2026-12-01', '2026-12-01')"
        )
        await db.conn.commit()

        monkeypatch.setattr(repairs, "_said", set())  # (said once per process: said again in this test)

        async def read():
            return await (await db.reader.execute("SELECT sample FROM misses")).fetchall()

        # A long read first: the others wait for the connection's thread together, and each meets the bad text
        # before the first of them to fail has switched the connection.
        long = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500000) SELECT COUNT(*) FROM n"
        _, *reads = await asyncio.gather(db.reader.execute(long), *[read() for _ in range(4)])
        assert reads == [[("roto" + "\ufffd" * 3,)]] * 4  # (each bad byte)
    finally:
        await db.close()
