"""A per-user sliding-window rate limit against spam (kept per bot, in memory)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class RateLimit:
    def __init__(self, uses: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.uses, self.per, self._clock = uses, per, clock
        self._hits: dict[int, deque[float]] = {}

    def retry_after(self, key: int) -> float:
        """0 when allowed (and counted); otherwise the seconds until the next use is allowed."""
        now = self._clock()
        hits = self._hits.setdefault(key, deque())
        while hits and now - hits[0] >= self.per:
            hits.popleft()
        if len(hits) >= self.uses:
            return self.per - (now - hits[0])
        hits.append(now)
        if len(self._hits) > 10_000:  # forget idle users so memory stays flat
            self._hits = {k: v for k, v in self._hits.items() if v and now - v[-1] < self.per}
        return 0.0
