"""`glosario-bot migrate-data`: every row of one database into another (SQLite → PostgreSQL when a bot outgrows one
process, or back), table by table in one transaction, the salt of the askers' hashes included (so that distinct
people keep adding up). The destination must be empty."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.problems import said
from bot.storage.db import Database
from bot.storage.errors import StorageError

if TYPE_CHECKING:  # (the erasure store, which Stores holds, reads TABLES: no import cycle)
    from bot.storage import Stores

# Every table of the schema with its columns, parents before children (a test holds this to the migrations).
TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "misses": ("id", "guild_id", "normalized", "query_hash", "sample", "kind", "count", "first_seen", "last_seen",
               "best_guess", "status", "resolved_term", "question"),
    "miss_askers": ("miss_id", "asker"),
    "miss_spellings": ("miss_id", "sample", "count"),
    "picks": ("guild_id", "normalized", "sample", "term_id", "count", "last_seen"),
    "pick_askers": ("guild_id", "normalized", "term_id", "asker"),
    "lookups": ("guild_id", "day", "outcome", "term_id", "count"),
    "unlogged_misses": ("guild_id", "day", "count"),
    "applied_writes": ("id", "day"),
    "guild_settings": ("guild_id", "daily_enabled", "daily_channel_id", "daily_hour", "daily_minute", "daily_tz",
                       "daily_days", "daily_error", "daily_error_at", "editor_role_id", "daily_server_terms",
                       "proposals_enabled", "digest_channel_id", "digest_weekday", "digest_last"),
    "daily_picks": ("guild_id", "day", "term_id", "cycle"),
    "daily_posts": ("guild_id", "day", "channel_id", "status", "message_id", "detail", "at", "claimed_until"),
    "server_terms": ("guild_id", "term_id", "fields", "author_id", "created_at", "updated_by", "updated_at",
                     "retired_at"),
    "server_term_versions": ("guild_id", "term_id", "version", "action", "fields", "by_user", "at"),
    "server_aliases": ("guild_id", "normalized", "spelling", "term_id", "by_user", "at"),
    "proposals": ("id", "guild_id", "user_id", "locale", "fields", "status", "reason", "decided_by", "decided_at",
                  "created_at", "notified"),
    "guild_departures": ("guild_id", "left_at"),
    "feedback": ("guild_id", "term_id", "voter", "vote", "comment", "at"),
}  # fmt: skip
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
