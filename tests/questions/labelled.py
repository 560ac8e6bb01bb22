"""The team's labelled questions (questions.yaml) and the figures the README reports from them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from bot.core.questions import Answer, Verdict

QUESTIONS = Path(__file__).with_name("questions.yaml")
KINDS = ("paraphrase-es", "keyword-es", "colloquial-es", "en", "multi", "trap")


@dataclass(frozen=True)
class Labelled:
    q: str
    kind: str
    expect: str | None
    split: str


def labelled(split: str | None = None) -> list[Labelled]:
    rows = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))["questions"]
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
    by_kind["all answerable"] = [r for kind in KINDS for r in by_kind.get(kind, [])]
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
