"""The moderators' weekly digest: new gaps, the most asked, proposals waiting, the answer rate and its trend (as
a chart), and the definitions members found least helpful. Once per server and ISO week, on the weekday the
server chose (UTC), or later that week when no bot was up on that day; posting is the surface's job. The week is
claimed before it is posted, with the daily post's lease (CLAIM_LEASE): a claim whose process died before marking
the digest posted is taken over by a later look, which looks for that digest in the channel before sending it (the
same nonce would not do: Discord remembers it for a few minutes, and the digest looks every ten)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from bot.app.daily.posts import PostProblem, lease, taken_over_at
from bot.app.insights.chart import trend_png
from bot.core import daily
from bot.core.status import GapStatus, Outcome
from bot.storage.interfaces import DigestStore, GapStore, ProposalStore, UsageStore
from bot.storage.records import DigestSettings, Gap

if TYPE_CHECKING:
    from bot.app.feedback.votes import Feedback, WeekOfFeedback

TREND_DAYS = 28


@dataclass(frozen=True)
class Trend:
    days: list[date]  # oldest first
    counts: dict[date, tuple[int, int]]  # day → (lookups answered, lookups)

    @property
    def rates(self) -> list[float | None]:
        """The answer rate of each day, 0–100 (None: no lookups that day)."""
        return [_rate_of(self.counts, [day]) for day in self.days]

    def rate(self, last: int, skip: int = 0) -> float | None:
        """The answer rate over `last` days, ending `skip` days before the newest."""
        return _rate_of(self.counts, self.days[len(self.days) - skip - last : len(self.days) - skip])


def _rate_of(counts: dict[date, tuple[int, int]], days: list[date]) -> float | None:
    answered = sum(counts.get(d, (0, 0))[0] for d in days)
    total = sum(counts.get(d, (0, 0))[1] for d in days)
    return 100 * answered / total if total else None


@dataclass(frozen=True)
class Digest:
    week: str  # ISO week, "2026-W49"
    new_gaps: int  # gaps first asked in the last 7 days
    top_gaps: list[Gap]
    proposals: int  # waiting for the editors
    rate: float | None  # answer rate of the last 7 days
    previous_rate: float | None  # of the 7 days before
    trend: Trend
    feedback: WeekOfFeedback | None = None  # terms among the least helpful; votes and comments of the week
    by_meaning: int = 0  # questions answered by meaning in the last 7 days (not gaps)


@dataclass(frozen=True, slots=True)
class DigestJob:
    """A server's digest of one week, claimed: nobody else posts it while the claim holds (CLAIM_LEASE, until
    `until`); mark it `posted` or `failed`. `taken_over`: when the claim it took over was made (that process may
    have sent it; a failure frees a week the same way: its send may have reached Discord)."""

    guild_id: int
    channel_id: int
    week: str  # ISO week, "2026-W49"
    monday: date  # the week's first day
    until: str  # when the claim runs out (ISO, UTC): which claim is this job's
    taken_over: datetime | None = None

    @property
    def nonce(self) -> str:
        """The same for every try of this week's digest, in any process: Discord makes one message of the tries
        it gets within a few minutes."""
        return daily.post_nonce(self.guild_id, self.monday, "w")


def _turned_on_after(since: str | None, day: date) -> bool:
    try:
        return since is not None and datetime.fromisoformat(since).date() > day
    except ValueError:  # (not a time this version wrote: owed, as before it was kept)
        return False


def iso_week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


class Digests:
    def __init__(
        self,
        store: DigestStore,
        usage: UsageStore,
        gaps: GapStore,
        proposals: ProposalStore,
        clock: Callable[[], datetime],
        feedback: Feedback | None = None,
    ) -> None:
        self.store, self.usage, self.gaps, self.proposals, self.clock = store, usage, gaps, proposals, clock
        self.feedback = feedback

    async def trend(self, guild_id: int) -> Trend:
        """The daily answer rate of the last TREND_DAYS days (today included)."""
        today = self.clock().date()
        days = [today - timedelta(days=n) for n in range(TREND_DAYS - 1, -1, -1)]
        counts: dict[date, tuple[int, int]] = {}
        for row in await self.usage.daily_outcomes(guild_id, days[0].isoformat()):
            day = date.fromisoformat(row.day)
            answered, total = counts.get(day, (0, 0))
            found = row.outcome in (Outcome.FOUND, Outcome.MEANING)  # a question answered by meaning is answered
            counts[day] = (answered + (row.lookups if found else 0), total + row.lookups)
        return Trend(days, counts)

    async def build(self, guild_id: int) -> Digest:
        now = self.clock()
        trend = await self.trend(guild_id)
        week_ago = (now - timedelta(days=7)).isoformat(timespec="seconds")
        return Digest(
            iso_week(now.date()),
            await self.gaps.new_since(guild_id, week_ago),
            await self.gaps.gaps(guild_id=guild_id, status=GapStatus.OPEN, limit=5),
            len(await self.proposals.pending(guild_id)),
            trend.rate(7),
            trend.rate(7, skip=7),
            trend,
            await self.feedback.week(guild_id, week_ago) if self.feedback else None,
            (await self.usage.outcomes(guild_id=guild_id, since=week_ago[:10])).get(Outcome.MEANING, 0),
        )

    async def chart(self, trend: Trend, *, title: str, ylabel: str) -> bytes:
        """The trend as a PNG, drawn in a worker thread (milliseconds of CPU; the first chart also imports Pillow)."""
        return await asyncio.to_thread(trend_png, trend.days, trend.rates, title=title, ylabel=ylabel)

    async def configure(self, guild_id: int, channel_id: int, weekday: int, language: str | None = None) -> None:
        """Post the digest every week on `weekday` (0 Monday, UTC) in a channel, in `language` ("es", "en"; None:
        the server's own). This week's digest, if it failed, is tried again at the next look (not one being posted
        now: it would go out twice)."""
        await self.store.configure(guild_id, channel_id, weekday, language, self._now())

    async def disable(self, guild_id: int) -> bool:
        return await self.store.disable(guild_id)

    async def settings(self, guild_id: int) -> DigestSettings | None:
        """How the digest is set up in a server and how it last went (`resumen estado`); None when it is off."""
        return await self.store.settings(guild_id)

    async def enabled(self) -> list[DigestSettings]:
        return await self.store.enabled()

    async def claim_if_due(self, settings: DigestSettings) -> DigestJob | None:
        """This week's digest of a server, if its day has come this week and nobody posted it or holds it (claimed
        now for CLAIM_LEASE; a claim whose lease ran out, its process dead, is taken over, and the job says so).
        Missed on its day (no bot was up), it is posted at the first look later that week; a week whose day came
        before the digest was turned on is not owed, and an earlier week never is (its figures would be old)."""
        now = self.clock().astimezone(UTC)
        today = now.date()
        week, day = iso_week(today), today + timedelta(days=settings.weekday - today.weekday())
        if day > today or _turned_on_after(settings.since, day):
            return None
        if settings.last_week == week and settings.claimed_until is None:  # posted, or gone without
            return None
        at, until = lease(now)
        claim = await self.store.claim(settings.guild_id, week, at, until)
        if claim is None:
            return None  # another look, or another process, has it
        monday = today - timedelta(days=today.weekday())
        return DigestJob(settings.guild_id, settings.channel_id, week, monday, until, taken_over_at(claim))

    async def posted(self, job: DigestJob) -> None:
        await self.store.posted(job.guild_id, job.week, self._now())

    async def failed(self, job: DigestJob, problem: PostProblem, *, retry: bool) -> None:
        """The week's digest could not be posted: `retry` frees the week for the next look; otherwise that week
        goes without. Either way the problem is kept for the moderators (`resumen estado`). A job whose claim was
        taken over (its lease ran out) changes nothing."""
        await self.store.failed(job.guild_id, job.week, job.until, problem.stored(), self._now(), retry=retry)

    def _now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="seconds")
