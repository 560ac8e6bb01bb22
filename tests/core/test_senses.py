"""Several senses under one name (`senses:` in a term file): the loader's Term (its first sense in its own fields,
the others in `senses`), every problem with its file and line, the card that lists them, search by meaning."""

from __future__ import annotations

import json

import pytest

from bot.core.card import CARD_FRAME, EMBED_TOTAL, card_text
from bot.core.errors import GlossaryError
from bot.core.loader import DESCRIPTION_LIMIT, load_glossary_from_texts
from bot.core.model import Glossary, Sense, Source
from bot.core.question_texts import embedding_text, lexical_fields

META = "title: T\nsubtitle: S\nlanguage: es\n"
VALID = """\
category: Aprendizaje
terms:
  - term: Modelo
    en: Model
    aliases: [modelo de IA]
    tags: [básico]
    senses:
      - definition: Función aprendida de los datos.
        related: [Datos]
        note: La acepción común.
      - definition: Representación matemática de un sistema.
        category: Estadística
        related: [Datos, Parámetro]
        example: Un modelo lineal.
        sources: [{text: Libro, url: "https://example.org/libro"}]
        source_id: m-2
        definition_language: pt
  - term: Datos
    definition: Hechos registrados.
  - term: Parámetro
    definition: Valor ajustable.
"""


def load(text: str) -> Glossary:
    return load_glossary_from_texts([("glossary.yaml", META), ("a.yaml", text)])


def problems(text: str) -> list[tuple[int, str]]:
    with pytest.raises(GlossaryError) as info:
        load(text)
    return [(p.line, p.code) for p in info.value.problems]


def test_the_first_sense_is_the_terms_own_fields_and_the_others_are_its_senses():
    glossary = load(VALID)
    modelo = glossary.get("modelo")
    assert (modelo.definition, modelo.category, modelo.related, modelo.note) == (
        "Función aprendida de los datos.",
        "Aprendizaje",
        ("datos",),
        "La acepción común.",
    )
    assert (modelo.en, modelo.aliases, modelo.tags) == ("Model", ("modelo de IA",), ("básico",))
    assert modelo.senses == (
        Sense(
            "Representación matemática de un sistema.",
            "Estadística",
            ("datos", "parametro"),
            example="Un modelo lineal.",
            sources=(Source("Libro", "https://example.org/libro"),),
            definition_language="pt",
            source_id="m-2",
        ),
    )
    assert modelo.all_related() == ("datos", "parametro")
    assert glossary.get("datos").senses == ()  # a term with a definition is as it always was


def test_a_sense_without_a_category_has_the_files():
    text = VALID.replace("        category: Estadística\n", "")
    assert load(text).get("modelo").senses[0].category == "Aprendizaje"


def test_the_start_up_cache_keeps_the_senses_and_reads_rows_written_before_them():
    glossary = load(VALID)
    data = json.loads(json.dumps(glossary.to_data()))  # as the cache file holds it
    assert Glossary.from_data(data).terms == glossary.terms
    for row in data["terms"]:
        del row[11:]  # a row of a cache written before senses
    old = Glossary.from_data(data)
    assert old.get("modelo").senses == () and old.get("modelo").definition == glossary.get("modelo").definition


def test_to_dict_lists_the_other_senses_only_when_there_are_some():
    glossary = load(VALID)
    assert [s["definition"] for s in glossary.get("modelo").to_dict()["senses"]] == [
        "Representación matemática de un sistema."
    ]
    assert "senses" not in glossary.get("datos").to_dict()


@pytest.mark.parametrize(
    ("replace", "by", "expected"),
    [
        # definition and senses both
        ("    senses:\n", "    definition: D.\n    senses:\n", [(7, "definition_and_senses")]),
        # a key of each sense at the entry
        ("    tags: [básico]\n", "    tags: [básico]\n    note: N.\n", [(7, "sense_key_at_entry")]),
        ("    tags: [básico]\n", "    tags: [básico]\n    related: [Datos]\n", [(7, "sense_key_at_entry")]),
        # a sense without its definition
        (
            "      - definition: Función aprendida de los datos.\n",
            "      - example: Sin definición.\n",
            [(8, "sense_definition_missing")],
        ),
        # an unknown key in a sense (a typo)
        ("        note: La acepción común.\n", "        nota: La acepción común.\n", [(10, "unknown_key")]),
        # a related term that does not exist, in the second sense
        ("        related: [Datos, Parámetro]\n", "        related: [Datos, Parametrón]\n", [(13, "related_unknown")]),
        # a sense's related naming the term itself
        ("        related: [Datos]\n", "        related: [Modelo]\n", [(9, "related_to_itself")]),
        # a definition over Discord's limit, in a sense
        ("Representación matemática de un sistema.", "x" * (DESCRIPTION_LIMIT + 1), [(11, "value_too_long")]),
        # a sense's language that is no language tag
        (
            "definition_language: pt",
            "definition_language: español de México",
            [(17, "definition_language_not_a_tag")],
        ),
    ],
)
def test_every_problem_of_a_sense_is_said_with_its_line(replace, by, expected):
    assert replace in VALID
    assert problems(VALID.replace(replace, by)) == expected


