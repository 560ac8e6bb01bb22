"""What storage raises, whatever the database behind it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from bot.core.problems import Joined, Said, Sentence

T = TypeVar("T")
REPLY_WAIT = 1.0  # seconds a reply may wait for a database write


class StorageError(Exception):
    """The database cannot be used (the operator's fault or the machine's): says which path and what to do, as a
    sentence of the problems' catalogues (bot/core/problems.py), or several said one after another (`Joined`), in
    Spanish (str) or the reader's language (`text`)."""

    def __init__(self, sentence: Said) -> None:
        if not isinstance(sentence, Sentence | Joined):
            raise TypeError(f"StorageError says a Sentence of the problems' catalogues, not {type(sentence).__name__}")
        super().__init__(sentence.text("es"))
        self.sentence = sentence

    @property
    def english(self) -> str:
        return self.sentence.text("en")

    def text(self, lang: str = "es") -> str:
        return self.sentence.text(lang)


class DatabaseBusy(Exception):
    """A write did not go through now: another process holds the lock, or the disk refused it. Worth trying
    again later (the write queue does; a reply says so)."""


async def within_a_second(awaitable: Awaitable[T]) -> T:
    """A database write on a reply's path: done within REPLY_WAIT seconds, or DatabaseBusy."""
    try:
        return await asyncio.wait_for(awaitable, REPLY_WAIT)
    except TimeoutError as exc:
        raise DatabaseBusy("timed out") from exc
