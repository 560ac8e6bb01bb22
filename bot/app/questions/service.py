"""Ask in your own words: the application's action over the question path (bot/core/questions.py).

    answer = await app.questions.ask("¿cómo se llama lo de Uber para entrenar con MPI?", overlay)
    answer.verdict            # Verdict.CONFIDENT | UNSURE | NOTHING
    answer.term               # the term said with confidence (CONFIDENT only)
    answer.candidates         # up to 3 Candidate(term, score, …), best first

From /termino, after the name matcher: `should_ask(result, query)` says whether to ask at all, and
`combine(result, answer)` weighs both (a misspelt name is never answered worse than by the name matcher alone).

`await prepare()` builds the published glossary's index off the event loop: its terms' vectors and BM25 arrays
come from the cache folder when their text is unchanged (a file mapped, no work per term beyond hashing its
text); many new texts are embedded by a child process (bot/app/questions/cache.py), a few in a worker thread, in
batches. `close()` (or cancelling `prepare`) stops a build between two batches. A server's index is built on
its first question. The name path never waits for any of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.questions.cache import (
    STOPPED,
    BuildStopped,
    LexicalCache,
    Lookup,
    VectorCache,
    child_command,
    write_job,
)
from bot.app.questions.sentence_model import Encoder, SentenceModel
from bot.app.questions.word_vectors import WordVectors
from bot.core.model import Glossary
from bot.core.questions import (
    Answer,
    QuestionIndex,
    Verdict,
    ask,
    build_lexical,
    combine,
    embedding_text,
    lexical_fields,
    read_question,
    related_names,
    should_ask,
)
from bot.core.search import LookupResult
from bot.core.word_space import WordSpace, glossary_words, question_words

log = logging.getLogger(__name__)

__all__ = ["Answer", "BuildStopped", "Questions", "Verdict", "combine", "should_ask"]

STOP_GRACE = 2.0  # seconds a stopping child process has to finish its batch before it is killed


@dataclass(frozen=True)
class _Plan:
    """What building a glossary's index needs: per term, the embedded text and the BM25 fields; the glossary's
    words (bot/core/word_space.py), embedded after the terms' texts."""

    catalog: Catalog
    texts: list[str]
    fields: list[tuple[str, str, str, str]]
    words: list[str]

    @property
    def embedded(self) -> list[str]:
        return [*self.texts, *self.words]


