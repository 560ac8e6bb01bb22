"""The glossary in other people's formats, both ways: TBX-Basic (ISO 30042), SKOS (W3C, Turtle or JSON-LD), CSV
and JSON out; the same in, as term files in our format. XML through the standard library, RDF through pyoxigraph
(Oxigraph's Turtle and JSON-LD parsers and serialisers; imported only by these commands)."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from bot.app.reports import spreadsheet_plain, spreadsheet_safe
from bot.core.loader import META_FILE
from bot.core.model import Glossary, Layered, Term
from bot.core.normalize import slug
from bot.core.server_terms import term_file

FORMATS = ("tbx", "skos", "skos-jsonld", "csv", "json")
CSV_COLUMNS = ("id", "term", "en", "category", "definition", "aliases", "related", "links")
LIST_SEPARATOR = "|"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
DEFAULT_BASE = "https://glosario-ia.example/terminos/"


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
    where: str = ""  # line or IRI, for problems

    def to_term_entry(self) -> dict:
        data: dict = {"term": self.term.strip(), "definition": self.definition.strip()}
        if self.en.strip():
            data["en"] = self.en.strip()
        if self.aliases:
            data["aliases"] = list(dict.fromkeys(a.strip() for a in self.aliases if a.strip()))
        if self.related:
            data["related"] = list(dict.fromkeys(r.strip() for r in self.related if r.strip()))
        if self.links:
            data["links"] = self.links
        return data


def _related_names(term: Term, glossary: Glossary | Layered) -> list[str]:
    return [named.term for i in term.related if (named := glossary.get(i)) is not None]


# -- out --------------------------------------------------------------------------------------------------


def to_json(glossary: Glossary, context: Glossary | None = None) -> str:
    """The glossary as JSON (bot/app/schemas/glossary.schema.json): related terms by name, as in term files."""
    both = Layered(glossary, context)
    terms = [{**term.to_dict(), "related": _related_names(term, both)} for term in glossary.terms]
    body = {"title": glossary.title, "subtitle": glossary.subtitle, "language": glossary.language, "terms": terms}
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def to_csv(glossary: Glossary, context: Glossary | None = None) -> str:
    """One row per term, one column per field; lists joined with "|"; cells a spreadsheet would run are quoted."""
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel")
    writer.writerow(CSV_COLUMNS)
    for term in glossary.terms:
        links = LIST_SEPARATOR.join(f"{link.title} <{link.url}>" for link in term.links)
        row = (
            term.id,
            term.term,
            term.en or "",
            term.category,
            term.definition,
            LIST_SEPARATOR.join(term.aliases),
            LIST_SEPARATOR.join(_related_names(term, Layered(glossary, context))),
            links,
        )
        writer.writerow([spreadsheet_safe(value) for value in row])
    return out.getvalue()


def to_tbx(glossary: Glossary, context: Glossary | None = None) -> str:
    """TBX-Basic: one termEntry per term (subject field = category, cross-references = related terms, external
    references = links), a langSet "es" (the definition, the name as preferred term, aliases as admitted terms)
    and, with an English name, a langSet "en"."""
    root = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: glossary.language or "es"})
    header = ET.SubElement(ET.SubElement(ET.SubElement(root, "martifHeader"), "fileDesc"), "sourceDesc")
    ET.SubElement(header, "p").text = f"{glossary.title} — {glossary.subtitle}" if glossary.subtitle else glossary.title
    body = ET.SubElement(ET.SubElement(root, "text"), "body")
    for term in glossary.terms:
        entry = ET.SubElement(body, "termEntry", {"id": term.id})
        ET.SubElement(entry, "descrip", {"type": "subjectField"}).text = term.category
        for i in term.related:
            if (other := Layered(glossary, context).get(i)) is not None:
                ET.SubElement(entry, "ref", {"type": "crossReference", "target": other.id}).text = other.term
        for link in term.links:
            ET.SubElement(entry, "xref", {"type": "externalCrossReference", "target": link.url}).text = link.title
        spanish = ET.SubElement(entry, "langSet", {XML_LANG: "es"})
        ET.SubElement(spanish, "descrip", {"type": "definition"}).text = term.definition
        _tig(spanish, term.term, "preferredTerm-admn-sts")
        for alias in term.aliases:
            _tig(spanish, alias, "admittedTerm-admn-sts")
        if term.en:
            _tig(ET.SubElement(entry, "langSet", {XML_LANG: "en"}), term.en, "preferredTerm-admn-sts")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _tig(lang_set: ET.Element, text: str, status: str) -> None:
    tig = ET.SubElement(lang_set, "tig")
    ET.SubElement(tig, "term").text = text
    ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status


SKOS = "http://www.w3.org/2004/02/skos/core#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_SEE_ALSO = "http://www.w3.org/2000/01/rdf-schema#seeAlso"
DCT_TITLE = "http://purl.org/dc/terms/title"
PREFIXES = {"skos": SKOS, "dct": "http://purl.org/dc/terms/", "rdfs": "http://www.w3.org/2000/01/rdf-schema#"}


def to_skos(
    glossary: Glossary, *, base: str = DEFAULT_BASE, fmt: str = "turtle", context: Glossary | None = None
) -> str:
    """SKOS: a ConceptScheme with the glossary's title; a Concept per term (prefLabel@es, prefLabel@en for the
    English name, altLabel@es for aliases, definition@es, related, inScheme, rdfs:seeAlso for links); a Collection
    per category. IRIs are `base` + the term's id."""
    import pyoxigraph as ox

    node, both = ox.NamedNode, Layered(glossary, context)
    a, in_scheme, pref, alt = node(RDF_TYPE), node(SKOS + "inScheme"), node(SKOS + "prefLabel"), node(SKOS + "altLabel")
    definition, related, title = node(SKOS + "definition"), node(SKOS + "related"), node(DCT_TITLE)
    triples: dict = {}  # in order, once each

    def add(subject, predicate, value) -> None:
        triples[ox.Triple(subject, predicate, value)] = None

    scheme = node(base.rstrip("/#") + "#scheme")
    add(scheme, a, node(SKOS + "ConceptScheme"))
    add(scheme, title, ox.Literal(glossary.title, language=glossary.language or "es"))
    collections: dict[str, list] = {}
    for term in glossary.terms:
        concept = node(base + term.id)
        add(concept, a, node(SKOS + "Concept"))
        add(concept, in_scheme, scheme)
        add(concept, pref, ox.Literal(term.term, language="es"))
        if term.en:
            add(concept, pref, ox.Literal(term.en, language="en"))
        for alias in term.aliases:
            add(concept, alt, ox.Literal(alias, language="es"))
        add(concept, definition, ox.Literal(term.definition, language="es"))
        for i in term.related:
            if both.get(i) is not None:
                add(concept, related, node(base + i))
        for link in term.links:
            add(concept, node(RDFS_SEE_ALSO), node(link.url))
        collections.setdefault(term.category, []).append(concept)
    for link in {link.url: link for term in glossary.terms for link in term.links}.values():
        add(node(link.url), title, ox.Literal(link.title))
    for category, concepts in collections.items():
        _collection(add, node(base + "categoria-" + slug(category)), category, concepts)
    form = ox.RdfFormat.JSON_LD if fmt == "json-ld" else ox.RdfFormat.TURTLE
    return ox.serialize(triples, format=form, prefixes=PREFIXES).decode("utf-8")


