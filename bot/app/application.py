"""The application: the product's actions over the glossary in service and the stores, with no Discord in it.
Built once from the settings; the Discord client, the command line and the scheduler all call it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.app.background import outliving_errors, start_background
from bot.app.catalog import Catalog, CatalogHolder
from bot.app.community.editors import EditorRoles
from bot.app.community.proposals import Proposals
from bot.app.community.server_terms import ServerTerms
from bot.app.daily.posts import DailyPosts
from bot.app.feedback.votes import Feedback
from bot.app.glossary import GlossaryService
from bot.app.health import clear_heartbeat, write_heartbeat
from bot.app.insights.digest import Digests
from bot.app.insights.statistics import Statistics, server_statistics
from bot.app.lookup.lookups import Lookups
from bot.app.privacy.erasure import Erasure
from bot.app.review.gaps import GapReview
from bot.config import Settings
from bot.core.model import Glossary
from bot.storage import Stores, open_stores
from bot.storage.records import (
    CommentRecord,
    GapRecord,
    LookupCountsRecord,
    LookupRecord,
    SuggestionChoiceRecord,
    UnloggedRecord,
    VoteRecord,
    WriteRecord,
)
from bot.storage.writer import Handler, WriteQueue

if TYPE_CHECKING:
    from bot.app.questions.service import Questions

log = logging.getLogger(__name__)
# The most a SIGKILL can take of the lookup counters (stated in docs/privacy.md, "What can be lost, and when").
LOOKUP_FLUSH_SECONDS = 1.0


def utc_now() -> datetime:
    return datetime.now(UTC)


def write_handlers(stores: Stores) -> dict[type[WriteRecord], Handler]:
    """Which store writes each kind of write record (the bot's write queue, and `glosario-bot replay-log`)."""
    gaps = stores.gaps
    return {
        GapRecord: gaps.record_gaps,
        SuggestionChoiceRecord: gaps.record_picks,
        LookupRecord: stores.usage.record_lookups,
        LookupCountsRecord: stores.usage.record_lookup_counts,
        UnloggedRecord: gaps.record_unlogged,
        VoteRecord: stores.feedback.record_votes,
        CommentRecord: stores.feedback.record_comments,
    }


class Application:
    def __init__(
        self,
        settings: Settings,
        catalog: Catalog,
        stores: Stores,
        salt: str,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.settings, self.stores, self.clock = settings, stores, clock
        self.catalog = CatalogHolder(catalog)
        gaps = stores.gaps
        self.writer = WriteQueue(
            write_handlers(stores),
            settings.journal_file,
            unit=stores.unit,
            applied=stores.applied,
            forgotten=stores.erasure,
            rejected=settings.rejected_file,
            others=settings.other_journals(),
            fallback=settings.fallback_journal,
        )
        self.server_terms = ServerTerms(stores.server_terms, self.catalog, gaps, clock)
        self.lookups = Lookups(self.catalog, self.writer, salt, clock, server_terms=self.server_terms)
        self.proposals = Proposals(stores.proposals, self.server_terms, clock)
        self.feedback = Feedback(stores.feedback, self.catalog, self.server_terms, self.writer, salt, clock)
        self.digests = Digests(stores.digests, stores.usage, gaps, stores.proposals, clock, self.feedback)
        self.glossary = GlossaryService(self.catalog, gaps, settings.data_dir, settings.cache_dir, stores.meta)
        self.glossary.reloaded.append(self._questions_follow)
        self.review = GapReview(gaps, self.catalog, self.server_terms, self.feedback)
        self.daily = DailyPosts(stores.daily, self.catalog, clock, self.server_terms)
        self.roles = EditorRoles(stores.roles)  # (kept in memory: asked at every interaction of a non-moderator)
        self.erasure = Erasure(
            stores.erasure,
            salt,
            settings.journal_files,
            clock,
            grace=timedelta(days=settings.forget_guild_after_days),
            writer=self.writer,
            proposals=self.proposals,
            server_terms=self.server_terms,
            roles=self.roles,
            applied=stores.applied,
            lookups=self.lookups,
            feedback=self.feedback,
            questions=lambda: self.questions,
        )
        self._flusher: asyncio.Task[None] | None = None
        self.questions_ready = False  # the question path (its model) loads in the background after start
        self.questions_loading = False  # …and is loading now (False once ready, and when off or it failed to load)
        self._background: set[asyncio.Task] = set()

    @classmethod
    async def open(cls, settings: Settings, catalog: Catalog, clock: Callable[[], datetime] = utc_now) -> Application:
        """Open (and migrate) the database named by the settings. Raises StorageError."""
        stores = await open_stores(settings.database)
        try:
            await stores.applied.prune()
            return cls(settings, catalog, stores, await stores.meta.salt(), clock)
        except BaseException:
            await stores.close()
            raise

    @functools.cached_property
    def questions(self) -> Questions:
        """Questions in one's own words (bot/app/questions/service.py). Imported on first use: numpy and the model stay
        out of a start that never asks; `await app.questions.prepare()` builds the index and loads the model."""
        from bot.app.questions.service import Questions

        return Questions(self.catalog, self.settings.cache_dir)

    async def start(self) -> None:
        """Replay what a previous run journaled, then start writing and counting; with the question path on, start
        loading it in the background (names are answered meanwhile: `questions_ready` says when it is in)."""
        await self.writer.start()
        await self.proposals.start()
        await self.glossary.start()
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush_counts(), name="glosario-lookup-counts")
        if self.settings.questions and not self._background:
            self.questions_loading = True
            start_background(self._background, self._prepare_questions(), "glosario-questions")

    async def _prepare_questions(self) -> None:
        """Load the question path off the event loop (numpy and the model are imported in a worker thread), then
        let questions in; a failure leaves the bot answering names only, and says why in the log."""
        try:
            questions = await asyncio.to_thread(lambda: self.questions)
            if not await questions.prepare():  # stopped: the application is closing
                return
        except Exception:
            log.exception("the question path could not be loaded: only names are answered")
            return
        finally:
            self.questions_loading = False
        self.questions_ready = True
        log.info("question path ready")

    def _questions_follow(self, catalog: Catalog) -> None:
        """A glossary reloaded while the question path serves: its index is built in the background, as at start
        (a child process for a large glossary), the last one answering questions meanwhile."""
        if self.questions_ready:
            start_background(self._background, self._rebuild_questions(len(catalog.glossary)), "glosario-reindex")

    async def _rebuild_questions(self, terms: int) -> None:
        started = time.monotonic()
        try:
            if await self.questions.prepare():
                log.info(
                    "question index of the reloaded glossary ready (%d terms, %.1f s)",
                    terms,
                    time.monotonic() - started,
                )
        except Exception:
            log.exception("the question index of the reloaded glossary could not be built: the next question builds it")

    async def _flush_counts(self) -> None:
        while True:
            await asyncio.sleep(LOOKUP_FLUSH_SECONDS)
            await outliving_errors("lookup counters", self._flush_now)

    async def _flush_now(self) -> None:
        self.lookups.flush()

    async def statistics(self, guild_id: int) -> Statistics:
        """A server's figures, its own terms included (and those a published term now replaces, named), with what
        its members said of the definitions (the least helpful terms, the latest comments)."""
        published = self.catalog.glossary
        overlay = await self.server_terms.prepare(guild_id)
        glossary = published
        if overlay is not None:
            terms = (*published.terms, *overlay.glossary.terms)
            glossary = Glossary(published.title, published.subtitle, published.language, terms)
        stats = await server_statistics(glossary, self.stores.usage, self.stores.gaps, guild_id, self.clock())
        feedback = await self.feedback.least_helpful(guild_id), await self.feedback.comments(guild_id)
        stats = replace(stats, least_helpful=feedback[0], comments=feedback[1])
        return replace(stats, superseded=overlay.superseded, set_aside=overlay.set_aside) if overlay else stats

    def beat(self, shards: dict[int, bool] | None = None) -> None:
        """Record that the bot is running right now, and which of its shards are connected to Discord (read by
        `glosario-bot health`)."""
        try:
            write_heartbeat(self.settings.heartbeat_file, self.clock(), self.stores.identity, shards)
            if not self.stores.still_the_same():
                log.error("the database %s is no longer the file the bot opened: restart the bot", self.stores.location)
        except OSError:
            log.warning("could not write the heartbeat file", exc_info=True)

    async def close(self, grace: float = 3.0) -> list[str]:
        """Stop counting, write (or journal) everything queued, close the database. Every step is tried whatever
        the others did; returns what could not be done (empty when all went well)."""
        problems: list[str] = []
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
            self._flusher = None
        steps = (
            ("queue the lookup counters", self.lookups.flush),
            ("remove the heartbeat file", lambda: clear_heartbeat(self.settings.heartbeat_file)),
        )
        for what, step in steps:
            try:
                step()
            except Exception as exc:
                problems.append(f"could not {what}: {exc}")
                log.error("shutdown: could not %s: %s", what, exc)
        questions = self.__dict__.get("questions")  # (only if the question path was ever used)
        if questions is not None:
            try:
                await questions.close()  # a first index build stops between two batches, its progress kept
            except Exception as exc:
                problems.append(f"could not stop the question index build: {exc}")
                log.error("shutdown: could not stop the question index build: %s", exc)
        for task in list(self._background):  # (a build told to stop returns at once; this is for a stuck import)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        lost = await self.writer.close(grace=grace)
        if lost:
            problems.append(f"{lost} write(s) saved only in this log")
        if self.writer.journaled:  # the database refused them: the next start replays them
            problems.append(f"{self.writer.journaled} write(s) journaled, not in the database yet")
        try:
            await self.stores.close()
        except Exception as exc:
            problems.append(f"could not close the database: {exc}")
            log.error("shutdown: could not close the database %s: %s", self.stores.location, exc)
        return problems
