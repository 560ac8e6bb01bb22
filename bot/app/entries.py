"""An entry as read from another format (TBX, SKOS, CSV, JSON), before it becomes part of a term file; what a
reader gives back; the "|"-joined lists of a CSV cell."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from bot.core.problems import Said, SaidInBoth, Sentence

LIST_SEPARATOR = "|"  # inside a value, "|" is written "\\|" and "\\" is written "\\\\"


@dataclass
class Entry:
    """One term as read from another format, before it becomes part of a term file."""

    term: str = ""
    definition: str = ""
    en: str = ""
    category: str = ""
    aliases: list[str] = field(default_factory=list)
    related: list[str] = field(default_factory=list)  # names
    links: list[dict[str, str]] = field(default_factory=list)
    where: str | Sentence = ""  # line, term number, entry id or IRI, for problems
    # What real terminology carries beside (see the term files' optional keys in bot/core/loader.py)
    note: str = ""
    example: str = ""
    sources: list[dict[str, str]] = field(default_factory=list)  # {"text": ..., "url": ...} (url optional)
    tags: list[str] = field(default_factory=list)
    source_id: str = ""
    definition_language: str = ""
    deprecated: list[str] = field(default_factory=list)
    # The name's other senses (bot.app.imports.claim_names gathers entries of one name here): each an Entry whose
    # definition, category, related, note, example, sources, source_id and definition_language are that sense's.
    senses: list[Entry] = field(default_factory=list)

    def to_term_entry(self) -> dict:
        if self.senses:
            return self._with_senses()
        data: dict = {"term": self.term.strip(), "definition": self.definition.strip()}
        if self.en.strip():
            data["en"] = self.en.strip()
        if self.aliases:
            data["aliases"] = list(dict.fromkeys(a.strip() for a in self.aliases if a.strip()))
        if self.related:
            data["related"] = list(dict.fromkeys(r.strip() for r in self.related if r.strip()))
        if self.links:
            data["links"] = self.links
        return data | self._terminology()

    def _with_senses(self) -> dict:
        """A term of several senses: the name and its forms, then each sense (the first is this entry's own)."""
        data: dict = {"term": self.term.strip()}
        if self.en.strip():
            data["en"] = self.en.strip()
        if self.aliases:
            data["aliases"] = list(dict.fromkeys(a.strip() for a in self.aliases if a.strip()))
        if self.links:
            data["links"] = self.links
        for key in ("tags", "deprecated"):
            if values := list(dict.fromkeys(v.strip() for v in getattr(self, key) if v.strip())):
                data[key] = values
        data["senses"] = [self._sense()] + [sense._sense(self.category) for sense in self.senses]
        return data

    def _sense(self, category: str | None = None) -> dict:
        """This entry as one sense of a term: its definition, and what else it has of what differs between
        senses (its category only when not the term's, `category`)."""
        data: dict = {"definition": self.definition.strip()}
        if category is not None and self.category.strip() and self.category.strip() != category.strip():
            data["category"] = self.category.strip()
        if self.related:
            data["related"] = list(dict.fromkeys(r.strip() for r in self.related if r.strip()))
        for key in ("note", "example", "source_id", "definition_language"):
            if value := getattr(self, key).strip():
                data[key] = value
        if self.sources:
            data["sources"] = self.sources
        return data

    def _terminology(self) -> dict:
        data: dict = {}
        for key in ("note", "example", "source_id", "definition_language"):
            if value := getattr(self, key).strip():
                data[key] = value
        for key in ("tags", "deprecated"):
            if values := list(dict.fromkeys(v.strip() for v in getattr(self, key) if v.strip())):
                data[key] = values
        if self.sources:
            data["sources"] = self.sources
        return data


@dataclass(frozen=True, slots=True)
class Problem(SaidInBoth):
    """A problem of an import, with the file as a whole or with one entry (its line, term number or IRI leads the
    sentence), in the words of the problems' catalogues. It unpacks as (Spanish, English)."""

    said: Said

    def __iter__(self):
        return iter((self.spanish, self.english))


@dataclass
class Imported:
    entries: list[Entry]
    problems: list[Problem]
    title: str = ""
    # The summary every import ends with (bot/app/imports.py): entries read, refused with their reason, fields
    # not kept with their counts. Readers that fill only `problems` are summarised from them.
    read: int | None = None
    refused: list = field(default_factory=list)  # bot.app.imports.Refused
    dropped: dict[str, int] = field(default_factory=dict)


@lru_cache(maxsize=1024)  # a file has a few language tags, asked about for every label of every entry
def language_matches(tag: str, lang: str) -> bool:
    """Whether a language tag is in language `lang`: "es-ES" is Spanish when "es" was asked, only itself when
    "es-ES" was asked."""
    tag, lang = tag.lower(), lang.lower()
    return tag == lang or tag.split("-")[0] == lang if "-" not in lang else tag == lang


def _split(value: str) -> list[str]:
    """The values `_joined` put in one cell. A backslash before anything but "|" or "\\" is kept as written (cells
    from a spreadsheet, or from before the escapes)."""
    if "\\" not in value:  # no escapes: the same parts, without walking the text a character at a time
        return [part.strip() for part in value.split(LIST_SEPARATOR) if part.strip()]
    parts, current, chars = [], [], iter(value)
    for char in chars:
        if char == "\\":
            after = next(chars, "")
            current.append(after if after in (LIST_SEPARATOR, "\\") else char + after)
        elif char == LIST_SEPARATOR:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def _link(text: str) -> dict[str, str] | None:
    title, _, url = text.rpartition(" <")
    return {"title": title.strip() or url.rstrip(">"), "url": url.rstrip(">").strip()} if url.endswith(">") else None
