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
- every record carries an id, claimed in the database in the same transaction as the record, before it is
  applied: replaying a journal whose records were already applied (a crash between the database write and the
  journal cleanup, or two processes replaying copies of it at once) never counts them twice;
- each process has its own journal, and a journal is replayed by one process at a time: it is claimed by an
  atomic rename (under the journal's lock file) and the claimed copy is locked while it is replayed, so that a
  process can also replay journals other processes left (another layout of shards, the old shared name);
- a full disk at stop: the space of the journal is reserved at start (a file next to it, released to write the
  journal), then there is the fallback journal (GLOSARIO_JOURNAL_FALLBACK), then the log, one JSON line per
  record: nothing acknowledged is lost without a trace;
- the worker outlives any error; `close` always returns and says what it could not save.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import glob
import itertools
import json
import logging
import os
import secrets
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import IO, Any, TypeVar

from bot.storage.errors import DatabaseBusy
from bot.storage.interfaces import AppliedLog, UnitOfWork
from bot.storage.records import WriteRecord, record_fields, record_from

log = logging.getLogger(__name__)

Handler = Callable[[Sequence[Any]], Awaitable[None]]  # writes a batch of records of one type
MAX_BATCH = 500
RESERVE_BYTES = 2 * 1024 * 1024  # set aside next to the journal at start: some 6,000 records when the disk fills
T = TypeVar("T")
UNSAVED = "write saved nowhere but this log:"  # the last resort's lines: the JSON after it is a journal line
REFUSED = "write refused for its content, whole:"  # a record set aside: the JSON after it is the record


class WriteQueue:
    def __init__(
        self,
        handlers: Mapping[type[WriteRecord], Handler],
        journal: Path,
        *,
        unit: UnitOfWork,
        applied: AppliedLog | None = None,
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
        self._journal = Path(journal)
        self._others = [Path(p) for p in others if Path(p) != self._journal]  # journals others left: replayed too
        self._fallback = Path(fallback) if fallback else None  # the journal's second place (another disk)
        self._reserve = self._journal.with_name(self._journal.name + ".reserve")
        self._reserve_bytes = reserve
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
        self.journaled = 0  # records this run left in a journal (not in the database) for the next start
        self.duplicates = 0  # records whose id the database already held: skipped, never counted twice

    def submit(self, record: WriteRecord) -> None:
        """Queue a write; never blocks (called around a reply)."""
        if record.OP not in self._handlers:
            raise ValueError(f"no handler for {record.OP!r} writes")
        self._queue.put_nowait({"op": record.OP, "id": next(self._ids), **record_fields(record)})

    def forget(self, names: Callable[[dict[str, Any]], bool]) -> int:
        """Drop the records waiting here that `names` picks (a member or a server being forgotten), before they are
        written; returns how many. A batch being written at this moment is not touched: `drain` waits for it."""
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
        return self._queue.qsize() + len(self._in_flight) + len(self._unsaved)

    async def start(self) -> None:
        self._make_reserve()
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
        self._unsaved.extend(self._in_flight)
        for _ in self._in_flight:
            self._queue.task_done()
        self._in_flight = []
        while not self._queue.empty():
            self._unsaved.append(self._queue.get_nowait())
            self._queue.task_done()
        self._flush_unsaved_to_journal()
        lost, self._unsaved = self._unsaved, []
        if lost:
            places = " or ".join(str(p) for p in (self._journal, self._fallback) if p)
            log.error(
                "%d database write(s) could be saved neither in the database nor in %s (%s): each is on a line "
                "'%s' below; put the JSON of those lines in %s to have them replayed at the next start",
                len(lost),
                places,
                _describe(lost),
                UNSAVED,
                self._journal,
            )
            for record in lost:
                log.error("%s %s", UNSAVED, _line(record))
        return len(lost)

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
        """Write a batch; returns the records the database could not take now (to keep). A record the database
        refuses for its content is split off, tried alone and, failing that, set aside in the rejected file."""
        built = []
        for item in batch:  # (a journal line edited by hand may hold fields that make no record: its content)
            try:
                built.append((item, record_from(item["op"], item)))
            except (TypeError, ValueError, KeyError) as exc:
                self._reject(item, f"{type(exc).__name__}: {exc}")
        outcome = await self._apply_with_retry(built) if built else "ok"
        if outcome == "ok":
            return []
        if outcome == "unavailable":
            return [item for item, _ in built]
        if len(built) == 1:
            self._reject(built[0][0], outcome)
            return []
        unsaved: list[dict[str, Any]] = []
        for item, _ in built:
            unsaved.extend(await self._write([item]))
        return unsaved

    async def _retry_unsaved(self) -> None:
        waiting, self._unsaved = self._unsaved, []
        still = await self._write(waiting)
        if len(still) < len(waiting):
            log.info("wrote %d record(s) kept in memory while the disk refused them", len(waiting) - len(still))
        self._unsaved = still + self._unsaved

    async def _apply_once(self, built: list[tuple[dict[str, Any], WriteRecord]]) -> int:
        """Write a batch (each record with its fields) in one transaction; returns how many records were applied
        (not already there)."""
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
            for item, record in fresh:
                by_op.setdefault(item["op"], []).append(record)
            for op, records in by_op.items():
                await self._handlers[op](records)
        self.duplicates += len(batch) - len(fresh)
        return len(fresh)

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
                if attempt < self._attempts:
                    await asyncio.sleep(delay)
                    delay *= 2
        return "unavailable"

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
            _line(record),
        )
        try:
            _atomic_append(self._rejected, [_line({**record, "rejected_because": reason})])
        except OSError as exc:
            log.error("could not keep the rejected write in %s too: %s", self._rejected, exc)

    def _flush_unsaved_to_journal(self) -> None:
        """Put what the database did not take in the journal (or the fallback); what neither takes stays in
        memory (retried when the database works again; `save_now` writes it to the log)."""
        if not self._unsaved:
            return
        where = self._keep([_line(record) for record in self._unsaved])
        if where is None:
            log.error("could not journal %d pending write(s); keeping them in memory", len(self._unsaved))
            return
        log.error("%d database write(s) saved to %s; they are replayed at the next start", len(self._unsaved), where)
        self.journaled += len(self._unsaved)
        self._unsaved.clear()

    def _keep(self, lines: list[str]) -> Path | None:
        """Add lines to the journal: to this process's journal, with the reserved space given up for it if the
        disk is full, else to the fallback journal. Where they went, or None."""
        try:
            _atomic_append(self._journal, lines)
            return self._journal
        except OSError as exc:
            log.error("could not write the journal %s: %s", self._journal, exc)
        if self._release_reserve():
            try:
                _atomic_append(self._journal, lines)
                return self._journal
            except OSError as exc:
                log.error("could not write the journal %s with its reserved space either: %s", self._journal, exc)
        if self._fallback is not None:
            try:
                _atomic_append(self._fallback, lines)
                return self._fallback
            except OSError as exc:
                log.error("could not write the fallback journal %s either: %s", self._fallback, exc)
        return None

    def _make_reserve(self) -> None:
        """Set the journal's space aside while the disk has room (a full disk later can still take a journal)."""
        if self._reserve_bytes <= 0:
            return
        try:
            if self._reserve.exists() and self._reserve.stat().st_size >= self._reserve_bytes:
                return
            self._reserve.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self._reserve, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                _allocate(fd, self._reserve_bytes)
            finally:
                os.close(fd)
        except OSError as exc:
            log.warning("could not reserve space for the journal at %s: %s", self._reserve, exc)
            with contextlib.suppress(OSError):
                self._reserve.unlink()

    def _release_reserve(self) -> bool:
        """Give the reserved space back to the disk (to write the journal into it); False if there was none."""
        try:
            self._reserve.unlink()
        except OSError:
            return False
        log.warning("the disk is full: released the space reserved for the journal (%s)", self._reserve)
        return True

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
        claimed = _claim(journal)
        pattern = glob.escape(journal.name) + ".replaying-*"
        copies = [claimed] if claimed else []
        with contextlib.suppress(OSError):
            copies += [p for p in sorted(journal.parent.glob(pattern)) if p != claimed]
        done = 0
        for copy in copies:
            with _held(copy) as text:
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
        duplicates = self.duplicates
        failed = await self._write(fresh) if fresh else []
        skipped = len(known) - len(fresh) + self.duplicates - duplicates
        if skipped:
            log.info("skipped %d journaled write(s) already in the database", skipped)
        if failed:
            where = self._keep([_line(r) for r in failed])
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
        done = len(fresh) - len(failed) - (self.duplicates - duplicates)
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
    crash leaves the old file as it was, never a half-written record. Under the file's lock: a process claiming
    it for a replay at that moment takes it before or after, never in between."""
    with _locked(path):
        old = ""
        with contextlib.suppress(FileNotFoundError):
            old = path.read_text(encoding="utf-8")
        write_atomically(path, [old.rstrip("\n"), *lines] if old.strip() else lines)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold a journal's lock file (`<journal>.lock`) for a moment: while it is read and replaced, or claimed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # (a full or read-only disk may refuse even an empty file: the rename is still atomic)
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _claim(journal: Path) -> Path | None:
    """Take a journal for replaying it: renamed (atomically, under its lock) to a name of this claim's own, so
    that one process replays it; None when there is no journal there."""
    claimed = journal.with_name(f"{journal.name}.replaying-{os.getpid()}-{secrets.token_hex(4)}")
    if not journal.exists():
        return None
    with _locked(journal):
        try:
            os.rename(journal, claimed)
        except FileNotFoundError:
            return None  # another process claimed it first
        except OSError as exc:
            log.error("cannot claim the write journal %s for replaying it: %s", journal, exc)
            return None
    return claimed


@contextlib.contextmanager
def _held(claimed: Path) -> Iterator[str | None]:
    """A claimed journal's text, with its lock held until the block ends; None when another process holds it
    (replaying it now) or has already replayed and removed it."""
    try:
        fd = os.open(claimed, os.O_RDONLY)
    except OSError:
        yield None
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = os.fstat(fd).st_ino == os.stat(claimed).st_ino  # (not removed by its replayer in between)
        except OSError:
            same = False
        if not same:
            yield None
            return
        with os.fdopen(os.dup(fd), encoding="utf-8") as fh:
            text = fh.read()
        yield text
    finally:
        os.close(fd)


def scrub_journals(
    files: Iterable[Path], names: Callable[[dict[str, Any]], bool], *, dry_run: bool, wait: float = 30.0
) -> int:
    """Remove the write records `names` picks from journal files (a journal, a rejected file) and from the copies of
    them claimed for a replay, each rewritten atomically under its lock; returns how many there were (in a dry run,
    counted only). A copy another process is replaying now is waited for, up to `wait` seconds (then DatabaseBusy):
    once replayed, its records are in the database, where the caller removes them next."""
    found = 0
    for path in dict.fromkeys(files):
        if dry_run:
            found += _scrub_text(_read(path), names)[0]
            for copy in _claimed_copies(path):
                found += _scrub_text(_read(copy), names)[0]
            continue
        if path.exists():  # (a journal nobody wrote gets no lock file, nor a folder, from here)
            with _locked(path):
                found += _scrub_file(path, names)
        for copy in _claimed_copies(path):
            found += _scrub_claimed(copy, names, wait)
    return found


def _claimed_copies(journal: Path) -> list[Path]:
    with contextlib.suppress(OSError):
        return sorted(journal.parent.glob(glob.escape(journal.name) + ".replaying-*"))
    return []


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def _scrub_text(text: str, names: Callable[[dict[str, Any]], bool]) -> tuple[int, list[str]]:
    """How many lines hold a record `names` picks, and the other lines (unreadable ones kept as they are)."""
    kept, dropped = [], 0
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = None
        if isinstance(record, dict) and names(record):
            dropped += 1
        elif line.strip():
            kept.append(line)
    return dropped, kept


def _scrub_file(path: Path, names: Callable[[dict[str, Any]], bool]) -> int:
    """Rewrite one file without the picked records (the caller holds its lock); an emptied file is removed."""
    dropped, kept = _scrub_text(_read(path), names)
    if dropped:
        if kept:
            write_atomically(path, kept)
        else:
            path.unlink()
    return dropped


def _scrub_claimed(copy: Path, names: Callable[[dict[str, Any]], bool], wait: float) -> int:
    """A claimed copy, under the lock its replayer holds while replaying it (`_held`): taken when it is free; a copy
    replayed and removed meanwhile has nothing left to scrub."""
    try:
        fd = os.open(copy, os.O_RDONLY)
    except OSError:
        return 0
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise DatabaseBusy(f"the write journal {copy} is being replayed; try again later") from None
                time.sleep(0.05)
        try:
            if os.fstat(fd).st_ino != os.stat(copy).st_ino:
                return 0
        except FileNotFoundError:
            return 0
        return _scrub_file(copy, names)
    finally:
        os.close(fd)


def _write_text(path: Path, fh: IO[str], text: str) -> None:
    """Where every journal byte is written, to the file at `path` (the tests put a full disk here)."""
    fh.write(text)


def _allocate(fd: int, size: int) -> None:
    """Make a file take `size` bytes of the disk for real (not a sparse file)."""
    allocate = getattr(os, "posix_fallocate", None)
    if allocate is not None:
        try:
            allocate(fd, 0, size)
            return
        except OSError as exc:
            if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP):  # (a file system without it: written instead)
                raise
    block = b"\0" * 65536
    for _ in range(0, size, len(block)):
        os.write(fd, block)


def write_atomically(path: Path, lines: list[str]) -> None:
    """Replace a file by these lines, whole or not at all: written beside it, synced, renamed over it; the temp
    file is removed if anything fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            _write_text(Path(tmp), fh, "\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
