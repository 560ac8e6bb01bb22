"""Helpers shared by several test modules (no fixtures: those are in conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable


class NoDatabase:
    """A unit of work with nothing behind it, for the write queue's own tests: every transaction "commits", and
    an OSError (a full disk) is what is worth retrying (anything else stands for a refusal of the content)."""

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield

    def refuses_content(self, error: BaseException) -> bool:
        return not isinstance(error, OSError)


async def eventually(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until `predicate()` holds (for state the bot changes without telling the fake Discord); fails after
    `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"still not true after {timeout} s")
        await asyncio.sleep(0.01)


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """`glosario-bot ARGV` in this process: its exit code, what it printed and what it said on stderr."""
    from bot.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
