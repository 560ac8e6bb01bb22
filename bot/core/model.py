"""Immutable glossary values: Link, Source, Term, Glossary."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Link:
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class Source:
    """Where a definition or an example comes from: a citation, with its address when it has one."""

    text: str
    url: str = ""


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry. `related` holds the ids of other terms, resolved at load time."""

    id: str
    term: str
    definition: str
    category: str
    en: str | None = None
    aliases: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    source: str = ""  # "file.yaml:12", for editors
    # What real terminology carries beside (TBX, SKOS, spreadsheets); all optional.
    note: str = ""
    example: str = ""
    sources: tuple[Source, ...] = ()
    tags: tuple[str, ...] = ()
    source_id: str = ""  # the entry's id in the file it was imported from (a TBX id, a SKOS IRI), for round trips
    definition_language: str = ""  # set when the definition is in another language than the glossary's
    deprecated: tuple[str, ...] = ()  # forms to avoid: the card says "Evita: …"

    def spellings(self) -> tuple[str, ...]:
        """Every searchable spelling: name, English equivalent, aliases."""
        return (self.term, *((self.en,) if self.en else ()), *self.aliases)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "term": self.term,
            "en": self.en,
            "aliases": list(self.aliases),
            "category": self.category,
            "definition": self.definition,
            "related": list(self.related),
            "links": [{"title": link.title, "url": link.url} for link in self.links],
        }


@dataclass(frozen=True)
class Glossary:
    """The whole glossary, in file order. Lookup by id through `get`."""

    title: str
    subtitle: str
    language: str
    terms: tuple[Term, ...]
    _by_id: Mapping[str, Term] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", MappingProxyType({t.id: t for t in self.terms}))

    def to_data(self) -> dict:
        """The glossary as plain data (str, lists, dicts) for a cache file; `from_data` undoes it."""
        terms = [
            [
                t.id,
                t.term,
                t.definition,
                t.category,
                t.en,
                t.aliases,
                t.related,
                [[k.title, k.url] for k in t.links],
                t.source,
                [t.note, t.example, [[s.text, s.url] for s in t.sources], t.tags, t.source_id],
                [t.definition_language, t.deprecated],
            ]
            for t in self.terms
        ]
        return {"title": self.title, "subtitle": self.subtitle, "language": self.language, "terms": terms}

    @classmethod
    def from_data(cls, data: dict) -> Glossary:
        terms = tuple(_term_from_data(*row) for row in data["terms"])
        return cls(str(data["title"]), str(data["subtitle"]), str(data["language"]), terms)

    def __len__(self) -> int:
        return len(self.terms)

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    def get(self, term_id: str) -> Term | None:
        return self._by_id.get(term_id)

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.category for t in self.terms))


def _term_from_data(i, term, definition, category, en, aliases, related, links, src, more=None, lang=None) -> Term:
    note, example, sources, tags, source_id = more or ("", "", [], [], "")
    definition_language, deprecated = lang or ("", [])
    return Term(
        i,
        term,
        definition,
        category,
        en,
        tuple(aliases),
        tuple(related),
        tuple(Link(*k) for k in links),
        src,
        note,
        example,
        tuple(Source(*s) for s in sources),
        tuple(tags),
        source_id,
        definition_language,
        tuple(deprecated),
    )


class Layered:
    """Terms by id from one glossary, then from another: a server's own terms beside the published ones (its
    cards and its exports name published terms as related). Titles are the first glossary's."""

    def __init__(self, first: Glossary, then: Glossary | None) -> None:
        self.first, self.then = first, then
        self.title, self.subtitle = first.title, first.subtitle

    def get(self, term_id: str) -> Term | None:
        return self.first.get(term_id) or (self.then.get(term_id) if self.then is not None else None)


@dataclass(frozen=True)
class GlossaryDiff:
    added: tuple[Term, ...]
    removed: tuple[Term, ...]
    changed: tuple[Term, ...]


def diff(old: Glossary, new: Glossary) -> GlossaryDiff:
    """What a reload changes: terms added, removed, and changed in any field (by id)."""
    return GlossaryDiff(
        added=tuple(t for t in new if old.get(t.id) is None),
        removed=tuple(t for t in old if new.get(t.id) is None),
        changed=tuple(t for t in new if (before := old.get(t.id)) is not None and before != t),
    )
