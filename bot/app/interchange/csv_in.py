"""CSV in, as people write glossaries in spreadsheets: Spanish or English column names (or `--map`), comma,
semicolon or tab, UTF-8 (with or without BOM) or Windows-1252, paragraphs inside quoted cells kept, and
"Nombre (English)" names split into the name and the English name. Every column not kept is counted.

A file with every column of `CSV_COLUMNS` is one our export wrote (formats.py): its names are taken as
written (the English name has its own column), its lists are "|"-lists, and its `id` is the term's id, derived
from the name again."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import Counter

from bot.app.interchange.entries import Entry, Imported, Problem, _link, _split
from bot.app.interchange.imports import Refused, refuse, source
from bot.app.spreadsheets import spreadsheet_plain
from bot.core.problems import Joined, Sentence, said

# What the CSV export writes, one column per field the model holds (every one of them read back by COLUMNS).
CSV_COLUMNS = (
    "id",
    "term",
    "en",
    "category",
    "definition",
    "aliases",
    "related",
    "links",
    "note",
    "example",
    "sources",
    "tags",
    "deprecated",
    "definition_language",
    "source_id",
    "languages",  # "en=PhD Thesis|=Resource Types": each text of the term in another language (Term.languages)
)
# What makes a file ours: every column above but those added later (a file written before them is ours too).
_OURS = frozenset(CSV_COLUMNS) - {"languages"}

# Our field → the column names that mean it, most specific first (compared without accents, case or spaces).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("term", "termino", "term_es", "termino_es", "concepto", "nombre", "palabra", "titulo", "entrada", "name"),
    "definition": (
        "definition",
        "definicion",
        "definition_es",
        "definicion_es",
        "descripcion",
        "significado",
        "long_es",
        "definicion_larga",
        "short_es",
        "definicion_corta",
        "description",
    ),
    "english": ("en", "english", "ingles", "term_en", "termino_en", "nombre_en", "nombre_ingles"),
    "example": ("example", "ejemplo", "example_es", "ejemplo_es", "ejemplos"),
    "category": ("category", "categoria", "section", "seccion", "tema", "area", "subject", "dominio"),
    "tags": ("tags", "etiquetas", "palabras_clave", "keywords"),
    "aliases": ("aliases", "alias", "sinonimos", "synonyms", "variantes"),
    "related": ("related", "relacionados", "ver_tambien", "see_also"),
    "links": ("links", "enlaces"),
    "note": ("note", "nota", "notas", "notes", "observaciones"),
    "source": ("source", "sources", "fuente", "fuentes", "referencia", "referencias"),
    "deprecated": ("deprecated", "desaconsejados", "formas_desaconsejadas", "evitar", "forms_to_avoid"),
    "definition_language": ("definition_language", "idioma_definicion", "idioma_de_la_definicion"),
    "id": ("source_id", "id", "identificador"),
}
MAP_KEYS = tuple(COLUMNS)
_ACRONYM = re.compile(r"[A-Z0-9][A-Z0-9&.\-]{0,9}s?")
_PARENTHESIS = re.compile(r"(?P<name>.*\S)\s*\((?P<inner>[^()]+)\)\s*")


def _folded(header: str) -> str:
    text = unicodedata.normalize("NFKD", header.strip().lstrip("#\ufeff")).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[\s\-.]+", "_", text).strip("_")


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text and the encoding it was read in: the one given, else UTF-8 (BOM or not), else Windows-1252."""
    if encoding:
        return data.decode(encoding), encoding
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252"), "windows-1252"


def _dialect(text: str) -> type[csv.Dialect]:
    """The delimiter sniffed; everything else as spreadsheets write it (the sniffer may take a cell's apostrophe
    for the quote character)."""
    sample = text[:65536]
    header = sample.partition("\n")[0]
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = max(",;\t", key=header.count)
    if delimiter not in header and any(d in header for d in ",;\t"):  # (a header of several columns holds its own:
        delimiter = max(",;\t", key=header.count)  # the sniffer may take one inside the cells below it, ";;" say)
    return type("Sniffed", (csv.excel,), {"delimiter": delimiter})


def columns(headers: list[str], mapping: dict[str, str] | None = None) -> dict[str, int]:
    """Our field → the column index that holds it: `mapping` (field=COLUMN name or 1-based number) first, then
    the names in COLUMNS."""
    folded = [_folded(h) for h in headers]
    found: dict[str, int] = {}
    for key, column in (mapping or {}).items():
        if column.isdigit() and 0 < int(column) <= len(headers):
            found[key] = int(column) - 1
        elif _folded(column) in folded:
            found[key] = folded.index(_folded(column))
    taken = set(found.values())
    for key, names in COLUMNS.items():
        if key in found:
            continue
        index = next((folded.index(n) for n in names if n in folded and folded.index(n) not in taken), None)
        if index is not None:
            found[key] = index
            taken.add(index)
    return found


