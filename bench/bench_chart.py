"""What the answer-rate chart costs: the first chart (which decodes the lettering, bot.app.insights.chart_font), later
charts, and the memory it adds.

    python -m bench.bench_chart

Each figure comes from a fresh interpreter that has already imported the bot (as a running bot has). The chart is
drawn in pure Python (no plotting or imaging library): the child also checks that drawing imports none.
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = r"""
import json, resource, time
from datetime import date, timedelta
import bot.app.application  # the bot as it runs, before any chart
def rss():
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) for l in fh if l.startswith("VmRSS:")) / 1024
before = rss()
from bot.app.insights.chart import trend_png
days = [date(2026, 11, 1) + timedelta(days=n) for n in range(28)]
rates = [None if n % 7 == 6 else 50 + n for n in range(28)]
t0 = time.perf_counter()
png = trend_png(days, rates, title="Tasa de respuesta", ylabel="%")
first = time.perf_counter() - t0
t0 = time.perf_counter()
for _ in range(10):
    trend_png(days, rates, title="Tasa de respuesta", ylabel="%")
later = (time.perf_counter() - t0) / 10
assert not {"PIL", "matplotlib", "numpy"} & set(__import__("sys").modules)
out = {"before_mb": before, "after_mb": rss(), "first_s": first, "later_s": later}
print(json.dumps({**out, "png_kb": len(png) / 1024}))
"""


def main() -> int:
    runs = []
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    best = min(runs, key=lambda r: r["first_s"])
    first, later = best["first_s"] * 1000, best["later_s"] * 1000
    print(f"first chart (decodes the lettering): {first:.0f} ms; later charts: {later:.0f} ms each")
    before, after = best["before_mb"], best["after_mb"]
    print(f"resident memory: {before:.0f} MB before, {after:.0f} MB after (+{after - before:.0f} MB)")
    print(f"PNG size: {best['png_kb']:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
