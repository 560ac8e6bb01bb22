"""What the answer-rate chart costs, drawn with Pillow (this tree), beside the hand-made renderer it replaced (pure
Python with its lettering rasterised into a module) run in the same minutes: the first chart, Pillow's import within
it, later charts, the memory it adds and the PNG's size.

    python -m bench.bench_chart [--runs 3] [--baseline REF]

Each figure comes from a fresh interpreter that has already imported the bot (as a running bot has); each time
printed is the fastest of --runs, the memory that of the run with the fastest first chart. The hand-made renderer
is read from git at REF (by default the last commit that had it) into a temporary directory; without git, or with
--baseline none, only this tree is measured.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FONT = "bot/app/insights/chart_font.py"

COMMON = r"""
import json, sys, time
from datetime import date, timedelta
import bot.app.application  # the bot as it runs, before any chart
def rss():
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) for l in fh if l.startswith("VmRSS:")) / 1024
days = [date(2026, 11, 1) + timedelta(days=n) for n in range(28)]
rates = [None if n % 7 == 6 else 50 + n for n in range(28)]
def measure(trend_png, imported_s):
    t0 = time.perf_counter()
    png = trend_png(days, rates, title="Tasa de respuesta diaria (4 semanas)", ylabel="% respondidas")
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(10):
        trend_png(days, rates, title="Tasa de respuesta diaria (4 semanas)", ylabel="% respondidas")
    later = (time.perf_counter() - t0) / 10
    out = {"before_mb": before, "after_mb": rss(), "import_s": imported_s, "first_s": (imported_s or 0) + first}
    print(json.dumps({**out, "later_s": later, "png_kb": len(png) / 1024}))
before = rss()
"""

PILLOW = (
    COMMON
    + r"""
assert "PIL" not in sys.modules, "the bot loaded Pillow before any chart"
t0 = time.perf_counter()
from PIL import Image, ImageDraw, ImageFont  # what the first chart imports, and the plugins its save registers
Image.preinit()
imported = time.perf_counter() - t0
from bot.app.insights.chart import trend_png
measure(trend_png, imported)
"""
)

HAND_MADE = (
    COMMON
    + r"""
import importlib.util
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
load("bot.app.insights.chart_font", sys.argv[1] + "/chart_font.py")  # the name the old chart.py imports
measure(load("hand_made_chart", sys.argv[1] + "/chart.py").trend_png, None)
assert not {"PIL", "matplotlib", "numpy"} & set(sys.modules)
"""
)


def _git(*args: str) -> str | None:
    """git's output, None if it failed (or there is no git)."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _last_with_the_hand_made_renderer() -> str:
    """The parent of the commit that deleted chart_font.py, or HEAD while it is still there ("" if neither)."""
    deleted = _git("log", "-1", "--format=%H", "--diff-filter=D", "HEAD", "--", FONT)
    if deleted:
        return f"{deleted}^"
    return "HEAD" if _git("cat-file", "-e", f"HEAD:{FONT}") is not None else ""


def _extract(ref: str, into: Path) -> bool:
    for name in ("chart.py", "chart_font.py"):
        text = _git("show", f"{ref}:bot/app/insights/{name}")
        if text is None:
            return False
        (into / name).write_text(text + "\n", encoding="utf-8")
    return True


def _best(code: str, runs: int, *args: str) -> dict:
    results = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout))
    best = min(results, key=lambda r: r["first_s"])
    return {**best, "later_s": min(r["later_s"] for r in results)}  # each time the fastest of the runs


def _rows(label: str, figures: dict) -> list[str]:
    ms = {key: (figures[key] or 0) * 1000 for key in ("first_s", "import_s", "later_s")}
    before, after = figures["before_mb"], figures["after_mb"]
    pillow = f" (of which importing Pillow {ms['import_s']:.1f})" if figures["import_s"] is not None else ""
    return [
        label,
        f"  first chart: {ms['first_s']:.1f} ms{pillow}",
        f"  later charts: {ms['later_s']:.1f} ms each",
        f"  resident memory: {before:.0f} MB before, {after:.0f} MB after ({after - before:+.1f} MB)",
        f"  PNG: {figures['png_kb']:.1f} KB",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", default=None, help="git ref of the hand-made renderer, or 'none'")
    args = parser.parse_args(argv)
    ref = args.baseline or _last_with_the_hand_made_renderer()
    lines = _rows("Pillow (this tree)", _best(PILLOW, args.runs))
    with tempfile.TemporaryDirectory() as tmp:
        if ref and ref != "none" and _extract(ref, Path(tmp)):
            commit = _git("rev-parse", "--short", ref)
            lines += _rows(f"hand-made renderer ({commit}), same run", _best(HAND_MADE, args.runs, tmp))
        else:
            lines.append("hand-made renderer: not measured (no git, or no commit that has it)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
