"""How the thresholds of bot/core/questions.py were chosen: a grid search on the `tune` half only.

    python -m tests.questions.tune        (prints the best settings; copy them into bot/core/questions.py)

Rules: confident answers to answerable questions as many as possible, while no confident answer on this half is
wrong and at most one unanswerable question in 25 is answered confidently. (Margins well under the targets of 5 %
and 15 %: with about seventy questions a side, one question is 1.4 %; a looser rule, 3 % and 10 %, met the tune
half and missed both targets on the held-out half on 2026-12-03.) The rule must also hold one step looser on each
threshold: a setting at the very edge of what this half allows is fitted to this half's particular questions (the
held-out half showed it on 2026-12-03: no trap confident on tune, 5 of 33 on held; and inside the tune half, 30
random splits fitted on one side and measured on the other: traps answered confidently 4.5 % on average, 26 % at
worst, without this rule; 2.1 % and 8.7 % with it, for 6 points fewer confident right answers). The unsure floor then
keeps as many answerable questions as it can out of "nothing" while keeping most unanswerable ones in it: the lowest
floor at which more than half of them get nothing."""

from __future__ import annotations

import itertools
from pathlib import Path

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.files import load_glossary
from bot.app.questions.service import Questions
from bot.core.questions import Answer
from bot.core.search import SearchIndex
from tests.questions.labelled import labelled

DATA = Path(__file__).resolve().parents[2] / "glossary_data"
# (score, margin, coverage): the grid, and one step of each
GRID = ([x / 100 for x in range(24, 62, 2)], [x / 100 for x in range(0, 30, 2)], [0.0, 0.1, 0.2, 0.3, 0.4, 0.5])
STEPS = (0.02, 0.02, 0.1)


def _verdicts(answers: list[Answer], score: float, margin: float, coverage: float, unsure: float):
    found = []
    for a in answers:
        c = a.candidates
        if not c:
            found.append("nothing")
            continue
        gap = c[0].score - (c[1].score if len(c) > 1 else 0.0)
        if c[0].score >= 1.0 or (c[0].score >= score and gap >= margin and c[0].coverage >= coverage):
            found.append("confident")
        else:
            found.append("unsure" if c[0].score >= unsure else "nothing")
    return found


def main() -> None:
    glossary = load_glossary(DATA)
    questions = Questions(CatalogHolder(Catalog(glossary, SearchIndex(glossary), "tune")), None)
    rows = labelled("tune")
    answers = [questions.ask_now(r.q) for r in rows]
    answerable = sum(r.expect is not None for r in rows)
    traps = len(rows) - answerable
    outcome = {}
    for setting in itertools.product(*GRID):
        right = wrong = trapped = 0
        for row, answer, verdict in zip(rows, answers, _verdicts(answers, *setting, 0.0), strict=True):
            if verdict != "confident":
                continue
            if row.expect is None:
                trapped += 1
            elif answer.candidates[0].term.id == row.expect:
                right += 1
            else:
                wrong += 1
        outcome[tuple(round(x, 2) for x in setting)] = (right, wrong, trapped)

    def allowed(setting) -> bool:
        _, wrong, trapped = outcome.get(tuple(round(x, 2) for x in setting), (0, 0, 0))
        return wrong == 0 and trapped <= traps / 25

    best = None
    for setting, (right, _, trapped) in outcome.items():
        looser = [tuple(x - step if i == k else x for k, x in enumerate(setting)) for i, step in enumerate(STEPS)]
        if allowed(setting) and all(allowed(s) for s in looser):
            key = (right, -trapped, *setting)
            best = max(best or key, key)
    assert best is not None
    right, trapped, score, margin, coverage = best
    print(f"CONFIDENT_SCORE={score} CONFIDENT_MARGIN={margin} CONFIDENT_COVERAGE={coverage}")
    print(f"  confident right {right}/{answerable}, wrong 0, unanswerable confident {-trapped}/{traps}")
    floors = {}
    for unsure in [x / 100 for x in range(10, 50, 2)]:
        verdicts = _verdicts(answers, score, margin, coverage, unsure)
        kept = sum(v != "nothing" for r, v in zip(rows, verdicts, strict=True) if r.expect is not None)
        offered = sum(v != "nothing" for r, v in zip(rows, verdicts, strict=True) if r.expect is None)
        floors[unsure] = offered
        print(f"UNSURE_SCORE={unsure}: answerable offered {kept}/{answerable}, unanswerable offered {offered}/{traps}")
    lowest = min(f for f, offered in floors.items() if offered < traps / 2)
    print(f"UNSURE_SCORE={lowest} (the lowest floor that leaves most unanswerable questions with nothing)")


if __name__ == "__main__":
    main()
