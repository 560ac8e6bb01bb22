"""Term files (YAML) → an immutable Glossary, or one GlossaryError listing every problem with file:line."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import PurePath
from urllib.parse import quote, urlsplit

import yaml

from bot.core import card
from bot.core.card import EMBED_TOTAL
from bot.core.errors import GlossaryError, Problem
from bot.core.invisible import first_refused, kind
from bot.core.model import Glossary, Link, Sense, Source, Term
from bot.core.normalize import compact, normalize, slug
from bot.core.problems import Sentence, said

try:  # the C parser is about ten times faster; fall back to pure Python where libyaml is missing
    _YamlLoader: type = yaml.CBaseLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _YamlLoader = yaml.BaseLoader
# The base loader tags every scalar as text (PyYAML's own type resolution costs seconds at 100k terms);
# plain scalars that YAML would read as a number, boolean or null are caught here instead.
NOT_TEXT = re.compile(
    r"[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d+)(?:[eE][-+]?\d+)?|0x[0-9a-fA-F_]+|0o?[0-7_]+|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN)|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~"
)

META_FILE = "glossary.yaml"
# Discord's embed limits: title 256, description 4,096, field value 1,024 (6,000 across a message: bot.core.card).
TITLE_LIMIT, DESCRIPTION_LIMIT, FIELD_LIMIT = 256, 4096, 1024

# What real terminology carries beside a definition (DESIGN.md, "Term files"): optional, checked here like the rest.
_EXTRA_KEYS = ("note", "example", "sources", "tags", "source_id", "definition_language", "deprecated", "languages")
_SOURCE_KEYS = {"text", "url"}
_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{kind}" for kind in ("str", "seq", "map"))
_META_KEYS = {"title", "subtitle", "language", "languages"}
_FILE_KEYS = {"category", "terms"}
_TERM_KEYS = {"term", "definition", "senses", "en", "aliases", "related", "links", *_EXTRA_KEYS}
# What differs between the senses of one name (`senses:`, each a mapping): with `senses`, these go in each sense.
_PER_SENSE = ("related", "note", "example", "sources", "source_id", "definition_language")
_SENSE_KEYS = {"definition", "category", *_PER_SENSE}
_LINK_KEYS = {"title", "url"}


def load_glossary_from_texts(files: list[tuple[str, bytes | str]]) -> Glossary:
    """Validate in-memory term files given as (name, content); the file named glossary.yaml holds the title."""
    return _build([(name, data.encode() if isinstance(data, str) else data) for name, data in files])


def _build(files: list[tuple[str, bytes]]) -> Glossary:
    return _Builder().build(files)


def load_glossary_from_nodes(meta: yaml.Node, files: dict[str, yaml.Node]) -> Glossary:
    """Validate term files given as the nodes YAML reads (`term_file_node` makes them from an import's entries)
    by the very rules of `validate`, without writing them out to read them back: what is checked is what
    `yaml.serialize` writes."""
    builder = _Builder()
    builder._meta(META_FILE, meta)
    for name, root in files.items():
        builder._category_file(name, root)
    return builder.finish([(META_FILE, b"")])


def term_file_node(category: str, entries: list[dict]) -> yaml.Node:
    """A term file of these entries as YAML nodes; a problem's line is the entry's number (1-based), 0 for the
    file itself."""
    root = data_node({"category": category, "terms": []})
    root.value[1][1].value = [data_node(entry, n) for n, entry in enumerate(entries, start=1)]
    return root


_STR_TAG, _SEQ_TAG, _MAP_TAG = (f"tag:yaml.org,2002:{kind}" for kind in ("str", "seq", "map"))


def data_node(value: object, line: int = 0) -> yaml.Node:
    """`value` as the node YAML reads from a file that holds it, at `line`. Text is text: quoted where YAML would
    read it as something else (a number, yes/no, null), else left for the emitter to write as it must; anything
    else (a number, null) is written as YAML would, plain (and is then no text, as `validate` says)."""
    mark = yaml.Mark("", 0, line - 1, 0, None, None)
    scalar, mapping, sequence = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode

    def text(item: str) -> yaml.ScalarNode:
        first = item[:1]  # reads_as_other, written out: this runs for every value
        other = (first in _NOT_TEXT_STARTS or first.isdecimal()) and NOT_TEXT.fullmatch(item) is not None
        return scalar(_STR_TAG, item, mark, mark, '"' if other or not item else None)  # ("" is text; bare, null)

    # An import builds one node for every value of 10,000 entries: exact types first, the general case after.
    def node(item: object) -> yaml.Node:
        kind = type(item)
        if kind is str:
            return text(item)
        if kind is dict:
            pairs = [
                (scalar(_STR_TAG, k, mark, mark, _key_style(k)) if type(k) is str else node(str(k)), node(v))
                for k, v in item.items()
            ]
            return mapping(_MAP_TAG, pairs, mark, mark)
        if kind is list:
            return sequence(_SEQ_TAG, [text(v) if type(v) is str else node(v) for v in item], mark, mark)
        if isinstance(item, str):
            return text(item)
        if isinstance(item, dict):
            return mapping(_MAP_TAG, [(node(str(k)), node(v)) for k, v in item.items()], mark, mark)
        if isinstance(item, list | tuple):
            return sequence(_SEQ_TAG, [node(v) for v in item], mark, mark)
        return scalar(_STR_TAG, yaml.safe_dump(item).removesuffix("\n...\n").strip(), mark, mark)

    return node(value)


# Only text starting with one of these (or a digit of any script: NOT_TEXT's \d) can be what NOT_TEXT matches.
_NOT_TEXT_STARTS = frozenset("-+.0123456789yYnNtTfFoO~")


@lru_cache(maxsize=256)  # the keys of term files: a few names, each written for every entry
def _key_style(key: str) -> str | None:
    return '"' if reads_as_other(key) else None


def reads_as_other(value: str) -> bool:
    """Whether YAML would read this plain text as a number, boolean or null (NOT_TEXT, tried only where it can
    match: most values start with a letter it cannot)."""
    first = value[:1]
    return (first in _NOT_TEXT_STARTS or first.isdecimal()) and NOT_TEXT.fullmatch(value) is not None


_LABELS = {"term": said("the_name"), "en": said("the_english_name"), "aliases": said("the_alias")}


@dataclass(frozen=True, slots=True)
class _Key:
    """One spelling of a term, where it is written."""

    index: int  # the draft
    field: str  # "term", "en" or "aliases"
    text: str
    file: str
    line: int


@dataclass
class _SenseDraft:
    """A sense after a term's first, as its file says it (its related terms still by name)."""

    definition: str
    category: str
    related: list[tuple[str, int]]
    extra: dict  # note, example, sources, source_id, definition_language, already checked


@dataclass
class _Draft:
    term: str
    definition: str
    category: str
    file: str
    line: int
    en: str | None = None
    aliases: list[tuple[str, int]] = field(default_factory=list)  # (alias, its line)
    related: list[tuple[str, int]] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    en_line: int = 0
    extra: dict = field(default_factory=dict)  # the Term's optional fields of _EXTRA_KEYS, already checked
    senses: list[_SenseDraft] = field(default_factory=list)  # the senses after the first (the fields above)


class _Builder:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.meta: dict[str, str] = {}
        self.meta_seen = False
        self.drafts: list[_Draft] = []
        self.meta_languages: tuple[str, yaml.Node | None, dict[str, str]] = ("", None, {})  # glossary.yaml's
        # Each text normalised (and made an id) once: a name is looked at for its id, for its spellings and for
        # every `related` that names it.
        self.normalized = cache(normalize)
        self.term_id = cache(slug)

    # -- entry ------------------------------------------------------------------------------------
    def build(self, files: list[tuple[str, bytes]]) -> Glossary:
        for name, data in files:
            meta = PurePath(name).name == META_FILE
            self.meta_seen = self.meta_seen or meta  # (there, whether or not it reads: its own problems say why)
            root = self._parse(name, data, meta)
            if root is None:
                continue
            if meta:
                self._meta(name, root)
            else:
                self._category_file(name, root)
        return self.finish(files)

    def finish(self, files: list[tuple[str, object]]) -> Glossary:
        """The checks across files, once every file is read; the Glossary, or every problem found."""
        if not self.meta_seen:
            folder = str(PurePath(files[0][0]).parent) if files else ""
            where = str(PurePath(folder) / META_FILE) if folder not in ("", ".") else META_FILE
            self._add(where, 0, "meta_missing", meta=META_FILE)
        if not self.drafts and not self.problems:
            self._add(files[0][0] if files else "glossary.yaml", 0, "no_terms")
        terms = self._link_terms()
        self._check_cards(terms)
        name, node, languages = self.meta_languages
        own = [self.meta.get("title", ""), self.meta.get("subtitle", ""), *(d.category for d in self.drafts)]
        self._languages_name(name, node, languages, own, said("the_glossary_texts"))
        if self.problems:
            raise GlossaryError(self.problems)
        return Glossary(
            title=self.meta.get("title", ""),
            subtitle=self.meta.get("subtitle", ""),
            language=self.meta.get("language", "es"),
            terms=tuple(terms),
            languages=tuple(languages.items()),
        )

    def _check_cards(self, terms: list[Term]) -> None:
        """Each field within its limit is not enough: Discord refuses a card over 6,000 characters in total."""
        footer = card.footer(self.meta.get("title", ""), self.meta.get("subtitle", ""))
        names = {term.id: term.term for term in terms}
        for term in terms:
            related = {r: names.get(r, r) for r in term.all_related()}
            text = card.card_text(term, related, footer)
            size = text.length()
            file, _, line = term.source.rpartition(":")
            if size > EMBED_TOTAL:
                self._add(file, int(line), "card_too_long", term=term.term, size=size, limit=EMBED_TOTAL)
            elif term.senses and len(text.description) > DESCRIPTION_LIMIT:  # each sense fits; all of them may not
                size = len(text.description)
                self._add(file, int(line), "senses_too_long", term=term.term, size=size, limit=DESCRIPTION_LIMIT)

    def _collision(self, first: _Key, second: _Key) -> None:
        """Two spellings of different terms that are the same once normalised. The one reported is the one to
        change: an alias or English name rather than a term's own name, else the later one; the other is named
        with its place."""
        culprit, other = (first, second) if first.field != "term" and second.field == "term" else (second, first)
        owner, taken = self.drafts[culprit.index], self.drafts[other.index]
        self._add(
            culprit.file,
            culprit.line,
            "spelling_taken",
            label=_LABELS[culprit.field],
            spelling=culprit.text,
            field=culprit.field,
            term=owner.term,
            other_label=_LABELS[other.field],
            other_spelling=other.text,
            other_field=other.field,
            other_term=taken.term,
            place=f"{other.file}:{other.line}",
        )

    def _add(self, file: str, line: int, code: str, /, **params: object) -> None:
        """A problem: its code in the problems' catalogues, and the values its sentence names."""
        self.problems.append(Problem(file, line, code, params))

    def _parse(self, name: str, data: bytes, meta: bool = False) -> yaml.Node | None:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            self._add(name, data.count(b"\n", 0, exc.start) + 1, "not_utf8")
            return None
        try:
            root = yaml.compose(text, Loader=_YamlLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else 0
            lines = text.splitlines()
            line_text = lines[mark.line] if mark and mark.line < len(lines) else ""
            before, at = (line_text[: mark.column], line_text[mark.column : mark.column + 1]) if mark else ("", "")
            sentence = _yaml_problem(str(exc.problem or exc.context), before, at, str(exc.context or ""))
            self._add(name, line, sentence.code, **sentence.params)
            return None
        except yaml.reader.ReaderError as exc:  # a character YAML does not allow at all (control characters)
            line = text.count("\n", 0, max(exc.position, 0)) + 1
            what = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
            self._add(name, line, "yaml_forbidden_character", char=what)
            return None
        except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
            self._add(name, 0, "yaml_unreadable", error=type(exc).__name__)
            return None
        if root is None:
            self._add(name, 1, "meta_empty" if meta else "file_empty")
        return root

    # -- typed accessors ----------------------------------------------------------------------------
    def _mapping(
        self, name: str, node: yaml.Node, allowed: set[str], what: Sentence | str
    ) -> dict[str, yaml.Node] | None:
        """The keys and values of a mapping (`what` names it in the problems), each key one of `allowed`."""
        if not isinstance(node, yaml.MappingNode):
            self._add(name, _line(node), "not_a_mapping", what=what)
            return None
        out: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._add(name, _line(key_node), "key_not_text", what=what)
                continue
            key = str(key_node.value)
            if key not in allowed:
                hint = difflib.get_close_matches(key, sorted(allowed), n=1)
                valid = ", ".join(sorted(allowed))
                fix = said("did_you_mean", hint=hint[0]) if hint else said("valid_keys", keys=valid)
                self._add(name, _line(key_node), "unknown_key", key=key, what=what, fix=fix)
            elif key in out:
                self._add(name, _line(key_node), "key_repeated", key=key, what=what)
            else:
                out[key] = value
        return out

    def _text(self, name: str, node: yaml.Node | None, key: str, *, limit: int) -> str | None:
        """The text at `node`, or None (absent, or reported as a problem). Missing keys are the caller's report."""
        if node is None:
            return None
        if node.tag not in _PLAIN_TAGS:  # !!python/object, !custom: never constructed, and named as what they are
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self._add(name, _line(node), "yaml_tag", key=key, tag=tag)
            return None
        if not isinstance(node, yaml.ScalarNode) or (not node.style and reads_as_other(node.value)):
            scalar = isinstance(node, yaml.ScalarNode)
            kind = said("kind_scalar", value=node.value) if scalar else said("kind_collection")
            self._add(name, _line(node), "not_text", key=key, kind=kind)
            return None
        value = " ".join(str(node.value).split()) if key != "definition" else str(node.value).strip()
        return value if self._fits(name, node, key, value, limit) else None

    def _fits(self, name: str, node: yaml.Node, key: str, value: str, limit: int) -> bool:
        """A text value that is not empty, fits Discord's limit and has no invisible character; else reported."""
        problem = text_problem(key, value, limit)
        if problem is not None:
            self._add(name, _line(node), problem.code, **problem.params)
        return problem is None

    def _text_list(self, name: str, node: yaml.Node | None, key: str) -> list[tuple[str, int]]:
        if node is None:
            return []
        if not isinstance(node, yaml.SequenceNode):
            self._add(name, _line(node), "not_a_list", key=key)
            return []
        out = []
        for item in node.value:
            value = self._text(name, item, key, limit=FIELD_LIMIT)
            if value is not None:
                out.append((value, _line(item)))
        return out

    # -- files ------------------------------------------------------------------------------------
    def _meta(self, name: str, root: yaml.Node) -> None:
        self.meta_seen = True
        fields = self._mapping(name, root, _META_KEYS, META_FILE)
        if fields is None:
            return
        for key in ("title", "subtitle", "language"):
            value = self._text(name, fields.get(key), key, limit=TITLE_LIMIT)
            if key == "language" and value is not None and not _LANGUAGE_TAG.fullmatch(value):
                self._add(name, _line(fields[key]), "language_not_a_tag", value=value)
            elif value is not None:
                self.meta[key] = value
        if "title" not in fields:
            self._add(name, _line(root), "title_missing")
        self.meta_languages = (name, fields.get("languages"), self._languages(name, fields.get("languages")))

    def _category_file(self, name: str, root: yaml.Node) -> None:
        fields = self._mapping(name, root, _FILE_KEYS, said("the_category_file"))
        if fields is None:
            return
        category = self._text(name, fields.get("category"), "category", limit=FIELD_LIMIT)
        if "category" not in fields:
            self._add(name, _line(root), "category_missing")
        terms = fields.get("terms")
        if terms is None:
            self._add(name, _line(root), "terms_missing")
            return
        if not isinstance(terms, yaml.SequenceNode):
            self._add(name, _line(terms), "terms_not_a_list")
            return
        for node in terms.value:
            self._term(name, node, category or "")

    def _term(self, name: str, node: yaml.Node, category: str) -> None:
        fields = self._mapping(name, node, _TERM_KEYS, said("the_term"))
        if fields is None:
            return
        line = _line(node)
        term = self._text(name, fields.get("term"), "term", limit=TITLE_LIMIT)
        definition = self._text(name, fields.get("definition"), "definition", limit=DESCRIPTION_LIMIT)
        self._required(name, line, fields)
        senses = self._senses(name, fields, category) if "senses" in fields else []
        en = self._text(name, fields.get("en"), "en", limit=FIELD_LIMIT)
        aliases = self._text_list(name, fields.get("aliases"), "aliases")
        related = self._text_list(name, fields.get("related"), "related")
        links = self._links(name, fields.get("links"))
        if len(", ".join(a for a, _ in aliases)) > FIELD_LIMIT:
            self._add(name, _line(fields["aliases"]), "aliases_too_long", limit=FIELD_LIMIT)
        if term is None:
            return
        extra = self._extra(name, fields)
        if senses:  # the first sense is the term's own fields
            first = senses.pop(0)
            definition, category, related, extra = first.definition, first.category, first.related, extra | first.extra
        # A term whose definition has a problem is still a term: other terms may name it in `related` (the root
        # cause is reported once, not again in every term that points at it).
        self.drafts.append(
            _Draft(
                term,
                definition or "",
                category,
                name,
                _line(fields["term"]),
                en,
                aliases,
                related,
                links,
                en_line=_line(fields["en"]) if "en" in fields else line,
                extra=extra,
                senses=senses,
            )
        )
        if "languages" in extra:
            texts = self._texts_of(self.drafts[-1])
            self._languages_name(name, fields["languages"], dict(extra["languages"]), texts, said("the_term"))

    def _senses(self, name: str, fields: dict[str, yaml.Node], category: str) -> list[_SenseDraft]:
        """`senses`: a list of mappings, each with its definition and what else differs between them. With it, the
        term has no `definition` of its own, nor any key that belongs in each sense."""
        node = fields["senses"]
        if "definition" in fields:
            self._add(name, _line(fields["definition"]), "definition_and_senses")
        for key in _PER_SENSE:
            if key in fields:
                self._add(name, _line(fields[key]), "sense_key_at_entry", key=key)
        items = self._listed(name, node, "senses", "{definition: ..., category: ..., related: [...]}")
        if isinstance(node, yaml.SequenceNode) and not items:
            self._add(name, _line(node), "senses_empty")
        senses = []
        for item in items:
            sense = self._mapping(name, item, _SENSE_KEYS, said("the_sense"))
            if sense is None:
                continue
            definition = self._text(name, sense.get("definition"), "definition", limit=DESCRIPTION_LIMIT)
            if "definition" not in sense:
                self._add(name, _line(item), "sense_definition_missing")
            own = self._text(name, sense.get("category"), "category", limit=FIELD_LIMIT)
            related = self._text_list(name, sense.get("related"), "related")
            senses.append(_SenseDraft(definition or "", own or category, related, self._extra(name, sense)))
        return senses

    def _extra(self, name: str, fields: dict[str, yaml.Node]) -> dict:
        """The optional fields of real terminology, as the Term's keyword arguments (each checked)."""
        extra: dict = {}
        for key in ("note", "example"):
            if (value := self._text(name, fields.get(key), key, limit=FIELD_LIMIT)) is not None:
                extra[key] = value
        if (value := self._text(name, fields.get("source_id"), "source_id", limit=TITLE_LIMIT)) is not None:
            extra["source_id"] = value
        language = self._text(name, fields.get("definition_language"), "definition_language", limit=35)
        if language is not None and not _LANGUAGE_TAG.fullmatch(language):
            self._add(name, _line(fields["definition_language"]), "definition_language_not_a_tag", value=language)
        elif language is not None:
            extra["definition_language"] = language
        for key in ("tags", "deprecated"):
            values = [value for value, _ in self._text_list(name, fields.get(key), key)]
            if values:
                extra[key] = tuple(dict.fromkeys(values))
                self._joined_fits(name, fields[key], key, ", ".join(values))
        sources = self._sources(name, fields.get("sources"))
        if sources:
            extra["sources"] = tuple(sources)
        if languages := self._languages(name, fields.get("languages")):
            extra["languages"] = tuple(languages.items())
        return extra

    def _languages(self, name: str, node: yaml.Node | None) -> dict[str, str]:
        """`languages`: text → the language it is in, where that is not the one its field implies (a language tag,
        or "" for a text in no language). Its texts as the loader reads them (runs of spaces as one)."""
        if node is None:
            return {}
        if not isinstance(node, yaml.MappingNode):
            self._add(name, _line(node), "not_a_mapping", what="languages")
            return {}
        languages: dict[str, str] = {}
        for key_node, value_node in node.value:
            text = self._text(name, key_node, "languages", limit=DESCRIPTION_LIMIT)
            quoted_empty = isinstance(value_node, yaml.ScalarNode) and value_node.style and not value_node.value
            language = "" if quoted_empty else self._text(name, value_node, "languages", limit=35)
            if language and not _LANGUAGE_TAG.fullmatch(language):
                self._add(name, _line(value_node), "languages_not_a_tag", text=text, value=language)
            elif text is not None and language is not None:
                languages[" ".join(text.split())] = language
        return languages

    def _languages_name(self, name: str, node, languages: dict[str, str], texts: list, what: Sentence) -> None:
        """Each text `languages` gives a language to is one of `texts` (a term's, or the glossary's own)."""
        known = {" ".join(text.split()) for text in texts if text}
        for text in (text for text in languages if text not in known):
            self._add(name, _line(node), "languages_unknown_text", text=text, what=what)

    @staticmethod
    def _texts_of(draft: _Draft) -> list[str]:
        """Every text of a term a language may be said of: names, definitions, notes, examples, sources, links."""
        parts = [draft.extra, *(sense.extra for sense in draft.senses)]
        texts = [draft.term, draft.en or "", draft.definition, *(sense.definition for sense in draft.senses)]
        texts += [alias for alias, _ in draft.aliases] + [link.title for link in draft.links]
        texts += [part.get(key, "") for part in parts for key in ("note", "example")]
        texts += [text for part in parts for key in ("tags", "deprecated") for text in part.get(key, ())]
        return texts + [cited.text for part in parts for cited in part.get("sources", ())]

    def _joined_fits(self, name: str, node: yaml.Node, key: str, joined: str) -> None:
        if len(joined) > FIELD_LIMIT:
            self._add(name, _line(node), "joined_too_long", key=key, limit=FIELD_LIMIT)

    def _listed(self, name: str, node: yaml.Node | None, key: str, shape: str) -> list[yaml.Node]:
        """The items of a list field (`links`, `sources`); none, with the problem said, when it is not a list."""
        if node is None:
            return []
        if not isinstance(node, yaml.SequenceNode):
            self._add(name, _line(node), "not_a_list_of", key=key, shape=shape)
            return []
        return node.value

    def _not_a_web_url(self, name: str, node: yaml.Node, url: str) -> bool:
        """Whether `url` is not an http(s) address RFC 3986 accepts (the problem is then said, with the fix)."""
        if _is_web_url(url):
            return False
        self._add(name, _line(node), "url_invalid", url=url, fix=_url_fix(url))
        return True

    def _sources(self, name: str, node: yaml.Node | None) -> list[Source]:
        """`sources`: a list of {text, url}; the url is optional and, when given, a web address."""
        sources = []
        for item in self._listed(name, node, "sources", "{text: ..., url: https://...}"):
            fields = self._mapping(name, item, _SOURCE_KEYS, said("the_source"))
            if fields is None:
                continue
            text = self._text(name, fields.get("text"), "text", limit=FIELD_LIMIT)
            url = self._text(name, fields.get("url"), "url", limit=512) if "url" in fields else ""
            if "text" not in fields:
                self._add(name, _line(item), "source_without_text")
                continue
            if url and self._not_a_web_url(name, fields["url"], url):
                continue
            if text is not None and url is not None:
                sources.append(Source(text, url))
        self._joined_fits(name, node, "sources", "\n".join(f"{s.text} {s.url}" for s in sources))
        return sources

    def _required(self, name: str, line: int, fields: dict[str, yaml.Node]) -> None:
        """A term needs its name and its definition (or its senses): one problem names whichever are missing."""
        have = fields.keys() | ({"definition"} if "senses" in fields else set())  # senses: each has its definition
        missing = [key for key in ("term", "definition") if key not in have]
        if len(missing) == 2:
            self._add(name, line, "name_and_definition_missing")
        elif missing:
            self._add(name, line, {"term": "name_missing", "definition": "definition_missing"}[missing[0]])

    def _links(self, name: str, node: yaml.Node | None) -> list[Link]:
        links = []
        for item in self._listed(name, node, "links", "{title: ..., url: https://...}"):
            fields = self._mapping(name, item, _LINK_KEYS, said("the_link"))
            if fields is None:
                continue
            title = self._text(name, fields.get("title"), "title", limit=TITLE_LIMIT)
            url = self._text(name, fields.get("url"), "url", limit=512)
            if "title" not in fields or "url" not in fields:
                self._add(name, _line(item), "link_incomplete")
                continue
            if url is not None and self._not_a_web_url(name, fields["url"], url):
                continue
            if title and url:
                links.append(Link(title, url))
        if len("\n".join(f"[{link.title}]({link.url})" for link in links)) > FIELD_LIMIT:
            self._add(name, _line(node), "links_too_long", limit=FIELD_LIMIT)
        return links

    # -- cross-file checks ---------------------------------------------------------------------------
    def _link_terms(self) -> list[Term]:
        owner: dict[str, _Key] = {}  # normalised or compact key → the spelling that has it
        ids: dict[str, int] = {}
        for index, draft in enumerate(self.drafts):
            if self._claim_id(index, draft, ids):
                self._claim_keys(index, draft, owner)
        exact = {form: self.drafts[key.index] for form, key in owner.items()}
        return [
            Term(
                id=self.term_id(draft.term),
                term=draft.term,
                definition=draft.definition,
                category=draft.category,
                en=draft.en,
                aliases=tuple(dict.fromkeys(alias for alias, _ in draft.aliases)),
                related=tuple(self._related(draft, exact)),
                links=tuple(draft.links),
                source=f"{draft.file}:{draft.line}",
                **draft.extra,
                senses=tuple(
                    Sense(
                        sense.definition,
                        sense.category,
                        tuple(self._related(draft, exact, sense.related)),
                        **sense.extra,
                    )
                    for sense in draft.senses
                ),
            )
            for draft in self.drafts
        ]

    def _claim_id(self, index: int, draft: _Draft, ids: dict[str, int]) -> bool:
        """The term's id (its name's slug), unless it has none or another term has it already."""
        term_id = self.term_id(draft.term)
        if not term_id:
            self._add(draft.file, draft.line, "name_without_letters", term=draft.term)
            return False
        if term_id in ids and ids[term_id] != index:
            first = self.drafts[ids[term_id]]
            place = f"{first.file}:{first.line}"
            self._add(draft.file, draft.line, "term_repeated", term=draft.term, first=first.term, place=place)
            return False
        ids[term_id] = index
        return True

    def _claim_keys(self, index: int, draft: _Draft, owner: dict[str, _Key]) -> None:
        """The name, English name and aliases a term is found by: each must be its own after normalisation."""
        for field_name, key, key_line in (
            ("term", draft.term, draft.line),
            ("en", draft.en, draft.en_line),
            *(("aliases", alias, alias_line) for alias, alias_line in draft.aliases),
        ):
            if key is None:
                continue
            norm = self.normalized(key)
            if not norm:
                self._add(draft.file, key_line, "spelling_without_letters", label=_LABELS[field_name], spelling=key)
                continue
            mine = _Key(index, field_name, key, draft.file, key_line)
            for form in {norm, compact(norm)}:
                seen = owner.get(form)
                if seen is None:
                    owner[form] = mine
                elif seen.index != index:
                    self._collision(seen, mine)
                    break

    def _related(
        self, draft: _Draft, exact: dict[str, _Draft], named: list[tuple[str, int]] | None = None
    ) -> list[str]:
        """The ids of the terms a term's `related` (or one of its senses', `named`) names (each must exist, and not
        be the term itself)."""
        related: list[str] = []
        for name, line in draft.related if named is None else named:
            target = exact.get(self.normalized(name))
            if target is None:
                hint = difflib.get_close_matches(name, [d.term for d in self.drafts], n=1)
                fix = said("did_you_mean", hint=hint[0]) if hint else said("write_an_existing_term")
                self._add(draft.file, line, "related_unknown", name=name, fix=fix)
            elif target is draft:
                self._add(draft.file, line, "related_to_itself", term=draft.term)
            elif self.term_id(target.term) not in related:
                related.append(self.term_id(target.term))
        return related


# The YAML parser's commonest messages, in the editors' language; others are quoted as the parser says them.
_YAML_MESSAGES = (
    ("mapping values are not allowed", "yaml_colon_here"),
    ("found character '\\t' that cannot start any token", "yaml_tab"),  # pure Python's
    ("found a tab character", "yaml_tab"),  # libyaml's, where a tab breaks the indentation
    ("could not find expected ':'", "yaml_colon_missing"),
    ("expected <block end>, but found", "yaml_indentation"),
    ("found undefined alias", "yaml_alias"),
    ("found unexpected end of stream", "yaml_unexpected_end"),
    ("found unknown escape character", "yaml_escape"),
    ("did not find expected key", "yaml_key_expected"),
    ("did not find expected node content", "yaml_value_missing"),
    ("did not find expected ',' or ']'", "yaml_bracket"),
    ("did not find expected ',' or '}'", "yaml_brace"),
    ("found duplicate anchor", "yaml_anchor"),
)
# A key alone at the start of its line, where YAML found a «:» it could not take: the key is indented deeper than
# the keys above it, so YAML read it as more of the value on the line above.
_OVER_INDENTED_KEY = re.compile(r"\s+(?:-\s+)?(?P<key>[A-Za-z_][\w-]*)\s*")


def _yaml_problem(parser_says: str, before: str = "", at: str = "", context: str = "") -> Sentence:
    """The YAML parser's message for the editor. `before` is the problem's line up to where the parser stopped: it
    tells an over-indented key from a «:» inside a value; `at` is the character the parser stopped at; `context` is
    what the parser says before its message (a repeated anchor is named there, its message is "second occurrence")."""
    over_indented = _OVER_INDENTED_KEY.fullmatch(before)
    if parser_says.startswith("mapping values are not allowed") and over_indented:
        return said("yaml_malformed", what=said("yaml_key_over_indented", key=over_indented["key"]))
    if at == "\t" and parser_says.startswith("found character that cannot start any token"):  # libyaml's
        return said("yaml_malformed", what=said("yaml_tab"))
    for start, code in _YAML_MESSAGES:
        if parser_says.startswith(start) or context.startswith(start):
            return said("yaml_malformed", what=said(code))
    return said("yaml_parser_says", parser_says=parser_says)


def _invisible(value: str) -> Sentence | None:
    """The first character nobody sees in `value` that a term file may not hold, and where it is."""
    found = first_refused(value)
    return None if found is None else said("invisible_at", char=kind(found[1]), position=found[0] + 1)


def text_problem(key: str, value: str, limit: int = FIELD_LIMIT) -> Sentence | None:
    """What is wrong with a text value of `key` for a term file (empty, past Discord's `limit`, an invisible
    character), or None: the loader's rule, for whoever writes one (the command line's import)."""
    if not value:
        return said("value_empty", key=key)
    if len(value) > limit:
        return said("value_too_long", key=key, length=len(value), limit=limit)
    hidden = _invisible(value)  # a definition's line breaks and tabs are not among the refused characters
    return None if hidden is None else said("value_invisible", key=key, hidden=hidden)


def language_problem(value: str) -> Sentence | None:
    """What is wrong with a glossary's `language` (not a BCP 47 tag), or None: the loader's rule."""
    return text_problem("language", value, TITLE_LIMIT) or (
        None if _LANGUAGE_TAG.fullmatch(value) else said("language_not_a_tag", value=value)
    )


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


# A well-formed language tag of BCP 47 (RFC 5646, section 2.1), as xml:lang in TBX and the language of SKOS
# labels need it: language, script, region, variants, extensions, private use (or private use alone).
_ALNUM = "[A-Za-z0-9]"
_LANGUAGE_TAG = re.compile(
    "(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})"  # language, with up to three extended subtags
    "(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"  # script, region
    f"(?:-(?:{_ALNUM}{{5,8}}|[0-9]{_ALNUM}{{3}}))*"  # variants
    f"(?:-[0-9A-WY-Za-wy-z](?:-{_ALNUM}{{2,8}})+)*"  # extensions
    f"(?:-[xX](?:-{_ALNUM}{{1,8}})+)?"  # private use
    f"|[xX](?:-{_ALNUM}{{1,8}})+"
    "|[iI]-(?:ami|bnn|default|enochian|hak|klingon|lux|mingo|navajo|pwn|tao|tay|tsu)"  # grandfathered
    "|(?:en-GB-oed|sgn-(?:BE-FR|BE-NL|CH-DE)|art-lojban|cel-gaulish|no-(?:bok|nyn)|zh-(?:guoyu|hakka|min|min-nan|xiang))"
)

# RFC 3986 (section 3 and appendix A) for the two web schemes: an authority with a host, then path, query and
# fragment, each made of its own characters or %XX. Anything else (spaces, quotes, <>, \, {}, |, ^, `, letters
# outside ASCII) must be percent-encoded: RDF, XML and Discord's markdown all take a link at its word.
_PCT = "%[0-9A-Fa-f]{2}"
_UNRESERVED_SUB = "A-Za-z0-9\\-._~!$&'()*+,;="
_H16, _OCTET = "[0-9A-Fa-f]{1,4}", "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = f"{_OCTET}(?:\\.{_OCTET}){{3}}"
_LS32 = f"(?:{_H16}:{_H16}|{_IPV4})"


def _ipv6() -> str:
    """IPv6address of RFC 3986: up to 8 groups, at most one "::" standing for the missing ones."""
    forms = [f"(?:{_H16}:){{6}}{_LS32}", f"::(?:{_H16}:){{5}}{_LS32}"]
    for before, after in ((0, 4), (1, 3), (2, 2), (3, 1)):
        head = f"(?:(?:{_H16}:){{0,{before}}}{_H16})?"
        forms.append(f"{head}::(?:{_H16}:){{{after}}}{_LS32}")
    forms += [f"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}", f"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}"]
    forms.append(f"(?:(?:{_H16}:){{0,6}}{_H16})?::")
    return "|".join(forms)


_HOST = f"\\[(?:{_ipv6()}|v[0-9A-Fa-f]+\\.[{_UNRESERVED_SUB}:]+)\\]|(?:[{_UNRESERVED_SUB}]|{_PCT})+"
_PCHARS = f"(?:[{_UNRESERVED_SUB}:@]|{_PCT})"
_WEB_URL = re.compile(
    f"[hH][tT][tT][pP][sS]?://(?:(?:[{_UNRESERVED_SUB}:]|{_PCT})*@)?(?:{_HOST})(?::[0-9]*)?"
    f"(?:/{_PCHARS}*)*(?:\\?(?:{_PCHARS}|[/?])*)?(?:#(?:{_PCHARS}|[/?])*)?"
)
_URL_CHARACTERS = re.compile("[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%]*")


def _url_fix(url: str) -> Sentence:
    """What to do about a link that is not a web address, in the words of what is wrong with it."""
    if any(ch.isspace() for ch in url):
        return said("url_spaces")
    stray = url[_URL_CHARACTERS.match(url).end() :][:1]
    if stray:  # a character RFC 3986 has no place for: only its percent-encoding may stand in a URL
        return said("url_character", char=stray, encoded=quote(stray, safe=""))
    try:
        parts = urlsplit(url)
    except ValueError:
        return said("url_brackets")
    if parts.scheme not in ("http", "https"):
        return said("url_scheme")
    if not parts.hostname:
        return said("url_no_domain")
    if re.search("%(?![0-9A-Fa-f]{2})", url):
        return said("url_percent")
    misplaced = url[_WEB_URL.match(url).end() :][:1] if _WEB_URL.match(url) else ""
    if misplaced in ("[", "]", "#", "@"):
        return said("url_misplaced", char=misplaced, encoded=quote(misplaced, safe=""))
    return said("url_host_or_port")


def _is_web_url(url: str) -> bool:
    """An http(s) URL with a host, every character where RFC 3986 allows it (anything else percent-encoded)."""
    return _WEB_URL.fullmatch(url) is not None
