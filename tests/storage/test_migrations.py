"""The numbered .sql migrations: one list for both engines, and the schema they build, compared with the snapshot
(tests/storage/snapshots/, taken from the database itself) from a new database and from every older version."""

from __future__ import annotations

import re

import pytest

from bot.core.status import DailyPostStatus, Days, GapStatus, Outcome
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
