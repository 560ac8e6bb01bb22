"""Immutable glossary values: Link, Source, Sense, Term, Glossary."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
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
class Sense:
    """One meaning of a name that has several: what differs between a term's senses. A term's first sense is the
    term's own fields; `Term.senses` holds the others."""

    definition: str
    category: str
    related: tuple[str, ...] = ()  # ids of other terms, as Term.related
    note: str = ""
    example: str = ""
    sources: tuple[Source, ...] = ()
    definition_language: str = ""
    source_id: str = ""

    def to_dict(self) -> dict:
        return {
            "definition": self.definition,
            "category": self.category,
            "related": list(self.related),
            "note": self.note,
            "example": self.example,
            "sources": [{"text": s.text, **({"url": s.url} if s.url else {})} for s in self.sources],
            "definition_language": self.definition_language,
            "source_id": self.source_id,
        }


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
    senses: tuple[Sense, ...] = ()  # the name's other meanings, after the first (which is the fields above)
    # (text, language) for each text of the term in another language than the one its field implies (the glossary's;
    # English for `en`; none for a source's or a link's title): what an import read, so that exports say it again.
    # "" is a text in no language (an untagged literal).
    languages: tuple[tuple[str, str], ...] = ()

    def language_of(self, text: str, implied: str) -> str:
        """The language `text` (one of the term's texts) is in: its own when `languages` has one, else `implied`."""
        return language_in(self.languages, text, implied)

    def spellings(self) -> tuple[str, ...]:
        """Every searchable spelling: name, English equivalent, aliases."""
        return (self.term, *((self.en,) if self.en else ()), *self.aliases)

    def first_sense(self) -> Sense:
        """The term's own fields as its first sense."""
        return Sense(
            self.definition,
            self.category,
            self.related,
            self.note,
            self.example,
            self.sources,
            self.definition_language,
            self.source_id,
        )

    def all_senses(self) -> tuple[Sense, ...]:
        """Every sense, the first one first."""
        return (self.first_sense(), *self.senses)

    def all_related(self) -> tuple[str, ...]:
        """The ids of the terms any sense relates to, each once (the first sense's first)."""
        if not self.senses:
            return self.related
        return tuple(dict.fromkeys(i for sense in self.all_senses() for i in sense.related))

    def categories(self) -> tuple[str, ...]:
        """Every sense's category, each once (the first sense's first): a term is listed under each."""
        if not self.senses:
            return (self.category,)
        return tuple(dict.fromkeys(sense.category for sense in self.all_senses()))

    def definitions(self) -> str:
        """Every sense's definition, one paragraph each: what a search by meaning reads."""
        if not self.senses:
            return self.definition
        return "\n\n".join(sense.definition for sense in self.all_senses())

    def sense_terms(self) -> tuple[Term, ...]:
        """The term as one term per sense, for the formats whose entries hold one meaning each (TBX, SKOS, CSV,
        JSON): the first is the term without its other senses; each other one has the name and forms with that
        sense's fields, and an id of its own ("modelo-sentido-2")."""
        if not self.senses:
            return (self,)
        first = replace(self, senses=())
        return (
            first,
            *(
                replace(
                    first,
                    id=f"{self.id}-sentido-{number}",
                    definition=sense.definition,
                    category=sense.category,
                    related=sense.related,
                    note=sense.note,
                    example=sense.example,
                    sources=sense.sources,
                    definition_language=sense.definition_language,
                    source_id=sense.source_id,
                )
                for number, sense in enumerate(self.senses, start=2)
            ),
        )

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
            **({"senses": [sense.to_dict() for sense in self.senses]} if self.senses else {}),
        }


def language_in(languages: tuple[tuple[str, str], ...], text: str, implied: str) -> str:
    """The language `languages` (pairs of text and language) gives `text` (compared with its spaces as the loader
    reads them), else `implied`."""
    if languages:
        text = " ".join(text.split())
        for said, language in languages:
            if said == text:
                return language
    return implied


@dataclass(frozen=True)
class Glossary:
    """The whole glossary, in file order. Lookup by id through `get`."""

    title: str
    subtitle: str
    language: str
    terms: tuple[Term, ...]
    # (text, language) for the title, subtitle or a category name in another language than the glossary's ("" for
    # none): as Term.languages, for the glossary's own texts.
    languages: tuple[tuple[str, str], ...] = ()
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
                [_sense_data(sense) for sense in t.senses],
                [list(pair) for pair in t.languages],
            ]
            for t in self.terms
        ]
        meta = {"title": self.title, "subtitle": self.subtitle, "language": self.language}
        return meta | {"terms": terms, "languages": [list(pair) for pair in self.languages]}

    @classmethod
    def from_data(cls, data: dict) -> Glossary:
        terms = tuple(_term_from_data(*row) for row in data["terms"])
        languages = tuple((str(text), str(language)) for text, language in data.get("languages", ()))
        return cls(str(data["title"]), str(data["subtitle"]), str(data["language"]), terms, languages)

    def language_of(self, text: str) -> str:
        """The language of the glossary's title, subtitle or a category name."""
        return language_in(self.languages, text, self.language)

    def __len__(self) -> int:
        return len(self.terms)

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    def get(self, term_id: str) -> Term | None:
        return self._by_id.get(term_id)

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(category for t in self.terms for category in t.categories()))


def _sense_data(sense: Sense) -> list:
    return [
        sense.definition,
        sense.category,
        sense.related,
        sense.note,
        sense.example,
        [[s.text, s.url] for s in sense.sources],
        sense.definition_language,
        sense.source_id,
    ]


def _sense_from_data(definition, category, related, note, example, sources, definition_language, source_id) -> Sense:
    cited = tuple(Source(*s) for s in sources)
    return Sense(definition, category, tuple(related), note, example, cited, definition_language, source_id)


def _term_from_data(
    i, term, definition, category, en, aliases, related, links, src, more=None, lang=None, senses=(), languages=()
) -> Term:
    """A row of `Glossary.to_data` (rows written before a field existed lack it)."""
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
        tuple(_sense_from_data(*row) for row in senses),
        tuple((text, language) for text, language in languages),
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
