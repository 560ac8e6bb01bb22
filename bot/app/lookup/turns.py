"""Turns on the event loop: synchronous work that many handlers start at once runs one handler per pass of the
loop, so that the loop's timers and I/O run between two of them.

asyncio runs every callback that is ready before it looks at its timers and sockets again. Fifty /termino that
arrive together are fifty tasks ready together, and the name matcher costs about 1 ms on a text that reads as a
question: run back to back, they would hold the loop for 50 ms. Taking a turn first spreads them out, one per
pass, in the order they asked; alone, a turn is taken at once.

    async def handler():
        await turns.take()
        ...  # the synchronous work, up to the next await that suspends
"""

from __future__ import annotations

import asyncio
from collections import deque


class Turns:
    """`await take()`: at once when nobody took a turn in this pass of the loop, else in a later pass, first come
    first served, one caller per pass."""

    def __init__(self) -> None:
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._taken = False  # someone took a turn in this pass (and `_next` will hand the next one out)
        self.taken = 0  # turns taken in all, and of them
        self.waited = 0  # those that were not taken at once, for tests and logs

    async def take(self) -> None:
        loop = asyncio.get_running_loop()
        self.taken += 1
        if not self._taken:
            self._taken = True
            loop.call_soon(self._next)
            return
        turn = loop.create_future()
        self._waiting.append(turn)
        self.waited += 1
        await turn  # (cancelled meanwhile, its turn is not lost: `_next` hands the next one out regardless)

    def _next(self) -> None:
        """In the pass after a turn was taken: the next caller's turn (it runs in the pass after this one)."""
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():  # (a caller cancelled while waiting has no turn)
                turn.set_result(None)
                asyncio.get_running_loop().call_soon(self._next)
                return
        self._taken = False
