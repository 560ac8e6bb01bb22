"""The term files on disk: found, read and handed to the core's loader (which validates text, never files).
Light on purpose: `validate` and `lookup` import this, not the search index."""

from __future__ import annotations

import os
from pathlib import Path

from bot.core.errors import GlossaryError, Problem
from bot.core.loader import META_FILE, load_glossary_from_texts
from bot.core.model import Glossary
from bot.heap import collector_paused
from bot.storage.errors import os_reason
from bot.storage.journal import replace_whole


def iter_term_files(directory: Path) -> list[Path]:
    """The YAML files of a glossary directory, in a stable order."""
    return sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def read_term_files(data_dir: Path) -> list[tuple[str, bytes]]:
    """(path as shown in problems, bytes) of every term file: read once, for the hash and for the loader.
    Raises GlossaryError when `data_dir` is not a folder."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise GlossaryError([Problem(str(data_dir), 0, "folder_missing")])
    try:
        paths = iter_term_files(data_dir)
    except OSError as exc:  # (a folder that cannot be listed: no permission)
        raise GlossaryError([Problem(str(data_dir), 0, "file_unreadable", {"error": os_reason(exc)})]) from None
    files, problems = [], []
    for path in paths:
        try:
            files.append((str(data_dir / path.name), path.read_bytes()))
        except OSError as exc:  # (no permission, a disk error, a special file): named, as a problem of the file
            problems.append(Problem(str(data_dir / path.name), 0, "file_unreadable", {"error": os_reason(exc)}))
    meta = data_dir / META_FILE
    if not any(path.name == META_FILE for path in paths) and (meta.exists() or meta.is_symlink()):
        problems.append(Problem(str(meta), 0, "meta_not_a_file", {"meta": META_FILE}))  # (a folder, a pipe, a link)
    if not files and not problems:  # (an empty folder: the problems name it, not just "glossary.yaml")
        problems += [Problem(str(meta), 0, "meta_missing", {"meta": META_FILE}), Problem(str(data_dir), 0, "no_terms")]
    if problems:
        raise GlossaryError(problems)
    return files


def load_glossary(data_dir: Path | str) -> Glossary:
    """Read and validate every term file in `data_dir`. Raises GlossaryError listing every problem."""
    files = read_term_files(Path(data_dir))
    with collector_paused():  # hundreds of thousands of small acyclic objects: collections only cost time
        return load_glossary_from_texts(files)


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all (`replace_whole`), so that a full disk or a reader (a web server, an
    editor) never meets half a file, and a failed write leaves the old one as it was. The file keeps the permissions
    it had, or takes those a plain write gives (the umask); a link is followed. Where the folder refuses a file
    beside it (it may still let this one be rewritten), written in place."""
    path = Path(os.path.realpath(path))
    try:
        replace_whole(path, text, _mode_for(path))
    except PermissionError:
        path.write_text(text, encoding="utf-8")


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:  # (a new file: what open() would give it)
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
