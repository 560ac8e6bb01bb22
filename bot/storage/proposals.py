"""SQLite store of members' proposed terms: the ProposalStore of bot.storage.interfaces."""

from __future__ import annotations

import json

from bot.core.status import ProposalStatus
from bot.storage.db import Database
from bot.storage.records import ProposalRow
from bot.storage.repairs import stored_fields

PENDING = ProposalStatus.PENDING.value
_COLUMNS = "id, guild_id, user_id, locale, fields, status, reason, created_at"


def _row(row: tuple) -> ProposalRow:
    pid, guild_id, user_id, locale, fields, status, reason, created_at = row
    fields = stored_fields(fields, "proposals", id=pid)
    return ProposalRow(pid, guild_id, user_id, locale, fields, status, reason, created_at)


class SqlProposalStore:
    def __init__(self, db: Database):
        self.db = db

    async def enabled(self, guild_id: int) -> bool:
        sql = "SELECT proposals_enabled FROM guild_settings WHERE guild_id = ?"
        row = await (await self.db.reader.execute(sql, (guild_id,))).fetchone()
        return bool(row[0]) if row else True  # taken by default

    async def set_enabled(self, guild_id: int, enabled: bool) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                "INSERT INTO guild_settings (guild_id, proposals_enabled) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET proposals_enabled = excluded.proposals_enabled",
                (guild_id, int(enabled)),
            )

    async def add(
        self, guild_id: int, user_id: int, locale: str, fields: dict[str, str], at: str, *, limit: int
    ) -> int | None:
        """The new proposal's id; None when the member already has `limit` pending in this server. The count and
        the insert are one transaction, serialised per server across processes (the upsert of the server's
        settings row locks it on PostgreSQL; SQLite has one writer at a time), so no burst gets past the limit."""
        conn = self.db.conn
        async with self.db.transaction():
            await conn.execute(
                "INSERT INTO guild_settings (guild_id) VALUES (?) "
                "ON CONFLICT (guild_id) DO UPDATE SET guild_id = excluded.guild_id",
                (guild_id,),
            )
            cursor = await conn.execute(
                "INSERT INTO proposals (guild_id, user_id, locale, fields, created_at) SELECT ?, ?, ?, ?, ? "
                "WHERE (SELECT COUNT(*) FROM proposals "
                f"WHERE guild_id = ? AND user_id = ? AND status = '{PENDING}') < ? "
                "RETURNING id",
                (guild_id, user_id, locale, json.dumps(fields, ensure_ascii=False), at, guild_id, user_id, limit),
            )
            row = await cursor.fetchone()
        return row[0] if row else None

    async def pending(self, guild_id: int, *, user_id: int | None = None) -> list[ProposalRow]:
        sql = f"SELECT {_COLUMNS} FROM proposals WHERE guild_id = ? AND status = '{PENDING}'"
        args: list = [guild_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            args.append(user_id)
        return [_row(r) for r in await (await self.db.reader.execute(sql + " ORDER BY id", args)).fetchall()]

    async def get(self, guild_id: int, proposal_id: int) -> ProposalRow | None:
        sql = f"SELECT {_COLUMNS} FROM proposals WHERE guild_id = ? AND id = ?"
        row = await (await self.db.reader.execute(sql, (guild_id, proposal_id))).fetchone()
        return _row(row) if row else None

    async def decide(
        self, guild_id: int, proposal_id: int, status: ProposalStatus, by_user: int, at: str, reason: str | None = None
    ) -> bool:
        async with self.db.transaction():
            cursor = await self.db.conn.execute(
                "UPDATE proposals SET status = ?, reason = ?, decided_by = ?, decided_at = ? "
                f"WHERE guild_id = ? AND id = ? AND status = '{PENDING}'",
                (status, reason, by_user, at, guild_id, proposal_id),
            )
        return cursor.rowcount == 1

    async def untold(self, user_id: int) -> list[ProposalRow]:
        sql = (
            f"SELECT {_COLUMNS} FROM proposals WHERE user_id = ? AND status != '{PENDING}' AND notified = 0 ORDER BY id"
        )
        return [_row(r) for r in await (await self.db.reader.execute(sql, (user_id,))).fetchall()]

    async def told(self, ids: list[int]) -> None:
        if ids:
            async with self.db.transaction():
                marks = ",".join("?" * len(ids))
                await self.db.conn.execute(f"UPDATE proposals SET notified = 1 WHERE id IN ({marks})", ids)

    async def waiting_to_be_told(self) -> set[int]:
        sql = f"SELECT DISTINCT user_id FROM proposals WHERE status != '{PENDING}' AND notified = 0"
        return {r[0] for r in await (await self.db.reader.execute(sql)).fetchall()}
