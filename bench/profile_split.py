"""Where an interaction's instructions go: discord.py's own floor, our lookup, card, gap and writes, our wrappers.

    python -m bench.bench_e2e --instructions --per-kind --callgrind-dir CG
    python -m bench.profile_split --replay --e2e CG [--n 300] [--terms 10000] [--mixes realistic hard ...]
    python -m bench.profile_split DIR/*.prof      (shares, from `bench_e2e --profile DIR`)

--replay (needs valgrind) counts exactly, under callgrind, what our own parts execute for the same queries as
`bench_e2e --instructions` (same glossary, mixes and warm-up), each part in its own pass over the queries: the
lookup in the index, the application around it (the server's view, the answer, the counters), recording the gaps,
the reply (a card, or the suggestions or "not found" sentence) and, after the reply, the counts and gaps through
the write queue into SQLite (here in batches of the queue's largest size: the bot writes them as they come).

With --e2e (the callgrind files bench_e2e kept), it adds the floor: what discord.py costs the baselines for the
same replies (parsing the interaction, the command tree, encoding and sending the reply, the event loop), the
fixed-card bot's for the replies that are cards and the small-embed bot's for the sentences, each without its
cycle collector; our cycle collector; and what is left of our total: our wrappers (the guard and rate limit, text
made valid, dispatch and watch, the handler, the reply's size against the baseline's).

The cProfile mode splits the bot's time while it served by function (inclusive time, nested parts taken out of
the part around them). cProfile weighs Python calls more than C and measures wall time on a shared machine: read
its shares beside the exact counts, not instead of them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import random
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The parts --replay measures, in the order they run for each query.
REPLAYED = {
    "index": "lookup in the index (rapidfuzz included)",
    "application": "application: the server's view, the answer, the counters",
    "gap": "gap recording (queued before the reply)",
    "reply": "the reply: a card (embed and buttons), or suggestions, or text",
    "after": "after the reply: counts and gaps through the write queue into SQLite",
}


# -- exact counts (--replay) -------------------------------------------------------------------------------------
def replay(args: argparse.Namespace) -> int:
    from tests.synthetic import generate

    with tempfile.TemporaryDirectory(prefix="glosario-split-") as tmp:
        generate(Path(tmp) / "glossary", args.terms)
        table: dict[str, dict[str, float]] = {}
        cards: dict[str, float] = {}  # the share of replies that are cards, per mix
        for mix in args.mixes:
            out = Path(tmp) / f"callgrind-{mix}.out"
            command = [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-m",
                "bench.profile_split",
                "--replay-child",
                mix,
                "--n",
                str(args.n),
                "--terms",
                str(args.terms),
                "--dir",
                tmp,
            ]
            subprocess.run(command, cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
            # One dump per part (callgrind_control --dump in the child): first an empty part (what switching the
            # counting on and off costs, taken off every part), then REPLAYED's in order.
            dumps = sorted(Path(tmp).glob(f"callgrind-{mix}.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
            empty, *counts = [callgrind_total(d) for d in dumps][: len(REPLAYED) + 1]
            table[mix] = {part: (n - empty) / args.n / 1e6 for part, n in zip(REPLAYED, counts, strict=True)}
            cards[mix] = float((Path(tmp) / f"cards-{mix}.txt").read_text())
    print_replay(table, e2e_runs(Path(args.e2e), args.n) if args.e2e else {}, cards, args.n)
    return 0


# bench_e2e's callgrind files (--callgrind-dir), per bot: callgrind-<mix>-1-<the last word of its command>.out
E2E_FILES = {"ours": "run", "card": "--card", "small": "bench.minimal_bot"}


def e2e_runs(directory: Path, n: int) -> dict[str, dict[str, tuple[float, float]]]:
    """Per mix and bot ("ours", "card", "small"): (instructions, of which the cycle collector's), M per interaction."""
    runs: dict[str, dict[str, tuple[float, float]]] = {}
    for path in directory.glob("callgrind-*-1-*.out"):
        mix, bot = path.name.removeprefix("callgrind-").removesuffix(".out").split("-1-", 1)
        name = next((k for k, v in E2E_FILES.items() if v == bot), None)
        if name is not None:
            runs.setdefault(mix, {})[name] = (callgrind_total(path) / n / 1e6, collector(path) / n / 1e6)
    return runs


def callgrind_total(path: Path) -> int:
    from bench.bench_e2e import callgrind_total as total

    return total(path)


def collector(path: Path) -> int:
    """Instructions spent in Python's cycle collector (gc_collect_main, inclusive) in a callgrind file."""
    lines = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(path)], capture_output=True, text=True
    ).stdout.splitlines()
    return next((int(line.split()[0].replace(",", "")) for line in lines if "gc_collect_main" in line), 0)


