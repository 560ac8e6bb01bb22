"""One process serving every server, against two processes splitting the shards (GLOSARIO_SHARDS 0/2 and 1/2) on
one SQLite database: CPU per interaction, in the same run.

    python -m bench.bench_shards [--interactions 2000] [--servers 20] [--rounds 3]

Each setup gets a fresh fake Discord with --servers servers (half on each shard) and a fresh database; the same
`/termino` interactions (a mix of found, typo'd and unknown terms, so gaps are written too) are sent to every
server in turn, 20 in flight. CPU is the user + system time of the bot processes, read from /proc, divided by the
interactions; this machine has two cores shared with the fake Discord, so CPU per interaction is the figure, not
throughput. `--instructions` counts instructions per interaction under callgrind instead (all the bot processes
summed): the same work, without what two processes competing for two cores add to CPU time, and repeatable where
CPU time moves by tens of percent from run to run. Target: two processes within 10 % of one. Each setup is
reported by its median round.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_e2e import callgrind_total, cpu_seconds, instrumentation
from tests.fake_discord.process import env_for
from tests.fake_discord.server import FakeDiscord, Guild

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["horovod", "horovd", "paralelismo de datos", "sharding", "allreduce", "kubeflw", "no existe esto", "ray"]


async def one_setup(
    plans: list[str | None],
    guilds: list[Guild],
    interactions: int,
    database_url: str | None = None,
    callgrind: bool = False,
) -> tuple[float, float]:
    """(CPU ms per interaction summed over the processes, wall seconds). On a fresh SQLite file, or on
    `database_url` (PostgreSQL). With `callgrind`, the first figure is instructions per interaction instead
    (each bot under valgrind, counting only the measured interactions: repeatable where CPU time is not)."""
    fake = await FakeDiscord(guilds).start()
    with tempfile.TemporaryDirectory(prefix="glosario-bench-shards-") as tmp:
        env = env_for(fake, Path(tmp), GLOSARIO_DB=database_url or str(Path(tmp) / "glosario.db"), LOG_LEVEL="WARNING")
        procs = []
        for number, plan in enumerate(plans):
            extra = {"GLOSARIO_SHARDS": plan} if plan else {}
            if database_url:  # each process's local files in the temporary folder
                local = Path(tmp) / f"p{number}"
                extra |= {"GLOSARIO_JOURNAL": str(local / "j.jsonl"), "GLOSARIO_HEARTBEAT": str(local / "beat")}
                extra["GLOSARIO_CACHE_DIR"] = str(local / "cache")
            command = [sys.executable, "-m", "bot", "run"]
            if callgrind:
                out = f"--callgrind-out-file={tmp}/callgrind-{number}.out"
                command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", out, *command]
            stderr = asyncio.subprocess.DEVNULL if callgrind else None
            procs.append(await asyncio.create_subprocess_exec(*command, cwd=ROOT, env={**env, **extra}, stderr=stderr))
            await asyncio.sleep(0.3)  # (the first migrates; the second would wait for its lock anyway)
        try:
            await fake.wait_ready(timeout=600 if callgrind else 60)
            await asyncio.sleep(1.0)
            await drive(fake, guilds, 200, offset=1_000_000)  # warm-up
            for proc in procs if callgrind else []:
                await instrumentation(proc.pid, "on")
            before = [cpu_seconds(p.pid) or 0.0 for p in procs]
            began = time.perf_counter()
            await drive(fake, guilds, interactions, offset=2_000_000)
            wall = time.perf_counter() - began
            after = [cpu_seconds(p.pid) or 0.0 for p in procs]
            for proc in procs if callgrind else []:
                await instrumentation(proc.pid, "off")
        finally:
            for proc in procs:
                proc.send_signal(signal.SIGTERM)
            for proc in procs:
                await proc.wait()
            await fake.stop()
        if callgrind:
            total = sum(callgrind_total(Path(tmp) / f"callgrind-{n}.out") for n in range(len(procs)))
            return total / interactions, wall
    cpu = sum(a - b for a, b in zip(after, before, strict=True))
    return cpu * 1000 / interactions, wall


IN_FLIGHT = 20


async def drive(fake: FakeDiscord, guilds: list[Guild], n: int, offset: int) -> None:
    gate = asyncio.Semaphore(IN_FLIGHT)

    async def one(i: int) -> None:
        async with gate:
            guild = guilds[i % len(guilds)]
            query = QUERIES[i % len(QUERIES)] if i % 10 else f"nada parecido {offset + i}"
            iid = await fake.command("termino", {"termino": query}, guild=guild, user_id=offset + i)
            await fake.response(iid, timeout=60)

    await asyncio.gather(*(one(i) for i in range(n)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interactions", type=int, default=2000)
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind instead")
    args = parser.parse_args()
    guilds = [Guild(id=(i << 22) | 9) for i in range(args.servers)]
    setups = {"one process (all shards)": [None], "two processes (0/2 + 1/2)": ["0/2", "1/2"]}
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in setups}
    for _ in range(args.rounds):  # the setups take turns, so that the machine's mood hits both alike
        for name, plans in setups.items():
            results[name].append(asyncio.run(one_setup(plans, guilds, args.interactions, callgrind=args.instructions)))
    medians = {name: statistics.median(cpu for cpu, _ in runs) for name, runs in results.items()}
    for name, runs in results.items():
        walls = statistics.median(wall for _, wall in runs)
        figure = f"{medians[name] / 1e6:6.3f} M instructions" if args.instructions else f"CPU {medians[name]:6.3f} ms"
        print(f"{name:<28} {figure} per interaction   ({args.interactions:,} in {walls:5.1f} s)")
    one, two = medians.values()
    ratio = two / one
    print(f"two processes / one: {ratio:.3f}   (target within 10 %: {'met' if ratio <= 1.10 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
