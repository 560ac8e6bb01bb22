"""Servers' own terms at scale: lookups and autocomplete in a server with 2,000 terms beside 10,000 published
ones, what a server edit costs, and the memory of 1,000 servers with 100 terms each.

    python -m bench.bench_server_terms [--published 10000] [--own 2000] [--servers 1000] [--per-server 100]

Targets (the issue's): in that server, typo lookups p99 < 5 ms and autocomplete p99 < 2 ms (today's targets); a
server edit never rebuilds the published index; 1,000 servers × 100 terms under 200 MB on top of the published
glossary. The same queries in a server without terms are measured beside them, in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_core import _percentiles, _typo
from bot.app.application import Application
from bot.app.catalog import load_catalog
from bot.app.lookup.lookups import Asker
from bot.config import Settings
from bot.core.normalize import slug
from bot.core.server_terms import TermFields
from tests.synthetic import generate

OWN_GUILD, PLAIN_GUILD = 1, 2


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:")) / 1024


def own_names(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    syllables = ["zu", "vek", "lor", "quim", "bax", "tor", "nef", "gal", "wim", "ost", "jup", "rel"]
    names: list[str] = []
    while len(names) < n:
        name = " ".join(
            "".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))) for _ in range(rng.choice((1, 2)))
        ).capitalize()
        if name.lower() not in taken:
            taken.add(name.lower())
            names.append(name)
    return names


async def fill(app: Application, rows: list[tuple[int, str, str]]) -> None:
    """Server terms straight into the table (the bench's own shortcut: 100,000 saves one by one take minutes)."""
    db = app.stores.database
    async with db.transaction():
        await db.conn.executemany(
            "INSERT INTO server_terms (guild_id, term_id, fields, author_id, created_at, updated_by, updated_at) "
            "VALUES (?, ?, ?, 1, '2026-12-03T10:00:00', 1, '2026-12-03T10:00:00')",
            [
                (guild, slug(name), json.dumps(TermFields(name, definition).to_dict(), ensure_ascii=False))
                for guild, name, definition in rows
            ],
        )


def complete(app: Application, guild: int, text: str) -> object:
    return app.lookups.complete(text, guild)


def timed(fn, queries: list[str]) -> list[float]:
    out = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def run(args: argparse.Namespace, tmp: Path) -> None:
    rng = random.Random(5)
    published = generate(tmp / "glossary", args.published)
    catalog = load_catalog(tmp / "glossary")
    settings = Settings(data_dir=tmp / "glossary", database_url=f"sqlite:///{tmp / 'g.db'}", questions=False)
    app = await Application.open(settings, catalog)
    await app.start()
    taken = {n.lower() for n in published}
    own = own_names(rng, args.own, taken)
    await fill(app, [(OWN_GUILD, name, f"Definición de {name}, un término propio del servidor.") for name in own])
    t0 = time.perf_counter()
    await app.server_terms.prepare(OWN_GUILD)
    first_build = time.perf_counter() - t0
    await app.server_terms.prepare(PLAIN_GUILD)
    for label, guild in (("server with its own terms", OWN_GUILD), ("server without", PLAIN_GUILD)):
        # Fresh queries for each (answers are cached): typos of its own and of published names, half and half.
        queries = [_typo(rng, n) for n in rng.sample(own, min(500, len(own)))] + [
            _typo(rng, n) for n in rng.sample(published, min(500, len(published)))
        ]
        prefixes = [
            n[: rng.randint(1, 8)]
            for n in rng.sample(own, min(300, len(own))) + rng.sample(published, min(300, len(published)))
        ]
        asker = Asker(guild, 1)
        look = _percentiles(timed(functools.partial(app.lookups.lookup, asker), queries))
        done = _percentiles(timed(functools.partial(complete, app, guild), prefixes))
        print(f"{label:<26} typo lookup p50/p99 {look[0]:.2f}/{look[1]:.2f} ms (target p99 < 5)   ", end="")
        print(f"autocomplete p50/p99 {done[0]:.2f}/{done[1]:.2f} ms (target p99 < 2)")
    t0 = time.perf_counter()
    saved = await app.server_terms.save(OWN_GUILD, 9, TermFields("Término editado ahora", "Una definición nueva."))
    edit = time.perf_counter() - t0
    assert app.catalog.current is catalog, "the published index was rebuilt"
    print(
        f"first use of the {args.own:,}-term server: {first_build * 1000:.0f} ms; an edit there: {edit * 1000:.0f} ms"
    )
    print(f"  (the published index, built once at start, is the same object after the edit: {type(saved).__name__})")
    await app.close()


async def memory(args: argparse.Namespace, tmp: Path) -> None:
    rng = random.Random(6)
    published = generate(tmp / "glossary2", args.published)
    settings = Settings(data_dir=tmp / "glossary2", database_url=f"sqlite:///{tmp / 'm.db'}", questions=False)
    app = await Application.open(settings, load_catalog(tmp / "glossary2"))
    await app.start()
    taken = {n.lower() for n in published}
    names = own_names(rng, args.per_server * 3, taken)
    rows = [
        (guild, name, f"Definición de {name} en el servidor {guild}.")
        for guild in range(10, 10 + args.servers)
        for name in rng.sample(names, args.per_server)
    ]
    await fill(app, rows)
    app.server_terms.MAX_OVERLAYS = args.servers  # every server in memory at once: the worst case
    before = rss_mb()
    t0 = time.perf_counter()
    for guild in range(10, 10 + args.servers):
        await app.server_terms.prepare(guild)
    elapsed = time.perf_counter() - t0
    after = rss_mb()
    print(
        f"{args.servers:,} servers × {args.per_server} terms, all in memory: +{after - before:.0f} MB "
        f"(target < 200 MB), built in {elapsed:.1f} s ({elapsed / args.servers * 1000:.1f} ms each)"
    )
    print(f"  (by default at most {type(app.server_terms).MAX_OVERLAYS} servers stay in memory; the least used go)")
    await app.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--published", type=int, default=10_000)
    parser.add_argument("--own", type=int, default=2_000)
    parser.add_argument("--servers", type=int, default=1_000)
    parser.add_argument("--per-server", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glosario-bench-server-") as tmp:
        asyncio.run(run(args, Path(tmp)))
        asyncio.run(memory(args, Path(tmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
