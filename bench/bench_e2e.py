"""End-to-end probe: N /termino interactions through the fake Discord into the real bot.

    python -m bench.bench_e2e [--n 2000] [--terms 10000] [--concurrency 20] [--rounds 3] [--profile DIR]
    python -m bench.bench_e2e --instructions [--n 300] [--per-kind] [--questions on|off|both] [--callgrind-dir DIR]

Each bot runs as its own process against a fake Discord in this process: ours (`glosario-bot run`, serving a
synthetic glossary of --terms terms and logging its misses to SQLite) and two baselines from
bench/minimal_bot.py, minimal discord.py bots that answer every /termino with one fixed embed: a card of ours
(the same fields and buttons as our replies) and a small embed (title and one sentence).

The target compares us with the fixed card: the same reply, so the difference is our own work (lookup over
the glossary, the card, logging). The small embed is shown beside it for what a bigger reply costs by itself:
a bot that does nothing but send our fixed card keeps only about 80 % of the small-embed bot's speed, which
would leave nothing for the lookup.

Reports interactions/s and p50/p99 from the interaction being sent to the reply arriving, and the bot
process's CPU time per interaction. The bots take turns for --rounds rounds; each is reported by its median.
On a shared machine wall-clock numbers move by tens of percent from run to run: --instructions runs each bot
under valgrind's callgrind instead and counts the instructions it executes per interaction (repeatable to
within about 2 %, whatever else the machine is doing).

Two query mixes: "realistic" (most people pick from autocomplete) and "hard" (everything typed, many typos
and misses). Targets (issue 26): at least 0.85 of the fixed-card bot's throughput on the realistic mix and 0.80
on the hard one (with --instructions: its instructions per interaction over ours). --per-kind also runs each kind
of query alone, every interaction from a new member, beside the fixed-card bot: a name or a one-letter typo at
most 1.25× its instructions (or time) per interaction, a miss in ordinary words or a name with extra words at
most 2×. Every ratio is printed with its target; the exit status is 1 when one is missed. Where the instructions
go: --instructions --callgrind-dir DIR, then `python -m bench.profile_split --replay --e2e DIR`; where the time goes
(cProfile shares): --profile DIR, then `python -m bench.profile_split DIR/*.prof`.

Our bot runs with the question path on (issue 34), as it serves: its index is built into the cache folder before
any bot starts (as a bot restarted on the same glossary finds it) and the count starts once `/glosario pregunta`
answers. `--questions off` runs it with the path off instead (the name path alone, as this bench measured before
issue 34); `--questions both` runs it both ways and prints what the path costs each mix: a name, a typo and a name
with extra words within 2 % of the path off (issues 24 and 34: the path never runs for them). Under callgrind the
bot runs through bench/bench_bot.py, which lets a reply wait 120 s for the question path instead of 1.5 s (about 50
times slower under valgrind, the questions would otherwise be answered by name and dropped unencoded). Issue 34's
targets, path on: the realistic and everyday mixes at least 0.80 of the fixed-card bot (the realistic one keeps
issue 26's 0.85), a miss in ordinary words with a code ("coded") at most 3×; a question's CPU time and the event
loop's lateness when 50 arrive at once are measured by bench/bench_burst.py, and a question's instructions split
by layer by `python -m bench.question_split`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bot.app.files import load_glossary
from tests.fake_discord.server import TOKEN, FakeDiscord
from tests.synthetic import generate

ROOT = Path(__file__).resolve().parent.parent

TARGET_RATIO = {"realistic": 0.85, "hard": 0.80, "everyday": 0.80}  # of the fixed-card bot's speed (issues 26, 34)
BOTS = {  # name → (module args, whether it serves the synthetic glossary)
    "minimal bot, small embed": (["-m", "bench.minimal_bot"], False),
    "minimal bot, fixed card": (["-m", "bench.minimal_bot", "--card"], True),
    "Glosario IA bot": (["-m", "bot", "run"], True),  # the question path on (--questions off: off)
    "Glosario IA bot, questions off": (["-m", "bot", "run"], True),  # only with --questions both
}
SMALL, BASELINE, OURS, OURS_OFF = BOTS
QUESTIONS_LIMIT = 1.02  # a name's instructions with the question path on, over those with it off (issues 24, 34)
QUESTIONS_KINDS = ("id", "name", "typo", "extra")  # the kinds the limit holds for: the question path never runs
QUESTION_WAIT_CALLGRIND = 120.0  # seconds a reply waits for the question path under callgrind (bench_bot.py)
PROBE = "como se reparte el entrenamiento de un modelo entre varias maquinas"  # several words: a question
PROBE_MEMBERS = 900_000_000  # the members who ask PROBE, one each (the measured ones are MEMBERS + i)
MEMBERS, WARMUP_MEMBERS = 10_000, 800_000_000  # the first member id of the measured queries and of the warm-up
WARMUP = 50  # queries sent before the count starts: others than the measured ones, of the same kinds


async def drive(
    fake: FakeDiscord, queries: list[str], concurrency: int, first_member: int = MEMBERS
) -> tuple[float, list[float]]:
    """Send each query as /termino from a member of its own, `concurrency` in flight; the rate and latencies."""
    gate = asyncio.Semaphore(concurrency)
    latencies: list[float] = []

    async def one(i: int, query: str) -> None:
        async with gate:
            started = time.perf_counter()
            iid = await fake.command("termino", {"termino": query}, user_id=first_member + i)
            await fake.response(iid, timeout=120)
            latencies.append((time.perf_counter() - started) * 1000)

    began = time.perf_counter()
    await asyncio.gather(*(one(i, q) for i, q in enumerate(queries)))
    return len(queries) / (time.perf_counter() - began), latencies


@dataclass(frozen=True)
class Run:
    rate: float  # interactions/s
    latencies: list[float]  # ms, from sending the interaction to the reply arriving
    cpu_ms: float | None  # CPU time of the bot process per interaction (None where /proc is missing)
    instructions: float | None = None  # per interaction, under callgrind


def cpu_seconds(pid: int) -> float | None:
    """CPU time of a process so far, every thread (Linux): from schedstat, in nanoseconds, where the kernel keeps
    it; else user + system time from /proc/PID/stat, in clock ticks (10 ms)."""
    total, found = 0, False
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
                found = True
            except (OSError, IndexError, ValueError):
                continue  # (a thread that ended meanwhile)
        if found:
            return total / 1e9
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def callgrind_total(out_file: Path) -> int:
    for line in out_file.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise RuntimeError(f"no instruction total in {out_file}")


async def instrumentation(pid: int, state: str) -> None:
    """Switch callgrind's counting on or off in a running process."""
    control = await asyncio.create_subprocess_exec(
        "callgrind_control", "-i", state, str(pid), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    if await control.wait():
        raise RuntimeError(f"callgrind_control -i {state} {pid} failed")


async def questions_ready(fake: FakeDiscord, within: float) -> None:
    """Wait until the bot's question path answers: `/glosario pregunta` says neither that it is loading nor, as
    it would to one member asking every 2 s, to slow down (each probe comes from a member of its own)."""
    from bot.discord_app.kit.i18n import t

    waiting = (t("es-ES", "questions_loading"), t("es-ES", "cooldown", seconds=0).split("0")[0])
    deadline = time.monotonic() + within
    for probe in itertools.count(PROBE_MEMBERS):
        command = await fake.command("glosario pregunta", {"texto": PROBE}, user_id=probe)
        content = (await fake.response(command, timeout=120))["data"].get("content") or ""
        if not content.startswith(waiting):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the question path was not ready after {within:.0f} s")
        await asyncio.sleep(2)


async def prebuild_questions(data_dir: Path, cache_dir: Path) -> None:
    """Build the question path's index (the terms' vectors and BM25 arrays) and compile its model into the cache
    folder before any bot starts, as a bot restarted on the same glossary finds them: no build in any count."""
    from bot.app.catalog import CatalogHolder, load_catalog
    from bot.app.questions.service import Questions

    started = time.monotonic()
    questions = Questions(CatalogHolder(load_catalog(data_dir)), cache_dir)
    if not await questions.prepare():
        raise RuntimeError("the question index build stopped")
    await questions.close()
    print(f"question index built in the cache folder beforehand ({time.monotonic() - started:.0f} s)")


async def run_process(
    args: list[str],
    env: dict[str, str],
    queries: list[str],
    concurrency: int,
    callgrind: Path | None = None,
    questions: bool = False,
    warmup: list[str] | None = None,
) -> Run:
    """Start a bot as its own process (its own core), drive it through a fresh fake Discord, stop it.

    With `callgrind` (an output file), the bot runs under valgrind and only the measured interactions are
    counted (instrumentation is switched on after the warm-up and off before the shutdown). With `questions`, the
    warm-up waits for the bot's question path to be ready first. The warm-up sends `warmup` (else the first
    WARMUP queries), from members of its own: other queries than the measured ones, so that no measured query is
    answered from a cache the warm-up filled (the lookup's, the questions' vectors)."""
    fake = await FakeDiscord().start()
    env = {
        **env,
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, *args]
    if callgrind is not None:
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={callgrind}", *command]
    proc = await asyncio.create_subprocess_exec(
        *command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL if callgrind else None
    )
    try:
        await fake.wait_ready(timeout=600 if callgrind else 60)
        fake.find_command("termino")  # registered during start-up, before the gateway connection
        if questions:
            await questions_ready(fake, within=3600)
        await drive(fake, warmup if warmup is not None else queries[:WARMUP], concurrency, WARMUP_MEMBERS)
        if callgrind is not None:
            await instrumentation(proc.pid, "on")
        cpu_before = cpu_seconds(proc.pid)
        rate, latencies = await drive(fake, queries, concurrency)
        cpu_after = cpu_seconds(proc.pid)
        if callgrind is not None:
            await instrumentation(proc.pid, "off")
        cpu_ms = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) * 1000 / len(queries)
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
        await fake.stop()
    instructions = callgrind_total(callgrind) / len(queries) if callgrind is not None else None
    return Run(rate, latencies, cpu_ms, instructions)


