"""Storage behind small typed interfaces (bot.storage.interfaces). `open_stores` picks the implementation from
the database URL; SQLite through aiosqlite (modules db, gaps, daily) is the one there is today."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.storage.daily import SqliteDailyStore, SqliteDigestStore, SqliteRoleStore
from bot.storage.db import Database, SqliteAppliedWrites, file_identity
from bot.storage.gaps import SqliteGapStore, SqliteUsageStore
from bot.storage.interfaces import (
    AppliedLog,
    DailyStore,
    DigestStore,
    GapStore,
    MetaStore,
    ProposalStore,
    RoleStore,
    ServerTermStore,
    UnitOfWork,
    UsageStore,
)
from bot.storage.proposals import SqliteProposalStore
from bot.storage.server_terms import SqliteServerTermStore


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
    database: Database  # the SQLite connection pair (closing it closes every store)
    migrated: tuple[int, ...] = ()  # the migrations this open applied

    @property
    def location(self) -> Path:
        return self.database.path

    @property
    def identity(self) -> str | None:
        """Which file the stores opened (device and inode): a database replaced under the bot shows up."""
        return self.database.identity

    def still_the_same(self) -> bool:
        return file_identity(self.database.path) == self.database.identity

    async def schema_version(self) -> int:
        return await self.database.schema_version()

    async def close(self) -> None:
        await self.database.close()


def sqlite_stores(db: Database) -> Stores:
    return Stores(
        unit=db,
        meta=db,
        applied=SqliteAppliedWrites(db),
        gaps=SqliteGapStore(db),
        usage=SqliteUsageStore(db),
        daily=SqliteDailyStore(db),
        roles=SqliteRoleStore(db),
        server_terms=SqliteServerTermStore(db),
        proposals=SqliteProposalStore(db),
        digests=SqliteDigestStore(db),
        database=db,
        migrated=tuple(db.migrated),
    )


async def open_stores(path: Path, *, read_only: bool = False) -> Stores:
    """Open the database (creating and migrating it, unless `read_only`) and its stores. Raises StorageError."""
    db = await (Database.open_read_only(path) if read_only else Database.open(path))
    return sqlite_stores(db)
