"""Question-path benchmark: first index build, repeated start with cached vectors, latency per question and
memory on top, at 10,000 terms by default; the name path's lookup on the same glossary is the baseline.

    python -m bench.bench_questions                  # 10,000 synthetic terms (about a minute on one core)
    python -m bench.bench_questions --terms 1000

Each phase runs in a fresh child process so that start-up time and memory are real. The questions are the
team's labelled set (tests/questions/questions.yaml), asked of a synthetic glossary plus the shipped terms.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"ask_p99_ms": 10.0, "repeat_extra_s": 1.0, "extra_mb": 100.0}  # from issue 24, at 10,000 terms


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        return int(fh.read().split("VmRSS:")[1].split()[0]) / 1024


def child(data_dir: Path, cache_dir: Path) -> dict:
    from bot.app.catalog import load_catalog
    from bot.app.questions import Questions
    from bot.app.sentence_model import SentenceModel
    from bot.heap import settle
    from tests.questions.labelled import labelled

    catalog_holder = __import__("bot.app.catalog", fromlist=["CatalogHolder"]).CatalogHolder(load_catalog(data_dir))
    settle()
    out: dict = {"terms": len(catalog_holder.glossary)}
    questions_text = [r.q for r in labelled()]
    lookups = []
    for q in questions_text:
        start = time.perf_counter()
        catalog_holder.index.lookup(q + " ")  # (a space: past the index's own memo of earlier runs)
        lookups.append((time.perf_counter() - start) * 1000)
    out["lookup_p50_ms"], out["lookup_p99_ms"] = _percentiles(lookups)
    before = _rss_mb()
    model = SentenceModel(cache_dir)
    start = time.perf_counter()
    model.load()
    out["model_load_s"] = time.perf_counter() - start
    questions = Questions(catalog_holder, cache_dir, model)
    start = time.perf_counter()
    questions._published_index()
    out["index_s"] = time.perf_counter() - start
    out["encoded"] = questions._published_cache.encoded
    latencies = []
    for _ in range(3):
        for q in questions_text:
            start = time.perf_counter()
            questions.ask_now(q)
            latencies.append((time.perf_counter() - start) * 1000)
    out["ask_p50_ms"], out["ask_p99_ms"] = _percentiles(latencies)
    out["extra_mb"] = _rss_mb() - before
    return out


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _run_child(data_dir: Path, cache_dir: Path) -> dict:
    code = (
        "import json, sys; from pathlib import Path; from bench.bench_questions import child; "
        "print(json.dumps(child(Path(sys.argv[1]), Path(sys.argv[2]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(data_dir), str(cache_dir)], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--terms", type=int, default=10_000)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.synthetic import generate

    with tempfile.TemporaryDirectory() as work:
        data, cache = Path(work) / "data", Path(work) / "cache"
        generate(data, args.terms)
        for shipped in (ROOT / "glossary_data").glob("aprendizaje*.yaml"):
            (data / shipped.name).write_bytes(shipped.read_bytes())
        first = _run_child(data, cache)
        again = _run_child(data, cache)
    print(f"question path at {first['terms']:,} terms ({args.terms:,} synthetic + the shipped ones)")
    print(f"  first index build:   {first['index_s']:.2f} s ({first['encoded']:,} terms embedded)")
    print(f"  repeated start:      {again['index_s']:.2f} s index from cached vectors ({again['encoded']} embedded)")
    print(f"  model load:          {first['model_load_s']:.2f} s first, {again['model_load_s']:.2f} s again")
    print(f"  per question:        p50 {again['ask_p50_ms']:.2f} ms, p99 {again['ask_p99_ms']:.2f} ms")
    print(
        f"  baseline (name path lookup, same text): p50 {again['lookup_p50_ms']:.3f} ms, "
        f"p99 {again['lookup_p99_ms']:.3f} ms"
    )
    print(
        f"  memory on top:       {again['extra_mb']:.0f} MB (model, vectors and index;"
        f" first run {first['extra_mb']:.0f})"
    )
    figures = {"ask_p99_ms": again["ask_p99_ms"], "repeat_extra_s": again["index_s"], "extra_mb": again["extra_mb"]}
    missed = [f"{k} {v:.2f} > {TARGETS[k]}" for k, v in figures.items() if v > TARGETS[k]]
    print("targets: " + ("all met" if not missed else "missed: " + "; ".join(missed)))
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
