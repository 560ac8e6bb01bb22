"""Helpers shared by several test modules (no fixtures: those are in conftest.py)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator


class NoDatabase:
    """A unit of work with nothing behind it, for the write queue's own tests: every transaction "commits", and
    an OSError (a full disk) is what is worth retrying."""

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield

    def transient(self, error: BaseException) -> bool:
        return isinstance(error, OSError)
