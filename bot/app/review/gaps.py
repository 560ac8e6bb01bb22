"""The moderators' review of gaps: a page of the list, ignoring, reopening and resolving, and exports.
The same actions serve the Discord list and the command line."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.app.catalog import CatalogHolder
from bot.app.community.server_terms import ServerTerms
from bot.app.review.exports import gaps_csv, gaps_yaml
from bot.core.gaps import query_hash
from bot.core.search import Found
from bot.core.status import GapOrder, GapStatus
from bot.storage.errors import within_reply_wait
from bot.storage.interfaces import GapStore
from bot.storage.records import Gap

if TYPE_CHECKING:
    from bot.app.feedback.votes import Feedback, Shown

PAGE_SIZE = 10


@dataclass(frozen=True, slots=True)
class GapRow:
    number: int  # its place in the whole list, from 1
    gap: Gap
    term: str | None  # the name of the term that resolved it, or of the best guess
    resolved_as: bool  # True when `term` is the one that resolved it


@dataclass(frozen=True, slots=True)
class AliasCandidate:
    """Members chose `term` for `sample` among the suggestions: a candidate alias."""

    sample: str
    term: str
    people: int
    qhash: str = ""  # the question's handle, and the term's id: what accepting it names
    term_id: str = ""


@dataclass(frozen=True)
class GapPage:
    status: GapStatus
    order: GapOrder
    page: int  # from 0, within range
    pages: int
    total: int
    rows: list[GapRow]
    unlogged: int  # gaps answered but not logged (members over budget)
    proposals: list[AliasCandidate]
    improvable: Shown | None = None  # definitions members found least helpful (feedback), beside the open gaps


class GapReview:
    def __init__(
        self,
        gaps: GapStore,
        catalog: CatalogHolder,
        server_terms: ServerTerms | None = None,
        feedback: Feedback | None = None,
    ) -> None:
        self.gaps, self.catalog, self.server_terms, self.feedback = gaps, catalog, server_terms, feedback

    def _name(self, guild_id: int, term_id: str) -> str:
        """A term's name: published, or the server's own (its id when neither has it any more)."""
        overlay = self.server_terms.cached(guild_id) if self.server_terms else None
        named = self.catalog.glossary.get(term_id) or (overlay.glossary.get(term_id) if overlay else None)
        return named.term if named else term_id

    async def page(self, guild_id: int, status: GapStatus, order: GapOrder, page: int) -> GapPage:
        """One page of a server's gaps (a page past the end shows the last one), with what goes around it."""
        glossary = self.catalog.glossary
        if self.server_terms is not None:
            await self.server_terms.prepare(guild_id)
        total = await self.gaps.count(guild_id=guild_id, status=status)
        pages = max(1, -(-total // PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        found = await self.gaps.gaps(
            guild_id=guild_id, status=status, order=order, limit=PAGE_SIZE, offset=page * PAGE_SIZE
        )
        rows = []
        for number, gap in enumerate(found, start=page * PAGE_SIZE + 1):
            named = glossary.get(gap.resolved_term or gap.best_guess or "")
            resolved_as = gap.status == GapStatus.RESOLVED and bool(gap.resolved_term)
            rows.append(GapRow(number, gap, named.term if named else None, resolved_as))
        proposals = [
            AliasCandidate(s.sample, self._name(guild_id, s.term_id), s.people, query_hash(s.normalized), s.term_id)
            for s in await self.gaps.proposals(guild_id, 10)
        ]
        unlogged = await self.gaps.unlogged(guild_id=guild_id)
        improvable = None
        if self.feedback is not None and status == GapStatus.OPEN:
            improvable = await self.feedback.least_helpful(guild_id)
        return GapPage(status, order, page, pages, total, rows, unlogged, proposals, improvable)

    async def get(self, guild_id: int, gap_id: int) -> Gap | None:
        return await self.gaps.get(gap_id, guild_id=guild_id)

    async def most_asked_spelling(self, guild_id: int, gap_id: int) -> str | None:
        """The name to offer when a gap is defined: how it was asked most often."""
        return await self.gaps.most_asked_spelling(guild_id, gap_id)

    async def set_status(
        self, guild_id: int | None, ids: list[int], status: GapStatus, term_id: str | None = None
    ) -> int:
        """Ignore, reopen or resolve gaps; only this server's (None: any, for the command line). How many changed."""
        return await self.gaps.set_status(ids, status, guild_id=guild_id, term_id=term_id) if ids else 0

    async def decide(self, guild_id: int, ids: list[int], status: GapStatus, term_id: str | None = None) -> int:
        """A moderator's decision from Discord: `set_status`, waiting at most a second for the database (past
        that, DatabaseBusy with nothing changed), so that the member is answered within Discord's three."""
        return await within_reply_wait(lambda: self.set_status(guild_id, ids, status, term_id))

    def term_named(self, name: str) -> str | None:
        """The id of the term a moderator named (as a lookup would answer it with confidence), or None."""
        result = self.catalog.index.lookup(name)
        return result.term.id if isinstance(result, Found) else None

    async def export(self, guild_id: int | None, fmt: str, title: str, lang: str = "es") -> tuple[str, int]:
        """Every open gap of a server as a file's text and how many: CSV (a row each), or YAML (term stubs for
        the editors, with the spellings members picked, its comments in `lang`). Built off the event loop."""
        gaps = await self.gaps.export(guild_id=guild_id, most_asked=fmt == "yaml")
        if fmt == "csv":
            text = await asyncio.to_thread(gaps_csv, gaps)
        else:
            picks = await self.gaps.picks(guild_id=guild_id)
            text = await asyncio.to_thread(gaps_yaml, gaps, picks, title=title, lang=lang)
        return text, len(gaps)
