"""The glossary out to TBX, SKOS, CSV and JSON and back in: lossless round trips, checked against each standard's
own rules rather than against ourselves."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rdflib import RDF, SKOS, Graph

from bot.app.files import load_glossary
from bot.app.interchange import formats as interchange
from bot.cli import main
from bot.core.errors import GlossaryError
from bot.core.loader import load_glossary_from_texts
from bot.core.model import Glossary
from bot.core.problems import said as sentence
from tests.conftest import SHIPPED

META = "title: T\nsubtitle: S\nlanguage: es\n"
FORMULA = """category: Pruebas
terms:
  - term: Suma
    definition: "=1+1 es lo que una hoja de cálculo ejecutaría si nadie lo impidiera."
    aliases: ["@suma"]
    links: [{title: Documentación, url: "https://example.org/suma"}]
"""


def content(glossary: Glossary) -> dict[str, tuple]:
    """What a glossary says, term by term (related terms by name: ids are derived)."""
    return {
        t.term: (t.definition, t.en, tuple(sorted(t.aliases)), tuple(sorted(glossary.get(i).term for i in t.related)))
        for t in glossary.terms
    }


@pytest.mark.parametrize("fmt", interchange.FORMATS)
def test_export_then_import_gives_term_files_that_validate_and_say_the_same(fmt, shipped_glossary, tmp_path):
    text = interchange.export(shipped_glossary, fmt)
    imported = interchange.read(text, fmt)
    assert imported.problems == [] and len(imported.entries) == len(shipped_glossary)
    interchange.write_term_files(imported, tmp_path, "Importados")
    again = load_glossary(tmp_path)  # what `glosario-bot validate` checks
    assert content(again) == content(shipped_glossary)
    if fmt != "csv":  # (a spreadsheet has no place for the glossary's own title)
        assert again.title == shipped_glossary.title


@pytest.mark.parametrize("fmt", interchange.FORMATS)
def test_links_and_formula_looking_text_survive_the_round_trip(fmt, tmp_path):
    glossary = load_glossary_from_texts(
        [("glossary.yaml", "title: T\nsubtitle: S\nlanguage: es\n"), ("p.yaml", FORMULA)]
    )
    imported = interchange.read(interchange.export(glossary, fmt), fmt)
    (entry,) = imported.entries
    assert entry.definition.startswith("=1+1") and entry.aliases == ["@suma"]
    assert entry.links == [{"title": "Documentación", "url": "https://example.org/suma"}]


def test_the_json_export_follows_its_schema(shipped_glossary):
    schema = json.loads(resources.files("bot.app.interchange").joinpath("schemas/glossary.schema.json").read_text())
    jsonschema.validate(json.loads(interchange.to_json(shipped_glossary)), schema)
    jsonschema.validate(json.loads(interchange.to_json(terminology())), schema)  # every optional field filled


def test_the_csv_opens_as_a_spreadsheet_would_read_it(tmp_path):
    glossary = load_glossary_from_texts(
        [("glossary.yaml", "title: T\nsubtitle: S\nlanguage: es\n"), ("p.yaml", FORMULA)]
    )
    rows = list(csv.reader(io.StringIO(interchange.to_csv(glossary)), dialect="excel"))
    assert rows[0] == list(interchange.CSV_COLUMNS)
    assert rows[1][4].startswith("'=") and rows[1][5] == "'@suma"  # never run as a formula


@pytest.mark.parametrize("fmt", ["turtle", "json-ld"])
def test_the_skos_export_meets_the_skos_integrity_conditions(fmt, shipped_glossary):
    graph = Graph().parse(data=interchange.to_skos(shipped_glossary, fmt=fmt), format=fmt)
    concepts = set(graph.subjects(RDF.type, SKOS.Concept))
    assert len(concepts) == len(shipped_glossary)
    assert len(list(graph.subjects(RDF.type, SKOS.ConceptScheme))) == 1
    for concept in concepts:
        pref = list(graph.objects(concept, SKOS.prefLabel))
        languages = [label.language for label in pref]
        assert len(languages) == len(set(languages)) and "es" in languages  # S14: one prefLabel per language
        alt = set(graph.objects(concept, SKOS.altLabel))
        assert not alt & set(pref)  # S13: prefLabel and altLabel are disjoint
        related = set(graph.objects(concept, SKOS.related))
        assert not related & set(graph.objects(concept, SKOS.broader))  # S27: related is not broader
        assert related <= concepts and concept not in related
        assert len(list(graph.objects(concept, SKOS.definition))) == 1


def test_the_tbx_export_has_the_tbx_basic_structure(shipped_glossary):
    root = ET.fromstring(interchange.to_tbx(shipped_glossary))
    assert root.tag == "martif" and root.get("type") == "TBX-Basic"
    entries = root.findall("text/body/termEntry")
    assert len(entries) == len(shipped_glossary)
    ids = {e.get("id") for e in entries}
    for entry in entries:
        assert entry.findtext("descrip[@type='subjectField']")
        spanish = [s for s in entry.findall("langSet") if s.get(interchange.XML_LANG) == "es"]
        assert len(spanish) == 1 and spanish[0].findtext("descrip[@type='definition']")
        statuses = [t.findtext("termNote[@type='administrativeStatus']") for t in spanish[0].findall("tig")]
        assert statuses.count("preferredTerm-admn-sts") == 1
        assert all(ref.get("target") in ids for ref in entry.findall("ref[@type='crossReference']"))


TBX_BASIC = SHIPPED.parent / "tests" / "fixtures" / "tbx"
_LEVELS = {"termEntry": "termEntry", "langSet": "langSet", "tig": "term"}


def tbx_basic_problems(text: str) -> list[str]:
    """What the published TBX-Basic files (tests/fixtures/tbx: the core structure DTD and the XCS) find wrong in a
    TBX document: DTD errors, and data categories that the XCS does not define for that element, at that level,
    with that value."""
    from lxml import etree

    document = etree.fromstring(text.encode("utf-8"))
    dtd = etree.DTD(str(TBX_BASIC / "TBXBasiccoreStructV02.dtd"))
    problems = [f"DTD, line {e.line}: {e.message}" for e in dtd.error_log] if not dtd.validate(document) else []
    xcs = etree.parse(str(TBX_BASIC / "TBXBasicXCSV02.xcs")).getroot()
    specs = {(spec.tag.removesuffix("Spec"), spec.get("name")): spec for spec in xcs.find("datCatSet")}
    for element in document.iter("descrip", "termNote", "admin", "ref", "xref", "transac", "transacNote"):
        spec = specs.get((element.tag, element.get("type")))
        if spec is None:
            problems.append(f"line {element.sourceline}: {element.tag} type={element.get('type')!r} is not in the XCS")
            continue
        levels = (spec.findtext("levels") or "").split()
        level = next((_LEVELS[a.tag] for a in element.iterancestors() if a.tag in _LEVELS), None)
        if levels and level not in levels:
            problems.append(f"line {element.sourceline}: {element.get('type')} at {level}, the XCS allows {levels}")
        contents = spec.find("contents")
        picklist = (
            (contents.text or "").split() if contents is not None and contents.get("datatype") == "picklist" else None
        )
        if picklist is not None and element.text not in picklist:
            problems.append(f"line {element.sourceline}: {element.text!r} is not a {element.get('type')} value")
    return problems


def test_the_tbx_export_is_valid_tbx_basic_by_the_published_dtd_and_xcs(shipped_glossary):
    glossary = load_glossary_from_texts([("glossary.yaml", META), ("formula.yaml", FORMULA)])
    for exported in (shipped_glossary, glossary):
        assert tbx_basic_problems(interchange.to_tbx(exported)) == []


TERMINOLOGY = """category: Terminología
terms:
  - term: 3D paralelismo
    definition: Combina paralelismo de datos, de tensores y de etapas.
    en: 3D parallelism
    aliases: [paralelismo tridimensional, 3-D parallelism]
    languages: {3-D parallelism: en}
    deprecated: [paralelismo 3-D, paralelismo en 3D]
    note: Lo usan los modelos de miles de millones de parámetros.
    example: Entrenaron el modelo con 3D paralelismo en 512 GPU.
    sources: [{text: Wikipedia, url: "https://es.wikipedia.org/wiki/Paralelismo"}, {text: "Un libro, p. 12"}]
    tags: [escala, modelos grandes]
    related: [Ñandú, Über]
    links: [{title: Documentación, url: "https://example.org/3d"}]
  - term: Ñandú
    definition: A large flightless bird of South America.
    definition_language: en
  - term: Über
    definition: Un mot allemand, dans une définition française.
    definition_language: fr
    en: Uber
    source_id: c-uber
  - term: Élan
    definition: A run-up, in English, beside its English name.
    definition_language: en
    en: Run-up
