"""Several senses under one name, across the application: every export writes a sense as its own entry
(termEntry, Concept, row, JSON term) with its own id, every import gathers entries of one name as its senses, so
that import → export → import loses nothing; the summary counts senses; the web page lists them."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from rdflib import RDF, SKOS, Graph

from bot.app.interchange import formats as interchange
from bot.app.interchange import site
from bot.app.interchange.entries import Entry
from bot.app.interchange.imports import claim_names, report
from bot.core.loader import load_glossary_from_texts
from bot.core.model import Glossary
from tests.app.test_interchange import round_trip, tbx_basic_problems
from tests.core.test_senses import META, VALID


def senses_glossary() -> Glossary:
    return load_glossary_from_texts([("glossary.yaml", META), ("a.yaml", VALID)])


def held(glossary: Glossary, fmt: str) -> dict:
    """Everything a term's senses say, related terms by name; each sense's id in its source where the format has
    a place for every one (CSV, JSON: TBX and SKOS give an id to every entry they write)."""
    return {
        t.term: (
            t.en,
            t.aliases,
            t.tags,
            [
                (
                    s.definition,
                    s.category,
                    sorted(glossary.get(i).term for i in s.related),
                    s.note,
                    s.example,
                    s.sources,
                    s.definition_language,
                    *((s.source_id,) if fmt in ("csv", "json") else ()),
                )
                for s in t.all_senses()
            ],
        )
        for t in glossary
    }


@pytest.mark.parametrize("fmt", interchange.FORMATS)
def test_import_export_import_keeps_every_sense_in_every_format(fmt):
    glossary = senses_glossary()
    again = round_trip(glossary, fmt)
    assert held(again, fmt) == held(glossary, fmt)
    if fmt == "tbx":  # the id the second sense was imported with, written and read again (an XML name)
        assert again.get("modelo").senses[0].source_id == "m-2"


@pytest.mark.parametrize("fmt", interchange.FORMATS)
def test_the_import_summary_counts_each_sense(fmt):
    summary = report(interchange.read(interchange.export(senses_glossary(), fmt), fmt))
    assert (summary.read, summary.imported, summary.refused, summary.dropped) == (4, 4, [], {})


def test_the_tbx_export_writes_a_term_entry_per_sense_valid_by_the_dtd():
    import xml.etree.ElementTree as ET

    text = interchange.to_tbx(senses_glossary())
    assert tbx_basic_problems(text) == []
    entries = ET.fromstring(text).findall("text/body/termEntry")
    assert [e.get("id") for e in entries] == ["modelo", "m-2", "datos", "parametro"]
    assert [e.findtext("langSet/tig/term") for e in entries[:2]] == ["Modelo", "Modelo"]
    assert entries[1].findtext("descrip[@type='subjectField']") == "Estadística"


@pytest.mark.parametrize("fmt", ["turtle", "xml", "json-ld"])
def test_the_skos_export_writes_a_concept_per_sense_that_an_independent_reader_reads(fmt):
    ours = {"turtle": "turtle", "xml": "rdf-xml", "json-ld": "json-ld"}[fmt]
    graph = Graph().parse(data=interchange.to_skos(senses_glossary(), fmt=ours), format=fmt)
    concepts = set(graph.subjects(RDF.type, SKOS.Concept))
    assert len(concepts) == 4
    named = [c for c in concepts if any(str(label) == "Modelo" for label in graph.objects(c, SKOS.prefLabel))]
    assert sorted(str(c).rsplit("/", 1)[-1] for c in named) == ["modelo", "modelo-sentido-2"]
    for concept in concepts:  # S14 holds for each: one prefLabel per language
        languages = [label.language for label in graph.objects(concept, SKOS.prefLabel)]
        assert len(languages) == len(set(languages))


def test_the_csv_and_json_exports_write_a_row_per_sense_with_an_id_of_its_own():
    import csv
    import io
    import json

    rows = list(csv.DictReader(io.StringIO(interchange.to_csv(senses_glossary()))))
    assert [(r["id"], r["term"], r["category"]) for r in rows[:2]] == [
        ("modelo", "Modelo", "Aprendizaje"),
        ("modelo-sentido-2", "Modelo", "Estadística"),
    ]
    terms = json.loads(interchange.to_json(senses_glossary()))["terms"]
    assert [(t["id"], t["definition"][:11]) for t in terms[:2]] == [
        ("modelo", "Función apr"),
        ("modelo-sentido-2", "Representac"),
    ]


def test_an_entry_of_a_name_taken_becomes_a_sense_and_its_forms_join_the_names():
    first = Entry("Modelo", "Uno.", en="Model", category="A", aliases=["modelo de IA"], source_id="1")
    second = Entry("modelo", "Dos.", en="Template", category="B", aliases=["plantilla"], tags=["t"], source_id="2")
    dropped: Counter = Counter()
    (kept,) = claim_names([first, second], [], dropped)
    assert (kept.en, kept.aliases, kept.tags) == ("Model", ["modelo de IA", "plantilla"], ["t"])
    assert [(s.definition, s.category, s.source_id) for s in kept.senses] == [("Dos.", "B", "2")]
    assert dropped == {"en (another sense's)": 1}  # a name has one English name: the other one is counted


def test_a_refused_term_of_several_senses_counts_each_sense_as_refused():
    first = Entry("Modelo", "Uno.", where="1")
    second = Entry("Modelo", "Dos.", where="2", related=["Modelo"])
    third = Entry("Modelo", "x" * 5000, where="3")  # over Discord's limit: the term cannot be written
    summary = report(interchange.Imported([first, second, third], [], read=3))
    assert summary.imported == 0 and [r.place for r in summary.refused] == ["1", "2", "3"]
    assert summary.read == summary.imported + len(summary.refused)


class _Senses(HTMLParser):
    """The text of each item of the page's lists of senses, by the term's article id."""

    def __init__(self) -> None:
        super().__init__()
        self.article, self.depth, self.found = "", 0, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.article = attrs.get("id", "")
        elif tag == "ol" and attrs.get("class") == "sentidos":
            self.found[self.article] = []
        elif tag == "li" and self.article in self.found and self.depth == 0:
            self.found[self.article].append("")
        if tag == "ul":
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "ul":
            self.depth -= 1

    def handle_data(self, data):
        if self.found.get(self.article):
            self.found[self.article][-1] += data


def test_the_web_page_lists_each_sense_with_what_it_has_of_its_own():
    parser = _Senses()
    parser.feed(site.render(senses_glossary()))
    assert list(parser.found) == ["modelo"]  # a term of one sense has no list
    first, second = parser.found["modelo"]
    assert first.startswith("Función aprendida") and "Nota: La acepción común." in first and "Datos" in first
    assert second.startswith("Estadística") and "Representación matemática" in second
    assert "Ejemplo: Un modelo lineal." in second and "Libro" in second and "Parámetro" in second
