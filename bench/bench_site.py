"""The web page (`glosario-bot site`) in a real browser: how long it takes to load, to filter on each keystroke and
to show everything again, for the shipped glossary (the baseline of the same run) and for synthetic glossaries of
1,000 and 10,000 terms.

    python -m bench.bench_site [--terms 1000 10000] [--repeat 5]

Needs Debian's Chromium and chromedriver (what the page tests use: `apt-get install chromium chromium-driver`) and
selenium (the test extra). Each page is written by the same code as `glosario-bot site` into a temporary folder
and opened from disk, headless, at a desktop size. Times are measured inside the page with `performance.now()`:
a keystroke is the `input` event the box fires, handled ("script"), then the layout it causes forced ("+ layout":
what the reader waits for before the page is drawn again); "show all again" is the box emptied after a search that
hid every term but one. Medians of `--repeat` runs of each query. The page's load is the navigation's
`loadEventEnd`. Wall-clock times depend on what else the machine runs: measure when it is quiet, and read the sizes
against the baseline.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.app.files import load_glossary
from bot.app.interchange.site import write_site
from bot.config import default_data_dir
from tests.helpers import headless_chromium
from tests.synthetic import generate

# What a reader types: a name's start, a whole name, a typo, a word of the definitions, nothing found.
QUERIES = ("ho", "horovod", "horovd", "distribuido", "zzqx")

# Types `text` into the box (as the input events of typing it whole would leave it), then forces layout; ms.
_TYPE = """
const input = document.getElementById("_buscar");
const start = performance.now();
input.value = arguments[0];
input.dispatchEvent(new Event("input", {bubbles: true}));
const handled = performance.now();
document.body.offsetHeight;
return [handled - start, performance.now() - handled];
"""
_LOADED = (  # (0 while the load event still runs)
    "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd && n.loadEventEnd - n.startTime"
)


def measure(driver, page: Path, repeat: int) -> dict[str, float]:
    loads, typed, cleared = [], {q: [] for q in QUERIES}, []
    for _ in range(repeat):
        driver.get(page.as_uri())
        while not (loaded := driver.execute_script(_LOADED)):  # (the load event may still be running)
            time.sleep(0.05)
        loads.append(loaded)
        for query in QUERIES:
            typed[query].append(driver.execute_script(_TYPE, query))
            driver.execute_script(_TYPE, "")
        driver.execute_script(_TYPE, "horovod")
        cleared.append(driver.execute_script(_TYPE, ""))
    figures = {"load": statistics.median(loads)}
    for name, times in [*((f"«{q}»", t) for q, t in typed.items()), ("show all again", cleared)]:
        figures[f"{name}: script"] = statistics.median(script for script, _ in times)
        figures[f"{name}: + layout"] = statistics.median(script + layout for script, layout in times)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terms", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pages = {"shipped (17 terms)": write_site(load_glossary(default_data_dir()), Path(tmp) / "shipped")}
        for n in args.terms:
            generate(Path(tmp) / f"g{n}", n)
            pages[f"{n:,} terms"] = write_site(load_glossary(Path(tmp) / f"g{n}"), Path(tmp) / f"site{n}")
        driver = headless_chromium((1280, 900), "--disable-dev-shm-usage")
        try:
            results = {name: measure(driver, page, args.repeat) for name, page in pages.items()}
        finally:
            driver.quit()
        sizes = {name: page.stat().st_size / 1e6 for name, page in pages.items()}
    names = list(results)
    print(f"{'ms (median of ' + str(args.repeat) + ')':<24}" + "".join(f"{n:>20}" for n in names))
    print(f"{'page size, MB':<24}" + "".join(f"{sizes[n]:>20.2f}" for n in names))
    for row in results[names[0]]:
        print(f"{row:<24}" + "".join(f"{results[n][row]:>20.1f}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
