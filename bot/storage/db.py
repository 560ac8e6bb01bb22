"""SQLite: connect, set PRAGMAs, apply numbered migrations (PRAGMA user_version), own transactions."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import secrets
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite

from bot.core.status import Days, Outcome
from bot.storage.errors import DatabaseBusy, StorageError

log = logging.getLogger(__name__)

STARTUP_ATTEMPTS = 20  # tries to configure and migrate while other processes start on the same file
MIGRATION_WAIT_MS = 120_000  # how long a starting process waits for another one's migrations
BUSY_TIMEOUT_MS = 1000  # the longest a statement waits for another process's lock (replies wait no longer)

# Numbered migrations: index + 1 is the schema version they bring. Append only; never edit a released one.
MIGRATIONS: list[str] = [
    # 1: gaps, spellings picked from suggestions, lookup counts, key/value metadata
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE misses (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        normalized TEXT NOT NULL,
        query_hash TEXT NOT NULL,
        sample TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'lookup' CHECK (kind IN ('lookup', 'search')),
        count INTEGER NOT NULL DEFAULT 0,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        best_guess TEXT,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'ignored')),
        resolved_term TEXT,
        UNIQUE (guild_id, normalized)
    );
    CREATE INDEX misses_by_hash ON misses (guild_id, query_hash);
    CREATE TABLE miss_askers (
        miss_id INTEGER NOT NULL REFERENCES misses (id) ON DELETE CASCADE,
        asker TEXT NOT NULL,
        PRIMARY KEY (miss_id, asker)
    ) WITHOUT ROWID;
    CREATE TABLE picks (
        guild_id INTEGER NOT NULL,
        normalized TEXT NOT NULL,
        sample TEXT NOT NULL,
        term_id TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        last_seen TEXT NOT NULL,
        PRIMARY KEY (guild_id, normalized, term_id)
    ) WITHOUT ROWID;
    CREATE TABLE lookups (
        guild_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('found', 'ambiguous', 'not_found')),
        term_id TEXT NOT NULL DEFAULT '',
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, day, outcome, term_id)
    ) WITHOUT ROWID;
    """,
    # 2: per-guild settings, term of the day (the pick of each date, and each post, claimed before sending)
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        daily_enabled INTEGER NOT NULL DEFAULT 0,
        daily_channel_id INTEGER,
        daily_hour INTEGER,
        daily_minute INTEGER,
        daily_tz TEXT NOT NULL DEFAULT 'UTC',
        daily_days TEXT NOT NULL DEFAULT 'todos',
        daily_error TEXT,
        daily_error_at TEXT
    );
    CREATE TABLE daily_picks (
        guild_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        term_id TEXT NOT NULL,
        cycle INTEGER NOT NULL,
        PRIMARY KEY (guild_id, day)
    ) WITHOUT ROWID;
    CREATE TABLE daily_posts (
        guild_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('posting', 'posted', 'failed')),
        message_id INTEGER,
        detail TEXT,
        at TEXT NOT NULL,
        PRIMARY KEY (guild_id, day)
    ) WITHOUT ROWID;
    """,
    # 3: the spellings behind each gap (for export stubs), the editor role per guild
    """
    CREATE TABLE miss_spellings (
        miss_id INTEGER NOT NULL REFERENCES misses (id) ON DELETE CASCADE,
        sample TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (miss_id, sample)
    ) WITHOUT ROWID;
    INSERT INTO miss_spellings (miss_id, sample, count) SELECT id, sample, count FROM misses;
    ALTER TABLE guild_settings ADD COLUMN editor_role_id INTEGER;
    """,
    # 4: ids of the writes already applied (journal replays count nothing twice), the people behind each alias
    # proposal (counted once each, like gap askers), gaps not logged because a member was over budget
    """
    CREATE TABLE applied_writes (id TEXT PRIMARY KEY, day TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE pick_askers (
        guild_id INTEGER NOT NULL,
        normalized TEXT NOT NULL,
        term_id TEXT NOT NULL,
        asker TEXT NOT NULL,
        PRIMARY KEY (guild_id, normalized, term_id, asker)
    ) WITHOUT ROWID;
    CREATE TABLE unlogged_misses (
        guild_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, day)
    ) WITHOUT ROWID;
    """,
    # 5: the days of a daily schedule stored as neutral values (they were Spanish words), held to them
    f"""
    CREATE TABLE guild_settings_5 (
        guild_id INTEGER PRIMARY KEY,
        daily_enabled INTEGER NOT NULL DEFAULT 0,
        daily_channel_id INTEGER,
        daily_hour INTEGER,
        daily_minute INTEGER,
        daily_tz TEXT NOT NULL DEFAULT 'UTC',
        daily_days TEXT NOT NULL DEFAULT '{Days.EVERY_DAY}'
            CHECK (daily_days IN ('{Days.EVERY_DAY}', '{Days.WEEKDAYS}')),
        daily_error TEXT,
        daily_error_at TEXT,
        editor_role_id INTEGER
    );
    INSERT INTO guild_settings_5
    SELECT guild_id, daily_enabled, daily_channel_id, daily_hour, daily_minute, daily_tz,
           CASE daily_days WHEN 'laborables' THEN '{Days.WEEKDAYS}' ELSE '{Days.EVERY_DAY}' END,
           daily_error, daily_error_at, editor_role_id
    FROM guild_settings;
    DROP TABLE guild_settings;
    ALTER TABLE guild_settings_5 RENAME TO guild_settings;
    """,
    # 6: a server's own terms (the fields as typed, JSON), every version of each (who, when, what), whether the
    # term of the day may show them, the spellings a server accepted as aliases of published terms, and the
    # members' proposals (with who proposed, for telling them the outcome), and the moderators' weekly digest
    """
    CREATE TABLE server_terms (
        guild_id INTEGER NOT NULL,
        term_id TEXT NOT NULL,
        fields TEXT NOT NULL,
        author_id INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_by INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        retired_at TEXT,
        PRIMARY KEY (guild_id, term_id)
    ) WITHOUT ROWID;
    CREATE TABLE server_term_versions (
        guild_id INTEGER NOT NULL,
        term_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('created', 'edited', 'retired')),
        fields TEXT NOT NULL,
        by_user INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (guild_id, term_id, version)
    ) WITHOUT ROWID;
    ALTER TABLE guild_settings ADD COLUMN daily_server_terms INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE server_aliases (
        guild_id INTEGER NOT NULL,
        normalized TEXT NOT NULL,
        spelling TEXT NOT NULL,
        term_id TEXT NOT NULL,
        by_user INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (guild_id, normalized)
    ) WITHOUT ROWID;
    CREATE TABLE proposals (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        locale TEXT NOT NULL,
        fields TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
        reason TEXT,
        decided_by INTEGER,
        decided_at TEXT,
        created_at TEXT NOT NULL,
        notified INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX proposals_by_guild ON proposals (guild_id, status);
    CREATE INDEX proposals_to_tell ON proposals (user_id) WHERE status != 'pending' AND notified = 0;
    ALTER TABLE guild_settings ADD COLUMN proposals_enabled INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE guild_settings ADD COLUMN digest_channel_id INTEGER;
    ALTER TABLE guild_settings ADD COLUMN digest_weekday INTEGER;
    ALTER TABLE guild_settings ADD COLUMN digest_last TEXT;
    """,
    # 7: a daily post's claim is a lease, held until `claimed_until` (a claim its process never finished is taken
    # over then); claims left by a crash before this version ran out when they were made
    """
    ALTER TABLE daily_posts ADD COLUMN claimed_until TEXT;
    UPDATE daily_posts SET claimed_until = at WHERE status = 'posting';
    """,
    # 8: the servers the bot was removed from, and when: their data is removed after a grace period, unless the bot
    # is added back before it ends
    """
    CREATE TABLE guild_departures (guild_id INTEGER PRIMARY KEY, left_at TEXT NOT NULL);
    """,
    # 9: feedback: each member's 👍/👎 on a term's card per server (guild 0: their own install), by the salted hash
    # of their id (`voter`, like a gap's askers), changeable, and what they said was missing (editors only)
    """
    CREATE TABLE feedback (
        guild_id INTEGER NOT NULL,
        term_id TEXT NOT NULL,
        voter TEXT NOT NULL,
        vote TEXT NOT NULL CHECK (vote IN ('helpful', 'unhelpful')),
        comment TEXT,
        at TEXT NOT NULL,
        PRIMARY KEY (guild_id, term_id, voter)
    ) WITHOUT ROWID;
    """,
    # 10: gaps asked as questions (a description, not a name) are marked; questions answered by meaning are counted
    # as their own lookup outcome (SQLite rebuilds the table to widen its CHECK; PostgreSQL alters it in place)
    f"""
    ALTER TABLE misses ADD COLUMN question INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE lookups_10 (
        guild_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ({", ".join(f"'{o}'" for o in Outcome)})),
        term_id TEXT NOT NULL DEFAULT '',
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, day, outcome, term_id)
    ) WITHOUT ROWID;
    INSERT INTO lookups_10 SELECT guild_id, day, outcome, term_id, count FROM lookups;
    DROP TABLE lookups;
    ALTER TABLE lookups_10 RENAME TO lookups;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


