"""Real glossaries written by others (tests/fixtures/real, see PROVENANCE.md there): every entry imported or
refused with a reason, the counts add up, fields not kept are counted, and `validate` accepts what was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.app.files import load_glossary
from bot.cli import main
from bot.core.problems import said

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
        ("weblate-fr-extended-metadata.tbx", ("--lang", "en"), 2, 2),  # martif in the ISO namespace, Weblate
        ("weblate-fr-extended-metadata.tbx", ("--lang", "fr"), 2, 2),
        ("glossaria.csv", (), 155, 155),  # term_es, short_es, long_es, … (comma, UTF-8)
        ("glossaria-excel-es.csv", (), 40, 40),  # No;Concepto;Definición;Ejemplo (semicolons, Windows-1252)
        ("microsoft-style-senses.tbx", ("--lang", "en"), 5, 5),  # ntig/termGrp, names with several entries
        ("microsoft-style-invisible.tbx", ("--lang", "en-US"), 9, 9),  # zero-width spaces in its texts
        ("microsoft-style-invisible.tbx", ("--lang", "es"), 9, 9),  # es-es: Spanish names, English definitions
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


RETIRED = "administrativeStatus (deprecated, of a name with no other form)"


def test_an_entry_whose_only_english_form_is_obsolete_is_imported_under_it_and_the_status_counted(tmp_path, capsys):
    """Weblate's file (ISO namespace): «data bus» is obsolete in both languages, as Weblate writes a forbidden term.
    It was refused as having no term in «en»; it is the name the entry has, and what a member will ask about."""
    code, summary = run_import(tmp_path, capsys, "weblate-fr-extended-metadata.tbx", "--lang", "en")
    assert code == 0 and (summary["imported"], summary["refused"]) == (2, [])
    assert summary["dropped"][RETIRED] == 1 and summary["dropped"]["descrip[Translation needed]"] == 2
    bus = load_glossary(tmp_path / "out").get("data-bus")
    assert (bus.definition, bus.note) == (
        "Superseded but still found in older manuals.",
        "Avoid using this term in any documentation.",
    )
    assert bus.deprecated == () and bus.source_id == "e001"


def test_the_same_entry_in_french_keeps_its_obsolete_english_name_too(tmp_path, capsys):
    _, summary = run_import(tmp_path, capsys, "weblate-fr-extended-metadata.tbx", "--lang", "fr")
    assert summary["dropped"][RETIRED] == 2  # the French name's status and the English name's
    bus = load_glossary(tmp_path / "out").get("bus-de-donnees")
    assert (bus.term, bus.en, bus.definition_language) == ("bus de données", "data bus", "en")


def test_an_entry_without_a_term_in_the_chosen_language_is_refused_naming_the_languages_it_has(tmp_path, capsys):
    source = tmp_path / "partial.tbx"
    text = (REAL / "weblate-fr-extended-metadata.tbx").read_text(encoding="utf-8")
    source.write_text(text.replace('<term id="e002-en">SYS_ERR_406</term>', ""), encoding="utf-8")
    code = main(["import", str(source), "--out", str(tmp_path / "out"), "--json", "--lang", "en"])
    (refused,) = json.loads(capsys.readouterr().out)["refused"]
    assert code == 1 and refused["entry"] == "e002"
    assert refused["reason"] == said("tbx_no_term_in", lang="en", languages="fr").text("es")


# -- characters nobody sees (the Microsoft Terminology Collection's zero-width spaces) -------------------------------


def test_characters_nobody_sees_are_removed_and_counted_not_refused(tmp_path, capsys):
    code, summary = run_import(tmp_path, capsys, "microsoft-style-invisible.tbx", "--lang", "en-US")
    assert code == 0 and summary["refused"] == []
    assert summary["cleaned"] == {
        "entries": 7,
        "characters": {
            "U+200B ZERO WIDTH SPACE": 5,  # four in definitions (one has two), one inside a name
            "U+FEFF ZERO WIDTH NO-BREAK SPACE": 1,
            "U+2060 WORD JOINER": 1,
            "U+200C ZERO WIDTH NON-JOINER": 1,  # between two Latin letters: it joins nothing
        },
    }
    glossary = load_glossary(tmp_path / "out")  # what validate reads: nothing invisible left to refuse
    assert glossary.get("autosave").term == "autosave"  # found by what a member types
    assert glossary.get("add-in").definition.endswith("specialized features to it.")
    assert glossary.get("version-number").definition.startswith("A number such as 2.0 ")
    assert "infor\u00admation" in glossary.get("information-rights-management").definition  # a soft hyphen is seen


def test_the_spanish_names_are_cleaned_too_and_the_summary_says_what_was_removed(tmp_path, capsys):
    from bot.cli._words import Words

    assert (
        main(["import", str(REAL / "microsoft-style-invisible.tbx"), "--out", str(tmp_path / "out"), "--lang", "es"])
        == 0
    )
    out = capsys.readouterr().out
    characters = (
        "U+200B ZERO WIDTH SPACE (6), U+200C ZERO WIDTH NON-JOINER (1), U+2060 WORD JOINER (1), "
        "U+FEFF ZERO WIDTH NO-BREAK SPACE (1)"
    )
    assert Words("es")("import_cleaned", entries=7, characters=characters) in out
    sign_in = load_glossary(tmp_path / "out").get("pagina-de-inicio-de-sesion")
    assert (sign_in.term, sign_in.en) == ("página de inicio de sesión", "sign-in page")


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
            frozenset(t.languages),
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


RDFLIB_FORMATS = {"skos": "turtle", "skos-rdfxml": "xml", "skos-jsonld": "json-ld"}


def literals(graph) -> set[tuple[str, str | None]]:
    from rdflib import Literal

    return {(str(o), o.language) for o in graph.objects() if isinstance(o, Literal)}


@pytest.mark.parametrize("name", ["coar-access-rights.nt", "coar-resource-types-slice.nt"])
@pytest.mark.parametrize("fmt", ["skos", "skos-rdfxml", "skos-jsonld"])
def test_every_literal_exported_from_an_imported_vocabulary_keeps_the_language_it_had(tmp_path, capsys, name, fmt):
    """COAR's vocabularies imported in Spanish and exported back, read by an independent RDF reader: each literal
    that was in the file comes back in the language it had there (an English altLabel in English, the untagged
    scheme title untagged), and the only one that was not there is this program's own category, in Spanish."""
    from rdflib import Graph

    run_import(tmp_path, capsys, name)
    out = tmp_path / "again"
    assert main(["export", "--data", str(tmp_path / "out"), "--format", fmt, "--out", str(out)]) == 0
    source, exported = Graph().parse(REAL / name), Graph().parse(out, format=RDFLIB_FORMATS[fmt])
    had = {}
    for text, language in literals(source):
        had.setdefault(text, set()).add(language)
    added = {(text, language) for text, language in literals(exported) if text not in had}
    assert added == {("Importados", "es")}  # DEFAULT_CATEGORY: Spanish, whatever the glossary's language
    changed = {(text, language) for text, language in literals(exported) if text in had and language not in had[text]}
    assert changed == set()
    title = "Access Rights" if name.startswith("coar-access") else "Resource Types"
    assert (title, None) in literals(exported)  # untagged in the file: untagged again


