"""Exporting and importing 10,000 terms in each format (target: under 5 s each way).

python -m bench.bench_interchange [--terms 10000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bot.app import interchange
from bot.app.files import load_glossary
from tests.synthetic import generate

TARGET_S = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terms", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glosario-bench-interchange-") as tmp:
        generate(Path(tmp) / "glossary", args.terms)
        glossary = load_glossary(Path(tmp) / "glossary")
        for fmt in interchange.FORMATS:
            t0 = time.perf_counter()
            text = interchange.export(glossary, fmt)
            exported = time.perf_counter() - t0
            t0 = time.perf_counter()
            imported = interchange.read(text, fmt)
            interchange.write_term_files(imported, Path(tmp) / fmt, "Importados")
            load_glossary(Path(tmp) / fmt)  # and they validate
            back = time.perf_counter() - t0
            ok = "met" if max(exported, back) < TARGET_S else "NOT met"
            print(
                f"{fmt:<12} {len(text) / 1e6:5.1f} MB   export {exported:5.2f} s   import+validate {back:5.2f} s   "
                f"({len(imported.entries):,} terms; target < {TARGET_S:.0f} s each: {ok})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
