"""Issue 34, part 2: what a member's word means comes from the glossary (its names, English names and aliases) and
from the encoder's cross-lingual space, never from a vocabulary written for one field."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from bot.app.files import load_glossary
from bot.app.questions.vectors import QuestionVectors
from bot.core import question_words
from bot.core.model import Glossary, Term
from bot.core.question_words import STOP_WORDS, content_words, stem
from bot.core.questions import QuestionIndex, ask, glossary_fields, read_question
from bot.core.word_space import MAX_WORDS, WORD_COSINE, WordSpace, glossary_words
from bot.core.word_space import question_words as words_of
from tests.conftest import SHIPPED

SERVERS = Term(
    "servidor-de-parametros",
    "Servidor de Parámetros",
    "Arquitectura en la que unos nodos guardan los pesos compartidos.",
    "Sistemas",
    en="Parameter Server",
)
WORKERS = Term("trabajadores", "Nodos de cómputo", "Los trabajadores calculan gradientes sobre su lote.", "Sistemas")
BUDGET = Term("presupuesto", "Presupuesto municipal", "Documento que fija los gastos del ayuntamiento.", "Cuentas")
DEBT = Term("deuda-viva", "Deuda viva", "La deuda pendiente de pagar con entidades financieras.", "Cuentas")


def index_of(*terms: Term, space: WordSpace | None = None) -> QuestionIndex:
    return QuestionIndex(Glossary("Prueba", "", "es", terms), None, words=space)


def test_an_english_name_lets_an_english_question_word_find_the_spanish_term():
    index = index_of(SERVERS, WORKERS)
    answer = ask(read_question("servers that keep the shared weights"), [index])
    assert answer.candidates[0].term.id == "servidor-de-parametros"


def test_a_glossary_without_english_names_still_answers():
    index = index_of(BUDGET, DEBT)
    assert ask(read_question("cuánta deuda queda pendiente de pagar"), [index]).candidates[0].term.id == "deuda-viva"
    assert ask(read_question("gastos que aprueba el ayuntamiento"), [index]).candidates[0].term.id == "presupuesto"


def unit(*rows) -> np.ndarray:
    found = np.array(rows, dtype=np.float32)
    return found / np.linalg.norm(found, axis=1, keepdims=True)


def test_a_word_the_glossary_never_uses_reads_as_its_nearest_glossary_word():
    words = ["trabajadores", "pesos"]
    space = WordSpace.of(words, unit([1, 0, 0], [0, 1, 0]))
    near, far = unit([0.95, 0.1, 0]), unit([0.5, 0.5, 0.7])
    assert (near @ space.vectors.T)[0, 0] >= WORD_COSINE > (far @ space.vectors.T).max()
    assert space.neighbours(np.vstack([near, far])) == [(stem("trabajadores"),), ()]
    # through the index: "workers" is in no term, and finds the one whose definition says "trabajadores"
    question = "workers"
    assert words_of(question) == ["workers"]
    assert not ask(read_question(question), [index_of(SERVERS, WORKERS)]).candidates[0].lexical
    found = ask(read_question(question, None, near), [index_of(SERVERS, WORKERS, space=space)])
    assert found.candidates[0].term.id == "trabajadores" and found.candidates[0].lexical > 0
    unrelated = ask(read_question(question, None, far), [index_of(SERVERS, WORKERS, space=space)])
    assert all(c.lexical == 0 for c in unrelated.candidates)


def test_the_glossary_words_are_the_glossarys_own_most_shared_ones():
    fields = glossary_fields(Glossary("Prueba", "", "es", (SERVERS, WORKERS, BUDGET, DEBT)))
    words = glossary_words(fields)
    assert words[0] == "nodos"  # the one stem two terms share comes first
    assert set(words) <= {w for f in fields for w in content_words(" ".join(f))}
    assert not set(words) & STOP_WORDS
    shipped = glossary_words(glossary_fields(load_glossary(SHIPPED)))
    assert 50 < len(shipped) <= MAX_WORDS and len({stem(w) for w in shipped}) == len(shipped)


class CountingEncoder:
    """An encoder stand-in (the real one is tested in test_questions.py): one fixed vector per text, and a count."""

    name = "counting"

    def __init__(self) -> None:
        self.texts: list[str] = []

    def encode(self, texts):
        self.texts += texts
        return unit(*([len(t), 1.0, 0.5] for t in texts))


def test_a_questions_words_are_embedded_in_its_own_call_and_only_once():
    """The service asks for the question and its words together (one encoder call), and only what is new is
    encoded: words repeat from one question to the next far more than questions do."""
    encoder = CountingEncoder()
    remembered = QuestionVectors(encoder, limit=5)
    rows = remembered.vectors(["workers y pesos", "workers", "pesos"])
    assert encoder.texts == ["workers y pesos", "workers", "pesos"] and len(rows) == 3 and rows[0].shape == (3,)
    again = remembered.vectors(["pesos de workers", "pesos", "workers"])
    assert encoder.texts[3:] == ["pesos de workers"]  # one call, the question alone
    assert np.allclose(np.stack(again[1:]), np.stack(rows[1:])[::-1])
    remembered.vectors(["a b", "nodos", "lotes"])  # past the limit: the least recently used are dropped
    encoder.texts.clear()
    remembered.vectors(["x", "workers", "pesos"])
    assert encoder.texts == ["x", "pesos"]


def test_the_word_lists_name_none_of_the_shipped_glossarys_words():
    """Only generic stop words and question wrappers: no word of the shipped glossary's field (its names and
    definitions) is written in question_words.py unless it is a stop word."""
    shipped = {
        w
        for term in load_glossary(SHIPPED)
        for w in content_words(" ".join([*term.spellings(), term.definitions()]))
        if len(w) > 2
    }
    source = Path(question_words.__file__).read_text(encoding="utf-8")
    written = {w for w in content_words(re.sub(r"[^\w\s]", " ", source)) if len(w) > 2}
    assert shipped, "the shipped glossary was read"
    assert not written & shipped, sorted(written & shipped)
