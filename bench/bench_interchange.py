"""Exporting and importing 10,000 terms in each format (target: an import of 10,000 entries under 5 s).

python -m bench.bench_interchange [--terms 10000] [--plain] [--senses N] [--formats tbx,csv] [--profile DIR]

Every term carries what real terminology does (a note, an example, two sources, tags, a form to avoid, its id in
its source) unless --plain (the synthetic terms as generated, as the first measurements were). Each phase is
timed on the clock and in CPU time of this process: on a machine shared with other work the clock runs on while
the process waits for a core, so the CPU time is what the process itself cost.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.app.files import load_glossary
from bot.app.interchange import formats as interchange
from bot.app.interchange import imports
from bot.core.model import Glossary, Sense, Source
from tests.synthetic import generate

TARGET_S = 5.0


@dataclasses.dataclass
class Timed:
    wall: float
    cpu: float

    def __str__(self) -> str:
        return f"{self.wall:5.2f} s ({self.cpu:5.2f} CPU)"


def timed(work: Callable[[], Any], profile: cProfile.Profile | None = None) -> tuple[Any, Timed]:
    wall, cpu = time.perf_counter(), time.process_time()
    if profile is not None:
        profile.enable()
    result = work()
    if profile is not None:
        profile.disable()
    return result, Timed(time.perf_counter() - wall, time.process_time() - cpu)


def with_terminology(glossary: Glossary) -> Glossary:
    """The same terms, each with a note, an example, two sources, two tags, a form to avoid and a source id."""
    terms = tuple(
        dataclasses.replace(
            term,
            note=f"Nota sobre {term.term}: cuándo se usa y cuándo no.",
            example=f"Configuramos {term.term} en el clúster de pruebas.",
            sources=(Source("Manual interno, p. 12"), Source("Documentación", f"https://example.org/fuente/{i}")),
            tags=("sintético", f"grupo {i % 10}"),
            deprecated=(f"{term.term} antiguo",),
            source_id=f"c{i}",
        )
        for i, term in enumerate(glossary.terms)
    )
    return Glossary(glossary.title, glossary.subtitle, glossary.language, terms)


def with_senses(glossary: Glossary, every: int) -> Glossary:
    """Every `every`-th term with a second sense (its own definition, category, note and source id): exported as an
    entry of its own, gathered again on import."""
    terms = tuple(
        dataclasses.replace(
            term,
            senses=(
                Sense(
                    f"Otro sentido de {term.term}: {term.definition[:200]}",
                    "Otros sentidos",
                    note=f"El segundo sentido de {term.term}.",
                    source_id=f"s{i}",
                ),
            ),
        )
        if i % every == 0
        else term
        for i, term in enumerate(glossary.terms)
    )
    return Glossary(glossary.title, glossary.subtitle, glossary.language, terms)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terms", type=int, default=10_000)
    parser.add_argument("--plain", action="store_true", help="the synthetic terms without the terminology fields")
    parser.add_argument("--formats", default=",".join(interchange.FORMATS))
    parser.add_argument("--profile", type=Path, help="write each format's import profile here (FORMAT.prof)")
    parser.add_argument("--senses", type=int, default=0, metavar="N", help="every N-th term with a second sense")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glosario-bench-interchange-") as tmp:
        generate(Path(tmp) / "glossary", args.terms)
        glossary = load_glossary(Path(tmp) / "glossary")
        glossary = glossary if args.plain else with_terminology(glossary)
        glossary = with_senses(glossary, args.senses) if args.senses else glossary
        senses = sum(1 + len(term.senses) for term in glossary)
        print(
            f"{len(glossary):,} terms{' (plain)' if args.plain else ', every terminology field filled'}"
            + (f", {senses:,} senses (every {args.senses}th term with two)" if args.senses else "")
        )
        for fmt in args.formats.split(","):
            text, exported = timed(lambda fmt=fmt: interchange.export(glossary, fmt))
            profile = cProfile.Profile() if args.profile else None
            out = Path(tmp) / fmt
            # What `import` does: read, check every entry as `validate` would, write the term files.
            imported, read = timed(lambda fmt=fmt, text=text: interchange.read(text, fmt), profile)
            summary, checked = timed(lambda imported=imported: imports.report(imported), profile)
            write = lambda s=summary, out=out: imports.write(out, s.files, s.title, "es", s.languages)  # noqa: E731
            _, written = timed(write, profile)
            whole = Timed(read.wall + checked.wall + written.wall, read.cpu + checked.cpu + written.cpu)
            again, validated = timed(lambda out=out: load_glossary(out))
            assert sum(1 + len(t.senses) for t in again) == summary.imported  # `validate` accepts what was written
            if profile is not None:
                args.profile.mkdir(parents=True, exist_ok=True)
                profile.dump_stats(args.profile / f"{fmt}.prof")
            verdict = "met" if whole.cpu < TARGET_S else "NOT met"
            print(
                f"{fmt:<12} {len(text) / 1e6:5.1f} MB  export {exported}  import {whole} = read {read.cpu:4.2f} + "
                f"check {checked.cpu:4.2f} + write {written.cpu:4.2f} CPU  (then validate {validated}; "
                f"{summary.imported:,} imported, {len(summary.refused)} refused, {sum(summary.dropped.values())} "
                f"fields dropped)  target < {TARGET_S:.0f} s: {verdict}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
