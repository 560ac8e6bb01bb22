"""Looking terms up, and what every lookup leaves behind: counts per outcome and term, gaps (what nobody could
answer) and alias proposals (which suggestion people chose). No Discord here: a surface passes who asked."""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from bot.app.catalog import CatalogHolder
from bot.app.community.server_terms import Overlay, ServerTerms
from bot.app.limits import GapBudget
from bot.core.gaps import GapKey, asker_hash, gap_key
from bot.core.model import Glossary, Term
from bot.core.normalize import normalize
from bot.core.search import MAX_QUERY, Ambiguous, Choice, Found, LookupResult, NotFound, SearchHit
from bot.core.status import GapKind, Outcome
from bot.storage.records import GapRecord, LookupCountsRecord, SuggestionChoiceRecord, UnloggedRecord
from bot.storage.writer import WriteQueue

log = logging.getLogger(__name__)
GAP_BUDGET, GAP_BUDGET_SECONDS = 20, 3600.0  # new gaps one member may log per hour
ANSWERED_KEPT = 4096  # questions answered by meaning held for "No era esto" (the oldest forgotten first)
GUILDS_KEPT = 4096  # servers whose GuildGlossary is kept for reuse (all forgotten at once past this)


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asked, and where (guild 0: a direct message)."""

    guild_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class Answer:
    result: LookupResult
    glossary: Glossary  # the snapshot the answer came from (a reload may swap the glossary meanwhile)
    qhash: str = ""  # the question's handle, for the suggestions of an ambiguous answer
    overlay: Overlay | None = None  # the server's own terms, when it has some
    key: GapKey | None = None  # the question's gap key, made once (a question nobody could answer)

    def is_server_term(self, term: Term) -> bool:
        return self.overlay is not None and self.overlay.glossary.get(term.id) is term


@dataclass(frozen=True, slots=True)
class GuildGlossary:
    """What one server sees: the published glossary and that server's own terms, loaded. Every read a surface
    makes goes through one (`await lookups.for_guild(guild_id)`), so no surface can forget a server's terms.
    Guild 0 (a DM, or a member's own install where the bot is a guest) sees the published glossary only."""

    lookups: Lookups
    guild_id: int
    overlay: Overlay | None

    def asker(self, user_id: int) -> Asker:
        return Asker(self.guild_id, user_id)

    def lookup(self, user_id: int, query: str, *, gap: bool = True) -> Answer | None:
        return self.lookups.answer(self.guild_id, user_id, query, gap=gap)

    def unanswered(self, user_id: int, query: str, answer: Answer, *, question: bool = False) -> None:
        self.lookups.unanswered(self.asker(user_id), query, answer, question=question)

    def search(self, user_id: int, text: str) -> list[SearchHit]:
        return self.lookups.search(self.asker(user_id), text)

    def open(self, user_id: int, term_id: str) -> Term | None:
        return self.lookups.open(self.asker(user_id), term_id)

    def complete(self, current: str) -> list[Choice]:
        return self.lookups.complete(current, self.guild_id)

    def terms(self) -> list[Term]:
        return self.lookups.terms(self.guild_id)

    def mentioned(self, text: str) -> list[Term]:
        return self.lookups.mentioned(self.guild_id, text)

    def is_server_term(self, term: Term) -> bool:
        return self.overlay is not None and self.overlay.glossary.get(term.id) is term


class Lookups:
    def __init__(
        self,
        catalog: CatalogHolder,
        writer: WriteQueue,
        salt: str,
        clock: Callable[[], datetime],
        budget: GapBudget | None = None,
        server_terms: ServerTerms | None = None,
    ) -> None:
        self.catalog, self.writer, self.clock, self.server_terms = catalog, writer, clock, server_terms
        self._salt = salt
        self.budget = budget or GapBudget(GAP_BUDGET, GAP_BUDGET_SECONDS)
        # (guild, day, outcome, term) → lookups since the last flush (a dict: a Counter's += on a new key calls
        # its __missing__ in Python, on most lookups)
        self._counts: dict[tuple[int, str, Outcome, str], int] = {}
        self._day, self._day_text = date.min, date.min.isoformat()
        # questions answered by meaning, for "No era esto": (guild, handle) → (key, term id, who said so)
        self._answered: dict[tuple[int, str], tuple[GapKey, str, set[int]]] = {}
        self._guilds: dict[int, GuildGlossary] = {}  # the last one made per server (immutable: reused while current)

    async def for_guild(self, guild_id: int) -> GuildGlossary:
        """What server `guild_id` sees, its own terms loaded (from memory once read)."""
        terms = self.server_terms
        overlay = await terms.prepare(guild_id) if terms is not None and guild_id else None
        here = self._guilds.get(guild_id)
        if here is None or here.overlay is not overlay:
            if len(self._guilds) >= GUILDS_KEPT:
                self._guilds.clear()
            here = self._guilds[guild_id] = GuildGlossary(self, guild_id, overlay)
        return here

    def lookup(self, asker: Asker, query: str, *, gap: bool = True) -> Answer | None:
        """Answer a question (a term's id, as autocomplete submits, or anything typed); None when it is empty.
        A question nobody could answer is logged as a gap before the caller replies: a reply that never gets
        through must not lose it. With `gap=False` the caller asks by meaning first, then calls `by_meaning`
        or `unanswered` (still before replying)."""
        return self.answer(asker.guild_id, asker.user_id, query, gap=gap)

    def answer(self, guild_id: int, user_id: int, query: str, *, gap: bool = True) -> Answer | None:
        """`lookup` for member `user_id` in server `guild_id` (on every /termino: no `Asker` made unless a gap is)."""
        if not normalize(query):
            return None
        catalog = self.catalog.current  # one snapshot for the whole answer, even during a reload
        overlay = self.overlay(guild_id)
        chosen = catalog.glossary.get(query) or (overlay.glossary.get(query) if overlay else None)
        result = Found(chosen) if chosen is not None else catalog.index.lookup(query)
        if overlay is not None and not (isinstance(result, Found) and result.exact):
            aliased = overlay.alias(query)  # a spelling the server accepted for a published term
            own = Found(catalog.glossary.get(aliased)) if aliased else overlay.index.lookup(query)
            if isinstance(own, Found) or (isinstance(own, Ambiguous) and not isinstance(result, Found | Ambiguous)):
                result = own  # the server's own term beats a guess among the published ones
        if isinstance(result, Found):
            self.count(guild_id, Outcome.FOUND, result.term.id)
            return Answer(result, catalog.glossary, overlay=overlay)
        key = gap_key(query)
        answer = Answer(result, catalog.glossary, key.qhash, overlay, key)
        if gap:
            self.unanswered(Asker(guild_id, user_id), query, answer)
        return answer

    def unanswered(self, asker: Asker, query: str, answer: Answer, *, question: bool = False) -> None:
        """Nobody could answer `query` (the name matcher's `answer`; by meaning too, when `question`): a gap."""
        result, key = answer.result, answer.key
        if key is None or key.sample != query[:MAX_QUERY]:  # (the answer to another question)
            key = gap_key(query)
        kind = GapKind.QUESTION if question else GapKind.LOOKUP
        if isinstance(result, Ambiguous):
            self.count(asker.guild_id, Outcome.AMBIGUOUS)
            self._gap(asker, key, result.candidates[0].term.id, kind)
        else:
            guess = result.best_guess if isinstance(result, NotFound) else None
            self.count(asker.guild_id, Outcome.NOT_FOUND)
            self._gap(asker, key, guess and guess.term.id, kind)

    def by_meaning(self, asker: Asker, query: str, term: Term) -> str:
        """A question the glossary answered by meaning, with `term`: counted, not a gap. Kept for a while so that
        "No era esto" can make it a gap; returns its handle (for the button)."""
        key = gap_key(query)
        self.count(asker.guild_id, Outcome.MEANING, term.id)
        held = self._answered.pop((asker.guild_id, key.qhash), None)  # (asked again: kept newest, with who said no)
        said_no = held[2] if held is not None and held[1] == term.id else set()
        self._answered[(asker.guild_id, key.qhash)] = (key, term.id, said_no)
        while len(self._answered) > ANSWERED_KEPT:
            self._answered.pop(next(iter(self._answered)))
        return key.qhash

    def not_it(self, asker: Asker, qhash: str, term_id: str) -> bool:
        """A member says a question answered by meaning was not answered: a gap marked as a question, once per
        person. False when the question is no longer held (a restart, long ago) or was another term's."""
        held = self._answered.get((asker.guild_id, qhash))
        if held is None or held[1] != term_id:
            return False
        key, _, who = held
        if asker.user_id not in who:
            who.add(asker.user_id)
            self._gap(asker, key, term_id, GapKind.QUESTION)
        return True

    def forget_member(self, user_id: int) -> None:
        """What this process holds of a member who asked to be forgotten: their hourly budget of gaps (what they
        asked), and their "No era esto" on the questions answered by meaning."""
        self.budget.forget(user_id)
        for _, _, said_no in self._answered.values():
            said_no.discard(user_id)

    def forget_server(self, guild_id: int) -> None:
        """What this process holds of a forgotten server: its questions answered by meaning, its lookup counts not
        written yet, and what it saw."""
        self._answered = {held: kept for held, kept in self._answered.items() if held[0] != guild_id}
        self._counts = {key: count for key, count in self._counts.items() if key[0] != guild_id}
        self._guilds.pop(guild_id, None)

    def search(self, asker: Asker, text: str) -> list[SearchHit]:
        """Terms whose text matches (the server's own too), best first; a search that finds nothing is a gap too."""
        hits = self.catalog.index.search(text)
        overlay = self.overlay(asker.guild_id)
        if overlay is not None:
            hits = sorted([*overlay.index.search(text), *hits], key=lambda hit: -hit.score)
        if not hits and normalize(text):
            self._gap(asker, gap_key(text), None, GapKind.SEARCH)
        return hits

    def overlay(self, guild_id: int) -> Overlay | None:
        """The server's own terms, if it has some and they are in memory (`ServerTerms.prepare` loads them)."""
        return self.server_terms.cached(guild_id) if self.server_terms and guild_id else None

    def terms(self, guild_id: int) -> list[Term]:
        """Every term a server sees: the published ones, then its own."""
        overlay = self.overlay(guild_id)
        return [*self.catalog.glossary.terms, *(overlay.glossary.terms if overlay else ())]

    def mentioned(self, guild_id: int, text: str) -> list[Term]:
        """The terms a message mentions ("Explicar términos"): published ones, then the server's own."""
        overlay = self.overlay(guild_id)
        found = self.catalog.mentions.find(text)
        return found + [t for t in overlay.mentions.find(text) if t not in found] if overlay else found

    def complete(self, current: str, guild_id: int = 0) -> list[Choice]:
        """Autocomplete: the server's own terms that match first, then the published ones (25 at most)."""
        overlay = self.overlay(guild_id)
        published = self.catalog.index.complete(current)
        if overlay is None:
            return published
        return (overlay.index.complete(current) + published)[:25]

    def open(self, asker: Asker, term_id: str) -> Term | None:
        """A term opened from a button or menu (counted like a lookup); None when a reload removed it."""
        overlay = self.overlay(asker.guild_id)
        term = self.catalog.glossary.get(term_id) or (overlay.glossary.get(term_id) if overlay else None)
        if term is not None:
            self.count(asker.guild_id, Outcome.FOUND, term.id)
        return term

    # -- alias proposals ------------------------------------------------------------------------------
    def sign(self, private: bool, qhash: str, term_id: str) -> str:
        """A short keyed hash over a suggestion (BLAKE2's keyed mode, a MAC): only this installation can make
        one, so a click on a suggestion the bot never offered is recognised."""
        message = f"{int(private)}:{qhash}:{term_id}".encode()
        return hashlib.blake2s(message, key=self._salt.encode()[:32], digest_size=3).hexdigest()

    def picked(self, asker: Asker, private: bool, qhash: str, term_id: str, signature: str | None) -> bool:
        """A member chose a suggestion: an alias proposal, counted once per person, and only when the bot
        really offered that term for that question (`signature`). True when it was counted."""
        if signature is None or not hmac.compare_digest(self.sign(private, qhash, term_id), signature):
            log.info("pick of %r for query %s by user %s was not offered: not counted", term_id, qhash, asker.user_id)
            return False
        at = self.clock().isoformat(timespec="seconds")
        self.writer.submit(SuggestionChoiceRecord(asker.guild_id, qhash, term_id, self._asker(asker), at))
        return True

    # -- what is written after the reply --------------------------------------------------------------
    def count(self, guild_id: int, outcome: Outcome, term_id: str = "") -> None:
        """Count a lookup in memory; `flush` hands the counts to the write queue (every second)."""
        day = self.clock().date()
        if day != self._day:  # the day's text is made once a day, not on every lookup
            self._day, self._day_text = day, day.isoformat()
        key = (guild_id, self._day_text, outcome, term_id)
        self._counts[key] = self._counts.get(key, 0) + 1

    def flush(self) -> None:
        """Hand the counts made since the last flush to the write queue: one record per server, holding its rows
        (one id to claim and one journal line per server and second, not one per term looked up)."""
        counts, self._counts = self._counts, {}
        rows: dict[int, list[list]] = {}
        for (guild_id, day, outcome, term_id), n in counts.items():
            rows.setdefault(guild_id, []).append([day, outcome, term_id, n])
        for guild_id, held in rows.items():
            self.writer.submit(LookupCountsRecord(guild_id, held))

    def _gap(self, asker: Asker, key: GapKey, best_guess: str | None, kind: str) -> None:
        """Log a gap. A member over the hourly budget of new gaps is answered as usual, but the gap is only
        counted (one member cannot flood the moderators' list)."""
        now = self.clock()
        if not self.budget.allow(asker.user_id, key.normalized):
            log.info("gap budget: user %s is over %d new gaps an hour; not logging it", asker.user_id, GAP_BUDGET)
            self.writer.submit(UnloggedRecord(asker.guild_id, now.date().isoformat()))
            return
        at = now.isoformat(timespec="seconds")
        self.writer.submit(
            GapRecord(asker.guild_id, key.sample, key.normalized, self._asker(asker), best_guess, kind, at)
        )

    def _asker(self, asker: Asker) -> str:
        return asker_hash(self._salt, asker.user_id)
