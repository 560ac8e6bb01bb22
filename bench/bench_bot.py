"""A bot process as the benchmarks run it: the same module, with what a measurement needs around it.

    python -m bench.bench_bot [--ticks FILE] [--question-wait SECONDS] MODULE [ARGS...]

runs `python -m MODULE ARGS...` (`bot run`, `bench.minimal_bot --card`) in this process, after:

--ticks FILE          a 1 ms ticker on the bot's event loop, to see how late the loop runs its callbacks: SIGUSR1
                      starts it (what was measured before is forgotten), SIGUSR2 stops it and writes to FILE, as
                      JSON, how many ticks ran and how late each was (`lateness_ms`, sorted). Nothing ticks until
                      SIGUSR1, so the ticker costs nothing outside the windows measured.
--trace               with --ticks, also every callback the loop runs and every wait in its selector, timed
                      (bench/loop_trace.py), written beside the ticks: what made each tick late.
--question-wait S     how long a reply waits for the question path (bot/discord_app/lookup/meaning.py: 1.5 s).
                      Under callgrind, where everything runs about 50 times slower, 1.5 s would send most questions
                      to the name matcher's answer and drop them unencoded: the count would not be of the bot's
                      work. bench_e2e --instructions sets 120 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import runpy
import signal
import sys
from array import array
from pathlib import Path

TICK = 0.001  # seconds between two ticks


class Ticker:
    """Every TICK seconds a callback on the loop, noting how late it ran (loop time against the time asked)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, out: Path | None = None, trace=None) -> None:
        self.loop, self.out, self.trace = loop, out, trace
        self.lateness = array("d")
        self.due_ran = array("d")  # (when due, when run) of every tick, for the trace
        self._handle: asyncio.TimerHandle | None = None
        self._when = 0.0

    def start(self) -> None:
        self.stop_ticking()
        self.lateness, self.due_ran = array("d"), array("d")
        if self.trace is not None:
            self.trace.start()
        self._next()

    def _next(self) -> None:
        self._when = self.loop.time() + TICK
        self._handle = self.loop.call_at(self._when, self._tick)

    def _tick(self) -> None:
        now = self.loop.time()
        self.lateness.append(now - self._when)
        self.due_ran.extend((self._when, now))
        if self.trace is not None:
            self.trace.tick()
        self._next()

    def stop_ticking(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def stop(self) -> list[float]:
        """Stop; how late each tick ran, in ms, sorted (also written to `out`, if given)."""
        self.stop_ticking()
        found = sorted(x * 1000 for x in self.lateness)
        if self.out is not None:
            written = {"ticks": len(found), "lateness_ms": found}
            if self.trace is not None:
                written |= {"trace": self.trace.stop(), "due_ran": self.due_ran.tolist()}
            partial = self.out.with_name(self.out.name + ".part")  # (the bench reads the file once it exists)
            partial.write_text(json.dumps(written))
            partial.replace(self.out)
        return found


class TickingPolicy(asyncio.DefaultEventLoopPolicy):
    """Every event loop made gets a Ticker, driven by SIGUSR1 and SIGUSR2."""

    def __init__(self, out: Path, trace: bool = False) -> None:
        super().__init__()
        self.out, self.trace = out, trace

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        if self.trace:
            from bench.loop_trace import LoopTrace

            ticker = Ticker(loop, self.out, LoopTrace(loop))
        else:
            ticker = Ticker(loop, self.out)
        loop.add_signal_handler(signal.SIGUSR1, ticker.start)
        loop.add_signal_handler(signal.SIGUSR2, ticker.stop)
        return loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ticks", type=Path, help="write the loop's lateness here on SIGUSR2")
    parser.add_argument("--trace", action="store_true", help="with --ticks: what made each tick late")
    parser.add_argument("--question-wait", type=float, help="seconds a reply waits for the question path")
    parser.add_argument("module")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.ticks is not None:
        asyncio.set_event_loop_policy(TickingPolicy(args.ticks, args.trace))
    if args.question_wait is not None:
        from bot.discord_app.lookup import meaning

        meaning.WAIT_SECONDS = args.question_wait
    sys.argv = [args.module, *args.args]
    runpy.run_module(args.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
