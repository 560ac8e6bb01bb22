"""What reading a question's words through the encoder's space costs (issue 34, bot/core/word_space.py): CPU time
per question of the encoder call with and without the question's words, with the words remembered
(bot/app/questions/vectors.py, warm after one pass), and of the word-space lookup at its largest
(MAX_WORDS glossary words). The baseline is the encoder call for the question alone, from the same run.

    python -m bench.bench_question_words          (the labelled questions of tests/questions/, twice each)
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from bot.app.questions.sentence_model import DIMENSIONS, SentenceModel
from bot.app.questions.vectors import QuestionVectors
from bot.core.word_space import MAX_WORDS, WordSpace, question_words
from tests.questions.labelled import CIVIO, FRESH, QUESTIONS, labelled


def cpu_ms(calls) -> tuple[float, float]:
    """Median and 99th percentile of the CPU milliseconds of each call."""
    times = []
    for call in calls:
        start = time.thread_time()
        call()
        times.append((time.thread_time() - start) * 1000)
    ordered = sorted(times)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> None:
    texts = [r.q for path in (QUESTIONS, FRESH, CIVIO) for r in labelled(None, path)]
    with tempfile.TemporaryDirectory() as work:
        model = SentenceModel(Path(work))
        model.load()
        model.encode(texts[:50])  # (weights read once)
        alone = cpu_ms([lambda t=t: model.encode([t]) for t in texts])
        cold = cpu_ms([lambda t=t: model.encode([t, *question_words(t)]) for t in texts])
        remembered = QuestionVectors(model, 8192)
        first = cpu_ms([lambda t=t: remembered.vectors([t, *question_words(t)]) for t in texts])
        warm = cpu_ms([lambda t=t: remembered.vectors([t, *question_words(t)]) for t in texts])
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((MAX_WORDS, DIMENSIONS)).astype(np.float32)
    space = WordSpace.of([f"w{i}" for i in range(MAX_WORDS)], vectors / np.linalg.norm(vectors, axis=1)[:, None])
    asked = rng.standard_normal((8, DIMENSIONS)).astype(np.float32)
    lookup = cpu_ms([lambda: space.neighbours(asked)] * 500)
    words = np.mean([len(question_words(t)) for t in texts])
    print(f"{len(texts)} questions, {words:.1f} words each on average; CPU ms per question, p50 / p99")
    print(f"  encoder, the question alone (baseline)            {alone[0]:6.2f} / {alone[1]:6.2f}")
    print(f"  encoder, the question and its words, one call     {cold[0]:6.2f} / {cold[1]:6.2f}")
    print(f"  the same, words remembered (first pass)           {first[0]:6.2f} / {first[1]:6.2f}")
    print(f"  the same, words remembered (second pass)          {warm[0]:6.2f} / {warm[1]:6.2f}")
    print(f"  word space lookup, 8 words x {MAX_WORDS} glossary words   {lookup[0]:6.2f} / {lookup[1]:6.2f}")


if __name__ == "__main__":
    main()
