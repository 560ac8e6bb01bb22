"""The store of feedback (👍/👎 on a term's card, and what was missing): the FeedbackStore of
bot.storage.interfaces, in SQL both databases run. One row per server, term and member (their salted hash): a new
vote replaces the member's last one, so a flood of clicks is still one vote."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.status import Vote
from bot.storage.db import Database
from bot.storage.records import CommentRecord, FeedbackRow, LatestComments, RecentFeedback, TermVotes, VoteRecord

_UNHELPFUL = f"'{Vote.UNHELPFUL.value}'"


class SqlFeedbackStore:
    def __init__(self, db: Database):
        self.db = db

    async def record_votes(self, records: Sequence[VoteRecord]) -> None:
        """Each member's latest vote per server and term; a 👍 takes back what they said was missing."""
        async with self.db.transaction():
            await self.db.conn.executemany(
                "INSERT INTO feedback (guild_id, term_id, voter, vote, comment, at) VALUES (?, ?, ?, ?, NULL, ?) "
                "ON CONFLICT (guild_id, term_id, voter) DO UPDATE SET vote = excluded.vote, at = excluded.at, "
                f"comment = CASE WHEN excluded.vote = {_UNHELPFUL} THEN feedback.comment ELSE NULL END",
                [(r.guild_id, r.term_id, r.voter, r.vote, r.at) for r in records],
            )

    async def record_comments(self, records: Sequence[CommentRecord]) -> None:
        """What a member said was missing (their vote becomes, or stays, a 👎); a later one replaces it."""
        async with self.db.transaction():
            await self.db.conn.executemany(
                "INSERT INTO feedback (guild_id, term_id, voter, vote, comment, at) "
                f"VALUES (?, ?, ?, {_UNHELPFUL}, ?, ?) "
                "ON CONFLICT (guild_id, term_id, voter) DO UPDATE SET "
                "vote = excluded.vote, comment = excluded.comment, at = excluded.at",
                [(r.guild_id, r.term_id, r.voter, r.comment, r.at) for r in records],
            )

    async def tally(self, guild_id: int, *, min_votes: int = 1) -> list[TermVotes]:
        """The votes on each term of a server with at least `min_votes` of them, by term id."""
        rows = await (
            await self.db.reader.execute(
                "SELECT term_id, "
                f"SUM(CASE WHEN vote = {_UNHELPFUL} THEN 0 ELSE 1 END), "
                f"SUM(CASE WHEN vote = {_UNHELPFUL} THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN comment IS NULL THEN 0 ELSE 1 END) "
                "FROM feedback WHERE guild_id = ? GROUP BY term_id HAVING COUNT(*) >= ? ORDER BY term_id",
                (guild_id, min_votes),
            )
        ).fetchall()
        return [TermVotes(term_id, int(up), int(down), int(comments)) for term_id, up, down, comments in rows]

    async def comments(self, guild_id: int, *, limit: int = 5) -> LatestComments:
        """A server's latest comments (newest first, `limit` of them) and how many there are."""
        where = "WHERE guild_id = ? AND comment IS NOT NULL"
        rows = await (
            await self.db.reader.execute(
                f"SELECT guild_id, term_id, vote, comment, at FROM feedback {where} ORDER BY at DESC, term_id LIMIT ?",
                (guild_id, limit),
            )
        ).fetchall()
        (total,) = await (
            await self.db.reader.execute(f"SELECT COUNT(*) FROM feedback {where}", (guild_id,))
        ).fetchone()
        return LatestComments([FeedbackRow(*row) for row in rows], total)

    async def since(self, guild_id: int, since: str) -> RecentFeedback:
        """Votes and comments a server's members gave (or changed) at or after `since` (ISO time)."""
        row = await (
            await self.db.reader.execute(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN comment IS NULL THEN 0 ELSE 1 END), 0) "
                "FROM feedback WHERE guild_id = ? AND at >= ?",
                (guild_id, since),
            )
        ).fetchone()
        return RecentFeedback(int(row[0]), int(row[1]))

    async def export(self, *, guild_id: int | None = None) -> list[FeedbackRow]:
        """Every vote and comment (of one server, or all), by server, term and time; who voted is left out."""
        sql, args = "SELECT guild_id, term_id, vote, comment, at FROM feedback", ()
        if guild_id is not None:
            sql, args = sql + " WHERE guild_id = ?", (guild_id,)
        rows = await (await self.db.reader.execute(sql + " ORDER BY guild_id, term_id, at", args)).fetchall()
        return [FeedbackRow(*row) for row in rows]
