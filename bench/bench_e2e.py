"""End-to-end probe: N /termino interactions through the fake Discord into the real bot.

    python -m bench.bench_e2e [--n 2000] [--terms 10000] [--concurrency 20] [--rounds 3] [--profile DIR]

Each bot runs as its own process (`glosario-bot run`, and bench/minimal_bot.py, a minimal discord.py bot
that answers a fixed embed), against a fake Discord in this process. Reports interactions/s and p50/p99
from the interaction being sent to the reply arriving, for both, in the same run, and the bot process's CPU
time per interaction (what a shared machine's noise moves least). The two bots take turns for --rounds
rounds; each is reported by its median round. Ours serves a synthetic
glossary of --terms terms and logs its misses to SQLite. Two query mixes: "realistic" (most people pick from
autocomplete) and "hard" (everything typed, many typos and misses). Target: on the realistic mix, at least
80 % of the minimal bot's throughput; the hard mix is reported beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.synthetic import generate
from tests.fake_discord.server import TOKEN, FakeDiscord

ROOT = Path(__file__).resolve().parent.parent

TARGET_RATIO = 0.80


async def drive(fake: FakeDiscord, queries: list[str], concurrency: int) -> tuple[float, list[float]]:
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(i: int, query: str) -> None:
        async with gate:
            started = time.perf_counter()
            iid = await fake.command("termino", {"termino": query}, user_id=10_000 + i)
            await fake.response(iid, timeout=30)
            latencies.append((time.perf_counter() - started) * 1000)

    began = time.perf_counter()
    await asyncio.gather(*(one(i, q) for i, q in enumerate(queries)))
    return len(queries) / (time.perf_counter() - began), latencies


@dataclass(frozen=True)
class Run:
    rate: float  # interactions/s
    latencies: list[float]  # ms, from sending the interaction to the reply arriving
    cpu_ms: float | None  # CPU time of the bot process per interaction (None where /proc is missing)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_process(args: list[str], env: dict[str, str], queries: list[str], concurrency: int) -> Run:
    """Start a bot as its own process (its own core), drive it through a fresh fake Discord, stop it."""
    fake = await FakeDiscord().start()
    env = {
        **env,
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "LOG_LEVEL": "WARNING",
    }
    proc = await asyncio.create_subprocess_exec(sys.executable, *args, cwd=ROOT, env=env)
    try:
        await fake.wait_ready(timeout=60)
        fake.find_command("termino")  # registered during start-up, before the gateway connection
        await drive(fake, queries[:50], concurrency)  # warm-up
        cpu_before = cpu_seconds(proc.pid)
        rate, latencies = await drive(fake, queries, concurrency)
        cpu_after = cpu_seconds(proc.pid)
        cpu_ms = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) * 1000 / len(queries)
        return Run(rate, latencies, cpu_ms)
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
        await fake.stop()


def summary(name: str, run: Run) -> str:
    ordered = sorted(run.latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    cpu = f"   CPU {run.cpu_ms:.3f} ms/interaction" if run.cpu_ms is not None else ""
    return (
        f"{name:<24} {run.rate:>7.0f} interactions/s   p50 {statistics.median(ordered):6.2f} ms"
        f"   p99 {p99:7.2f} ms{cpu}"
    )


def median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.rate)[len(runs) // 2]


async def main_async(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="glosario-e2e-") as tmp:
        data_dir = Path(tmp) / "glossary"
        names = generate(data_dir, args.terms)
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GLOSARIO_"))}
        print(f"{args.n} interactions per run, {args.concurrency} in flight, our glossary: {args.terms:,} terms")
        failed = False
        for mix in args.mixes:
            queries = make_queries(names, args.n, MIXES[mix], random.Random(3))
            print(f"\nmix {mix!r}: {MIX_TEXT[mix]}")
            minimal_runs, our_runs = [], []
            for round_ in range(1, args.rounds + 1):  # taking turns spreads the machine's slow moments over both
                minimal_runs.append(await run_process(["-m", "bench.minimal_bot"], base_env, queries, args.concurrency))
                db = Path(tmp) / f"{mix}-{round_}.db"
                ours_env = {**base_env, "GLOSARIO_DATA": str(data_dir), "GLOSARIO_DB": str(db)}
                profile = ["-m", "cProfile", "-o", f"{args.profile}/{mix}-{round_}.prof"] if args.profile else []
                our_runs.append(await run_process([*profile, "-m", "bot", "run"], ours_env, queries, args.concurrency))
                if args.rounds > 1:
                    print(f"  round {round_}: ratio {our_runs[-1].rate / minimal_runs[-1].rate:.2f}")
            minimal, ours = median_run(minimal_runs), median_run(our_runs)
            ratio = ours.rate / minimal.rate
            verdict = "ok" if ratio >= TARGET_RATIO else "MISSED"
            print(summary("minimal discord.py bot", minimal))
            print(summary("Glosario IA bot", ours))
            print(f"throughput ratio: {ratio:.2f} (target ≥ {TARGET_RATIO:.2f}) {verdict}")
            failed |= mix == "realistic" and ratio < TARGET_RATIO
    return 1 if failed else 0


# Shares of: autocomplete-picked ids, names typed as written, typos, queries the glossary does not have.
MIXES = {"realistic": (0.50, 0.20, 0.15, 0.15), "hard": (0.0, 0.25, 0.375, 0.375)}
MIX_TEXT = {
    "realistic": "50 % picked from autocomplete, 20 % typed names, 15 % typos, 15 % misses (logged)",
    "hard": "no autocomplete: 25 % typed names, 37.5 % typos, 37.5 % misses (logged)",
}


def make_queries(names: list[str], n: int, shares: tuple[float, ...], rng: random.Random) -> list[str]:
    from bot.core.normalize import slug

    queries = []
    for i in range(n):
        name = rng.choice(names)
        kind = rng.choices(range(4), weights=shares)[0]
        if kind == 0:
            queries.append(slug(name))  # what an autocomplete choice submits: the term's id
        elif kind == 1:
            queries.append(name.lower())
        elif kind == 2:
            pos = rng.randrange(1, len(name) - 1)
            queries.append(name[:pos] + name[pos + 1 :])  # one letter dropped
        else:
            queries.append(f"{name} inexistente {i}")
    return queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--terms", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="turns each bot takes (the median is reported)")
    parser.add_argument("--profile", metavar="DIR", help="write cProfile stats of our bot to DIR/<mix>-<round>.prof")
    parser.add_argument("--mixes", nargs="+", choices=sorted(MIXES), default=["realistic", "hard"])
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
