"""The lookup's shortcuts give the numbers of their plain definitions (issue 26): `quick_similarity` skips a scorer
only where it cannot raise the best, `length_bound` is never below `fuzz.ratio`, and sifting a query's candidates
by `token_ratio` keeps every key that `similarity` scores PLAUSIBLE or more."""

from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz import fuzz

from bot.core.normalize import compact, normalize
from bot.core.search import PLAUSIBLE
from bot.core.similarity import SET_WEIGHT, length_bound, quick_similarity, similarity

# Words that share letters and repeat, so that texts overlap, contain each other and differ by a letter.
_WORDS = ["horovod", "horovd", "ray", "datos", "dato", "de", "paralelismo", "paralelo", "modelos", "en", "produccion"]
texts = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join)


@given(texts, texts)
def test_quick_similarity_is_similarity(query, key):
    assert quick_similarity(query, compact(query), key, compact(key)) == similarity(query, key)


@given(st.text("abc ", max_size=12), st.text("abc ", max_size=12))
def test_no_ratio_exceeds_the_length_bound(a, b):
    assert fuzz.ratio(a, b) <= length_bound(len(a), len(b)) + 1e-9


@given(texts, texts)
def test_token_ratio_reaches_plausible_wherever_a_word_scorer_does(query, key):
    """`SearchIndex._rank_shown` takes max(ratio, token sort, SET_WEIGHT · token_ratio) for similarity: the same."""
    best_words = fuzz.token_ratio(query, key)
    assert best_words == max(fuzz.token_sort_ratio(query, key), fuzz.token_set_ratio(query, key))
    ratio = fuzz.ratio(compact(query), compact(key))
    assert max(ratio, fuzz.token_sort_ratio(query, key), SET_WEIGHT * best_words) == similarity(query, key)
    if similarity(query, key) >= PLAUSIBLE:
        assert max(ratio, best_words) >= PLAUSIBLE


def test_a_name_with_extra_words_is_offered_as_before(shipped_index):
    """The name inside a longer question comes first among the suggestions, as it did before the sifting."""
    answer = shipped_index.lookup("Horovod en producción")
    assert answer.candidates[0].term.id == "horovod"  # (an Ambiguous: the extra words are no typo)
    assert normalize("Horovod en producción") == "horovod en produccion"
