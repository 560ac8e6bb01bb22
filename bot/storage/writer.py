"""WriteQueue: every write happens after the reply, in order, retried; what cannot be written is journaled.

A write is a small JSON-able record (kind + fields), so that one the database refuses (locked, read-only,
full disk) can wait in memory, then in a journal file next to the database, and be replayed later.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[..., Awaitable[None]]


class WriteQueue:
    def __init__(
        self,
        handlers: dict[str, Handler],
        journal: Path,
        *,
        rollback: Callable[[], Awaitable[None]] | None = None,
        attempts: int = 6,
        first_delay: float = 0.25,
    ) -> None:
        self._handlers = handlers
        self._rollback = rollback
        self._journal = journal
        self._attempts = attempts
        self._first_delay = first_delay
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._unsaved: list[dict[str, Any]] = []  # neither the database nor the journal took these yet
        self.written = 0

    def submit(self, op: str, /, **fields: Any) -> None:
        """Queue a write; never blocks (called right after a reply). `op` names the handler."""
        if op not in self._handlers:
            raise ValueError(f"unknown write {op!r}")
        self._queue.put_nowait({"op": op, **fields})

    @property
    def pending(self) -> int:
        return self._queue.qsize() + len(self._unsaved)

    async def start(self) -> None:
        await self.replay_journal()
        if self._worker is None:
            self._worker = asyncio.create_task(self._run(), name="glosario-write-queue")

    async def close(self, timeout: float = 8.0) -> None:
        """Write what is queued (up to `timeout` seconds), journal the rest, stop the worker."""
        try:
            await asyncio.wait_for(self._queue.join(), timeout)
        except TimeoutError:
            log.error("database writes still pending after %.0f s: journaling them", timeout)
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except asyncio.CancelledError:
                pass
            self._worker = None
        while not self._queue.empty():
            self._unsaved.append(self._queue.get_nowait())
            self._queue.task_done()
        self._flush_unsaved_to_journal()

    async def _run(self) -> None:
        while True:
            record = await self._queue.get()
            try:
                if not await self._apply_with_retry(record):
                    self._unsaved.append(record)
                    self._flush_unsaved_to_journal()
            except Exception:  # the worker must outlive any single bad record
                log.exception("unexpected error writing %s", record.get("op"))
                self._unsaved.append(record)
            finally:
                self._queue.task_done()

    async def _apply_with_retry(self, record: dict[str, Any]) -> bool:
        delay = self._first_delay
        fields = {k: v for k, v in record.items() if k != "op"}
        for attempt in range(1, self._attempts + 1):
            try:
                await self._handlers[record["op"]](**fields)
                self.written += 1
                return True
            except (sqlite3.OperationalError, sqlite3.DatabaseError, OSError) as exc:
                log.warning("database write %s failed (attempt %d/%d): %s", record["op"], attempt, self._attempts, exc)
                await self._rollback_quietly()
                if attempt < self._attempts:
                    await asyncio.sleep(delay)
                    delay *= 2
        return False

    async def _rollback_quietly(self) -> None:
        """A failed statement can leave a transaction open: end it before the next attempt."""
        if self._rollback is not None:
            try:
                await self._rollback()
            except Exception:
                log.debug("rollback after a failed write also failed", exc_info=True)

    def _flush_unsaved_to_journal(self) -> None:
        if not self._unsaved:
            return
        try:
            self._journal.parent.mkdir(parents=True, exist_ok=True)
            with self._journal.open("a", encoding="utf-8") as fh:
                for record in self._unsaved:
                    fh.write(json.dumps(record, ensure_ascii=False) + "\n")
                fh.flush()
            log.error(
                "%d database write(s) saved to %s; they are replayed at the next start",
                len(self._unsaved),
                self._journal,
            )
            self._unsaved.clear()
        except OSError as exc:
            log.error(
                "could not journal %d pending write(s) to %s (%s); keeping them in memory",
                len(self._unsaved),
                self._journal,
                exc,
            )

    async def replay_journal(self) -> int:
        """Apply the writes a previous run could not make; keeps the ones that still fail."""
        if not self._journal.exists():
            return 0
        try:
            lines = self._journal.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            log.error("cannot read the write journal %s: %s", self._journal, exc)
            return 0
        failed, done = [], 0
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                log.error("skipping an unreadable line of %s: %r", self._journal, line[:200])
                continue
            if record.get("op") in self._handlers and await self._apply_with_retry(record):
                done += 1
            else:
                failed.append(line)
        try:
            if failed:
                self._journal.write_text("\n".join(failed) + "\n", encoding="utf-8")
            else:
                self._journal.unlink()
        except OSError as exc:
            log.error("cannot rewrite the write journal %s: %s", self._journal, exc)
        if done:
            log.info("replayed %d journaled write(s) from %s", done, self._journal)
        return done
