"""The question path's cache folder: the terms' vectors by text hash, the BM25 arrays of the published glossary,
and the child process that fills the first when there is much to embed.

    python -m bot.app.questions.cache JOB.json      (started by bot/app/questions/service.py, not by hand)

Embedding is minutes of CPU for a glossary of 10,000 terms. Done in the bot's process, even in a worker thread,
it holds the interpreter's lock in slices that stall the event loop, and a stop has to wait for it; in a child
process it shares nothing with the bot but the cache folder, and it stops between two batches when told to
(SIGTERM, or its parent gone), keeping what it has embedded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from bot.app.questions.sentence_model import DIMENSIONS, Encoder
from bot.core import normalize as normalize_module
from bot.core import question_words as words_module
from bot.core import questions as questions_module
from bot.core.questions import Lexical, build_lexical, text_key
from bot.storage.journal import locked, replace_whole

log = logging.getLogger(__name__)

BATCH = 16  # texts per encode call: a stop waits for at most one batch (well under a second)
_SAVE_EVERY = 30.0  # seconds between two saves of a long build's progress
_CACHE_LIMIT = 200_000  # vectors kept in a cache file at most (≈ 200 MB); the least recent are dropped
STOPPED = 3  # the child's exit code when it was told to stop


class BuildStopped(Exception):
    """A build was told to stop, between two batches; what it had embedded is saved."""


@dataclass(frozen=True, eq=False)
class Lookup:
    """Where a list of texts' vectors are in a cache file: its rows (mapped), each text's key and row (-1: none)."""

    rows: np.ndarray
    keys: np.ndarray
    at: np.ndarray
    missing: list[str]  # the texts without a vector, each once


class VectorCache:
    """Vectors by `text_key` (a hash of the model and the embedded text) in one file of the cache folder per
    scope ("published", "servers"): a NumPy array of (key, float16 vector) records, mapped rather than read, so a
    start with every text cached copies only the rows it needs, with no work per term beyond hashing its text.
    Rewritten atomically when new vectors were computed; an unreadable file is rebuilt, never trusted."""

    _ROW = np.dtype([("key", "S32"), ("vector", "<f2", (DIMENSIONS,))])

    def __init__(self, cache_dir: Path | None, model: str, scope: str = "published") -> None:
        self.path = None if cache_dir is None else Path(cache_dir) / f"vectors-{model}-{scope}.npy"
        self.model = model
        self._lock = threading.Lock()
        self.encoded = 0  # texts encoded (not found in the cache) so far, for logs and tests

    def _read(self) -> np.ndarray:
        empty = np.zeros(0, dtype=self._ROW)
        if self.path is None or not self.path.is_file():
            return empty
        try:
            rows = np.load(self.path, mmap_mode="r", allow_pickle=False)
            if rows.dtype != self._ROW or rows.ndim != 1:
                raise ValueError(f"unexpected records {rows.dtype}")
            return rows
        except Exception:  # (a torn or foreign file: EOFError, ValueError, OSError, whatever numpy raises)
            log.warning("ignoring unreadable vector cache %s: rebuilding it", self.path, exc_info=True)
            with contextlib.suppress(OSError):
                self.path.unlink()
            return empty

    def _keys(self, texts: Sequence[str]) -> np.ndarray:
        keys = np.empty(len(texts), dtype="S32")
        for start in range(0, len(texts), 256):  # (a pause between runs: a worker thread lets the event loop in)
            keys[start : start + 256] = [text_key(t, self.model).encode("ascii") for t in texts[start : start + 256]]
            time.sleep(0)
        return keys

    @staticmethod
    def _rows_of(rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The row holding each key, -1 where none does (one sort and one binary search, no dict)."""
        if not len(rows) or not len(keys):
            return np.full(len(keys), -1, dtype=np.int64)
        cached = np.array(rows["key"])  # copied out of the map: 32 bytes a row
        order = np.argsort(cached, kind="stable")
        at = np.minimum(np.searchsorted(cached[order], keys), len(order) - 1)
        return np.where(cached[order][at] == keys, order[at], -1)

    def lookup(self, texts: Sequence[str]) -> Lookup:
        """Where each text's vector is in the cache file as it is now (for `vectors`, unless the file changes)."""
        rows = self._read()
        keys = self._keys(texts)
        at = self._rows_of(rows, keys)
        absent = np.flatnonzero(at < 0).tolist()
        return Lookup(rows, keys, at, list(dict.fromkeys(texts[i] for i in absent)))

    def missing(self, texts: Sequence[str]) -> list[str]:
        """The texts (each once, in order) that have no vector in the cache."""
        return self.lookup(texts).missing

    def vectors(
        self,
        texts: Sequence[str],
        encoder: Encoder,
        between_batches: Callable[[], None] | None = None,
        found: Lookup | None = None,
    ) -> np.ndarray:
        """One float32 row per text: from the cache where it has it, else encoded (and then saved), BATCH texts at
        a time; `between_batches` is called before each batch and may raise BuildStopped. `found`: this cache's
        `lookup` of the same texts, if the file has not changed since."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        with self._lock:
            if found is None or found.keys.shape != (len(texts),):
                found = self.lookup(texts)
            rows, keys, at = found.rows, found.keys, found.at
            absent = np.flatnonzero(at < 0)
            missing = list(dict.fromkeys(keys[absent].tolist()))
            fresh: dict[bytes, np.ndarray] = {}
            if missing:
                text_of = dict(zip(keys[absent].tolist(), (texts[i] for i in absent.tolist()), strict=True))
                saved = time.monotonic()
                try:
                    for start in range(0, len(missing), BATCH):
                        if between_batches is not None:
                            between_batches()
                        part = missing[start : start + BATCH]
                        # rounded as the file keeps them: an answer never depends on whether the cache was warm
                        encoded = encoder.encode([text_of[k] for k in part]).astype(np.float16)
                        fresh.update(zip(part, encoded, strict=True))
                        self.encoded += len(part)
                        if time.monotonic() - saved > _SAVE_EVERY:
                            self._save(rows, at, fresh)
                            saved = time.monotonic()
                except BuildStopped:
                    self._save(rows, at, fresh)
                    raise
                self._save(rows, at, fresh)
            found = np.empty((len(keys), DIMENSIONS), dtype=np.float32)
            hit = np.flatnonzero(at >= 0)
            found[hit] = rows["vector"][at[hit]]
            for i in absent.tolist():
                found[i] = fresh[keys[i]]
            return found

    def _save(self, rows: np.ndarray, wanted_rows: np.ndarray, fresh: dict[bytes, np.ndarray]) -> None:
        if self.path is None or not fresh:
            return
        wanted = np.array(rows["key"][wanted_rows[wanted_rows >= 0]])  # this build's vectors the file had
        try:
            # Added to the file as it is now, under its lock: another process may have rewritten it since `rows`
            # was read (what an erasure dropped, `keep_only`, never comes back from an older copy).
            with locked(self.path):
                now = self._read()
                keys = np.array(now["key"])
                known = np.isin(np.array(list(fresh), dtype="S32"), keys)  # (embedded by another process meanwhile)
                fresh = {k: v for (k, v), there in zip(fresh.items(), known, strict=True) if not there}
                if not fresh:
                    return
                kept = np.arange(len(now))
                if len(now) + len(fresh) > _CACHE_LIMIT:  # the vectors of this build first, then the most recent
                    is_wanted = np.isin(keys, wanted)
                    room = max(0, _CACHE_LIMIT - len(fresh) - int(is_wanted.sum()))
                    others = np.flatnonzero(~is_wanted)
                    kept = np.sort(
                        np.concatenate([np.flatnonzero(is_wanted), others[len(others) - room :] if room else []])
                    )
                out = np.empty(len(kept) + len(fresh), dtype=self._ROW)
                out[: len(kept)] = now[kept.astype(np.int64)]
                out["key"][len(kept) :] = list(fresh)
                out["vector"][len(kept) :] = np.stack(list(fresh.values()))
                _write_whole(self.path, lambda fh: np.save(fh, out, allow_pickle=False))
        except OSError:  # a cache is an optimisation: a read-only or full disk must not stop the answers
            log.warning("could not write the vector cache %s", self.path, exc_info=True)

    def keep_only(self, texts: Sequence[str]) -> int:
        """Drop from the file every vector but those of `texts` (rewritten atomically under its lock, which a save
        of another process takes too); how many were dropped. Raises OSError when the file cannot be rewritten."""
        if self.path is None or not self.path.is_file():
            return 0
        wanted = self._keys(texts)
        with self._lock, locked(self.path):
            rows = self._read()
            kept = np.isin(np.array(rows["key"]), wanted)
            dropped = len(rows) - int(kept.sum())
            if dropped:
                out = np.array(rows[kept])
                _write_whole(self.path, lambda fh: np.save(fh, out, allow_pickle=False))
        return dropped


class LexicalCache:
    """The BM25 arrays of one scope's glossary in one file, named by a hash of every term's fields and of the code
    that reads them (bot/core/questions.py, question_words.py, normalize.py, the stemmer's version): an edit to any
    builds anew."""

    def __init__(self, cache_dir: Path | None, scope: str = "published") -> None:
        self.folder, self.scope = (None if cache_dir is None else Path(cache_dir)), scope
        self.built = 0  # times the arrays had to be built, for tests
        self._last: tuple[Sequence[Sequence[str]], Path] | None = None

    def path_for(self, fields: Sequence[Sequence[str]]) -> Path | None:
        if self.folder is None:
            return None
        if self._last is not None and self._last[0] is fields:  # (hashing 10,000 terms' fields once, not twice)
            return self._last[1]
        digest = hashlib.blake2b(_code_fingerprint(), digest_size=16)
        for term in fields:
            digest.update("\0".join(term).encode("utf-8", "surrogatepass") + b"\1")
        path = self.folder / f"lexical-{self.scope}-{digest.hexdigest()}.npz"
        self._last = (fields, path)
        return path

    def cached(self, fields: Sequence[Sequence[str]]) -> bool:
        path = self.path_for(fields)
        return path is not None and path.is_file()

    def get(self, fields: Sequence[Sequence[str]], build: Callable[[], Lexical]) -> Lexical:
        """The arrays of these fields: read from the cache folder, else built (and then saved)."""
        path = self.path_for(fields)
        if path is None:
            self.built += 1
            return build()
        if path.is_file():
            try:
                with np.load(path, allow_pickle=False) as saved:
                    return Lexical.from_arrays(dict(saved))
            except Exception:  # (a torn or foreign file: BadZipFile, EOFError, ValueError, KeyError, OSError…)
                log.warning("ignoring unreadable BM25 arrays %s: building them again", path, exc_info=True)
        self.built += 1
        lexical = build()
        try:
            _write_whole(path, lambda fh: np.savez(fh, **lexical.arrays()))
            for older in path.parent.glob(f"lexical-{self.scope}-*.npz"):
                if older != path:
                    older.unlink(missing_ok=True)
        except OSError:
            log.warning("could not write the BM25 arrays %s", path, exc_info=True)
        return lexical


@cache
def _code_fingerprint() -> bytes:
    import Stemmer

    parts = [getattr(Stemmer, "__version__", "?").encode()]
    for module in (questions_module, words_module, normalize_module):
        try:
            parts.append(Path(module.__file__).read_bytes())
        except (OSError, TypeError):  # no source file: a fresh build each start is still correct
            parts.append(os.urandom(16))
    return b"\0".join(parts)


def _write_whole(path: Path, write: Callable) -> None:
    """Write a cache file whole or not at all (the journal's `replace_whole`: beside it, synced, renamed over it),
    its folder made first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_whole(path, write)


# -- the child process ---------------------------------------------------------------------------------------
def write_job(
    folder: Path, model_dir: Path, scope: str, texts: Sequence[str], fields: Sequence[Sequence[str]] | None = None
) -> Path:
    """The job file a child reads: a first line saying where the model and the vectors live, then the texts to
    embed and the BM25 fields of the glossary (when its arrays are to be built too), one JSON value a line. (Line by
    line, with pauses: one call encoding megabytes of JSON would hold the interpreter's lock all along.)"""
    head = {"model_dir": str(model_dir), "cache_dir": str(folder), "scope": scope, "parent": os.getpid()}
    head |= {"texts": len(texts), "fields": None if fields is None else len(fields)}
    folder.mkdir(parents=True, exist_ok=True)
    fd, path = tempfile.mkstemp(dir=folder, prefix=".embed-job-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(head) + "\n")
            for i, value in enumerate([*texts, *(fields or ())]):
                fh.write(json.dumps(value, ensure_ascii=False) + "\n")
                if i % 256 == 255:
                    time.sleep(0)
    except BaseException:  # (a full disk: no half-written job is left behind)
        Path(path).unlink(missing_ok=True)
        raise
    return Path(path)


def read_job(path: Path) -> tuple[dict, list[str], list[tuple[str, ...]] | None]:
    with path.open(encoding="utf-8") as fh:
        head = json.loads(fh.readline())
        texts = [json.loads(fh.readline()) for _ in range(head["texts"])]
        fields = None if head["fields"] is None else [tuple(json.loads(fh.readline())) for _ in range(head["fields"])]
    return head, texts, fields


def child_command(job: Path) -> list[str]:
    return [sys.executable, "-m", __name__, str(job)]


def main(argv: list[str]) -> int:
    """Build a job's BM25 arrays and embed its texts into the cache folder; 0 when done, STOPPED when told to stop
    first."""
    from bot.app.questions.sentence_model import SentenceModel

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    # The job is read before the stop signals are caught: a parent told to stop removes the job file as soon as it
    # has signalled, so a child that caught the signal first could find the file gone (until then the signal's
    # default action ends the child, which had done nothing yet).
    job, texts, fields = read_job(Path(argv[0]))
    told = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: told.set())
    signal.signal(signal.SIGINT, lambda *_: told.set())

    def between_batches() -> None:
        if told.is_set() or os.getppid() != job["parent"]:  # told, or the bot is gone
            raise BuildStopped

    try:
        if fields is not None:
            lexical = LexicalCache(Path(job["cache_dir"]), job["scope"])
            lexical.get(fields, lambda: build_lexical(fields, between_batches))
        model = SentenceModel(Path(job["model_dir"]))
        model.load()
        VectorCache(Path(job["cache_dir"]), model.name, job["scope"]).vectors(texts, model, between_batches)
    except BuildStopped:
        return STOPPED
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
