"""Forgetting on request: every row that names a member or a server, counted (a dry run) or removed in one
transaction, which also notes who was forgotten and when (the forgotten list: the write queue writes back nothing
made before it, bot.storage.forgotten); and the servers the bot was removed from, with when (their data goes after a
grace period).

Which tables and columns are touched is read from the schema (bot.storage.tables.TABLES) by column name, so a table
added later is covered as soon as its columns are named like these (a test holds every column that could name a
person to one of the sets below). The SQL runs on SQLite and PostgreSQL alike."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence

from bot.storage.db import Database
from bot.storage.forgotten import Forgotten
from bot.storage.records import Erased
from bot.storage.tables import TABLES

ANONYMOUS = 0  # the user id left where a forgotten member's mark was, on a row that stays ("un miembro")
OWNER_COLUMNS = frozenset({"user_id"})  # the row is the member's own (a proposal): removed
MARK_COLUMNS = frozenset({"author_id", "updated_by", "by_user", "decided_by"})  # their mark on a row that stays
HASH_COLUMNS = frozenset({"asker", "voter"})  # the salted hash of their id (bot.core.gaps.asker_hash): row removed
GUILD_COLUMN = "guild_id"
MISS_COLUMN = "miss_id"  # rows of a gap (askers, spellings) belong to the gap's server
LOOKUP_CHUNK = 500  # hashes or server ids looked up in the forgotten list by one statement


def _any(columns: list[str], value: object) -> tuple[str, list[object]]:
    """`(a = ? OR b = ?)` and its arguments."""
    return "(" + " OR ".join(f"{c} = ?" for c in columns) + ")", [value] * len(columns)


def _marks(values: list) -> str:
    return ", ".join("?" * len(values))


class SqlErasureStore:
    def __init__(self, db: Database):
        self.db = db

    @contextlib.asynccontextmanager
    async def _unit(self, dry_run: bool) -> AsyncIterator[object]:
        """The connection to run on: a dry run only reads; the real one is one transaction (all or nothing)."""
        if dry_run:
            yield self.db.reader
            return
        async with self.db.transaction():
            if not isinstance(self.db, Database):
                # PostgreSQL: a write queue's batch (of any process) claims its ids in applied_writes before it reads
                # the forgotten list (bot.storage.writer). This lock waits for the batches under way to commit, so
                # that their rows are there to be removed below, and holds the next ones until this erasure commits,
                # so that they find it in the list. (On SQLite one transaction writes at a time: nothing to wait for.)
                await self.db.conn.execute("LOCK TABLE applied_writes IN SHARE MODE")
            yield self.db.conn

    async def _rows(self, conn: object, table: str, where: str, args: list[object], dry_run: bool) -> int:
        if dry_run:
            (count,) = await (await conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}", args)).fetchone()
            return count
        return (await conn.execute(f"DELETE FROM {table} WHERE {where}", args)).rowcount

    async def forget_member(self, user_id: int, asker: str | None, *, at: str, dry_run: bool) -> Erased:
        """Remove the rows that are the member's own (by user id or by `asker`, their salted hash) and anonymise
        their id where it marks a row that stays (a server term they wrote, a proposal they decided); note `asker`
        in the forgotten list, forgotten `at` (ISO time)."""
        removed: dict[str, int] = {}
        anonymised: dict[str, int] = {}
        async with self._unit(dry_run) as conn:
            if asker and not dry_run:
                await conn.execute(
                    "INSERT INTO forgotten_members (hash, at) VALUES (?, ?) "
                    "ON CONFLICT (hash) DO UPDATE SET at = excluded.at WHERE excluded.at > forgotten_members.at",
                    (asker, at),
                )
            for table, columns in TABLES.items():
                owners = [c for c in columns if c in OWNER_COLUMNS]
                hashes = [c for c in columns if c in HASH_COLUMNS] if asker else []
                marks = [c for c in columns if c in MARK_COLUMNS]
                own_where, own_args = "", []
                if owners or hashes:
                    by_id, id_args = _any(owners, user_id) if owners else ("", [])
                    by_hash, hash_args = _any(hashes, asker) if hashes else ("", [])
                    own_where = " OR ".join(w for w in (by_id, by_hash) if w)
                    own_args = [*id_args, *hash_args]
                    removed[table] = await self._rows(conn, table, own_where, own_args, dry_run)
                if marks:
                    anonymised[table] = await self._anonymise(conn, table, marks, user_id, own_where, own_args, dry_run)
        return Erased(removed, anonymised)

    async def _anonymise(
        self, conn: object, table: str, marks: list[str], user_id: int, own: str, own_args: list, dry_run: bool
    ) -> int:
        where, args = _any(marks, user_id)
        if own:  # (rows removed above are not counted twice)
            where, args = f"{where} AND NOT ({own})", [*args, *own_args]
        if dry_run:
            (count,) = await (await conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}", args)).fetchone()
            return count
        sets = ", ".join(f"{c} = CASE WHEN {c} = ? THEN {ANONYMOUS} ELSE {c} END" for c in marks)
        cursor = await conn.execute(f"UPDATE {table} SET {sets} WHERE {where}", [*[user_id] * len(marks), *args])
        return cursor.rowcount

    async def forget_server(self, guild_id: int, *, at: str, dry_run: bool) -> Erased:
        """Remove every row of a server, in every table (a gap's askers and spellings with it); note it in the
        forgotten list, forgotten `at` (ISO time)."""
        removed: dict[str, int] = {}
        async with self._unit(dry_run) as conn:
            if not dry_run:
                await conn.execute(
                    "INSERT INTO forgotten_guilds (id, at) VALUES (?, ?) "
                    "ON CONFLICT (id) DO UPDATE SET at = excluded.at WHERE excluded.at > forgotten_guilds.at",
                    (guild_id, at),
                )
            for table in reversed(TABLES):  # children before their parents
                columns = TABLES[table]
                if GUILD_COLUMN in columns:
                    where = f"{GUILD_COLUMN} = ?"
                elif MISS_COLUMN in columns:
                    where = f"{MISS_COLUMN} IN (SELECT id FROM misses WHERE guild_id = ?)"
                else:
                    continue
                removed[table] = await self._rows(conn, table, where, [guild_id], dry_run)
        return Erased(dict(reversed(removed.items())))

    async def forgotten(self, hashes: Sequence[str], guild_ids: Sequence[int]) -> Forgotten:
        """Which of these members (salted hashes) and servers were forgotten, and when: one statement of look-ups by
        primary key, on the writing connection (in the write queue's transaction: an erasure committed before it is
        seen)."""
        members: dict[str, str] = {}
        guilds: dict[int, str] = {}
        for start in range(0, max(len(hashes), len(guild_ids)), LOOKUP_CHUNK):
            some_hashes = list(hashes[start : start + LOOKUP_CHUNK])
            some_guilds = list(guild_ids[start : start + LOOKUP_CHUNK])
            parts = []
            if some_hashes:
                parts.append(f"SELECT hash, NULL, at FROM forgotten_members WHERE hash IN ({_marks(some_hashes)})")
            if some_guilds:
                parts.append(f"SELECT NULL, id, at FROM forgotten_guilds WHERE id IN ({_marks(some_guilds)})")
            sql = " UNION ALL ".join(parts)
            for asker, guild_id, at in await (await self.db.conn.execute(sql, [*some_hashes, *some_guilds])).fetchall():
                if asker is None:
                    guilds[guild_id] = at
                else:
                    members[asker] = at
        return Forgotten(members, guilds)

    # -- the servers the bot was removed from -------------------------------------------------------------
    async def left(self, guild_id: int, at: str) -> None:
        """The bot was removed from a server at `at` (ISO time); a departure already noted keeps its time."""
        async with self.db.transaction():
            await self.db.conn.execute(
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, at),
            )

    async def returned(self, guild_id: int) -> bool:
        """The bot is in the server again: its data stays. False when no departure was noted."""
        async with self.db.transaction():
            cursor = await self.db.conn.execute("DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,))
        return cursor.rowcount > 0

    async def guilds(self) -> set[int]:
        """Every server some table holds rows of (not guild 0: a member's own install is no server)."""
        tables = [t for t, columns in TABLES.items() if GUILD_COLUMN in columns and t != "guild_departures"]
        sql = " UNION ".join(f"SELECT DISTINCT {GUILD_COLUMN} FROM {table}" for table in tables)
        return {row[0] for row in await (await self.db.reader.execute(sql)).fetchall() if row[0]}

    async def departed(self, before: str) -> list[int]:
        """The servers the bot left at or before `before` (ISO time), the earliest first."""
        rows = await (
            await self.db.reader.execute(
                "SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY left_at, guild_id", (before,)
            )
        ).fetchall()
        return [row[0] for row in rows]
