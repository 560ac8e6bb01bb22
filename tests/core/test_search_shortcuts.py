"""The sifting of a query's candidates without rapidfuzz's word scorers (issue 26): token sort is `fuzz.ratio` of the
sorted forms the index keeps, and `SearchIndex._set_reaching` finds the keys whose `fuzz.token_set_ratio` reaches
the cutoff, with the same scores, though it calls rapidfuzz for only a few of them."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from bot.app.files import load_glossary
from bot.core.loader import load_glossary_from_texts
from bot.core.normalize import normalize
from bot.core.search import PLAUSIBLE, SET_WEIGHT, SearchIndex
from tests.synthetic import generate

CUTOFF = (PLAUSIBLE - 0.01) / SET_WEIGHT  # what `_rank_shown` asks of token set
# Words that share letters, repeat and contain each other, with function words and numbers.
_WORDS = ["ka", "kamiden", "kamide", "trasel", "tra", "sel", "inexistente", "17", "de", "en", "mi", "ñandu", "den"]
texts = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6).map(" ".join)


def _check(index: SearchIndex, norm: str, key_ids: list[int], cutoff: float) -> dict[int, float]:
    """`_set_reaching`'s answer is rapidfuzz's, but for keys that share no word with the query: those it may leave
    out, because there token set is token sort (to the last bit: the two round differently), so SET_WEIGHT · token
    set is below token sort, which `_rank_shown` has from the sorted forms, and cannot be the similarity."""
    found = index._set_reaching(norm, norm.split(), key_ids, cutoff)
    for i, k in enumerate(key_ids):
        key = index._key_norm[k]
        score = fuzz.token_set_ratio(norm, key)
        if score >= cutoff and i not in found:
            assert set(norm.split()).isdisjoint(key.split()), (norm, key)
            assert score == pytest.approx(fuzz.token_sort_ratio(norm, key), abs=1e-9), (norm, key)
            assert SET_WEIGHT * score < fuzz.token_sort_ratio(norm, key), (norm, key)
        else:
            assert found.get(i) == (score if score >= cutoff else None), (norm, key)
    return found


@given(texts, texts)
def test_token_sort_is_the_ratio_of_the_sorted_forms(query, key):
    sorted_form = " ".join(sorted(key.split()))
    assert fuzz.ratio(" ".join(sorted(query.split())), sorted_form) == fuzz.token_sort_ratio(query, key)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(texts, min_size=1, max_size=8, unique_by=lambda t: normalize(t).replace(" ", "")), texts, st.data())
def test_set_reaching_is_rapidfuzz_on_every_key(names, query, data):
    """Over small glossaries of look-alike names (containment either way, repeated words, function words), with
    any subset of keys as the candidates and any cutoff."""
    terms = "\n".join(f"  - term: '{name}'\n    definition: D." for name in names)
    index = SearchIndex(
        load_glossary_from_texts([("glossary.yaml", "title: T\n"), ("a.yaml", f"category: C\nterms:\n{terms}\n")])
    )
    key_ids = data.draw(st.lists(st.sampled_from(range(len(index._key_norm))), unique=True))
    cutoff = data.draw(st.sampled_from([CUTOFF, 50.0, 70.0, 90.0, 100.0]))
    norm = normalize(query)
    _check(index, norm, key_ids, cutoff)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> tuple[SearchIndex, list[str]]:
    directory = tmp_path_factory.mktemp("synthetic")
    names = generate(directory, 2000)
    return SearchIndex(load_glossary(directory)), names


def test_the_sorted_forms_are_each_keys_words_sorted(synthetic):
    index, _ = synthetic
    forms = index._sorted_forms()
    assert forms == [" ".join(sorted(key.split())) for key in index._key_norm]
    rng = random.Random(7)
    for key, form in rng.sample(list(zip(index._key_norm, forms, strict=True)), 300):
        query = " ".join([*rng.sample(key.split(), len(key.split())), "inexistente"])
        assert fuzz.ratio(" ".join(sorted(query.split())), form) == fuzz.token_sort_ratio(query, key)


def test_set_reaching_on_a_synthetic_glossary(synthetic):
    """Names with words the glossary does not have, parts of names, names of other terms glued on: every candidate
    as rapidfuzz scores it, and the bounds do spare most of the calls."""
    index, names = synthetic
    rng = random.Random(26)
    reached = 0
    for i in range(300):
        name = normalize(rng.choice(names))
        words = name.split()
        query = rng.choice(
            [
                f"{name} inexistente {i}",
                f"{name} {rng.choice(index._vocab)}",
                " ".join(rng.sample(words, max(1, len(words) - 1))),
                f"{name} {normalize(rng.choice(names))}",
                f"{words[0]}x {' '.join(words[1:])} 17",
            ]
        )
        key_ids = list(index._word_candidates(query))
        reached += len(_check(index, query, key_ids, CUTOFF))
    assert reached > 300