def _collection(add, collection, category: str, concepts: list) -> None:
    """A category as a skos:Collection of its concepts."""
    import pyoxigraph as ox

    add(collection, ox.NamedNode(RDF_TYPE), ox.NamedNode(SKOS + "Collection"))
    add(collection, ox.NamedNode(SKOS + "prefLabel"), ox.Literal(category, language="es"))
    for concept in concepts:
        add(collection, ox.NamedNode(SKOS + "member"), concept)


def export(glossary: Glossary, fmt: str, *, base: str = DEFAULT_BASE, context: Glossary | None = None) -> str:
    """`glossary` in format `fmt`; related terms it does not hold are looked up in `context` (the published
    glossary, when `glossary` is a server's own terms)."""
    if fmt == "tbx":
        return to_tbx(glossary, context)
    if fmt in ("skos", "skos-jsonld"):
        return to_skos(glossary, base=base, fmt="json-ld" if fmt == "skos-jsonld" else "turtle", context=context)
    return to_csv(glossary, context) if fmt == "csv" else to_json(glossary, context)


# -- in ---------------------------------------------------------------------------------------------------


Problem = tuple[str, str]  # (Spanish, English), each naming the line, entry or IRI it is about


@dataclass
class Imported:
    entries: list[Entry]
    problems: list[Problem]
    title: str = ""


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.split(LIST_SEPARATOR) if part.strip()]


