"""How alike two normalised texts are: the score suggestions are ranked by, and the same score computed with
fewer calls where a bound shows that a scorer cannot raise it (tests/core/test_similarity.py holds the two
equal)."""

from __future__ import annotations

from rapidfuzz import fuzz

from bot.core.normalize import compact

SET_WEIGHT = 0.85  # token_set_ratio says 100 whenever one text's words hold the other's: weighed down
MARGIN = 1e-9  # slack between a bound computed here and the score rapidfuzz computes in its own arithmetic


def similarity(query: str, key: str) -> float:
    """How alike two normalised texts are, 0–100, for ranking suggestions."""
    return max(
        fuzz.ratio(compact(query), compact(key)),
        fuzz.token_sort_ratio(query, key),
        SET_WEIGHT * fuzz.token_set_ratio(query, key),
    )


def length_bound(a: int, b: int) -> float:
    """The highest `fuzz.ratio` of two texts of lengths `a` and `b`: 100 · (1 − Indel distance / (a + b)), and
    turning one into the other inserts or deletes at least |a − b| characters."""
    return 200 * min(a, b) / (a + b) if a + b else 100.0


def quick_similarity(query: str, packed_query: str, key: str, packed_key: str) -> float:
    """`similarity(query, key)` (the same number), calling a scorer only when it can raise the best so far; the
    compact forms are given. A one-letter typo usually needs the first scorer only."""
    score = fuzz.ratio(packed_query, packed_key)
    if score <= length_bound(len(query), len(key)) + MARGIN:  # (token_sort_ratio compares texts of these lengths)
        score = max(score, fuzz.token_sort_ratio(query, key))
    if score < SET_WEIGHT * 100:
        score = max(score, SET_WEIGHT * fuzz.token_set_ratio(query, key))
    return score
