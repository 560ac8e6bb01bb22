"""Feedback: "¿Te ha servido?" under every card. A member's 👍/👎 on a term (one per member, term and server,
changeable; counted by the salted hash of their id, like a gap's askers), what they said was missing after a 👎
(for the server's editors only), and what the editors read of it: the least helpful terms, the latest comments,
the digest's line and the exports. No Discord here: a surface passes who voted (an Asker) and renders."""

from __future__ import annotations

import asyncio
import csv
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from bot.app.catalog import CatalogHolder
from bot.app.community.server_terms import ServerTerms
from bot.app.limits import GapBudget
from bot.app.lookup.lookups import GAP_BUDGET, GAP_BUDGET_SECONDS, Asker
from bot.app.spreadsheets import spreadsheet_safe
from bot.core.gaps import asker_hash
from bot.core.model import Term
from bot.core.normalize import valid_text
from bot.core.status import Vote
from bot.storage.interfaces import FeedbackStore
from bot.storage.records import CommentRecord, FeedbackRow, TermVotes, VoteRecord
from bot.storage.writer import WriteQueue

log = logging.getLogger(__name__)
MIN_VOTES = 3  # a term is ranked among the least helpful only with this many votes
MAX_COMMENT = 500  # characters kept of what a member says was missing


class Commented(Enum):
    """What became of a comment."""

    SAVED = "saved"
    EMPTY = "empty"  # nothing typed: the 👎 alone counts
    OVER_BUDGET = "over_budget"  # the member left many comments this hour: not kept
    GONE = "gone"  # the term is not (or no longer) in this server's glossary


@dataclass(frozen=True, slots=True)
class Ranked:
    """A term among the least helpful of a server: its votes, its name, and whether it is the server's own."""

    term: Term
    votes: TermVotes
    server_term: bool


@dataclass(frozen=True, slots=True)
class Shown:
    """Some of a list and how long the whole list is ("5 de 12")."""

    items: tuple
    total: int


@dataclass(frozen=True, slots=True)
class WeekOfFeedback:
    """The digest's line: terms now among the least helpful, and votes and comments of the last week."""

    improvable: int
    votes: int
    comments: int


