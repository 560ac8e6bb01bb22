"""Term files (YAML) → an immutable Glossary, or one GlossaryError listing every problem with file:line."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import PurePath
from urllib.parse import quote, urlsplit

import yaml

from bot.core import card
from bot.core.card import EMBED_TOTAL
from bot.core.errors import GlossaryError, Problem
from bot.core.model import Glossary, Link, Source, Term
from bot.core.normalize import compact, normalize, slug

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
_EXTRA_KEYS = ("note", "example", "sources", "tags", "source_id", "definition_language", "deprecated")
_SOURCE_KEYS = {"text", "url"}
_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{kind}" for kind in ("str", "seq", "map"))
_META_KEYS = {"title", "subtitle", "language"}
_FILE_KEYS = {"category", "terms"}
_TERM_KEYS = {"term", "definition", "en", "aliases", "related", "links", *_EXTRA_KEYS}
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

    def node(item: object) -> yaml.Node:
        if isinstance(item, str):
            return yaml.ScalarNode(_STR_TAG, item, mark, mark, '"' if NOT_TEXT.fullmatch(item) else None)
        if isinstance(item, dict):
            return yaml.MappingNode(_MAP_TAG, [(node(str(k)), node(v)) for k, v in item.items()], mark, mark)
        if isinstance(item, list | tuple):
            return yaml.SequenceNode(_SEQ_TAG, [node(v) for v in item], mark, mark)
        return yaml.ScalarNode(_STR_TAG, yaml.safe_dump(item).removesuffix("\n...\n").strip(), mark, mark)

    return node(value)


_LABELS = {"term": "el nombre", "en": "el nombre en inglés", "aliases": "el alias"}
_LABELS_EN = {"term": "the name", "en": "the English name", "aliases": "the alias"}


@dataclass(frozen=True, slots=True)
class _Key:
    """One spelling of a term, where it is written."""

    index: int  # the draft
    field: str  # "term", "en" or "aliases"
    text: str
    file: str
    line: int


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


class _Builder:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.meta: dict[str, str] = {}
        self.meta_seen = False
        self.drafts: list[_Draft] = []

    # -- entry ------------------------------------------------------------------------------------
    def build(self, files: list[tuple[str, bytes]]) -> Glossary:
        for name, data in files:
            root = self._parse(name, data)
            if root is None:
                continue
            if PurePath(name).name == META_FILE:
                self._meta(name, root)
            else:
                self._category_file(name, root)
        return self.finish(files)

    def finish(self, files: list[tuple[str, object]]) -> Glossary:
        """The checks across files, once every file is read; the Glossary, or every problem found."""
        if not self.meta_seen:
            folder = str(PurePath(files[0][0]).parent) if files else ""
            where = str(PurePath(folder) / META_FILE) if folder not in ("", ".") else META_FILE
            self._add(
                where,
                0,
                f"falta {META_FILE} en esta carpeta: créalo con title, subtitle y language",
                f"{META_FILE} is missing in this folder: create it with title, subtitle and language",
            )
        if not self.drafts and not self.problems:
            self._add(
                files[0][0] if files else "glossary.yaml",
                0,
                "no hay ningún término: añade un archivo de categoría",
                "there are no terms: add a category file",
            )
        terms = self._link_terms()
        self._check_cards(terms)
        if self.problems:
            raise GlossaryError(self.problems)
        return Glossary(
            title=self.meta.get("title", ""),
            subtitle=self.meta.get("subtitle", ""),
            language=self.meta.get("language", "es"),
            terms=tuple(terms),
        )

    def _check_cards(self, terms: list[Term]) -> None:
        """Each field within its limit is not enough: Discord refuses a card over 6,000 characters in total."""
        footer = card.footer(self.meta.get("title", ""), self.meta.get("subtitle", ""))
        names = {term.id: term.term for term in terms}
        for term in terms:
            size = card.card_text(term, [names.get(r, r) for r in term.related], footer).length()
            if size > EMBED_TOTAL:
                file, _, line = term.source.rpartition(":")
                self._add(
                    file,
                    int(line),
                    f"la ficha de '{term.term}' suma {size} caracteres con sus rótulos y Discord admite {EMBED_TOTAL} "
                    "en total: acorta la definición, los alias o los enlaces",
                    f"the card of '{term.term}' comes to {size} characters with its labels, and Discord allows "
                    f"{EMBED_TOTAL} in total: shorten the definition, the aliases or the links",
                )

    def _collision(self, first: _Key, second: _Key) -> None:
        """Two spellings of different terms that are the same once normalised. The one reported is the one to
        change: an alias or English name rather than a term's own name, else the later one; the other is named
        with its place."""
        culprit, other = (first, second) if first.field != "term" and second.field == "term" else (second, first)
        owner, taken = self.drafts[culprit.index], self.drafts[other.index]
        self._add(
            culprit.file,
            culprit.line,
            f"{_LABELS[culprit.field]} '{culprit.text}' ({culprit.field}) de '{owner.term}' coincide con "
            f"{_LABELS[other.field]} '{other.text}' ({other.field}) de '{taken.term}' ({other.file}:{other.line}): "
            "cada nombre, nombre en inglés o alias debe ser único; quita o cambia uno de los dos",
            f"{_LABELS_EN[culprit.field]} '{culprit.text}' ({culprit.field}) of '{owner.term}' is the same as "
            f"{_LABELS_EN[other.field]} '{other.text}' ({other.field}) of '{taken.term}' ({other.file}:{other.line})"
            ": every name, English name and alias must be unique; remove or change one of them",
        )

    def _add(self, file: str, line: int, message: str, english: str) -> None:
        """A problem, in Spanish and in English (the command line speaks its user's language)."""
        self.problems.append(Problem(file, line, message, english))

    def _parse(self, name: str, data: bytes) -> yaml.Node | None:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            self._add(
                name,
                data.count(b"\n", 0, exc.start) + 1,
                "no es texto UTF-8: guarda el archivo como UTF-8",
                "the file is not UTF-8 text: save it as UTF-8",
            )
            return None
        try:
            root = yaml.compose(text, Loader=_YamlLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else 0
            lines = text.splitlines()
            before = lines[mark.line][: mark.column] if mark and mark.line < len(lines) else ""
            self._add(name, line, *_yaml_problem(str(exc.problem or exc.context), before))
            return None
        except yaml.reader.ReaderError as exc:  # a character YAML does not allow at all (control characters)
            line = text.count("\n", 0, max(exc.position, 0)) + 1
            what = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
            self._add(
                name,
                line,
                f"hay un carácter invisible ({what}) que YAML no admite: bórralo",
                f"there is an invisible character ({what}) that YAML does not allow: delete it",
            )
            return None
        except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
            self._add(
                name,
                0,
                f"YAML ilegible ({type(exc).__name__}): revisa el archivo",
                f"unreadable YAML ({type(exc).__name__}): check the file",
            )
            return None
        if root is None:
            self._add(
                name,
                1,
                "el archivo está vacío: añade 'category' y 'terms', o bórralo",
                "the file is empty: add 'category' and 'terms', or delete it",
            )
        return root

    # -- typed accessors ----------------------------------------------------------------------------
    def _mapping(
        self, name: str, node: yaml.Node, allowed: set[str], what: tuple[str, str]
    ) -> dict[str, yaml.Node] | None:
        what_es, what_en = what
        if not isinstance(node, yaml.MappingNode):
            self._add(
                name,
                _line(node),
                f"{what_es} debe ser un mapa de claves 'clave: valor'",
                f"{what_en} must be a mapping of 'key: value' pairs",
            )
            return None
        out: dict[str, yaml.Node] = {}
        for key_node, value in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._add(
                    name,
                    _line(key_node),
                    f"clave no válida en {what_es}: usa texto simple",
                    f"invalid key in {what_en}: use plain text",
                )
                continue
            key = str(key_node.value)
            if key not in allowed:
                hint = difflib.get_close_matches(key, sorted(allowed), n=1)
                valid = ", ".join(sorted(allowed))
                fix = f"¿querías decir '{hint[0]}'?" if hint else f"las claves válidas son {valid}"
                fix_en = f"did you mean '{hint[0]}'?" if hint else f"the valid keys are {valid}"
                self._add(
                    name,
                    _line(key_node),
                    f"clave desconocida '{key}' en {what_es}: {fix}",
                    f"unknown key '{key}' in {what_en}: {fix_en}",
                )
            elif key in out:
                self._add(
                    name,
                    _line(key_node),
                    f"clave '{key}' repetida en {what_es}: deja solo una",
                    f"the key '{key}' appears more than once in {what_en}: keep only one",
                )
            else:
                out[key] = value
        return out

    def _text(self, name: str, node: yaml.Node | None, key: str, *, limit: int) -> str | None:
        """The text at `node`, or None (absent, or reported as a problem). Missing keys are the caller's report."""
        if node is None:
            return None
        if node.tag not in _PLAIN_TAGS:  # !!python/object, !custom: never constructed, and named as what they are
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self._add(
                name,
                _line(node),
                f"'{key}' lleva la etiqueta YAML '{tag}', que no se admite: quítala",
                f"'{key}' has the YAML tag '{tag}', which is not allowed: remove it",
            )
            return None
        if not isinstance(node, yaml.ScalarNode) or (not node.style and NOT_TEXT.fullmatch(node.value)):
            scalar = isinstance(node, yaml.ScalarNode)
            kind = f"'{node.value}' (no es texto)" if scalar else "una lista o un mapa"
            kind_en = (
                f"'{node.value}', which YAML reads as a number, yes/no or null" if scalar else "a list or a mapping"
            )
            self._add(
                name,
                _line(node),
                f"'{key}' debe ser texto, no {kind}: ponlo entre comillas si hace falta",
                f"'{key}' must be text, not {kind_en}: put it in quotes if need be",
            )
            return None
        value = " ".join(str(node.value).split()) if key != "definition" else str(node.value).strip()
        return value if self._fits(name, node, key, value, limit) else None

    def _fits(self, name: str, node: yaml.Node, key: str, value: str, limit: int) -> bool:
        """A text value that is not empty, fits Discord's limit and has no invisible character; else reported."""
        if not value:
            self._add(
                name,
                _line(node),
                f"'{key}' está vacío: escribe un valor o quita la clave",
                f"'{key}' is empty: write a value or remove the key",
            )
            return False
        if len(value) > limit:
            self._add(
                name,
                _line(node),
                f"'{key}' tiene {len(value)} caracteres y Discord admite {limit}: acórtalo",
                f"'{key}' has {len(value)} characters and Discord allows {limit}: shorten it",
            )
            return False
        hidden = _invisible(value.replace("\n", " ").replace("\t", " ") if key == "definition" else value)
        if hidden is not None:
            self._add(
                name,
                _line(node),
                f"'{key}' contiene un carácter invisible ({hidden}): bórralo",
                f"'{key}' contains an invisible character "
                f"({hidden.replace('en la posición', 'at position')}): delete it",
            )
            return False
        return True

    def _text_list(self, name: str, node: yaml.Node | None, key: str) -> list[tuple[str, int]]:
        if node is None:
            return []
        if not isinstance(node, yaml.SequenceNode):
            self._add(
                name,
                _line(node),
                f"'{key}' debe ser una lista, p. ej. [{key}1, {key}2]",
                f"'{key}' must be a list, e.g. [{key}1, {key}2]",
            )
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
        fields = self._mapping(name, root, _META_KEYS, ("glossary.yaml", "glossary.yaml"))
        if fields is None:
            return
        for key in ("title", "subtitle", "language"):
            value = self._text(name, fields.get(key), key, limit=TITLE_LIMIT)
            if key == "language" and value is not None and not _LANGUAGE_TAG.fullmatch(value):
                self._add(
                    name,
                    _line(fields[key]),
                    f"'language' es '{value}' y debe ser una etiqueta de idioma (BCP 47), p. ej. es o es-ES",
                    f"'language' is '{value}' and must be a language tag (BCP 47), e.g. es or es-ES",
                )
            elif value is not None:
                self.meta[key] = value
        if "title" not in fields:
            self._add(
                name,
                _line(root),
                "falta 'title': el nombre del glosario, p. ej. Glosario IA",
                "'title' is missing: the glossary's name, e.g. Glosario IA",
            )

    def _category_file(self, name: str, root: yaml.Node) -> None:
        fields = self._mapping(name, root, _FILE_KEYS, ("el archivo de categoría", "the category file"))
        if fields is None:
            return
        category = self._text(name, fields.get("category"), "category", limit=FIELD_LIMIT)
        if "category" not in fields:
            self._add(
                name,
                _line(root),
                "falta 'category': el nombre de la categoría de estos términos",
                "'category' is missing: the name of these terms' category",
            )
        terms = fields.get("terms")
        if terms is None:
            self._add(
                name,
                _line(root),
                "falta 'terms': la lista de términos de esta categoría",
                "'terms' is missing: the list of this category's terms",
            )
            return
        if not isinstance(terms, yaml.SequenceNode):
            self._add(
                name,
                _line(terms),
                "'terms' debe ser una lista de términos (cada uno empieza con '- term:')",
                "'terms' must be a list of terms (each starts with '- term:')",
            )
            return
        for node in terms.value:
            self._term(name, node, category or "")

    def _term(self, name: str, node: yaml.Node, category: str) -> None:
        fields = self._mapping(name, node, _TERM_KEYS, ("el término", "the term"))
        if fields is None:
            return
        line = _line(node)
        term = self._text(name, fields.get("term"), "term", limit=TITLE_LIMIT)
        definition = self._text(name, fields.get("definition"), "definition", limit=DESCRIPTION_LIMIT)
        self._required(name, line, fields)
        en = self._text(name, fields.get("en"), "en", limit=FIELD_LIMIT)
        aliases = self._text_list(name, fields.get("aliases"), "aliases")
        related = self._text_list(name, fields.get("related"), "related")
        links = self._links(name, fields.get("links"))
        if len(", ".join(a for a, _ in aliases)) > FIELD_LIMIT:
            self._add(
                name,
                _line(fields["aliases"]),
                f"los alias juntos superan {FIELD_LIMIT} caracteres: quita alguno",
                f"the aliases together are over {FIELD_LIMIT} characters: remove some",
            )
        if term is None:
            return
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
                extra=self._extra(name, fields),
            )
        )

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
            self._add(
                name,
                _line(fields["definition_language"]),
                f"'definition_language' es '{language}' y debe ser una etiqueta de idioma (BCP 47), p. ej. en",
                f"'definition_language' is '{language}' and must be a language tag (BCP 47), e.g. en",
            )
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
        return extra

    def _joined_fits(self, name: str, node: yaml.Node, key: str, joined: str) -> None:
        if len(joined) > FIELD_LIMIT:
            self._add(
                name,
                _line(node),
                f"'{key}' junto supera {FIELD_LIMIT} caracteres: quita alguno",
                f"'{key}' together is over {FIELD_LIMIT} characters: remove some",
            )

    def _listed(self, name: str, node: yaml.Node | None, key: str, shape: str) -> list[yaml.Node]:
        """The items of a list field (`links`, `sources`); none, with the problem said, when it is not a list."""
        if node is None:
            return []
        if not isinstance(node, yaml.SequenceNode):
            self._add(name, _line(node), f"'{key}' debe ser una lista de {shape}", f"'{key}' must be a list of {shape}")
            return []
        return node.value

    def _not_a_web_url(self, name: str, node: yaml.Node, url: str) -> bool:
        """Whether `url` is not an http(s) address RFC 3986 accepts (the problem is then said, with the fix)."""
        if _is_web_url(url):
            return False
        fix, fix_en = _url_fix(url)
        self._add(
            name,
            _line(node),
            f"'{url}' no es una URL http(s) válida: {fix}",
            f"'{url}' is not a valid http(s) URL: {fix_en}",
        )
        return True

    def _sources(self, name: str, node: yaml.Node | None) -> list[Source]:
        """`sources`: a list of {text, url}; the url is optional and, when given, a web address."""
        sources = []
        for item in self._listed(name, node, "sources", "{text: ..., url: https://...}"):
            fields = self._mapping(name, item, _SOURCE_KEYS, ("la fuente", "the source"))
            if fields is None:
                continue
            text = self._text(name, fields.get("text"), "text", limit=FIELD_LIMIT)
            url = self._text(name, fields.get("url"), "url", limit=512) if "url" in fields else ""
            if "text" not in fields:
                self._add(name, _line(item), "cada fuente necesita 'text'", "every source needs a 'text'")
                continue
            if url and self._not_a_web_url(name, fields["url"], url):
                continue
            if text is not None and url is not None:
                sources.append(Source(text, url))
        self._joined_fits(name, node, "sources", "\n".join(f"{s.text} {s.url}" for s in sources))
        return sources

    def _required(self, name: str, line: int, fields: dict[str, yaml.Node]) -> None:
        """A term needs its name and its definition: one problem names whichever are missing."""
        missing = [key for key in ("term", "definition") if key not in fields]
        if len(missing) == 2:
            self._add(
                name,
                line,
                "faltan el nombre ('term') y la definición ('definition') de este término: son obligatorios",
                "the name ('term') and the definition ('definition') of this term are missing: both are required",
            )
        elif missing:
            what = {"term": "the name", "definition": "the definition"}[missing[0]]
            self._add(
                name,
                line,
                f"falta '{missing[0]}' en este término: es obligatorio",
                f"{what} ('{missing[0]}') of this term is missing: it is required",
            )

    def _links(self, name: str, node: yaml.Node | None) -> list[Link]:
        links = []
        for item in self._listed(name, node, "links", "{title: ..., url: https://...}"):
            fields = self._mapping(name, item, _LINK_KEYS, ("el enlace", "the link"))
            if fields is None:
                continue
            title = self._text(name, fields.get("title"), "title", limit=TITLE_LIMIT)
            url = self._text(name, fields.get("url"), "url", limit=512)
            if "title" not in fields or "url" not in fields:
                self._add(
                    name, _line(item), "cada enlace necesita 'title' y 'url'", "every link needs a 'title' and a 'url'"
                )
                continue
            if url is not None and self._not_a_web_url(name, fields["url"], url):
                continue
            if title and url:
                links.append(Link(title, url))
        if len("\n".join(f"[{link.title}]({link.url})" for link in links)) > FIELD_LIMIT:
            self._add(
                name,
                _line(node),
                f"los enlaces juntos superan {FIELD_LIMIT} caracteres: quita alguno",
                f"the links together are over {FIELD_LIMIT} characters: remove some",
            )
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
                id=slug(draft.term),
                term=draft.term,
                definition=draft.definition,
                category=draft.category,
                en=draft.en,
                aliases=tuple(dict.fromkeys(alias for alias, _ in draft.aliases)),
                related=tuple(self._related(draft, exact)),
                links=tuple(draft.links),
                source=f"{draft.file}:{draft.line}",
                **draft.extra,
            )
            for draft in self.drafts
        ]

    def _claim_id(self, index: int, draft: _Draft, ids: dict[str, int]) -> bool:
        """The term's id (its name's slug), unless it has none or another term has it already."""
        term_id = slug(draft.term)
        if not term_id:
            self._add(
                draft.file,
                draft.line,
                f"el nombre '{draft.term}' no tiene letras ni números",
                f"the name '{draft.term}' has no letters or digits",
            )
            return False
        if term_id in ids and ids[term_id] != index:
            first = self.drafts[ids[term_id]]
            self._add(
                draft.file,
                draft.line,
                f"'{draft.term}' repite el término '{first.term}' "
                f"({first.file}:{first.line}): fusiónalos o cambia el nombre",
                f"'{draft.term}' repeats the term '{first.term}' ({first.file}:{first.line}): merge them or rename one",
            )
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
            norm = normalize(key)
            if not norm:
                self._add(
                    draft.file,
                    key_line,
                    f"{_LABELS[field_name]} '{key}' no tiene letras ni números: quítalo",
                    f"{_LABELS_EN[field_name]} '{key}' has no letters or digits: remove it",
                )
                continue
            mine = _Key(index, field_name, key, draft.file, key_line)
            for form in {norm, compact(norm)}:
                seen = owner.get(form)
                if seen is None:
                    owner[form] = mine
                elif seen.index != index:
                    self._collision(seen, mine)
                    break

    def _related(self, draft: _Draft, exact: dict[str, _Draft]) -> list[str]:
        """The ids of the terms a term's `related` names (each must exist, and not be the term itself)."""
        related: list[str] = []
        for name, line in draft.related:
            target = exact.get(normalize(name))
            if target is None:
                hint = difflib.get_close_matches(name, [d.term for d in self.drafts], n=1)
                fix = f"¿querías decir '{hint[0]}'?" if hint else "escribe el nombre de un término existente"
                fix_en = f"did you mean '{hint[0]}'?" if hint else "write the name of an existing term"
                self._add(
                    draft.file,
                    line,
                    f"'related' nombra '{name}', que no es ningún término: {fix}",
                    f"'related' names '{name}', which is not a term: {fix_en}",
                )
            elif target is draft:
                self._add(
                    draft.file,
                    line,
                    f"'{draft.term}' no puede estar relacionado consigo mismo: quítalo",
                    f"'{draft.term}' cannot be related to itself: remove it",
                )
            elif slug(target.term) not in related:
                related.append(slug(target.term))
        return related