def _link(text: str) -> dict[str, str] | None:
    title, _, url = text.rpartition(" <")
    return {"title": title.strip() or url.rstrip(">"), "url": url.rstrip(">").strip()} if url.endswith(">") else None


def from_csv(text: str) -> Imported:
    entries, problems = [], []
    reader = csv.DictReader(io.StringIO(text), dialect="excel")
    missing = [c for c in ("term", "definition") if c not in (reader.fieldnames or [])]
    if missing:
        names = ", ".join(missing)
        return Imported([], [(f"línea 1: faltan las columnas {names}", f"line 1: the columns {names} are missing")])
    for row in reader:
        line = reader.line_num
        cell = {key: spreadsheet_plain(value or "") for key, value in row.items() if key}
        links = [link for part in _split(cell.get("links", "")) if (link := _link(part))]
        entry = Entry(
            cell.get("term", ""),
            cell.get("definition", ""),
            cell.get("en", ""),
            cell.get("category", ""),
            _split(cell.get("aliases", "")),
            _split(cell.get("related", "")),
            links,
            f"línea {line}",
        )
        _keep(entry, entries, problems)
    return Imported(entries, problems)


def from_json(text: str) -> Imported:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        line = exc.lineno
        return Imported([], [(f"línea {line}: JSON ilegible ({exc.msg})", f"line {line}: bad JSON ({exc.msg})")])
    entries, problems = [], []
    for n, item in enumerate(data.get("terms", []) if isinstance(data, dict) else [], start=1):
        if not isinstance(item, dict):
            problems.append((f"término {n}: no es un objeto", f"term {n}: not an object"))
            continue
        links = [{"title": str(k.get("title", "")), "url": str(k.get("url", ""))} for k in item.get("links") or []]
        entry = Entry(
            str(item.get("term") or ""),
            str(item.get("definition") or ""),
            str(item.get("en") or ""),
            str(item.get("category") or ""),
            [str(a) for a in item.get("aliases") or []],
            [str(r) for r in item.get("related") or []],
            links,
            f"término {n}",
        )
        _keep(entry, entries, problems)
    return Imported(entries, problems, str(data.get("title", "")) if isinstance(data, dict) else "")


def from_tbx(text: str) -> Imported:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0]
        return Imported([], [(f"línea {line}: XML ilegible ({exc})", f"line {line}: bad XML ({exc})")])
    names = {e.get("id"): _preferred(e, "es") for e in root.iter("termEntry")}
    entries, problems = [], []
    for n, element in enumerate(root.iter("termEntry"), start=1):
        spanish = _lang_set(element, "es")
        entry = Entry(
            _preferred(element, "es"),
            (spanish.findtext("descrip[@type='definition']") if spanish is not None else "") or "",
            _preferred(element, "en"),
            element.findtext("descrip[@type='subjectField']") or "",
            [t.findtext("term") or "" for t in spanish.iter("tig") if _status(t) == "admittedTerm-admn-sts"]
            if spanish is not None
            else [],
            [names.get(ref.get("target")) or (ref.text or "") for ref in element.iter("ref")],
            [{"title": x.text or x.get("target", ""), "url": x.get("target", "")} for x in element.iter("xref")],
            f"termEntry {element.get('id') or n}",
        )
        _keep(entry, entries, problems)
    return Imported(entries, problems, root.findtext("martifHeader/fileDesc/sourceDesc/p") or "")


def _lang_set(element: ET.Element, lang: str) -> ET.Element | None:
    return next((s for s in element.iter("langSet") if s.get(XML_LANG, "").split("-")[0] == lang), None)


