"""What storage raises, whatever the database behind it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")
REPLY_WAIT = 1.0  # seconds a reply may wait for a database write


class StorageError(Exception):
    """The database cannot be used (the operator's fault or the machine's): says which path and what to do,
    in Spanish and in English (the command line speaks its user's language)."""

    def __init__(self, message: str, english: str = "") -> None:
        super().__init__(message)
        self.english = english or message

    def text(self, lang: str = "es") -> str:
        return self.english if lang == "en" else str(self)


class DatabaseBusy(Exception):
    """A write did not go through now: another process holds the lock, or the disk refused it. Worth trying
    again later (the write queue does; a reply says so)."""


async def within_a_second(awaitable: Awaitable[T]) -> T:
    """A database write on a reply's path: done within REPLY_WAIT seconds, or DatabaseBusy."""
    try:
        return await asyncio.wait_for(awaitable, REPLY_WAIT)
    except TimeoutError as exc:
        raise DatabaseBusy("timed out") from exc