# The YAML parser's commonest messages, in the editors' language; others are quoted as the parser says them.
_YAML_MESSAGES = (
    (
        "mapping values are not allowed",
        "aquí no puede ir «:» (¿falta un espacio tras los dos puntos, o comillas?)",
        "a «:» cannot go here (is a space missing after the colon, or quotes around the text?)",
    ),
    (
        "found character '\\t' that cannot start any token",
        "hay un tabulador: sangra solo con espacios",
        "there is a tab: indent with spaces only",
    ),
    ("could not find expected ':'", "falta «:» después de una clave", "a «:» is missing after a key"),
    (
        "expected <block end>, but found",
        "la sangría no cuadra con la de las líneas de arriba",
        "the indentation does not line up with the lines above",
    ),
    (
        "found undefined alias",
        "hay un «*» que YAML lee como alias: pon ese texto entre comillas",
        "YAML reads a «*» as an alias: put that text in quotes",
    ),
    (
        "found unexpected end of stream",
        "el archivo se acaba a mitad de un valor: ¿falta cerrar comillas?",
        "the file ends in the middle of a value: is a closing quote missing?",
    ),
    (
        "found unknown escape character",
        "hay una «\\» desconocida entre comillas dobles: usa comillas simples",
        "an unknown «\\» escape inside double quotes: use single quotes",
    ),
    (
        "did not find expected key",
        "esperaba otra clave aquí: revisa la sangría y los guiones",
        "another key was expected here: check the indentation and the dashes",
    ),
    ("did not find expected node content", "falta un valor aquí", "a value is missing here"),
    (
        "did not find expected ',' or ']'",
        "una lista entre corchetes no está bien cerrada: falta «,» o «]»",
        "a list in brackets is not closed properly: a «,» or «]» is missing",
    ),
    (
        "did not find expected ',' or '}'",
        "un mapa entre llaves no está bien cerrado: falta «,» o «}»",
        "a mapping in braces is not closed properly: a «,» or «}» is missing",
    ),
    (
        "found duplicate anchor",
        "un ancla «&» repetida: pon ese texto entre comillas",
        "a repeated «&» anchor: put that text in quotes",
    ),
)
# A key alone at the start of its line, where YAML found a «:» it could not take: the key is indented deeper than
# the keys above it, so YAML read it as more of the value on the line above.
_OVER_INDENTED_KEY = re.compile(r"\s+(?:-\s+)?(?P<key>[A-Za-z_][\w-]*)\s*")