"""


def terminology() -> Glossary:
    return load_glossary_from_texts([("glossary.yaml", META), ("t.yaml", TERMINOLOGY)])


def test_the_tbx_export_of_everything_an_entry_holds_is_valid_tbx_basic():
    text = interchange.to_tbx(terminology())
    assert tbx_basic_problems(text) == []
    root = ET.fromstring(text)
    ids = [entry.get("id") for entry in root.iter("termEntry")]
    assert ids == ["t-3d-paralelismo", "ñandu", "c-uber", "elan"]  # XML names: its own id, or one from the name
    entry = root.find("text/body/termEntry")
    statuses = {t.findtext("term"): t.findtext("termNote") for t in entry.iter("tig")}
    assert statuses["paralelismo 3-D"] == "deprecatedTerm-admn-sts"
    assert statuses["3D parallelism"] == "preferredTerm-admn-sts"
    english = next(s for s in entry.iter("langSet") if s.get(interchange.XML_LANG) == "en")
    assert [t.findtext("term") for t in english.iter("tig")] == ["3D parallelism", "3-D parallelism"]  # in English
    assert entry.find(".//tig/descrip[@type='context']").text.startswith("Entrenaron")
    assert [a.text for a in entry.iter("admin") if a.get("type") == "source"] == [
        "Wikipedia <https://es.wikipedia.org/wiki/Paralelismo>",
        "Un libro, p. 12",
    ]


@pytest.mark.parametrize("fmt", interchange.FORMATS)
def test_export_then_import_keeps_everything_an_entry_holds(fmt, tmp_path):
    glossary = terminology()
    imported = interchange.read(interchange.export(glossary, fmt), fmt)
    interchange.write_term_files(imported, tmp_path, "Terminología")
    again = load_glossary(tmp_path)

    def held(g: Glossary) -> dict:
        return {t.term: (*(getattr(t, f) for f in HELD), {g.get(i).term for i in t.related}) for t in g}

    assert held(again) == held(glossary)
    expected = interchange.DEFAULT_BASE + "uber" if fmt.startswith("skos") else "c-uber"
    assert again.terms[2].source_id == expected  # a TBX id as itself; in SKOS, the IRI the export gave it
    if fmt in ("csv", "json"):  # a place for every field: the ids it was imported with, and none where it had none
        assert [t.source_id for t in again] == [t.source_id for t in glossary]


HELD = ("definition", "definition_language", "en", "aliases", "links", "note", "example", "sources", "tags")
HELD += ("deprecated", "category", "languages")


# A row of our CSV export, one cell per column of CSV_COLUMNS.
CSV_ROW = ("ein", "Ein", "", "C", "Def.", "", "", "", "", "", "", "", "", "", "", "")


def read_csv_rows(rows: list[list[str]]):
    from bot.app.interchange.csv_in import read_csv

    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return read_csv(out.getvalue())


def test_every_column_of_the_csv_export_is_one_the_csv_import_reads():
    from bot.app.interchange.csv_in import columns

    found = columns(list(interchange.CSV_COLUMNS))
    assert sorted(found.values()) == [i for i, c in enumerate(interchange.CSV_COLUMNS) if c not in ("id", "languages")]
    # "id" is the term's id, derived from its name again; the id it was imported with has its own column
    assert interchange.CSV_COLUMNS[found["id"]] == "source_id"
    # "languages" is read from a file our export wrote (every other column there): another file's is counted
    row = [t if c != "languages" else "en=Ein|=Sin" for c, t in zip(interchange.CSV_COLUMNS, CSV_ROW, strict=True)]
    (entry,) = read_csv_rows([list(interchange.CSV_COLUMNS), row]).entries
    assert entry.languages == {"Ein": "en", "Sin": ""}
    (other,) = (read := read_csv_rows([["term", "definition", "languages"], ["Ein", "Def.", "en=Ein"]])).entries
    assert other.languages == {} and read.dropped == {"languages": 1}


CITED = """category: Citas
terms:
  - term: Cita
    definition: Una definición con fuentes que se parecen a otras.
    links: [{title: La página, url: "https://example.org/a"}]
    sources:
      - {text: "Manual <https://example.org/manual>"}
      - {text: "https://example.org/sola"}
      - {text: "operador <>"}
      - {text: "El libro", url: "https://example.org/a"}
      - {text: "Wikipedia", url: "https://example.org/w"}
      - {text: "https://example.org/x", url: "https://example.org/x"}
  - term: Otra
    definition: Otra definición con el mismo enlace y otro título.
    links: [{title: Otro título, url: "https://example.org/w"}]