def read_csv(text: str, mapping: dict[str, str] | None = None) -> Imported:
    """The rows of a CSV glossary as entries; rows without a name or any definition are refused by line."""
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text))
    headers = next(reader, [])
    found = columns(headers, mapping)
    if absent := _absent(headers, mapping or {}):  # (a misspelt column is said, not replaced by a guess)
        listed = ", ".join(h.strip() for h in headers) or said("csv_no_columns")
        return Imported([], [Problem(said("csv_map_column_absent", column=absent, columns=listed))], read=0)
    if "name" not in found or "definition" not in found:
        return Imported([], [_missing(headers, found)], read=0)
    entries, refused, dropped = [], [], Counter()
    folded = [_folded(h) for h in headers]
    ours = set(folded) >= _OURS
    own_id = folded.index("id") if ours else None
    if ours and "languages" in folded:  # (read from our own files only: another file's column is counted)
        found["languages"] = folded.index("languages")
    extra = {i: h for i, h in enumerate(headers) if i not in found.values() and i != own_id}
    second = _second_definition(headers, found)
    read, start = 0, reader.line_num + 1
    for row in reader:
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        read += 1
        cells = [spreadsheet_plain(c) for c in row]
        entry = _entry(cells, found, second, said("at_line", line=line), ours)
        for index, header in extra.items():
            if index < len(cells) and cells[index].strip() and index != second:
                dropped[header.strip() or f"columna {index + 1}"] += 1
        if not entry.term or not entry.definition:
            refuse(refused, entry, said("field_missing", what=said("the_name" if not entry.term else "the_definition")))
            continue
        entries.append(entry)
    problems = [Problem(said("not_imported", where=r.place, why=r.said)) for r in refused]
    return Imported(entries, problems, read=read, refused=refused, dropped=dict(dropped))


def _second_definition(headers: list[str], found: dict[str, int]) -> int | None:
    """A second definition column (short_es beside long_es): kept as the note when it says something else."""
    folded = [_folded(h) for h in headers]
    names = COLUMNS["definition"]
    return next(
        (i for i, h in enumerate(folded) if h in names and i not in found.values() and "note" not in found), None
    )


def _cell(cells: list[str], found: dict[str, int], key: str) -> str:
    index = found.get(key)
    return cells[index].strip() if index is not None and index < len(cells) else ""


def _paragraphs(text: str) -> str:
    """A cell's text with its line breaks as "\n" (a spreadsheet may write "\r\n" inside a quoted cell)."""
    return "\n".join(line.rstrip("\r") for line in text.split("\n")).strip()


def _entry(cells: list[str], found: dict[str, int], second: int | None, where: Sentence, ours: bool) -> Entry:
    cell = lambda key: _cell(cells, found, key)  # noqa: E731
    definition = _paragraphs(cell("definition"))
    tags = _split(cell("tags")) if ours else [t.strip() for t in re.split(r"[;,|]", cell("tags")) if t.strip()]
    entry = Entry(
        term=" ".join(cell("name").split()),
        definition=definition,
        en=cell("english"),
        category=cell("category"),
        aliases=_split(cell("aliases")),
        related=_split(cell("related")),
        links=[link for part in _split(cell("links")) if (link := _link(part))],
        where=where,
        note=_paragraphs(cell("note")),
        example=_paragraphs(cell("example")),
        tags=tags,
        source_id=cell("id"),
        sources=[source(s) for s in _split(cell("source"))],
        definition_language=cell("definition_language"),
        deprecated=_split(cell("deprecated")),
        languages={text: language for language, _, text in map(_said_in, _split(cell("languages")))},
    )
    other = cells[second].strip() if second is not None and second < len(cells) else ""
    if other and " ".join(other.split()) != " ".join(definition.split()):
        entry.note = " · ".join(filter(None, (entry.note, other)))
    if not ours:
        _split_english(entry)
    return entry


def _said_in(item: str) -> tuple[str, str, str]:
    """ "en=PhD Thesis" as (language, "=", text); "=Resource Types" is a text in no language (a language tag holds
    no "=", a text may)."""
    return item.partition("=")


def _split_english(entry: Entry) -> None:
    """ "Aprendizaje federado (Federated Learning)" → the name and the English name; "(AGEB)" → an alias."""
    match = _PARENTHESIS.fullmatch(entry.term)
    if match is None:
        return
    name, inner = match["name"], match["inner"].strip()
    entry.term = name
    if _ACRONYM.fullmatch(inner):
        entry.aliases.insert(0, inner)
    elif not entry.en or entry.en.casefold() == inner.casefold():
        entry.en = entry.en or inner
    else:
        entry.aliases.insert(0, inner)


def _absent(headers: list[str], mapping: dict[str, str]) -> str | None:
    """The first column `--map` names that the file does not have (by name or 1-based number), or None."""
    folded = {_folded(h) for h in headers}
    for column in mapping.values():
        if not (column.isdigit() and 0 < int(column) <= len(headers)) and _folded(column) not in folded:
            return column
    return None


def _missing(headers: list[str], found: dict[str, int]) -> Problem:
    wanted = [key for key in ("name", "definition") if key not in found]
    return Problem(
        said(
            "csv_columns_unknown",
            what=Joined([said({"name": "the_name", "definition": "the_definition"}[k]) for k in wanted], said("nor")),
            columns=", ".join(h.strip() for h in headers) or said("csv_no_columns"),
            keys=Joined([said("csv_map_key", key=key) for key in wanted], ","),
        )
    )


def parse_map(text: str) -> dict[str, str]:
    """`name=COL,definition=COL,...` as a dict; unknown keys raise ValueError naming them."""
    mapping = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, column = part.partition("=")
        key = {"term": "name", "en": "english"}.get(key.strip(), key.strip())
        if key not in MAP_KEYS or not column.strip():
            raise ValueError(part)
        mapping[key] = column.strip()
    return mapping


__all__ = ["COLUMNS", "CSV_COLUMNS", "Refused", "columns", "decode", "parse_map", "read_csv"]
