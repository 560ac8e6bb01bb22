"""The answer-rate chart (a PNG) of the weekly digest and of /glosario-admin estadisticas. matplotlib is imported
on the first chart drawn, never at start (its import costs most of a second and tens of MB: bench/bench_chart.py)."""

from __future__ import annotations

import io
import threading
from datetime import date

_DRAWING = threading.Lock()  # matplotlib's pyplot state is global: one chart at a time


def trend_png(days: list[date], rates: list[float | None], *, title: str, ylabel: str) -> bytes:
    """A line of daily answer rates (0–100 %, gaps for days without lookups), as PNG bytes. CPU-bound: call it from
    a worker thread."""
    with _DRAWING:
        import matplotlib

        matplotlib.use("Agg")  # no display, ever
        from matplotlib.figure import Figure

        figure = Figure(figsize=(6, 2.6), dpi=100)
        axes = figure.add_subplot()
        axes.plot(days, [float("nan") if r is None else r for r in rates], marker="o", markersize=3, color="#5865F2")
        axes.set_ylim(0, 100)
        axes.set_title(title, fontsize=10)
        axes.set_ylabel(ylabel, fontsize=8)
        axes.tick_params(labelsize=7)
        axes.grid(alpha=0.3)
        figure.autofmt_xdate()
        figure.tight_layout()
        out = io.BytesIO()
        figure.savefig(out, format="png")
        return out.getvalue()