"""


NAMED_LIKE_NODES = """category: Redes
terms:
  - term: Categoría Redes
    definition: Un término cuyo id es el de la colección de su categoría.
  - term: Scheme
    definition: Un lenguaje de programación (con una base que acaba en #, su IRI es la del esquema).
"""
ACCENTED_CATEGORY = """category: Visión
terms:
  - term: Píxel
    definition: Un punto de una imagen.
"""
ALIKE_CATEGORY = """category: Vision
terms:
  - term: Vóxel
    definition: Un punto en tres dimensiones (su categoría y «Visión» se escriben igual sin tilde).
"""


@pytest.mark.parametrize("fmt", ["skos", "skos-rdfxml", "skos-jsonld"])
@pytest.mark.parametrize("base", [interchange.DEFAULT_BASE, "https://glosario.example/ia#"])
def test_each_concept_collection_and_the_scheme_has_an_iri_of_its_own(fmt, base):
    files = {"a.yaml": NAMED_LIKE_NODES, "b.yaml": ACCENTED_CATEGORY, "c.yaml": ALIKE_CATEGORY}
    glossary = load_glossary_from_texts([("glossary.yaml", META), *files.items()])
    text = interchange.export(glossary, fmt, base=base)
    graph = Graph().parse(data=text, format={"skos": "turtle", "skos-rdfxml": "xml", "skos-jsonld": "json-ld"}[fmt])
    concepts = set(graph.subjects(RDF.type, SKOS.Concept))
    collections = set(graph.subjects(RDF.type, SKOS.Collection))
    schemes = set(graph.subjects(RDF.type, SKOS.ConceptScheme))
    assert len(concepts) == 4 and len(collections) == 3 and len(schemes) == 1  # S9, S37: disjoint classes
    assert not concepts & collections and not concepts & schemes
    imported = interchange.read(text, fmt)
    assert {e.term: e.category for e in imported.entries} == {t.term: t.category for t in glossary.terms}


@pytest.mark.parametrize("fmt", interchange.FORMATS)
def test_a_source_keeps_its_text_and_address_whatever_the_text_looks_like(fmt):
    """A source without an address whose text ends like "Texto <https://…>" (or is an address, or ends in "<>")
    comes back as that text; an address titled two ways (a link and a source, two links) keeps both titles."""
    glossary = load_glossary_from_texts([("glossary.yaml", META), ("c.yaml", CITED)])
    again = round_trip(glossary, fmt)
    assert [(s.text, s.url) for s in again.terms[0].sources] == [(s.text, s.url) for s in glossary.terms[0].sources]
    assert [t.links for t in again] == [t.links for t in glossary]


@pytest.mark.parametrize("fmt", ["turtle", "xml", "json-ld"])
def test_an_address_titled_two_ways_reads_in_an_independent_rdf_reader_as_both_titles(fmt):
    from rdflib import DCTERMS, RDF, RDFS, Literal, URIRef

    glossary = load_glossary_from_texts([("glossary.yaml", META), ("c.yaml", CITED)])
    ours = {"turtle": "turtle", "xml": "rdf-xml", "json-ld": "json-ld"}[fmt]
    graph = Graph().parse(data=interchange.to_skos(glossary, fmt=ours), format=fmt)
    titled = {
        (str(graph.value(node, RDF.value) or node), str(title))
        for predicate in (RDFS.seeAlso, DCTERMS.source)
        for node in graph.objects(None, predicate)
        for title in graph.objects(node, DCTERMS.title)
    }
    assert {("https://example.org/a", "La página"), ("https://example.org/a", "El libro")} <= titled
    assert {("https://example.org/w", "Wikipedia"), ("https://example.org/w", "Otro título")} <= titled
    assert Literal("Manual <https://example.org/manual>") in set(graph.objects(None, DCTERMS.source))
    assert URIRef("https://example.org/manual") not in set(graph.subjects())


def test_a_csv_our_export_wrote_keeps_names_as_written_and_others_split_nombre_english():
    names = "category: C\nterms:\n  - term: Red (neuronal)\n    definition: Una red.\n    en: Neural network\n"
    glossary = load_glossary_from_texts([("glossary.yaml", META), ("c.yaml", names)])
    exported = interchange.to_csv(glossary)
    (entry,) = interchange.read(exported, "csv").entries
    assert (entry.term, entry.en, entry.aliases, entry.source_id) == ("Red (neuronal)", "Neural network", [], "")
    # without source_id and languages (the last two): not our columns
    without_source_id = "\n".join(line.rsplit(",", 2)[0] for line in exported.splitlines())
    (entry,) = interchange.read(without_source_id, "csv").entries
    assert (entry.term, entry.en, entry.aliases, entry.source_id) == (
        "Red",
        "Neural network",
        ["neuronal"],
        "red-neuronal",
    )


def test_the_tbx_basic_check_finds_what_the_standard_forbids(shipped_glossary):
    text = interchange.to_tbx(shipped_glossary)
    broken = text.replace('type="subjectField"', 'type="subject"', 1).replace("<tig>", "<tig><note/>", 1)
    broken = broken.replace("preferredTerm-admn-sts", "favourite", 1)
    problems = tbx_basic_problems(broken)
    assert any(p.startswith("DTD") for p in problems)  # a note inside a tig before its term
    assert any("type='subject' is not in the XCS" in p for p in problems)
    assert any("'favourite' is not a administrativeStatus value" in p for p in problems)


def test_entries_that_cannot_be_mapped_are_named_and_the_rest_imported(tmp_path, capsys):
    source = tmp_path / "terms.csv"
    source.write_text("term,definition\nBueno,Una definición.\nSin definición,\n,Sin nombre.\n", encoding="utf-8")
    code = main(["import", str(source), "--category", "Importados", "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert code == 1  # something was left out: said, and the exit code says so
    assert "línea 3: falta la definición" in err and "línea 4: falta el nombre" in err
    assert "1 término escrito" in out and "(2 sin importar)" in out
    assert [t.term for t in load_glossary(tmp_path / "out").terms] == ["Bueno"]


@pytest.mark.parametrize(("locale", "line"), [("es_ES.UTF-8", "línea"), ("en_GB.UTF-8", "line")])
def test_a_refused_csv_row_is_placed_in_the_readers_language(tmp_path, capsys, monkeypatch, locale, line):
    from bot.app.interchange.csv_in import read_csv

    monkeypatch.setenv("LC_ALL", locale)
    text = "term,definition\nBueno,Una definición.\nSin definición,\n"
    source = tmp_path / "terms.csv"
    source.write_text(text, encoding="utf-8")
    assert main(["import", str(source), "--json", "--dry-run", "--out", str(tmp_path / "out")]) == 1
    (refused,) = json.loads(capsys.readouterr().out)["refused"]
    assert refused["where"] == f"{line} 3"
    (problem,) = read_csv(text).problems
    assert (problem.spanish, problem.english) == (
        "línea 3: falta la definición; no se ha importado",
        "line 3: the definition is missing; not imported",
    )


def test_the_command_line_exports_to_a_file_and_imports_it_back(tmp_path, capsys):
    out = tmp_path / "glosario.ttl"
    assert main(["export", "--format", "skos", "--out", str(out)]) == 0
    assert main(["import", str(out), "--category", "Distribuido", "--out", str(tmp_path / "back")]) == 0
    assert main(["validate", str(tmp_path / "back")]) == 0
    assert "17 términos" in capsys.readouterr().out
    assert content(load_glossary(tmp_path / "back")) == content(load_glossary(SHIPPED))


# -- a JSON file the schema refuses: sentences with the place, never a traceback ------------------------------

ONE_TERM = {
    "id": "bueno",
    "term": "Bueno",
    "definition": "Una definición.",
    "category": "C",
    "en": None,
    "aliases": [],
    "related": [],
    "links": [],
}


OPTIONAL = ("note", "example", "sources", "tags", "source_id", "definition_language", "deprecated")


def json_document(*terms: object) -> str:
    return json.dumps({"title": "T", "subtitle": "S", "language": "es", "terms": list(terms)})


def import_json(tmp_path, text: str) -> tuple[int, str, str]:
    """`glosario-bot import FILE.json --category X`: exit code, what it printed, what it complained about."""
    import contextlib

    source = tmp_path / "entrada.json"
    source.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["import", str(source), "--category", "X", "--out", str(tmp_path / "out")])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("document", "said"),
    [
        (json_document({**ONE_TERM, "links": [1]}), "término 1: /terms/0/links/0 debe ser un objeto, no un número"),
        (json_document({**ONE_TERM, "aliases": 5}), "término 1: /terms/0/aliases debe ser una lista, no un número"),
        (json_document({**ONE_TERM, "aliases": ["a", 3]}), "/terms/0/aliases/1 debe ser texto, no un número"),
        (json_document({**ONE_TERM, "term": None}), "/terms/0/term debe ser texto, no null"),
        (json_document({**ONE_TERM, "links": [{"title": "T", "url": ["https://x.org"]}]}), "/terms/0/links/0/url"),
        (json_document(7), "término 1: /terms/0 debe ser un objeto, no un número; no se ha importado"),
        (json_document({"term": "A", "definition": "D."}), '/terms/0 no tiene "id", "category", "en", "aliases"'),
        (json_document({**ONE_TERM, "defintion": "D."}), '"defintion": ¿querías decir "definition"?'),
        (json_document({**ONE_TERM, "sources": [{"url": "https://x.org"}]}), '/terms/0/sources/0 no tiene "text"'),
        (json_document({**ONE_TERM, "sources": [{"text": "T", "url": "x.org"}]}), "/terms/0/sources/0/url"),
        (json_document({**ONE_TERM, "deprecated": "viejo"}), "/terms/0/deprecated debe ser una lista, no texto"),
        (json_document({**ONE_TERM, "tags": ["a", "a"]}), "/terms/0/tags tiene elementos repetidos"),
        (json_document({**ONE_TERM, "definition_language": "inglés"}), "debe ser una etiqueta de idioma (BCP 47)"),
        ('["no", "es", "un", "glosario"]', "el documento debe ser un objeto, no una lista; no se ha importado nada"),
        ('{"title": "T", "subtitle": "S", "language": "es", "terms": {"a": 1}}', "/terms debe ser una lista"),
        ('{"terms": []}', 'el documento no tiene "title", "subtitle", "language", que son obligatorios'),
        (json_document({**ONE_TERM, "term": "A\ud800"}), "/terms/0/term contiene U+D800, media pareja de UTF-16"),
        (json_document({**ONE_TERM, "\udc00": 1}), '/terms/0 tiene una clave desconocida, "\\udc00"'),
        ('{"title": ' + "1" * 5000 + "}", "JSON ilegible: un número tiene más de 4300 cifras"),
    ],
)
def test_a_json_file_the_schema_refuses_is_answered_with_sentences_naming_the_place(tmp_path, document, said):
    code, _, err = import_json(tmp_path, document)
    assert code == 1 and said in err and "Traceback" not in err
    err.encode("utf-8")  # (a terminal cannot print half a UTF-16 pair)


def test_the_entries_the_schema_accepts_are_imported_and_the_others_named(tmp_path):
    code, out, err = import_json(tmp_path, json_document({**ONE_TERM, "aliases": 5}, ONE_TERM))
    assert code == 1  # something was left out
    source = tmp_path / "entrada.json"
    assert f"{source}: término 1: /terms/0/aliases debe ser una lista, no un número; no se ha importado\n" in err
    assert "término 2" not in err and "(1 sin importar)" in out
    assert [t.term for t in load_glossary(tmp_path / "out").terms] == ["Bueno"]


def test_the_json_summary_adds_up_when_an_entry_is_refused_after_it_was_read(tmp_path, capsys):
    source = tmp_path / "dos.json"
    second = {**ONE_TERM, "id": "malo", "term": "Malo", "definition": "Otra."}
    source.write_text(json_document({**ONE_TERM, "aliases": ["Malo"]}, second), encoding="utf-8")
    assert main(["import", str(source), "--out", str(tmp_path / "out"), "--json"]) == 1
    summary = json.loads(capsys.readouterr().out)  # "Malo" is refused: it is the first entry's alias
    assert (summary["read"], summary["imported"], len(summary["refused"])) == (2, 1, 1)
    assert summary["refused"][0]["reason"] == sentence("name_taken_by_entry", name="Malo", first="Bueno").text("es")


def test_json_entries_of_one_name_import_as_one_term_with_its_senses_each_counted(tmp_path, capsys):
    source = tmp_path / "dos.json"
    source.write_text(json_document(ONE_TERM, {**ONE_TERM, "definition": "Otra.", "category": "D"}), encoding="utf-8")
    assert main(["import", str(source), "--out", str(tmp_path / "out"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["read"], summary["imported"], summary["refused"]) == (2, 2, [])
    (term,) = load_glossary(tmp_path / "out").terms
    assert (term.definition, term.category) == ("Una definición.", "C")
    assert [(s.definition, s.category) for s in term.senses] == [("Otra.", "D")]


def test_a_json_file_written_before_the_terminology_fields_still_imports(tmp_path):
    code, _, _ = import_json(tmp_path, json_document(ONE_TERM))  # no note, example, sources, tags…
    (term,) = load_glossary(tmp_path / "out").terms
    assert code == 0 and (term.term, term.note, term.sources, term.deprecated) == ("Bueno", "", (), ())


def test_the_json_import_speaks_english_to_an_english_locale(tmp_path, monkeypatch):
    monkeypatch.setenv("LC_ALL", "en_GB.UTF-8")
    code, _, err = import_json(tmp_path, json_document({**ONE_TERM, "aliases": 5}, {**ONE_TERM, "defintion": "D."}))
    assert code == 1
    assert "term 1: /terms/0/aliases must be a list, not a number; not imported" in err
    assert 'term 2: /terms/1 has an unknown key, "defintion": did you mean "definition"?; not imported' in err
    assert "término" not in err and "debe" not in err


@pytest.mark.parametrize(
    "document",
    [
        "[" * 100_000 + "]" * 100_000,  # past the parser's own recursion limit
        json_document({**ONE_TERM, "aliases": ["[" * 900 + "]" * 900]}).replace('"[', "[").replace(']"', "]"),
    ],
    ids=["100000-lists", "900-lists-in-an-entry"],
)
def test_a_json_file_nested_deeper_than_any_glossary_is_refused_with_a_sentence(tmp_path, document):
    code, _, err = import_json(tmp_path, document)
    assert code == 1 and "el JSON está anidado a más de 64 niveles" in err and "Traceback" not in err


any_text = st.text(st.characters(exclude_categories=()), max_size=8)  # halves of UTF-16 pairs included
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3),
    max_leaves=12,
)
entries = st.builds(
    lambda changes: {**ONE_TERM, **changes},
    st.dictionaries(st.sampled_from([*ONE_TERM, *OPTIONAL, "defintion"]), json_values, max_size=3),
)
documents = json_values | st.fixed_dictionaries(
    {"title": json_values, "subtitle": json_values, "language": json_values, "terms": st.lists(entries | json_values)}
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents)
def test_any_json_document_is_imported_or_refused_with_sentences_that_can_be_printed(document):
    import tempfile
    from pathlib import Path

    imported = interchange.read(json.dumps(document), "json")
    for spanish, english in imported.problems:
        (spanish + english).encode("utf-8")  # what the command line prints
        assert spanish.startswith(("término ", "el documento ", "/")) and english.startswith(("term ", "the ", "/"))
    with tempfile.TemporaryDirectory() as folder:
        interchange.write_term_files(imported, Path(folder), "X")


near_documents = st.fixed_dictionaries(
    {"title": st.just("T") | json_values, "subtitle": st.just("S"), "language": st.just("es") | any_text},
    optional={"terms": st.lists(entries, max_size=3), "extra": json_values},
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents | near_documents)
def test_the_quick_schema_check_passes_only_what_jsonschema_accepts(document):
    from bot.app.interchange.schema_problems import _quick_check, _validator

    accepts = _quick_check()
    assert accepts is not None  # the schema uses only keywords it knows: large imports skip jsonschema
    if accepts(document):
        assert not list(_validator().iter_errors(document))


def test_the_quick_schema_check_passes_an_export_with_every_field_filled(shipped_glossary):
    from bot.app.interchange.schema_problems import _quick_check

    assert _quick_check()(json.loads(interchange.to_json(terminology())))
    assert _quick_check()(json.loads(interchange.to_json(shipped_glossary)))


def test_every_rule_of_the_json_schema_has_its_own_sentence():
    from bot.app.interchange.schema_problems import DESCRIBED

    schema = json.loads(resources.files("bot.app.interchange").joinpath("schemas/glossary.schema.json").read_text())
    # Keywords that only annotate, or only lead to the rules of what they contain.
    leading = {"$schema", "$id", "title", "properties", "items"}
    used, stack = set(), [schema]
    while stack:
        node = stack.pop()
        used |= set(node) - leading
        stack += [v for k, v in node.items() if k == "items" and isinstance(v, dict)]
        stack += [v for k, v in node.items() if k == "properties" for v in v.values()]
    assert used and used <= DESCRIBED, used - DESCRIBED


# -- every text `validate` accepts goes out in every format and comes back the same -------------------------


def said(glossary: Glossary, fmt: str = "") -> dict[str, tuple]:
    """What a glossary says, term by term, links included (related terms by name: ids are derived), and what
    real terminology carries beside; the id it was imported with where the format has a place for every one
    (CSV, JSON: TBX and SKOS give one to every entry)."""
    return {
        t.term: (
            t.definition,
            t.definition_language,
            t.category,
            t.en,
            tuple(sorted(t.aliases)),
            tuple(sorted(glossary.get(i).term for i in t.related)),
            tuple(sorted((link.title, link.url) for link in t.links)),
            t.note,
            t.example,
            t.sources,
            t.tags,
            t.deprecated,
            *((t.source_id,) if fmt in ("csv", "json") else ()),
            tuple(sorted(_languages_in(t, fmt))),
        )
        for t in glossary.terms
    }


def _languages_in(term, fmt: str) -> list[tuple[str, str]]:
    """The languages a format says of a term's texts: TBX only those of its names (each langSet's), and a name in
    no language is in the glossary's there."""
    if fmt != "tbx":
        return list(term.languages)
    return [(text, language) for text, language in term.languages if text in term.aliases and language]


