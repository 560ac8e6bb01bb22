"""How the question path's settings were chosen.

    python -m tests.questions.tune                    (prints the settings; copy them into
                                                       bot/core/question_confidence.py, bot/core/word_space.py
                                                       and bot/core/questions.py)
    python -m tests.questions.tune --sets questions   (the first method's search: questions.yaml's tune half only)

The `tune` halves of the three labelled sets (questions.yaml; fresh.yaml and civio.yaml once their first reading
was recorded, bench/README.md), never their `held` halves:

1. The word space (bot/core/word_space.py): the cosine from which a member's word reads as a glossary word, and
   how many glossary words it may read as, by top-1 on these halves (ties: the stricter setting).
2. The calibration (bot/core/question_confidence.py): a logistic regression (L2, Newton's method, numpy) of
   "the best candidate is the right answer" on the features of each question's best candidate. Questions about a
   named term are left out: the rule answers them with that term, whatever the model says.
3. The confident threshold: the lowest probability at which, on these halves' out-of-fold predictions (the model
   fitted on four fifths, applied to the fifth, over 20 shuffles), at most 2 % of answerable questions are
   answered confidently and wrongly and at most 5 % of unanswerable ones confidently, a margin under the targets
   (3 % and 10 %) for a set nobody tuned on: in-sample figures flatter a rule (issue 34).
4. The unsure floor: the lowest fused score at which more than half of the unanswerable questions get nothing.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from pathlib import Path

import numpy as np

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.files import load_glossary
from bot.app.questions.service import Questions
from bot.core import word_space
from bot.core.question_confidence import FEATURES
from tests.questions.labelled import Labelled, answer_features, labelled, ranking

DATA = Path(__file__).resolve().parents[2] / "glossary_data"
COSINES = (0.75, 0.8, 0.85, 0.9, 0.95)
NEIGHBOURS = (1, 2, 3)
THRESHOLDS = [x / 100 for x in range(50, 100, 2)]
MAX_WRONG, MAX_TRAPS = 0.02, 0.05
PENALTY = 1.0  # L2 on the standardised weights


def fit(x: np.ndarray, y: np.ndarray, penalty: float = PENALTY) -> tuple[float, np.ndarray]:
    """Logistic regression by Newton's method on standardised features; (bias, weights) in the features' units."""
    mean, scale = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    ridge = np.eye(z.shape[1]) * penalty
    ridge[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + ridge @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    weights = w[1:] / scale
    return float(w[0] - weights @ mean), weights


def predict(x: np.ndarray, bias: float, weights: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(bias + x @ weights)))


def out_of_fold(x: np.ndarray, y: np.ndarray, shuffles: int = 20, folds: int = 5) -> np.ndarray:
    """Each row's probability from models that did not see it: one column per shuffle."""
    found = np.zeros((len(x), shuffles))
    for s in range(shuffles):
        order = np.random.default_rng(s).permutation(len(x))
        for k in range(folds):
            held = order[k::folds]
            kept = np.setdiff1d(order, held)
            found[held, s] = predict(x[held], *fit(x[kept], y[kept]))
    return found


def questions_for(glossary_dir: Path = DATA, cache: Path | None = None) -> Questions:
    glossary = load_glossary(glossary_dir)
    from bot.core.search import SearchIndex

    return Questions(CatalogHolder(Catalog(glossary, SearchIndex(glossary), "tune")), cache)


def word_space_search(sets: list[tuple[Questions, list[Labelled]]]) -> tuple[float, int]:
    """The word space's settings with the best top-1 over every set's tune half (ties: the stricter)."""
    best = None
    for cosine, neighbours in itertools.product(COSINES, NEIGHBOURS):
        word_space.WORD_COSINE, word_space.WORD_NEIGHBOURS = cosine, neighbours
        hits = total = 0
        for questions, rows in sets:
            r = ranking(rows, [questions.ask_now(row.q) for row in rows])["all answerable"]
            hits, total = hits + r.top1 * r.count, total + r.count
        print(f"  WORD_COSINE={cosine} WORD_NEIGHBOURS={neighbours}: top-1 {hits / total:.3f}")
        key = (round(hits), cosine, -neighbours)
        best = max(best or key, key)
    assert best is not None
    return best[1], -best[2]