class Feedback:
    def __init__(
        self,
        store: FeedbackStore,
        catalog: CatalogHolder,
        server_terms: ServerTerms | None,
        writer: WriteQueue | None,
        salt: str,
        clock: Callable[[], datetime],
        budget: GapBudget | None = None,
    ) -> None:
        self.store, self.catalog, self.server_terms, self.writer, self.clock = (
            store,
            catalog,
            server_terms,
            writer,
            clock,
        )
        self._salt = salt
        # The same allowance as a member's new gaps, kept apart: commenting never costs a member a gap.
        self.budget = budget or GapBudget(GAP_BUDGET, GAP_BUDGET_SECONDS)

    async def term(self, guild_id: int, term_id: str) -> tuple[Term, bool] | None:
        """The term a server sees under this id (published, or its own: then True), or None."""
        published = self.catalog.glossary.get(term_id)
        if published is not None:
            return published, False
        overlay = await self.server_terms.prepare(guild_id) if self.server_terms else None
        own = overlay.glossary.get(term_id) if overlay else None
        return (own, True) if own is not None else None

    # -- what members give --------------------------------------------------------------------------------
    async def vote(self, who: Asker, term_id: str, vote: Vote) -> Term | None:
        """A member's 👍 or 👎 on a term, replacing their last one on it in this server. None, with nothing
        counted, for a term the server does not have (a forged or stale button)."""
        found = await self.term(who.guild_id, term_id)
        if found is None:
            log.info("vote on unknown term %r by user %s: not counted", term_id[:80], who.user_id)
            return None
        self._submit(VoteRecord(who.guild_id, found[0].id, self._voter(who), vote.value, self._now()))
        return found[0]

    def may_comment(self, who: Asker, term_id: str) -> bool:
        """Whether the member may say what was missing now (within their hourly allowance of comments)."""
        return self.budget.has_room(who.user_id, f"{who.guild_id}:{term_id}")

    def forget_member(self, user_id: int) -> None:
        """A member who asked to be forgotten: which terms they commented on this hour goes, and their allowance
        is whole again."""
        self.budget.forget(user_id)

    async def comment(self, who: Asker, term_id: str, text: str) -> Commented:
        """What a member said was missing from a term's definition (kept as typed, made valid, 500 characters at
        most); commenting on the same term again replaces it and costs nothing."""
        text = valid_text(text or "").strip()[:MAX_COMMENT]
        if not text:
            return Commented.EMPTY
        found = await self.term(who.guild_id, term_id)
        if found is None:
            return Commented.GONE
        if not self.budget.allow(who.user_id, f"{who.guild_id}:{found[0].id}"):
            log.info("comment budget: user %s is over %d comments an hour; not kept", who.user_id, GAP_BUDGET)
            return Commented.OVER_BUDGET
        self._submit(CommentRecord(who.guild_id, found[0].id, self._voter(who), text, self._now()))
        return Commented.SAVED

    # -- what editors read --------------------------------------------------------------------------------
    async def least_helpful(self, guild_id: int, limit: int = 5) -> Shown:
        """A server's terms with at least MIN_VOTES votes and some 👎, the largest share of 👎 first (then the
        most 👎): `limit` of them, and how many there are. Terms no longer in its glossary are left out."""
        ranked = []
        for votes in await self.store.tally(guild_id, min_votes=MIN_VOTES):
            found = await self.term(guild_id, votes.term_id) if votes.unhelpful else None
            if found is not None:
                ranked.append(Ranked(found[0], votes, found[1]))
        ranked.sort(key=lambda r: (-r.votes.unhelpful_share, -r.votes.unhelpful, r.term.id))
        return Shown(tuple(ranked[:limit]), len(ranked))

    async def comments(self, guild_id: int, limit: int = 5) -> Shown:
        """A server's latest comments, with the name of the term each is about: (name, row) pairs."""
        latest = await self.store.comments(guild_id, limit=limit)
        named = []
        for row in latest.rows:
            found = await self.term(guild_id, row.term_id)
            named.append((found[0].term if found else row.term_id, row))
        return Shown(tuple(named), latest.total)

    async def week(self, guild_id: int, since: str) -> WeekOfFeedback:
        recent = await self.store.since(guild_id, since)
        return WeekOfFeedback((await self.least_helpful(guild_id, 0)).total, recent.votes, recent.comments)

    async def export(self, guild_id: int | None) -> list[FeedbackRow]:
        """Every vote and comment of a server (None: of every server), for the editors' files."""
        return await self.store.export(guild_id=guild_id)

    async def export_csv(self, guild_id: int) -> tuple[str, int]:
        """A server's votes and comments as CSV (each term named as the server sees it), and how many rows."""
        rows = await self.export(guild_id)
        names = {}
        for term_id in {row.term_id for row in rows}:
            found = await self.term(guild_id, term_id)
            names[term_id] = found[0].term if found else ""
        return await asyncio.to_thread(feedback_csv, rows, names.__getitem__), len(rows)  # (off the loop)

    def _submit(self, record: VoteRecord | CommentRecord) -> None:
        if self.writer is None:
            raise RuntimeError("feedback is read-only here (no write queue)")
        self.writer.submit(record)

    def _voter(self, who: Asker) -> str:
        return asker_hash(self._salt, who.user_id)

    def _now(self) -> str:
        return self.clock().isoformat(timespec="seconds")


CSV_COLUMNS = ("guild_id", "term_id", "term", "vote", "comment", "at")


def feedback_csv(rows: list[FeedbackRow], name: Callable[[str], str]) -> str:
    """Votes and comments as CSV, one row each (`name`: a term id's name); text that would start a formula is
    neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        cells = (row.guild_id, row.term_id, name(row.term_id), row.vote, row.comment or "", row.at)
        writer.writerow(spreadsheet_safe(cell) for cell in cells)
    return out.getvalue()
