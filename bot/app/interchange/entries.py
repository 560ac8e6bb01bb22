"""An entry as read from another format (TBX, SKOS, CSV, JSON), before it becomes part of a term file; what a
reader gives back; the "|"-joined lists of a CSV cell."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from bot.core.invisible import cleaned, has_cleanable
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
    # Text → the language it is in where that is not the one its field implies ("" for none): Term.languages.
    languages: dict[str, str] = field(default_factory=dict)
    # The name's other senses (imports.claim_names gathers entries of one name here): each an Entry whose
    # definition, category, related, note, example, sources, source_id and definition_language are that sense's.
    senses: list[Entry] = field(default_factory=list)

    def to_term_entry(self) -> dict:
        """The entry as a term file's mapping: the name, then either its definition and what goes with it, or
        (with several senses) the name's forms and each sense."""
        if self.senses:
            data = {"term": self.term.strip(), **self._names(), **self._links(), **self._form_lists()}
            senses = [self._sense()] + [sense._sense(self.category) for sense in self.senses]
            return data | self._languages() | {"senses": senses}
        data = {"term": self.term.strip(), "definition": self.definition.strip(), **self._names()}
        data |= self._related() | self._links() | self._texts() | self._form_lists() | self._sources()
        return data | self._languages()

    def said_in(self, text: str, language: str, implied: str) -> None:
        """Note that `text`, one of the entry's, is in `language` ("" for none) where its field implies `implied`
        (a text already noted keeps the language it was noted with)."""
        if text.strip() and not same_language(language, implied):
            self.languages.setdefault(" ".join(text.split()), language)

    def clean(self, removed: Counter) -> bool:
        """Remove from every text of the entry (and of its senses) the characters nobody sees that carry nothing
        (bot.core.invisible), counting them in `removed`; whether any was there. Addresses are left alone: a web
        address is percent-encoded, where nothing is invisible."""
        if not has_cleanable("\n".join(self._every_text())):  # nearly every entry: nothing to remove, nothing rebuilt
            return False
        before = sum(removed.values())
        for key in _CLEANED_TEXTS:
            setattr(self, key, cleaned(getattr(self, key), removed))
        for key in _CLEANED_LISTS:
            setattr(self, key, [cleaned(text, removed) for text in getattr(self, key)])
        self.links = [{**link, "title": cleaned(link["title"], removed)} for link in self.links]
        self.sources = [{**cited, "text": cleaned(cited["text"], removed)} for cited in self.sources]
        self.languages = {cleaned(text, Counter()): language for text, language in self.languages.items()}
        touched = [sense.clean(removed) for sense in self.senses]
        return any(touched) or sum(removed.values()) > before

    def _sense(self, category: str | None = None) -> dict:
        """This entry as one sense of a term: its definition, and what else it has of what differs between
        senses (its category only when not the term's, `category`)."""
        data: dict = {"definition": self.definition.strip()}
        if category is not None and self.category.strip() and self.category.strip() != category.strip():
            data["category"] = self.category.strip()
        return data | self._related() | self._texts() | self._sources()

    # The parts of a term file's mapping, each only when the entry has it (texts stripped, lists without repeats).
    def _names(self) -> dict:
        data: dict = {"en": self.en.strip()} if self.en.strip() else {}
        if self.aliases:
            data["aliases"] = list(dict.fromkeys(a.strip() for a in self.aliases if a.strip()))
        return data

    def _related(self) -> dict:
        return {"related": list(dict.fromkeys(r.strip() for r in self.related if r.strip()))} if self.related else {}

    def _links(self) -> dict:
        return {"links": self.links} if self.links else {}

    def _texts(self) -> dict:
        return {key: value for key in _TEXTS if (value := getattr(self, key).strip())}

    def _form_lists(self) -> dict:
        lists = {key: list(dict.fromkeys(v.strip() for v in getattr(self, key) if v.strip())) for key in _FORM_LISTS}
        return {key: values for key, values in lists.items() if values}

    def _sources(self) -> dict:
        return {"sources": self.sources} if self.sources else {}

    def _languages(self) -> dict:
        """`languages`, for the texts the entry still has (an English name or alias another entry took is gone)."""
        if not self.languages:
            return {}
        present = {" ".join(text.split()) for each in (self, *self.senses) for text in each._all_texts()}
        kept = {text: language for text, language in self.languages.items() if text in present}
        return {"languages": kept} if kept else {}

    def _every_text(self) -> list[str]:
        """Every text `clean` looks at, the senses' too."""
        texts = [getattr(self, key) for key in _CLEANED_TEXTS] + [
            t for key in _CLEANED_LISTS for t in getattr(self, key)
        ]
        texts += [link["title"] for link in self.links] + [cited["text"] for cited in self.sources]
        return texts + [*self.languages] + [text for sense in self.senses for text in sense._every_text()]

    def _all_texts(self) -> list[str]:
        texts = [self.term, self.en, self.definition, self.note, self.example, *self.aliases, *self.tags]
        texts += [*self.deprecated, *(link["title"] for link in self.links), *(s["text"] for s in self.sources)]
        return texts


_TEXTS = ("note", "example", "source_id", "definition_language")  # a sense's own, beside its definition
_FORM_LISTS = ("tags", "deprecated")  # the name's, shared by its senses
_CLEANED_TEXTS = ("term", "definition", "en", "category", *_TEXTS)
_CLEANED_LISTS = ("aliases", "related", *_FORM_LISTS)


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
    # The summary every import ends with (imports.py): entries read, refused with their reason, fields
    # not kept with their counts. Readers that fill only `problems` are summarised from them.
    read: int | None = None
    refused: list = field(default_factory=list)  # bot.app.interchange.imports.Refused
    dropped: dict[str, int] = field(default_factory=dict)
    # The title's and the categories' languages, as the file says them ("" for none): Glossary.languages.
    languages: dict[str, str] = field(default_factory=dict)


@lru_cache(maxsize=1024)  # a file has a few language tags, asked about for every label of every entry
def language_matches(tag: str, lang: str) -> bool:
    """Whether a language tag is in language `lang` (BCP 47, without case, "_" read as "-"): "es-ES", "es_es" and
    "ES" are Spanish when "es" was asked, only "es-ES" when "es-ES" was; "spa" is not "es", nor "eng" "en"."""
    tag, lang = tag.lower().replace("_", "-"), lang.lower().replace("_", "-")
    return tag == lang or ("-" not in lang and tag.split("-")[0] == lang)


def same_language(tag: str, other: str) -> bool:
    """Whether two language tags say the same language: the same primary subtag, without case ("en-GB" is "en";
    a region is not a language), or both empty (two texts in no language)."""
    if not tag or not other:
        return tag == other
    return tag.lower().replace("_", "-").split("-")[0] == other.lower().replace("_", "-").split("-")[0]


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
