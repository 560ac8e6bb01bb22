"""A server's own terms: defined, edited and retired from Discord, every version kept, served only in that
server next to the published glossary (which wins when both name the same thing). Each server's terms are a
small overlay index of their own, built on first use and kept for the most recently used servers."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property, partial
from typing import TypeVar

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.community.reads import SharedReads
from bot.app.glossary import resolve_answered
from bot.app.recent import keep_recent
from bot.core import server_terms
from bot.core.card import EMBED_TOTAL, CardText, card_text, footer, neutral_markup
from bot.core.errors import Problem
from bot.core.gaps import query_hash
from bot.core.mentions import MentionFinder
from bot.core.model import Glossary, Layered, Term
from bot.core.normalize import compact, normalize, numbered_slugs
from bot.core.problems import Joined, Sentence, said
from bot.core.question_texts import question_key
from bot.core.search import Found, SearchIndex
from bot.core.server_terms import TermFields
from bot.storage.erasure import ANONYMOUS
from bot.storage.errors import within_reply_wait
from bot.storage.interfaces import GapStore, ServerTermStore
from bot.storage.records import ServerAlias, ServerTermRow, ServerTermVersion
from bot.storage.repairs import odd_row

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Author:
    user_id: int  # ANONYMOUS once the member asked to be forgotten
    at: str  # ISO time

    @property
    def anonymous(self) -> bool:
        return self.user_id == ANONYMOUS


@dataclass(frozen=True, slots=True)
class StoredName:
    """A stored term's name as the editors' commands offer it, normalised once (not at every keystroke)."""

    created_at: str
    term_id: str
    name: str
    normalized: str

    @staticmethod
    def of(row: ServerTermRow) -> StoredName:
        name = row.fields.get("term", "").strip() or row.term_id  # (a blank name, kept by a hand edit: its id)
        return StoredName(row.created_at, row.term_id, name, normalize(name))

    def order(self) -> tuple[str, str]:
        """Where the store lists it: oldest first, then by id (ServerTermStore.terms)."""
        return self.created_at, self.term_id


@dataclass(frozen=True)
class Overlay:
    """One server's terms in service, and who added each."""

    glossary: Glossary
    index: SearchIndex
    authors: dict[str, Author] = field(default_factory=dict)  # by term id: who added it, and when
    superseded: tuple[str, ...] = ()  # server terms a published term with the same name now replaces
    aliases: dict[str, str] = field(default_factory=dict)  # accepted spellings of published terms → term id
    set_aside: tuple[str, ...] = ()  # names of stored terms that no longer pass the checks (a rule changed): unserved
    guild_id: int = 0  # the server whose terms these are
    version: int = 0  # of two overlays of a server, the one read later has the larger (its question index wins)
    # every stored term in service, set aside and superseded ones too (an editor may fix or rename them), in the
    # store's order: what `editar` and `retirar` offer
    stored_names: tuple[StoredName, ...] = ()
    # What a question index of these terms reads of them, hashed (bot/core/question_texts.py): the index of an
    # overlay read before with the same key answers for this one, not built again ("" for none: always built)
    question_key: str = ""

    def alias(self, query: str) -> str | None:
        """The term a server alias names, for a question spelt that way (as normalised, or without spaces)."""
        norm = normalize(query)
        return self.aliases.get(norm) or self.aliases.get(compact(norm))

    def card(self, term: Term, published: Glossary) -> CardText:
        """A server term's card: as the published glossary's cards (its footer), related terms from both (a server
        term's name is members' text: no masked link forms), and who added it."""
        both = Layered(published, self.glossary)
        related = [neutral_markup(r.term) for r in (both.get(i) for i in term.related) if r is not None]
        return card_text(term, related, footer(published.title, published.subtitle), attributed=True)

    @cached_property
    def mentions(self) -> MentionFinder:
        """ "Explicar términos" over the server's terms (built on first use)."""
        return MentionFinder(self.glossary)


