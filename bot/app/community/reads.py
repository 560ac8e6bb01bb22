"""One read at a time of the same thing: a caller that finds a read of it already under way, and still good, awaits
that read instead of making its own (a big server's terms are read, checked and indexed once, however many lookups
and keystrokes arrive while they are)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
S = TypeVar("S")
T = TypeVar("T")


class SharedReads(Generic[K, S, T]):
    """Reads in flight by key, each with its stamp (what it was begun against); `good(stamp)` says whether a read
    so begun may still answer a caller that comes now (no change was made since it began)."""

    def __init__(self, good: Callable[[S], bool]) -> None:
        self.good = good
        self._under_way: dict[K, tuple[S, asyncio.Task[T]]] = {}

    async def read(self, key: K, stamp: S, read: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """What the read of `key` under way gives, if it is still good; else what `read()` gives, begun now with
        `stamp` (and shared in turn). The read is a task of its own: a caller that gives up (its interaction
        cancelled) leaves it running for the others, and their reply."""
        found = self._under_way.get(key)
        if found is None or not self.good(found[0]):
            task = asyncio.get_running_loop().create_task(self._run(key, read))
            found = self._under_way[key] = (stamp, task)
        return await asyncio.shield(found[1])

    async def _run(self, key: K, read: Callable[[], Coroutine[Any, Any, T]]) -> T:
        try:
            return await read()
        finally:  # (a newer read of the key may have taken its place: that one stays)
            found = self._under_way.get(key)
            if found is not None and found[1] is asyncio.current_task():
                del self._under_way[key]
