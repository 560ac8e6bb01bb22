"""`glosario-bot migrate-data`: every row of one database into another (SQLite → PostgreSQL when a bot outgrows one
process, or back), table by table in one transaction, the salt of the askers' hashes included (so that distinct
people keep adding up). The destination must be empty. A row the destination refuses (what SQLite keeps and
PostgreSQL takes not: text in a number's column, a NUL in a text) copies nothing: every such row is named, by its
table and key, with the destination's reason, so that it can be fixed in the source and the copy made again."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.invisible import one_line, printable
from bot.core.problems import Joined, said
from bot.storage.db import Database
from bot.storage.errors import StorageError
from bot.storage.repairs import row_ids
from bot.storage.tables import KEYS, TABLES

if TYPE_CHECKING:
    from bot.storage import Stores
    from bot.storage.postgres import PgDatabase

IDENTITY_TABLES = ("misses", "proposals")  # PostgreSQL numbers their new rows after the copied ones
BATCH = 5000
NAMED = 10  # refused rows named one by one (the others counted)
REASON = 200  # characters of the destination's reason for one row


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
    refused: list[str] = []
    async with dst.transaction():
        if isinstance(dst, Database):  # (the savepoints below nest in it: one a SAVEPOINT began, its RELEASE commits)
            await dst.conn.execute("BEGIN")
        for table, columns in TABLES.items():
            names = ", ".join(columns)
            rows = await (await src.reader.execute(f"SELECT {names} FROM {table}")).fetchall()
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
            for start in range(0, len(rows), BATCH):
                batch = [tuple(r) for r in rows[start : start + BATCH]]
                refused += await _insert(dst, table, insert, batch)
            copied[table] = len(rows)
        if refused:  # (raised inside the transaction: nothing is copied)
            more = [said("copy_rows_more", more=len(refused) - NAMED)] if len(refused) > NAMED else []
            named = Joined([*refused[:NAMED], *more], "; ")
            raise StorageError(said("copy_rows_refused", count=len(refused), rows=named))
        if not isinstance(dst, Database):  # PostgreSQL: its identity columns go on after the copied ids
            for table in IDENTITY_TABLES:
                await dst.conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                    f"FROM {table}"
                )
    return Copied(copied)


async def _insert(dst: Database | PgDatabase, table: str, insert: str, rows: list[tuple]) -> list[str]:
    """Insert a batch of rows; when the destination refuses one, each alone (the others still go in, so that every
    refused row is found at once), each refused row said as "table (key): reason"."""
    await dst.conn.execute("SAVEPOINT copy_batch")
    try:
        await dst.conn.executemany(insert, rows)
    except Exception as exc:
        if not dst.refuses_content(exc):
            raise
        await dst.conn.execute("ROLLBACK TO SAVEPOINT copy_batch")
    else:
        await dst.conn.execute("RELEASE SAVEPOINT copy_batch")
        return []
    refused = []
    for row in rows:
        await dst.conn.execute("SAVEPOINT copy_row")
        try:
            await dst.conn.execute(insert, row)
        except Exception as exc:
            if not dst.refuses_content(exc):
                raise
            await dst.conn.execute("ROLLBACK TO SAVEPOINT copy_row")
            refused.append(_refused(table, row, exc))
        else:
            await dst.conn.execute("RELEASE SAVEPOINT copy_row")
    await dst.conn.execute("RELEASE SAVEPOINT copy_batch")
    return refused


def _refused(table: str, row: tuple, error: Exception) -> str:
    """A refused row as the operator finds it: its table and key, and the destination's reason (a column named where
    the reason numbers it; what the row holds only as the driver quotes it, printable, cut)."""
    columns = TABLES[table]
    values = dict(zip(columns, row, strict=True))
    key = row_ids(**{column: values[column] for column in KEYS[table]})
    reason = re.sub(r"query argument \$(\d+)", lambda m: f"column {columns[int(m[1]) - 1]}", str(error))
    return f"{table} ({key}): {printable(one_line(reason, REASON))}"
