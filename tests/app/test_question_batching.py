"""Asking off the event loop (bot/app/questions/batcher.py, service.py): questions that arrive together are encoded in
one call and ranked in one product, each answered as it would be alone; vectors are kept by the text as the model
reads it; the queue is bounded and a question whose member stopped waiting is never computed; a text that cannot
be a question never reaches the encoder."""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.questions.batcher import Batcher
from bot.app.questions.sentence_model import SentenceModel
from bot.app.questions.service import Questions
from bot.app.questions.vectors import QuestionVectors
from bot.core.questions import NO_ANSWER
from bot.core.search import NotFound, SearchIndex
from bot.core.word_space import question_words
from tests.app.test_question_cache import CountingEncoder
from tests.helpers import eventually
from tests.questions.labelled import labelled

QUESTIONS = [
    "como se reparte el entrenamiento entre varias maquinas",
    "framework de uber para entrenar con mpi",
    "herramienta para guardar features y servirlas en produccion",
    "plataforma para seguir experimentos de machine learning",
    "sumar los gradientes de todos los nodos",
]


class CountingModel:
    """The real model, counting what it is asked to encode, from which thread, and able to hold a call until told."""

    def __init__(self, model: SentenceModel) -> None:
        self.model, self.name = model, model.name
        self.calls: list[list[str]] = []
        self.threads: set[str] = set()
        self.hold = threading.Event()
        self.hold.set()  # (cleared by a test that wants a batch held)
        self.holding = threading.Event()

    def encode(self, texts):
        self.calls.append(list(texts))
        self.threads.add(threading.current_thread().name)
        self.holding.set()
        assert self.hold.wait(10)
        return self.model.encode(texts)

    def key(self, text: str) -> str:
        return self.model.key(text)

    def known_words(self, words):
        return self.model.known_words(words)

    @property
    def texts(self) -> list[str]:
        return [t for call in self.calls for t in call]


def same(answer, other) -> bool:
    """The same verdict and terms in the same order, the scores equal to their 4 decimals give or take one."""
    ids = [c.term.id for c in answer.candidates], [c.term.id for c in other.candidates]
    scores = [c.score for c in answer.candidates], [c.score for c in other.candidates]
    return answer.verdict == other.verdict and ids[0] == ids[1] and np.allclose(*scores, atol=2e-4)


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> SentenceModel:
    found = SentenceModel(tmp_path_factory.mktemp("model"))
    found.load()
    return found


def with_words(texts: list[str]) -> list[str]:
    """What one encoder call reads for these questions: each text, then the words the word space reads of them
    (bot/core/word_space.py), each once."""
    return list(dict.fromkeys([*texts, *(w for text in texts for w in question_words(text))]))


@pytest.fixture
async def questions(model, shipped_glossary, tmp_path):
    counting = CountingModel(model)
    found = Questions(CatalogHolder(Catalog(shipped_glossary, SearchIndex(shipped_glossary), "t")), tmp_path, counting)
    assert await found.prepare()
    counting.calls.clear()  # (the terms' texts, embedded by prepare, and the model's warming)
    counting.threads.clear()
    yield found
    await found.close()


async def test_questions_that_arrive_together_are_encoded_in_one_call_off_the_event_loop(questions):
    answers = await asyncio.gather(*(questions.ask(q) for q in QUESTIONS))
    model = questions.encoder
    assert model.calls == [with_words(QUESTIONS)]  # one call, each text once (and the words it reads)
    assert model.threads == {next(iter(model.threads))} and next(iter(model.threads)).startswith("glosario-questions")
    assert threading.current_thread().name not in model.threads
    assert all(same(a, questions.ask_now(q)) for a, q in zip(answers, QUESTIONS, strict=True))  # as alone
    assert answers[1].term.id == "horovod"


async def test_an_answer_does_not_depend_on_the_questions_beside_it(questions):
    """In a batch, the model's floats differ from a lone question's by 3e-7 at most (another order of sums): every
    labelled question gets the same verdict and the same terms in the same order either way."""
    texts = [r.q for r in labelled()]
    batched = []
    for start in range(0, len(texts), questions.MAX_WAITING):  # (as many at once as may wait)
        batched += await asyncio.gather(*(questions.ask(t) for t in texts[start : start + questions.MAX_WAITING]))
    assert len(questions.encoder.calls) < len(texts) / 4  # (batches of up to 16)
    alone = Questions(questions.catalog, None, questions.encoder.model)
    for text, answer in zip(texts, batched, strict=True):
        assert same(answer, alone.ask_now(text)), text


async def test_a_question_asked_again_is_not_encoded_again(questions):
    first_text = "¿Cómo se llama lo de Uber para entrenar con MPI?"
    first = await questions.ask(first_text)
    again = await questions.ask("  ¿Cómo se llama lo de Uber   para entrenar con MPI?  ")  # the model reads the same
    assert again == first and questions.encoder.texts == with_words([first_text])