def _status(tig: ET.Element) -> str:
    return tig.findtext("termNote[@type='administrativeStatus']") or "preferredTerm-admn-sts"


def _preferred(element: ET.Element, lang: str) -> str:
    lang_set = _lang_set(element, lang)
    if lang_set is None:
        return ""
    return next((t.findtext("term") or "" for t in lang_set.iter("tig") if _status(t) == "preferredTerm-admn-sts"), "")


def _triples_by_subject(text: str, form) -> dict[tuple[str, str], list]:
    """(subject, predicate) → objects, in the file's order."""
    import pyoxigraph as ox

    values: dict[tuple[str, str], list] = {}
    for quad in ox.parse(text, format=form):
        values.setdefault((quad.subject.value, quad.predicate.value), []).append(quad.object)
    return values


def from_skos(text: str, fmt: str = "turtle") -> Imported:
    import pyoxigraph as ox

    try:
        values = _triples_by_subject(text, ox.RdfFormat.JSON_LD if fmt == "json-ld" else ox.RdfFormat.TURTLE)
    except (SyntaxError, ValueError, OSError) as exc:  # what the parser raises for a broken or unsupported file
        reason = f"{type(exc).__name__}: {exc}"
        return Imported([], [(f"RDF ilegible ({reason})", f"unreadable RDF ({reason})")])

    def objects(subject: str, predicate: str) -> list:
        return values.get((subject, predicate), [])

    def first(subject: str, predicate: str) -> str:
        return next((o.value for o in objects(subject, predicate)), "")

    def label(subject: str, lang: str) -> str:
        return next((o.value for o in objects(subject, SKOS + "prefLabel") if getattr(o, "language", None) == lang), "")

    typed: dict[str, list[str]] = {}
    for (subject, predicate), objs in values.items():
        if predicate == RDF_TYPE:
            for o in objs:
                typed.setdefault(o.value, []).append(subject)
    categories = {
        member.value: first(collection, SKOS + "prefLabel")
        for collection in typed.get(SKOS + "Collection", [])
        for member in objects(collection, SKOS + "member")
    }
    entries, problems = [], []
    for concept in sorted(set(typed.get(SKOS + "Concept", []))):
        entry = Entry(
            label(concept, "es") or first(concept, SKOS + "prefLabel"),
            first(concept, SKOS + "definition"),
            label(concept, "en"),
            categories.get(concept, ""),
            sorted(o.value for o in objects(concept, SKOS + "altLabel")),
            [label(other.value, "es") for other in objects(concept, SKOS + "related")],
            [
                {"title": first(url.value, DCT_TITLE) or url.value, "url": url.value}
                for url in objects(concept, RDFS_SEE_ALSO)
            ],
            f"<{concept}>",
        )
        _keep(entry, entries, problems)
    title = next((first(s, DCT_TITLE) for s in typed.get(SKOS + "ConceptScheme", []) if first(s, DCT_TITLE)), "")
    return Imported(entries, problems, title)


def _keep(entry: Entry, entries: list[Entry], problems: list[Problem]) -> None:
    fields = (("el nombre", "the name", entry.term), ("la definición", "the definition", entry.definition))
    missing = [(es, en) for es, en, value in fields if not value.strip()]
    if not missing:
        entries.append(entry)
        return
    spanish, english = " y ".join(es for es, _ in missing), " and ".join(en for _, en in missing)
    where = entry.where.replace("línea", "line").replace("término", "term")
    problems.append(
        (f"{entry.where}: falta {spanish}; no se ha importado", f"{where}: {english} missing; not imported")
    )


def read(text: str, fmt: str) -> Imported:
    if fmt == "tbx":
        return from_tbx(text)
    if fmt in ("skos", "skos-jsonld"):
        return from_skos(text, "json-ld" if fmt == "skos-jsonld" else "turtle")
    return from_csv(text) if fmt == "csv" else from_json(text)


def format_of(name: str) -> str | None:
    """The format a file's name says: .tbx/.xml, .ttl, .jsonld, .csv, .json."""
    suffixes = {".tbx": "tbx", ".xml": "tbx", ".ttl": "skos", ".jsonld": "skos-jsonld", ".csv": "csv", ".json": "json"}
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
