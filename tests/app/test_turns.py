"""Turns on the event loop (bot/app/lookup/turns.py): alone, a turn is taken at once; many at once, one per pass of the
loop, first come first served; a caller cancelled while waiting loses no one else's turn."""

from __future__ import annotations

import asyncio
import itertools

from bot.app.lookup.turns import Turns


class Passes:
    """Counts the passes of the running loop: a callback that schedules itself again runs once per pass."""

    def __init__(self) -> None:
        self.count, self._on = 0, True
        asyncio.get_running_loop().call_soon(self._pass)

    def _pass(self) -> None:
        self.count += 1
        if self._on:
            asyncio.get_running_loop().call_soon(self._pass)

    def stop(self) -> None:
        self._on = False


async def test_alone_a_turn_is_taken_at_once():
    turns, passes = Turns(), Passes()
    await turns.take()
    assert passes.count == 0 and turns.waited == 0  # (no pass of the loop went by)
    await asyncio.sleep(0.01)
    await turns.take()  # later on, alone again: at once again
    assert turns.waited == 0
    passes.stop()


async def test_many_at_once_take_their_turns_one_per_pass_in_order():
    turns, passes = Turns(), Passes()
    order: list[tuple[int, int]] = []  # (caller, the pass it had its turn in)

    async def caller(i: int) -> None:
        await turns.take()
        order.append((i, passes.count))

    await asyncio.gather(*(caller(i) for i in range(10)))
    passes.stop()
    assert [i for i, _ in order] == list(range(10))
    seen = [at for _, at in order]  # (each one pass after the one before)
    assert all(later > earlier for earlier, later in itertools.pairwise(seen))
    assert turns.waited == 9


async def test_a_caller_cancelled_while_waiting_loses_no_one_elses_turn():
    turns = Turns()
    had: list[int] = []

    async def caller(i: int) -> None:
        await turns.take()
        had.append(i)

    tasks = [asyncio.create_task(caller(i)) for i in range(4)]
    await asyncio.sleep(0)  # every one asked: the first has its turn, the others wait
    tasks[1].cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert had == [0, 2, 3]
    await turns.take()  # and nobody holds a turn afterwards
    assert turns.waited == 3
