"""The term files on disk: found, read and handed to the core's loader (which validates text, never files).
Light on purpose: `validate` and `lookup` import this, not the search index."""

from __future__ import annotations

from pathlib import Path

from bot.core.errors import GlossaryError, Problem
from bot.core.loader import load_glossary_from_texts
from bot.core.model import Glossary
from bot.heap import collector_paused


def iter_term_files(directory: Path) -> list[Path]:
    """The YAML files of a glossary directory, in a stable order."""
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def read_term_files(data_dir: Path) -> list[tuple[str, bytes]]:
    """(path as shown in problems, bytes) of every term file: read once, for the hash and for the loader.
    Raises GlossaryError when `data_dir` is not a folder."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise GlossaryError([Problem(str(data_dir), 0, "folder_missing")])
    return [(str(data_dir / path.name), path.read_bytes()) for path in iter_term_files(data_dir)]


def load_glossary(data_dir: Path | str) -> Glossary:
    """Read and validate every term file in `data_dir`. Raises GlossaryError listing every problem."""
    files = read_term_files(Path(data_dir))
    with collector_paused():  # hundreds of thousands of small acyclic objects: collections only cost time
        return load_glossary_from_texts(files)
