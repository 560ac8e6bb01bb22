"""The glossary in service: term files read from disk, validated (by the core) into a Glossary with its
SearchIndex, with an optional cache; and the holder a reload swaps a new one into.

Large glossaries take seconds to parse; an unchanged set of files is loaded from a cache written next to
the database instead (keyed by a hash of every file's bytes, so any edit invalidates it). The cache is JSON:
plain data, so whoever can write the cache directory can at worst make the bot rebuild, never run code.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot import __version__
from bot.app.files import read_term_files
from bot.core.loader import load_glossary_from_texts
from bot.core.mentions import MentionFinder
from bot.core.model import Glossary
from bot.core.search import SearchIndex
from bot.heap import collector_paused

log = logging.getLogger(__name__)

_CACHE_FORMAT = 6  # bumped whenever what is cached changes shape
_CACHE_MIN_BYTES = 256 * 1024  # below this, parsing is as fast as reading a cache: no cache file


@dataclass(frozen=True)
class Catalog:
    glossary: Glossary
    index: SearchIndex
    fingerprint: str


class CatalogHolder:
    """The glossary in service. A reload swaps in a whole new Catalog; readers never see half of one. Whoever
    keeps something derived from it (rendered cards) compares `current` with the one it was made from."""

    def __init__(self, catalog: Catalog):
        self.current = catalog
        self._mentions: MentionFinder | None = None

    @property
    def glossary(self) -> Glossary:
        return self.current.glossary

    @property
    def index(self) -> SearchIndex:
        return self.current.index

    @property
    def mentions(self) -> MentionFinder:
        """The "Explicar términos" matcher of the current glossary, built on first use."""
        finder = self._mentions
        if finder is None or finder.glossary is not self.current.glossary:
            finder = self._mentions = MentionFinder(self.current.glossary)
        return finder


def build_index(glossary: Glossary) -> SearchIndex:
    with collector_paused():
        return SearchIndex(glossary)


def fingerprint(files: list[tuple[str, bytes]]) -> tuple[str, int]:
    """A hash of every term file's name and bytes (and the code version), and their total size."""
    digest = hashlib.blake2b(f"{__version__}/{_CACHE_FORMAT}".encode(), digest_size=16)
    total = 0
    for name, data in files:
        total += len(data)
        digest.update(Path(name).name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest(), total


def _cache_file(cache_dir: Path, key: str) -> Path:
    return Path(cache_dir) / f"glossary-{key}.json"


def load_catalog(data_dir: Path, cache_dir: Path | None = None) -> Catalog:
    """Load and index the glossary in `data_dir`. Raises GlossaryError when the files are invalid."""
    files = read_term_files(Path(data_dir))
    key, size = fingerprint(files)
    cache_file = _cache_file(cache_dir, key) if cache_dir is not None and size >= _CACHE_MIN_BYTES else None
    if cache_file is not None and cache_file.is_file():
        try:
            with collector_paused():  # millions of acyclic objects: collections during the read only cost time
                data = json.loads(cache_file.read_bytes())
                glossary = Glossary.from_data(data["glossary"])
                index = SearchIndex.from_data(glossary, data["index"])
            log.info("glossary loaded from cache %s", cache_file.name)
            return Catalog(glossary, index, key)
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            log.warning("ignoring unreadable glossary cache %s: rebuilding it", cache_file, exc_info=True)
    with collector_paused():
        glossary = load_glossary_from_texts(files)
        index = SearchIndex(glossary)
    if cache_file is not None:
        # Before serving, not beside it: a thread encoding the cache would hold the interpreter for tenths of a
        # second at a time and stall lookups (measured: p99 from 5 to 200 ms at 100,000 terms).
        write_cache(cache_file, glossary, index)
    return Catalog(glossary, index, key)


def cache_path(data_dir: Path, cache_dir: Path) -> Path:
    """Where the cache for the current files of `data_dir` lives."""
    return _cache_file(cache_dir, fingerprint(read_term_files(Path(data_dir)))[0])


def _write_json(fh, value: object, depth: int = 3) -> None:
    """`json.dump` of the cache, part by part with the C encoder: `json.dump` itself encodes in Python (seconds
    at 100,000 terms), and one `json.dumps` of everything would double the memory for a moment and hold the
    interpreter for a whole second (a reload writes it from a worker thread while the bot serves). The outer
    `depth` levels are written key by key, and long lists and dicts a slice of 5,000 at a time."""
    if isinstance(value, dict | list | tuple) and len(value) > _SLICE:
        _write_sliced(fh, value)
    elif isinstance(value, dict) and depth > 0:
        fh.write("{")
        for n, (key, part) in enumerate(value.items()):
            fh.write(("," if n else "") + json.dumps(key) + ":")
            _write_json(fh, part, depth - 1)
        fh.write("}")
    elif isinstance(value, tuple) and depth > 0:
        fh.write("[")
        for n, part in enumerate(value):
            fh.write("," if n else "")
            _write_json(fh, part, depth - 1)
        fh.write("]")
    else:
        fh.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _write_sliced(fh, value: dict | list | tuple) -> None:
    """A long list or dict, _SLICE items per call of the C encoder."""
    is_dict = isinstance(value, dict)
    items = list(value.items()) if is_dict else list(value)
    fh.write("{" if is_dict else "[")
    for start in range(0, len(items), _SLICE):
        part = items[start : start + _SLICE]
        chunk = json.dumps(dict(part) if is_dict else part, ensure_ascii=False, separators=(",", ":"))
        fh.write(("," if start else "") + chunk[1:-1])
    fh.write("}" if is_dict else "]")


_SLICE = 5_000


def write_cache(cache_file: Path, glossary: Glossary, index: SearchIndex) -> None:
    """Write the cache atomically (temp file + rename); a failure is logged, never raised."""
    payload = {"glossary": glossary.to_data(), "index": index.to_data()}
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        for pattern in ("glossary-*.json", "glossary-*.pickle"):  # (caches of older versions were pickles)
            for old in cache_file.parent.glob(pattern):
                old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_file.parent, prefix=".glossary-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            _write_json(fh, payload)
        os.replace(tmp, cache_file)
    except OSError:
        # A cache is an optimisation: a read-only or full disk must not stop the bot from serving.
        log.warning("could not write the glossary cache in %s", cache_file.parent, exc_info=True)
