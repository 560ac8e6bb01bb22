"""The schema a database holds, as sorted lines of text, read from the database itself (every table, column with
its type, default, nullability and identity, index and constraint), and databases as an older bot left them.

tests/storage/snapshots/ holds the schema the migrations build on each engine; test_migrations.py compares with
it. After adding a migration, regenerate it and read the difference: `python -m tests.storage.schemas`.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

from bot.storage.db import _statements, migrations

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


def _squeeze(sql: str | None) -> str:
    return re.sub(r"\s+", " ", sql or "").strip()


def sqlite_schema(path: Path) -> list[str]:
    """Each object's statement as SQLite keeps it (whitespace squeezed), and what SQLite reports of its columns,
    indexes and foreign keys."""
    lines = []
    with sqlite3.connect(path) as conn:
        objects = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()
        for kind, name, table, sql in objects:
            lines.append(f"{kind} {name} on {table}: {_squeeze(sql)}")
            if kind != "table":
                continue
            for cid, column, type_, notnull, default, pk in conn.execute(f"PRAGMA table_info('{name}')"):
                lines.append(f"column {name}.{column} #{cid} {type_} notnull={notnull} default={default} pk={pk}")
            for _, index, unique, origin, partial in conn.execute(f"PRAGMA index_list('{name}')"):
                columns = [r[2] for r in conn.execute(f"PRAGMA index_info('{index}')")]
                lines.append(f"index {name}.{index} unique={unique} origin={origin} partial={partial} {columns}")
            for row in conn.execute(f"PRAGMA foreign_key_list('{name}')"):
                lines.append(f"foreign key {name}: {row[3]} -> {row[2]}.{row[4]} on delete {row[6]}")
    return sorted(lines)


async def postgres_schema(url: str) -> list[str]:
    """The public schema's columns, indexes and constraints as PostgreSQL describes them."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        columns = await conn.fetch(
            "SELECT table_name, column_name, ordinal_position, data_type, column_default, is_nullable, is_identity, "
            "identity_generation FROM information_schema.columns WHERE table_schema = 'public'"
        )
        indexes = await conn.fetch("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
        constraints = await conn.fetch(
            "SELECT c.conrelid::regclass::text, c.conname, c.contype::text, pg_get_constraintdef(c.oid) "
            "FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'"
        )
    finally:
        await conn.close()
    lines = [
        f"column {r[0]}.{r[1]} #{r[2]} {r[3]} default={r[4]} nullable={r[5]} identity={r[6]} {r[7] or ''}".rstrip()
        for r in columns
    ]
    lines += [f"index {r[0]}.{r[1]}: {r[2]}" for r in indexes]
    lines += [f"constraint {r[0]}.{r[1]} ({r[2]}): {r[3]}" for r in constraints]
    return sorted(lines)


def snapshot(dialect: str) -> list[str]:
    return (SNAPSHOTS / f"{dialect}.txt").read_text(encoding="utf-8").splitlines()


def sqlite_at(path: Path, version: int) -> sqlite3.Connection:
    """A SQLite file as the bot at schema `version` left it (migrations 1 to `version`), open for more rows."""
    conn = sqlite3.connect(path)
    for migration in migrations("sqlite")[:version]:
        for statement in _statements(migration.sql):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {migration.number}")
    conn.commit()
    return conn


async def postgres_at(url: str, version: int) -> None:
    """A PostgreSQL database as the bot at schema `version` left it (migrations 1 to `version`)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for migration in migrations("postgres")[:version]:
            await conn.execute(migration.sql)
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
    finally:
        await conn.close()


async def _regenerate() -> None:
    import tempfile

    from bot.storage import open_stores
    from tests.postgres import Cluster, binaries, sql

    with tempfile.TemporaryDirectory() as folder:
        await (await open_stores(Path(folder) / "g.db")).close()
        lines = {"sqlite": sqlite_schema(Path(folder) / "g.db")}
    cluster = Cluster(binaries()).start()
    try:
        sql(cluster.url(), 'CREATE DATABASE "snapshot"')
        await (await open_stores(cluster.url("snapshot"))).close()
        lines["postgres"] = await postgres_schema(cluster.url("snapshot"))
    finally:
        cluster.stop()
    for dialect, text in lines.items():
        (SNAPSHOTS / f"{dialect}.txt").write_text("\n".join(text) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(_regenerate())
