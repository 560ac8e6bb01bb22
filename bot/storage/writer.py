"""WriteQueue: every write happens after the reply, in order, retried; what cannot be written is journaled.

A write is a typed record (bot.storage.records), kept as JSON-able fields (op + id + fields), so that one the
database refuses (locked, read-only, full disk) can wait in memory, then in a journal file, and be replayed
later.
Records queued together are written as one batch in one transaction: under load that is what keeps the
database from slowing replies down.

Guarantees (stated in the README's "Data and privacy"):
- one record the database cannot take (bad data) never holds back the others: a failing batch is split and
  each record tried alone; one that still fails goes to the rejected file with the reason, and is not retried;
- the journal is rewritten atomically (temp file + fsync + rename): a record is in it whole or not at all;
- every record carries an id, stored with it in the same transaction: replaying a journal whose records were
  already applied (a crash between the database write and the journal cleanup) never counts them twice;
- the worker outlives any error; `close` always returns and says what it could not save.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.storage.interfaces import AppliedLog, UnitOfWork
from bot.storage.records import WriteRecord, record_fields, record_from

log = logging.getLogger(__name__)

Handler = Callable[[Sequence[Any]], Awaitable[None]]  # writes a batch of records of one type
MAX_BATCH = 500


class WriteQueue:
    def __init__(
        self,
        handlers: Mapping[type[WriteRecord], Handler],
        journal: Path,
        *,
        unit: UnitOfWork,
        applied: AppliedLog | None = None,
        rejected: Path | None = None,
        attempts: int = 6,
        first_delay: float = 0.25,
        linger: float = 0.02,
    ) -> None:
        self._handlers = {kind.OP: handler for kind, handler in handlers.items()}
        self._unit = unit
        self._applied = applied
        self._journal = Path(journal)
        self._rejected = Path(rejected) if rejected else self._journal.with_name(self._journal.name + ".rejected")
        self._attempts = attempts
        self._first_delay = first_delay
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._unsaved: list[dict[str, Any]] = []  # neither the database nor the journal took these yet
        self._in_flight: list[dict[str, Any]] = []  # the batch being written right now
        self._linger = linger
        run = secrets.token_hex(6)  # once per queue: ids are unique across runs, and cheap to make
        self._ids = (f"{run}-{n}" for n in itertools.count())
        self.written = 0
        self.rejected = 0

    def submit(self, record: WriteRecord) -> None:
        """Queue a write; never blocks (called around a reply)."""
        if record.OP not in self._handlers:
            raise ValueError(f"no handler for {record.OP!r} writes")
        self._queue.put_nowait({"op": record.OP, "id": next(self._ids), **record_fields(record)})

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

    async def close(self, grace: float = 8.0) -> int:
        """Write what is queued (for up to `grace` seconds), journal the rest, stop the worker.

        Returns how many records could be saved nowhere (0 when nothing was lost); never raises."""
        try:
            await asyncio.wait_for(self._queue.join(), grace)
        except TimeoutError:
            log.error("database writes still pending after %.0f s: journaling them", grace)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
        lost = self.save_now()
        if lost:
            log.error(
                "%d database write(s) could be saved neither in the database nor in %s: lost (%s)",
                lost,
                self._journal,
                _describe(self._unsaved),
            )
        return lost

    def save_now(self) -> int:
        """Last resort when the process must end this instant: journal everything not yet written (without
        waiting for the database). Returns how many records could be saved nowhere. `close` ends with it."""
        # A batch interrupted mid-write was rolled back with its transaction: it must not be lost either (and if
        # its commit did land after all, its ids make the replay skip it).
        self._unsaved.extend(self._in_flight)
        for _ in self._in_flight:
            self._queue.task_done()
        self._in_flight = []
        while not self._queue.empty():
            self._unsaved.append(self._queue.get_nowait())
            self._queue.task_done()
        self._flush_unsaved_to_journal()
        return len(self._unsaved)

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            self._in_flight = batch  # the same list grows below; close() journals it if we are cancelled
            try:
                if self._linger:  # under load, gather what arrives in the next moment into the same transaction
                    await asyncio.sleep(self._linger)
                while len(batch) < MAX_BATCH and not self._queue.empty():
                    batch.append(self._queue.get_nowait())
                unsaved = await self._write(batch)
                # (a cancellation leaves the batch in _in_flight, where close() picks it up)
                if unsaved:
                    self._unsaved.extend(unsaved)
                    self._flush_unsaved_to_journal()
                elif self._unsaved:  # the database works again: what neither it nor the journal took goes in now
                    await self._retry_unsaved()
            except asyncio.CancelledError:
                raise
            except Exception:  # nothing a record can do may stop the worker: keep the batch for the journal
                log.exception("write worker: unexpected error with %d record(s); keeping them", len(batch))
                self._unsaved.extend(batch)
            self._in_flight = []
            for _ in batch:
                self._queue.task_done()

    async def _write(self, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Write a batch; returns the records the disk refused (to keep). A record whose data the database
        rejects is split off, tried alone and, failing that, set aside in the rejected file."""
        outcome = await self._apply_with_retry(batch)
        if outcome == "ok":
            return []
        if outcome == "disk":
            return batch
        if len(batch) == 1:
            self._reject(batch[0], outcome)
            return []
        unsaved: list[dict[str, Any]] = []
        for record in batch:
            unsaved.extend(await self._write([record]))
        return unsaved

    async def _retry_unsaved(self) -> None:
        waiting, self._unsaved = self._unsaved, []
        still = await self._write(waiting)
        if len(still) < len(waiting):
            log.info("wrote %d record(s) kept in memory while the disk refused them", len(waiting) - len(still))
        self._unsaved = still + self._unsaved

    async def _apply_once(self, batch: list[dict[str, Any]]) -> None:
        by_op: dict[str, list[WriteRecord]] = {}  # first-seen order: a miss is written before its pick
        for item in batch:  # (a journal line with wrong fields raises TypeError here: the data, not the disk)
            by_op.setdefault(item["op"], []).append(record_from(item["op"], item))
        async with self._unit.transaction():
            for op, records in by_op.items():
                await self._handlers[op](records)
            if self._applied is not None:
                await self._applied.mark([r["id"] for r in batch if "id" in r])

    async def _apply_with_retry(self, batch: list[dict[str, Any]]) -> str:
        """Write the batch, retrying what the disk refuses with back-off: "ok"; "disk" when the disk kept
        refusing; otherwise the reason the data itself was refused."""
        delay = self._first_delay
        for attempt in range(1, self._attempts + 1):
            try:
                await self._apply_once(batch)
                self.written += len(batch)
                return "ok"
            except Exception as exc:
                if not self._unit.transient(exc):  # the data, not the disk: retrying the same batch cannot help
                    log.warning("database refused %d record(s): %r", len(batch), exc)
                    return f"{type(exc).__name__}: {exc}"
                log.warning(
                    "database write of %d record(s) failed (attempt %d/%d): %s",
                    len(batch),
                    attempt,
                    self._attempts,
                    exc,
                )
                if attempt < self._attempts:
                    await asyncio.sleep(delay)
                    delay *= 2
        return "disk"

    def _reject(self, record: dict[str, Any], reason: str) -> None:
        """Set one record aside for good, with the reason: it is never replayed, and never blocks the others."""
        self.rejected += 1
        log.error(
            "database write %s (%s) rejected: %s; kept in %s",
            record.get("id"),
            record.get("op"),
            reason,
            self._rejected,
        )
        try:
            _atomic_append(self._rejected, [_line({**record, "rejected_because": reason})])
        except OSError as exc:
            log.error("could not keep the rejected write in %s either (%s): %s", self._rejected, exc, _line(record))

    def _flush_unsaved_to_journal(self) -> None:
        if not self._unsaved:
            return
        try:
            _atomic_append(self._journal, [_line(record) for record in self._unsaved])
        except OSError as exc:
            log.error(
                "could not journal %d pending write(s) to %s (%s); keeping them in memory",
                len(self._unsaved),
                self._journal,
                exc,
            )
            return
        log.error(
            "%d database write(s) saved to %s; they are replayed at the next start", len(self._unsaved), self._journal
        )
        self._unsaved.clear()

    async def replay_journal(self) -> int:
        """Apply the writes a previous run could not make, each once; keeps the ones that still fail."""
        if not self._journal.exists():
            return 0
        try:
            lines = self._journal.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            log.error("cannot read the write journal %s: %s", self._journal, exc)
            return 0
        records = []
        for line in lines:
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                log.error("skipping an unreadable line of %s: %r", self._journal, line[:200])
        known = []
        for record in records:
            if isinstance(record, dict) and record.get("op") in self._handlers:
                known.append(record)
            else:
                self._reject(record if isinstance(record, dict) else {"value": record}, "unknown write")
        done_before = await self._already_applied(known)
        fresh = [r for r in known if r.get("id") not in done_before]
        if len(fresh) < len(known):
            log.info("skipped %d journaled write(s) already in the database", len(known) - len(fresh))
        failed = await self._write(fresh) if fresh else []
        try:
            if failed:
                write_atomically(self._journal, [_line(r) for r in failed])
            else:
                self._journal.unlink()
        except OSError as exc:
            log.error("cannot rewrite the write journal %s: %s", self._journal, exc)
        done = len(fresh) - len(failed)
        if done:
            log.info("replayed %d journaled write(s) from %s", done, self._journal)
        return done

    async def _already_applied(self, records: list[dict[str, Any]]) -> set[str]:
        ids = [r["id"] for r in records if isinstance(r.get("id"), str)]
        if self._applied is None or not ids:
            return set()
        try:
            return await self._applied.applied(ids)
        except Exception:
            log.warning("could not check which journaled writes were applied already", exc_info=True)
            return set()


def _line(record: dict[str, Any]) -> str:
    # ASCII escapes: any str can be written, even one with a lone surrogate that UTF-8 cannot encode.
    return json.dumps(record, ensure_ascii=True, default=str)


def _describe(records: list[dict[str, Any]]) -> str:
    ops: dict[str, int] = {}
    for record in records:
        ops[str(record.get("op"))] = ops.get(str(record.get("op")), 0) + 1
    return ", ".join(f"{n} {op}" for op, n in sorted(ops.items()))


def _atomic_append(path: Path, lines: list[str]) -> None:
    """Add whole lines to a file: the new file is written beside it and renamed over it, so a full disk or a
    crash leaves the old file as it was, never a half-written record."""
    old = ""
    with contextlib.suppress(FileNotFoundError):
        old = path.read_text(encoding="utf-8")
    write_atomically(path, [old.rstrip("\n"), *lines] if old.strip() else lines)


def write_atomically(path: Path, lines: list[str]) -> None:
    """Replace a file by these lines, whole or not at all: written beside it, synced, renamed over it; the temp
    file is removed if anything fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
