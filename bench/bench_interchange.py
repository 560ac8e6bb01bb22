"""Exporting and importing 10,000 terms in each format (target: under 5 s each way).

python -m bench.bench_interchange [--terms 10000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bot.app import imports, interchange
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
            t0 = time.perf_counter()  # what `import` does: read, check every entry as `validate` would, write
            summary = imports.report(interchange.read(text, fmt))
            imports.write(Path(tmp) / fmt, summary.files, "Importado")
            back = time.perf_counter() - t0
            t0 = time.perf_counter()
            assert len(load_glossary(Path(tmp) / fmt)) == summary.imported  # `validate` accepts what was written
            validated = time.perf_counter() - t0
            ok = "met" if max(exported, back) < TARGET_S else "NOT met"
            print(
                f"{fmt:<12} {len(text) / 1e6:5.1f} MB   export {exported:5.2f} s   import {back:5.2f} s   "
                f"(then validate {validated:4.2f} s; {summary.imported:,} imported, {len(summary.refused)} refused; "
                f"target < {TARGET_S:.0f} s each way: {ok})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
