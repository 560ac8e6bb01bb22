"""The write journal's files: whole lines appended under a lock, claimed for a replay by an atomic rename, scrubbed of
a member's records; the room reserved for it on its disk; and the records a log holds as the last resort.

What a file here holds is one JSON write record per line (bot.storage.records, as `journal_line` writes it). The write
queue (bot.storage.writer) decides what goes where; this module only keeps the files whole:
- a line is appended whole or not at all: a write the disk refuses is cut back, and a line a crash tore is left
  alone on its own line (the replay skips it); each append is synced;
- every change to a journal happens under its lock file (`<journal>.lock`): an append, a claim, a scrub;
- the room for the journal is set aside at start (`Reserve`) and given back block by block when the disk is full.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import json
import logging
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from bot.storage.errors import DatabaseBusy

log = logging.getLogger(__name__)
UNSAVED = "write saved nowhere but this log:"  # the last resort's lines: the JSON after it is a journal line
REFUSED = "write refused for its content, whole:"  # a record set aside: the JSON after it is the record
BLOCK = 4096  # the disk's unit: the reserve is given back in whole blocks
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # a disk (or a quota, or a file size limit) with no room left


def journal_line(record: dict[str, Any]) -> str:
    """A record as one journal line."""
    # ASCII escapes: any str can be written, even one with a lone surrogate that UTF-8 cannot encode.
    return json.dumps(record, ensure_ascii=True, default=str)


def append_lines(path: Path, lines: list[str], room: Reserve | None = None) -> None:
    """Add whole lines at the end of a file, synced, under its lock. A write the disk refuses is cut back (each
    record is in the file whole or not at all); when the disk is full, `room` gives back what the lines need."""
    text = "\n".join(lines) + "\n"
    with locked(path):
        while True:
            try:
                _append(path, text)
                return
            except OSError as exc:
                if exc.errno not in FULL or room is None or not room.give_back(len(text.encode("utf-8"))):
                    raise


def _append(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            text = "\n" + text  # a line a crash tore stays alone on its line (the replay skips it)
        try:
            with os.fdopen(os.dup(fd), "a", encoding="utf-8") as fh:
                _write_text(path, fh, text)
                fh.flush()
                os.fsync(fh.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)  # nothing of this write stays: no half record
            raise
    finally:
        os.close(fd)


class Reserve:
    """The journal's room on its disk: a preallocated file next to it (`<journal>.reserve`), set aside at start and
    given back block by block when the disk is full and the journal needs the room."""

    def __init__(self, journal: Path, wanted: int) -> None:
        self.path = journal.with_name(journal.name + ".reserve")
        self.wanted = -(-wanted // BLOCK) * BLOCK if wanted > 0 else wanted  # (whole blocks: the disk's unit)
        self.size = 0

    def make(self) -> int:
        """Set the room aside while the disk has it: `wanted` bytes, or, on a disk with little room, a quarter of
        what it has free (the database needs the rest). The bytes set aside."""
        if self.wanted <= 0:
            return 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            kept = self.path.stat().st_size if self.path.exists() else 0
            free = shutil.disk_usage(self.path.parent).free + kept
            size = max(min(kept, self.wanted), min(self.wanted, free // 4)) // BLOCK * BLOCK
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                if kept > size:
                    os.ftruncate(fd, size)
                elif size > kept:
                    _allocate(fd, size)
            finally:
                os.close(fd)
            self.size = size
        except OSError as exc:
            log.warning("could not reserve room for the journal at %s: %s", self.path, exc)
            self.size = 0
            with contextlib.suppress(OSError):
                self.path.unlink()
        return self.size

    def give_back(self, needed: int) -> bool:
        """Give the disk the blocks `needed` bytes take (and one more for the journal's last block); False when
        there is nothing left to give."""
        if self.size <= 0:
            return False
        size = max(0, self.size - (needed // BLOCK + 2) * BLOCK)
        try:
            if size:
                os.truncate(self.path, size)
            else:
                self.path.unlink()
        except OSError as exc:
            log.error("could not give back the room reserved for the journal (%s): %s", self.path, exc)
            self.size = 0
            return False
        log.warning(
            "the disk is full: the journal takes %d KB of its reserved room (%d KB left)",
            (self.size - size) // 1024,
            size // 1024,
        )
        self.size = size
        return True


def records_in_log(log_lines: Iterable[str]) -> tuple[list[dict[str, Any]], int]:
    """The write records a log holds as its last resort (the JSON after UNSAVED, in the text or the JSON log
    format), each once; and how many of those lines could not be read."""
    found: dict[str, dict[str, Any]] = {}
    unreadable = 0
    for raw in log_lines:
        if UNSAVED not in raw:
            continue
        text = raw.strip()
        with contextlib.suppress(json.JSONDecodeError):  # (LOG_FORMAT=json: the message is a field of the line)
            entry = json.loads(text)
            if isinstance(entry, dict):
                text = str(entry.get("message", ""))
        try:
            record = json.loads(text.split(UNSAVED, 1)[1])
        except (IndexError, json.JSONDecodeError):
            record = None
        if isinstance(record, dict) and isinstance(record.get("id"), str) and isinstance(record.get("op"), str):
            found.setdefault(record["id"], record)
        else:
            unreadable += 1
    return list(found.values()), unreadable


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold a file's lock file (`<file>.lock`) for a moment: while it is read and replaced (a journal, the question
    path's vector cache), or claimed."""
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


def claim(journal: Path) -> Path | None:
    """Take a journal for replaying it: renamed (atomically, under its lock) to a name of this claim's own, so
    that one process replays it; None when there is no journal there."""
    claimed = journal.with_name(f"{journal.name}.replaying-{os.getpid()}-{secrets.token_hex(4)}")
    if not journal.exists():
        return None
    with locked(journal):
        try:
            os.rename(journal, claimed)
        except FileNotFoundError:
            return None  # another process claimed it first
        except OSError as exc:
            log.error("cannot claim the write journal %s for replaying it: %s", journal, exc)
            return None
    return claimed


@contextlib.contextmanager
def held(claimed: Path) -> Iterator[str | None]:
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
            with locked(path):
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
    """A claimed copy, under the lock its replayer holds while replaying it (`held`): taken when it is free; a copy
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
    written = os.fstat(fd).st_size
    os.lseek(fd, written, os.SEEK_SET)
    while written < size:
        written += os.write(fd, b"\0" * min(65536, size - written))


def write_atomically(path: Path, lines: list[str]) -> None:
    """Replace a file by these lines, whole or not at all (`replace_whole`), its folder made if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_whole(path, "\n".join(lines) + "\n")


def replace_whole(path: Path, content: str | Callable[[IO[bytes]], None], mode: int | None = None) -> None:
    """Replace a file by `content`, whole or not at all: written beside it, synced, renamed over it; the temp file is
    removed if anything fails. `content`: a text (UTF-8), or a function that writes the bytes into the binary file
    it is given (numpy's arrays). `mode`: its permissions (by default the owner's only, as the temp file is made)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        if isinstance(content, str):
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                _write_text(Path(tmp), fh, content)
                _sync(fh)
        else:
            with os.fdopen(fd, "wb") as fh:
                content(fh)
                _sync(fh)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _sync(fh: IO[Any]) -> None:
    fh.flush()
    os.fsync(fh.fileno())