def threshold(rows: list[Labelled], answers, oof: np.ndarray, kept: list[int]) -> float:
    """The lowest probability that keeps the out-of-fold confident wrong and trap rates within the margins."""
    answerable = [i for i, row in enumerate(rows) if row.expect is not None]
    traps = [i for i, row in enumerate(rows) if row.expect is None]
    right = {i for i in answerable if answers[i].candidates and answers[i].candidates[0].term.id == rows[i].expect}
    position = {row: k for k, row in enumerate(kept)}
    rows_at = range(len(rows))
    always = np.array([bool(a.candidates) for a in answers])  # left out of the fit: a named term, or no candidate
    for t in THRESHOLDS:
        confident = oof >= t
        sure = [confident[position[i]] if i in position else np.repeat(always[i], oof.shape[1]) for i in rows_at]
        wrong = np.mean([sum(sure[i][s] for i in answerable if i not in right) for s in range(oof.shape[1])])
        trapped = np.mean([sum(sure[i][s] for i in traps) for s in range(oof.shape[1])])
        ok = wrong <= MAX_WRONG * len(answerable) and trapped <= MAX_TRAPS * len(traps)
        print(f"  p >= {t:.2f}: out of fold, confident wrong {wrong:.1f}, unanswerable confident {trapped:.1f}")
        if ok:
            return t
    return THRESHOLDS[-1]


def main(argv: list[str] | None = None) -> None:
    from tests.questions.figures import SETS, SHIPPED, import_civio

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    names = parser.parse_args(argv).sets
    with tempfile.TemporaryDirectory() as work:
        folders = {"shipped": SHIPPED, "civio": import_civio(Path(work, "civio")) if "civio" in names else None}
        services = {name: questions_for(folder, Path(work, "cache")) for name, folder in folders.items() if folder}
        sets = [(services[SETS[name][1]], labelled("tune", SETS[name][0])) for name in names]
        print(f"1. word space, on the tune halves of {', '.join(names)}")
        cosine, neighbours = word_space_search(sets)
        word_space.WORD_COSINE, word_space.WORD_NEIGHBOURS = cosine, neighbours
        print(f"WORD_COSINE = {cosine}\nWORD_NEIGHBOURS = {neighbours}")
        rows = [row for _, set_rows in sets for row in set_rows]
        answers = [questions.ask_now(row.q) for questions, set_rows in sets for row in set_rows]
    calibrate(rows, answers)


def calibrate(rows: list[Labelled], answers) -> None:
    kept = [i for i, a in enumerate(answers) if a.candidates and a.probability < 1.0]
    x = np.array([answer_features(rows[i].q, answers[i]) for i in kept])
    y = np.array([float(answers[i].candidates[0].term.id == rows[i].expect) for i in kept])
    print(f"2. calibration, on {len(kept)} questions")
    bias, weights = fit(x, y)
    print(f"CALIBRATION_BIAS = {bias:.4f}")
    print(f"CALIBRATION = ({', '.join(f'{w:.4f}' for w in weights)})  # {', '.join(FEATURES)}")
    print("3. threshold")
    t = threshold(rows, answers, out_of_fold(x, y), kept)
    print(f"CONFIDENT_PROBABILITY = {t}")
    print("4. unsure floor")
    traps = [a for r, a in zip(rows, answers, strict=True) if r.expect is None]
    floors = [f / 100 for f in range(10, 50, 2)]
    offered = {f: sum(bool(a.candidates) and a.candidates[0].score >= f for a in traps) for f in floors}
    floor = min(f for f in floors if offered[f] < len(traps) / 2)
    print(f"UNSURE_SCORE = {floor}")


if __name__ == "__main__":
    main()
