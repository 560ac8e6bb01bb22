"""PostgreSQL beside SQLite, in the same run (PostgreSQL on 127.0.0.1 is not expected to win: it must keep the
database off the reply path).

    python -m bench.bench_postgres [--writes 20000] [--interactions 10000] [--rounds 3]

1. Gap writes per second: --writes misses recorded through the store, in batches of 50 as the write queue makes
   them (one transaction each), on a SQLite file and on a PostgreSQL database.
2. `/termino` CPU per interaction of `glosario-bot run` (its own process) on each backend, and two processes
   splitting the shards (0/2 + 1/2) on one PostgreSQL against one process on it (bench.bench_shards' driver),
   the same interactions, 20 in flight. `--instructions` counts instructions per interaction under callgrind
   instead of CPU time (see bench.bench_shards).

PostgreSQL is a throwaway cluster started from the server binaries found on the machine (tests/postgres.py).
Targets: replies on PostgreSQL within 5 % of SQLite's CPU per interaction; two processes on PostgreSQL within
10 % of one.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_shards import one_setup
from bot.core.normalize import normalize
from bot.storage import open_stores
from bot.storage.records import GapRecord
from tests.fake_discord.server import Guild
from tests.postgres import Cluster, binaries, sql


async def gap_writes(database, n: int) -> float:
    stores = await open_stores(database)
    try:
        records = [
            GapRecord(1 + i % 20, f"consulta {i}", normalize(f"consulta {i}"), f"a{i % 97}", None, "lookup", "t")
            for i in range(n)
        ]
        began = time.perf_counter()
        for start in range(0, n, 50):
            await stores.gaps.record_gaps(records[start : start + 50])
        return n / (time.perf_counter() - began)
    finally:
        await stores.close()


def create_database(cluster: Cluster, name: str) -> str:
    sql(cluster.url(), f'CREATE DATABASE "{name}"')
    return cluster.url(name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=20_000)
    parser.add_argument("--interactions", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind instead")
    args = parser.parse_args()
    found = binaries()
    if found is None:
        print("PostgreSQL's server binaries (initdb, pg_ctl) are not installed: apt-get install postgresql")
        return 1
    cluster = Cluster(found).start()
    databases = iter(range(1000))
    try:
        with tempfile.TemporaryDirectory(prefix="glosario-bench-pg-") as tmp:
            sqlite = asyncio.run(gap_writes(Path(tmp) / "g.db", args.writes))
            postgres = asyncio.run(gap_writes(create_database(cluster, "writes"), args.writes))
        print(f"gap writes per second (batches of 50): SQLite {sqlite:,.0f}   PostgreSQL {postgres:,.0f}")
        guilds = [Guild(id=(i << 22) | 9) for i in range(20)]
        two = ["0/2", "1/2"]
        setups = {  # (shard plans, a PostgreSQL database or SQLite)
            "SQLite, one process": lambda: ([None], None),
            "PostgreSQL, one process": lambda: ([None], f"p{next(databases)}"),
            "PostgreSQL, two processes": lambda: (two, f"p{next(databases)}"),
        }
        cpu: dict[str, list[float]] = {name: [] for name in setups}
        for _ in range(args.rounds):  # the setups take turns
            for name, make in setups.items():
                plans, database = make()
                url = create_database(cluster, database) if database else None
                run = one_setup(plans, guilds, args.interactions, database_url=url, callgrind=args.instructions)
                cpu[name].append(asyncio.run(run)[0])
        medians = {name: statistics.median(values) for name, values in cpu.items()}
        for name, value in medians.items():
            figure = f"{value / 1e6:6.3f} M instructions" if args.instructions else f"CPU {value:6.3f} ms"
            print(f"{name:<28} {figure} per interaction (median of {args.rounds})")
        on_pg = medians["PostgreSQL, one process"] / medians["SQLite, one process"]
        ratio = medians["PostgreSQL, two processes"] / medians["PostgreSQL, one process"]
        print(f"PostgreSQL / SQLite: {on_pg:.3f}   (target within 5 %: {'met' if on_pg <= 1.05 else 'NOT met'})")
        verdict = "met" if ratio <= 1.10 else "NOT met"
        print(f"two processes / one on PostgreSQL: {ratio:.3f}   (target within 10 %: {verdict})")
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
