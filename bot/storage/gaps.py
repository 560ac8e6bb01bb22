"""SQLite stores of gaps (queries the glossary could not answer, the suggestions people picked) and of lookup
counts: the GapStore and UsageStore of bot.storage.interfaces."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence

from bot.core.gaps import query_hash
from bot.core.status import GapKind, GapOrder, GapStatus, Outcome
from bot.heap import collector_paused
from bot.storage.db import Database
from bot.storage.records import (
    AliasSuggestion,
    DailyOutcome,
    Gap,
    GapRecord,
    LookupCountsRecord,
    LookupRecord,
    SuggestionChoice,
    SuggestionChoiceRecord,
    UnloggedRecord,
)
from bot.storage.repairs import stored_date

ROWS_PER_STATEMENT = 500  # lookup counts added by one statement (2,500 parameters: within both engines' limits)
# (A count is read as a whole number whatever a row holds: SQLite keeps text or a real in an INTEGER column, from a
# hand edit; such a count is 0, or the largest whole number.)
_GAP_COLUMNS = """
    SELECT m.id, m.guild_id, m.normalized, m.sample, CASE WHEN m.question = 1 THEN 'question' ELSE m.kind END,
           CAST(m.count AS BIGINT),
           (SELECT COUNT(*) FROM miss_askers a WHERE a.miss_id = m.id),
           m.first_seen, m.last_seen, m.best_guess, m.status, m.resolved_term"""


def _kind(kind: str) -> tuple[str, int]:
    """A record's kind as stored: a question is asked through a lookup, and marked (the `question` column)."""
    return ("lookup", 1) if kind == GapKind.QUESTION else (kind, 0)


def _misses(rows: list) -> list[Gap]:
    with collector_paused():
        return list(map(Gap._make, rows))