@dataclass(frozen=True)
class Saved:
    term: Term
    resolved: int  # the server's open gaps it now answers (marked resolved)


@dataclass(frozen=True)
class Refused:
    """What is wrong with the fields (each problem a sentence of the problems' catalogues), and the term a
    spelling already belongs to, when that is the problem."""

    problems: tuple[Problem, ...]
    taken_by: Term | None = None
    taken_spelling: str | None = None  # the spelling that term already has
    taken_here: bool = False  # that term is one of this server's own (not a published one)


def problem(sentence: Sentence) -> Problem:
    """A problem with the fields of a server term (as a sentence of the problems' catalogues)."""
    return Problem(server_terms.FILE_NAME, 0, sentence.code, sentence.params)


class ServerTerms:
    MAX_OVERLAYS = 512  # servers whose overlay stays in memory (the least recently used are dropped)

    def __init__(
        self, store: ServerTermStore, catalog: CatalogHolder, gaps: GapStore, clock: Callable[[], datetime]
    ) -> None:
        self.store, self.catalog, self.gaps, self.clock = store, catalog, gaps, clock
        # by server: the catalog it was read against, the overlay, the number of the read that made it
        self._overlays: OrderedDict[int, tuple[Catalog, Overlay | None, int]] = OrderedDict()
        self._reads = itertools.count(1)  # each read of a server's terms numbered as it starts (Overlay.version)
        self._stale_before = 0  # a read numbered lower began before some server's terms changed: never kept
        # by server: its retired terms' names (what `historial` offers besides the overlay's), kept like the overlays
        self._retired: OrderedDict[int, tuple[StoredName, ...]] = OrderedDict()
        # The reads under way, by server, stamped with the glossary and the number they began with: lookups and
        # keystrokes that come while a server's terms are read await that read, unless the terms changed since.
        self._overlay_reads: SharedReads[int, tuple[Catalog, int], Overlay | None] = SharedReads(
            self._still_good, "the terms"
        )
        self._retired_reads: SharedReads[int, tuple[Catalog, int], tuple[StoredName, ...]] = SharedReads(
            self._still_good, "the retired terms' names"
        )

    # -- serving ----------------------------------------------------------------------------------------
    def cached(self, guild_id: int) -> Overlay | None:
        """The server's overlay if it is in memory and current (what lookups and autocomplete use: no I/O)."""
        found = self._overlays.get(guild_id)
        if found is None or found[0] is not self.catalog.current:
            return None
        self._overlays.move_to_end(guild_id)
        return found[1]

    async def prepare(self, guild_id: int) -> Overlay | None:
        """Make sure the server's overlay is in memory (read from the database on first use); None without terms."""
        if not guild_id:
            return None
        found = self._overlays.get(guild_id)
        if found is not None and found[0] is self.catalog.current:
            self._overlays.move_to_end(guild_id)
            return found[1]
        return await self._read_once(self._overlay_reads, guild_id, self._read_overlay)

    async def _read_once(self, reads: SharedReads, guild_id: int, read: Callable[[int, int], Awaitable[T]]) -> T:
        """`read(guild_id, version)`, numbered now, or the read of the server under way that is still good: shared
        with whoever asks for the same while it runs."""
        version = next(self._reads)
        stamp = (self.catalog.current, version)
        return await reads.read(guild_id, stamp, partial(read, guild_id, version))

    def _still_good(self, stamp: tuple[Catalog, int]) -> bool:
        """Whether a read begun with `stamp` may answer a caller that comes now: the same glossary in service, and
        no server's terms changed since it began (`forget_cached`)."""
        return stamp[0] is self.catalog.current and stamp[1] >= self._stale_before

    async def _read_overlay(self, guild_id: int, version: int) -> Overlay | None:
        """Read the server's terms, check and index them (read number `version`), and keep them unless a newer
        read or a change came meanwhile."""
        try:
            rows = await self.store.terms(guild_id)
            accepted = await self.store.aliases(guild_id)
        except Exception:  # the database failing (locked, unreachable, gone) must not stop the published glossary
            log.warning(
                "could not read the terms of guild %s; answering with the published ones", guild_id, exc_info=True
            )
            return None
        # The checks and the index are CPU work (a second for thousands of terms): off the event loop. An error
        # there is a bug, not the database: it reaches the member's apology and the log.
        catalog = self.catalog.current
        overlay = None
        if rows or accepted:
            overlay = await asyncio.to_thread(_overlay, catalog, rows, accepted, guild_id, version)
        # Two reads at once: the one begun later stands, whichever ends last (its question index wins, and an older
        # overlay kept here would have its server's questions answered by name, bot/app/questions/servers.py).
        found = self._overlays.get(guild_id)
        if found is not None and found[0] is catalog and found[2] > version:
            return found[1]
        if version < self._stale_before:  # (read before the terms changed: good for this reply only)
            return overlay
        keep_recent(self._overlays, guild_id, (catalog, overlay, version), self.MAX_OVERLAYS)
        return overlay

    async def every_glossary(self, guild_ids: Iterable[int]) -> AsyncIterator[Glossary]:
        """Each of these servers' terms in service, as `prepare` makes them (from memory when current; else read,
        without keeping them in memory); servers without terms are skipped. Raises what the database raises."""
        for guild_id in guild_ids:
            catalog = self.catalog.current
            found = self._overlays.get(guild_id)
            if found is not None and found[0] is catalog:
                overlay = found[1]
            else:
                rows = await self.store.terms(guild_id)
                overlay = await asyncio.to_thread(_overlay, catalog, rows, [], guild_id) if rows else None
            if overlay is not None and len(overlay.glossary):
                yield overlay.glossary

    # -- editing ------------------------------------------------------------------------------------------
    async def save(
        self, guild_id: int, user_id: int, fields: TermFields, *, previous_id: str | None = None
    ) -> Saved | Refused:
        """Define a term (or replace `previous_id`), if `check` finds nothing wrong. Then it answers at once, and
        the server's open gaps it answers are resolved. An id another editor took meanwhile is never overwritten:
        the fields are checked again against what is there now."""
        for _ in range(3):
            term = await self.check(guild_id, fields, previous_id=previous_id)
            if isinstance(term, Refused):
                return term
            at = self.clock().isoformat(timespec="seconds")
            # Only the write waits as long as the reply may (DatabaseBusy, with nothing saved): the rebuild may not.
            write = partial(self.store.save, guild_id, term.id, fields.to_dict(), user_id, at)
            written = await within_reply_wait(partial(write, previous_id=previous_id))
            self.forget_cached(guild_id)
            if written:
                break
        else:
            return Refused((problem(said("term_save_race")),))
        overlay = await self.prepare(guild_id)
        resolved = await resolve_answered(overlay.index, self.gaps, guild_id=guild_id) if overlay else []
        return Saved((overlay.glossary.get(term.id) if overlay else None) or term, len(resolved))

    async def check(self, guild_id: int, fields: TermFields, *, previous_id: str | None = None) -> Term | Refused:
        """The term the fields make, checked by the term files' own rules, with no spelling taken by another
        published or server term and related terms that exist; or every problem found."""
        term = server_terms.check(fields)
        if isinstance(term, list):
            return Refused(tuple(term))
        overlay = await self.prepare(guild_id)
        taken = _taken(self.catalog.index, term) or (overlay and _taken(overlay.index, term, but=previous_id))
        if not taken and overlay is not None:
            aliased = next((overlay.alias(s) for s in term.spellings() if overlay.alias(s)), None)
            taken = (self.catalog.glossary.get(aliased), term.term) if aliased else None
        if taken:
            return Refused(
                (problem(said("name_taken", spelling=taken[1], term=taken[0].term)),),
                taken[0],
                taken[1],
                overlay is not None and overlay.glossary.get(taken[0].id) is taken[0],
            )
        unknown = [name for name in fields.related_list() if _resolve(name, self.catalog.index, overlay) is None]
        if unknown:
            names = Joined([f"«{n}»" for n in unknown])
            return Refused((problem(said("related_not_terms", names=names)),))
        related = [neutral_markup(self._name_of(r, overlay)) for r in fields.related_list()]  # (as `Overlay.card`)
        size = card_text(
            term, related, footer(self.catalog.glossary.title, self.catalog.glossary.subtitle), attributed=True
        ).length()
        if size > EMBED_TOTAL:
            return Refused((problem(said("server_card_too_long", size=size, limit=EMBED_TOTAL)),))
        return replace(term, id=await self._free_id(guild_id, term, overlay, previous_id))

    def _name_of(self, name: str, overlay: Overlay | None) -> str:
        """A related term's name as its card shows it (the name typed, if it resolves to nothing)."""
        term_id = _resolve(name, self.catalog.index, overlay)
        found = self.catalog.glossary.get(term_id) if term_id else None
        if found is None and term_id and overlay is not None:
            found = overlay.glossary.get(term_id)
        return found.term if found is not None else name

    async def _free_id(self, guild_id: int, term: Term, overlay: Overlay | None, previous_id: str | None) -> str:
        """The term's id: its name's slug, numbered when another term already has it (names alike in their first
        72 characters) so that no save overwrites another term. An edit keeps its id when its slug is the same;
        a retired term of the same name is brought back under its own id (its history goes on)."""
        name = normalize(term.term)
        for candidate in numbered_slugs(term.id):
            if candidate == previous_id:
                return candidate
            if self.catalog.glossary.get(candidate) is not None:
                continue
            if overlay is not None and overlay.glossary.get(candidate) is not None:
                continue
            row = await self.store.get(guild_id, candidate)
            if row is None or (row.retired_at is not None and normalize(row.fields.get("term", "")) == name):
                return candidate
        raise AssertionError("unreachable: numbered_slugs never ends")

    async def accept_alias(self, guild_id: int, user_id: int, qhash: str, term_id: str) -> tuple[str, Term] | None:
        """Members picked `term_id` for the question with handle `qhash`: its spelling becomes an alias of that
        term in this server (`add_alias`), and the proposal is settled. None when there is no such proposal (a
        forged or settled one) or the alias cannot be added."""
        suggestions = await self.gaps.proposals(guild_id, 1000)
        suggestion = next((s for s in suggestions if s.term_id == term_id and query_hash(s.normalized) == qhash), None)
        if suggestion is None:
            return None
        term = await self.add_alias(guild_id, user_id, suggestion.sample, term_id)
        if term is None:
            return None
        await self.gaps.drop_proposals(guild_id, suggestion.normalized)
        return suggestion.sample, term

    async def add_alias(self, guild_id: int, user_id: int, spelling: str, term_id: str) -> Term | None:
        """`spelling` answers with `term_id` in this server from now on: a new version of a server term, or a
        server alias of a published one; the open gaps asked that way are resolved. None when the term is gone or
        the spelling is another term's own name."""
        overlay = await self.prepare(guild_id)
        own = overlay.glossary.get(term_id) if overlay else None
        published = self.catalog.glossary.get(term_id)
        normalized = normalize(spelling)
        if (own is None and published is None) or not normalized:
            return None
        row = await self.store.get(guild_id, term_id) if own is not None else None
        if own is not None and row is None:
            return None
        if row is not None:
            fields = TermFields.from_dict(row.fields)
            saved = await self.save(
                guild_id,
                user_id,
                replace(fields, aliases=", ".join([*fields.alias_list(), spelling])),
                previous_id=term_id,
            )
            if isinstance(saved, Refused):
                return None
            term = saved.term
        else:
            already = self.catalog.index.lookup(spelling)
            if isinstance(already, Found) and already.exact and already.term.id != term_id:
                return None  # the spelling is another published term's own: it cannot name this one
            at = self.clock().isoformat(timespec="seconds")
            await within_reply_wait(lambda: self.store.add_alias(guild_id, normalized, spelling, term_id, user_id, at))
            term = published
        await self.gaps.resolve_asked_as(guild_id, normalized, term_id)
        self.forget_cached(guild_id)
        return term

    async def retire(self, guild_id: int, user_id: int, term_id: str) -> bool:
        """The term stops answering; its history stays."""
        at = self.clock().isoformat(timespec="seconds")
        done = await within_reply_wait(lambda: self.store.retire(guild_id, term_id, user_id, at))
        self.forget_cached(guild_id)
        return done

    def forget_cached(self, guild_id: int | None = None) -> None:
        """Drop a server's overlay (every server's, without one): read again from the database on next use; a read
        under way keeps what it read to itself."""
        self._stale_before = next(self._reads)
        if guild_id is None:
            self._overlays.clear()
            self._retired.clear()
        else:
            self._overlays.pop(guild_id, None)
            self._retired.pop(guild_id, None)

    async def get(self, guild_id: int, term_id: str) -> ServerTermRow | None:
        """A term of this server that is in service (None for a retired or unknown one)."""
        row = await self.store.get(guild_id, term_id)
        return row if row is not None and row.retired_at is None else None

    async def names(self, guild_id: int, current: str, *, retired: bool = False) -> list[tuple[str, str]]:
        """(id, name) of the server's terms whose name contains what was typed (for autocomplete), 25 at most, oldest
        first. From memory: the terms in service are the overlay's, the retired ones read once too; both are read
        again only after the server's terms change (`forget_cached`) or, for the overlay, a reload."""
        needle = normalize(current)
        # (keystrokes typed while a big server's terms are read await that read, as lookups do: `prepare`)
        overlay = await self.prepare(guild_id)
        stored: Iterable[StoredName] = overlay.stored_names if overlay is not None else ()
        if retired:
            stored = heapq.merge(stored, await self._retired_names(guild_id), key=StoredName.order)
        # By id: a term retired between the two reads is in both, and is offered once (a choice per term). A term
        # whose id a hand edit made unusable cannot be named by a choice: fixed with sqlite3, as the log says.
        offered: dict[str, str] = {}
        for n in stored:
            if needle in n.normalized and n.term_id not in offered and server_terms.usable_id(n.term_id):
                offered[n.term_id] = n.name
                if len(offered) == 25:
                    break
        return list(offered.items())

    async def _retired_names(self, guild_id: int) -> tuple[StoredName, ...]:
        """The names of the server's retired terms, in the store's order (read on first use, then kept; one read
        at a time, as `prepare`'s)."""
        if not guild_id:
            return ()
        found = self._retired.get(guild_id)
        if found is not None:
            self._retired.move_to_end(guild_id)
            return found
        return await self._read_once(self._retired_reads, guild_id, self._read_retired)

    async def _read_retired(self, guild_id: int, version: int) -> tuple[StoredName, ...]:
        try:
            rows = [row for row in await self.store.terms(guild_id, retired=True) if row.retired_at is not None]
        except Exception:  # (as `prepare`: the names in service are still offered)
            log.warning("could not read the retired terms of guild %s", guild_id, exc_info=True)
            return ()
        # Normalising thousands of names takes a few milliseconds: off the event loop, as `prepare` builds overlays.
        names = tuple(await asyncio.to_thread(lambda: [StoredName.of(row) for row in rows])) if rows else ()
        if version < self._stale_before:  # (read before the terms changed: good for this keystroke only)
            return names
        return keep_recent(self._retired, guild_id, names, self.MAX_OVERLAYS)

    async def history(self, guild_id: int, term_id: str) -> list[ServerTermVersion]:
        return await self.store.versions(guild_id, term_id)

    async def export(self, guild_id: int) -> tuple[str, int]:
        """The server's terms in service as a term file in the published format (related terms by their
        names), and how many: added to glossary_data/, `glosario-bot validate` accepts it as it is."""
        overlay = await self.prepare(guild_id)
        if overlay is None:
            return server_terms.term_file([]), 0
        both = Layered(self.catalog.glossary, overlay.glossary)
        entries = []
        rows = {row.term_id: row for row in await self.store.terms(guild_id)}
        for term in overlay.glossary.terms:
            fields = TermFields.from_dict(rows[term.id].fields)
            names = [named.term for i in term.related if (named := both.get(i)) is not None]
            entries.append(server_terms.entry(fields, names))
        # Thousands of terms take a moment to write as YAML: in a worker thread.
        return await asyncio.to_thread(server_terms.term_file, entries), len(entries)


