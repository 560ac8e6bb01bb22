"""Background loops outlive errors: each tick's trouble is logged, and the loop goes on at its next tick."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
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
