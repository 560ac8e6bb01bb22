"""Issue 34: the question path on sets nobody tuned its method on (tests/questions/FRESH.md): fresh.yaml about the
shipped glossary, and civio.yaml about a real glossary that is not the shipped one (Civio's municipal-budget CSV,
imported through the importer into a temporary folder; no English names, no aliases). The figures are those of
each set's `held` half, fixed data asserted as thresholds (bench/README.md gives them and their first reading)."""

from __future__ import annotations

import pytest

from bot.app.files import load_glossary
from bot.core.questions import Verdict
from tests.questions.figures import import_civio, questions_over
from tests.questions.labelled import CIVIO, FRESH, certainty, expected_calibration_error, labelled, ranking
from tests.questions.tune import DATA

# Measured on the held halves on 2026-12-04 (bench/README.md, "second reading"); the suite keeps them.
FRESH_HELD = {"top1": 32 / 49, "top3": 41 / 49, "wrong": 0.03, "traps": 0.10, "ece": 0.15}  # 65 %, 84 %, 0, 0, .108
CIVIO_HELD = {"top1": 19 / 28, "top3": 25 / 28, "wrong": 1 / 28, "traps": 0.15, "ece": 0.20}  # 68 %, 89 %, 1, 0, .157


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def civio_folder(tmp_path_factory):
    return import_civio(tmp_path_factory.mktemp("civio"))


def held_answers(folder, cache, path):
    questions = questions_over(folder, cache)
    rows = labelled("held", path)
    return rows, [questions.ask_now(r.q) for r in rows]


def check(rows, answers, expected) -> None:
    figures = ranking(rows, answers)["all answerable"]
    sure = certainty(rows, answers)
    assert figures.top1 >= expected["top1"] - 1e-9 and figures.top3 >= expected["top3"] - 1e-9
    assert sure.confident_wrong <= expected["wrong"] + 1e-9
    assert sure.unanswerable_confident <= expected["traps"] + 1e-9
    assert expected_calibration_error(rows, answers) <= expected["ece"]


def test_the_sets_name_only_their_glossarys_terms(civio_folder):
    for path, folder in ((FRESH, DATA), (CIVIO, civio_folder)):
        rows = labelled(None, path)
        ids = {t.id for t in load_glossary(folder)}
        assert {r.expect for r in rows if r.expect} <= ids
        assert all((r.kind == "trap") == (r.expect is None) for r in rows)
        assert {r.split for r in rows} == {"tune", "held"}


def test_fresh_held_half_on_the_shipped_glossary(cache):
    check(*held_answers(DATA, cache, FRESH), FRESH_HELD)


def test_civio_held_half_on_a_glossary_without_english_names(civio_folder, cache):
    glossary = load_glossary(civio_folder)
    assert not any(t.en or t.aliases for t in glossary)  # nothing of the shipped glossary's kind to lean on
    rows, answers = held_answers(civio_folder, cache, CIVIO)
    check(rows, answers, CIVIO_HELD)
    assert any(a.verdict is Verdict.CONFIDENT for a in answers)
