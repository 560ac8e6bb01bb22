"""A server's own term, as a moderator typed it in Discord: validated by the loader's own rules (the same code
that checks the term files: lengths, the whole card within Discord's limits, invisible characters, YAML-proof
text), by turning the fields into a one-term file."""

from __future__ import annotations

from dataclasses import dataclass, replace

import yaml

from bot.core.card import neutral_markup
from bot.core.errors import GlossaryError, Problem
from bot.core.loader import META_FILE, NOT_TEXT, load_glossary_from_texts
from bot.core.model import Term
from bot.core.normalize import SLUG_LENGTH

SERVER_CATEGORY = "Términos del servidor"
FILE_NAME = "servidor.yaml"
FIELD_NAMES = ("term", "definition", "en", "aliases", "related")
_META = "title: Glosario IA\nsubtitle: Términos del servidor\nlanguage: es\n"


def term_source(guild_id: int) -> str:
    """The `source` of a server's terms: which server a term in memory belongs to (its question index too)."""
    return f"servidor:{guild_id}"


def usable_id(term_id: object) -> bool:
    """Whether a stored term's id is one this version makes (a slug, bot.core.normalize.slug): 1 to SLUG_LENGTH
    characters without ':', what a button's custom_id and an autocomplete choice carry. Another (a hand edit) cannot
    be served."""
    return isinstance(term_id, str) and 0 < len(term_id) <= SLUG_LENGTH and ":" not in term_id


@dataclass(frozen=True, slots=True)
class TermFields:
    """What the form holds, as typed (aliases and related terms comma-separated)."""

    term: str
    definition: str
    en: str = ""
    aliases: str = ""
    related: str = ""

    def alias_list(self) -> list[str]:
        return _split(self.aliases)

    def related_list(self) -> list[str]:
        return _split(self.related)

    def to_dict(self) -> dict[str, str]:
        return {
            "term": self.term,
            "definition": self.definition,
            "en": self.en,
            "aliases": self.aliases,
            "related": self.related,
        }

    @classmethod
    def from_dict(cls, data: dict) -> TermFields:
        return cls(**{name: str(data.get(name) or "") for name in FIELD_NAMES})


def _split(text: str) -> list[str]:
    return list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def entry(fields: TermFields, related_names: list[str] | None = None) -> dict:
    """The term as an entry of a term file (what `validate` and the published glossary read)."""
    data: dict = {"term": fields.term.strip(), "definition": fields.definition.strip()}
    if fields.en.strip():
        data["en"] = fields.en.strip()
    if fields.alias_list():
        data["aliases"] = fields.alias_list()
    if related_names:
        data["related"] = related_names
    return data


class _TermFileDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # libyaml's where PyYAML has it: faster
    """Text that the loader would read as a number, yes/no or null (stricter than PyYAML's own resolver: "0e-1",
    "1e5") is written quoted, so that a term file always says what it was given."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if NOT_TEXT.fullmatch(value) else None)


_TermFileDumper.add_representer(str, _text)


def term_file(entries: list[dict], category: str = SERVER_CATEGORY) -> str:
    """A term file in the published format, with these entries."""
    body = {"category": category, "terms": entries}
    return yaml.dump(body, Dumper=_TermFileDumper, allow_unicode=True, sort_keys=False, width=100)


def check_many(many: list[TermFields]) -> list[Term | list[Problem]]:
    """`check` for many at once: one pass of the loader when all are valid (the usual case, much faster), one
    by one otherwise. Names repeated among them are not this function's concern (each is checked alone)."""
    if not many:
        return []
    try:
        glossary = load_glossary_from_texts([(META_FILE, _META), (FILE_NAME, term_file([entry(f) for f in many]))])
    except GlossaryError:
        return [check(fields) for fields in many]
    terms = [as_shown(term) for term in glossary.terms]
    return terms if len(terms) == len(many) else [check(fields) for fields in many]


def check(fields: TermFields) -> Term | list[Problem]:
    """The term the fields make, or every problem with them (each in Spanish and English, without file and
    line: the form is the file). Related terms are the caller's to resolve: they may be published terms."""
    try:
        glossary = load_glossary_from_texts([(META_FILE, _META), (FILE_NAME, term_file([entry(fields)]))])
    except GlossaryError as exc:
        return list(exc.problems)
    (term,) = glossary.terms
    return as_shown(term)


def as_shown(term: Term) -> Term:
    """A term written by members, as cards show it: no masked link hides where it leads (the fields as typed
    are kept in the store; only what is shown changes)."""
    return replace(
        term,
        definition=neutral_markup(term.definition),
        en=neutral_markup(term.en) if term.en else term.en,
        aliases=tuple(neutral_markup(a) for a in term.aliases),
    )