def _taken(index: SearchIndex, term: Term, *, but: str | None = None) -> tuple[Term, str] | None:
    """The term (other than `but`) that one of `term`'s spellings already names exactly, with that spelling."""
    for spelling in term.spellings():
        found = index.exact(spelling)
        if found is not None and found.id != but:
            return found, spelling
    return None


def _resolve(name: str, published: SearchIndex, overlay: Overlay | None) -> str | None:
    found = published.exact(name) or (overlay.index.exact(name) if overlay else None)
    return found.id if found else None


def _overlay(
    published: Catalog, rows: list[ServerTermRow], accepted: list[ServerAlias], guild_id: int, version: int = 0
) -> Overlay:
    """A server's overlay: its terms (checked again, as the term files are at every load), those a published term
    with the same name now replaces set aside, related names resolved, one small index."""
    aliases = {}
    for alias in accepted:
        if published.glossary.get(alias.term_id) is not None:  # (a term a reload removed takes its aliases along)
            aliases[alias.normalized] = aliases[compact(alias.normalized)] = alias.term_id
    checked = server_terms.check_many([TermFields.from_dict(row.fields) for row in rows])
    terms: list[Term] = []
    superseded: list[str] = []
    set_aside: list[str] = []
    by_id: dict[str, ServerTermRow] = {}
    for row, term in zip(rows, checked, strict=True):
        if isinstance(term, list):  # stored before a rule changed: set aside, never served half-checked
            log.warning("server term %r of guild %s no longer passes validation", row.term_id, guild_id)
            set_aside.append(StoredName.of(row).name)
        elif not server_terms.usable_id(row.term_id):  # (a hand edit: its card's buttons could not carry it)
            odd_row("server_terms", "its id is not one this version makes: set aside", guild=guild_id, term=row.term_id)
            set_aside.append(term.term)
        elif _taken(published.index, term) is not None or published.glossary.get(row.term_id) is not None:
            superseded.append(term.term)
        elif row.term_id not in by_id:
            term = replace(term, id=row.term_id)  # the id it was saved under (numbered when names were alike)
            terms.append(term)
            by_id[term.id] = row
    own = {normalize(spelling): t.id for t in terms for spelling in t.spellings()}
    linked = tuple(_with_related(t, by_id[t.id], published.index, own) for t in terms)
    meta = published.glossary
    glossary = Glossary(meta.title, meta.subtitle, meta.language, linked)
    authors = {term_id: Author(row.author_id, row.created_at) for term_id, row in by_id.items()}
    stored_names = tuple(StoredName.of(row) for row in rows)
    key = question_key(glossary, published.glossary)
    return Overlay(
        glossary,
        SearchIndex(glossary),
        authors,
        tuple(superseded),
        aliases,
        tuple(set_aside),
        guild_id,
        version,
        stored_names,
        key,
    )


def _with_related(term: Term, row: ServerTermRow, published: SearchIndex, own: dict[str, str]) -> Term:
    ids = []
    for name in TermFields.from_dict(row.fields).related_list():
        found = published.exact(name)
        target = found.id if found else own.get(normalize(name))
        if target is not None and target != term.id:
            ids.append(target)
    source = server_terms.term_source(row.guild_id)
    return Term(
        term.id,
        term.term,
        term.definition,
        term.category,
        term.en,
        term.aliases,
        tuple(dict.fromkeys(ids)),
        term.links,
        source,
    )
