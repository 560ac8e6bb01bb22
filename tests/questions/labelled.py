"""Labelled questions (questions.yaml: the team's; fresh.yaml and civio.yaml: written apart, see FRESH.md) and the
figures bench/README.md reports from them: ranking, certainty, and the calibration's reliability."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from bot.core.questions import Answer, Verdict, calibration_features, read_question

QUESTIONS = Path(__file__).with_name("questions.yaml")
FRESH = Path(__file__).with_name("fresh.yaml")
CIVIO = Path(__file__).with_name("civio.yaml")
KINDS = ("paraphrase-es", "keyword-es", "colloquial-es", "en", "multi", "trap")


@dataclass(frozen=True)
class Labelled:
    q: str
    kind: str
    expect: str | None
    split: str


def labelled(split: str | None = None, path: Path = QUESTIONS) -> list[Labelled]:
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]
    found = [Labelled(r["q"], r["kind"], r["expect"], r["split"]) for r in rows]
    return [r for r in found if split is None or r.split == split]


@dataclass(frozen=True)
class Ranking:
    """Per kind: how many, top-1, top-3 and MRR (answerable kinds), as fractions."""

    count: int
    top1: float
    top3: float
    mrr: float


@dataclass(frozen=True)
class Certainty:
    """Of the answerable questions: answered confidently and right, confidently and wrong; of the unanswerable:
    answered confidently (any term)."""

    confident_right: float
    confident_wrong: float
    unanswerable_confident: float
    answerable: int
    unanswerable: int


def rank_of(answer: Answer, expect: str) -> int | None:
    ids = [c.term.id for c in answer.candidates]
    return ids.index(expect) + 1 if expect in ids else None


def ranking(rows: list[Labelled], answers: list[Answer]) -> dict[str, Ranking]:
    by_kind: dict[str, list[int | None]] = {}
    for row, answer in zip(rows, answers, strict=True):
        if row.expect is not None:
            by_kind.setdefault(row.kind, []).append(rank_of(answer, row.expect))
    by_kind["all answerable"] = [r for ranks in list(by_kind.values()) for r in ranks]
    return {
        kind: Ranking(
            len(ranks),
            sum(r == 1 for r in ranks) / len(ranks),
            sum(r is not None and r <= 3 for r in ranks) / len(ranks),
            sum(1 / r for r in ranks if r) / len(ranks),
        )
        for kind, ranks in by_kind.items()
        if ranks
    }


def certainty(rows: list[Labelled], answers: list[Answer]) -> Certainty:
    right = wrong = trapped = answerable = unanswerable = 0
    for row, answer in zip(rows, answers, strict=True):
        confident = answer.verdict is Verdict.CONFIDENT
        if row.expect is None:
            unanswerable += 1
            trapped += confident
        else:
            answerable += 1
            right += confident and answer.candidates[0].term.id == row.expect
            wrong += confident and answer.candidates[0].term.id != row.expect
    return Certainty(right / answerable, wrong / answerable, trapped / unanswerable, answerable, unanswerable)


def answer_features(question: str, answer: Answer) -> tuple[float, ...]:
    """The calibration's features of an answer's best candidate (bot/core/question_confidence.py)."""
    return calibration_features(answer.candidates, len(read_question(question).words))


def right(row: Labelled, answer: Answer) -> bool:
    """Whether the answer's best candidate is the right answer (the question is answerable, and this is it)."""
    return row.expect is not None and bool(answer.candidates) and answer.candidates[0].term.id == row.expect


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    stated: float  # mean probability stated
    observed: float  # share right


def reliability(rows: list[Labelled], answers: list[Answer], bins: int = 10) -> list[Bin]:
    """The stated probability against how often the best candidate was right, in equal-width bins (empty ones
    left out). Questions without a candidate state 0."""
    pairs = [(a.probability if a.candidates else 0.0, right(r, a)) for r, a in zip(rows, answers, strict=True)]
    found = []
    for k in range(bins):
        low, high = k / bins, (k + 1) / bins
        inside = [(p, ok) for p, ok in pairs if low <= p < high or (k == bins - 1 and p == 1.0)]
        if inside:
            stated = sum(p for p, _ in inside) / len(inside)
            found.append(Bin(low, high, len(inside), stated, sum(ok for _, ok in inside) / len(inside)))
    return found


def expected_calibration_error(rows: list[Labelled], answers: list[Answer], bins: int = 10) -> float:
    """ECE: the gap between stated and observed, bin by bin, weighted by the bin's share of the questions."""
    table = reliability(rows, answers, bins)
    total = sum(b.count for b in table)
    return sum(b.count * abs(b.stated - b.observed) for b in table) / total
