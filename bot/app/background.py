"""Background work: one helper starts every background task (kept referenced until done, its failure logged),
and loops outlive errors (each tick's trouble is logged, and the loop goes on at its next tick)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import ParamSpec

from bot.storage.errors import DatabaseBusy, StorageError

log = logging.getLogger(__name__)
P = ParamSpec("P")


async def outliving_errors(what: str, tick: Callable[[], Awaitable[object]]) -> None:
    """Run one tick of a background loop: a database that is down or busy is a warning, anything else an error
    with its traceback; neither stops the loop (the next tick tries again, and resumes once the cause is gone)."""
    try:
        await tick()
    except (DatabaseBusy, StorageError) as exc:
        log.warning("%s: the database is unavailable (%s); trying again at the next tick", what, exc)
    except Exception:
        log.exception("%s failed; trying again at the next tick", what)


def each_tick_outlives_errors(what: str) -> Callable[[Callable[P, Awaitable[None]]], Callable[P, Awaitable[None]]]:
    """The same, as a decorator for the body of a `tasks.loop`."""

    def decorate(body: Callable[P, Awaitable[None]]) -> Callable[P, Awaitable[None]]:
        @functools.wraps(body)
        async def tick(*args: P.args, **kwargs: P.kwargs) -> None:
            await outliving_errors(what, functools.partial(body, *args, **kwargs))

        return tick

    return decorate


def start_background(tasks: set[asyncio.Task], work: Coroutine[object, object, object], name: str) -> asyncio.Task:
    """Start `work` as a task kept in `tasks` until it is done (the event loop holds only a weak reference: an
    unreferenced task can vanish mid-way), its failure logged with its traceback, never lost (as bot-core's
    `create_task`). The one way the bot starts background work."""
    task = asyncio.get_running_loop().create_task(work, name=name)
    tasks.add(task)
    task.add_done_callback(functools.partial(_forget_and_log, tasks))
    return task


def _forget_and_log(tasks: set[asyncio.Task], task: asyncio.Task) -> None:
    tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("background task %s failed", task.get_name(), exc_info=task.exception())
