"""What made an event loop late: every callback it ran and every wait in its selector, timed, while a ticker runs.

    python -m bench.bench_bot --ticks FILE --trace MODULE ...   (bench_burst --trace: each late tick explained)

A tick due at `due` that ran at `ran` was late because the loop's thread, meanwhile, was
  - working: finishing a callback that had started, or running the callbacks ahead of the tick in the ready queue
    (the loop runs every callback that is ready before it looks at its timers again), or the loop's own work;
  - waiting for a CPU: the kernel's run queue (other processes, or another thread of this one);
  - waiting for the interpreter's lock, held by another thread of the process (it waits up to
    `sys.getswitchinterval()` before the holder is asked to let go).
At each tick the trace reads the loop's thread's CPU time and run-queue time so far (Linux's schedstat); whatever
else the thread did between two ticks, apart from waiting in its selector for the tick to be due, is sleeping on
the lock. The working part is shared out among the callbacks that ran (their own CPU time, by label: a task's step
is named by its coroutine and where it suspended, `wrapper > Batcher.submit`, so the steps of one handler are told
apart), and the cycle collector's passes are noted. The trace costs a few microseconds a callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import threading
import time
from array import array
from collections import defaultdict

_handle_run = asyncio.events.Handle._run


class LoopTrace:
    """Records, while on, each callback's (start, end, CPU seconds, label) and each selector wait's (start, end),
    in the loop's clock (time.monotonic, as asyncio's)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.on = loop, False
        self.callbacks, self.labels, self.selects = array("d"), [], array("d")
        self.sched = array("d")  # at each tick: the loop's thread's CPU time and run-queue time so far, s
        self.collections = array("d")  # the cycle collector's passes: (start, end, generation, on the loop's thread)
        self._schedstat: int | None = None
        self._collecting = 0.0
        gc.callbacks.append(self._collected)
        self._label_ids: dict[str, int] = {}
        selector = loop._selector  # (the selector event loop's: what it waits in)
        select = selector.select

        def timed_select(timeout=None):
            if not self.on:
                return select(timeout)
            start = time.monotonic()
            try:
                return select(timeout)
            finally:
                self.selects.extend((start, time.monotonic()))

        selector.select = timed_select
        trace = self

        def timed_run(handle):
            if not trace.on or handle._loop is not trace.loop:
                return _handle_run(handle)
            start, cpu = time.monotonic(), time.thread_time()
            try:
                return _handle_run(handle)
            finally:
                end, cpu = time.monotonic(), time.thread_time() - cpu
                trace.callbacks.extend((start, end, cpu, trace._label(label_of(handle))))

        asyncio.events.Handle._run = timed_run

    def _collected(self, phase: str, info: dict) -> None:
        if not self.on:
            return
        if phase == "start":
            self._collecting = time.monotonic()
        else:
            on_loop = threading.current_thread() is threading.main_thread()  # (the bots' loops run on it)
            self.collections.extend((self._collecting, time.monotonic(), info["generation"], on_loop))

    def _label(self, label: str) -> int:
        found = self._label_ids.get(label)
        if found is None:
            found = self._label_ids[label] = len(self.labels)
            self.labels.append(label)
        return found

    def start(self) -> None:
        """Record from now on (called on the loop's thread)."""
        if self._schedstat is None:
            with contextlib.suppress(OSError):
                self._schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        self.callbacks, self.selects, self.sched, self.on = array("d"), array("d"), array("d"), True
        self.collections = array("d")

    def tick(self) -> None:
        """At each tick: the loop's thread's CPU time and time in the run queue so far (NaN where the kernel does
        not say)."""
        fd = self._schedstat
        if fd is None:
            self.sched.extend((float("nan"), float("nan")))
        else:
            on_cpu, queued = os.pread(fd, 64, 0).split()[:2]
            self.sched.extend((int(on_cpu) / 1e9, int(queued) / 1e9))

    def stop(self) -> dict:
        self.on = False
        return {
            "callbacks": self.callbacks.tolist(),
            "labels": self.labels,
            "selects": self.selects.tolist(),
            "sched": self.sched.tolist(),
            "collections": self.collections.tolist(),
        }


