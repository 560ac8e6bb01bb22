"""SQLite: connect, set PRAGMAs, apply the numbered migrations (migrations/sqlite/*.sql, PRAGMA user_version), own
transactions. `migrations()` reads either dialect's files."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import importlib.resources
import logging
import os
import re
import secrets
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal
from urllib.parse import quote

import aiosqlite

from bot.core.problems import Joined, Sentence, said
from bot.storage.errors import DatabaseBusy, StorageError, os_reason
from bot.storage.repairs import odd_row

log = logging.getLogger(__name__)

STARTUP_ATTEMPTS = 20  # tries to configure and migrate while other processes start on the same file
MIGRATION_WAIT_MS = 120_000  # how long a starting process waits for another one's migrations
BUSY_TIMEOUT_MS = 1000  # the longest a statement waits for another process's lock (replies wait no longer)

MIGRATIONS_PACKAGE = "bot.storage"  # the numbered files: bot/storage/migrations/<dialect>/NNNN_<name>.sql
Dialect = Literal["sqlite", "postgres"]


@dataclass(frozen=True)
class Migration:
    """One numbered migration of one dialect: the schema version it brings, its name and its SQL."""

    number: int
    name: str
    sql: str


@functools.cache
def migrations(dialect: Dialect) -> tuple[Migration, ...]:
    """The dialect's migrations in order, read from the package's .sql files (bot/storage/migrations/README.md:
    append only, never edit a released one, the same numbers in both dialects)."""
    folder = importlib.resources.files(MIGRATIONS_PACKAGE) / "migrations" / dialect
    found = []
    for entry in folder.iterdir():
        stem, _, ext = entry.name.partition(".")
        if ext != "sql":
            continue
        number, _, name = stem.partition("_")
        found.append(Migration(int(number), name, entry.read_text(encoding="utf-8")))
    return tuple(sorted(found, key=lambda m: m.number))


SCHEMA_VERSION = migrations("sqlite")[-1].number  # both dialects end at the same number (tests/storage)


_in_transaction: contextvars.ContextVar[Database | None] = contextvars.ContextVar("in_transaction", default=None)

# Text that is not UTF-8 read as it is, each bad byte as U+FFFD. (sqlite3 decodes text fastest with its own `str`:
# with this text_factory the export of 100,000 gaps reads them in 0.40 s instead of 0.30 s.)
REPAIRED_TEXT = functools.partial(str, encoding="utf-8", errors="replace")
_UNDECODABLE = "Could not decode to UTF-8"  # (how sqlite3 fails a whole read for one text that is not UTF-8)


class ReadingConnection:
    """SQLite's read-only connection as the stores use it: `execute`, then `fetchone` or `fetchall` (anything else is
    the aiosqlite connection's).

    Every read takes its rows in the same step as its statement, on the connection's thread (as PostgreSQL's reads
    do): a statement whose rows were left for later keeps SQLite's snapshot of the file open on the whole connection,
    and each read the other coroutines made meanwhile saw the file as it was then, not the writes committed since
    (a server set up a moment before, missing from a scheduler's look).

    SQLite keeps whatever bytes it is given as text (a hand edit, a restore), and one text that is not UTF-8 fails the
    whole read in Python: the first read to meet one turns this connection to reading bad bytes as U+FFFD
    (REPAIRED_TEXT), says so once naming the table and the column, and is made again."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    def __getattr__(self, name: str):
        return getattr(self.conn, name)

    async def execute(self, sql: str, parameters: object = ()) -> ReadRows:
        try:
            return ReadRows(await self.conn.execute_fetchall(sql, parameters))
        except sqlite3.OperationalError as exc:
            if not self._repairs(exc, sql):
                raise
        return ReadRows(await self.conn.execute_fetchall(sql, parameters))

    def _repairs(self, error: sqlite3.OperationalError, sql: str) -> bool:
        """Whether `error` is text that is not UTF-8 and the statement is worth making again (the connection now
        reads such text). A read made before the switch fails so even after it (reads under way when the first bad
        text was met, the switch made by one of them): it is made again too, with nothing more to say."""
        if not str(error).startswith(_UNDECODABLE):
            return False
        if self.conn.text_factory is REPAIRED_TEXT:  # (this error can only come from a read begun before the switch)
            return True
        self.conn.text_factory = REPAIRED_TEXT
        column = re.search(r"column '([^']*)'", str(error))  # (the message's text after it is the row's: not said)
        where = f"column {column[1]!r}" if column else "a column"
        problem = f"{where} holds text that is not UTF-8: its bad bytes are read as U+FFFD from now on"
        odd_row(_table_read(sql), problem)
        return True


def _table_read(sql: str) -> str:
    """The table a SELECT reads (its FROM outside any parentheses: not a subquery's)."""
    for found in re.finditer(r"\bFROM\s+(\w+)", sql):
        before = sql[: found.start()]
        if before.count("(") == before.count(")"):
            return found[1]
    return "?"


class ReadRows:
    """A read's rows, all taken (ReadingConnection.execute), given out as a cursor would: `fetchone` the next row
    (None after the last), `fetchall` the rows left."""

    def __init__(self, rows: Iterable) -> None:
        self.rows, self.taken = list(rows), 0

    async def fetchone(self):
        if self.taken >= len(self.rows):
            return None
        self.taken += 1
        return self.rows[self.taken - 1]

    async def fetchall(self) -> list:
        rest, self.taken = self.rows[self.taken :], len(self.rows)
        return rest


def _statements(script: str) -> list[str]:
    """A migration's SQL, one complete statement at a time (executescript would commit before running)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


class MetaQueries:
    """The meta table (settings of the installation, the askers' salt), in SQL both databases run: shared by
    `Database` and `postgres.PgDatabase`, which provide `reader`, `conn` and `transaction()`."""

    async def get_meta(self, key: str) -> str | None:
        row = await (await self.reader.execute("SELECT value FROM meta WHERE key = ?", (key,))).fetchone()
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction():
            await self.conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def existing_salt(self) -> str | None:
        """The salt if one was made (a read only: for a dry run, which must write nothing)."""
        return await self.get_meta("asker_salt")

    async def salt(self) -> str:
        """A random per-installation salt for hashing user ids: created once (the first writer's stays, whoever
        else starts at the same moment), then read."""
        async with self.transaction():
            await self.conn.execute(
                "INSERT INTO meta (key, value) VALUES ('asker_salt', ?) ON CONFLICT (key) DO NOTHING",
                (secrets.token_hex(16),),
            )
            row = await (await self.conn.execute("SELECT value FROM meta WHERE key = 'asker_salt'")).fetchone()
        return row[0]


class Database(MetaQueries):
    """Two aiosqlite connections shared by the storage modules: `conn` writes (one statement at a time, in
    order), `reader` only reads. With WAL, reads never wait for a writer, and never queue behind a write that
    is itself waiting for another process's lock."""

    def __init__(self, conn: aiosqlite.Connection, path: Path):
        self.conn = conn
        self.reader: aiosqlite.Connection | ReadingConnection = conn  # until the read-only connection is open
        self.path = path
        self.identity: str | None = None  # the opened file's device and inode (see bot.app.health)
        self._writing = asyncio.Lock()  # one transaction at a time on the write connection
        self.migrated: list[int] = []  # the migrations this open applied

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """The unit of work: the writes inside commit together when the block ends, or roll back together on an
        exception. Nested blocks (a store's own, inside the write queue's batch) join the outer one. An error of
        the disk or of a lock comes out as DatabaseBusy, whatever SQLite called it."""
        if _in_transaction.get() is self:
            yield
            return
        async with self._writing:
            token = _in_transaction.set(self)
            try:
                yield
                await self.conn.commit()
            except BaseException as exc:
                with contextlib.suppress(Exception):
                    await self.conn.rollback()
                if isinstance(exc, sqlite3.OperationalError):
                    raise DatabaseBusy(str(exc)) from exc
                raise
            finally:
                _in_transaction.reset(token)

    @staticmethod
    def refuses_content(error: BaseException) -> bool:
        """True only when SQLite refused a record for what it holds: a constraint, a value it cannot bind or store.
        Anything else (the disk, a lock, a closed or damaged file) is worth retrying later."""
        content = sqlite3.IntegrityError | sqlite3.InterfaceError | sqlite3.DataError | OverflowError | UnicodeError
        return isinstance(error, content)

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating the file and its directory on first start) and migrate to the current schema."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(said("db_folder_uncreatable", folder=path.parent, why=os_reason(exc))) from None
        _check_writable(path)
        try:
            conn = await _connect(path)
        except sqlite3.Error as exc:
            raise StorageError(said("db_unopenable", path=path, error=exc, folder=path.parent)) from None
        # What the write connection reads back (a gap's spelling for a pick, a term's fields) is little: it reads text
        # that is not UTF-8 as REPAIRED_TEXT from the start.
        conn.text_factory = REPAIRED_TEXT
        db = cls(conn, path)
        try:
            await db._configure_and_migrate()
            db.identity = file_identity(path)
            db.reader = ReadingConnection(await _connect(read_only_uri(path), uri=True))
            await db.reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        except StorageError:
            await db.close()
            raise
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise StorageError(_explain(path, exc)) from None
        return db

    @classmethod
    async def open_read_only(cls, path: Path) -> Database:
        """Open an existing database only to read it (the editors' `misses`, `daily`): works on a read-only file
        or directory, and never migrates; a schema this bot does not know is refused as in `open`."""
        path = Path(path)
        try:
            conn = await _connect(read_only_uri(path), uri=True)
        except sqlite3.Error as exc:
            raise StorageError(_explain(path, exc)) from None
        db = cls(conn, path)
        db.reader = ReadingConnection(conn)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            (version,) = await (await conn.execute("PRAGMA user_version")).fetchone()
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StorageError(_explain(path, exc)) from None
        if version != SCHEMA_VERSION:
            await conn.close()
            differs = said("db_schema_differs", path=path, version=version, ours=SCHEMA_VERSION)
            fix = said("db_upgrade_bot" if version > SCHEMA_VERSION else "db_migrate_it")
            raise StorageError(Joined([differs, fix], " "))
        return db

    async def _configure_and_migrate(self) -> None:
        """Processes starting at once on a new file: SQLite may answer "locked" at once, without waiting, to one
        of them (when waiting could deadlock, e.g. while another switches the file to WAL). Both steps can be
        taken again, so they are, a few times, before that counts as an error."""
        for attempt in range(1, STARTUP_ATTEMPTS + 1):
            try:
                await self._configure()
                await self._migrate()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == STARTUP_ATTEMPTS:
                    raise
                log.info("the database is busy with another process starting: trying again (%s)", exc)
                await asyncio.sleep(0.05 * attempt)

    async def _configure(self) -> None:
        # Until the schema is current (_migrate sets the usual timeout back), wait as long as another process
        # starting at the same moment may take to switch the file to WAL and migrate it.
        await self.conn.execute(f"PRAGMA busy_timeout = {MIGRATION_WAIT_MS}")
        mode = await (await self.conn.execute("PRAGMA journal_mode = WAL")).fetchone()
        if mode and str(mode[0]).lower() != "wal":
            log.warning("SQLite did not switch %s to WAL (mode %s)", self.path, mode[0])
        await self.conn.execute("PRAGMA synchronous = NORMAL")
        await self.conn.execute("PRAGMA foreign_keys = ON")

    async def _migrate(self) -> None:
        (version,) = await (await self.conn.execute("PRAGMA user_version")).fetchone()
        if version > SCHEMA_VERSION:
            newer = said("db_schema_newer", path=self.path, version=version, ours=SCHEMA_VERSION)
            raise StorageError(Joined([newer, said("db_upgrade_or_backup")], " "))
        self.migrated = []
        try:
            for migration in migrations("sqlite"):
                if migration.number > version and await self._apply(migration):
                    self.migrated.append(migration.number)
        finally:
            await self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    async def _apply(self, migration: Migration) -> bool:
        """Apply one migration in its own transaction, under the database's write lock (BEGIN IMMEDIATE): a
        process starting at the same time waits, then finds the schema already there and applies nothing.
        False when another process had applied it."""
        number = migration.number
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            (current,) = await (await self.conn.execute("PRAGMA user_version")).fetchone()
            if current >= number:
                await self.conn.rollback()
                log.info("database migration %d was applied by another process", number)
                return False
            log.info("applying database migration %d to %s", number, self.path)
            for statement in _statements(migration.sql):
                await self.conn.execute(statement)
            await self.conn.execute(f"PRAGMA user_version = {number}")
            await self.conn.commit()
        except BaseException:
            if self.conn.in_transaction:
                await self.conn.rollback()
            raise
        return True

    async def close(self) -> None:
        reader = self.reader.conn if isinstance(self.reader, ReadingConnection) else self.reader
        if reader is not self.conn:
            await reader.close()
        await self.conn.close()

    async def schema_version(self) -> int:
        (version,) = await (await self.reader.execute("PRAGMA user_version")).fetchone()
        return version


def file_identity(path: Path) -> str | None:
    """Which file is at `path` (device and inode): a database replaced or moved under the bot shows up here."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}"


class SqlAppliedWrites:
    """Ids of the write-queue records the database holds, written in each batch's own transaction."""

    KEEP = timedelta(days=60)  # longer than any journal waits to be replayed

    def __init__(self, db: Database):
        self.db = db

    async def mark(self, ids: list[str]) -> set[str]:
        """Claim these ids in the caller's transaction; returns those that were not there yet (the records to
        apply). A process claiming the same id at the same moment waits for this transaction, then finds it."""
        day = datetime.now(UTC).date().isoformat()
        claimed: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            values = ", ".join(["(?, ?)"] * len(chunk))
            args = [value for i in chunk for value in (i, day)]
            if isinstance(self.db, Database):
                # Usually every id is new: a plain INSERT claims them all without RETURNING, for which SQLite fills
                # a temporary table each time (some 6 K instructions an id). An id already there fails the statement
                # alone, backed out whole (SQLite's ABORT: the transaction goes on), and the statement below says
                # which ones were new. (A failed statement would end a PostgreSQL transaction: it always asks.)
                try:
                    await self.db.conn.execute(f"INSERT INTO applied_writes (id, day) VALUES {values}", args)
                except sqlite3.IntegrityError:
                    pass
                else:
                    claimed.update(chunk)
                    continue
            rows = await (
                await self.db.conn.execute(
                    f"INSERT INTO applied_writes (id, day) VALUES {values} ON CONFLICT DO NOTHING RETURNING id", args
                )
            ).fetchall()
            claimed.update(r[0] for r in rows)
        return claimed

    async def applied(self, ids: list[str]) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = await (
                await self.db.conn.execute(
                    f"SELECT id FROM applied_writes WHERE id IN ({','.join('?' * len(chunk))})", chunk
                )
            ).fetchall()
            found.update(r[0] for r in rows)
        return found

    async def release(self, ids: list[str]) -> None:
        """Give back ids claimed in the caller's transaction for records it did not write (forgotten since)."""
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            await self.db.conn.execute(f"DELETE FROM applied_writes WHERE id IN ({','.join('?' * len(chunk))})", chunk)

    async def prune(self) -> None:
        cutoff = (datetime.now(UTC) - self.KEEP).date().isoformat()
        async with self.db.transaction():
            await self.db.conn.execute("DELETE FROM applied_writes WHERE day < ?", (cutoff,))


def read_only_uri(path: Path) -> str:
    """The SQLite URI that opens `path` read-only. The path is percent-encoded: in a URI a `?` or `#` would end it and
    `%` start an escape, so a database named `datos#2.db` was read from `datos` (a file SQLite created, empty)."""
    return f"file:{quote(str(path))}?mode=ro"


def probe(path: Path) -> str | None:
    """Whether the database at `path` opens and reads (for `glosario-bot health`): None, or what went wrong."""
    try:
        with contextlib.closing(sqlite3.connect(read_only_uri(path), uri=True, timeout=2)) as conn:
            conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error as exc:
        return str(exc)
    return None


async def _connect(database: Path | str, **options) -> aiosqlite.Connection:
    """`aiosqlite.connect`, awaited. When it fails, its worker thread is let finish first: it still has to hand back
    the stop it was sent, and once the caller's `asyncio.run` has ended it would find the loop closed ("Event loop
    is closed" from a thread, after the command's own message)."""
    connecting = aiosqlite.connect(database, **options)
    try:
        return await connecting
    except BaseException:
        thread = getattr(connecting, "_thread", None)  # (aiosqlite's worker; where a version has none, nothing to do)
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 2.0)
        raise


def _check_writable(path: Path) -> None:
    """Refuse, with the path and the fix, a database directory or file the bot cannot write: finding out at
    the first write would mean logged questions with nowhere to go."""
    problem = None
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        problem = said("db_folder_not_writable", folder=path.parent, why=os_reason(exc))
    try:
        if problem is None and path.exists() and (path.is_dir() or not os.access(path, os.W_OK)):
            problem = said("db_is_a_folder") if path.is_dir() else said("db_read_only", path=path)
    except OSError as exc:  # (a name longer than the system takes, say)
        problem = said("db_path_unusable", why=os_reason(exc))
    if problem is not None:
        raise StorageError(said("db_not_writable", path=path, problem=problem))


def _explain(path: Path, exc: sqlite3.DatabaseError) -> Sentence:
    """What a database error means for the operator."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return said("db_damaged", path=path, error=text)
    if "readonly" in text or "unable to open" in text:
        return said("db_refused_write", path=path, error=text, folder=path.parent)
    return said("db_error", path=path, error=text, folder=path.parent)