_in_transaction: contextvars.ContextVar[Database | None] = contextvars.ContextVar("in_transaction", default=None)


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
        self.reader = conn  # until the read-only connection is open (migrations run on `conn`)
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
    def transient(error: BaseException) -> bool:
        """The disk or the lock, not the data: worth retrying later (a constraint or a bad value is not)."""
        return (
            isinstance(error, DatabaseBusy | sqlite3.OperationalError | OSError) or type(error) is sqlite3.DatabaseError
        )

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating the file and its directory on first start) and migrate to the current schema."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(
                f"No se puede crear el directorio de la base de datos {path.parent} ({exc.strerror}). "
                "Crea el directorio con permisos de escritura para el usuario del bot o indica otro con GLOSARIO_DB.",
                f"Cannot create the database folder {path.parent} ({exc.strerror}). Create it, writable by the "
                "bot's user, or give another one with GLOSARIO_DB.",
            ) from None
        _check_writable(path)
        try:
            conn = await aiosqlite.connect(path)
        except sqlite3.Error as exc:
            raise StorageError(
                f"No se puede abrir la base de datos {path} ({exc}). Comprueba que el directorio "
                f"{path.parent} admite escritura para el usuario del bot, o indica otra ruta con GLOSARIO_DB.",
                f"Cannot open the database {path} ({exc}). Check that the folder {path.parent} is writable by "
                "the bot's user, or give another path with GLOSARIO_DB.",
            ) from None
        db = cls(conn, path)
        try:
            await db._configure_and_migrate()
            db.identity = file_identity(path)
            db.reader = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True)
            await db.reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        except StorageError:
            await db.close()
            raise
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise StorageError(*_explain(path, exc)) from None
        return db

    @classmethod
    async def open_read_only(cls, path: Path) -> Database:
        """Open an existing database only to read it (the editors' `misses`, `daily`): works on a read-only file
        or directory, and never migrates; a schema this bot does not know is refused as in `open`."""
        path = Path(path)
        try:
            conn = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise StorageError(*_explain(path, exc)) from None
        db = cls(conn, path)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            (version,) = await (await conn.execute("PRAGMA user_version")).fetchone()
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StorageError(*_explain(path, exc)) from None
        if version != SCHEMA_VERSION:
            await conn.close()
            newer = version > SCHEMA_VERSION
            raise StorageError(
                f"La base de datos {path} tiene el esquema {version} y esta versión del bot usa el {SCHEMA_VERSION}. "
                + ("Actualiza el bot." if newer else "Migra la base con `glosario-bot migrate` (o arrancando el bot)."),
                f"The database {path} has schema {version} and this version of the bot uses {SCHEMA_VERSION}. "
                + ("Upgrade the bot." if newer else "Migrate it with `glosario-bot migrate` (or by starting the bot)."),
            )
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
            raise StorageError(
                f"La base de datos {self.path} tiene el esquema {version}, más nuevo que el de esta versión del bot "
                f"({SCHEMA_VERSION}). Actualiza el bot, o usa una copia de seguridad anterior a la actualización.",
                f"The database {self.path} has schema {version}, newer than this version of the bot's "
                f"({SCHEMA_VERSION}). Upgrade the bot, or use a backup from before the upgrade.",
            )
        self.migrated = []
        try:
            for number in range(version + 1, SCHEMA_VERSION + 1):
                if await self._apply(number):
                    self.migrated.append(number)
        finally:
            await self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    async def _apply(self, number: int) -> bool:
        """Apply one migration in its own transaction, under the database's write lock (BEGIN IMMEDIATE): a
        process starting at the same time waits, then finds the schema already there and applies nothing.
        False when another process had applied it."""
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            (current,) = await (await self.conn.execute("PRAGMA user_version")).fetchone()
            if current >= number:
                await self.conn.rollback()
                log.info("database migration %d was applied by another process", number)
                return False
            log.info("applying database migration %d to %s", number, self.path)
            for statement in _statements(MIGRATIONS[number - 1]):
                await self.conn.execute(statement)
            await self.conn.execute(f"PRAGMA user_version = {number}")
            await self.conn.commit()
        except BaseException:
            if self.conn.in_transaction:
                await self.conn.rollback()
            raise
        return True

    async def close(self) -> None:
        if self.reader is not self.conn:
            await self.reader.close()
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
            rows = await (
                await self.db.conn.execute(
                    "INSERT INTO applied_writes (id, day) VALUES "
                    + ", ".join(["(?, ?)"] * len(chunk))
                    + " ON CONFLICT DO NOTHING RETURNING id",
                    [value for i in chunk for value in (i, day)],
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

    async def prune(self) -> None:
        cutoff = (datetime.now(UTC) - self.KEEP).date().isoformat()
        async with self.db.transaction():
            await self.db.conn.execute("DELETE FROM applied_writes WHERE day < ?", (cutoff,))


def probe(path: Path) -> str | None:
    """Whether the database at `path` opens and reads (for `glosario-bot health`): None, or what went wrong."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)) as conn:
            conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.Error as exc:
        return str(exc)
    return None


def _check_writable(path: Path) -> None:
    """Refuse, with the path and the fix, a database directory or file the bot cannot write: finding out at
    the first write would mean logged questions with nowhere to go."""
    problem = None
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        problem = (
            f"el directorio {path.parent} no admite escritura ({exc.strerror})",
            f"the folder {path.parent} is not writable ({exc.strerror})",
        )
    if problem is None and path.exists() and (path.is_dir() or not os.access(path, os.W_OK)):
        problem = (
            (f"{path} es un directorio", f"{path} is a folder")
            if path.is_dir()
            else (f"el archivo {path} es de solo lectura", f"the file {path} is read-only")
        )
    if problem is not None:
        raise StorageError(
            f"No se puede escribir en la base de datos {path}: {problem[0]}. Da permiso de escritura al usuario "
            f"del bot, o indica otra ruta con GLOSARIO_DB.",
            f"Cannot write the database {path}: {problem[1]}. Make it writable by the bot's user, or give "
            "another path with GLOSARIO_DB.",
        )


def _explain(path: Path, exc: sqlite3.DatabaseError) -> tuple[str, str]:
    """What a database error means for the operator: (Spanish, English)."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return (
            f"El archivo {path} no es una base de datos SQLite válida o está dañado ({text}). "
            "Restaura una copia de seguridad, o muévelo a otro sitio para empezar con una base vacía.",
            f"The file {path} is not a valid SQLite database, or it is damaged ({text}). Restore a backup, or "
            "move it away to start with an empty database.",
        )
    if "readonly" in text or "unable to open" in text:
        return (
            f"No se puede escribir en la base de datos {path} ({text}). "
            f"Da permiso de escritura sobre {path.parent} al usuario del bot, o indica otra ruta con GLOSARIO_DB.",
            f"Cannot write the database {path} ({text}). Make {path.parent} writable by the bot's user, or give "
            "another path with GLOSARIO_DB.",
        )
    return (
        f"Error de la base de datos {path}: {text}. Revisa el archivo y los permisos de {path.parent}.",
        f"Database error in {path}: {text}. Check the file and the permissions of {path.parent}.",
    )
