"""Gaps: queries the glossary could not answer (misses) and the suggestions people picked (picks)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.storage.db import Database

STATUSES = ("open", "resolved", "ignored")


def query_hash(normalized: str) -> str:
    """A short stable handle for a normalised query (fits in a button's custom_id)."""
    return hashlib.blake2b(normalized.encode(), digest_size=4).hexdigest()


def asker_hash(salt: str, user_id: int) -> str:
    """Distinct askers are counted through this salted hash; raw user ids are never stored."""
    return hashlib.blake2b(f"{salt}:{user_id}".encode(), digest_size=12).hexdigest()


@dataclass(frozen=True, slots=True)
class Miss:
    id: int
    guild_id: int
    normalized: str
    sample: str
    kind: str
    count: int
    askers: int
    first_seen: str
    last_seen: str
    best_guess: str | None
    status: str
    resolved_term: str | None

    def to_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.__slots__}


class MissLog:
    def __init__(self, db: Database):
        self.db = db

    async def record(self, **miss) -> None:
        """Count one more ask of a query (fields as in `record_many`) and commit."""
        await self.record_many([miss])
        await self.db.conn.commit()

    async def record_many(self, misses: list[dict]) -> None:
        """Count asks of queries, aggregated per guild and normalised form. The caller commits.

        Each miss: guild_id, sample, normalized, asker (salted hash), best_guess, kind, at.
        """
        conn = self.db.conn
        await conn.executemany(
            """
            INSERT INTO misses
                (guild_id, normalized, query_hash, sample, kind, count, first_seen, last_seen, best_guess)
            VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)
            ON CONFLICT (guild_id, normalized) DO UPDATE SET
                count = count + 1, last_seen = excluded.last_seen, sample = excluded.sample,
                best_guess = COALESCE(excluded.best_guess, best_guess),
                status = CASE WHEN status = 'resolved' THEN 'open' ELSE status END
            """,
            [
                (
                    m["guild_id"],
                    m["normalized"],
                    query_hash(m["normalized"]),
                    m["sample"],
                    m["kind"],
                    m["at"],
                    m["at"],
                    m["best_guess"],
                )
                for m in misses
            ],
        )
        await conn.executemany(
            "INSERT OR IGNORE INTO miss_askers (miss_id, asker) "
            "SELECT id, ? FROM misses WHERE guild_id = ? AND normalized = ?",
            [(m["asker"], m["guild_id"], m["normalized"]) for m in misses],
        )

    async def record_pick(self, **pick) -> None:
        """Record one suggestion click (fields as in `record_picks`) and commit."""
        await self.record_picks([pick])
        await self.db.conn.commit()

    async def record_picks(self, picks: list[dict]) -> None:
        """Someone chose term_id among the suggestions for the query with hash qhash: alias proposals.

        Each pick: guild_id, qhash, term_id, at. The caller commits.
        """
        conn = self.db.conn
        for pick in picks:
            row = await (
                await conn.execute(
                    "SELECT normalized, sample FROM misses WHERE guild_id = ? AND query_hash = ? "
                    "ORDER BY id DESC LIMIT 1",
                    (pick["guild_id"], pick["qhash"]),
                )
            ).fetchone()
            normalized, sample = row if row else (f"#{pick['qhash']}", f"#{pick['qhash']}")
            await conn.execute(
                """
                INSERT INTO picks (guild_id, normalized, sample, term_id, count, last_seen) VALUES (?, ?, ?, ?, 1, ?)
                ON CONFLICT (guild_id, normalized, term_id)
                DO UPDATE SET count = count + 1, last_seen = excluded.last_seen
                """,
                (pick["guild_id"], normalized, sample, pick["term_id"], pick["at"]),
            )

    async def gaps(
        self, *, guild_id: int | None = None, status: str = "open", order: str = "count", limit: int = 100
    ) -> list[Miss]:
        """Gaps, most asked (or most recent) first. `status='all'` lists every status."""
        where, args = [], []
        if guild_id is not None:
            where.append("m.guild_id = ?")
            args.append(guild_id)
        if status != "all":
            where.append("m.status = ?")
            args.append(status)
        order_by = "m.last_seen DESC" if order == "recent" else "m.count DESC, m.last_seen DESC"
        sql = f"""
            SELECT m.id, m.guild_id, m.normalized, m.sample, m.kind, m.count,
                   (SELECT COUNT(*) FROM miss_askers a WHERE a.miss_id = m.id),
                   m.first_seen, m.last_seen, m.best_guess, m.status, m.resolved_term
            FROM misses m {"WHERE " + " AND ".join(where) if where else ""}
            ORDER BY {order_by}, m.id LIMIT ?
        """
        rows = await (await self.db.conn.execute(sql, (*args, limit))).fetchall()
        return [Miss(*row) for row in rows]

    async def picks(self, *, guild_id: int | None = None, limit: int = 100) -> list[tuple[str, str, int]]:
        """(query sample, chosen term id, times) — most frequent first."""
        sql = "SELECT sample, term_id, SUM(count) AS n FROM picks"
        args: list = []
        if guild_id is not None:
            sql += " WHERE guild_id = ?"
            args.append(guild_id)
        sql += " GROUP BY normalized, term_id ORDER BY n DESC, sample LIMIT ?"
        return [tuple(r) for r in await (await self.db.conn.execute(sql, (*args, limit))).fetchall()]


class UsageLog:
    """Lookup counts per guild, day, outcome and term (for statistics)."""

    def __init__(self, db: Database):
        self.db = db

    async def record(self, **lookup) -> None:
        """Count one lookup (fields as in `record_many`) and commit."""
        await self.record_many([lookup])
        await self.db.conn.commit()

    async def record_many(self, lookups: list[dict]) -> None:
        """Add lookup counts; each: guild_id, outcome, term_id (or None), day, count (default 1). Caller commits."""
        await self.db.conn.executemany(
            """
            INSERT INTO lookups (guild_id, day, outcome, term_id, count) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (guild_id, day, outcome, term_id) DO UPDATE SET count = count + excluded.count
            """,
            [(u["guild_id"], u["day"], u["outcome"], u["term_id"] or "", u.get("count", 1)) for u in lookups],
        )

    async def term_counts(self, *, guild_id: int | None = None) -> dict[str, int]:
        sql = "SELECT term_id, SUM(count) FROM lookups WHERE outcome = 'found'"
        args: tuple = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (guild_id,)
        rows = await (await self.db.conn.execute(sql + " GROUP BY term_id", args)).fetchall()
        return {term: n for term, n in rows}
