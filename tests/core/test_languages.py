"""`languages` in term files and glossary.yaml: the language of a text that is not the one its field implies, as
an import notes it (an English alias, an untagged title), checked like every other key."""

from __future__ import annotations

import pytest

from bot.core.errors import GlossaryError
from bot.core.loader import load_glossary_from_texts
from bot.core.model import Glossary
from bot.core.problems import said

META = "title: Tipos\nsubtitle: S\nlanguage: es\n"
TERM = """category: Recursos
terms:
  - term: tesis doctoral
    definition: Un trabajo de investigación.
    aliases: [tesis, PhD Thesis]
    note: sin idioma
"""


def load(meta: str = META, term: str = TERM) -> Glossary:
    return load_glossary_from_texts([("glossary.yaml", meta), ("a.yaml", term)])


def problems(meta: str = META, term: str = TERM) -> list[str]:
    with pytest.raises(GlossaryError) as refused:
        load(meta, term)
    return [problem.message for problem in refused.value.problems]


def test_a_term_says_which_of_its_texts_are_in_another_language_or_in_none():
    (thesis,) = load(term=TERM + '    languages: {PhD Thesis: en, sin idioma: ""}\n').terms
    assert thesis.language_of("PhD Thesis", "es") == "en"
    assert thesis.language_of("sin idioma", "es") == ""
    assert thesis.language_of("tesis", "es") == "es"  # not said: the language its field implies


def test_the_glossary_says_the_language_of_its_title_and_categories():
    glossary = load(META + 'languages: {Tipos: "", Recursos: en}\n')
    assert (glossary.language_of("Tipos"), glossary.language_of("Recursos"), glossary.language_of("S")) == (
        "",
        "en",
        "es",
    )


def test_a_language_for_a_text_the_term_does_not_have_is_named_with_what_to_do():
    (problem,) = problems(term=TERM + "    languages: {PhD thesis: en}\n")  # (not as the alias is written)
    assert said("languages_unknown_text", text="PhD thesis", what=said("the_term")).text("es") in problem


def test_a_language_for_a_category_the_glossary_does_not_have_is_named():
    (problem,) = problems(META + "languages: {Recursos humanos: en}\n")
    assert (
        said("languages_unknown_text", text="Recursos humanos", what=said("the_glossary_texts")).text("es") in problem
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("e", said("languages_not_a_tag", text="PhD Thesis", value="e")),
        ("en_GB", said("languages_not_a_tag", text="PhD Thesis", value="en_GB")),  # BCP 47 writes "-"
        ("", said("value_empty", key="languages")),  # bare, YAML reads nothing there: no language is written ""
    ],
)
def test_a_language_that_is_no_tag_is_refused(value, expected):
    (problem,) = problems(term=TERM + f"    languages: {{PhD Thesis: {value}}}\n")
    assert expected.text("es") in problem


def test_languages_is_a_mapping():
    (problem,) = problems(term=TERM + "    languages: [en]\n")
    assert said("not_a_mapping", what="languages").text("es") in problem


def test_the_cached_glossary_keeps_the_languages():
    glossary = load(META + "languages: {Tipos: ''}\n", TERM + "    languages: {PhD Thesis: en}\n")
    again = Glossary.from_data(glossary.to_data())
    assert again == glossary and again.terms[0].languages == (("PhD Thesis", "en"),)
    assert Glossary.from_data({**glossary.to_data(), "languages": []}).languages == ()
