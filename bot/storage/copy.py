"""`glosario-bot migrate-data`: every row of one database into another (SQLite → PostgreSQL when a bot outgrows one
process, or back), table by table in one transaction, the salt of the askers' hashes included (so that distinct
people keep adding up). The destination must be empty."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.problems import said
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.tables import TABLES

if TYPE_CHECKING:
    from bot.storage import Stores

IDENTITY_TABLES = ("misses", "proposals")  # PostgreSQL numbers their new rows after the copied ones
BATCH = 5000


@dataclass(frozen=True)
class Copied:
    rows: dict[str, int]  # table → rows copied


async def copy_all(source: Stores, target: Stores) -> Copied:
    """Copy every table of `source` into `target` (both open and migrated to the same schema)."""
    if await source.schema_version() != await target.schema_version():
        raise StorageError(said("copy_schemas_differ"))
    src, dst = source.database, target.database
    for table in TABLES:
        (count,) = await (await dst.reader.execute(f"SELECT COUNT(*) FROM {table}")).fetchone()
        if count:
            raise StorageError(said("copy_target_has_data", table=table))
    copied: dict[str, int] = {}
    async with dst.transaction():
        for table, columns in TABLES.items():
            names = ", ".join(columns)
            rows = await (await src.reader.execute(f"SELECT {names} FROM {table}")).fetchall()
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
            for start in range(0, len(rows), BATCH):
                await dst.conn.executemany(insert, [tuple(r) for r in rows[start : start + BATCH]])
            copied[table] = len(rows)
        if not isinstance(dst, Database):  # PostgreSQL: its identity columns go on after the copied ids
            for table in IDENTITY_TABLES:
                await dst.conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                    f"FROM {table}"
                )
    return Copied(copied)
