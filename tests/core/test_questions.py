"""The question path: the labelled set's figures (tests/questions/questions.yaml), the three answers, the name
matcher beside it, the vector cache, and a model that never touches the network."""

from __future__ import annotations

import socket

import numpy as np
import pytest

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.files import load_glossary
from bot.app.questions.sentence_model import SentenceModel
from bot.app.questions.service import Questions
from bot.core.model import Glossary, Term
from bot.core.question_confidence import CONFIDENT_PROBABILITY
from bot.core.questions import (
    Answer,
    Candidate,
    QuestionIndex,
    Verdict,
    ask,
    combine,
    read_question,
    should_ask,
)
from bot.core.search import Ambiguous, Found, NotFound, SearchIndex, Suggestion
from tests.conftest import SHIPPED
from tests.questions.labelled import certainty, expected_calibration_error, labelled, ranking

# Measured on the held-out half (bench/README.md, 2026-12-04, issue 34: no hand-written vocabulary, a calibrated
# probability); the suite keeps them from getting worse.
HELD_TOP1, HELD_TOP3 = 68 / 88, 78 / 88
HELD_UNANSWERABLE_CONFIDENT = 0 / 45
HELD_CONFIDENT_RIGHT = 30 / 88
HELD_ECE = 0.12  # measured 0.098 (10 bins)
# Issue 34's targets for certainty, on any set nobody tuned on.
TARGET_CONFIDENT_WRONG, TARGET_UNANSWERABLE_CONFIDENT = 0.03, 0.10


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary(SHIPPED)


