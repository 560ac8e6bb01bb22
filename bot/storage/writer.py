"""WriteQueue: every write happens after the reply, in order, retried; what cannot be written is journaled.

A write is a typed record (bot.storage.records), kept as JSON-able fields (op + id + fields), so that one the
database refuses (locked, read-only, full disk) can wait in memory, then in a journal file, and be replayed
later.
Records queued together are written as one batch in one transaction: under load that is what keeps the
database from slowing replies down.

Guarantees (stated in docs/privacy.md, "What can be lost, and when"):
- one record the database cannot take (bad data) never holds back the others: a failing batch is split and
  each record tried alone; one that still fails goes to the rejected file with the reason, and is not retried;
- the journal is appended to and synced, each record whole or not at all (bot.storage.journal);
- every record carries an id, claimed in the database in the same transaction as the record, before it is
  applied: replaying a journal whose records were already applied (a crash between the database write and the
  journal cleanup, or two processes replaying copies of it at once) never counts them twice;
- each process has its own journal, and a journal is replayed by one process at a time: it is claimed by an
  atomic rename (under the journal's lock file) and the claimed copy is locked while it is replayed, so that a
  process can also replay journals other processes left (another layout of shards, the old shared name);
- a full disk: the journal's room is reserved at start (a file next to it, preallocated for the queue's limit,
  MAX_WAITING records, or what a small disk can spare), and given back record by record as the journal needs it;
  then there is the fallback journal (GLOSARIO_JOURNAL_FALLBACK), then the log, one JSON line per record, which
  `glosario-bot replay-log` writes back (each record once): nothing acknowledged is lost without a trace;
- the queue holds at most its limit in memory while the database refuses: past it, it stops waiting for the
  database and journals them;
- a record made at or before the erasure of a member it names or of its server is not written, whoever queued,
  journaled or logged it (the forgotten list, read in the batch's own transaction: bot.storage.forgotten);
- the worker outlives any error; `close` always returns and says what it could not save.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.forgotten import keys
from bot.storage.interfaces import AppliedLog, ForgottenList, UnitOfWork
from bot.storage.journal import REFUSED, UNSAVED, Reserve, append_lines, claim, held, journal_line
from bot.storage.records import WriteRecord, checked_record_from, record_fields, record_from

log = logging.getLogger(__name__)

Handler = Callable[[Sequence[Any]], Awaitable[None]]  # writes a batch of records of one type
MAX_BATCH = 500
MAX_WAITING = 6000  # records the queue holds in memory while the database refuses them (then it journals them)
RECORD_ROOM = 350  # bytes of the journal a record takes (a gap's line is some 250 to 330)
RESERVE_BYTES = MAX_WAITING * RECORD_ROOM  # the journal's room, set aside at start (2 MB)
T = TypeVar("T")
__all__ = ["REFUSED", "UNSAVED", "WriteQueue"]


class WriteQueue:
    def __init__(
        self,
        handlers: Mapping[type[WriteRecord], Handler],
        journal: Path,
        *,
        unit: UnitOfWork,
        applied: AppliedLog | None = None,
        forgotten: ForgottenList | None = None,
        rejected: Path | None = None,
        others: Sequence[Path] = (),
        fallback: Path | None = None,
        reserve: int = RESERVE_BYTES,
        attempts: int = 6,
        first_delay: float = 0.25,
        linger: float = 0.02,
    ) -> None:
        self._handlers = {kind.OP: handler for kind, handler in handlers.items()}
        self._unit = unit
        self._applied = applied
        self._forgotten_list = forgotten  # who was forgotten, and when: what was made before is not written
        self._journal = Path(journal)
        self._others = [Path(p) for p in others if Path(p) != self._journal]  # journals others left: replayed too
        self._fallback = Path(fallback) if fallback else None  # the journal's second place (another disk)
        self._room = Reserve(self._journal, reserve)
        self._limit = MAX_WAITING  # records waiting in memory past which the queue journals them (what `_room` holds)
        self._rejected = Path(rejected) if rejected else self._journal.with_name(self._journal.name + ".rejected")
        self._attempts = attempts
        self._first_delay = first_delay
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._unsaved: list[dict[str, Any]] = []  # neither the database nor the journal took these yet
        self._in_flight: list[dict[str, Any]] = []  # the batch being written right now
        self._taken = 0  # records the worker took off the queue and has not yet counted done (`drain` waits for them)
        self._retrying: list[dict[str, Any]] = []  # what the memory held, being written again right now
        self._forgotten: set[str] = set()  # ids of records being written that name someone forgotten meanwhile
        self._linger = linger
        run = secrets.token_hex(6)  # once per queue: ids are unique across runs, and cheap to make
        self._ids = (f"{run}-{n}" for n in itertools.count())
        self.written = 0
        self.rejected = 0
        self.journaled = 0  # records this run left in a journal (not in the database) for the next start
        self.duplicates = 0  # records whose id the database already held: skipped, never counted twice
        self.skipped_forgotten = 0  # records made before their member or server was forgotten: skipped, not written

    def submit(self, record: WriteRecord) -> None:
        """Queue a write; never blocks (called around a reply)."""
        if record.OP not in self._handlers:
            raise ValueError(f"no handler for {record.OP!r} writes")
        self._queue.put_nowait({"op": record.OP, "id": next(self._ids), **record_fields(record)})

    def forget(self, names: Callable[[dict[str, Any]], bool]) -> int:
        """Drop the records waiting here that `names` picks (a member or a server being forgotten), before they are
        written; returns how many. Those of the batch being written at this moment are left out of its next attempt,
        and never journaled (while the database is busy the batch outlasts the erasure: `drain` may not wait for it)."""
        self._forgotten.update(r["id"] for r in itertools.chain(self._in_flight, self._retrying) if names(r))
        kept = [record for record in self._unsaved if not names(record)]
        dropped = len(self._unsaved) - len(kept)
        self._unsaved = kept
        waiting = []
        while not self._queue.empty():
            waiting.append(self._queue.get_nowait())
        for record in waiting:  # (put back before they are marked done: a `drain` in progress never sees it empty)
            if names(record):
                dropped += 1
            else:
                self._queue.put_nowait(record)
        for _ in waiting:
            self._queue.task_done()
        return dropped

    @property
    def pending(self) -> int:
        return self._queue.qsize() + len(self._in_flight) + len(self._retrying) + len(self._unsaved)

    async def start(self) -> None:
        self._reserve_room()
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
        return self.save_now()

    def save_now(self) -> int:
        """Last resort when the process must end this instant: journal everything not yet written (without
        waiting for the database); what no journal takes is written to the log, one JSON line per record.
        Returns how many records only the log holds. `close` ends with it."""
        # A batch interrupted mid-write was rolled back with its transaction: it must not be lost either (and if
        # its commit did land after all, its ids make the replay skip it).
        self._unsaved.extend(self._not_forgotten(self._in_flight))
        self._in_flight = []
        self._count_done()
        self._forgotten.clear()
        while not self._queue.empty():
            self._unsaved.append(self._queue.get_nowait())
            self._queue.task_done()
        self._flush_unsaved_to_journal()
        lost, self._unsaved = self._unsaved, []
        if lost:
            places = " or ".join(str(p) for p in (self._journal, self._fallback) if p)
            log.error(
                "%d database write(s) could be saved neither in the database nor in %s (%s): each is on a line of "
                "its own below; `glosario-bot replay-log` on this log writes them to the database (each once)",
                len(lost),
                places,
                _describe(lost),
            )
            for record in lost:
                log.error("%s %s", UNSAVED, journal_line(record))
        return len(lost)

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            self._in_flight = batch  # the same list grows below; close() journals it if we are cancelled
            self._taken = 1
            try:
                if self._linger:  # under load, gather what arrives in the next moment into the same transaction
                    await asyncio.sleep(self._linger)
                while len(batch) < MAX_BATCH and not self._queue.empty():
                    batch.append(self._queue.get_nowait())
                    self._taken += 1
                skipped_forgotten = self.skipped_forgotten
                unsaved = await self._write(batch)
                if self.skipped_forgotten > skipped_forgotten:  # (queued before another process forgot them)
                    log.info(
                        "skipped %d write(s) made before their member or server was forgotten",
                        self.skipped_forgotten - skipped_forgotten,
                    )
                # (a cancellation leaves the batch in _in_flight, where close() picks it up)
                if unsaved:
                    self._unsaved.extend(unsaved)
                    self._flush_unsaved_to_journal()
                elif self._unsaved:  # the database works again: what neither it nor the journal took goes in now
                    self._in_flight = batch = []  # (written: nothing of it is left for close() to save)
                    await self._retry_unsaved()
            except asyncio.CancelledError:
                raise
            except Exception:  # nothing a record can do may stop the worker: keep the batch for the journal
                log.exception("write worker: unexpected error with %d record(s); keeping them", len(batch))
                self._unsaved.extend(self._not_forgotten(batch))
            self._in_flight = []
            self._forgotten.clear()
            self._count_done()

    def _count_done(self) -> None:
        """What the worker took is written, or kept: `drain` stops waiting for it."""
        for _ in range(self._taken):
            self._queue.task_done()
        self._taken = 0

    async def _write(
        self, batch: list[dict[str, Any]], build: Callable[[Any, dict[str, Any]], WriteRecord] = record_from
    ) -> list[dict[str, Any]]:
        """Write a batch; returns the records the database could not take now (to keep). A record the database
        refuses for its content is split off, tried alone and, failing that, set aside in the rejected file.
        `build` makes each record (`checked_record_from` for records read back from a file: their types checked)."""
        built = []
        for item in batch:  # (a journal line edited by hand may hold fields that make no record: its content)
            try:
                built.append((item, build(item["op"], item)))
            except (TypeError, ValueError, KeyError) as exc:
                self._reject(item, f"{type(exc).__name__}: {exc}")
        outcome = await self._apply_with_retry(built) if built else "ok"
        built = self._not_forgotten(built, itemgetter(0))  # (forgotten while it was tried: neither kept nor set aside)
        if outcome == "ok" or not built:
            return []
        if outcome == "unavailable":
            return [item for item, _ in built]
        if len(built) == 1:
            self._reject(built[0][0], outcome)
            return []
        unsaved: list[dict[str, Any]] = []
        for item, _ in built:
            unsaved.extend(await self._write([item], build))
        return unsaved

    async def _retry_unsaved(self) -> None:
        waiting, self._unsaved = self._unsaved, []
        self._retrying = waiting
        try:
            still = await self._write(waiting)
        except BaseException:  # (stopped meanwhile: close() saves them with the rest, as it would have before)
            self._unsaved = self._not_forgotten(waiting) + self._unsaved
            raise
        finally:
            self._retrying = []
        if len(still) < len(waiting):
            log.info("wrote %d record(s) kept in memory while the disk refused them", len(waiting) - len(still))
        self._unsaved = still + self._unsaved

    async def _apply_once(self, built: list[tuple[dict[str, Any], WriteRecord]]) -> int:
        """Write a batch (each record with its fields) in one transaction; returns how many records were applied
        (not already there)."""
        built = self._not_forgotten(built, itemgetter(0))  # (someone forgotten since the last attempt)
        if not built:
            return 0
        batch = [item for item, _ in built]
        by_op: dict[str, list[WriteRecord]] = {}  # first-seen order: a miss is written before its pick
        async with self._unit.transaction():
            fresh = built
            if self._applied is not None:
                # The ids are claimed first, in this transaction: another process applying the same record at the
                # same moment waits for it, then finds the id taken and skips the record (on both databases).
                ids = list(dict.fromkeys(r["id"] for r in batch if isinstance(r.get("id"), str)))
                claimed = await self._applied.mark(ids)
                fresh = _first_of_each(  # (the same record twice in one batch: two journals held it)
                    [(r, w) for r, w in built if not isinstance(r.get("id"), str) or r["id"] in claimed],
                    itemgetter(0),
                )
            # (after the claim: on PostgreSQL an erasure waits for the claims under way, bot.storage.erasure)
            kept = await self._unless_forgotten(fresh)
            for item, record in kept:
                by_op.setdefault(item["op"], []).append(record)
            for op, records in by_op.items():
                await self._handlers[op](records)
        self.duplicates += len(batch) - len(fresh)
        self.skipped_forgotten += len(fresh) - len(kept)
        return len(kept)

    async def _unless_forgotten(
        self, built: list[tuple[dict[str, Any], WriteRecord]]
    ) -> list[tuple[dict[str, Any], WriteRecord]]:
        """The records (each with its fields) but those made at or before the erasure of a member or a server they
        name: one look-up of the forgotten list for the batch, in its transaction. Their ids are given back."""
        if self._forgotten_list is None or not built:
            return built
        found = await self._forgotten_list.forgotten(*keys(record for _, record in built))
        if not found:
            return built
        kept, skipped = [], []
        for item, record in built:
            left = found.keep(record)
            if left is None:
                skipped.append(item)
            else:
                kept.append((item, left))
        ids = [item["id"] for item in skipped if isinstance(item.get("id"), str)]
        if ids and self._applied is not None:
            await self._applied.release(ids)
        return kept

    async def _apply_with_retry(self, built: list[tuple[dict[str, Any], WriteRecord]]) -> str:
        """Write the batch, retrying with back-off while the database is unavailable: "ok"; "unavailable" when it
        stayed so; otherwise the reason the database refused the content (retrying the same batch cannot help).
        Only a refusal of the content counts as the records' fault: any other error (the disk, a lock, the
        connection, the pool, the protocol, the driver's state, one nobody foresaw) keeps them."""
        delay = self._first_delay
        for attempt in range(1, self._attempts + 1):
            try:
                self.written += await self._apply_once(built)
                return "ok"
            except Exception as exc:
                if self._unit.refuses_content(exc):
                    log.warning("database refused %d record(s) for their content: %r", len(built), exc)
                    return f"{type(exc).__name__}: {exc}"
                log.warning(
                    "database write of %d record(s) failed (attempt %d/%d): %s: %s",
                    len(built),
                    attempt,
                    self._attempts,
                    type(exc).__name__,
                    exc,
                )
                if attempt < self._attempts and self._queue.qsize() >= self._limit:
                    log.warning("%d write(s) wait behind these: journaling them now", self._queue.qsize())
                    break  # past the queue's limit: what waits is journaled rather than held in memory
                if attempt < self._attempts:
                    await asyncio.sleep(delay)
                    delay *= 2
        return "unavailable"

    def _not_forgotten(self, items: list[T], fields: Callable[[T], dict[str, Any]] = lambda r: r) -> list[T]:
        """The items but those being written when someone they name was forgotten (`forget`)."""
        if not self._forgotten:
            return items
        return [item for item in items if fields(item).get("id") not in self._forgotten]

    def _reject(self, record: dict[str, Any], reason: str) -> None:
        """Set one record the database refused for its content aside for good, with the reason, in the rejected
        file and whole in the log: it is never replayed, and never blocks the others."""
        self.rejected += 1
        log.error(
            "database write %s (%s) rejected for its content (%s), set aside in %s; %s %s",
            record.get("id"),
            record.get("op"),
            reason,
            self._rejected,
            REFUSED,
            journal_line(record),
        )
        try:
            append_lines(self._rejected, [journal_line({**record, "rejected_because": reason})], self._room)
        except OSError as exc:
            log.error("could not keep the rejected write in %s too: %s", self._rejected, exc)

    def _flush_unsaved_to_journal(self) -> None:
        """Put what the database did not take in the journal (or the fallback); what neither takes stays in
        memory (retried when the database works again; `save_now` writes it to the log)."""
        if not self._unsaved:
            return
        where = self._keep([journal_line(record) for record in self._unsaved])
        if where is None:
            log.error("could not journal %d pending write(s); keeping them in memory", len(self._unsaved))
            return
        log.error("%d database write(s) saved to %s; they are replayed at the next start", len(self._unsaved), where)
        self.journaled += len(self._unsaved)
        self._unsaved.clear()

    def _keep(self, lines: list[str]) -> Path | None:
        """Add lines to this process's journal (on a full disk, into the room reserved for it), else to the fallback
        journal. Where they went, or None."""
        try:
            append_lines(self._journal, lines, self._room)
            return self._journal
        except OSError as exc:
            log.error("could not write the journal %s: %s", self._journal, exc)
        if self._fallback is not None:
            try:
                append_lines(self._fallback, lines)
                return self._fallback
            except OSError as exc:
                log.error("could not write the fallback journal %s either: %s", self._fallback, exc)
        return None

    def _reserve_room(self) -> None:
        """Set the journal's room aside while the disk has it (a full disk later can still take the queue), and
        hold no more in memory than that room takes."""
        wanted = self._room.wanted
        if wanted <= 0:
            return
        held = self._room.make()
        self._limit = max(MAX_BATCH, held // RECORD_ROOM)
        if held < wanted:
            log.warning(
                "the disk of %s has little room: the journal's reserve holds some %d records (%d KB) instead of %d",
                self._journal,
                held // RECORD_ROOM,
                held // 1024,
                wanted // RECORD_ROOM,
            )

    async def replay_journal(self) -> int:
        """Apply the writes a previous run (of this process or another) could not make, each once; keeps the
        ones that still fail in this process's journal. Returns how many were applied."""
        done = 0
        for path in [self._journal, *self._others]:
            done += await self._replay_claims(path)
        return done

    async def _replay_claims(self, journal: Path) -> int:
        """Claim a journal (an atomic rename, under its lock) and replay it; also the claimed copies a process
        left when it stopped in the middle of a replay (their lock is free: a live replayer holds it)."""
        claimed = claim(journal)
        pattern = glob.escape(journal.name) + ".replaying-*"
        copies = [claimed] if claimed else []
        with contextlib.suppress(OSError):
            copies += [p for p in sorted(journal.parent.glob(pattern)) if p != claimed]
        done = 0
        for copy in copies:
            with held(copy) as text:
                if text is not None:
                    done += await self._replay_text(copy, text)
        return done

    async def _replay_text(self, path: Path, text: str) -> int:
        records = []
        for line in text.splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                log.error("skipping an unreadable line of %s: %r", path, line[:200])
        known = []
        for record in records:
            if isinstance(record, dict) and record.get("op") in self._handlers:
                known.append(record)
            else:
                self._reject(record if isinstance(record, dict) else {"value": record}, "unknown write")
        done_before = await self._already_applied(known)
        fresh = _first_of_each([r for r in known if r.get("id") not in done_before])
        duplicates, rejected, skipped_forgotten = self.duplicates, self.rejected, self.skipped_forgotten
        self.duplicates += len(known) - len(fresh)  # found applied before writing (or twice in this journal)
        # (a line edited by hand or torn: its fields' types checked before any handler meets them)
        failed = await self._write(fresh, checked_record_from) if fresh else []
        refused = self.rejected - rejected  # (set aside by `_write`: fields that make no record, or refused content)
        skipped = self.duplicates - duplicates  # ... and those another process claimed while these were written
        forgotten = self.skipped_forgotten - skipped_forgotten  # ... and those of a member or server forgotten since
        if skipped:
            log.info("skipped %d journaled write(s) already in the database", skipped)
        if forgotten:
            log.info("skipped %d journaled write(s) of a member or server forgotten after they were made", forgotten)
        if failed:
            where = self._keep([journal_line(r) for r in failed])
            if where is None:  # left where it is (a journal itself): replayed at the next start, by its ids once
                log.error("could not keep %d journaled write(s) anywhere else: leaving %s", len(failed), path)
                self.journaled += len(failed)
                return 0
            log.error("%d journaled write(s) still not written: kept in %s", len(failed), where)
            self.journaled += len(failed)
        try:
            os.unlink(path)
        except OSError as exc:
            log.error("cannot remove the replayed write journal %s: %s", path, exc)
        done = len(known) - len(failed) - skipped - refused - forgotten
        if done:
            log.info("replayed %d journaled write(s) from %s", done, path)
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


def _first_of_each(records: list[T], fields: Callable[[T], dict[str, Any]] = lambda r: r) -> list[T]:
    """The records with the first of each id (records without one are all kept); `fields` finds a record's
    fields in an item (the item itself, or the first of a pair)."""
    seen: set[str] = set()
    kept = []
    for record in records:
        key = fields(record).get("id")
        if isinstance(key, str):
            if key in seen:
                continue
            seen.add(key)
        kept.append(record)
    return kept


def _describe(records: list[dict[str, Any]]) -> str:
    ops: dict[str, int] = {}
    for record in records:
        ops[str(record.get("op"))] = ops.get(str(record.get("op")), 0) + 1
    return ", ".join(f"{n} {op}" for op, n in sorted(ops.items()))