def round_trip(glossary: Glossary, fmt: str) -> Glossary:
    """Out in `fmt`, back in as `glosario-bot import` writes term files (one per category), and loaded as
    `glosario-bot validate` loads them."""
    import tempfile
    from pathlib import Path

    from bot.app.interchange import imports

    imported = interchange.read(interchange.export(glossary, fmt), fmt)
    assert imported.problems == []
    summary = imports.report(imported)
    assert summary.refused == [] and summary.dropped == {}
    with tempfile.TemporaryDirectory() as folder:
        imports.write(Path(folder), summary.files, summary.title, "es", summary.languages)
        return load_glossary(Path(folder))


def glossary_saying(text: str, url: str = "https://example.org/a") -> Glossary:
    """A glossary with `text` in every field a term has, and a second term relating to the first by its name."""
    import yaml

    first = {
        "term": f"{text} 1",
        "definition": f"{text}\ncon otra línea y\tun tabulador: {text}",
        "en": f"{text} en",
        "aliases": [f"{text} alias", f"alias {text}"],
        "links": [{"title": text, "url": url}],
        "note": f"nota {text}",
        "example": f"ejemplo {text}",
        "sources": [
            {"text": f"fuente {text}", "url": url + "/fuente"},
            {"text": f"{text}, p. 12"},
            {"text": f"cita {text}", "url": url},  # the link's address, with another title
            {"text": f"{text} <{url}/no>"},  # a text ending as an address would, without one
        ],
        "tags": [f"etiqueta {text}", f"{text}; y, más"],
        "deprecated": [f"{text} evitado"],
        "definition_language": "en",
        "source_id": f"id {text}",
        "languages": {f"alias {text}": "en", f"nota {text}": ""},  # an English alias, a note in no language
    }
    second = {"term": "Otro", "definition": "Otro término.", "related": [first["term"]]}
    terms = yaml.safe_dump({"category": f"{text} categoría", "terms": [first, second]}, allow_unicode=True)
    title = f"Título {text}"
    meta = {"title": title, "subtitle": "S", "language": "es", "languages": {title: ""}}  # a title in no language
    meta = yaml.safe_dump(meta, allow_unicode=True)
    return load_glossary_from_texts([("glossary.yaml", meta), ("a.yaml", terms)])