def print_replay(
    table: dict[str, dict[str, float]], runs: dict[str, dict[str, tuple[float, float]]], cards: dict[str, float], n: int
) -> None:
    """The split per mix. The floor is what discord.py costs the baselines for the same replies: the fixed-card bot
    for the replies that are cards, the small-embed bot for the others (a sentence, or suggestions), each without
    its cycle collector (the fixed-card bot's walks the glossary it loaded: 0.2 M an interaction; ours has it out of
    the way, bot/heap.py), which is a row of its own."""
    mixes = list(table)
    small = [r["small"] for r in runs.values() if "small" in r]  # (run with the realistic and hard mixes only)
    small_floor = sum(total - gc for total, gc in small) / len(small) if small else None
    rows: list[tuple[str, list[float | None]]] = []
    if runs:
        floors: list[float | None] = []
        for mix in mixes:
            card = runs.get(mix, {}).get("card")
            share = cards[mix]
            floors.append(
                None
                if card is None or (small_floor is None and share < 1)
                else share * (card[0] - card[1]) + (1 - share) * (small_floor or 0.0)
            )
        rows.append(("floor: discord.py in, tree, send (baselines, no collector)", floors))
        rows.append(
            ("cycle collector (ours)", [runs[m]["ours"][1] if "ours" in runs.get(m, {}) else None for m in mixes])
        )
    rows += [(text, [table[m][part] for m in mixes]) for part, text in REPLAYED.items()]
    if runs:
        left = []
        for mix, floor in zip(mixes, floors, strict=True):
            ours = runs.get(mix, {}).get("ours")
            left.append(None if ours is None or floor is None else ours[0] - floor - ours[1] - sum(table[mix].values()))
        rows.append(("our wrappers: guard, rate limit, handler, dispatch, … (the rest)", left))
        rows.append(
            ("total: our bot (bench_e2e)", [runs[m]["ours"][0] if "ours" in runs.get(m, {}) else None for m in mixes])
        )
        rows.append(
            (
                "  the fixed-card bot (bench_e2e), its collector included",
                [runs[m]["card"][0] if "card" in runs.get(m, {}) else None for m in mixes],
            )
        )
    rows.append(("  replies that are cards", [cards[m] for m in mixes]))
    print(f"M instructions per interaction ({n} interactions per mix, callgrind)")
    print(f"{'':<68}" + "".join(f"{mix:>11}" for mix in mixes))
    for text, values in rows:
        print(f"{text:<68}" + "".join(f"{v:>11.3f}" if v is not None else f"{'—':>11}" for v in values))


def replay_child(args: argparse.Namespace) -> None:
    asyncio.run(_replay_child(args))


