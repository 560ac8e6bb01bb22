"""The term of the day's bookkeeping: which term (recorded once per server and local date), the schedule, and
each post claimed before it is sent and marked after. A claim is a lease: if its process dies before marking the
post, another look takes it over once CLAIM_LEASE has passed. The job of a claim taken over says when the earlier
claim was made (`taken_over`): its process may have sent the post before it died, so the surface looks for it in
the channel before sending it again (with the same nonce, which Discord remembers for a few minutes only).
Sending it is the surface's job (Discord's cog)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum

from bot.app.catalog import CatalogHolder
from bot.app.community.server_terms import ServerTerms
from bot.core import daily
from bot.core.daily import DailyEntry, Schedule
from bot.core.model import Glossary, Term
from bot.core.status import DailyPostStatus
from bot.storage.errors import DatabaseBusy, within_reply_wait
from bot.storage.interfaces import DailyStore
from bot.storage.records import Claim, DailyPost, DailySettings

log = logging.getLogger(__name__)
# How long a claim holds before another look may take it over. Longer than a paced post takes from claim to
# send (one pacer slot and a request); short enough that the retry of a post that did reach Discord (its process
# died before marking it) comes within Discord's few minutes of nonce deduplication: lease + one tick ≈ 2.5 min.
CLAIM_LEASE = timedelta(minutes=2)


def lease(now: datetime) -> tuple[str, str]:
    """A claim made `now` and when it runs out (CLAIM_LEASE later), as claims are kept and compared: ISO text in
    UTC, to the second, one zone for every process. The weekly digest claims its week the same way."""
    now = now.astimezone(UTC)
    return now.isoformat(timespec="seconds"), (now + CLAIM_LEASE).isoformat(timespec="seconds")


def taken_over_at(claim: Claim) -> datetime | None:
    """When the claim that `claim` took over was made (CLAIM_LEASE before it held until), in UTC; None when it took
    none over (or that claim kept a time this version did not write: the post is sent as before)."""
    if claim.taken_over_until is None:
        return None
    try:
        until = datetime.fromisoformat(claim.taken_over_until)
    except ValueError:
        return None
    return (until if until.tzinfo else until.replace(tzinfo=UTC)).astimezone(UTC) - CLAIM_LEASE


class Problem(StrEnum):
    """Why a post could not be made."""

    CHANNEL_GONE = "channel_gone"
    MISSING_PERMISSIONS = "missing_permissions"
    DISCORD = "discord"  # Discord answered with an error
    NETWORK = "network"  # Discord could not be reached


@dataclass(frozen=True, slots=True)
class PostProblem:
    """A post's problem as it is kept: a code and its parameters, so that each moderator reads it in their own
    language (`stored` and `read` are its form in the database)."""

    problem: Problem
    channel_id: int | None = None
    permissions: tuple[str, ...] = ()  # the missing ones, by discord.py's names: "send_messages"
    status: int | None = None  # Discord's HTTP status
    text: str = ""  # Discord's own words

    def stored(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def read(cls, stored: str) -> PostProblem | None:
        """The problem kept as `stored`; None for a text an older version kept (show it as it is)."""
        try:
            fields = json.loads(stored)
            return cls(Problem(fields.pop("problem")), permissions=tuple(fields.pop("permissions", ())), **fields)
        except (ValueError, TypeError, AttributeError, KeyError):
            return None


@dataclass(frozen=True, slots=True)
class DailyStatus:
    settings: DailySettings
    schedule: Schedule
    last: DailyPost | None
    next_post: datetime | None  # None while disabled


@dataclass(frozen=True, slots=True)
class DailyPick:
    term: Term
    entry: DailyEntry
    glossary: Glossary  # what it was picked from (the published terms, and the server's own if it chose so)


@dataclass(frozen=True, slots=True)
class PostJob:
    """A post claimed for (guild, local date): nobody else makes it while the claim holds (CLAIM_LEASE); mark it
    `posted` or `failed`. `taken_over`: when the claim it took over was made (that process may have sent it)."""

    guild_id: int
    channel_id: int
    day: date
    at: str
    schedule: Schedule
    taken_over: datetime | None = None

    @property
    def nonce(self) -> str:
        """The same for every try of this post, in any process: Discord makes one message of them."""
        return daily.post_nonce(self.guild_id, self.day)


class DailyPosts:
    def __init__(
        self,
        store: DailyStore,
        catalog: CatalogHolder,
        clock: Callable[[], datetime],
        server_terms: ServerTerms | None = None,
    ) -> None:
        self.store, self.catalog, self.clock, self.server_terms = store, catalog, clock, server_terms

    async def _glossary(self, guild_id: int, settings: DailySettings | None) -> Glossary:
        """The published glossary, with the server's own terms when the server chose to include them."""
        published = self.catalog.glossary
        if settings is None or not settings.server_terms or self.server_terms is None:
            return published
        overlay = await self.server_terms.prepare(guild_id)
        if overlay is None:
            return published
        terms = (*published.terms, *overlay.glossary.terms)
        return Glossary(published.title, published.subtitle, published.language, terms)

    async def todays_term(self, guild_id: int) -> DailyPick:
        """The term of the day for this guild (the same for the command and the post), recorded once, by the
        guild's schedule (UTC for a server without one)."""
        settings = await self.store.settings(guild_id) if guild_id else None
        schedule = settings.schedule if settings else None
        glossary = await self._glossary(guild_id, settings)
        day = daily.local_date(self.clock(), schedule)
        term, cycle = daily.pick(glossary, guild_id, day, await self.store.history(guild_id))
        try:
            entry = await within_reply_wait(lambda: self.store.record_pick(guild_id, DailyEntry(day, term.id, cycle)))
        except DatabaseBusy as exc:  # the pick is deterministic: answer now, it is recorded by the next caller
            log.warning("term of the day for guild %s answered without recording it: %s", guild_id, exc)
            return DailyPick(term, DailyEntry(day, term.id, cycle), glossary)
        return DailyPick(glossary.get(entry.term_id) or term, entry, glossary)

    async def configure(
        self,
        guild_id: int,
        channel_id: int,
        schedule: Schedule,
        *,
        server_terms: bool = False,
        language: str | None = None,
    ) -> datetime:
        """Post every day (or weekday) at the schedule's time in a channel, in `language` ("es", "en"; None: the
        server's own), the server's own terms among the published ones if it wants. Returns when the next post is.
        A post that failed today is tried again: setting it up again is how a moderator fixes what it failed on."""
        await self.store.configure(guild_id, channel_id, schedule, server_terms=server_terms, language=language)
        await self.store.retry_failed(guild_id, daily.local_date(self.clock(), schedule))
        last = await self.store.last_post(guild_id)
        return daily.next_post(self.clock(), schedule, last.day if last else None)

    async def disable(self, guild_id: int) -> bool:
        """Stop posting; False when it was not on."""
        return await self.store.disable(guild_id)

    async def status(self, guild_id: int) -> DailyStatus | None:
        """How the term of the day is set up in a server; None when it never was."""
        settings = await self.store.settings(guild_id)
        if settings is None or settings.schedule is None:
            return None
        last = await self.store.last_post(guild_id)
        upcoming = daily.next_post(self.clock(), settings.schedule, last.day if last else None)
        return DailyStatus(settings, settings.schedule, last, upcoming if settings.enabled else None)

    async def settings(self, guild_id: int) -> DailySettings | None:
        return await self.store.settings(guild_id)

    async def enabled(self) -> list[DailySettings]:
        return await self.store.enabled()

    async def claim_if_due(self, settings: DailySettings) -> PostJob | None:
        """Today's post of this server if it is due and nobody holds it (claimed now for CLAIM_LEASE, across
        restarts and processes: a claim whose lease ran out is taken over, and the job says so); None otherwise."""
        if not settings.enabled or settings.schedule is None or settings.channel_id is None:
            return None
        now = self.clock().astimezone(UTC)
        last = await self.store.last_post(settings.guild_id)
        done = last.day if last and last.status != DailyPostStatus.POSTING else None  # a claim is not a post
        day = daily.due(now, settings.schedule, done)
        if day is None:
            return None
        at, until = lease(now)
        claim = await self.store.claim(settings.guild_id, day, settings.channel_id, at, until)
        if claim is None:
            return None  # another tick, or another process, has it
        return PostJob(settings.guild_id, settings.channel_id, day, at, settings.schedule, taken_over_at(claim))

    async def posted(self, job: PostJob, message_id: int) -> None:
        await self.store.posted(job.guild_id, job.day, message_id)

    async def failed(self, job: PostJob, problem: PostProblem, *, retry: bool) -> None:
        """The post could not be made: `retry` frees the day for the next look; otherwise it is the day's
        problem. Either way the problem is shown to moderators. A job whose claim was taken over (its lease ran
        out) changes nothing."""
        await self.store.failed(job.guild_id, job.day, problem.stored(), job.at, retry=retry)
