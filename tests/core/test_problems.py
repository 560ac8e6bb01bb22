"""The problems' catalogues (bot/core/problems.py): one per language, the same codes with the same placeholders, every
code used by the code and every code the code names in them."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot.core.errors import Problem
from bot.core.problems import CATALOGUES, Joined, said
from bot.core.problems_en import TEXT as EN
from bot.core.problems_es import TEXT as ES
from bot.storage.errors import StorageError

BOT = Path(__file__).resolve().parents[2] / "bot"
CATALOGUE_FILES = {BOT / "core" / "problems_es.py", BOT / "core" / "problems_en.py"}


def placeholders(sentence: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(sentence) if name is not None}


def sources() -> str:
    return "\n".join(
        path.read_text(encoding="utf-8") for path in sorted(BOT.rglob("*.py")) if path not in CATALOGUE_FILES
    )


def test_both_catalogues_have_the_same_codes():
    assert set(ES) == set(EN)


@pytest.mark.parametrize("code", sorted(ES))
def test_a_sentence_has_the_same_placeholders_in_both_languages(code):
    assert placeholders(ES[code]) == placeholders(EN[code]), code


def test_every_code_is_used():
    code = sources()
    unused = [name for name in ES if not re.search(rf"""["']{re.escape(name)}["']""", code)]
    assert unused == []


def test_every_sentence_the_code_names_is_in_the_catalogues():
    named = set(re.findall(r"""\bsaid\(\s*["']([a-z0-9_]+)["']""", sources()))
    assert named and named <= set(ES), named - set(ES)


def test_a_sentence_is_rendered_in_each_language_with_the_sentences_it_holds():
    sentence = said("unknown_key", key="defintion", what=said("the_term"), fix=said("did_you_mean", hint="definition"))
    for lang, catalogue in CATALOGUES.items():
        fix = catalogue["did_you_mean"].format(hint="definition")
        expected = catalogue["unknown_key"].format(key="defintion", what=catalogue["the_term"], fix=fix)
        assert sentence.text(lang) == expected
        both = Joined([said("the_name"), said("the_definition")], said("and"))
        assert both.text(lang) == catalogue["the_name"] + catalogue["and"] + catalogue["the_definition"]
    assert said("no_terms").text("fr") == ES["no_terms"]  # Spanish unless English


def test_a_problem_reads_as_before_from_its_code():
    problem = Problem("c.yaml", 3, "value_empty", {"key": "term"})
    spanish, english = ES["value_empty"].format(key="term"), EN["value_empty"].format(key="term")
    assert (problem.message, problem.english) == (spanish, english)
    assert str(problem) == f"c.yaml:3: {spanish}" and problem.text("en", "otro.yaml") == f"otro.yaml:3: {english}"


def test_a_sentence_can_no_longer_be_written_inline():
    with pytest.raises(TypeError):
        Problem("c.yaml", 0, "falta algo", "something is missing")
    with pytest.raises(KeyError):
        Problem("c.yaml", 0, "falta algo")
    with pytest.raises(TypeError):
        StorageError("no se puede", "cannot")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        StorageError("no se puede")  # type: ignore[arg-type]
    said_twice = Joined([said("db_schema_newer", path="g.db", version=9, ours=8), said("db_upgrade_bot")], " ")
    error = StorageError(said_twice)
    assert str(error) == ES["db_schema_newer"].format(path="g.db", version=9, ours=8) + " " + ES["db_upgrade_bot"]
    assert error.english == EN["db_schema_newer"].format(path="g.db", version=9, ours=8) + " " + EN["db_upgrade_bot"]