class Questions:
    MAX_SERVER_INDEXES = 256  # servers whose question index stays in memory (the least recently used are dropped)
    IN_PROCESS = 64  # at most this many texts to embed are embedded here (a worker thread); more by a child process
    IN_PROCESS_TERMS = 2_000  # the BM25 arrays of a larger glossary are built by the child process too (~1 s, 30 MB)

    def __init__(self, catalog: CatalogHolder, cache_dir: Path | None, encoder: Encoder | None = None) -> None:
        self.catalog = catalog
        self.cache_dir = cache_dir
        self.encoder: Encoder = encoder if encoder is not None else SentenceModel(cache_dir)
        self._published_cache = VectorCache(cache_dir, self.encoder.name, "published")
        self._server_cache = VectorCache(cache_dir, self.encoder.name, "servers")
        self._lexical_cache = LexicalCache(cache_dir, "published")
        self._published: tuple[Catalog, QuestionIndex] | None = None
        self._servers: OrderedDict[int, tuple[Glossary, QuestionIndex]] = OrderedDict()
        self._building = threading.Lock()
        self._stop = threading.Event()
        self._child: asyncio.subprocess.Process | None = None
        self.children = 0  # child processes started, for logs and tests
        self._word_vectors = WordVectors()  # members' words, embedded with their question (bot/core/word_space.py)

    # -- building -----------------------------------------------------------------------------------------
    async def prepare(self) -> bool:
        """Build the published glossary's question index now, off the event loop (else the first question
        does), and load the model, so that the first question waits for neither. Whether it is ready: False when
        the build was asked to stop (`close`: the bot is stopping; what was embedded stays cached). Cancelled, it
        stops the build between two batches and re-raises."""
        try:
            plan = await asyncio.to_thread(self._plan)
            found = await asyncio.to_thread(self._published_cache.lookup, plan.embedded)
            large = len(plan.fields) > self.IN_PROCESS_TERMS
            lexical = large and not await asyncio.to_thread(self._lexical_cache.cached, plan.fields)
            if self._in_child(len(found.missing), lexical):
                await self._embed_in_child(found.missing, plan.fields if lexical else None)
                found = None  # the child rewrote the file
            await asyncio.to_thread(self._published_index, plan, found)
            load = getattr(self.encoder, "load", None)
            if load is not None:  # loaded, and its weights read once: the first question pays for neither
                await asyncio.to_thread(load)
                await asyncio.to_thread(self.encoder.encode, ["glosario"])
        except BuildStopped:
            log.info("the question index build stopped when asked: what was embedded is cached for the next start")
            return False
        except asyncio.CancelledError:
            await self.close()
            raise
        return True

    async def close(self) -> None:
        """Stop any build between two batches (a child process within STOP_GRACE seconds); later builds stop
        at once. What was embedded stays cached."""
        self._stop.set()
        child = self._child
        if child is None or child.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            child.terminate()
        try:
            await asyncio.wait_for(asyncio.shield(child.wait()), STOP_GRACE)
        except TimeoutError:
            log.warning("the embedding process did not stop within %.0f s: killed", STOP_GRACE)
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            await child.wait()
        else:
            log.info("the embedding process stopped (exit %s); what it embedded is cached", child.returncode)

    def _between_batches(self) -> None:
        if self._stop.is_set():
            raise BuildStopped
        time.sleep(0)  # lets the event loop's thread take the interpreter's lock now rather than in 5 ms

    def _in_child(self, missing: int, lexical: bool) -> bool:
        model = self.encoder
        if not isinstance(model, SentenceModel) or model.cache_dir is None or self.cache_dir is None:
            return False
        return missing > self.IN_PROCESS or lexical or not (model.loaded or model.compiled())

    async def _embed_in_child(self, texts: list[str], fields: list | None) -> None:
        """Embed `texts` (and build the BM25 arrays of `fields`) into the cache folder in a child process; on
        failure the worker thread does it."""
        assert isinstance(self.encoder, SentenceModel) and self.cache_dir is not None
        model_dir = Path(self.encoder.cache_dir)
        job = await asyncio.to_thread(write_job, Path(self.cache_dir), model_dir, "published", texts, fields)
        started = time.monotonic()
        try:
            self._child = await asyncio.create_subprocess_exec(
                *child_command(job),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            self.children += 1
            log.info("embedding %d term texts in process %d", len(texts), self._child.pid)
            _, errors = await self._child.communicate()
        finally:
            job.unlink(missing_ok=True)
        code = self._child.returncode
        if code == STOPPED or self._stop.is_set():
            raise BuildStopped
        if code:
            tail = errors.decode("utf-8", "replace")[-2000:]
            log.warning("the embedding process failed (exit %s); embedding here instead:\n%s", code, tail)
            return
        log.info("embedded %d term texts in %.1f s (child process)", len(texts), time.monotonic() - started)

    def _plan(self, catalog: Catalog | None = None) -> _Plan:
        catalog = catalog or self.catalog.current
        glossary = catalog.glossary
        texts, fields = [], []
        for i, term in enumerate(glossary):
            related = related_names(term, glossary)
            texts.append(embedding_text(term, related))
            fields.append(lexical_fields(term, related))
            if i % 64 == 63:
                time.sleep(0)  # (as _between_batches: the event loop's thread takes the lock now)
        return _Plan(catalog, texts, fields, glossary_words(fields))

    def _published_index(self, plan: _Plan | None = None, found: Lookup | None = None) -> QuestionIndex:
        catalog = self.catalog.current
        built = self._published
        if built is not None and built[0] is catalog:
            return built[1]
        with self._building:
            built = self._published
            if built is None or built[0] is not catalog:
                if plan is None or plan.catalog is not catalog:
                    plan, found = self._plan(catalog), None
                built = self._published = (catalog, self._build(plan, found))
                log.info("question index built: %d terms", len(catalog.glossary))
            return built[1]

    def _build(self, plan: _Plan, found: Lookup | None = None) -> QuestionIndex:
        glossary = plan.catalog.glossary
        vectors = self._published_cache.vectors(plan.embedded, self.encoder, self._between_batches, found)
        lexical = self._lexical_cache.get(plan.fields, lambda: build_lexical(plan.fields, self._between_batches))
        mentions = self.catalog.mentions if self.catalog.current is plan.catalog else None
        words = WordSpace.of(plan.words, vectors[len(plan.texts) :])
        return QuestionIndex(glossary, vectors[: len(plan.texts)], lexical=lexical, mentions=mentions, words=words)

    def _server_index(self, glossary: Glossary) -> QuestionIndex:
        key = id(glossary)
        found = self._servers.get(key)
        if found is not None and found[0] is glossary:
            self._servers.move_to_end(key)
            return found[1]
        published = self.catalog.glossary
        texts, fields = [], []
        for term in glossary:
            related = related_names(term, glossary, published)
            texts.append(embedding_text(term, related))
            fields.append(lexical_fields(term, related))
        words = glossary_words(fields)
        vectors = self._server_cache.vectors([*texts, *words], self.encoder, self._between_batches)
        space = WordSpace.of(words, vectors[len(texts) :])
        index = QuestionIndex(glossary, vectors[: len(texts)], context=published, words=space)
        self._servers[key] = (glossary, index)
        while len(self._servers) > self.MAX_SERVER_INDEXES:
            self._servers.popitem(last=False)
        return index

    # -- asking -------------------------------------------------------------------------------------------
    def ask_now(self, text: str, overlay=None) -> Answer:
        """`ask` in the calling thread (for the command line and worker threads; blocks while building)."""
        indexes = [self._published_index()]
        if overlay is not None and len(overlay.glossary):
            indexes.append(self._server_index(overlay.glossary))
        vector, word_vectors = self._word_vectors.encode(self.encoder, text, question_words(text))
        return ask(read_question(text, vector, word_vectors), indexes)

    async def ask(self, text: str, overlay=None) -> Answer:
        """The terms of the published glossary (and of `overlay`, a server's own terms from
        `ServerTerms.prepare(guild_id)`) that best answer `text`, and how certain the best one is."""
        if not text.strip():
            return Answer(Verdict.NOTHING, ())
        return await asyncio.to_thread(self.ask_now, text, overlay)

    async def ask_after_lookup(self, result: LookupResult, text: str, overlay=None) -> Answer | None:
        """For /termino: None when the name matcher's `result` stands alone (a name found, or too few words to
        read as a description); else one answer weighing the name matcher's and the question path's."""
        if not should_ask(result, text):
            return None
        return combine(result, await self.ask(text, overlay))