def test_senses_that_are_not_a_list_of_mappings_or_none_at_all_are_said_with_their_line():
    start = VALID.index("    senses:\n")
    end = VALID.index("  - term: Datos")
    assert problems(VALID[:start] + "    senses: Una definición.\n" + VALID[end:]) == [(7, "not_a_list_of")]
    assert problems(VALID[:start] + "    senses: []\n" + VALID[end:]) == [(7, "senses_empty")]
    assert problems(VALID[:start] + "    senses: [Una definición.]\n" + VALID[end:]) == [(7, "not_a_mapping")]


def test_senses_that_together_overflow_the_card_text_are_refused_though_each_fits():
    long = "y" * 2100
    text = VALID.replace("Función aprendida de los datos.", long).replace(
        "Representación matemática de un sistema.", long
    )
    assert problems(text) == [(3, "senses_too_long")]


def test_a_card_over_discords_total_is_refused_with_its_senses_counted():
    long = "z" * 1900
    text = VALID.replace("Función aprendida de los datos.", long).replace(
        "Representación matemática de un sistema.", long
    )
    text = text.replace("        note: La acepción común.\n", f"        note: {'n' * 1000}\n")
    text = text.replace("        example: Un modelo lineal.\n", f"        example: {'e' * 1000}\n")
    assert problems(text) == [(3, "card_too_long")]


def test_the_card_of_one_sense_is_as_it_always_was():
    glossary = load(VALID)
    datos = glossary.get("datos")
    assert card_text(datos, {}, "f").description == "Hechos registrados."
    assert card_text(datos, [], "f") == card_text(datos, {}, "f")


def test_the_card_numbers_the_senses_and_says_what_a_later_one_has_of_its_own():
    glossary = load(VALID)
    modelo = glossary.get("modelo")
    names = {i: glossary.get(i).term for i in modelo.all_related()}
    card = card_text(modelo, names, "f")
    assert card.description.split("\n\n") == [
        "**1.** Función aprendida de los datos.",
        "**2.** *Estadística* (pt) — Representación matemática de un sistema.",
        "→ Datos, Parámetro",
        "> Un modelo lineal.",
        "[Libro](https://example.org/libro)",  # its sources, as the card's field cites the first sense's
    ]
    assert ("related", "Datos, Parámetro", False) in card.fields  # every sense's, once
    assert ("category", "Aprendizaje", True) in card.fields and (
        "card_note",
        "La acepción común.",
        False,
    ) in card.fields


def test_a_later_sense_with_the_first_senses_category_and_related_says_neither():
    text = VALID.replace("        category: Estadística\n", "").replace(
        "        related: [Datos, Parámetro]\n", "        related: [Datos]\n"
    )
    glossary = load(text)
    modelo = glossary.get("modelo")
    description = card_text(modelo, {"datos": "Datos"}, "f").description
    assert description.split("\n\n")[:2] == [
        "**1.** Función aprendida de los datos.",
        "**2.** (pt) — Representación matemática de un sistema.",
    ]
    assert "→" not in description


def test_the_largest_card_validate_accepts_fits_discords_total():
    # Just under both checks: each sense long, the whole card still within 6,000 with its labels.
    text = VALID.replace("Función aprendida de los datos.", "a" * 1990).replace(
        "Representación matemática de un sistema.", "b" * 1990
    )
    glossary = load(text)
    modelo = glossary.get("modelo")
    card = card_text(modelo, {i: glossary.get(i).term for i in modelo.all_related()}, "T — S")
    assert len(card.description) <= DESCRIPTION_LIMIT and card.length() <= EMBED_TOTAL
    assert card.length() - CARD_FRAME == len(card.title) + len(card.description) + len(card.footer) + sum(
        len(v) for _, v, _ in card.fields
    )


def test_search_by_meaning_reads_every_senses_definition():
    glossary = load(VALID)
    modelo = glossary.get("modelo")
    _, _, definitions, _ = lexical_fields(modelo, ["Datos", "Parámetro"])
    assert "Función aprendida" in definitions and "Representación matemática" in definitions
    assert "Representación matemática" in embedding_text(modelo)
    datos = glossary.get("datos")
    assert lexical_fields(datos)[2] == datos.definition and embedding_text(datos) == "Datos. Hechos registrados."


def test_a_repeated_name_is_told_to_become_senses():
    text = VALID + "  - term: modelo\n    definition: Otra.\n"
    assert problems(text) == [(22, "term_repeated")]
