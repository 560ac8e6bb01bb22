"""Forgetting on request, as Discord's Developer Terms and Policy ask of an app that keeps data about people: a
member (the command line's `forget-user`, and the member's own `/glosario olvidarme`) or a server (`forget-guild`,
and a server that removed the bot, once its grace period is over). One action for every surface, over the rows of the
database, the write records still queued in this process and those in the journals on disk, what this process holds
in memory of the member or the server, and (a server) its terms' vectors in the question path's cache folder. The
database keeps who was forgotten and when (their salted hash, or the server's id): no write made before that comes
back later, from a log, a journal or another process's queue (bot.storage.forgotten)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.core.gaps import asker_hash
from bot.storage.erasure import ANONYMOUS
from bot.storage.interfaces import AppliedLog, ErasureStore
from bot.storage.journal import scrub_journals
from bot.storage.records import Erased

if TYPE_CHECKING:
    from bot.app.community.editors import EditorRoles
    from bot.app.community.proposals import Proposals
    from bot.app.community.server_terms import ServerTerms
    from bot.app.feedback.votes import Feedback
    from bot.app.lookup.lookups import Lookups
    from bot.app.questions.service import Questions
    from bot.storage.writer import WriteQueue

log = logging.getLogger(__name__)
DRAIN_WAIT = 5.0  # seconds to let the write queue finish a batch that may name who is being forgotten
CHECK_DEPARTURES_EVERY = 3600.0  # seconds between looks for servers whose grace period is over
Names = Callable[[dict[str, Any]], bool]  # whether a write record (as journaled) names who is being forgotten


class Erasure:
    def __init__(
        self,
        store: ErasureStore,
        salt: str | None,
        journals: Callable[[], Sequence[Path]],
        clock: Callable[[], datetime],
        *,
        grace: timedelta,
        writer: WriteQueue | None = None,
        proposals: Proposals | None = None,
        server_terms: ServerTerms | None = None,
        roles: EditorRoles | None = None,
        applied: AppliedLog | None = None,
        lookups: Lookups | None = None,
        feedback: Feedback | None = None,
        questions: Callable[[], Questions] | None = None,
    ) -> None:
        self.store, self.salt, self.journals, self.clock, self.grace = store, salt, journals, clock, grace
        # (in the bot's process: its queue and what it keeps in memory; the command line has none of them)
        self.writer, self.proposals, self.server_terms, self.applied = writer, proposals, server_terms, applied
        self.lookups, self.feedback, self.roles = lookups, feedback, roles
        # The question path (made on first use: numpy and the model's code), whose cache folder keeps the vectors of
        # every server's terms; with `server_terms`, forgetting a server drops those only it used.
        self.questions = questions

    async def forget_member(self, user_id: int, *, dry_run: bool = False) -> Erased:
        """Everything that names a member, in every server: their proposals removed (and with them the outcomes
        waiting to be told), their asker hashes removed (the gaps' counts stay: they name nobody), their id on
        server terms, versions, aliases and decisions replaced by ANONYMOUS ("un miembro")."""
        if user_id == ANONYMOUS:  # nobody is named by it
            return Erased({})
        asker = asker_hash(self.salt, user_id) if self.salt else None

        def names(record: dict[str, Any]) -> bool:
            return asker is not None and asker in record.values()

        erased = await self._forget(
            names, lambda: self.store.forget_member(user_id, asker, at=self._now(), dry_run=dry_run), dry_run
        )
        if not dry_run:
            log.info("forgot a member on request: %d row(s), %d pending write(s)", erased.total, erased.journaled)
            if self.proposals is not None:
                self.proposals.to_tell.discard(user_id)
            for memory in (self.lookups, self.feedback):
                if memory is not None:
                    memory.forget_member(user_id)  # their hourly budgets, their "No era esto"
            if self.server_terms is not None:
                self.server_terms.forget_cached()  # their terms' cards say "un miembro" from now on
        return erased

    async def forget_server(self, guild_id: int, *, dry_run: bool = False) -> Erased:
        """Every row of a server, in every table, and its pending writes; what this process holds of it in memory,
        and the vectors of its terms in the question path's cache folder that no other server's terms use."""
        erased = await self._forget_server(guild_id, dry_run)
        if not dry_run:
            await self._forget_vectors([guild_id])
        return erased

    async def _forget_server(self, guild_id: int, dry_run: bool) -> Erased:
        def names(record: dict[str, Any]) -> bool:
            return record.get("guild_id") == guild_id

        if not dry_run and self.lookups is not None:
            # Before the queue is cleared: its lookup counts, handed to the queue every second, would otherwise be
            # handed over after it, and written once the rows are gone.
            self.lookups.forget_server(guild_id)
        erased = await self._forget(
            names, lambda: self.store.forget_server(guild_id, at=self._now(), dry_run=dry_run), dry_run
        )
        if not dry_run:
            log.info("forgot guild %s: %d row(s)", guild_id, erased.total)
            if self.server_terms is not None:
                self.server_terms.forget_cached(guild_id)
            if self.roles is not None:
                self.roles.forget(guild_id)
        return erased

    async def _forget_vectors(self, guild_ids: Sequence[int]) -> None:
        """The question path's: these servers' indexes out of memory (a build of one stopped, and waited for: what
        it embedded is saved as it stops), then the servers' vector file (one for all servers, by text hash, naming
        none) kept to the vectors of the servers whose terms remain: a text one of them shares keeps its vector (a
        term saved meanwhile may lose its own: embedded again when next needed)."""
        if self.questions is None or self.server_terms is None:
            return
        try:
            questions = await asyncio.to_thread(self.questions)  # (imports numpy the first time)
            await questions.forget_servers(guild_ids)
            if not questions.server_vectors_kept():
                return
            texts: list[str] = []
            async for glossary in self.server_terms.every_glossary(sorted(await self.store.guilds())):
                texts += await asyncio.to_thread(questions.server_texts, glossary)
            dropped = await asyncio.to_thread(questions.keep_server_vectors, texts)
        except Exception:  # (the database or the disk): the rows are gone; the next erasure drops the vectors
            log.warning("could not drop the forgotten servers' vectors from the question cache", exc_info=True)
            return
        log.info("question cache: %d vector(s) of terms no server has any more dropped", dropped)

    async def _forget(self, names: Names, erase: Callable[[], Awaitable[Erased]], dry_run: bool) -> Erased:
        """The queue first (nothing waiting there may write the data back), then the journals (a replay in progress
        is waited for: its records end up in the database), then the database, which notes who was forgotten and
        when (the time is taken then: what another process queued until that moment is not written back)."""
        dropped = 0
        if self.writer is not None and not dry_run:
            dropped = self.writer.forget(names)
            try:
                await asyncio.wait_for(self.writer.drain(), DRAIN_WAIT)  # the batch being written now
            except TimeoutError:
                log.warning("the write queue did not drain in %.0f s; forgetting anyway", DRAIN_WAIT)
        journaled = await asyncio.to_thread(scrub_journals, self.journals(), names, dry_run=dry_run)
        erased = await erase()
        return replace(erased, journaled=dropped + journaled)

    # -- the servers that removed the bot -----------------------------------------------------------------
    async def left(self, guild_id: int) -> None:
        """The bot was removed from a server: its data goes once the grace period is over, unless it comes back."""
        await self.store.left(guild_id, self._now())
        log.info(
            "removed from guild %s: its data is forgotten in %s unless the bot is added back", guild_id, self.grace
        )

    async def returned(self, guild_id: int) -> None:
        if await self.store.returned(guild_id):
            log.info("added back to guild %s within the grace period: its data stays", guild_id)

    async def forget_departed(self, owns: Callable[[int], bool], present: Callable[[int], bool]) -> list[int]:
        """Forget the servers (of those this process `owns`) that removed the bot longer than the grace period
        ago; one the bot is `present` in again (added back while it was not running) keeps its data."""
        await self._note_unnoticed(owns, present)
        forgotten = []
        for guild_id in await self.store.departed((self.clock() - self.grace).isoformat(timespec="seconds")):
            if not owns(guild_id):
                continue
            if present(guild_id):
                await self.returned(guild_id)
                continue
            await self._forget_server(guild_id, dry_run=False)
            forgotten.append(guild_id)
        if forgotten:
            await self._forget_vectors(forgotten)  # (once for them all: it reads every server's terms)
        return forgotten

    async def prune(self) -> None:
        """Remove what is kept for a while once its while is over: the ids of the writes applied (60 days; a bot
        that runs for months must not keep them longer than one that restarts)."""
        if self.applied is not None:
            await self.applied.prune()

    async def _note_unnoticed(self, owns: Callable[[int], bool], present: Callable[[int], bool]) -> None:
        """A server whose data is here but the bot is not in removed it while no process was running (Discord does
        not say so afterwards): its grace period starts now."""
        noted = set(await self.store.departed("9999"))
        for guild_id in sorted(await self.store.guilds() - noted):
            if owns(guild_id) and not present(guild_id):
                log.info("not in guild %s, which has data here: taken as removed now", guild_id)
                await self.store.left(guild_id, self._now())

    def _now(self) -> str:
        return self.clock().isoformat(timespec="seconds")

    # -- the confirmation button's signature ----------------------------------------------------------------
    def sign(self, user_id: int) -> str:
        """A short signature of "forget this member", keyed with the installation's salt: a button the bot made."""
        key = (self.salt or "").encode()[:32]
        return hashlib.blake2s(f"forget:{user_id}".encode(), key=key, digest_size=6).hexdigest()

    def signed(self, user_id: int, signature: str) -> bool:
        return hmac.compare_digest(self.sign(user_id), signature)