def _yaml_problem(parser_says: str, before: str = "") -> tuple[str, str]:
    """The YAML parser's message for the editor: (Spanish, English). `before` is the problem's line up to where
    the parser stopped: it tells an over-indented key from a «:» inside a value."""
    over_indented = _OVER_INDENTED_KEY.fullmatch(before)
    if parser_says.startswith("mapping values are not allowed") and over_indented:
        key = over_indented["key"]
        return (
            f"YAML mal formado: la clave '{key}' tiene más sangría que las de arriba, y YAML la lee como parte del "
            "valor anterior: alinéala con las otras claves",
            f"malformed YAML: the key '{key}' is indented deeper than the keys above it, so YAML reads it as part of "
            "the value before: line it up with the other keys",
        )
    for start, spanish, english in _YAML_MESSAGES:
        if parser_says.startswith(start):
            return f"YAML mal formado: {spanish}", f"malformed YAML: {english}"
    return (
        f"YAML mal formado (el analizador dice: «{parser_says}»): revisa la sangría y las comillas",
        f"malformed YAML (the parser says: “{parser_says}”): check the indentation and the quotes",
    )


# Characters nobody sees in a name or a definition: zero-width, bidirectional overrides, control characters; and
# U+FFFE, U+FFFF, which XML cannot carry at all (the TBX export would be unreadable).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufffe\uffff]"
)


