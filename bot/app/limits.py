"""A per-user sliding-window rate limit against spam (kept per bot, in memory), the gap budget, and the pacer
that keeps scheduled posts under Discord's global rate limit."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

FORGET_ABOVE = 10_000  # users remembered before idle ones are forgotten


class RateLimit:
    def __init__(self, uses: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.uses, self.per, self._clock = uses, per, clock
        self._hits: dict[int, deque[float]] = {}
        self._forgot_at = float("-inf")

    def retry_after(self, key: int) -> float:
        """0 when allowed (and counted); otherwise the seconds until the next use is allowed."""
        now = self._clock()
        hits = self._hits.setdefault(key, deque())
        while hits and now - hits[0] >= self.per:
            hits.popleft()
        if len(hits) >= self.uses:
            return self.per - (now - hits[0])
        hits.append(now)
        # Forget idle users so memory stays flat; at most once a window, so that a crowd of active users
        # does not make every call walk all of them.
        if len(self._hits) > FORGET_ABOVE and now - self._forgot_at >= self.per:
            self._forgot_at = now
            self._hits = {k: v for k, v in self._hits.items() if v and now - v[-1] < self.per}
        return 0.0

    def __len__(self) -> int:
        """Users currently remembered."""
        return len(self._hits)


class GapBudget:
    """How many new gaps one member may log per window: asking the same thing again costs nothing, so honest
    members never notice it, and one member cannot flood the moderators' list."""

    def __init__(self, gaps: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.gaps, self.per, self._clock = gaps, per, clock
        self._seen: dict[int, dict[str, float]] = {}  # member → normalised query → when first logged
        self._forgot_at = float("-inf")

    def allow(self, member: int, normalized: str) -> bool:
        """True when this gap may be logged for this member (and it is counted against the budget)."""
        now = self._clock()
        seen = self._seen.setdefault(member, {})
        if normalized in seen and now - seen[normalized] < self.per:
            return True
        for query in [q for q, at in seen.items() if now - at >= self.per]:
            del seen[query]
        if len(seen) >= self.gaps:
            return False
        seen[normalized] = now
        if len(self._seen) > FORGET_ABOVE and now - self._forgot_at >= self.per:
            self._forgot_at = now
            self._seen = {k: v for k, v in self._seen.items() if v and now - max(v.values()) < self.per}
        return True

    def forget(self, member: int) -> None:
        """What a member asked within the window, gone (they asked to be forgotten): their budget is whole again."""
        self._seen.pop(member, None)

    def has_room(self, member: int, normalized: str) -> bool:
        """Whether `allow` would say yes now, without counting anything (to not offer what would be refused)."""
        now = self._clock()
        seen = self._seen.get(member, {})
        if normalized in seen and now - seen[normalized] < self.per:
            return True
        return sum(1 for at in seen.values() if now - at < self.per) < self.gaps


class Pacer:
    """At most `rate` starts per second, evenly spaced: scheduled posts to many servers (the term of the day for
    10,000 servers at 09:00) stay under Discord's global limit of 50 requests a second, leaving room for the
    rest, instead of bursting into 429s. `wait()` returns when the next start is allowed."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval, self._clock = 1.0 / rate, clock
        self._next = float("-inf")

    def delay(self) -> float:
        """Seconds to wait before the next start, which is booked at that time."""
        now = self._clock()
        start = max(now, self._next)
        self._next = start + self.interval
        return start - now

    async def wait(self) -> None:
        delay = self.delay()
        if delay > 0:
            await asyncio.sleep(delay)
