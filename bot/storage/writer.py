"""WriteQueue: every write happens after the reply, in order, retried; what cannot be written is journaled.

A write is a small JSON-able record (op + fields), so that one the database refuses (locked, read-only,
full disk) can wait in memory, then in a journal file next to the database, and be replayed later.
Records queued together are written as one batch in one transaction: under load that is what keeps the
database from slowing replies down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[list[dict[str, Any]]], Awaitable[None]]  # writes a batch of one op; does not commit
MAX_BATCH = 500


class WriteQueue:
    def __init__(
        self,
        handlers: dict[str, Handler],
        journal: Path,
        *,
        commit: Callable[[], Awaitable[None]],
        rollback: Callable[[], Awaitable[None]] | None = None,
        attempts: int = 6,
        first_delay: float = 0.25,
        linger: float = 0.05,
    ) -> None:
        self._handlers = handlers
        self._commit = commit
        self._rollback = rollback
        self._journal = journal
        self._attempts = attempts
        self._first_delay = first_delay
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._unsaved: list[dict[str, Any]] = []  # neither the database nor the journal took these yet
        self._in_flight: list[dict[str, Any]] = []  # the batch being written right now
        self._linger = linger
        self.written = 0

    def submit(self, op: str, /, **fields: Any) -> None:
        """Queue a write; never blocks (called right after a reply). `op` names the handler."""
        if op not in self._handlers:
            raise ValueError(f"unknown write {op!r}")
        self._queue.put_nowait({"op": op, **fields})

    @property
    def pending(self) -> int:
        return self._queue.qsize() + len(self._in_flight) + len(self._unsaved)

    async def start(self) -> None:
        await self.replay_journal()
        if self._worker is None:
            self._worker = asyncio.create_task(self._run(), name="glosario-write-queue")

    async def drain(self) -> None:
        """Wait until every queued write has been made (or given up on and journaled)."""
        await self._queue.join()

    async def close(self, grace: float = 8.0) -> None:
        """Write what is queued (for up to `grace` seconds), journal the rest, stop the worker."""
        try:
            await asyncio.wait_for(self._queue.join(), grace)
        except TimeoutError:
            log.error("database writes still pending after %.0f s: journaling them", grace)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
        # A batch interrupted mid-write was rolled back with its transaction: it must not be lost either.
        self._unsaved.extend(self._in_flight)
        for _ in self._in_flight:
            self._queue.task_done()
        self._in_flight = []
        while not self._queue.empty():
            self._unsaved.append(self._queue.get_nowait())
            self._queue.task_done()
        self._flush_unsaved_to_journal()

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            self._in_flight = batch  # the same list grows below; close() journals it if we are cancelled
            if self._linger:  # under load, gather what arrives in the next moment into the same transaction
                await asyncio.sleep(self._linger)
            while len(batch) < MAX_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            written = await self._apply_with_retry(batch)
            # (a cancellation leaves the batch in _in_flight, where close() picks it up)
            if not written:
                self._unsaved.extend(batch)
                self._flush_unsaved_to_journal()
            elif self._unsaved:  # the database works again: what neither it nor the journal took goes in now
                await self._retry_unsaved()
            self._in_flight = []
            for _ in batch:
                self._queue.task_done()

    async def _retry_unsaved(self) -> None:
        waiting, self._unsaved = self._unsaved, []
        if await self._apply_with_retry(waiting):
            log.info("wrote %d record(s) kept in memory while the disk refused them", len(waiting))
        else:
            self._unsaved = waiting + self._unsaved

    async def _apply_once(self, batch: list[dict[str, Any]]) -> None:
        by_op: dict[str, list[dict[str, Any]]] = {}  # first-seen order: a miss is written before its pick
        for record in batch:
            by_op.setdefault(record["op"], []).append({k: v for k, v in record.items() if k != "op"})
        for op, records in by_op.items():
            await self._handlers[op](records)
        await self._commit()

    async def _apply_with_retry(self, batch: list[dict[str, Any]]) -> bool:
        """Write the batch, retrying what the disk refuses with back-off. False when it could not be written."""
        delay = self._first_delay
        for attempt in range(1, self._attempts + 1):
            try:
                await self._apply_once(batch)
                self.written += len(batch)
                return True
            except (sqlite3.OperationalError, sqlite3.DatabaseError, OSError) as exc:
                log.warning(
                    "database write of %d record(s) failed (attempt %d/%d): %s",
                    len(batch),
                    attempt,
                    self._attempts,
                    exc,
                )
                await self._rollback_quietly()
                if attempt < self._attempts:
                    await asyncio.sleep(delay)
                    delay *= 2
            except Exception:  # a bad record is not retried, but the worker must outlive it
                log.exception("unexpected error writing %d record(s)", len(batch))
                await self._rollback_quietly()
                return False
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
            if record.get("op") in self._handlers and await self._apply_with_retry([record]):
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