def test_the_kept_vectors_are_bounded():
    encoder = CountingEncoder()
    kept = QuestionVectors(encoder, limit=2)
    kept.vectors(["uno", "dos"])
    kept.vectors(["tres", "dos"])  # "uno" is the least recently used: dropped
    kept.vectors(["dos", "uno"])
    assert encoder.texts == ["uno", "dos", "tres", "uno"] and len(kept) == 2


async def test_texts_that_cannot_be_questions_never_reach_the_encoder(questions):
    assert await questions.ask("zq4471") == NO_ANSWER  # /glosario pregunta: nothing (a gap, as a question)
    assert await questions.ask("xkqzt wrtpl 12") == NO_ANSWER
    assert await questions.ask_after_lookup(NotFound(), "consulta inexistente 12 zq4471") is None  # a name's miss
    assert questions.ask_now("qwx zzkj 4471") == NO_ANSWER
    assert questions.encoder.calls == []
    assert (await questions.ask("consulta inexistente 12 zq4471")).verdict == "nothing"  # "consulta": asked
    assert questions.encoder.texts == with_words(["consulta inexistente 12 zq4471"])


async def test_the_queue_is_bounded_and_a_question_nobody_waits_for_is_dropped(model, shipped_glossary, tmp_path):
    class Small(Questions):
        MAX_BATCH, MAX_WAITING = 1, 2

    counting = CountingModel(model)
    small = Small(CatalogHolder(Catalog(shipped_glossary, SearchIndex(shipped_glossary), "t")), tmp_path, counting)
    assert await small.prepare()
    counting.calls.clear()
    counting.hold.clear()
    running = asyncio.create_task(small.ask(QUESTIONS[0]))
    assert await asyncio.to_thread(counting.holding.wait, 10)  # the first batch is in the encoder, held
    gone = asyncio.create_task(small.ask(QUESTIONS[1]))
    waiting = asyncio.create_task(small.ask(QUESTIONS[2]))
    await eventually(lambda: len(small._batcher._queue) == 2)
    assert await small.ask(QUESTIONS[3]) is None  # refused at once: the name matcher answers
    gone.cancel()  # its member stopped waiting (the reply's deadline)
    counting.hold.set()
    assert (await running).candidates and (await waiting).candidates
    assert counting.calls == [with_words([QUESTIONS[0]]), with_words([QUESTIONS[2]])]  # the cancelled one: never
    assert small._batcher.refused == 1
    await small.close()


async def test_a_failed_batch_fails_its_questions_and_the_next_batch_runs():
    calls = []

    def work(items):
        calls.append(list(items))
        if "boom" in items:
            raise ValueError("boom")
        return [i.upper() for i in items]

    batcher = Batcher(work, gather=0.001, max_batch=4)
    results = await asyncio.gather(batcher.submit("a"), batcher.submit("boom"), return_exceptions=True)
    assert isinstance(results[1], ValueError) and isinstance(results[0], ValueError)
    assert await batcher.submit("b") == "B" and calls == [["a", "boom"], ["b"]]
    batcher.close()


async def test_a_batchs_results_wake_their_callers_one_per_pass_of_the_loop():
    """Each caller woken does its own work on the loop (a reply): woken all at once, that work would run back to
    back before the loop's timers got their turn."""
    from tests.app.test_turns import Passes

    batcher = Batcher(lambda items: [i.upper() for i in items], gather=0.001, max_batch=8)
    passes = Passes()
    woken: list[int] = []

    async def ask(text: str) -> str:
        result = await batcher.submit(text)
        woken.append(passes.count)
        return result

    assert await asyncio.gather(*(ask(t) for t in "abcde")) == list("ABCDE")
    passes.stop()
    assert batcher.batches == 1 and len(set(woken)) == len(woken) == 5
    batcher.close()


async def test_a_long_text_is_read_as_far_as_the_ranking_reads_it(questions):
    """Discord lets a member send 6,000 characters: the gate and the encoder read the 300 the ranking reads, and
    the model does not remember the pieces of a "word" of thousands of letters."""
    from bot.core.question_words import MAX_QUESTION

    long_word = "x" * 5_000
    text = f"{QUESTIONS[1]} {long_word} " + "maquinas " * 100
    answer = await questions.ask(text)
    assert answer is not None and answer.candidates  # still a question about the glossary
    encoded = questions.encoder.texts
    assert encoded and max(map(len, encoded)) <= MAX_QUESTION and encoded[0] == text[:MAX_QUESTION]
    assert (await questions.ask(text[:MAX_QUESTION])).candidates == answer.candidates  # the same question
    assert questions.ask_now(text).candidates == answer.candidates  # (the command line's way in reads as far)
    assert max(map(len, questions.encoder.texts)) <= MAX_QUESTION
    tokenizer = questions.encoder.model._backend.sp
    tokenizer.encode(f"hola {long_word}")
    assert long_word not in tokenizer._words and "hola" in tokenizer._words
