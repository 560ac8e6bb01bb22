"""The gaps export under load: how long 100,000 gaps take, and whether /termino stays fast meanwhile.

    python -m bench.bench_export [--gaps 100000] [--lookups 1500]

1. In this process, on a real SQLite file: `SqlGapStore.export` + the YAML stubs + the CSV for --gaps gaps of one
   server (synthetic queries, one in five a typo of another). Beside it, in the same run, the grouping this
   replaced (every gap compared with every stub) on a sample, against today's on the same sample.
2. `glosario-bot run` as its own process on that database, driven through the fake Discord: --lookups /termino
   interactions (10 in flight), once alone and once while a moderator runs `/glosario-admin exportar`.

Targets: the export of 100,000 gaps under 2 s; /termino p99 under 500 ms while it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sqlite3
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path

from bot.app.review.exports import gaps_csv, gaps_yaml
from bot.core.normalize import normalize
from bot.core.search import typo_distance
from bot.storage.db import Database
from bot.storage.gaps import SqlGapStore
from bot.storage.records import GapRecord
from tests.fake_discord.process import env_for
from tests.fake_discord.server import MANAGE_MESSAGES, MEMBER_PERMISSIONS, FakeDiscord, Guild

ROOT = Path(__file__).resolve().parent.parent
GUILD = 424242424242424242
EXPORT_TARGET_S, P99_TARGET_MS = 2.0, 500.0


def synthetic_queries(n: int, rng: random.Random) -> list[str]:
    queries: list[str] = []
    seen: set[str] = set()
    while len(queries) < n:
        if queries and rng.random() < 0.2:  # a typo of an earlier query
            base = list(rng.choice(queries))
            i = rng.randrange(len(base))
            base[i] = rng.choice(string.ascii_lowercase)
            text = "".join(base)
        else:
            text = " ".join(
                "".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 11))) for _ in range(rng.randint(1, 3))
            )
        if normalize(text) not in seen:
            seen.add(normalize(text))
            queries.append(text)
    return queries


def fill(path: Path, queries: list[str]) -> None:
    async def run() -> None:
        db = await Database.open(path)
        misses = SqlGapStore(db)
        at = "2026-12-03T10:00:00"
        batch = [GapRecord(GUILD, q, normalize(q), f"a{i % 97}", None, "lookup", at) for i, q in enumerate(queries)]
        for start in range(0, len(batch), 5000):
            await misses.record_gaps(batch[start : start + 5000])
        await db.close()

    asyncio.run(run())


def quadratic_grouping(gaps) -> int:
    """The grouping the export used before: every gap against every stub so far."""
    stubs: list[str] = []
    for gap in sorted(gaps, key=lambda g: (-g.count, g.id)):
        if next((s for s in stubs if typo_distance(gap.normalized, s) is not None), None) is None:
            stubs.append(gap.normalized)
    return len(stubs)


async def export_once(path: Path, formato: str) -> tuple[float, list, int]:
    """One export as `/glosario-admin exportar` makes it: read, then build the file (YAML or CSV)."""
    db = await Database.open(path)
    try:
        began = time.perf_counter()
        gaps = await SqlGapStore(db).export(guild_id=GUILD, most_asked=formato == "yaml")
        text = gaps_yaml(gaps, [], title="bench") if formato == "yaml" else gaps_csv(gaps)
        elapsed = time.perf_counter() - began
    finally:
        await db.close()
    return elapsed, gaps, len(text)


async def drive(fake: FakeDiscord, n: int, offset: int, export: bool) -> tuple[list[float], float | None]:
    names = ["horovod", "ray", "allreduce", "sharding", "horovd", "kubeflw", "tokenizacion", "no existe esto"]
    gate = asyncio.Semaphore(10)
    latencies: list[float] = []
    export_s: float | None = None

    async def one(i: int) -> None:
        async with gate:
            started = time.perf_counter()
            await fake.response(await fake.command("termino", {"termino": names[i % len(names)]}, user_id=offset + i))
            latencies.append((time.perf_counter() - started) * 1000)

    async def moderator() -> None:
        nonlocal export_s
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        iid = await fake.command(
            "glosario-admin exportar",
            {"formato": "yaml"},
            user_id=1,
            permissions=str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES),
        )
        await fake.response(iid, 1, timeout=120)  # the file, after the deferral
        export_s = time.perf_counter() - started

    await asyncio.gather(*(one(i) for i in range(n)), *([moderator()] if export else []))
    return latencies, export_s


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def bot_under_export(db_path: Path, lookups: int) -> None:
    fake = await FakeDiscord([Guild(id=GUILD)]).start()
    env = env_for(fake, db_path.parent, GLOSARIO_DB=str(db_path), LOG_LEVEL="WARNING")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", cwd=ROOT, env=env)
    try:
        await fake.wait_ready(timeout=60)
        for _ in range(200):
            if fake.commands.get("global"):
                break
            await asyncio.sleep(0.05)
        await drive(fake, 100, 1_000_000, export=False)  # warm-up
        alone, _ = await drive(fake, lookups, 2_000_000, export=False)
        during, export_s = await drive(fake, lookups, 3_000_000, export=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
        await fake.stop()
    print(f"/termino alone          p50 {statistics.median(alone):7.1f} ms   p99 {p99(alone):7.1f} ms")
    print(f"/termino during export  p50 {statistics.median(during):7.1f} ms   p99 {p99(during):7.1f} ms", end="")
    print(f"   (target p99 < {P99_TARGET_MS:.0f} ms: {'met' if p99(during) < P99_TARGET_MS else 'NOT met'})")
    print(f"the export itself, seen by the moderator: {export_s:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gaps", type=int, default=100_000)
    parser.add_argument("--lookups", type=int, default=1500)
    parser.add_argument("--sample", type=int, default=3000, help="gaps for the old-versus-new grouping")
    parser.add_argument("--no-bot", action="store_true", help="only the export itself (no bot, no lookups)")
    args = parser.parse_args()
    rng = random.Random(11)
    with tempfile.TemporaryDirectory(prefix="glosario-bench-export-") as tmp:
        db_path = Path(tmp) / "glosario.db"
        queries = synthetic_queries(args.gaps, rng)
        fill(db_path, queries)
        with sqlite3.connect(db_path) as conn:
            assert conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == args.gaps
        for formato in ("yaml", "csv"):
            elapsed, gaps, size = asyncio.run(export_once(db_path, formato))
            verdict = "met" if elapsed < EXPORT_TARGET_S else "NOT met"
            print(f"export of {args.gaps:,} gaps as {formato.upper()} ({size / 1e6:.1f} MB): {elapsed:.2f} s", end="")
            print(f"   (target < {EXPORT_TARGET_S:.0f} s at 100,000: {verdict if args.gaps >= 100_000 else 'n/a'})")
        _, gaps, _ = asyncio.run(export_once(db_path, "yaml"))
        sample = gaps[: args.sample]
        began = time.perf_counter()
        old_stubs = quadratic_grouping(sample)
        old = time.perf_counter() - began
        began = time.perf_counter()
        gaps_yaml(sample, [], title="bench")
        new = time.perf_counter() - began
        print(
            f"grouping {len(sample):,} gaps: every gap against every stub {old:.2f} s ({old_stubs:,} stubs), "
            f"one-deletion hashes (and the YAML) {new:.3f} s: {old / new:.0f}× faster"
        )
        if not args.no_bot:
            asyncio.run(bot_under_export(db_path, args.lookups))
    return 0


if __name__ == "__main__":
    sys.exit(main())