async def _replay_child(args: argparse.Namespace) -> None:
    from bench.bench_e2e import MIXES, WARMUP, make_queries
    from bot import heap
    from bot.app.application import Application
    from bot.app.catalog import load_catalog
    from bot.app.files import load_glossary
    from bot.config import Settings
    from bot.core.search import Found
    from bot.discord_app.client import GlossaryBot
    from tests.synthetic import generate

    tmp = Path(args.dir)
    names = generate(Path(tempfile.mkdtemp(dir=tmp)), args.terms)  # (the same names, as bench_e2e draws from)
    env = {
        "GLOSARIO_DATA": str(tmp / "glossary"),
        "GLOSARIO_DB": str(tmp / f"{args.replay_child}.db"),
        "GLOSARIO_QUESTIONS": "off",
        "DISCORD_TOKEN": "x",
    }
    settings = Settings.from_env(env)
    catalog = load_catalog(settings.data_dir, settings.cache_dir)
    catalog.index.warm()  # as `glosario-bot run` does before serving
    app = await Application.open(settings, catalog)
    heap.settle()  # as the bot does once loaded
    bot = GlossaryBot(app, auto_sync=False)
    await app.start()
    reply = _reply_builder(bot)
    lookups, catalog = app.lookups, app.catalog.current
    guild, locale = 1234, "es-ES"
    definitions = {t.term: t.definition for t in load_glossary(settings.data_dir)}
    queries = make_queries(names, args.n, MIXES[args.replay_child], random.Random(3), definitions)
    warmup = make_queries(names, WARMUP, MIXES[args.replay_child], random.Random(4), definitions)  # (bench_e2e's)

    answers: list = []

    async def index(batch: list[str]) -> None:
        for q in batch:
            if catalog.glossary.get(q) is None:  # (an id is answered before the index is asked)
                catalog.index.lookup(q)

    async def application(batch: list[str]) -> None:
        answers.clear()
        for i, q in enumerate(batch):
            here = await lookups.for_guild(guild)
            answers.append((here, 10_000 + i, q, here.lookup(10_000 + i, q, gap=False)))

    async def gap(batch: list[str]) -> None:
        for here, user, q, answer in answers:
            if answer is not None and not isinstance(answer.result, Found):
                here.unanswered(user, q, answer)

    async def replied(batch: list[str]) -> None:
        for _, _, q, answer in answers:
            if answer is not None:
                reply(answer, q, locale)
        found = sum(answer is not None and isinstance(answer.result, Found) for *_, answer in answers)
        (tmp / f"cards-{args.replay_child}.txt").write_text(str(found / len(answers)))

    async def after(batch: list[str]) -> None:
        lookups.flush()
        await app.writer.drain()

    async def nothing(batch: list[str]) -> None:
        pass

    parts: list[Callable[[list[str]], Awaitable[None]]] = [nothing, index, application, gap, replied, after]
    await lookups.for_guild(guild)  # the server read once (it has no terms of its own)
    for part in parts:  # warm-up, as bench_e2e's
        await part(warmup)
    for part in parts:
        _callgrind("--instr=on")
        await part(queries)
        _callgrind("--instr=off")
        _callgrind("--dump")
    await app.close(grace=3.0)


def _reply_builder(bot) -> Callable:
    """What the /termino handler builds to reply: the card of a term found, the suggestions of an ambiguous answer
    (their buttons and sentence), or the "not found" sentence."""
    from bot.core.search import Ambiguous, Found
    from bot.discord_app.kit.embeds import echo
    from bot.discord_app.kit.i18n import t
    from bot.discord_app.lookup.suggestions import suggestions_view

    def reply(answer, query: str, locale: str) -> None:
        result = answer.result
        if isinstance(result, Found):
            bot.cards.card_for(result.term, answer.overlay, locale)
        elif isinstance(result, Ambiguous):
            suggestions_view(result.candidates, answer.qhash, True, bot.app.lookups.sign)
            t(locale, "did_you_mean", query=echo(query))
        else:
            t(locale, "not_found", query=echo(query))

    return reply


def _callgrind(what: str) -> None:
    subprocess.run(["callgrind_control", what, str(os.getpid())], check=True, stdout=subprocess.DEVNULL)


