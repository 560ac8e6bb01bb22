"""Which texts may be questions of the glossary (bot/core/question_gate.py): a number, a code, words nobody knows
never reach the encoder, /termino also needs three words that carry meaning, and every answerable question of the
labelled set gets through on the glossary's own vocabulary or the model's."""

from __future__ import annotations

import pytest

from bot.core.question_gate import Gate, content_words, gate, has_digit, may_be_a_question, stems
from bot.core.questions import build_lexical, glossary_fields, reads_as_description
from tests.questions.labelled import labelled

MODEL_WORDS = frozenset({"consulta", "problema", "red", "casa", "como", "mejor", "herramienta"})


def model_knows(words):
    return [w in MODEL_WORDS for w in words]


@pytest.fixture(scope="module")
def glossary_knows(shipped_glossary):
    lexical = build_lexical(glossary_fields(shipped_glossary))
    return lambda found: any(row >= 0 for row in lexical.find(list(found)))


@pytest.mark.parametrize(
    "text",
    ["zq4471", "12 34", "4471 12 99", "xkqzt wrtpl", "qwx zzkj plmr vbtt", "de la que", "¿?¿?", "", "x y z"],
)
def test_numbers_codes_and_unknown_words_are_no_question(text, glossary_knows):
    assert not may_be_a_question(text, glossary_knows, model_knows)
    assert not may_be_a_question(text, glossary_knows, model_knows, description=True)


def test_a_word_the_model_knows_or_the_glossary_knows_is_enough(glossary_knows):
    assert may_be_a_question("consulta zq4471", glossary_knows, model_knows)  # the model's word
    assert may_be_a_question("horovod zq4471", glossary_knows, model_knows)  # the glossary's word
    assert may_be_a_question("entrenamientos qwx", glossary_knows, None)  # through its stem ("entren")
    assert not may_be_a_question("consulta zq4471", glossary_knows, None)  # without the model: its words count not


def test_termino_needs_three_words_that_carry_meaning(glossary_knows):
    # Numbers and codes carry no meaning: the miss is two words, so it never reaches the encoder…
    assert not may_be_a_question("consulta inexistente 12 zq4471", glossary_knows, model_knows, description=True)
    # …though asked with /glosario pregunta it may be a question (a word is known).
    assert may_be_a_question("consulta inexistente 12 zq4471", glossary_knows, model_knows)
    # Three words that carry meaning, one known: a description. A word nobody knows still carries meaning.
    assert may_be_a_question("consulta inexistente ejemplo", glossary_knows, model_knows, description=True)
    # A code carries meaning only when the glossary knows it: none of the shipped one's names is a code.
    assert not may_be_a_question("clusters zz9 gpus", glossary_knows, model_knows, description=True)
    assert not may_be_a_question("clusters k8s gpus", glossary_knows, model_knows, description=True)


def test_the_words_are_read_as_the_question_path_reads_them():
    assert content_words("¿Cómo se llama lo de Uber, para entrenar con MPI?") == ["uber", "entrenar", "mpi"]
    assert [has_digit(w) for w in ("12", "zq4471", "k8s", "horovod", "año")] == [True, True, True, False, False]
    assert "entren" in stems("entrenamientos") and stems("de") == ()


def test_every_answerable_labelled_question_gets_through(glossary_knows, tmp_path_factory):
    """The glossary's vocabulary and the real model's whole words let every answerable question of the labelled
    set through, and as a description wherever the description rule reads one."""
    from bot.app.questions.sentence_model import SentenceModel

    model = SentenceModel(tmp_path_factory.mktemp("model"))
    for row in labelled():
        if row.expect is not None:
            assert may_be_a_question(row.q, glossary_knows, model.known_words), row.q
            said = may_be_a_question(row.q, glossary_knows, model.known_words, description=True)
            assert said == reads_as_description(row.q), row.q


def test_what_the_gate_says_of_a_text(glossary_knows):
    def said(text, description=False):
        return gate(text, glossary_knows, model_knows, description=description)

    assert said("consulta inexistente 12 zq4471", description=True) is Gate.NOT_A_DESCRIPTION  # a name's miss
    assert said("receta tortilla patatas cebolla", description=True) is Gate.UNKNOWN  # a question nobody knows
    assert said("zq4471") is Gate.UNKNOWN and said("consulta zq4471") is Gate.ASK