HOSTILE = [
    "comillas \"dobles\" y 'simples'",
    "<b>etiqueta</b> & &amp; ]]> <![CDATA[",
    "emoji 🤖🧠 y banderas 🇪🇸",
    "עברית עם RTL",
    "بالعربية",
    "a|b|c",  # the CSV's list separator
    "barra \\ invertida \\| y \\\\",
    "'-ing, '=1+1 y ''@x",  # what a spreadsheet would run, after apostrophes
    "=1+1",
    "@suma",
    "-menos",
    "Diseño con ñ",
    "título <https://example.org/falso>",
    "{llaves} [corchetes] ^ ` ~",
    "null",
    "#comentario",
    "x" * 200,
    "\U0010fffd plano 16 y \ufdd0",
    "nbsp\u00a0y\u2028separador",
]


@pytest.mark.parametrize("fmt", interchange.FORMATS)
@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_every_text_validate_accepts_comes_back_the_same_from_every_format(fmt, text):
    glossary = glossary_saying(text)
    again = round_trip(glossary, fmt)
    assert said(again, fmt) == said(glossary, fmt)
    if fmt != "csv":  # (a spreadsheet has no place for the glossary's own title)
        assert again.title == glossary.title
    if fmt not in ("csv", "tbx"):  # (TBX writes its header in the file's language)
        assert again.languages == glossary.languages == ((glossary.title, ""),)


