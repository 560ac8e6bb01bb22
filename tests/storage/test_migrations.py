"""The numbered .sql migrations: one list for both engines, and the schema they build, compared with the snapshot
(tests/storage/snapshots/, taken from the database itself) from a new database and from every older version."""

from __future__ import annotations

import re
import sqlite3

import pytest

from bot.core.status import DailyPostStatus, Days, GapKind, GapStatus, Outcome
from bot.storage import open_stores
from bot.storage.db import SCHEMA_VERSION, migrations
from tests.storage.schemas import postgres_at, postgres_schema, snapshot, sqlite_at, sqlite_schema

DIALECTS = ("sqlite", "postgres")
REGENERATE = "a new migration changes it on purpose: regenerate with `python -m tests.storage.schemas`"


def test_both_dialects_number_their_migrations_alike_from_1_without_gaps():
    numbered = {dialect: [(m.number, m.name) for m in migrations(dialect)] for dialect in DIALECTS}
    assert numbered["sqlite"] == numbered["postgres"]
    assert [number for number, _ in numbered["sqlite"]] == list(range(1, SCHEMA_VERSION + 1))


def test_every_file_in_the_folders_is_a_numbered_migration():
    from importlib.resources import files

    for dialect in DIALECTS:
        names = [entry.name for entry in (files("bot.storage") / "migrations" / dialect).iterdir()]
        assert all(re.fullmatch(r"\d{4}_[a-z0-9_]+\.sql", name) for name in names), names
        assert len(names) == SCHEMA_VERSION


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_schema_allows_exactly_the_statuses_of_the_code(dialect):
    schema = "\n".join(m.sql for m in migrations(dialect))
    assert f"CHECK (status IN ({', '.join(repr(s.value) for s in GapStatus)}))" in schema
    assert f"CHECK (outcome IN ({', '.join(repr(o.value) for o in Outcome)}))" in schema
    assert f"CHECK (daily_days IN ({', '.join(repr(d.value) for d in Days)}))" in schema
    assert f"CHECK (status IN ({', '.join(repr(s.value) for s in DailyPostStatus)}))" in schema


async def test_sqlite_builds_the_snapshot_schema_from_any_version(tmp_path):
    for version in range(SCHEMA_VERSION + 1):  # 0: a new file
        path = tmp_path / f"at_{version}.db"
        sqlite_at(path, version).close()
        stores = await open_stores(path)
        assert stores.migrated == tuple(range(version + 1, SCHEMA_VERSION + 1))
        await stores.close()
        assert sqlite_schema(path) == snapshot("sqlite"), f"from version {version}; {REGENERATE}"


async def test_postgresql_builds_the_snapshot_schema_from_any_version(postgres_url):
    import asyncpg

    for version in range(SCHEMA_VERSION + 1):
        if version:
            await postgres_at(postgres_url, version)
        stores = await open_stores(postgres_url)
        assert stores.migrated == tuple(range(version + 1, SCHEMA_VERSION + 1))
        await stores.close()
        assert await postgres_schema(postgres_url) == snapshot("postgres"), f"from version {version}; {REGENERATE}"
        conn = await asyncpg.connect(postgres_url)
        try:
            await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        finally:
            await conn.close()


MISS_COLUMNS = (
    "id, guild_id, normalized, query_hash, sample, kind, count, first_seen, last_seen, best_guess, status, "
    "resolved_term, question"
)
OLD_MISSES = [
    (1, 10, "agente", "h1", "Agente", "lookup", 3, "2026-01-01", "2026-01-05", "agent", "open", None, 0),
    (2, 10, "rag", "h2", "RAG", "search", 1, "2026-01-02", "2026-01-02", None, "resolved", "rag", 0),
    (
        7,
        20,
        "que es un token",
        "h3",
        "¿Qué es un token?",
        "lookup",
        2,
        "2026-01-03",
        "2026-01-04",
        None,
        "ignored",
        None,
        1,
    ),
]


