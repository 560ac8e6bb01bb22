"""SQLite store of the servers' own terms: the ServerTermStore of bot.storage.interfaces."""

from __future__ import annotations

import json

from bot.storage.db import Database
from bot.storage.records import ServerAlias, ServerTermRow, ServerTermVersion
from bot.storage.repairs import stored_fields

_COLUMNS = "guild_id, term_id, fields, author_id, created_at, updated_by, updated_at, retired_at"


def _row(row: tuple) -> ServerTermRow:
    guild_id, term_id, fields, *rest = row
    return ServerTermRow(guild_id, term_id, stored_fields(fields, "server_terms", guild=guild_id, term=term_id), *rest)


class _Taken(Exception):
    """The id is another term's: the transaction is rolled back (a rename's moves included)."""


class SqlServerTermStore:
    def __init__(self, db: Database):
        self.db = db

    async def terms(self, guild_id: int, *, retired: bool = False) -> list[ServerTermRow]:
        sql = (
            f"SELECT {_COLUMNS} FROM server_terms WHERE guild_id = ?"
            + ("" if retired else " AND retired_at IS NULL")
            + " ORDER BY created_at, term_id"
        )
        return [_row(r) for r in await (await self.db.reader.execute(sql, (guild_id,))).fetchall()]

    async def get(self, guild_id: int, term_id: str) -> ServerTermRow | None:
        sql = f"SELECT {_COLUMNS} FROM server_terms WHERE guild_id = ? AND term_id = ?"
        row = await (await self.db.reader.execute(sql, (guild_id, term_id))).fetchone()
        return _row(row) if row else None

    async def save(
        self, guild_id: int, term_id: str, fields: dict[str, str], by_user: int, at: str, *, previous_id: str | None
    ) -> bool:
        """Write the term under `term_id` (a new one, or `previous_id` edited or renamed). False, with nothing
        written, when `term_id` is another term in service (another editor saved it meanwhile): an id is never
        overwritten by a different term."""
        try:
            await self._save(
                guild_id,
                term_id,
                text=json.dumps(fields, ensure_ascii=False),
                by_user=by_user,
                at=at,
                previous_id=previous_id,
            )
        except _Taken:
            return False
        return True

    async def _save(
        self, guild_id: int, term_id: str, *, text: str, by_user: int, at: str, previous_id: str | None
    ) -> None:
        conn = self.db.conn
        async with self.db.transaction():
            author, created = by_user, at
            if previous_id is not None:
                old = await (
                    await conn.execute(
                        "SELECT author_id, created_at FROM server_terms WHERE guild_id = ? AND term_id = ?",
                        (guild_id, previous_id),
                    )
                ).fetchone()
                if old is not None:
                    author, created = old
                if previous_id != term_id:  # renamed: its history moves with it
                    await conn.execute(
                        "DELETE FROM server_terms WHERE guild_id = ? AND term_id = ?", (guild_id, previous_id)
                    )
                    await conn.execute(
                        "UPDATE server_term_versions SET term_id = ? WHERE guild_id = ? AND term_id = ?",
                        (term_id, guild_id, previous_id),
                    )
            # Replaces the row only when it is the term being edited, or a retired one brought back.
            cursor = await conn.execute(
                f"INSERT INTO server_terms ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL) "
                "ON CONFLICT (guild_id, term_id) DO UPDATE SET fields = excluded.fields, "
                "updated_by = excluded.updated_by, updated_at = excluded.updated_at, retired_at = NULL "
                "WHERE server_terms.retired_at IS NOT NULL OR server_terms.term_id = ?",
                (guild_id, term_id, text, author, created, by_user, at, previous_id or ""),
            )
            if cursor.rowcount != 1:
                raise _Taken
            await self._version(guild_id, term_id, "created" if previous_id is None else "edited", text, by_user, at)

    async def retire(self, guild_id: int, term_id: str, by_user: int, at: str) -> bool:
        async with self.db.transaction():
            cursor = await self.db.conn.execute(
                "UPDATE server_terms SET retired_at = ?, updated_by = ?, updated_at = ? "
                "WHERE guild_id = ? AND term_id = ? AND retired_at IS NULL",
                (at, by_user, at, guild_id, term_id),
            )
            if cursor.rowcount == 0:
                return False
            row = await (
                await self.db.conn.execute(
                    "SELECT fields FROM server_terms WHERE guild_id = ? AND term_id = ?", (guild_id, term_id)
                )
            ).fetchone()
            await self._version(guild_id, term_id, "retired", row[0], by_user, at)
        return True

    async def versions(self, guild_id: int, term_id: str) -> list[ServerTermVersion]:
        rows = await (
            await self.db.reader.execute(
                "SELECT version, action, fields, by_user, at FROM server_term_versions "
                "WHERE guild_id = ? AND term_id = ? ORDER BY version",
                (guild_id, term_id),
            )
        ).fetchall()
        return [
            ServerTermVersion(
                v,
                action,
                stored_fields(fields, "server_term_versions", guild=guild_id, term=term_id, version=v),
                by,
                at,
            )
            for v, action, fields, by, at in rows
        ]

    async def aliases(self, guild_id: int) -> list[ServerAlias]:
        rows = await (
            await self.db.reader.execute(
                "SELECT normalized, spelling, term_id FROM server_aliases WHERE guild_id = ? ORDER BY at, normalized",
                (guild_id,),
            )
        ).fetchall()
        return [ServerAlias(*r) for r in rows]

    async def add_alias(
        self, guild_id: int, normalized: str, spelling: str, term_id: str, by_user: int, at: str
    ) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                "INSERT INTO server_aliases (guild_id, normalized, spelling, term_id, by_user, at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, normalized) DO UPDATE SET spelling = excluded.spelling, "
                "term_id = excluded.term_id, by_user = excluded.by_user, at = excluded.at",
                (guild_id, normalized, spelling, term_id, by_user, at),
            )

    async def _version(self, guild_id: int, term_id: str, action: str, fields: str, by_user: int, at: str) -> None:
        await self.db.conn.execute(
            "INSERT INTO server_term_versions (guild_id, term_id, version, action, fields, by_user, at) "
            "SELECT ?, ?, COALESCE(MAX(version), 0) + 1, ?, ?, ?, ? FROM server_term_versions "
            "WHERE guild_id = ? AND term_id = ?",
            (guild_id, term_id, action, fields, by_user, at, guild_id, term_id),
        )
