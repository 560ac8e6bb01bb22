"""The glossary in other people's formats, both ways: TBX-Basic (ISO 30042, tbx_out.py), SKOS (W3C: Turtle, RDF/XML or
JSON-LD, skos_out.py), CSV and JSON out; the same in (tbx_in, skos_in, csv_in and JSON here), as
term files in our format. RDF through pyoxigraph, imported only by these commands."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from bot.app.interchange.csv_in import CSV_COLUMNS
from bot.app.interchange.entries import LIST_SEPARATOR, Entry, Imported, Problem
from bot.app.interchange.imports import citation, collection_paused
from bot.app.interchange.skos_out import DEFAULT_BASE, to_skos
from bot.app.interchange.tbx_out import XML_LANG, to_tbx
from bot.app.spreadsheets import spreadsheet_safe
from bot.core.loader import META_FILE
from bot.core.model import Glossary, Layered, Term
from bot.core.normalize import slug
from bot.core.problems import Joined, Said, Sentence, said
from bot.core.server_terms import term_file

FORMATS = ("tbx", "skos", "skos-jsonld", "skos-rdfxml", "csv", "json")
SKOS_FORMATS = {"skos": "turtle", "skos-jsonld": "json-ld", "skos-rdfxml": "rdf-xml"}
__all__ = [
    "DEFAULT_BASE",
    "FORMATS",
    "XML_LANG",
    "export",
    "format_of",
    "read",
    "to_csv",
    "to_json",
    "to_skos",
    "to_tbx",
]


def _joined(values: Iterable[str]) -> str:
    """Several values in one CSV cell, separated by "|"; `_split` reads them back."""
    return LIST_SEPARATOR.join(
        value.replace("\\", "\\\\").replace(LIST_SEPARATOR, "\\" + LIST_SEPARATOR) for value in values
    )


def _related_names(term: Term, glossary: Glossary | Layered) -> list[str]:
    return [named.term for i in term.related if (named := glossary.get(i)) is not None]


# -- out --------------------------------------------------------------------------------------------------


def _one_per_sense(glossary: Glossary) -> list[Term]:
    """The terms as the formats' entries hold them: one per sense, each with the name (an import gathers entries
    of one name again as its senses: bot.app.interchange.imports.claim_names)."""
    return [each for term in glossary.terms for each in term.sense_terms()]


def to_json(glossary: Glossary, context: Glossary | None = None) -> str:
    """The glossary as JSON (schemas/glossary.schema.json): related terms by name, as in term files."""
    both = Layered(glossary, context)
    terms = [
        {**term.to_dict(), "related": _related_names(term, both), **_terminology(term)}
        for term in _one_per_sense(glossary)
    ]
    body = {"title": glossary.title, "subtitle": glossary.subtitle, "language": glossary.language, "terms": terms}
    body |= {"languages": _languages(glossary.languages)} if glossary.languages else {}
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def _terminology(term: Term) -> dict:
    """The optional fields of real terminology, every key always written (empty when the term has none): a
    reader gets one shape; a source without an address has no "url"."""
    sources = [{"text": s.text, **({"url": s.url} if s.url else {})} for s in term.sources]
    return {
        "note": term.note,
        "example": term.example,
        "sources": sources,
        "tags": list(term.tags),
        "source_id": term.source_id,
        "definition_language": term.definition_language,
        "deprecated": list(term.deprecated),
        "languages": _languages(term.languages),
    }


def _languages(pairs: tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    return [{"text": text, "language": language} for text, language in pairs]


def to_csv(glossary: Glossary, context: Glossary | None = None) -> str:
    """One row per term, one column per field the model holds (`CSV_COLUMNS`, all of which the CSV import reads
    back); lists joined with "|"; a link or source as "Texto <https://…>"; cells a spreadsheet would run are
    quoted."""
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel")
    writer.writerow(CSV_COLUMNS)
    both = Layered(glossary, context)
    for term in _one_per_sense(glossary):
        row = (
            term.id,
            term.term,
            term.en or "",
            term.category,
            term.definition,
            _joined(term.aliases),
            _joined(_related_names(term, both)),
            _joined(f"{link.title} <{link.url}>" for link in term.links),
            term.note,
            term.example,
            _joined(citation(s.text, s.url) for s in term.sources),
            _joined(term.tags),
            _joined(term.deprecated),
            term.definition_language,
            term.source_id,
            _joined(f"{language}={text}" for text, language in term.languages),
        )
        writer.writerow([spreadsheet_safe(value) for value in row])
    return out.getvalue()


def export(glossary: Glossary, fmt: str, *, base: str = DEFAULT_BASE, context: Glossary | None = None) -> str:
    """`glossary` in format `fmt`; related terms it does not hold are looked up in `context` (the published
    glossary, when `glossary` is a server's own terms)."""
    if fmt == "tbx":
        return to_tbx(glossary, context)
    if fmt in SKOS_FORMATS:
        return to_skos(glossary, base=base, fmt=SKOS_FORMATS[fmt], context=context)
    return to_csv(glossary, context) if fmt == "csv" else to_json(glossary, context)


# -- in ---------------------------------------------------------------------------------------------------


# The schema's deepest place is /terms/N/links/N/url: a document nested far deeper is no glossary, and a validator
# (or the parser itself, past Python's recursion limit) would walk it to no purpose.
MAX_JSON_DEPTH = 64
_TOO_DEEP = said("json_too_deep", depth=MAX_JSON_DEPTH)


def _read_json(text: str) -> tuple[Any, Sentence | None]:
    """The parsed document, or why it cannot be read (bad JSON, a number too long, nested too deep)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, said("json_unreadable", line=exc.lineno, error=exc.msg)
    except RecursionError:  # the parser's own stack, thousands of levels down
        return None, _TOO_DEEP
    except ValueError:  # the one other refusal of json.loads: an integer longer than Python converts
        return None, said("json_number_too_long", digits=sys.get_int_max_str_digits())
    return (None, _TOO_DEEP) if _depth_over(data, MAX_JSON_DEPTH) else (data, None)


def from_json(text: str) -> Imported:
    """A document of schemas/glossary.schema.json: checked against the schema first; an entry the schema
    refuses is named (term number and JSON pointer of each field) and left out, a document it refuses is not read."""
    from bot.app.interchange.schema_problems import found

    data, unreadable = _read_json(text)
    if unreadable is not None:  # (refused whole: no entry was read)
        return Imported([], [Problem(unreadable)], read=0)
    by_entry: dict[int, list[Said]] = {}
    document: list[Said] = []
    for problem in found(data):
        if len(problem.path) >= 2 and problem.path[0] == "terms" and isinstance(problem.path[1], int):
            by_entry.setdefault(problem.path[1], []).append(problem.said)
        else:
            document.append(problem.said)
    if document:
        return Imported([], [Problem(said("nothing_imported", why=Joined(document, "; ")))], read=0)
    entries, problems = [], []
    for index, item in enumerate(data["terms"]):
        where = said("at_term", number=index + 1)
        if index in by_entry:
            problems.append(Problem(said("not_imported", where=where, why=Joined(by_entry[index], "; "))))
            continue
        entry = Entry(
            item["term"],
            item["definition"],
            item["en"] or "",
            item["category"],
            item["aliases"],
            item["related"],
            [{"title": link["title"], "url": link["url"]} for link in item["links"]],
            where,
            # Optional (files written before they existed lack them); the loader checks them as in term files.
            item.get("note", ""),
            item.get("example", ""),
            [dict(s) for s in item.get("sources", [])],
            item.get("tags", []),
            item.get("source_id", ""),
            item.get("definition_language", ""),
            item.get("deprecated", []),
            {said["text"]: said["language"] for said in item.get("languages", [])},
        )
        _keep(entry, entries, problems)
    languages = {said["text"]: said["language"] for said in data.get("languages", [])}
    return Imported(entries, problems, data["title"], languages=languages)


def _depth_over(value: object, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _keep(entry: Entry, entries: list[Entry], problems: list[Problem]) -> None:
    fields = (("the_name", entry.term), ("the_definition", entry.definition))
    missing = [said(code) for code, value in fields if not value.strip()]
    if not missing:
        entries.append(entry)
        return
    what = Joined(missing, said("and"))
    problems.append(Problem(said("json_fields_missing", where=entry.where, what=what)))


def read(text: str, fmt: str, lang: str = "es") -> Imported:
    """`text` in format `fmt`, with `lang` as the glossary's language (TBX and SKOS keep one language)."""
    with collection_paused():  # a reader makes objects by the hundred thousand, none in a cycle
        return _read(text, fmt, lang)


def _read(text: str, fmt: str, lang: str) -> Imported:
    if fmt == "tbx":
        from bot.app.interchange.tbx_in import read_tbx

        return read_tbx(text, lang)
    if fmt in SKOS_FORMATS:
        from bot.app.interchange.skos_in import read_skos

        return read_skos(text, SKOS_FORMATS[fmt], lang)
    if fmt == "csv":
        from bot.app.interchange.csv_in import read_csv

        return read_csv(text)
    return from_json(text)


def format_of(name: str) -> str | None:
    """The format a file's name says: .tbx/.xml, .ttl/.nt, .rdf/.owl, .jsonld, .csv, .json."""
    suffixes = {
        ".tbx": "tbx",
        ".xml": "tbx",
        ".ttl": "skos",
        ".nt": "skos",  # N-Triples: Turtle without its abbreviations
        ".rdf": "skos-rdfxml",
        ".owl": "skos-rdfxml",
        ".jsonld": "skos-jsonld",
        ".csv": "csv",
        ".json": "json",
    }
    return next((fmt for suffix, fmt in suffixes.items() if name.lower().endswith(suffix)), None)


def write_term_files(imported: Imported, out_dir: Path, category: str) -> Path:
    """The imported terms as one term file of `category` in `out_dir` (and a glossary.yaml there if it has none),
    in our format, ready for `glosario-bot validate`. Returns the term file's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = out_dir / META_FILE
    if not meta.exists():
        title = imported.title.split(" — ")[0].strip() or "Glosario importado"
        meta.write_text(yaml.safe_dump({"title": title, "subtitle": "Importado", "language": "es"}, allow_unicode=True))
    path = out_dir / f"{slug(category) or 'importado'}.yaml"
    path.write_text(term_file([entry.to_term_entry() for entry in imported.entries], category), encoding="utf-8")
    return path
