"""Ask in your own words: the application's action over the question path (bot/core/questions.py).

    answer = await app.questions.ask("¿cómo se llama lo de Uber para entrenar con MPI?", overlay)
    answer.verdict            # Verdict.CONFIDENT | UNSURE | NOTHING
    answer.term               # the term said with confidence (CONFIDENT only)
    answer.candidates         # up to 3 Candidate(term, score, …), best first

From /termino, after the name matcher: `should_ask(result, query)` says whether to ask at all, and
`combine(result, answer)` weighs both (a misspelt name is never answered worse than by the name matcher alone).

Indexes are built off the event loop (the published glossary's once per catalog, a server's on first use), the
terms' vectors read from the cache folder when their text is unchanged. The name path never waits for any of it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from pathlib import Path

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.sentence_model import Encoder, SentenceModel, VectorCache
from bot.core.model import Glossary
from bot.core.questions import (
    Answer,
    QuestionIndex,
    Verdict,
    ask,
    combine,
    embedding_text,
    read_question,
    related_names,
    should_ask,
)
from bot.core.search import LookupResult

log = logging.getLogger(__name__)

__all__ = ["Answer", "Questions", "Verdict", "combine", "should_ask"]


class Questions:
    MAX_SERVER_INDEXES = 256  # servers whose question index stays in memory (the least recently used are dropped)

    def __init__(self, catalog: CatalogHolder, cache_dir: Path | None, encoder: Encoder | None = None) -> None:
        self.catalog = catalog
        self.encoder: Encoder = encoder if encoder is not None else SentenceModel(cache_dir)
        self._published_cache = VectorCache(cache_dir, self.encoder.name, "published")
        self._server_cache = VectorCache(cache_dir, self.encoder.name, "servers")
        self._published: tuple[Catalog, QuestionIndex] | None = None
        self._servers: OrderedDict[int, tuple[Glossary, QuestionIndex]] = OrderedDict()
        self._building = threading.Lock()

    # -- building -----------------------------------------------------------------------------------------
    async def prepare(self) -> None:
        """Build the published glossary's question index now, off the event loop (else the first question
        does), then load the model in the same worker so that the first question does not wait for it."""
        await asyncio.to_thread(self._published_index)
        load = getattr(self.encoder, "load", None)
        if load is not None:
            await asyncio.to_thread(load)

    def _published_index(self) -> QuestionIndex:
        catalog = self.catalog.current
        found = self._published
        if found is not None and found[0] is catalog:
            return found[1]
        with self._building:
            found = self._published
            if found is None or found[0] is not catalog:
                glossary = catalog.glossary
                texts = [embedding_text(t, related_names(t, glossary)) for t in glossary]
                vectors = self._published_cache.vectors(texts, self.encoder)
                found = self._published = (catalog, QuestionIndex(glossary, vectors))
                log.info("question index built: %d terms", len(glossary))
            return found[1]

    def _server_index(self, glossary: Glossary) -> QuestionIndex:
        key = id(glossary)
        found = self._servers.get(key)
        if found is not None and found[0] is glossary:
            self._servers.move_to_end(key)
            return found[1]
        published = self.catalog.glossary
        texts = [embedding_text(t, related_names(t, glossary, published)) for t in glossary]
        vectors = self._server_cache.vectors(texts, self.encoder)
        index = QuestionIndex(glossary, vectors, context=published)
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
        vector = self.encoder.encode([text])[0]
        return ask(read_question(text, vector), indexes)

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