def label_of(handle: asyncio.Handle) -> str:
    """A task's step: its coroutine and the innermost coroutine it is suspended in now (after the step); another
    callback: its function."""
    callback = handle._callback
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        outer = getattr(getattr(coro, "cr_code", None), "co_qualname", type(coro).__name__)
        inner, awaited = None, getattr(coro, "cr_await", None)
        while awaited is not None and hasattr(awaited, "cr_code"):
            inner, awaited = awaited.cr_code.co_qualname, getattr(awaited, "cr_await", None)
        if task.done():
            inner = "(done)"
        return f"{outer} > {inner}" if inner else outer
    # (never repr(): an object's repr may read what is not there yet, and aiohttp's response caches what it read)
    found = getattr(callback, "__qualname__", None)
    return found if isinstance(found, str) else type(callback).__qualname__


BETWEEN = "the loop's own work between callbacks (and this trace's)"
LOCK = "waiting for the interpreter's lock (held by another thread)"
QUEUED = "waiting for a CPU (the kernel's run queue)"
COLLECTED = "of which the cycle collector, generation"


def _overlap(start: float, end: float, lo: float, hi: float) -> float:
    return max(0.0, min(end, hi) - max(start, lo))


def explain(trace: dict, ticks: list[tuple[float, float]], over_ms: float) -> tuple[dict[str, float], int]:
    """For the ticks (due, ran) late by more than `over_ms`: their lateness (ms, summed) shared out as the module's
    docstring says (LOCK, QUEUED, each callback's label, BETWEEN; COLLECTED lines are part of the rest), and how
    many ticks that was."""
    c = trace["callbacks"]
    callbacks = [(c[i], c[i + 1], c[i + 2], trace["labels"][int(c[i + 3])]) for i in range(0, len(c), 4)]
    s, g, sched = trace["selects"], trace.get("collections") or [], trace["sched"]
    selects = [(s[i], s[i + 1]) for i in range(0, len(s), 2)]
    shares: dict[str, float] = defaultdict(float)
    late = [k for k, (due, ran) in enumerate(ticks) if k > 0 and (ran - due) * 1000 > over_ms]
    for k in late:
        due, ran = ticks[k]
        lateness, since = ran - due, ticks[k - 1][1]
        on_cpu, queued = sched[2 * k] - sched[2 * k - 2], sched[2 * k + 1] - sched[2 * k - 1]
        if on_cpu != on_cpu:  # (NaN: no schedstat) all of it counted as work
            on_cpu, queued = ran - since, 0.0
        idle = sum(_overlap(start, end, since, due) for start, end in selects)
        queued = min(max(queued, 0.0), lateness)
        locked = min(max(ran - since - on_cpu - queued - idle, 0.0), lateness - queued)
        work = lateness - queued - locked
        worked = [
            (label, _overlap(start, end, due, ran) * min(1.0, cpu / (end - start)))
            for start, end, cpu, label in callbacks
            if end > start
        ]
        total = sum(w for _, w in worked)
        scale = min(1.0, work / total) if total > 0 else 0.0
        for label, w in worked:
            if w > 0:
                shares[label] += w * scale * 1000
        shares[BETWEEN] += max(0.0, work - total * scale) * 1000
        shares[LOCK] += locked * 1000
        shares[QUEUED] += queued * 1000
        for i in range(0, len(g), 4):
            overlap = _overlap(g[i], g[i + 1], due, ran)
            if overlap > 0:
                where = "the loop's thread" if g[i + 3] else "another thread, holding the lock"
                shares[f"{COLLECTED} {int(g[i + 2])}, in {where}"] += overlap * 1000
    return dict(shares), len(late)


def steps(trace: dict) -> dict[str, tuple[int, float, float]]:
    """Every callback the loop ran, by label: how many, their CPU time in all and the longest one's (ms)."""
    c, labels = trace["callbacks"], trace["labels"]
    found: dict[str, tuple[int, float, float]] = {}
    for i in range(0, len(c), 4):
        label, cpu = labels[int(c[i + 3])], c[i + 2] * 1000
        count, total, longest = found.get(label, (0, 0.0, 0.0))
        found[label] = (count + 1, total + cpu, max(longest, cpu))
    return found