# -- shares from cProfile files ----------------------------------------------------------------------------------
# part → the functions (a fragment of the file's path, name) whose inclusive time it is. Where one function name
# matches several entries (GuildGlossary.lookup calling Lookups.lookup), the outermost, the longest, is taken.
D = "bot/discord_app/"
PARTS = {
    "all callbacks": [("asyncio/events.py", "_run")],
    "start-up": [
        ("bot/app/application.py", "start"),
        ("discord/client.py", "setup_hook"),
        ("discord/client.py", "login"),
    ],
    "gateway in (json, discord.py)": [("discord/gateway.py", "received_message")],
    "make_valid": [(D, "make_valid")],
    "dispatch + watch": [(D, "dispatch")],
    "command tree (discord.py)": [("discord/app_commands/tree.py", "_call")],
    "guard + rate limit": [(D, "accepting_work")],
    "handler (termino)": [(D, "termino")],
    "server's view (for_guild)": [("bot/app/lookup/lookups.py", "for_guild")],
    "lookup (application)": [("bot/app/lookup/lookups.py", "lookup")],
    "index lookup": [("bot/core/search.py", "lookup")],
    "gap (recorded, queued)": [("bot/app/lookup/lookups.py", "_gap"), ("bot/core/gaps.py", "gap_key")],
    "counters": [("bot/app/lookup/lookups.py", "count")],
    "card": [(D, "card_for"), (D, "suggestions_view")],
    "echo + i18n": [(D, "echo"), (D, "t")],
    "send (discord.py)": [("discord/interactions.py", "send_message")],
    "write queue (after the reply)": [("bot/storage/writer.py", "_run")],
}
NESTED = {  # part → parts measured inside it
    "all callbacks": [
        "start-up",
        "gateway in (json, discord.py)",
        "command tree (discord.py)",
        "write queue (after the reply)",
    ],
    "gateway in (json, discord.py)": ["make_valid", "dispatch + watch"],
    "command tree (discord.py)": ["guard + rate limit", "handler (termino)"],
    "handler (termino)": [
        "server's view (for_guild)",
        "lookup (application)",
        "card",
        "echo + i18n",
        "send (discord.py)",
    ],
    "lookup (application)": ["index lookup", "gap (recorded, queued)", "counters"],
}


def inclusive(stats: pstats.Stats, functions: list[tuple[str, str]]) -> float:
    total = 0.0
    for fragment, name in functions:
        found = [
            cumtime
            for (filename, _, fn), (_, _, _, cumtime, _) in stats.stats.items()  # type: ignore[attr-defined]
            if fn == name and fragment in filename.replace("\\", "/")
        ]
        total += max(found, default=0.0)
    return total


def interactions(stats: pstats.Stats) -> int:
    for (filename, _, name), (calls, *_) in stats.stats.items():  # type: ignore[attr-defined]
        if name == "parse_interaction_create" and filename.endswith("discord/state.py"):
            return calls
    return 0


def split(path: Path) -> tuple[int, dict[str, float]]:
    """Microseconds per interaction for each part (exclusive of the parts nested in it)."""
    stats = pstats.Stats(str(path))
    n = max(interactions(stats), 1)
    times = {part: inclusive(stats, functions) for part, functions in PARTS.items()}
    own = dict(times)
    for part, inner in NESTED.items():
        own[part] -= sum(times[i] for i in inner)
    own["other (event loop, aiohttp, tasks)"] = own.pop("all callbacks")
    del own["start-up"]
    return n, {part: seconds * 1e6 / n for part, seconds in own.items()}


def shares(paths: list[Path]) -> None:
    splits = {path.stem: split(path) for path in paths}
    names = list(splits)
    print(f"{'µs per interaction (cProfile)':<36}" + "".join(f"{name:>12}" for name in names))
    for part in next(iter(splits.values()))[1]:
        print(f"{part:<36}" + "".join(f"{splits[name][1][part]:>12.0f}" for name in names))
    print(f"{'total':<36}" + "".join(f"{sum(splits[name][1].values()):>12.0f}" for name in names))
    print(f"{'interactions':<36}" + "".join(f"{splits[name][0]:>12}" for name in names))


def main() -> int:
    from bench.bench_e2e import MIXES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profiles", nargs="*", type=Path, help="cProfile files of bench_e2e --profile")
    parser.add_argument("--replay", action="store_true", help="count our parts exactly under callgrind")
    parser.add_argument("--n", type=int, default=300, help="interactions per mix (as bench_e2e --instructions)")
    parser.add_argument("--terms", type=int, default=10_000)
    parser.add_argument("--mixes", nargs="+", choices=list(MIXES), default=list(MIXES))
    parser.add_argument(
        "--e2e", metavar="DIR", help="bench_e2e --instructions --callgrind-dir DIR: adds the floor and our wrappers"
    )
    parser.add_argument("--replay-child", choices=list(MIXES), help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replay_child:
        replay_child(args)
        return 0
    if args.replay:
        return replay(args)
    if not args.profiles:
        parser.error("give cProfile files, or --replay")
    shares(args.profiles)
    return 0


if __name__ == "__main__":
    sys.exit(main())
