"""Real glossaries written by others (tests/fixtures/real, see PROVENANCE.md there): every entry imported or
refused with a reason, the counts add up, fields not kept are counted, and `validate` accepts what was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.app.files import load_glossary
from bot.cli import main

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"


def run_import(tmp_path, capsys, name: str, *options: str) -> tuple[int, dict]:
    code = main(["import", str(REAL / name), "--out", str(tmp_path / "out"), "--json", *options])
    return code, json.loads(capsys.readouterr().out)


def adds_up(summary: dict) -> None:
    assert summary["read"] == summary["imported"] + len(summary["refused"])
    assert all(r["entry"] and r["where"] and r["reason"] for r in summary["refused"])


@pytest.mark.parametrize(
    ("name", "options", "read", "imported"),
    [
        ("lisa-tbx-basic-sample.tbx", ("--lang", "en"), 5, 3),  # TBX v2 (martif, tig), LISA's sample
        ("weblate-fr-extended-metadata.tbx", ("--lang", "en"), 2, 1),  # martif in the ISO namespace, Weblate
        ("glossaria.csv", (), 155, 155),  # term_es, short_es, long_es, … (comma, UTF-8)
        ("glossaria-excel-es.csv", (), 40, 40),  # No;Concepto;Definición;Ejemplo (semicolons, Windows-1252)
        ("microsoft-style-senses.tbx", ("--lang", "en"), 5, 5),  # ntig/termGrp, names with several entries
    ],
)
def test_every_entry_of_a_real_file_is_imported_or_refused_and_what_is_written_validates(
    tmp_path, capsys, name, options, read, imported
):
    code, summary = run_import(tmp_path, capsys, name, *options)
    adds_up(summary)
    assert (summary["read"], summary["imported"]) == (read, imported)
    assert code == (0 if read == imported else 1)
    assert sum(1 + len(term.senses) for term in load_glossary(tmp_path / "out")) == imported  # senses count one each


def test_a_tbx_without_the_chosen_language_is_refused_naming_the_languages_it_has(tmp_path, capsys):
    code = main(["import", str(REAL / "lisa-tbx-basic-sample.tbx"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1 and not (tmp_path / "out").exists()
    assert "en (5), fr (3), de (1)" in err and "--lang en" in err


def test_tbx_statuses_sources_notes_and_cross_references_are_kept(tmp_path, capsys):
    run_import(tmp_path, capsys, "lisa-tbx-basic-sample.tbx", "--lang", "en")
    glossary = load_glossary(tmp_path / "out")
    lens = next(t for t in glossary if t.term == "progressive lens")
    assert lens.aliases == ("progressive addition lens", "progressive power lens")
    assert lens.deprecated == ("PAL", "graduated lens")  # deprecatedTerm and supersededTerm: "Evita"
    assert lens.source_id == "c7" and lens.sources[0].text == "Wikipedia"
    scheduled = next(t for t in glossary if t.term == "scheduled operation")
    assert scheduled.category == "manufacturing" and [glossary.get(i).term for i in scheduled.related]
    assert "\n" not in lens.definition  # the file's own line wrapping is not kept


def test_the_iso_namespace_is_read_and_an_entry_with_only_deprecated_forms_is_refused_with_its_reason(tmp_path, capsys):
    _, summary = run_import(tmp_path, capsys, "weblate-fr-extended-metadata.tbx", "--lang", "en")
    (refused,) = summary["refused"]
    assert refused["entry"] == "e001" and "desaconsejadas" in refused["reason"]
    assert summary["dropped"]["descrip[Translation needed]"] == 2


def test_a_spanish_csv_maps_its_columns_and_splits_nombre_english(tmp_path, capsys):
    _, summary = run_import(tmp_path, capsys, "glossaria.csv")
    assert summary["dropped"]["status"] == 155 and "term_es" not in summary["dropped"]
    glossary = load_glossary(tmp_path / "out")
    federated = next(t for t in glossary if t.source_id == "federated_learning")
    assert (federated.term, federated.en) == ("Aprendizaje federado", "Federated Learning")
    assert federated.example and federated.tags and federated.category


def test_a_csv_saved_by_a_spanish_excel_is_read_as_windows_1252_with_semicolons(tmp_path, capsys):
    run_import(tmp_path, capsys, "glossaria-excel-es.csv")
    names = {t.term for t in load_glossary(tmp_path / "out")}
    assert "Función de activación" in names  # accents read right, not mojibake


def test_import_never_overwrites_unless_asked_and_a_dry_run_writes_nothing(tmp_path, capsys):
    source = str(REAL / "glossaria-excel-es.csv")
    assert main(["import", source, "--out", str(tmp_path / "dry"), "--dry-run"]) == 0
    assert not (tmp_path / "dry").exists()
    assert main(["import", source, "--out", str(tmp_path / "out")]) == 0
    assert "glosario-bot validate " + str(tmp_path / "out") in capsys.readouterr().out
    assert main(["import", source, "--out", str(tmp_path / "out")]) == 1
    assert "--replace" in capsys.readouterr().err
    assert main(["import", source, "--out", str(tmp_path / "out"), "--replace"]) == 0


def test_csv_columns_can_be_named_with_map(tmp_path, capsys):
    source = tmp_path / "g.csv"
    source.write_text("Palabra clave\tQué es\tEn inglés\nRed neuronal\tUn modelo.\tNeural network\n", encoding="utf-8")
    code = main(
        ["import", str(source), "--out", str(tmp_path / "out"), "--map", "name=Palabra clave,definition=2,english=3"]
    )
    assert code == 0
    (term,) = load_glossary(tmp_path / "out").terms
    assert (term.term, term.definition, term.en) == ("Red neuronal", "Un modelo.", "Neural network")


# -- SKOS: COAR's vocabularies (CC0), labels in about twenty languages -----------------------------------------


@pytest.mark.parametrize(
    ("name", "read", "imported"),
    [
        ("coar-access-rights.nt", 4, 4),  # 17 languages; Spanish labels, English definitions only
        ("coar-resource-types-slice.nt", 12, 11),  # 27 languages, broader/narrower; one concept has no Spanish
    ],
)
def test_every_concept_of_a_real_skos_file_is_imported_or_refused_and_what_is_written_validates(
    tmp_path, capsys, name, read, imported
):
    code, summary = run_import(tmp_path, capsys, name)
    adds_up(summary)
    assert (summary["read"], summary["imported"]) == (read, imported)
    assert code == (0 if read == imported else 1)
    assert sum(1 + len(term.senses) for term in load_glossary(tmp_path / "out")) == imported  # senses count one each


def test_skos_labels_go_by_language_and_no_other_language_becomes_an_alias(tmp_path, capsys):
    _, summary = run_import(tmp_path, capsys, "coar-access-rights.nt")
    glossary = load_glossary(tmp_path / "out")
    embargo = next(t for t in glossary if t.source_id == "http://purl.org/coar/access_right/c_f1cf")
    assert embargo.term == "acceso embargado" and embargo.en == "embargoed access"
    assert "depósito oscuro" in embargo.aliases  # altLabel@es
    assert not {"sous embargo", "accès libre retardé", "доступ с эмбарго"} & set(embargo.aliases)
    assert embargo.definition.startswith("Embargoed access") and embargo.definition_language == "en"
    # every label in another language is counted, by property and language (4 concepts, one prefLabel@fr each)
    assert summary["dropped"]["skos:prefLabel@fr"] == 4 and summary["dropped"]["skos:altLabel@fr"] == 15
    assert summary["dropped"]["skos:relatedMatch"] == 5 and summary["dropped"]["skos:editorialNote@en"] == 4


def test_skos_broader_and_narrower_become_related_and_a_concept_without_a_spanish_name_is_refused(tmp_path, capsys):
    _, summary = run_import(tmp_path, capsys, "coar-resource-types-slice.nt")
    (refused,) = summary["refused"]
    assert refused["entry"].endswith("EHVM-H119") and "«es»" in refused["reason"] and "en" in refused["reason"]
    glossary = load_glossary(tmp_path / "out")
    article = next(t for t in glossary if t.term == "artículo")
    assert {glossary.get(i).term for i in article.related} >= {"revista", "artículo original", "corrigenda"}
    interview = next(t for t in glossary if t.source_id.endswith("c_26e4"))
    assert interview.term == "entrevista"  # no prefLabel@es: its altLabel@es names it
    assert summary["dropped"]["related (to an entry not imported)"] == 20  # text's narrower concepts outside the slice


def test_a_skos_file_without_the_chosen_language_is_refused_naming_the_languages_it_has(tmp_path, capsys):
    code = main(["import", str(REAL / "coar-access-rights.nt"), "--out", str(tmp_path / "out"), "--lang", "eu"])
    err = capsys.readouterr().err
    assert code == 1 and not (tmp_path / "out").exists()
    assert "en (4)" in err and "es (4)" in err and "--lang" in err


@pytest.mark.parametrize(("fmt", "suffix"), [("xml", "rdf"), ("json-ld", "jsonld"), ("turtle", "ttl")])
def test_the_same_vocabulary_as_rdf_xml_json_ld_or_turtle_imports_the_same(tmp_path, capsys, fmt, suffix):
    """The real file rewritten by rdflib (an independent RDF library) in each syntax."""
    from rdflib import Graph

    source = tmp_path / f"vocabulary.{suffix}"
    source.write_text(Graph().parse(REAL / "coar-resource-types-slice.nt").serialize(format=fmt), encoding="utf-8")
    _, from_nt = run_import(tmp_path / "nt", capsys, "coar-resource-types-slice.nt")
    main(["import", str(source), "--out", str(tmp_path / "other"), "--json"])
    assert json.loads(capsys.readouterr().out) == from_nt
    assert held(load_glossary(tmp_path / "other")) == held(load_glossary(tmp_path / "nt" / "out"))


# -- import → export → import: nothing the entry model holds is lost ------------------------------------------


def held(glossary) -> dict[str, tuple]:
    """Everything a glossary's terms hold (related terms by name, lists as sets: RDF has no order)."""
    return {
        t.term: (
            t.definition,
            t.definition_language,
            t.category,
            t.en,
            frozenset(t.aliases),
            frozenset(glossary.get(i).term for i in t.related),
            frozenset(t.links),
            t.note,
            t.example,
            frozenset(t.sources),
            frozenset(t.tags),
            t.source_id,
            frozenset(t.deprecated),
        )
        for t in glossary
    }


