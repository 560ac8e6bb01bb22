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
its first question, as a job of its own (bot/app/questions/servers.py; many new texts by a child process too): other
servers' questions are answered meanwhile. The name path never waits for any of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.questions.batcher import Batcher
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
from bot.app.questions.servers import BuildJob, ServerIndexes
from bot.app.questions.vectors import QuestionVectors
from bot.core.model import Glossary
from bot.core.normalize import valid_text
from bot.core.question_gate import Gate, gate
from bot.core.question_texts import embedding_text, index_key, index_texts, lexical_fields, related_names
from bot.core.question_words import MAX_QUESTION
from bot.core.questions import (
    NAME_CLOSE,
    NO_ANSWER,
    Answer,
    QuestionIndex,
    Verdict,
    ask,
    build_lexical,
    combine,
    names_alone,
    read_question,
    should_ask,
)
from bot.core.search import Ambiguous, LookupResult
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
    MAX_SERVER_BUILDS = 64  # servers' indexes waiting to be built at most; one more server's question: by name
    IN_PROCESS = 64  # at most this many texts to embed are embedded here (a worker thread); more by a child process
    IN_PROCESS_TERMS = 2_000  # the BM25 arrays of a larger glossary are built by the child process too (~1 s, 30 MB)
    # Asking (bot/app/questions/batcher.py): the first question waits this long for others to share its batch…
    GATHER_SECONDS = 0.002
    MAX_BATCH = 16  # …of at most this many (the encoder's CPU per question is flat from 16 on)
    MAX_WAITING = 64  # questions queued at most; one more is refused at once and answered by name
    QUESTION_VECTORS = 8192  # vectors kept of questions and their words, by the text as the model reads it (2 KB each)
    FORGET_WAIT = STOP_GRACE + 3.0  # seconds a server's erasure waits for a build of its index to stop at most

    def __init__(self, catalog: CatalogHolder, cache_dir: Path | None, encoder: Encoder | None = None) -> None:
        self.catalog = catalog
        self.cache_dir = cache_dir
        self.encoder: Encoder = encoder if encoder is not None else SentenceModel(cache_dir)
        self._published_cache = VectorCache(cache_dir, self.encoder.name, "published")
        self._server_cache = VectorCache(cache_dir, self.encoder.name, "servers")
        self._lexical_cache = LexicalCache(cache_dir, "published")
        self._published: tuple[Catalog, QuestionIndex] | None = None
        self._servers = ServerIndexes(
            self._build_server, self._between_batches, kept=self.MAX_SERVER_INDEXES, max_waiting=self.MAX_SERVER_BUILDS
        )
        self._building = threading.Lock()
        self._stop = threading.Event()
        self._child: asyncio.subprocess.Process | None = None  # the last child process started
        self._children: set[asyncio.subprocess.Process] = set()  # those running (the published glossary's, a server's)
        self.children = 0  # child processes started, for logs and tests
        self._vectors = QuestionVectors(self.encoder, self.QUESTION_VECTORS)
        self._batcher: Batcher[_Asked, Answer | None] = Batcher(
            self._answer_batch,
            gather=self.GATHER_SECONDS,
            max_batch=self.MAX_BATCH,
            max_waiting=self.MAX_WAITING,
            name="questions",
        )
        self._gate_ready = False  # whether the event loop may read the model's vocabulary (built once, 0.1 s)
        self._rebuilding = 0  # builds under way (`prepare`) for a reloaded glossary: the last index serves meanwhile

    # -- building -----------------------------------------------------------------------------------------
    async def prepare(self) -> bool:
        """Build the published glossary's question index now, off the event loop (else the first question
        does), and load the model, so that the first question waits for neither. Whether it is ready: False when
        the build was asked to stop (`close`: the bot is stopping; what was embedded stays cached). Cancelled, it
        stops the build between two batches and re-raises. After a reload, questions are answered from the last
        glossary's index until this one is built."""
        self._rebuilding += 1
        try:
            plan = await asyncio.to_thread(self._plan)
            found = await asyncio.to_thread(self._published_cache.lookup, plan.embedded)
            large = len(plan.fields) > self.IN_PROCESS_TERMS
            lexical = large and not await asyncio.to_thread(self._lexical_cache.cached, plan.fields)
            if self._in_child(len(found.missing), lexical):
                await self._embed_in_child(found.missing, plan.fields if lexical else None)
                found = None  # the child rewrote the file
            await asyncio.to_thread(self._published_index, plan, found)
            await asyncio.to_thread(self._warm)
        except BuildStopped:
            log.info("the question index build stopped when asked: what was embedded is cached for the next start")
            return False
        except asyncio.CancelledError:
            await self.close()
            raise
        finally:
            self._rebuilding -= 1
        return True

    def _warm(self) -> None:
        """The model loaded, its weights read once and its vocabulary of words built (bot/core/question_gate.py):
        the first question pays for none of it."""
        if getattr(self.encoder, "load", None) is not None:
            self.encoder.encode(["glosario"])
        self._read_vocabulary()

    def _read_vocabulary(self) -> None:
        """The model's vocabulary of words built (0.1 s, once): from now on the event loop may ask it."""
        known_words = getattr(self.encoder, "known_words", None)
        if known_words is not None:
            known_words(["glosario"])
        self._gate_ready = True

    async def close(self) -> None:
        """Stop any build between two batches (a child process within STOP_GRACE seconds); later builds stop
        at once; questions still waiting get no answer (None). What was embedded stays cached."""
        self._stop.set()
        self._batcher.close()
        self._servers.close()
        await asyncio.gather(*(self._stop_child(c) for c in {self._child, *self._children} if c is not None))

    async def _stop_child(self, child: asyncio.subprocess.Process) -> None:
        """Tell a child process to stop (it stops between two batches), killed past STOP_GRACE seconds."""
        if child.returncode is not None:
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

    async def _embed_in_child(
        self, texts: list[str], fields: list | None, scope: str = "published", stopped: asyncio.Event | None = None
    ) -> None:
        """Embed `texts` (and build the BM25 arrays of `fields`) into the cache folder's `scope` files in a child
        process, told to stop when `stopped` is set (or at `close`); on failure the worker thread does it."""
        assert isinstance(self.encoder, SentenceModel) and self.cache_dir is not None
        model_dir = Path(self.encoder.cache_dir)
        started, job = time.monotonic(), None
        try:
            try:
                job = await asyncio.to_thread(write_job, Path(self.cache_dir), model_dir, scope, texts, fields)
                child = self._child = await asyncio.create_subprocess_exec(
                    *child_command(job),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=asyncio.subprocess.PIPE,
                )
            except OSError:  # (a full disk for the job file, no process to be had): the worker thread embeds
                log.warning("could not start the embedding process; embedding here instead", exc_info=True)
                return
            self.children += 1
            self._children.add(child)
            log.info("embedding %d term texts (%s) in process %d", len(texts), scope, child.pid)
            try:  # (not caught above: the child may still be writing)
                errors = await self._until_done(child, stopped)
            finally:
                self._children.discard(child)
        finally:
            if job is not None:
                job.unlink(missing_ok=True)
        code = child.returncode
        if code == STOPPED or self._stop.is_set() or (stopped is not None and stopped.is_set()):
            raise BuildStopped
        if code:
            tail = errors.decode("utf-8", "replace")[-2000:]
            log.warning("the embedding process failed (exit %s); embedding here instead:\n%s", code, tail)
            return
        log.info("embedded %d term texts in %.1f s (child process)", len(texts), time.monotonic() - started)

    async def _until_done(self, child: asyncio.subprocess.Process, stopped: asyncio.Event | None) -> bytes:
        """What the child wrote to stderr once it has ended: stopped (`_stop_child`) if `stopped` is set first."""
        talking = asyncio.ensure_future(child.communicate())
        if stopped is None:
            return (await talking)[1]
        waiting = asyncio.ensure_future(stopped.wait())
        try:
            await asyncio.wait({talking, waiting}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            talking.cancel()
            raise
        finally:
            waiting.cancel()
        if not talking.done():
            await self._stop_child(child)
        return (await talking)[1]

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
        if built is not None and (built[0] is catalog or (plan is None and self._rebuilding)):
            return built[1]  # (a question while `prepare` builds a reloaded glossary's index: the last one answers)
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

    async def _build_server(self, job: BuildJob) -> QuestionIndex:
        """A server's index (`self._servers`: one build at a time), its texts looked up in the servers' vector file
        in the builds' worker thread; many new ones embedded by a child process first, as the published glossary's
        (`prepare`), stopped with the job."""
        plan = await job.in_thread(self._server_plan, job.glossary)
        missing = plan.found.missing if plan.found is not None else []
        if missing and self._in_child(len(missing), False):
            if job.stopped.is_set():  # (halted while its texts were looked up: no child started for nothing)
                raise BuildStopped
            await self._embed_in_child(missing, None, "servers", job.stopped)
            plan = replace(plan, found=None)  # (the child rewrote the file)
        return await job.in_thread(self._server_index, job.glossary, job.between_batches, plan)

    def _server_plan(self, glossary: Glossary) -> _ServerPlan:
        """In a worker thread: what a server's index embeds, where the vector file has it, and what it reads (as
        `Overlay.question_key`)."""
        plan = _ServerPlan.of(glossary, self.catalog.glossary)
        return replace(plan, found=self._server_cache.lookup([*plan.texts, *plan.words]))

    def _server_index(
        self, glossary: Glossary, between_batches: Callable[[], None] | None = None, plan: _ServerPlan | None = None
    ) -> QuestionIndex:
        """In a worker thread: the question index of a server's own terms (kept by `self._servers`)."""
        plan = plan or _ServerPlan.of(glossary, self.catalog.glossary)
        texts, words = plan.texts, plan.words
        between = between_batches or self._between_batches
        vectors = self._server_cache.vectors([*texts, *words], self.encoder, between, plan.found)
        space = WordSpace.of(words, vectors[len(texts) :])
        lexical = build_lexical(plan.fields, between)  # (the fields its key hashed, whatever a reload did meanwhile)
        return QuestionIndex(glossary, vectors[: len(texts)], lexical=lexical, words=space, key=plan.key)

    # -- forgetting ---------------------------------------------------------------------------------------
    async def forget_servers(self, guild_ids: Sequence[int]) -> None:
        """Drop these servers' question indexes from memory (each glossary of their terms asked about, the last one
        and any older one still kept), and stop a build of one in progress, waiting (at most FORGET_WAIT seconds: a
        child process is killed past STOP_GRACE) for it to save what it embedded so far: `keep_server_vectors`,
        called after, then drops that too."""
        for guild_id in guild_ids:
            self._servers.forget(guild_id)
        if not await self._servers.until_stopped(self.FORGET_WAIT):
            log.warning(
                "a forgotten server's question index build did not stop within %.0f s: the vectors it saves later "
                "stay in the cache folder until the next server is forgotten",
                self.FORGET_WAIT,
            )

    def server_texts(self, glossary: Glossary) -> list[str]:
        """What a server's question index embeds (its terms' texts and words): the vectors it reads in the file."""
        texts, fields = index_texts(glossary, self.catalog.glossary)
        return [*texts, *glossary_words(fields)]

    def server_vectors_kept(self) -> bool:
        """Whether the cache folder holds a servers' vector file (of this model)."""
        path = self._server_cache.path
        return path is not None and path.is_file()

    def keep_server_vectors(self, texts: Sequence[str]) -> int:
        """Drop from the servers' vector file every vector but those of `texts` (`server_texts` of the servers
        whose terms remain): how many went. Raises OSError when the file cannot be rewritten."""
        return self._server_cache.keep_only(texts)

    # -- asking -------------------------------------------------------------------------------------------
    def ask_now(self, text: str, overlay=None) -> Answer:
        """`ask` in the calling thread (for the command line and worker threads; blocks while building)."""
        return self._answer_batch([_Asked(text, overlay)])[0] or NO_ANSWER

    async def ask(self, text: str, overlay=None) -> Answer | None:
        """The terms of the published glossary (and of `overlay`, a server's own terms from
        `ServerTerms.prepare(guild_id)`) that best answer `text`, and how certain the best one is. None when
        too many questions are waiting already, or the index of `overlay`'s terms cannot be had for it
        (bot/app/questions/servers.py): the caller answers by name."""
        return await self._ask(_Asked(text, overlay))

    @staticmethod
    def stands_alone(result: LookupResult, text: str) -> bool:
        """For /termino: whether the name matcher's `result` stands alone (a name found, a suggestion close enough
        to be a misspelling of it, a text that does not read as a description), said without awaiting anything, so
        that a caller sets no timer for it."""
        if isinstance(result, Ambiguous) and result.candidates[0].score >= NAME_CLOSE:
            return True  # a misspelt name: answered exactly as the name matcher answers it
        return not should_ask(result, text)

    async def ask_after_lookup(self, result: LookupResult, text: str, overlay=None) -> Answer | None:
        """For /termino: None when the name matcher's `result` stands alone (a name found, a text that does not
        read as a description, too many questions waiting); else one answer weighing both."""
        if not should_ask(result, text):
            return None
        answer = await self._ask(_Asked(text, overlay, description=True))
        if answer is None or names_alone(result, answer):
            return None  # (the name matcher's own reply, its suggestions, exactly as with the path off)
        return combine(result, answer)

    async def _ask(self, asked: _Asked) -> Answer | None:
        if not asked.text.strip():
            return NO_ANSWER
        if _has_terms(asked.overlay):  # (its index built apart, not in the batch: other servers' questions go on)
            server = await self._servers.index(asked.overlay)
            if server is None:
                return None  # (too many servers' indexes waiting to be built, or older terms): answered by name
            asked = replace(asked, server=server)
        indexes = self._built(asked)
        if indexes is not None:  # decided here, without a thread, when the text cannot be a question
            said = self._gate(asked, indexes)
            if said is not Gate.ASK:
                return None if said is Gate.NOT_A_DESCRIPTION else NO_ANSWER
            asked = replace(asked, gated=True)
        return await self._batcher.submit(asked)

    def _built(self, asked: _Asked) -> list[QuestionIndex] | None:
        """The indexes `asked` reads, if they are built already (None: the worker builds the published one)."""
        published = self._published
        if not self._gate_ready or published is None or published[0] is not self.catalog.current:
            return None
        return [published[1]] if asked.server is None else [published[1], asked.server]

    def _indexes(self, asked: _Asked) -> list[QuestionIndex]:
        indexes = [self._published_index()]
        if asked.server is not None:
            indexes.append(asked.server)
        elif _has_terms(asked.overlay):  # (`ask_now`: built here, in the calling thread, and not kept)
            kept = self._servers.kept(asked.overlay)
            indexes.append(kept if kept is not None else self._server_index(asked.overlay.glossary))
        return indexes

    def _gate(self, asked: _Asked, indexes: list[QuestionIndex]) -> Gate:
        """bot/core/question_gate.py, over the indexes' lexical vocabularies and the model's."""

        def glossary_knows(stems) -> bool:
            return any(row >= 0 for index in indexes for row in index.lexical.find(list(stems)))

        model_knows = getattr(self.encoder, "known_words", None)
        return gate(asked.text, glossary_knows, model_knows, description=asked.description)

    def _answer_batch(self, batch: Sequence[_Asked]) -> list[Answer | None]:
        """In a worker thread: each question's answer (None: not read as a description, for /termino), the texts
        that may be questions encoded in one call and each index's cosines with them in one product."""
        answers: list[Answer | None] = [NO_ANSWER] * len(batch)
        asking: list[tuple[int, list[QuestionIndex]]] = []
        for i, asked in enumerate(batch):
            indexes = self._indexes(asked) if asked.text.strip() else []
            said = Gate.ASK if asked.gated else self._gate(asked, indexes) if indexes else Gate.UNKNOWN
            if said is Gate.ASK:
                asking.append((i, indexes))
            elif said is Gate.NOT_A_DESCRIPTION:
                answers[i] = None
        if not self._gate_ready:
            self._read_vocabulary()
        texts = [batch[i].text for i, _ in asking]
        words = [question_words(text) for text in texts]  # (bot/core/word_space.py: read in the same encoder call)
        encoded = self._vectors.vectors([*texts, *(w for said in words for w in said)])
        vectors, rest = encoded[: len(texts)], iter(encoded[len(texts) :])
        cosines = _cosines([indexes for _, indexes in asking], vectors)
        for (i, indexes), vector, said, dense in zip(asking, vectors, words, cosines, strict=True):
            word_vectors = np.stack([next(rest) for _ in said]) if said else np.zeros((0, len(vector)), np.float32)
            answers[i] = ask(read_question(batch[i].text, vector, word_vectors), indexes, dense)
            time.sleep(0)  # (as _between_batches: the event loop's thread takes the lock now, between two questions)
        return answers


@dataclass(frozen=True)
class _ServerPlan:
    """What building a server's index needs: its terms' embedded texts, BM25 fields and their words, the hash of all
    of it (bot/core/question_texts.py), and where the servers' vector file has them (None: looked up when built)."""

    texts: list[str]
    fields: list[tuple[str, ...]]
    words: list[str]
    key: str
    found: Lookup | None = None

    @staticmethod
    def of(glossary: Glossary, published: Glossary) -> _ServerPlan:
        """The plan of a server's terms, their related ids resolved in them, then in the published glossary."""
        texts, fields = index_texts(glossary, published)
        return _ServerPlan(texts, fields, glossary_words(fields), index_key(glossary, texts, fields))


@dataclass(frozen=True, slots=True)
class _Asked:
    text: str
    overlay: object | None = None  # a server's own terms (ServerTerms.prepare), read beside the published ones
    description: bool = False  # /termino: the text has to read as a description (bot/core/question_gate.py)
    gated: bool = False  # the gate said ASK already (on the event loop)
    server: QuestionIndex | None = None  # the index of `overlay`'s terms, built already (bot/app/questions/servers.py)

    def __post_init__(self) -> None:
        # What the ranking reads: the gate and the encoder read no more; a lone surrogate (a command line's
        # undecodable byte) repaired, which the model's tokenizer cannot encode.
        text = valid_text(self.text[:MAX_QUESTION])
        if text is not self.text:
            object.__setattr__(self, "text", text)


def _has_terms(overlay) -> bool:
    return overlay is not None and len(overlay.glossary) > 0


def _cosines(asking: Sequence[list[QuestionIndex]], vectors: Sequence[np.ndarray]) -> list[list[np.ndarray | None]]:
    """For each question, its cosine with every term of each of its indexes: one product per index for all the
    questions that read it (the terms' vectors are read once, not once per question)."""
    rows: dict[int, list[int]] = {}
    by_id: dict[int, QuestionIndex] = {}
    for q, indexes in enumerate(asking):
        for index in indexes:
            rows.setdefault(id(index), []).append(q)
            by_id[id(index)] = index
    products = {key: by_id[key].cosines(np.stack([vectors[q] for q in qs])) for key, qs in rows.items()}
    where = {(key, q): r for key, qs in rows.items() for r, q in enumerate(qs)}
    return [
        [None if products[id(index)] is None else products[id(index)][where[id(index), q]] for index in indexes]
        for q, indexes in enumerate(asking)
    ]
