"""What storage raises, whatever the database behind it."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import errno
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

from bot.core.problems import Joined, Said, SaidError, Sentence

T = TypeVar("T")
REPLY_WAIT = 1.0  # seconds a reply may wait for a database write


class StorageError(SaidError):
    """The database cannot be used (the operator's fault or the machine's): says which path and what to do, as a
    sentence of the problems' catalogues (bot/core/problems.py), or several said one after another (`Joined`), in
    Spanish (str) or the reader's language (`text`)."""

    def __init__(self, sentence: Said) -> None:
        if not isinstance(sentence, Sentence | Joined):
            raise TypeError(f"StorageError says a Sentence of the problems' catalogues, not {type(sentence).__name__}")
        super().__init__(sentence)


class DatabaseBusy(Exception):
    """A write did not go through now: another process holds the lock, or the disk refused it. Worth trying
    again later (the write queue does; a reply says so)."""


# How long a write on a reply's path may wait: REPLY_WAIT, or longer for a reply already deferred (`reply_may_wait`).
_reply_wait: contextvars.ContextVar[float] = contextvars.ContextVar("reply_wait", default=REPLY_WAIT)


@contextlib.contextmanager
def reply_may_wait(seconds: float) -> Iterator[None]:
    """The writes on this task's reply path may wait up to `seconds` (its reply was deferred: Discord gives it 15
    minutes), tried again while the database is busy, instead of REPLY_WAIT."""
    token = _reply_wait.set(seconds)
    try:
        yield
    finally:
        _reply_wait.reset(token)


async def within_reply_wait(write: Callable[[], Awaitable[T]]) -> T:
    """A database write on a reply's path: done within the time the reply may wait (REPLY_WAIT unless
    `reply_may_wait` says longer), tried again while the database is busy; or DatabaseBusy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + _reply_wait.get()
    pause = 0.05
    while True:
        try:
            return await asyncio.wait_for(write(), max(deadline - loop.time(), 0.01))
        except TimeoutError as exc:
            raise DatabaseBusy("timed out") from exc
        except DatabaseBusy:  # (a lock another process holds: SQLite says so after its own second)
            if loop.time() + pause >= deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(2 * pause, 1.0)


# The system's common refusals, said in the reader's language (the catalogues' `os_` sentences).
_OS_REASONS = {
    "ENOENT": "os_ENOENT",
    "EACCES": "os_EACCES",
    "EPERM": "os_EPERM",
    "EISDIR": "os_EISDIR",
    "ENOTDIR": "os_ENOTDIR",
    "ENOSPC": "os_ENOSPC",
    "EDQUOT": "os_EDQUOT",
    "EROFS": "os_EROFS",
    "ENAMETOOLONG": "os_ENAMETOOLONG",
    "EEXIST": "os_EEXIST",
    "EIO": "os_EIO",
    "ELOOP": "os_ELOOP",
    "EBUSY": "os_EBUSY",
    "ETXTBSY": "os_ETXTBSY",
}


def os_reason(exc: OSError) -> Sentence:
    """Why the system refused: a sentence of the catalogues, in the reader's language for the common reasons, else
    the system's own words (`os_other`)."""
    code = _OS_REASONS.get(errno.errorcode.get(exc.errno or 0, ""))
    return Sentence(code) if code is not None else Sentence("os_other", {"error": exc.strerror or type(exc).__name__})


# What SQLite's (and the waits') own words for a write that did not go through mean, in the catalogues' sentences.
_BUSY_REASONS = {
    "database is locked": "db_busy_locked",
    "database table is locked": "db_busy_locked",
    "timed out": "db_busy_locked",
    "database or disk is full": "os_ENOSPC",
    "disk I/O error": "db_busy_io",
    "attempt to write a readonly database": "db_busy_read_only",
}


def busy_reason(exc: DatabaseBusy) -> Sentence:
    """Why a write did not go through, in the reader's language for the common reasons (another process's lock, a
    full disk, the disk failing, a read-only file), else the database's own words (`os_other`)."""
    text = str(exc)
    code = _BUSY_REASONS.get(text)
    return Sentence(code) if code is not None else Sentence("os_other", {"error": text})
