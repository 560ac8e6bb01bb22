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
from rdflib import RDF, SKOS, Graph

from bot.app import interchange
from bot.app.files import load_glossary
from bot.cli import main
from bot.core.loader import load_glossary_from_texts
from bot.core.model import Glossary
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
    schema = json.loads(resources.files("bot.app").joinpath("schemas/glossary.schema.json").read_text())
    jsonschema.validate(json.loads(interchange.to_json(shipped_glossary)), schema)


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
    assert "1 términos escritos" in out and "(2 sin importar)" in out
    assert [t.term for t in load_glossary(tmp_path / "out").terms] == ["Bueno"]


def test_the_command_line_exports_to_a_file_and_imports_it_back(tmp_path, capsys):
    out = tmp_path / "glosario.ttl"
    assert main(["export", "--format", "skos", "--out", str(out)]) == 0
    assert main(["import", str(out), "--category", "Distribuido", "--out", str(tmp_path / "back")]) == 0
    assert main(["validate", str(tmp_path / "back")]) == 0
    assert "17 términos" in capsys.readouterr().out
    assert content(load_glossary(tmp_path / "back")) == content(load_glossary(SHIPPED))