@pytest.mark.parametrize(
    ("name", "options", "fmt"),
    [
        ("coar-access-rights.nt", (), "skos"),
        ("coar-resource-types-slice.nt", (), "skos"),
        ("coar-resource-types-slice.nt", (), "skos-rdfxml"),
        ("coar-resource-types-slice.nt", (), "skos-jsonld"),
        ("lisa-tbx-basic-sample.tbx", ("--lang", "en"), "tbx"),
        ("lisa-tbx-basic-sample.tbx", ("--lang", "fr"), "tbx"),
        ("weblate-fr-extended-metadata.tbx", ("--lang", "en"), "tbx"),
        ("lisa-tbx-basic-sample.tbx", ("--lang", "en"), "json"),
        ("coar-resource-types-slice.nt", (), "json"),
        ("glossaria.csv", (), "json"),
        ("glossaria.csv", (), "csv"),
        ("glossaria-excel-es.csv", (), "csv"),
        ("lisa-tbx-basic-sample.tbx", ("--lang", "en"), "csv"),
        ("weblate-fr-extended-metadata.tbx", ("--lang", "en"), "csv"),
        ("coar-resource-types-slice.nt", (), "csv"),
        ("coar-access-rights.nt", (), "csv"),
    ],
)
def test_import_export_import_of_a_real_file_loses_nothing_the_model_holds(tmp_path, capsys, name, options, fmt):
    from bot.app.interchange.formats import FORMATS

    assert fmt in FORMATS
    run_import(tmp_path, capsys, name, *options)
    first = load_glossary(tmp_path / "out")
    exported = tmp_path / "again"
    assert main(["export", "--data", str(tmp_path / "out"), "--format", fmt, "--out", str(exported)]) == 0
    capsys.readouterr()
    assert main(["import", str(exported), "--format", fmt, "--out", str(tmp_path / "back"), *options]) == 0
    assert held(load_glossary(tmp_path / "back")) == held(first)


