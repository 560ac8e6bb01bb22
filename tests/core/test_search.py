"""SearchIndex beyond the labelled table: autocomplete, full-text search, edge cases."""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.core.loader import load_glossary_from_texts
from bot.core.normalize import normalize
from bot.core.search import (
    _LEADING_PHRASES,
    MAX_CHOICES,
    Ambiguous,
    Found,
    NotFound,
    SearchIndex,
    strip_question,
    typo_distance,
)


def test_complete_prefix_first_then_word_starts(shipped_index):
    ids = [c.id for c in shipped_index.complete("par")]
    assert ids[0] == "paralelismo-de-datos"  # the name starts with it
    assert "servidor-de-parametros" in ids  # a later word starts with it
    assert "sharding" in ids  # alias "particionamiento horizontal"


def test_complete_is_accent_and_case_insensitive(shipped_index):
    assert shipped_index.complete("ENTRENAMIENTO ELÁS")[0].id == "entrenamiento-elastico"
    labels = [c.label for c in shipped_index.complete("servidor")]
    assert labels[0] == "Servidor de Parámetros (Parameter Server)"


def test_complete_falls_back_to_fuzzy(shipped_index):
    assert "horovod" in [c.id for c in shipped_index.complete("horvod")]


def test_complete_empty_lists_alphabetically_and_caps_at_25(shipped_index):
    choices = shipped_index.complete("")
    assert len(choices) == 17
    assert [c.label for c in choices][:2] == [
        "AllReduce",
        "Aprendizaje Automático Distribuido (Distributed Machine Learning)",
    ]


def test_complete_never_exceeds_discord_limits():
    terms = "\n".join(f"  - term: Término {i:03d} {'x' * 120}\n    definition: D." for i in range(40))
    glossary = load_glossary_from_texts(
        [("glossary.yaml", "title: T\n"), ("a.yaml", f"category: C\nterms:\n{terms}\n")]
    )
    choices = SearchIndex(glossary).complete("term")
    assert len(choices) == MAX_CHOICES
    assert all(len(c.label) <= 100 and len(c.id) <= 100 for c in choices)


def test_search_finds_words_in_definitions_accent_insensitive(shipped_index):
    hits = shipped_index.search("gradientes asincrona")
    assert hits[0].term.id == "servidor-de-parametros"  # the only one with both words
    assert hits[0].score > 50 >= hits[1].score  # both words, then one of the two
    assert {h.term.id for h in shipped_index.search("PARQUET")} == {"petastorm"}


def test_search_matches_word_endings(shipped_index):
    assert "kubeflow" in [h.term.id for h in shipped_index.search("kubernet")]


def test_search_nothing(shipped_index):
    assert shipped_index.search("zzzz qqqq") == []
    assert shipped_index.search("") == []


def test_lookup_of_huge_or_odd_input_does_not_fail(shipped_index):
    assert isinstance(shipped_index.lookup("horovod " * 10_000), Found | Ambiguous | NotFound)
    assert isinstance(shipped_index.lookup("\x00\u200b<@&123>"), NotFound)


def test_typo_distance_rules():
    assert typo_distance("horovd", "horovod") == 1
    assert typo_distance("kubeflwo", "kubeflow") == 1  # a transposition is one edit
    assert typo_distance("paralelismo de modelos", "paralelismo de datos") is None
    assert typo_distance("vertex", "vertex ai") is None  # a missing word is not a typo
    assert typo_distance("rya", "ray") is None  # ≤ 3 letters: exact only


def test_ties_between_two_terms_are_ambiguous():
    text = "category: C\nterms:\n  - term: Horovod\n    definition: D.\n  - term: Horovad\n    definition: D.\n"
    index = SearchIndex(load_glossary_from_texts([("glossary.yaml", "title: T\n"), ("a.yaml", text)]))
    result = index.lookup("horoved")
    assert isinstance(result, Ambiguous)
    assert {c.term.id for c in result.candidates} == {"horovod", "horovad"}


# Queries near the shipped keys: their words, with letters dropped, doubled, swapped or replaced, and extra words.
_KEY_WORDS = sorted(
    {
        w
        for key in (
            "horovod",
            "allreduce",
            "paralelismo de datos",
            "servidor de parametros",
            "entrenamiento elastico",
            "tensorflow distribuido",
            "ray",
            "sharding",
        )
        for w in key.split()
    }
)