def test_an_english_alias_of_a_spanish_glossary_is_noted_as_english_in_its_term_file(tmp_path, capsys):
    run_import(tmp_path, capsys, "coar-resource-types-slice.nt")
    glossary = load_glossary(tmp_path / "out")
    data_paper = next(t for t in glossary if "data descriptor" in t.aliases)
    assert data_paper.language_of("data descriptor", "es") == "en"
    assert glossary.language_of("Resource Types") == "" and glossary.language_of("Importados") == "es"


def test_our_own_words_keep_their_language_in_a_glossary_in_another(tmp_path, capsys):
    """A vocabulary without a title imported in English: the title and category this program writes are Spanish
    (glossary.yaml says so), and the export tags them so."""
    from rdflib import DCTERMS, SKOS, Graph, Literal

    source = tmp_path / "untitled.ttl"
    source.write_text(
        "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        '<http://example.org/c1> a skos:Concept ; skos:prefLabel "embargo"@en ; '
        'skos:definition "Access delayed for a period."@en ; skos:note "no language" .\n',
        encoding="utf-8",
    )
    assert main(["import", str(source), "--out", str(tmp_path / "out"), "--lang", "en"]) == 0
    capsys.readouterr()
    out = tmp_path / "again.ttl"
    assert main(["export", "--data", str(tmp_path / "out"), "--format", "skos", "--out", str(out)]) == 0
    graph = Graph().parse(out)
    assert set(graph.objects(None, DCTERMS.title)) == {Literal("Glosario importado", lang="es")}
    assert Literal("Importados", lang="es") in set(graph.objects(None, SKOS.prefLabel))
    assert set(graph.objects(None, SKOS.note)) == {Literal("no language")}  # untagged stays untagged
    assert Literal("embargo", lang="en") in set(graph.objects(None, SKOS.prefLabel))


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