def test_the_longest_texts_validate_accepts_come_back_the_same():
    import yaml

    term = {"term": "Largo " + "n" * 250, "definition": ("palabra " * 511).strip(), "aliases": ["a" * 1000]}
    text = yaml.safe_dump({"category": "C", "terms": [term]}, allow_unicode=True, width=10_000)
    glossary = load_glossary_from_texts([("glossary.yaml", META), ("a.yaml", text)])
    for fmt in interchange.FORMATS:
        assert said(round_trip(glossary, fmt), fmt) == said(glossary, fmt)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=24))
@example(text="0E")  # an id "0e-1": text to PyYAML, a number to the loader (found by hypothesis)
def test_any_text_validate_accepts_comes_back_the_same_from_every_format(text):
    try:
        glossary = glossary_saying(text)
    except GlossaryError:
        return  # refused by `validate` (control characters, invisible ones, no letters…): never exported
    for fmt in interchange.FORMATS:
        assert said(round_trip(glossary, fmt), fmt) == said(glossary, fmt), fmt


URL_CHARACTERS = st.sampled_from([*"aZ09-._~:/?#[]@!$&'()*+,;=%\"<>\\{}|^` ñ\t", "%20", "%C3%B1", "%zz"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tail=st.lists(URL_CHARACTERS, max_size=12).map("".join))
@example(tail="a';;'")  # (the CSV's delimiter was sniffed as ";" from the cells: the header was not read)
def test_every_link_validate_accepts_goes_out_and_comes_back_in_every_format(tail):
    try:
        glossary = glossary_saying("Enlace", url="https://example.org/" + tail)
    except GlossaryError as exc:  # refused: and then said, with the line of the url
        problems = [p.line > 0 and "no es una URL http(s) válida" in p.message for p in exc.problems]
        assert problems and all(problems)  # the link's, the source's or both
        return
    for fmt in interchange.FORMATS:
        assert said(round_trip(glossary, fmt), fmt) == said(glossary, fmt), fmt