@pytest.fixture(scope="module")
def questions(glossary, tmp_path_factory) -> Questions:
    catalog = CatalogHolder(Catalog(glossary, SearchIndex(glossary), "test"))
    return Questions(catalog, tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def answers(questions) -> dict[str, list[Answer]]:
    return {split: [questions.ask_now(r.q) for r in labelled(split)] for split in ("tune", "held")}


def test_the_labelled_set_is_as_described():
    rows = labelled()
    assert len(rows) >= 150
    assert sum(r.expect is None for r in rows) >= len(rows) / 5
    assert {r.split for r in rows} == {"tune", "held"}
    assert abs(len(labelled("tune")) - len(labelled("held"))) <= 6
    assert all((r.kind == "trap") == (r.expect is None) for r in rows)


def test_every_expected_term_exists(glossary):
    assert {r.expect for r in labelled() if r.expect} <= {t.id for t in glossary}


def test_held_out_figures(answers):
    rows = labelled("held")
    figures = ranking(rows, answers["held"])["all answerable"]
    assert figures.top1 >= HELD_TOP1 - 1e-9 and figures.top3 >= HELD_TOP3 - 1e-9
    sure = certainty(rows, answers["held"])
    assert sure.unanswerable_confident <= HELD_UNANSWERABLE_CONFIDENT + 1e-9
    assert sure.confident_right >= HELD_CONFIDENT_RIGHT - 1e-9


def test_held_out_certainty_reaches_the_targets(answers):
    sure = certainty(labelled("held"), answers["held"])
    assert sure.confident_wrong <= TARGET_CONFIDENT_WRONG
    assert sure.unanswerable_confident <= TARGET_UNANSWERABLE_CONFIDENT


def test_the_stated_probability_is_calibrated_on_the_held_out_half(answers):
    rows = labelled("held")
    assert expected_calibration_error(rows, answers["held"]) <= HELD_ECE
    confident = [a for a in answers["held"] if a.verdict is Verdict.CONFIDENT]
    assert confident and all(a.probability >= CONFIDENT_PROBABILITY for a in confident)
    assert all(0.0 <= a.probability <= 1.0 for a in answers["held"])


def test_the_three_answers(questions):
    assert questions.ask_now("¿cómo se llama lo de Uber para entrenar con MPI?").term.id == "horovod"
    unsure = questions.ask_now("dask pero pa machine learning")
    assert unsure.verdict is Verdict.UNSURE and "dask-ml" in [c.term.id for c in unsure.candidates]
    assert questions.ask_now("¿qué es una red convolucional?").verdict is Verdict.NOTHING


async def test_ask_is_async_and_reads_a_servers_terms(questions, glossary):
    own = Term(
        "gradient-accumulation",
        "Acumulación de Gradientes",
        "Sumar los gradientes de varios lotes "
        "pequeños antes de actualizar los pesos, para simular un lote grande con poca memoria.",
        "Propios",
    )

    class Overlay:  # what ServerTerms.prepare gives: its glossary is what the question path reads
        glossary = Glossary("Glosario IA", "", "es", (own,))

    question = "sumar gradientes de varios lotes pequeños antes de actualizar, para simular un batch grande"
    assert (await questions.ask(question, Overlay())).candidates[0].term.id == own.id
    assert own.id not in [c.term.id for c in (await questions.ask(question)).candidates]
    assert (await questions.ask("   ")).verdict is Verdict.NOTHING


def test_a_named_term_beside_other_words_is_context(glossary):
    index = QuestionIndex(glossary, None)
    found = ask(read_question("¿qué usa Horovod por debajo para sumar los gradientes entre nodos?"), [index])
    assert found.candidates[0].term.id != "horovod"
    about = ask(read_question("arquitectura parameter server como funciona"), [index])
    assert about.term is not None and about.term.id == "servidor-de-parametros"


def test_should_ask_only_for_descriptions_the_name_did_not_match(glossary):
    horovod = glossary.get("horovod")
    assert not should_ask(Found(horovod), "framework de uber para entrenar con mpi")
    assert not should_ask(NotFound(), "horovd")
    assert should_ask(NotFound(), "framework de uber para entrenar con mpi")
    assert should_ask(Ambiguous((Suggestion(horovod, 80.0),)), "framework de uber para entrenar con mpi")


def test_a_close_misspelling_stands_alone_before_any_timer(glossary):
    """/termino sets no timer and enters no question path for a suggestion close enough to be a misspelt name,
    however long the text; a weaker one, in a description, goes on to the question path."""
    horovod = glossary.get("horovod")
    text = "framework de uber para entrenar con mpi"
    assert Questions.stands_alone(Ambiguous((Suggestion(horovod, 85.0),)), text)
    assert not Questions.stands_alone(Ambiguous((Suggestion(horovod, 84.9),)), text)
    assert Questions.stands_alone(NotFound(), "horovd")


def test_combine_never_answers_a_misspelt_name_worse(glossary):
    ray, horovod, feast = (glossary.get(i) for i in ("ray", "horovod", "feast"))
    close = Ambiguous((Suggestion(ray, 90.0), Suggestion(feast, 75.0)))
    elsewhere = Answer(Verdict.CONFIDENT, (Candidate(horovod, 0.5),))
    merged = combine(close, elsewhere)  # a near-typo of a name is kept, first, with every suggestion
    assert merged.verdict is Verdict.UNSURE
    assert [c.term.id for c in merged.candidates] == ["ray", "feast", "horovod"]
    agreeing = Answer(Verdict.CONFIDENT, (Candidate(ray, 0.5),))
    assert combine(close, agreeing) is agreeing
    weak = Ambiguous((Suggestion(feast, 74.0),))
    assert combine(weak, elsewhere) is elsewhere  # a confident question beats a loose name suggestion
    nothing = Answer(Verdict.NOTHING, ())
    assert [c.term.id for c in combine(weak, nothing).candidates] == ["feast"]
    assert combine(NotFound(), nothing) is nothing
    assert combine(Found(ray), nothing).term is ray
    # nothing by meaning, however many low candidates it ranked: only the name matcher's suggestions
    ranked_low = Answer(Verdict.NOTHING, tuple(Candidate(t, 0.05) for t in (horovod, ray, glossary.get("mlflow"))))
    assert [c.term.id for c in combine(weak, ranked_low).candidates] == ["feast"]
    # unsure by meaning beside a loose name suggestion: the meaning's best first, the suggestion never cut
    unsure = Answer(Verdict.UNSURE, tuple(Candidate(t, 0.3) for t in (horovod, ray, glossary.get("mlflow"))))
    assert [c.term.id for c in combine(weak, unsure).candidates] == ["horovod", "ray", "feast"]
    three = Ambiguous(tuple(Suggestion(t, 70.0) for t in (feast, ray, glossary.get("petastorm"))))
    assert [c.term.id for c in combine(three, unsure).candidates] == ["horovod", "feast", "ray", "petastorm"]


def test_the_model_never_touches_the_network(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise AssertionError("the sentence model tried to open a connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HOME"):
        monkeypatch.delenv(name, raising=False)
    mapped = SentenceModel(tmp_path)
    vectors = mapped.encode(["framework de Uber para entrenar con MPI", "a feature store"])
    assert vectors.shape == (2, 512)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert mapped.compiled()  # the next load maps the compiled model in the cache folder
    plain = SentenceModel(None).encode(["framework de Uber para entrenar con MPI"])
    assert np.allclose(plain[0], vectors[0], atol=1e-5)
