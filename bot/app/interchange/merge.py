"""An import merged into a glossary folder that exists (`glosario-bot import FILE --into DIR`): the folder as the
loader reads it, and the imported entries it already has (by name, English name or alias, once normalised),
refused as collisions naming both places. The rest is checked together with the folder's own files
(bot/app/interchange/imports.py, `settle`) and written as new term files: a file of the folder is never written over."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path, PurePath

import yaml

from bot.app.files import read_term_files
from bot.app.interchange.imports import Refused, spelling_keys
from bot.core.loader import META_FILE, load_glossary_from_texts
from bot.core.model import Glossary
from bot.core.normalize import normalize
from bot.core.problems import said

log = logging.getLogger(__name__)

_BASE_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)  # the loader's own: every scalar read as text
# How a refusal names a spelling by its field (an alias otherwise): codes of the problems' catalogues.
_FIELDS = {"term": "the_name", "en": "the_english_name"}


@dataclass(frozen=True)
class Base:
    """The folder merged into: its glossary, its glossary.yaml and term files as YAML nodes (checked together with
    the import's), the names of its files in lower case (never written over), the normalised names of its terms
    (an imported entry's `related` may name them), and who owns each spelling."""

    glossary: Glossary
    meta: yaml.Node
    nodes: dict[str, yaml.Node]
    taken: frozenset[str]
    names: frozenset[str]
    owners: dict[str, tuple[str, str, str]]  # a spelling's keys → (field, its term's name, file:line)

    def without_collisions(self, entries: list, refused: list[Refused]) -> list:
        """The entries none of whose spellings the folder has; each other one is refused, naming its spelling and
        the folder's term that has it, with its place."""
        kept = []
        for entry in entries:
            clash = self._clash(entry)
            if clash is None:
                kept.append(entry)
                continue
            field, text, (their_field, term, place) = clash
            mine, theirs = said(_FIELDS.get(field, "the_alias")), said(_FIELDS.get(their_field, "an_alias"))
            why = said("already_in_glossary", mine=mine, spelling=text, theirs=theirs, term=term, place=place)
            refused.append(Refused(entry.term or entry.source_id, entry.where, why, place))
        log.info("merge: %d of %d entries collide with the folder", len(entries) - len(kept), len(entries))
        return kept

    def _clash(self, entry) -> tuple[str, str, tuple[str, str, str]] | None:
        """The entry's first spelling the folder has: (its field, the spelling, the folder's owner of it)."""
        spellings = [("term", entry.term), ("en", entry.en), *(("aliases", alias) for alias in entry.aliases)]
        for field, text in spellings:
            owner = next((self.owners[key] for key in spelling_keys(text or "") if key in self.owners), None)
            if owner is not None:
                return field, text, owner
        return None


def open_base(folder: Path) -> Base:
    """The glossary folder `folder`, read and checked as `validate` checks it. Raises GlossaryError (every problem)
    when it is not a valid glossary: nothing is merged into one."""
    files = read_term_files(folder)
    glossary = load_glossary_from_texts(files)
    nodes = {name: yaml.compose(data.decode("utf-8-sig"), Loader=_BASE_LOADER) for name, data in files}
    meta = next(node for name, node in nodes.items() if PurePath(name).name == META_FILE)
    owners: dict[str, tuple[str, str, str]] = {}
    for term in glossary:
        fields = [
            ("term", term.term),
            *((("en", term.en),) if term.en else ()),
            *(("aliases", a) for a in term.aliases),
        ]
        for field, text in fields:
            for key in spelling_keys(text):
                owners.setdefault(key, (field, term.term, term.source))
    return Base(
        glossary,
        meta,
        {name: node for name, node in nodes.items() if PurePath(name).name != META_FILE},
        frozenset(path.name.lower() for path in Path(folder).iterdir()),
        frozenset(normalize(term.term) for term in glossary),
        owners,
    )