def _invisible(value: str) -> str | None:
    found = _INVISIBLE.search(value)
    if found is None:
        return None
    char = found.group()
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}{' ' + name if name else ''}, en la posición {found.start() + 1}"


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


def _url_fix(url: str) -> tuple[str, str]:
    """What to do about a link that is not a web address, in the words of what is wrong with it (es, en)."""
    if any(ch.isspace() for ch in url):
        return "quita los espacios (o escríbelos como %20)", "remove the spaces (or write them as %20)"
    stray = url[_URL_CHARACTERS.match(url).end() :][:1]
    if stray:  # a character RFC 3986 has no place for: only its percent-encoding may stand in a URL
        code = quote(stray, safe="")
        return (
            f"el carácter «{stray}» no puede ir tal cual en una URL: escríbelo como {code}",
            f"the character '{stray}' cannot stand as such in a URL: write it as {code}",
        )
    try:
        parts = urlsplit(url)
    except ValueError:
        return "revisa los corchetes y los dos puntos", "check the brackets and the colons"
    if parts.scheme not in ("http", "https"):
        return "debe empezar por https:// (o http://)", "it must start with https:// (or http://)"
    if not parts.hostname:
        return (
            "le falta el dominio, p. ej. https://ejemplo.org/pagina",
            "the domain is missing, e.g. https://example.org/page",
        )
    if re.search("%(?![0-9A-Fa-f]{2})", url):
        return (
            "cada «%» va seguido de dos cifras hexadecimales, como en %20: un «%» suelto se escribe %25",
            "every '%' is followed by two hexadecimal digits, as in %20: a '%' on its own is written %25",
        )
    misplaced = url[_WEB_URL.match(url).end() :][:1] if _WEB_URL.match(url) else ""
    if misplaced in ("[", "]", "#", "@"):
        code = quote(misplaced, safe="")
        return (
            f"«{misplaced}» no puede ir en ese lugar de una URL: escríbelo como {code}",
            f"'{misplaced}' cannot stand at that place in a URL: write it as {code}",
        )
    return (
        "revisa el dominio y el puerto, p. ej. https://ejemplo.org:8080/pagina",
        "check the domain and the port, e.g. https://example.org:8080/page",
    )


def _is_web_url(url: str) -> bool:
    """An http(s) URL with a host, every character where RFC 3986 allows it (anything else percent-encoded)."""
    return _WEB_URL.fullmatch(url) is not None
