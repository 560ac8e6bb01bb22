"""The question path's shortcuts give what the plain computations give (issue 34): a posting list searched by
bisection answers as np.isin does, and the cosines of many questions in one product are each question's own."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bot.core.questions import QuestionIndex, _among, ask, read_question

postings = st.lists(st.integers(0, 300), max_size=60, unique=True).map(lambda d: np.array(sorted(d), dtype=np.int32))
wanted = st.lists(st.integers(0, 320), max_size=12).map(lambda w: np.array(w, dtype=np.int64))


@given(wanted, postings)
def test_a_posting_list_searched_by_bisection_answers_as_isin(found, docs):
    assert np.array_equal(_among(found, docs), np.isin(found, docs))


def test_cosines_of_many_questions_in_one_product_are_each_ones_own(shipped_glossary):
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(len(shipped_glossary), 512)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = QuestionIndex(shipped_glossary, vectors)
    questions = rng.normal(size=(5, 512)).astype(np.float32)
    questions /= np.linalg.norm(questions, axis=1, keepdims=True)
    together = index.cosines(questions)
    assert together.shape == (5, len(shipped_glossary))
    for q, row in zip(questions, together, strict=True):
        assert np.allclose(row, index.vectors @ q, atol=1e-6)
        question = read_question("entrenar modelos en varias maquinas con gradientes", q)
        alone, given_cosines = ask(question, [index]), ask(question, [index], [row])
        assert [c.term.id for c in alone.candidates] == [c.term.id for c in given_cosines.candidates]
        assert alone.verdict == given_cosines.verdict
    assert QuestionIndex(shipped_glossary, None).cosines(questions) is None
