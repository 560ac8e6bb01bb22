"""Questions that arrive together are answered together, in one worker thread, off the event loop.

The first question waits at most `gather` seconds for others; while a batch runs, the questions that arrive queue
up and make the next one (up to `max_batch`). The encoder streams its weights once per batch rather than once per
question (bench/README.md: 2.8 ms of CPU for a question alone, 0.8 ms each in a batch of 16), and the dense product
reads the terms' vectors once per batch. The queue is bounded: past `max_waiting` questions a new one is refused at
once (None), and its member gets the name matcher's answer; a question whose member stopped waiting (the reply's
deadline) is dropped before its batch runs. A batch's results wake their callers one per pass of the event loop
(each then renders and sends its reply on the loop: sixteen at once held it for some 20 ms).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(eq=False, slots=True)
class _Waiting(Generic[Item]):
    item: Item
    future: asyncio.Future


class Batcher(Generic[Item, Result]):
    """`await submit(item)`: `work(items)` (one result per item, in order) computes it in a worker thread, with
    the items that arrived with it; None when the queue is full."""

    def __init__(
        self,
        work: Callable[[Sequence[Item]], Sequence[Result]],
        *,
        gather: float = 0.002,
        max_batch: int = 16,
        max_waiting: int = 64,
        name: str = "batch",
    ) -> None:
        self.work, self.gather, self.max_batch, self.max_waiting, self.name = work, gather, max_batch, max_waiting, name
        self._queue: deque[_Waiting[Item]] = deque()
        self._timer: asyncio.TimerHandle | None = None
        self._running: asyncio.Task | None = None
        self._executor: ThreadPoolExecutor | None = None
        self.batches = 0  # batches run so far, for logs and tests
        self.refused = 0  # items refused because the queue was full

    async def submit(self, item: Item) -> Result | None:
        """The item's result, computed with those that arrived with it; None at once when `max_waiting` items
        are queued already. Cancelled, the item is dropped if its batch has not started."""
        if len(self._queue) >= self.max_waiting:
            self.refused += 1
            log.info("%s: %d waiting already, one more refused", self.name, len(self._queue))
            return None
        loop = asyncio.get_running_loop()
        waiting = _Waiting(item, loop.create_future())
        self._queue.append(waiting)
        if self._running is None:
            if len(self._queue) >= self.max_batch:
                self._start()
            elif self._timer is None:
                self._timer = loop.call_later(self.gather, self._start)
        return await waiting.future

    def _start(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        batch: list[_Waiting[Item]] = []
        while self._queue and len(batch) < self.max_batch:
            waiting = self._queue.popleft()
            if not waiting.future.done():  # (its member stopped waiting: not computed)
                batch.append(waiting)
        if batch:
            self._running = asyncio.get_running_loop().create_task(self._run(batch), name=f"glosario-{self.name}")

    async def _run(self, batch: list[_Waiting[Item]]) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix=f"glosario-{self.name}")
        self.batches += 1
        try:
            loop = asyncio.get_running_loop()
            results = await loop.run_in_executor(self._executor, self.work, [w.item for w in batch])
        except Exception as exc:
            log.exception("%s: a batch of %d failed", self.name, len(batch))
            for waiting in batch:
                if not waiting.future.done():
                    waiting.future.set_exception(exc)
            return
        finally:
            self._running = None
            if self._queue:  # what arrived meanwhile, at once (the worker thread computes it while we hand out)
                self._start()
        await self._hand_out(batch, results)

    @staticmethod
    async def _hand_out(batch: list[_Waiting[Item]], results: Sequence[Result]) -> None:
        """One result per pass of the event loop: each wakes a caller that then does its own work on the loop (a
        reply to render and send), and woken all at once, the callers' work would run back to back before the
        loop's timers and I/O got their turn (16 replies, some 20 ms)."""
        for waiting, result in zip(batch, results, strict=True):
            if not waiting.future.done():
                waiting.future.set_result(result)
                await asyncio.sleep(0)

    def close(self) -> None:
        """Refuse what is queued (None) and let the worker thread end after its batch."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._queue:
            waiting = self._queue.popleft()
            if not waiting.future.done():
                waiting.future.set_result(None)
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None