def summary(name: str, run: Run) -> str:
    if run.instructions is not None:
        return f"{name:<26} {run.instructions / 1e6:6.3f} M instructions/interaction"
    ordered = sorted(run.latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    cpu = f"   CPU {run.cpu_ms:.3f} ms/interaction" if run.cpu_ms is not None else ""
    return (
        f"{name:<26} {run.rate:>6.0f} interactions/s   p50 {statistics.median(ordered):6.2f} ms"
        f"   p99 {p99:7.2f} ms{cpu}"
    )


def median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.rate)[len(runs) // 2]


def speed(run: Run) -> float:
    """Higher is faster: interactions/s, or interactions per instruction under callgrind."""
    return 1 / run.instructions if run.instructions is not None else run.rate


async def main_async(args: argparse.Namespace) -> int:
    if args.instructions and not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        print("--instructions needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.callgrind_dir:
        os.makedirs(args.callgrind_dir, exist_ok=True)  # (valgrind cannot start without it)
    with tempfile.TemporaryDirectory(prefix="glosario-e2e-") as tmp:
        data_dir = Path(tmp) / "glossary"
        names = generate(data_dir, args.terms)
        definitions = {t.term: t.definition for t in load_glossary(data_dir)}
        rounds = 1 if args.instructions else args.rounds
        what = "instructions counted under callgrind" if args.instructions else f"{rounds} round(s)"
        print(f"{args.n} interactions per run, {args.concurrency} in flight, {args.terms:,} terms, {what}")
        if args.questions != "off":
            await prebuild_questions(data_dir, Path(tmp) / "cache")
        missed = []
        for mix in args.mixes:
            queries = make_queries(names, args.n, MIXES[mix], random.Random(3), definitions)
            warmup = make_queries(names, WARMUP, MIXES[mix], random.Random(4), definitions)
            print(f"\nmix {mix!r}: {MIX_TEXT[mix]}")
            # Each kind alone is compared with the fixed card only (the small embed tells nothing more there).
            bots = [name for name in BOTS if mix in TARGET_RATIO or name != SMALL]
            bots = [name for name in bots if args.questions == "both" or name != OURS_OFF]
            runs: dict[str, list[Run]] = {name: [] for name in bots}
            for round_ in range(1, rounds + 1):  # taking turns spreads the machine's slow moments over all
                for name in bots:
                    runs[name].append(await run_bot(args, Path(tmp), name, mix, round_, queries, warmup))
            medians = {name: median_run(r) for name, r in runs.items()}
            for name, run in medians.items():
                print(summary(name, run))
            if not verdict(args, mix, medians):
                missed.append(mix)
            if args.questions == "both" and not questions_verdict(args, mix, medians):
                missed.append(f"{mix} (question path on against off)")
        if missed:
            print(f"\ntargets missed: {', '.join(missed)}")
    return 1 if missed else 0


async def run_bot(
    args: argparse.Namespace, tmp: Path, name: str, mix: str, round_: int, queries: list[str], warmup: list[str]
) -> Run:
    module, serves_glossary = BOTS[name]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GLOSARIO_"))}
    questions = name == OURS and args.questions != "off"
    if serves_glossary:
        env["GLOSARIO_DATA"] = str(tmp / "glossary")
        off = "-questions-off" if name == OURS_OFF else ""
        env["GLOSARIO_DB"] = str(tmp / f"{mix}-{round_}{off}.db")  # each run starts from an empty database
        env["GLOSARIO_QUESTIONS"] = "on" if questions else "off"
        env["GLOSARIO_CACHE_DIR"] = str(tmp / "cache")  # built beforehand (prebuild_questions), shared by every run
    command = list(module)
    if questions and args.instructions:  # (see QUESTION_WAIT_CALLGRIND)
        command = ["-m", "bench.bench_bot", "--question-wait", str(QUESTION_WAIT_CALLGRIND), *module[1:]]
    if args.profile and name == OURS:
        command = ["-m", "cProfile", "-o", f"{args.profile}/{mix}-{round_}.prof", *command]
    out = Path(args.callgrind_dir or tmp) / f"callgrind-{mix}-{round_}-{module[-1]}.out"
    if name == OURS_OFF:
        out = out.with_name(out.name.replace(".out", "-questions-off.out"))
    callgrind = out if args.instructions else None
    return await run_process(command, env, queries, args.concurrency, callgrind, questions, warmup)


def verdict(args: argparse.Namespace, mix: str, medians: dict[str, Run]) -> bool:
    """Print how the mix compares with its target; False when it misses it."""
    ratio = speed(medians[OURS]) / speed(medians[BASELINE])
    measure = "instructions" if args.instructions else "throughput"
    if mix in TARGET_RATIO:
        target = TARGET_RATIO[mix]
        ok = ratio >= target
        print(f"{measure} ratio to the fixed-card bot: {ratio:.2f} (target ≥ {target:.2f}) {'ok' if ok else 'MISSED'}")
        small = {name: speed(medians[name]) / speed(medians[SMALL]) for name in (BASELINE, OURS)}
        print(f"beside the small-embed bot: the fixed card alone {small[BASELINE]:.2f}, ours {small[OURS]:.2f}")
        return ok
    limit = KIND_TEXT[mix][1]
    ok = limit is None or 1 / ratio <= limit
    target = f"target ≤ {limit:.2f}×) {'ok' if ok else 'MISSED'}" if limit is not None else "no target)"
    print(f"{measure}: {1 / ratio:.2f}× the fixed-card bot's per interaction ({target}")
    return ok


def questions_verdict(args: argparse.Namespace, mix: str, medians: dict[str, Run]) -> bool:
    """Print what the question path costs this mix (ours with it on over ours with it off); False when a kind it
    never runs for exceeds QUESTIONS_LIMIT."""
    cost = speed(medians[OURS_OFF]) / speed(medians[OURS])
    measure = "instructions" if args.instructions else "time"
    if mix in QUESTIONS_KINDS:
        ok = cost <= QUESTIONS_LIMIT
        print(f"question path on: {cost:.3f}× the {measure} with it off (target ≤ {QUESTIONS_LIMIT:.2f}×) ", end="")
        print("ok" if ok else "MISSED")
        return ok
    print(f"question path on: {cost:.3f}× the {measure} with it off (no target: the path runs for descriptions)")
    return True


# Shares of the kinds of query (KINDS) in each mix (kinds added later go at the end, so that the earlier mixes
# draw the same queries as before).
KINDS = ("id", "name", "typo", "extra", "miss", "swap", "coded", "question")
MIXES = {
    "realistic": (0.50, 0.20, 0.15, 0.15, 0.0, 0.0, 0.0, 0.0),
    "hard": (0.0, 0.25, 0.375, 0.375, 0.0, 0.0, 0.0, 0.0),
    "everyday": (0.0, 0.50, 0.0, 0.0, 0.0, 0.25, 0.25, 0.0),
}
MIX_TEXT = {
    "realistic": "50 % picked from autocomplete, 20 % typed names, 15 % typos, 15 % misses (logged)",
    "hard": "no autocomplete: 25 % typed names, 37.5 % typos, 37.5 % misses (logged)",
    "everyday": "issue 34's: 50 % typed names, 25 % two letters swapped, 25 % misses in ordinary words with a code",
}
# --per-kind: each kind alone, every interaction from a new member, and its limit in instructions per interaction
# as a multiple of the fixed-card bot's (None: shown, no target).
KIND_TEXT = {
    "id": ("a term's id, as an autocomplete choice submits it", None),
    "name": ("a name typed as written", 1.25),
    "typo": ("a name with one letter dropped", 1.25),
    "extra": ("a name with words the glossary does not have (a miss, logged)", 2.0),
    "miss": ("ordinary words the glossary does not have (a miss, logged)", 2.0),
    "swap": ("a name with two neighbouring letters swapped", None),
    "coded": ('ordinary words, a number and a code: "consulta inexistente 12 zq4471" (a miss, logged)', 3.0),
    "question": ("a question in a member's words, about a term's definition (the question path)", None),
}
for _i, _kind in enumerate(KINDS):
    MIXES[_kind] = tuple(float(j == _i) for j in range(len(KINDS)))
    MIX_TEXT[_kind] = f"only {KIND_TEXT[_kind][0]}"
# Words of a question the glossary cannot answer ("consulta inexistente 17"): ordinary words, none a term's.
ORDINARY = [
    "consulta",
    "inexistente",
    "como",
    "funciona",
    "ejemplo",
    "diferencia",
    "entre",
    "ambos",
    "uso",
    "real",
    "sirve",
    "cuando",
    "conviene",
    "usar",
    "mejor",
    "forma",
    "explicar",
    "sencillo",
    "rapido",
    "problema",
    "datos",
    "produccion",
    "ayuda",
    "tutorial",
    "curso",
    "libro",
    "pregunta",
]


def swapped(name: str, rng: random.Random) -> str:
    """Two neighbouring letters of a name swapped (where they differ)."""
    places = [p for p in range(len(name) - 1) if name[p] != name[p + 1] and (name[p] + name[p + 1]).isalpha()]
    p = rng.choice(places) if places else 0
    return name[:p] + name[p + 1] + name[p] + name[p + 2 :]


def coded(i: int, rng: random.Random) -> str:
    """A miss in ordinary words with a number and a code, as the issue's "consulta inexistente 12 zq4471"."""
    code = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(2)) + f"{rng.randrange(10_000):04d}"
    return f"{rng.choice(ORDINARY)} {rng.choice(ORDINARY)} {i} {code}"


def question(definition: str, rng: random.Random) -> str:
    """A question in a member's words about a term: everyday words around three words of its definition."""
    a, b, c = rng.sample(definition.rstrip(".").lower().split(), 3)
    return f"{rng.choice(ASKED)} {a} {b} con {c}"


ASKED = (
    "como se llama lo que",
    "que termino usa para",
    "cual es la herramienta que",
    "hay algo en el glosario que",
)


def make_queries(
    names: list[str], n: int, shares: tuple[float, ...], rng: random.Random, definitions: dict[str, str] | None = None
) -> list[str]:
    """`n` queries of the kinds in `shares`; `definitions` (name → definition) for the "question" kind."""
    from bot.core.normalize import slug

    queries = []
    for i in range(n):
        name = rng.choice(names)
        kind = KINDS[rng.choices(range(len(KINDS)), weights=shares)[0]]
        if kind == "id":
            queries.append(slug(name))  # what an autocomplete choice submits: the term's id
        elif kind == "name":
            queries.append(name.lower())
        elif kind == "typo":
            pos = rng.randrange(1, len(name) - 1)
            queries.append(name[:pos] + name[pos + 1 :])  # one letter dropped
        elif kind == "extra":
            queries.append(f"{name} inexistente {i}")
        elif kind == "miss":
            queries.append(f"{rng.choice(ORDINARY)} {rng.choice(ORDINARY)} {i}")
        elif kind == "swap":
            queries.append(swapped(name, rng).lower())
        elif kind == "coded":
            queries.append(coded(i, rng))
        else:
            assert definitions is not None, "the question kind needs the terms' definitions"
            queries.append(question(definitions[name], rng))
    return queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, help="interactions per run (default 2000; 300 with --instructions)")
    parser.add_argument("--terms", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="turns each bot takes (the median is reported)")
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="write cProfile stats of our bot to DIR/<mix>-<round>.prof (bench.profile_split)",
    )
    parser.add_argument("--mixes", nargs="+", choices=list(MIXES), default=["realistic", "hard"])
    parser.add_argument(
        "--per-kind", action="store_true", help="also each kind of query alone (" + ", ".join(KINDS) + ")"
    )
    parser.add_argument("--callgrind-dir", metavar="DIR", help="keep callgrind's output files in DIR")
    parser.add_argument(
        "--questions",
        nargs="?",
        const="both",
        default="on",
        choices=["on", "off", "both"],
        help="our bot with the question path on (the default), off, or both (issues 24, 34: names within 2 %%)",
    )
    args = parser.parse_args()
    if args.per_kind:
        args.mixes = [*args.mixes, *(kind for kind in KINDS if kind not in args.mixes)]
    if args.n is None:
        args.n = 300 if args.instructions else 2000
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
