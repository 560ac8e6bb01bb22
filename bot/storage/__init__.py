"""Storage behind small typed interfaces (bot.storage.interfaces). `open_stores` picks the database from the
setting: a SQLite file (aiosqlite, module db), or a PostgreSQL URL (asyncpg, module postgres). The stores' SQL
(modules gaps, daily, server_terms, proposals, erasure, feedback) is written once and runs on both."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import DatabaseUrl
from bot.storage.daily import SqlDailyStore, SqlDigestStore, SqlRoleStore
from bot.storage.db import Database, SqlAppliedWrites, file_identity
from bot.storage.erasure import SqlErasureStore
from bot.storage.feedback import SqlFeedbackStore
from bot.storage.gaps import SqlGapStore, SqlUsageStore
from bot.storage.interfaces import (
    AppliedLog,
    DailyStore,
    DigestStore,
    ErasureStore,
    FeedbackStore,
    GapStore,
    MetaStore,
    ProposalStore,
    RoleStore,
    ServerTermStore,
    UnitOfWork,
    UsageStore,
)
from bot.storage.proposals import SqlProposalStore
from bot.storage.server_terms import SqlServerTermStore

if TYPE_CHECKING:
    from bot.storage.postgres import PgDatabase  # (asyncpg is imported only when a PostgreSQL URL is opened)


@dataclass
class Stores:
    """Every store of one database, and the unit of work that owns its transactions."""

    unit: UnitOfWork
    meta: MetaStore
    applied: AppliedLog
    gaps: GapStore
    usage: UsageStore
    daily: DailyStore
    roles: RoleStore
    server_terms: ServerTermStore
    proposals: ProposalStore
    digests: DigestStore
    erasure: ErasureStore
    feedback: FeedbackStore
    database: Database | PgDatabase  # the connections (closing it closes every store)
    migrated: tuple[int, ...] = ()  # the migrations this open applied

    @property
    def location(self) -> Path | str:
        return self.database.path

    @property
    def identity(self) -> str | None:
        """Which file the stores opened (device and inode), or which server: a database replaced under the bot
        shows up."""
        return self.database.identity

    def still_the_same(self) -> bool:
        if not isinstance(self.database, Database):  # a PostgreSQL server: no file to be replaced
            return True
        return file_identity(self.database.path) == self.database.identity

    async def schema_version(self) -> int:
        return await self.database.schema_version()

    async def close(self) -> None:
        await self.database.close()


def stores_on(db: Database | PgDatabase) -> Stores:
    return Stores(
        unit=db,
        meta=db,
        applied=SqlAppliedWrites(db),
        gaps=SqlGapStore(db),
        usage=SqlUsageStore(db),
        daily=SqlDailyStore(db),
        roles=SqlRoleStore(db),
        server_terms=SqlServerTermStore(db),
        proposals=SqlProposalStore(db),
        digests=SqlDigestStore(db),
        erasure=SqlErasureStore(db),
        feedback=SqlFeedbackStore(db),
        database=db,
        migrated=tuple(db.migrated),
    )


async def open_stores(database: Path | DatabaseUrl | str, *, read_only: bool = False) -> Stores:
    """Open the database — a SQLite file, or a PostgreSQL URL — (creating and migrating it, unless `read_only`)
    and its stores. Raises StorageError (and SettingsError for a setting that is not a database URL)."""
    if isinstance(database, str):
        database = DatabaseUrl.parse(database)
    if isinstance(database, DatabaseUrl):
        if database.is_postgres:
            from bot.storage.postgres import PgDatabase

            return stores_on(await PgDatabase.open(database, migrate=not read_only))
        database = database.sqlite_path
    path = Path(database)
    db = await (Database.open_read_only(path) if read_only else Database.open(path))
    return stores_on(db)
