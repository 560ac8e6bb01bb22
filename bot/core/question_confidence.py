"""How sure the question path is: a probability, stated and calibrated, that the best candidate is the right
answer (the question is one the glossary answers, and this is the term). A logistic model of a few numbers the
ranking already has (Platt scaling over several features), fitted on the `tune` half of
tests/questions/questions.yaml by `python -m tests.questions.tune`, and checked for reliability (expected
calibration error) on the `held` half by the suite. Pure: numbers in, a number out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# The features, in the order of CALIBRATION's weights:
#   score     fused score of the best candidate (0–1)
#   margin    its lead over the second
#   dense     the cosine of the question's and the term's embeddings
#   lexical   BM25, saturated (0–1)
#   coverage  share of the question's words (by rarity) the term has anywhere
#   names     share of the question's words (by rarity) in the term's names: "what is Kubernetes" finds Kubernetes
#             in Kubeflow's definition (coverage 1) but not in its name (0)
#   words     log(1 + the question's words that carry meaning)
FEATURES = ("score", "margin", "dense", "lexical", "coverage", "names", "words")

# -- fitted on the `tune` half (python -m tests.questions.tune prints them); the suite checks the figures ---------
CALIBRATION_BIAS = -7.0854
CALIBRATION = (5.7619, 7.2707, 0.9190, 0.6412, 2.6608, -0.1138, 1.6287)
CONFIDENT_PROBABILITY = 0.88  # the best term is said with confidence from this probability that it is right


def features(
    score: float, second: float, dense: float, lexical: float, coverage: float, names: float, words: int
) -> tuple[float, ...]:
    """The calibration's features of a best candidate (`second`: the second's fused score, 0 when alone)."""
    return (score, score - second, dense, lexical, coverage, names, float(np.log1p(max(0, words))))


def probability_of(values: Sequence[float], weights: Sequence[float] = CALIBRATION, bias: float = CALIBRATION_BIAS):
    """The logistic model's probability for one row of features."""
    z = bias + sum(w * x for w, x in zip(weights, values, strict=True))
    if z < -30:  # (exp would overflow; the probability is 0 to every digit shown)
        return 0.0
    return float(1.0 / (1.0 + np.exp(-z)))