async def test_migration_11_keeps_the_gaps_their_askers_spellings_and_lookup_counts(tmp_path):
    path = tmp_path / "g.db"
    with sqlite_at(path, 10) as conn:  # a database as version 10 of the bot left it
        conn.executemany(f"INSERT INTO misses ({MISS_COLUMNS}) VALUES ({', '.join('?' * 13)})", OLD_MISSES)
        conn.executemany("INSERT INTO miss_askers VALUES (?, ?)", [(1, "a"), (1, "b"), (2, "a"), (7, "c")])
        conn.executemany("INSERT INTO miss_spellings VALUES (?, ?, ?)", [(1, "Agente", 2), (1, "agente", 1)])
        conn.executemany(
            "INSERT INTO lookups VALUES (?, ?, ?, ?, ?)",
            [(10, "2026-01-01", o.value, "t" if o == Outcome.FOUND else "", n) for n, o in enumerate(Outcome, 1)],
        )
        before = {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("misses", "miss_askers", "miss_spellings", "lookups")
        }
    stores = await open_stores(path)
    assert stores.migrated == tuple(range(11, SCHEMA_VERSION + 1))
    await stores.close()
    with sqlite3.connect(path) as conn:
        for table, rows in before.items():
            assert conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() == rows, table
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("DELETE FROM misses WHERE id = 1")  # the askers and spellings still go with their gap
        assert conn.execute("SELECT miss_id FROM miss_askers ORDER BY 1").fetchall() == [(2,), (7,)]
        assert conn.execute("SELECT COUNT(*) FROM miss_spellings").fetchone() == (0,)
        with pytest.raises(sqlite3.IntegrityError):  # and no asker of a gap that does not exist
            conn.execute("INSERT INTO miss_askers VALUES (99, 'a')")


async def test_sqlite_refuses_a_status_kind_or_outcome_the_code_does_not_know(tmp_path):
    path = tmp_path / "g.db"
    await (await open_stores(path)).close()
    stored_kinds = [kind for kind in GapKind if kind != GapKind.QUESTION]  # (a question is a marked lookup)
    insert_miss = f"INSERT INTO misses ({MISS_COLUMNS}) VALUES (NULL, 1, ?, 'h', 's', ?, 1, 'd', 'd', NULL, ?, NULL, 0)"
    insert_lookup = "INSERT INTO lookups (guild_id, day, outcome, term_id, count) VALUES (1, 'd', ?, '', 1)"
    with sqlite3.connect(path) as conn:
        for status in GapStatus:
            for kind in stored_kinds:
                conn.execute(insert_miss, (f"{status}-{kind}", kind, status))
        for outcome in Outcome:
            conn.execute(insert_lookup, (outcome,))
        for bad in ("abierto", "OPEN", "", None):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(insert_miss, (f"bad-{bad}", GapKind.LOOKUP, bad))
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute("UPDATE misses SET status = ?", (bad,))
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(insert_miss, (f"bad-kind-{bad}", bad, GapStatus.OPEN))
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(insert_lookup, (bad,))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(insert_miss, ("question", GapKind.QUESTION, GapStatus.OPEN))


async def test_sqlite_checks_the_gaps_and_lookup_counts_without_a_temporary_table(tmp_path):
    """An IN list of more than two values makes SQLite build a temporary table each time a statement runs: the
    writes after every reply (a gap, its status, lookup counts) check their values by comparisons instead."""
    path = tmp_path / "g.db"
    await (await open_stores(path)).close()
    statements = [
        f"INSERT INTO misses ({MISS_COLUMNS}) VALUES ({', '.join('?' * 13)}) "
        "ON CONFLICT (guild_id, normalized) DO UPDATE SET count = misses.count + 1, status = excluded.status",
        "UPDATE misses SET status = ?, kind = ? WHERE id = ?",
        "INSERT INTO lookups (guild_id, day, outcome, term_id, count) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, day, outcome, term_id) DO UPDATE SET count = lookups.count + excluded.count",
    ]
    with sqlite3.connect(path) as conn:
        for sql in statements:
            opcodes = [row[1] for row in conn.execute("EXPLAIN " + sql, [None] * sql.count("?"))]
            assert "OpenEphemeral" not in opcodes, sql
