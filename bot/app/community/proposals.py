"""Members propose terms; the server's editors publish them (as server terms, optionally edited first) or reject
them with a reason. A proposal never answers lookups. The proposer is told the outcome: by the surface, at once
if it can, else the next time they use the bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime

from bot.app.community.server_terms import Refused, Saved, ServerTerms, problem
from bot.core.problems import said
from bot.core.server_terms import TermFields
from bot.core.status import ProposalStatus
from bot.storage.errors import within_reply_wait
from bot.storage.interfaces import ProposalStore
from bot.storage.records import ProposalRow

log = logging.getLogger(__name__)
MAX_PENDING_PER_MEMBER = 5  # one member cannot flood the editors' list


@dataclass(frozen=True)
class Proposed:
    proposal: ProposalRow


class Proposals:
    def __init__(self, store: ProposalStore, terms: ServerTerms, clock: Callable[[], datetime]) -> None:
        self.store, self.terms, self.clock = store, terms, clock
        self.to_tell: set[int] = set()  # members with an outcome they have not been told (loaded by `start`)
        self._deciding: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()

    async def start(self) -> None:
        try:
            self.to_tell = await self.store.waiting_to_be_told()
        except Exception:  # the bot serves without it; the outcomes are told when the next decision is made
            log.warning("could not read which members await a proposal's outcome", exc_info=True)

    async def enabled(self, guild_id: int) -> bool:
        return await self.store.enabled(guild_id)

    async def set_enabled(self, guild_id: int, enabled: bool) -> None:
        await self.store.set_enabled(guild_id, enabled)

    async def propose(self, guild_id: int, user_id: int, locale: str, fields: TermFields) -> Proposed | Refused:
        """A member's proposal, checked as a server term would be (so that it can be published as it is)."""
        term = await self.terms.check(guild_id, fields)
        if isinstance(term, Refused):
            return term
        at = self.clock().isoformat(timespec="seconds")
        limit = MAX_PENDING_PER_MEMBER  # enforced by the store, in the same transaction as the insert
        proposal_id = await within_reply_wait(
            lambda: self.store.add(guild_id, user_id, locale, fields.to_dict(), at, limit=limit)
        )
        if proposal_id is None:
            return Refused((problem(said("too_many_proposals", limit=limit)),))
        return Proposed(await self.store.get(guild_id, proposal_id))

    async def pending(self, guild_id: int) -> list[ProposalRow]:
        return await self.store.pending(guild_id)

    async def get(self, guild_id: int, proposal_id: int) -> ProposalRow | None:
        """A pending proposal of this server (None for another server's, a decided or an unknown one)."""
        row = await self.store.get(guild_id, proposal_id)
        return row if row is not None and row.status == ProposalStatus.PENDING else None

    async def publish(
        self, guild_id: int, proposal_id: int, editor_id: int, fields: TermFields
    ) -> Saved | Refused | None:
        """Publish a pending proposal as a server term, with the fields as the editor left them. None when it is
        no longer pending."""
        async with self._one_decision(guild_id, proposal_id):
            if await self.get(guild_id, proposal_id) is None:
                return None
            saved = await self.terms.save(guild_id, editor_id, fields)
            if isinstance(saved, Saved):
                await self._decide(guild_id, proposal_id, ProposalStatus.PUBLISHED, editor_id)
            return saved

    async def reject(self, guild_id: int, proposal_id: int, editor_id: int, reason: str) -> ProposalRow | None:
        async with self._one_decision(guild_id, proposal_id):
            decided = await self._decide(
                guild_id, proposal_id, ProposalStatus.REJECTED, editor_id, reason.strip() or None
            )
        return await self.store.get(guild_id, proposal_id) if decided else None

    @contextlib.asynccontextmanager
    async def _one_decision(self, guild_id: int, proposal_id: int) -> AsyncIterator[None]:
        """One decision at a time on a proposal: publishing saves the term before the proposal is marked, so two
        editors deciding it at once would otherwise publish it twice, or publish one it rejected. (A server's
        interactions all reach the one process that serves its shard.)"""
        key = (guild_id, proposal_id)
        lock = self._deciding.get(key)
        if lock is None:
            lock = self._deciding[key] = asyncio.Lock()  # (kept while someone holds it: weak values)
        async with lock:
            yield

    async def _decide(
        self, guild_id: int, proposal_id: int, status: ProposalStatus, editor_id: int, reason: str | None = None
    ) -> bool:
        at = self.clock().isoformat(timespec="seconds")
        done = await within_reply_wait(lambda: self.store.decide(guild_id, proposal_id, status, editor_id, at, reason))
        row = await self.store.get(guild_id, proposal_id) if done else None
        if row is not None:
            self.to_tell.add(row.user_id)
        return done

    async def untold(self, user_id: int) -> list[ProposalRow]:
        """What a member has not been told yet (cheap when there is nothing: no database read)."""
        if user_id not in self.to_tell:
            return []
        return await self.store.untold(user_id)

    async def told(self, user_id: int, rows: list[ProposalRow]) -> None:
        await self.store.told([row.id for row in rows])
        if not await self.store.untold(user_id):
            self.to_tell.discard(user_id)
