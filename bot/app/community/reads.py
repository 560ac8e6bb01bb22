"""One read at a time of the same thing: a caller that finds a read of it already under way, and still good, awaits
that read instead of making its own (a big server's terms are read, checked and indexed once, however many lookups
and keystrokes arrive while they are). A read that fails reaches its callers; one that fails after every caller
gave up (their interactions cancelled) is logged here, once, so that a failing database does not go unnoticed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
S = TypeVar("S")
T = TypeVar("T")


@dataclass(eq=False)
class _Read(Generic[S, T]):
    stamp: S
    task: asyncio.Task[T]
    waiting: int = 0  # callers awaiting it now
    heard: bool = False  # a caller was handed its failure
    logged: bool = False


class SharedReads(Generic[K, S, T]):
    """Reads in flight by server id, each with its stamp (what it was begun against); `good(stamp)` says whether a
    read so begun may still answer a caller that comes now (no change was made since it began). `what` names what
    is read, for the log ("the editor role")."""

    def __init__(self, good: Callable[[S], bool], what: str) -> None:
        self.good, self.what = good, what
        self._under_way: dict[K, _Read[S, T]] = {}

    async def read(self, key: K, stamp: S, read: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """What the read of `key` under way gives, if it is still good; else what `read()` gives, begun now with
        `stamp` (and shared in turn). The read is a task of its own: a caller that gives up (its interaction
        cancelled) leaves it running for the others, and their reply."""
        found = self._under_way.get(key)
        if found is None or not self.good(found.stamp):
            task = asyncio.get_running_loop().create_task(self._run(key, read))
            found = self._under_way[key] = _Read(stamp, task)
            task.add_done_callback(lambda _: self._unheard(key, found))
        found.waiting += 1
        try:
            return await asyncio.shield(found.task)
        except Exception:  # (handed to this caller, whose reply reports it: not logged again here)
            found.heard = True
            raise
        finally:
            found.waiting -= 1
            self._unheard(key, found)

    async def _run(self, key: K, read: Callable[[], Coroutine[Any, Any, T]]) -> T:
        try:
            return await read()
        finally:  # (a newer read of the key may have taken its place: that one stays)
            found = self._under_way.get(key)
            if found is not None and found.task is asyncio.current_task():
                del self._under_way[key]

    def _unheard(self, key: K, found: _Read[S, T]) -> None:
        """Log a read that failed with nobody left to hear it (as it ends, or as its last caller gives up)."""
        task = found.task
        if not task.done() or task.cancelled() or found.waiting or found.heard or found.logged:
            return
        error = task.exception()  # (retrieved: asyncio says nothing more of it)
        if error is not None:
            found.logged = True
            log.warning("reading %s of guild %s failed after every caller had given up", self.what, key, exc_info=error)
