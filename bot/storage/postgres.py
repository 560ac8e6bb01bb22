"""PostgreSQL (asyncpg), for several processes or hosts sharing one database. The stores' SQL is written once, in
the dialect both engines share; `to_postgres` makes the few differences at run time (`?` placeholders become `$n`,
`INSERT OR IGNORE` becomes `ON CONFLICT DO NOTHING`, SQLite's `NOT INDEXED` hint goes), and `PgDatabase` offers the
stores what `db.Database` offers them: a writing and a reading connection with `execute`/`executemany` and cursors,
and the unit of work (`transaction()`). The migrations are their own files (migrations/postgres/*.sql), numbered
like SQLite's, applied under an advisory lock so that processes starting at once do not race.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import itertools
import logging
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import asyncpg

from bot.config import DatabaseUrl
from bot.core.problems import Joined, said
from bot.storage.db import SCHEMA_VERSION, MetaQueries, Migration, migrations
from bot.storage.errors import DatabaseBusy, StorageError

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x676C6F7361726F  # pg_advisory_xact_lock key: "glosaro"
_in_transaction: contextvars.ContextVar[asyncpg.Connection | None] = contextvars.ContextVar(
    "pg_transaction", default=None
)

# What the database refuses for a record's content (retrying the same record cannot help): a constraint (SQLSTATE
# class 23), a value of the wrong type or out of range (class 22), or an argument the driver cannot encode.
_CONTENT = (
    asyncpg.exceptions.IntegrityConstraintViolationError,
    asyncpg.exceptions.DataError,
    asyncpg.exceptions._base.DataError,  # (the driver's own "invalid input for query argument": no public name)
    OverflowError,
    UnicodeError,
)
# Everything else the driver, the server or the network raise is the database being unavailable for now: the
# connection, the pool, the protocol, the driver's state (what stopping the server mid-statement leaves), a lock,
# the server's disk, a schema the operator must fix. Worth retrying; the record is kept.
_DRIVER = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)


def refuses_content(error: BaseException) -> bool:
    """True only when PostgreSQL (or its driver) refused a record for what it holds."""
    return isinstance(error, _CONTENT)


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """One statement of the stores' SQL in PostgreSQL's words."""
    text = sql.strip().rstrip(";").replace(" NOT INDEXED", "")
    if "INSERT OR IGNORE INTO" in text:
        text = text.replace("INSERT OR IGNORE INTO", "INSERT INTO") + " ON CONFLICT DO NOTHING"
    numbers = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(numbers)}", text)


class PgCursor:
    """What the stores read from an `execute`: rows, and how many rows a write touched."""

    def __init__(self, rows: list, rowcount: int) -> None:
        self._rows, self.rowcount = rows, rowcount
        self.lastrowid = None  # (PostgreSQL has none: the stores use RETURNING)

    async def fetchone(self):
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list:
        return self._rows


@contextlib.contextmanager
def _as_busy() -> Iterator[None]:
    """Whatever the driver, the server or the network raise, but a refusal of the content, comes out as
    DatabaseBusy (worth retrying later)."""
    try:
        yield
    except _DRIVER as exc:
        if refuses_content(exc):
            raise
        raise DatabaseBusy(f"{type(exc).__name__}: {exc}") from exc


def _rowcount(status: str | None) -> int:
    last = (status or "").rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgConnection:
    """The stores' connection: inside `transaction()` the transaction's own connection, otherwise one from the
    pool for the statement (`reading` ones never join a transaction, like SQLite's read-only connection)."""

    def __init__(self, database: PgDatabase, *, reading: bool) -> None:
        self.database, self.reading = database, reading

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        current = None if self.reading else _in_transaction.get()
        if current is not None:
            yield current
            return
        async with self.database.pool.acquire() as conn:
            yield conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> PgCursor:
        with _as_busy():
            async with self._connection() as conn:
                statement = await conn.prepare(to_postgres(sql))
                rows = await statement.fetch(*args)
                return PgCursor(rows, _rowcount(statement.get_statusmsg()))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        with _as_busy():
            async with self._connection() as conn:
                await conn.executemany(to_postgres(sql), rows)


class PgDatabase(MetaQueries):
    """A connection pool with the surface the stores use (`conn`, `reader`, `transaction()`, meta, salt)."""

    def __init__(self, pool: asyncpg.Pool, url: DatabaseUrl) -> None:
        self.pool, self.url = pool, url
        self.conn = PgConnection(self, reading=False)
        self.reader = PgConnection(self, reading=True)
        self.identity: str | None = url.masked
        self.path = url.masked  # where the data is, for logs
        self.migrated: list[int] = []
        self._writing = asyncio.Lock()  # one transaction at a time per process, as on SQLite

    @classmethod
    async def open(cls, url: DatabaseUrl | str, *, migrate: bool = True) -> PgDatabase:
        """Connect, and migrate to the current schema (or, with `migrate=False`, only check that it is current)."""
        url = url if isinstance(url, DatabaseUrl) else DatabaseUrl.parse(url)
        try:
            pool = await asyncpg.create_pool(url.url, min_size=1, max_size=8, command_timeout=30, timeout=10)
        except (TimeoutError, OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            where, why = url.masked, url.scrub(f"{type(exc).__name__}: {exc}")
            raise StorageError(said("pg_unreachable", where=where, why=why)) from None
        db = cls(pool, url)
        try:
            if migrate:
                await db._migrate(migrations("postgres"))
            else:
                await db._check_version(SCHEMA_VERSION)
        except BaseException:
            await pool.close()
            raise
        return db

    async def _migrate(self, pending: Sequence[Migration]) -> None:
        """Every migration not yet applied, each in its own transaction under an advisory lock: a process starting
        at the same time waits, then finds them applied."""
        async with self.pool.acquire() as conn:
            async with conn.transaction():  # (IF NOT EXISTS alone races with another process creating it)
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            for migration in pending:
                number = migration.number
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    current = await _version(conn)
                    if current > SCHEMA_VERSION:
                        raise _newer(self.path, current, SCHEMA_VERSION)
                    if current >= number:
                        continue
                    log.info("applying database migration %d to %s", number, self.path)
                    await conn.execute(migration.sql)  # (without arguments, asyncpg runs a file of statements)
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                    self.migrated.append(number)
            current = await _version(conn)
            if current > SCHEMA_VERSION:
                raise _newer(self.path, current, SCHEMA_VERSION)

    async def _check_version(self, expected: int) -> None:
        async with self.pool.acquire() as conn:
            exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
            version = await _version(conn) if exists else 0
        if version != expected:
            raise StorageError(said("db_schema_differs", path=self.path, version=version, ours=expected))

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """The unit of work: commits together or rolls back together; nested blocks join the outer one; what the
        driver, the server or the network raise (but a refusal of the content) comes out as DatabaseBusy."""
        if _in_transaction.get() is not None:
            yield
            return
        async with self._writing:
            with _as_busy():
                async with self.pool.acquire() as conn, conn.transaction():
                    token = _in_transaction.set(conn)
                    try:
                        yield
                    finally:
                        _in_transaction.reset(token)

    @staticmethod
    def refuses_content(error: BaseException) -> bool:
        return refuses_content(error)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await _version(conn)

    async def close(self) -> None:
        await self.pool.close()


async def _version(conn: asyncpg.Connection) -> int:
    return await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")


def _newer(where: str, version: int, ours: int) -> StorageError:
    newer = said("db_schema_newer", path=where, version=version, ours=ours)
    return StorageError(Joined([newer, said("db_upgrade_bot")], " "))


async def probe(url: DatabaseUrl) -> str | None:
    """Whether the database answers (for `glosario-bot health`): None, or what went wrong."""
    try:
        conn = await asyncpg.connect(url.url, timeout=5)
    except (TimeoutError, OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return url.scrub(f"{type(exc).__name__}: {exc}")
    try:
        await conn.fetchval("SELECT 1")
    finally:
        await conn.close()
    return None