@st.composite
def near_queries(draw) -> str:
    words = draw(st.lists(st.sampled_from([*_KEY_WORDS, "modelos", "federado", "xyz"]), min_size=1, max_size=4))
    typo = draw(st.integers(0, 3))
    text = " ".join(words)
    pos = draw(st.integers(0, max(0, len(text) - 2)))
    edits = [
        text,
        text[:pos] + text[pos + 1 :],
        text[:pos] + text[pos + 1 : pos + 2] + text[pos] + text[pos + 2 :],
        text[:pos] + "q" + text[pos + 1 :],
    ]
    return edits[typo]


@pytest.fixture(scope="module")
def reference_index(shipped_glossary) -> SearchIndex:
    """The plain definition: every candidate scored one by one, no batching, no shortcut, the whole vocabulary."""
    return SearchIndex(shipped_glossary, reference=True)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(near_queries())
@example("servidr de parametrso")  # two edits: the most a query may have
@example("tensorflw distribuio")
@example("horovdxy")  # a word only the vocabulary scan finds
def test_the_fast_index_answers_what_the_plain_definition_answers(shipped_index, reference_index, query):
    assert shipped_index.lookup(query) == reference_index.lookup(query)
    assert shipped_index.complete(query) == reference_index.complete(query)


def test_word_variants_answer_as_the_plain_definition_does(shipped_index, reference_index, shipped_glossary):
    # Misspelt words that only the scan of the vocabulary (by word length, in the fast index) can find.
    words = {w for term in shipped_glossary for w in normalize(term.term).split() if len(w) > 3}
    variants = [
        v for w in sorted(words) for v in (w + "xy", "q" + w[1:] + "z", w[: len(w) // 2] + "zz" + w[len(w) // 2 :])
    ]
    answers = [shipped_index.lookup(v) for v in variants]
    assert answers == [reference_index.lookup(v) for v in variants]
    assert sum(not isinstance(a, NotFound) for a in answers) > 10  # the variants do lead somewhere


AVOIDED = """category: C
terms:
  - term: Paralelismo de datos
    definition: Cada réplica entrena con una parte de los datos.
    deprecated: [paralelización de datos, data-paralelismo]
  - term: Modelo
    definition: Lo que se entrena.
    deprecated: [Paralelismo]
"""


def avoided_index() -> SearchIndex:
    return SearchIndex(load_glossary_from_texts([("glossary.yaml", "title: T\nsubtitle: S\n"), ("c.yaml", AVOIDED)]))


def test_a_form_to_avoid_finds_its_term_and_says_which_form_was_typed():
    index = avoided_index()
    found = index.lookup("Paralelización de Datos")
    assert isinstance(found, Found) and found.term.term == "Paralelismo de datos"
    assert found.avoided == "paralelización de datos"
    assert index.lookup("dataparalelismo").avoided == "data-paralelismo"  # its compact form, as for names
    assert index.lookup("paralelismo de datos").avoided == ""  # the name itself is no form to avoid


def test_forms_to_avoid_match_exactly_never_by_typo_and_never_take_a_real_name():
    index = avoided_index()
    typo = index.lookup("paralelizacion de datso")
    assert not (isinstance(typo, Found) and typo.avoided)  # a typo of a form to avoid is no exact match
    # "Modelo" lists as a form to avoid the name of another term: that term's name wins
    named = AVOIDED.replace("deprecated: [Paralelismo]", "deprecated: [Paralelismo de datos]")
    index = SearchIndex(load_glossary_from_texts([("glossary.yaml", "title: T\nsubtitle: S\n"), ("c.yaml", named)]))
    found = index.lookup("paralelismo de datos")
    assert found.term.term == "Paralelismo de datos" and found.avoided == ""


def test_an_index_read_back_from_its_cache_knows_the_forms_to_avoid():
    index = avoided_index()
    again = SearchIndex.from_data(index.glossary, index.to_data())
    assert again.lookup("paralelización de datos").avoided == "paralelización de datos"


@given(st.lists(st.sampled_from(["que es ", "que son ", "what is ", "un ", "la ", "x", " "]), max_size=6))
def test_a_leading_question_is_stripped_as_the_phrases_say(words):
    text = normalize("".join(words))

    def plain(normalized: str) -> str:  # the definition: the first phrase it starts with, if something is left
        for phrase in _LEADING_PHRASES:
            if normalized.startswith(phrase) and len(normalized) > len(phrase):
                return normalized[len(phrase) :]
        return normalized

    assert strip_question(text) == plain(text)