class SqlGapStore:
    def __init__(self, db: Database):
        self.db = db

    async def record_gaps(self, misses: Sequence[GapRecord]) -> None:
        """Count asks of queries, aggregated per guild and normalised form (in the caller's transaction, if any)."""
        async with self.db.transaction():
            await self._record_gaps(misses)

    async def _record_gaps(self, misses: Sequence[GapRecord]) -> None:
        conn = self.db.conn
        await conn.executemany(
            """
            INSERT INTO misses
                (guild_id, normalized, query_hash, sample, kind, count, first_seen, last_seen, best_guess, question)
            VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
            ON CONFLICT (guild_id, normalized) DO UPDATE SET
                count = misses.count + 1, last_seen = excluded.last_seen, sample = excluded.sample,
                best_guess = COALESCE(excluded.best_guess, misses.best_guess),
                status = CASE WHEN misses.status = 'resolved' THEN 'open' ELSE misses.status END,
                question = CASE WHEN excluded.question = 1 THEN 1 ELSE misses.question END
            """,
            [
                (
                    m.guild_id,
                    m.normalized,
                    query_hash(m.normalized),
                    m.sample,
                    _kind(m.kind)[0],
                    m.at,
                    m.at,
                    m.best_guess,
                    _kind(m.kind)[1],
                )
                for m in misses
            ],
        )
        await conn.executemany(
            "INSERT OR IGNORE INTO miss_askers (miss_id, asker) "
            "SELECT id, ? FROM misses WHERE guild_id = ? AND normalized = ?",
            [(m.asker, m.guild_id, m.normalized) for m in misses],
        )
        await conn.executemany(
            "INSERT INTO miss_spellings (miss_id, sample, count) "
            "SELECT id, ?, 1 FROM misses WHERE guild_id = ? AND normalized = ? "
            "ON CONFLICT (miss_id, sample) DO UPDATE SET count = miss_spellings.count + 1",
            [(m.sample, m.guild_id, m.normalized) for m in misses],
        )

    async def record_picks(self, picks: Sequence[SuggestionChoiceRecord]) -> None:
        """Someone chose a term among the suggestions for a query: alias proposals. A pick counts once per
        person, and only for a query this server really asked (a hash no gap of this server has is dropped)."""
        async with self.db.transaction():
            await self._record_picks(picks)

    async def _record_picks(self, picks: Sequence[SuggestionChoiceRecord]) -> None:
        conn = self.db.conn
        for pick in picks:
            row = await (
                await conn.execute(
                    "SELECT normalized, sample FROM misses WHERE guild_id = ? AND query_hash = ? "
                    "ORDER BY id DESC LIMIT 1",
                    (pick.guild_id, pick.qhash),
                )
            ).fetchone()
            if row is None:
                continue
            normalized, sample = row
            cursor = await conn.execute(
                "INSERT OR IGNORE INTO pick_askers (guild_id, normalized, term_id, asker) VALUES (?, ?, ?, ?)",
                (pick.guild_id, normalized, pick.term_id, pick.asker),
            )
            if cursor.rowcount == 0:  # this person already proposed this: one voice each
                continue
            await conn.execute(
                """
                INSERT INTO picks (guild_id, normalized, sample, term_id, count, last_seen) VALUES (?, ?, ?, ?, 1, ?)
                ON CONFLICT (guild_id, normalized, term_id)
                DO UPDATE SET count = picks.count + 1, last_seen = excluded.last_seen
                """,
                (pick.guild_id, normalized, sample, pick.term_id, pick.at),
            )

    async def record_unlogged(self, records: Sequence[UnloggedRecord]) -> None:
        """Gaps answered but not logged (the member was over budget): counted per guild and day."""
        async with self.db.transaction():
            await self.db.conn.executemany(
                "INSERT INTO unlogged_misses (guild_id, day, count) VALUES (?, ?, 1) "
                "ON CONFLICT (guild_id, day) DO UPDATE SET count = unlogged_misses.count + 1",
                [(r.guild_id, r.day) for r in records],
            )

    async def unlogged(self, *, guild_id: int | None = None) -> int:
        """How many gaps were answered but not logged because a member was over budget."""
        sql, args = "SELECT COALESCE(SUM(count), 0) FROM unlogged_misses", ()
        if guild_id is not None:
            sql, args = sql + " WHERE guild_id = ?", (guild_id,)
        return (await (await self.db.reader.execute(sql, args)).fetchone())[0]

    async def get(self, gap_id: int, *, guild_id: int | None = None) -> Gap | None:
        """One gap by id (only within `guild_id` when given)."""
        for gap in await self.gaps(guild_id=guild_id, status=None, ids=[gap_id]):
            return gap
        return None

    async def count(self, *, guild_id: int | None = None, status: GapStatus | None = GapStatus.OPEN) -> int:
        where, args = self._where(guild_id, status)
        row = await (await self.db.reader.execute(f"SELECT COUNT(*) FROM misses m {where}", args)).fetchone()
        return row[0]

    @staticmethod
    def _where(guild_id: int | None, status: GapStatus | None) -> tuple[str, list]:
        where, args = [], []
        if guild_id is not None:
            where.append("m.guild_id = ?")
            args.append(guild_id)
        if status is not None:  # None: every status
            where.append("m.status = ?")
            args.append(status)
        return ("WHERE " + " AND ".join(where) if where else ""), args

    async def gaps(
        self,
        *,
        guild_id: int | None = None,
        status: GapStatus | None = GapStatus.OPEN,
        order: GapOrder = GapOrder.COUNT,
        limit: int = 100,
        offset: int = 0,
        ids: list[int] | None = None,
    ) -> list[Gap]:
        """Gaps, most asked (or most recent) first. `status=None` lists every status."""
        where, args = self._where(guild_id, status)
        if ids is not None:
            where += (" AND " if where else "WHERE ") + f"m.id IN ({','.join('?' * len(ids))})"
            args.extend(ids)
        order_by = "m.last_seen DESC" if order == GapOrder.RECENT else "m.count DESC, m.last_seen DESC"
        sql = f"{_GAP_COLUMNS} FROM misses m {where} ORDER BY {order_by}, m.id LIMIT ? OFFSET ?"
        rows = await (await self.db.reader.execute(sql, (*args, limit, offset))).fetchall()
        return list(map(Gap._make, rows))

    async def set_status(
        self, ids: list[int], status: GapStatus, *, guild_id: int | None = None, term_id: str | None = None
    ) -> int:
        """Mark gaps open, resolved (optionally naming the term that covers them) or ignored. Only within
        `guild_id` when given: a moderator never touches another server's gaps. Returns how many changed."""
        if status not in set(GapStatus):
            raise ValueError(f"unknown status {status!r}")
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        sql = f"UPDATE misses SET status = ?, resolved_term = ? WHERE id IN ({marks})"
        args: list = [status, term_id if status == GapStatus.RESOLVED else None, *ids]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        async with self.db.transaction():
            cursor = await self.db.conn.execute(sql, args)
        return cursor.rowcount

    async def resolve_asked_as(self, guild_id: int, normalized: str, term_id: str) -> int:
        """Resolve, naming `term_id`, the open gaps of a server asked as `normalized` (an alias now answers them).
        Returns how many changed."""
        sql = "UPDATE misses SET status = ?, resolved_term = ? WHERE guild_id = ? AND normalized = ? AND status = ?"
        async with self.db.transaction():
            cursor = await self.db.conn.execute(
                sql, (GapStatus.RESOLVED, term_id, guild_id, normalized, GapStatus.OPEN)
            )
        return cursor.rowcount

    async def open_after(self, after_id: int, limit: int, *, guild_id: int | None = None) -> list[Gap]:
        """The next `limit` open gaps by id after `after_id` (only `guild_id`'s when given): a walk over every open
        gap a page at a time, which holds its place while the pages already read change status."""
        where, args = self._where(guild_id, GapStatus.OPEN)
        where += (" AND " if where else "WHERE ") + "m.id > ?"
        sql = f"{_GAP_COLUMNS} FROM misses m {where} ORDER BY m.id LIMIT ?"
        rows = await (await self.db.reader.execute(sql, (*args, after_id, limit))).fetchall()
        return list(map(Gap._make, rows))

    async def export(
        self,
        *,
        guild_id: int | None,
        status: GapStatus | None = GapStatus.OPEN,
        most_asked: bool = False,
        limit: int | None = None,
    ) -> list[Gap]:
        """Every gap of a guild (the `limit` first, when given), most asked first, for exports (with `most_asked`,
        each gap's `sample` is its most asked spelling rather than the latest). The rows become objects in a worker
        thread, so that 100,000 gaps never hold up the event loop."""
        where, args = self._where(guild_id, status)
        columns = _GAP_COLUMNS
        if most_asked:
            columns = columns.replace(
                "m.sample,",
                "COALESCE((SELECT s.sample FROM miss_spellings s WHERE s.miss_id = m.id "
                "ORDER BY s.count DESC, s.sample LIMIT 1), m.sample),",
                1,
            )
        table = "misses m NOT INDEXED" if await self._most_of_the_table(guild_id) else "misses m"
        sql = f"{columns} FROM {table} {where} ORDER BY m.count DESC, m.last_seen DESC, m.id"
        if limit is not None:
            sql, args = f"{sql} LIMIT ?", [*args, limit]
        rows = await (await self.db.reader.execute(sql, args)).fetchall()
        return await asyncio.to_thread(_misses, rows)

    async def _most_of_the_table(self, guild_id: int | None) -> bool:
        """Whether a guild holds more than a quarter of all gaps: reading them in table order is then faster than
        through the guild index (100,000 gaps of one server: 0.37 s instead of 0.86 s), which jumps to each row."""
        if guild_id is None:
            return True
        mine = "SELECT COUNT(*) FROM misses WHERE guild_id = ?"
        (count,) = await (await self.db.reader.execute(mine, (guild_id,))).fetchone()
        (highest,) = await (await self.db.reader.execute("SELECT MAX(id) FROM misses")).fetchone()
        return count * 4 > (highest or 0)

    async def proposals(self, guild_id: int, limit: int = 10) -> list[AliasSuggestion]:
        """A server's alias suggestions, the most picked first."""
        sql = (
            "SELECT normalized, MAX(sample), term_id, SUM(count) AS n FROM picks WHERE guild_id = ? "
            "GROUP BY normalized, term_id ORDER BY n DESC, normalized LIMIT ?"
        )
        return [AliasSuggestion(*r) for r in await (await self.db.reader.execute(sql, (guild_id, limit))).fetchall()]

    async def most_asked_spelling(self, guild_id: int, gap_id: int) -> str | None:
        sql = (
            "SELECT s.sample FROM miss_spellings s JOIN misses m ON m.id = s.miss_id "
            "WHERE m.guild_id = ? AND s.miss_id = ? ORDER BY s.count DESC, s.sample LIMIT 1"
        )
        row = await (await self.db.reader.execute(sql, (guild_id, gap_id))).fetchone()
        return row[0] if row else None

    async def new_since(self, guild_id: int, since: str) -> int:
        sql = "SELECT COUNT(*) FROM misses WHERE guild_id = ? AND first_seen >= ?"
        return (await (await self.db.reader.execute(sql, (guild_id, since))).fetchone())[0]

    async def drop_proposals(self, guild_id: int, normalized: str) -> None:
        """A question's alias proposals are settled (accepted): off the list."""
        async with self.db.transaction():
            await self.db.conn.execute(
                "DELETE FROM picks WHERE guild_id = ? AND normalized = ?", (guild_id, normalized)
            )
            await self.db.conn.execute(
                "DELETE FROM pick_askers WHERE guild_id = ? AND normalized = ?", (guild_id, normalized)
            )

    async def picks(self, *, guild_id: int | None = None, limit: int = 100) -> list[SuggestionChoice]:
        """The spellings and the terms members picked for them, most frequent first."""
        sql = "SELECT MAX(sample), term_id, SUM(count) AS n FROM picks"
        args: list = []
        if guild_id is not None:
            sql += " WHERE guild_id = ?"
            args.append(guild_id)
        sql += " GROUP BY normalized, term_id ORDER BY n DESC, MAX(sample) LIMIT ?"
        return [SuggestionChoice(*r) for r in await (await self.db.reader.execute(sql, (*args, limit))).fetchall()]


