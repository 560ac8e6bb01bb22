"""Reloading the published glossary, and closing the gaps it now answers (also from the command line)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot import heap
from bot.app.catalog import Catalog, CatalogHolder, load_catalog
from bot.core.errors import GlossaryError
from bot.core.model import GlossaryDiff, diff
from bot.core.search import Found, SearchIndex
from bot.core.status import GapStatus
from bot.storage.errors import StorageError
from bot.storage.interfaces import GapStore, MetaStore
from bot.storage.records import Gap

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReloadReport:
    catalog: Catalog
    changes: GlossaryDiff
    resolved: tuple[tuple[Gap, str], ...]  # (gap, the term that now answers it)


RESOLVE_PAGE = 2000  # open gaps read and looked up at a time when a new glossary may answer them


async def resolve_answered(index: SearchIndex, gaps: GapStore, *, guild_id: int | None = None) -> list[tuple[Gap, str]]:
    """Mark every open gap that `index` now answers with confidence as resolved, naming its term (one update
    per term and page). Returns what was resolved. The open gaps are read a page at a time (never all at once),
    and each page is looked up in a worker thread, so that replies go on meanwhile."""
    resolved: list[tuple[Gap, str]] = []
    after = 0
    while page := await gaps.open_after(after, RESOLVE_PAGE, guild_id=guild_id):
        after = page[-1].id
        answered = await asyncio.to_thread(_answered, index, page)
        by_term: dict[str, list[int]] = {}
        for gap, term_id in answered:
            by_term.setdefault(term_id, []).append(gap.id)
        for term_id, ids in by_term.items():
            await gaps.set_status(ids, GapStatus.RESOLVED, term_id=term_id)
        resolved += answered
    return resolved


def _load_warm(data_dir: Path, cache_dir: Path | None) -> Catalog:
    """A reloaded glossary, its index warmed (`SearchIndex.warm`) in the same worker thread, before it serves."""
    catalog = load_catalog(data_dir, cache_dir)
    catalog.index.warm()
    return catalog


def _answered(index: SearchIndex, open_gaps: list[Gap]) -> list[tuple[Gap, str]]:
    found = ((gap, index.lookup(gap.sample)) for gap in open_gaps)
    return [(gap, result.term.id) for gap, result in found if isinstance(result, Found)]


RELOAD_CHECK_EVERY = 10.0  # seconds between two looks at whether another process reloaded
RELOADED_KEY = "glossary_reloaded"  # meta: the last reload asked of any process (a token), seen by the others


class GlossaryService:
    def __init__(
        self, holder: CatalogHolder, gaps: GapStore, data_dir: Path, cache_dir: Path | None, meta: MetaStore
    ) -> None:
        self.holder, self.gaps, self.data_dir, self.cache_dir = holder, gaps, data_dir, cache_dir
        self.meta = meta
        self._seen: str | None = None  # the last reload token this process acted on (or found at start)
        # Told of each glossary swapped in (the question path builds its index of it): called on the event loop.
        self.reloaded: list[Callable[[Catalog], None]] = []

    async def start(self) -> None:
        self._seen = await self.meta.get_meta(RELOADED_KEY)

    async def follow_others(self) -> ReloadReport | GlossaryError | None:
        """Reload when another process sharing the database reloaded since we last looked (a SIGHUP or
        `/glosario-admin recargar` there): every process serves the same glossary. Checked every
        RELOAD_CHECK_EVERY by the running bot. None when there was nothing to do."""
        token = await self.meta.get_meta(RELOADED_KEY)
        if token is None or token == self._seen:
            return None
        self._seen = token
        log.info("another process reloaded the glossary: reloading here too")
        return await self.reload(tell_others=False)

    async def reload(self, *, tell_others: bool = True) -> ReloadReport | GlossaryError:
        """Load the glossary again, off the event loop; swap it in only if it is valid, then resolve the open
        gaps the new glossary answers, and (unless it follows another's) tell the other processes to reload.
        An invalid glossary is returned as its error: the last good one serves on."""
        report = await self._reload()
        if tell_others and not isinstance(report, GlossaryError):
            self._seen = f"{time.time_ns()}-{os.getpid()}"
            try:
                await self.meta.set_meta(RELOADED_KEY, self._seen)
            except StorageError:
                log.warning("could not tell the other processes to reload (the database is busy)", exc_info=True)
        return report

    async def _reload(self) -> ReloadReport | GlossaryError:
        old = self.holder.current
        try:
            catalog = await asyncio.to_thread(_load_warm, self.data_dir, self.cache_dir)
        except GlossaryError as exc:
            log.error(
                "glossary reload failed; still serving the previous one (%d terms):\n%s",
                len(old.glossary),
                exc.report(),
            )
            return exc
        self.holder.current = catalog
        for listener in self.reloaded:
            listener(catalog)
        changes = diff(old.glossary, catalog.glossary)
        del old
        heap.settle()  # the new glossary out of the collector's way, the old one back in it to be freed
        resolved = await resolve_answered(catalog.index, self.gaps)
        log.info(
            "glossary reloaded: %d terms (+%d -%d ~%d), %d gap(s) now answered",
            len(catalog.glossary),
            len(changes.added),
            len(changes.removed),
            len(changes.changed),
            len(resolved),
        )
        return ReloadReport(catalog, changes, tuple(resolved))
