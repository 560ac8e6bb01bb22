"""Core benchmark: load+validate+index time, peak memory, lookup/complete latency, beside naive baselines.

    python -m bench.bench_core                 # 1k, 10k and 100k terms (about 2 minutes)
    python -m bench.bench_core --sizes 1000    # one size

Each size runs in fresh child processes so that start-up time and peak memory are real. The naive baseline
(difflib.get_close_matches over every key) and a plain rapidfuzz scan are measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (size, metric) → limit, from the issue. Latencies in ms, memory in MB, times in s.
TARGETS = {
    (10_000, "load_index_s"): 2.0,
    (10_000, "rss_mb"): 150,
    (10_000, "lookup_any_p99_ms"): 5.0,
    (10_000, "complete_p99_ms"): 2.0,
    (100_000, "first_start_s"): 15.0,
    (100_000, "repeat_start_s"): 3.0,
    (100_000, "rss_mb"): 600,
    (100_000, "lookup_exact_p99_ms"): 0.1,
    (100_000, "lookup_any_p99_ms"): 20.0,
    (100_000, "complete_p99_ms"): 5.0,
}


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _typo(rng: random.Random, text: str) -> str:
    words = text.split()
    i = max(range(len(words)), key=lambda j: len(words[j]))
    w = words[i]
    pos = rng.randrange(1, len(w) - 1)
    words[i] = w[:pos] + ("x" if w[pos] != "x" else "y") + w[pos + 1 :]
    return " ".join(words)


def child(mode: str, data_dir: Path, cache_dir: Path, n_queries: int, baseline_queries: int) -> dict:
    """Runs inside a fresh interpreter: start, then (mode=first) measure latencies."""
    import resource

    started = time.perf_counter()
    from bot.app.catalog import build_index, cache_path, load_catalog, write_cache
    from bot.app.files import load_glossary

    out: dict = {}
    if mode == "first":
        t0 = time.perf_counter()
        glossary = load_glossary(data_dir)
        t1 = time.perf_counter()
        index = build_index(glossary)
        t2 = time.perf_counter()
        out.update(load_validate_s=t1 - t0, index_s=t2 - t1, load_index_s=t2 - t0)
        write_cache(cache_path(data_dir, cache_dir), glossary, index)  # what load_catalog does on a miss
    else:
        catalog = load_catalog(data_dir, cache_dir)
        index = catalog.index
    out["ready_s"] = time.perf_counter() - started
    t = time.perf_counter()
    index.warm()  # as `glosario-bot run` does before its first lookup (after the start above)
    out["warm_s"] = time.perf_counter() - t
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if mode != "first":
        return out

    rng = random.Random(11)
    names = [t.term for t in index.glossary.terms]
    sample = [rng.choice(names) for _ in range(n_queries)]
    queries = {
        "exact": [n.lower() for n in sample],
        "typo": [_typo(rng, n) for n in sample],
        "nomatch": ["".join(rng.choice("qwzyxjkv") for _ in range(rng.randint(6, 14))) for _ in range(n_queries)],
    }
    for kind, qs in queries.items():
        times = []
        for q in qs:
            t = time.perf_counter()
            index.lookup(q)
            times.append((time.perf_counter() - t) * 1000)
        out[f"lookup_{kind}_median_ms"], out[f"lookup_{kind}_p99_ms"] = _percentiles(times)
    out["lookup_any_p99_ms"] = max(out[f"lookup_{k}_p99_ms"] for k in queries)
    prefixes = [n[: rng.randint(1, 8)] for n in sample] + [_typo(rng, n)[:8] for n in sample if len(n) > 8]
    times = []
    for p in prefixes:
        t = time.perf_counter()
        index.complete(p)
        times.append((time.perf_counter() - t) * 1000)
    out["complete_median_ms"], out["complete_p99_ms"] = _percentiles(times)

    # Baselines over the same keys, same queries.
    import difflib

    from rapidfuzz import fuzz, process

    keys = [k.lower() for t in index.glossary.terms for k in t.spellings()]
    typos = queries["typo"][:baseline_queries]
    t = time.perf_counter()
    for q in typos:
        difflib.get_close_matches(q, keys, n=5)
    out["difflib_median_ms"] = (time.perf_counter() - t) * 1000 / len(typos)
    times = []
    for q in queries["typo"][:100]:
        t = time.perf_counter()
        process.extract(q, keys, scorer=fuzz.WRatio, limit=5)
        times.append((time.perf_counter() - t) * 1000)
    out["rapidfuzz_scan_median_ms"], out["rapidfuzz_scan_p99_ms"] = _percentiles(times)
    return out


def run_size(n_terms: int, workdir: Path) -> dict:
    from tests.synthetic import generate

    data_dir, cache_dir = workdir / f"g{n_terms}", workdir / f"cache{n_terms}"
    generate(data_dir, n_terms)
    baseline_queries = max(1, min(20, 200_000 // n_terms // 10))
    results: dict = {"terms": n_terms}
    for mode in ("first", "again"):
        t = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.bench_core",
                "--child",
                mode,
                str(data_dir),
                str(cache_dir),
                str(300),
                str(baseline_queries),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - t
        measured = json.loads(proc.stdout.strip().splitlines()[-1])
        if mode == "first":
            results.update(measured)
            results["first_start_s"] = measured["ready_s"]
            results["first_wall_s"] = wall
        else:
            results["repeat_start_s"] = measured["ready_s"]
            results["repeat_warm_s"] = measured["warm_s"]
            results["repeat_rss_mb"] = measured["rss_mb"]
    results["rss_mb"] = max(results["rss_mb"], results["repeat_rss_mb"])
    return results


def report(all_results: list[dict]) -> int:
    rows = [
        ("load+validate+index (s)", "load_index_s"),
        ("first start, no cache (s)", "first_start_s"),
        ("repeated start, cache (s)", "repeat_start_s"),
        ("then warming the index (s)", "repeat_warm_s"),
        ("peak RSS (MB)", "rss_mb"),
        ("lookup exact median/p99 (ms)", "lookup_exact"),
        ("lookup typo median/p99 (ms)", "lookup_typo"),
        ("lookup no-match median/p99 (ms)", "lookup_nomatch"),
        ("complete median/p99 (ms)", "complete"),
        ("difflib baseline, per query (ms)", "difflib_median_ms"),
        ("rapidfuzz scan median/p99 (ms)", "rapidfuzz_scan"),
    ]
    sizes = [r["terms"] for r in all_results]
    print(f"{'':36}" + "".join(f"{s:>20,}" for s in sizes))
    for label, key in rows:
        cells = []
        for r in all_results:
            if f"{key}_median_ms" in r:
                cells.append(f"{r[f'{key}_median_ms']:.3f} / {r[f'{key}_p99_ms']:.3f}")
            else:
                cells.append(f"{r[key]:.2f}")
        print(f"{label:36}" + "".join(f"{c:>20}" for c in cells))
    for r in all_results:
        ours = max(r["lookup_typo_median_ms"], 1e-9)
        print(
            f"{r['terms']:>7,} terms: typo lookup is {r['difflib_median_ms'] / ours:,.0f}× faster than difflib, "
            f"{r['rapidfuzz_scan_median_ms'] / ours:,.1f}× faster than a rapidfuzz scan"
        )
    missed = 0
    for r in all_results:
        for (size, metric), limit in TARGETS.items():
            if size == r["terms"]:
                ok = r[metric] <= limit
                missed += not ok
                print(f"target {size:>7,} {metric:<22} {r[metric]:>9.3f} ≤ {limit:<7} {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        mode, data_dir, cache_dir, n, b = sys.argv[2:7]
        print(json.dumps(child(mode, Path(data_dir), Path(cache_dir), int(n), int(b))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glosario-bench-") as tmp:
        results = []
        for size in args.sizes:
            print(f"… {size:,} terms", file=sys.stderr, flush=True)
            results.append(run_size(size, Path(tmp)))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