def test_the_skos_export_of_an_imported_vocabulary_keeps_its_iris_and_tags_every_literal_truly(tmp_path, capsys):
    from rdflib import RDF, SKOS, Graph, Literal, URIRef

    run_import(tmp_path, capsys, "coar-access-rights.nt")
    glossary = load_glossary(tmp_path / "out")
    out = tmp_path / "again.ttl"
    assert main(["export", "--data", str(tmp_path / "out"), "--format", "skos", "--out", str(out)]) == 0
    graph = Graph().parse(out)  # an independent RDF reader
    concepts = set(graph.subjects(RDF.type, SKOS.Concept))
    assert concepts == {URIRef(t.source_id) for t in glossary}  # the vocabulary's own IRIs, not new ones
    for term in glossary:
        concept = URIRef(term.source_id)
        assert set(graph.objects(concept, SKOS.prefLabel)) == {
            Literal(term.term, lang="es"),
            Literal(term.en, lang="en"),
        }
        assert set(graph.objects(concept, SKOS.definition)) == {Literal(term.definition, lang="en")}
        assert {label.language for label in graph.objects(concept, SKOS.altLabel)} == {"es"}


def test_entries_of_one_name_become_one_term_with_a_sense_each_and_keep_their_ids(tmp_path, capsys):
    code, summary = run_import(tmp_path, capsys, "microsoft-style-senses.tbx", "--lang", "en")
    assert code == 0 and (summary["read"], summary["imported"], summary["refused"]) == (5, 5, [])
    glossary = load_glossary(tmp_path / "out")
    assert [t.term for t in glossary] == ["cursor", "field", "confirmation dialog"]
    cursor = glossary.get("cursor")
    assert [(s.source_id, s.definition.split()[1]) for s in cursor.all_senses()] == [
        ("5101_1436", "blinking"),
        ("5102_1436", "database"),
    ]
    field = glossary.get("field")  # "Field" is the same name once normalised: a sense of "field"
    assert [s.source_id for s in field.all_senses()] == ["5200_1436", "5201_1436"]
    assert glossary.get("confirmation-dialog").senses == ()


@pytest.mark.parametrize("fmt", ["tbx", "skos", "csv", "json"])
def test_a_real_file_with_senses_exports_one_entry_per_sense_and_imports_back_the_same(tmp_path, capsys, fmt):
    from bot.app.interchange import formats as interchange

    run_import(tmp_path, capsys, "microsoft-style-senses.tbx", "--lang", "en")
    glossary = load_glossary(tmp_path / "out")
    exported = tmp_path / f"export.{ {'skos': 'ttl'}.get(fmt, fmt) }"
    exported.write_text(interchange.export(glossary, fmt), encoding="utf-8")
    code = main(["import", str(exported), "--out", str(tmp_path / "again"), "--json", "--lang", "en"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and (summary["read"], summary["imported"]) == (5, 5)
    again = load_glossary(tmp_path / "again")

    def senses(g) -> dict:
        return {t.term: [(s.definition, s.category) for s in t.all_senses()] for t in g}

    assert senses(again) == senses(glossary)