class SqlUsageStore:
    """Lookup counts per guild, day, outcome and term (for statistics)."""

    def __init__(self, db: Database):
        self.db = db

    async def record_lookups(self, lookups: Sequence[LookupRecord]) -> None:
        """Add lookup counts, one record per term and day (what journals of older versions hold)."""
        await self._add([(u.guild_id, u.day, str(u.outcome), u.term_id or "", u.count) for u in lookups])

    async def record_lookup_counts(self, records: Sequence[LookupCountsRecord]) -> None:
        """Add the lookup counts of flush windows (one record a server and window, holding its rows)."""
        await self._add(
            [
                (record.guild_id, day, str(outcome), term_id or "", count)
                for record in records
                for day, outcome, term_id, count in record.rows
            ]
        )

    async def _add(self, rows: list[tuple[int, str, str, str, int]]) -> None:
        """Add counts, summed per (guild, day, outcome, term) first (PostgreSQL refuses to update one row twice in one
        statement), in statements of many rows each: while the outcome's CHECK was an IN list (until migration 0011),
        SQLite built a temporary table for each statement run and only emptied it for each further row (36 K
        instructions a row here, 50 K through `executemany`; not measured again since)."""
        summed: Counter[tuple[int, str, str, str]] = Counter()
        for guild_id, day, outcome, term_id, count in rows:
            summed[(guild_id, day, outcome, term_id)] += count
        keyed = list(summed.items())
        async with self.db.transaction():
            for start in range(0, len(keyed), ROWS_PER_STATEMENT):
                chunk = keyed[start : start + ROWS_PER_STATEMENT]
                await self.db.conn.execute(
                    "INSERT INTO lookups (guild_id, day, outcome, term_id, count) VALUES "
                    + ", ".join(["(?, ?, ?, ?, ?)"] * len(chunk))
                    + " ON CONFLICT (guild_id, day, outcome, term_id) DO UPDATE SET count = lookups.count + "
                    "excluded.count",
                    [value for key, count in chunk for value in (*key, count)],
                )

    async def outcomes(self, *, guild_id: int | None = None, since: str | None = None) -> dict[str, int]:
        """Lookups by outcome (found / ambiguous / not_found), optionally from a day on (YYYY-MM-DD)."""
        sql, args = "SELECT outcome, SUM(count) FROM lookups WHERE 1 = 1", []
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        if since is not None:
            sql += " AND day >= ?"
            args.append(since)
        rows = await (await self.db.reader.execute(sql + " GROUP BY outcome", args)).fetchall()
        return {outcome: n for outcome, n in rows}

    async def daily_outcomes(self, guild_id: int, since: str) -> list[DailyOutcome]:
        sql = (
            "SELECT day, outcome, SUM(count) FROM lookups WHERE guild_id = ? AND day >= ? "
            "GROUP BY day, outcome ORDER BY day"
        )
        rows = await (await self.db.reader.execute(sql, (guild_id, since))).fetchall()
        # (a day that is not a date, kept by a hand edit, sorts after every date: left out, said once)
        return [DailyOutcome(*r) for r in rows if stored_date(r[0], "lookups", guild=guild_id, day=r[0]) is not None]

    async def term_counts(self, *, guild_id: int | None = None) -> dict[str, int]:
        sql = "SELECT term_id, SUM(count) FROM lookups WHERE outcome = ?"
        args: tuple = (Outcome.FOUND.value,)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (*args, guild_id)
        rows = await (await self.db.reader.execute(sql + " GROUP BY term_id", args)).fetchall()
        return {term: n for term, n in rows}
