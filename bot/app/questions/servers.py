"""Each server's question index over its own terms, built on its first question (and again when its terms
change) as a job of its own, in a worker thread of its own (many new texts embedded by a child process first,
bot/app/questions/service.py): the questions of servers whose index is ready keep being answered in their batches
meanwhile (bot/app/questions/batcher.py), and only the server whose index is being built waits for it, within its
reply's deadline.

One build at a time, in the order they were asked for; at most `max_waiting` builds queued or running, past which a
server's question is answered by name at once (None). A question whose member stopped waiting leaves its build
running: the server's next question finds the index ready. Of a server's overlays (ServerTerms.prepare), the one
read last wins: asking with it stops a build of an older one between two batches (what that build embedded stays
cached, so the newer one reuses it), an older one's index is never kept, and a question asked with an older
overlay than the one kept or being built is answered by name. A newer overlay whose terms read the same as the
kept index's (its `question_key`: a member forgotten, the published glossary reloaded, the terms read again
unchanged) takes that index over at once, nothing built; read so while their index is built, it joins that build,
which goes on and is kept as the newer overlay's.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from bot.app.questions.cache import BuildStopped
from bot.app.recent import keep_recent
from bot.core.model import Glossary
from bot.core.questions import QuestionIndex

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(eq=False)
class BuildJob:
    """A server's index to build, as `build(job)` is handed it: the terms (`glossary`), `between_batches` to call
    before each batch (it raises BuildStopped once the job is told to stop), `stopped` for what runs outside this
    process to stop then, and `in_thread(function, *args)` to run the CPU work in the builds' worker thread."""

    key: tuple[str, int]
    glossary: Glossary
    version: int
    owner: ServerIndexes
    question_key: str = ""  # what the build reads of the terms (Overlay.question_key; "" for none)
    stop: threading.Event = field(default_factory=threading.Event)  # set when a newer overlay of the server asks
    stopped: asyncio.Event = field(default_factory=asyncio.Event)  # …the same, for the event loop
    task: asyncio.Task | None = None
    # The newest overlay of these terms that asked: a newer one that reads them alike (the same `question_key`)
    # joins the build instead of stopping it, and the index is kept as that overlay's (the build reads `glossary`).
    newest: Glossary = field(init=False)
    newest_version: int = field(init=False)

    def __post_init__(self) -> None:
        self.newest, self.newest_version = self.glossary, self.version

    def halt(self) -> None:
        """Tell the build to stop (between two batches; a queued one before it starts)."""
        self.stop.set()
        self.stopped.set()

    def between_batches(self) -> None:
        if self.stop.is_set():
            raise BuildStopped
        self.owner.between_batches()

    async def in_thread(self, function: Callable[..., T], *args) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.owner.executor(), function, *args)


Build = Callable[[BuildJob], Awaitable[QuestionIndex]]


@dataclass(frozen=True, slots=True)
class _Kept:
    glossary: Glossary
    version: int
    index: QuestionIndex


class ServerIndexes:
    """`await index(overlay)`: the question index of a server's own terms, built by `await build(job)` (its CPU
    work in a worker thread of its own, `BuildJob.in_thread`); None when it cannot be had for this question."""

    def __init__(
        self,
        build: Build,
        between_batches: Callable[[], None],
        *,
        kept: int = 256,
        max_waiting: int = 64,
        name: str = "server-index",
    ) -> None:
        self.build, self.between_batches, self.max_kept, self.max_waiting = build, between_batches, kept, max_waiting
        self.name = name
        self._kept: OrderedDict[tuple[str, int], _Kept] = OrderedDict()
        self._jobs: dict[tuple[str, int], BuildJob] = {}  # builds queued or running, by server
        self._running: BuildJob | None = None  # the build that has its turn (one at a time), told to stop or not
        self._turn = asyncio.Lock()  # one build at a time, in the order they were asked for (a fair lock)
        self._executor: ThreadPoolExecutor | None = None
        self.built = 0  # indexes built so far, for logs and tests
        self.rebound = 0  # indexes taken over by a newer overlay of the same terms (nothing built), for tests
        self.joined = 0  # builds a newer overlay of the same terms joined instead of building again, for tests
        self.refused = 0  # questions answered by name because too many builds were waiting
        self.stops_awaited = 0  # builds told to stop whose end a caller waited for (`until_stopped`), for tests

    def executor(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix=f"glosario-{self.name}")
        return self._executor

    def ready(self, overlay) -> QuestionIndex | None:
        """The index of `overlay`'s terms if it is built (no waiting: for the event loop)."""
        kept = self._kept.get(_key(overlay))
        if kept is None or kept.glossary is not overlay.glossary:
            return None
        self._kept.move_to_end(_key(overlay))
        return kept.index

    def kept(self, overlay) -> QuestionIndex | None:
        """The index of `overlay`'s terms if it is built (or one of the same terms is), read from any thread (the
        least recently used order is left alone, and nothing is kept)."""
        kept = self._kept.get(_key(overlay))
        if kept is None:
            return None
        if kept.glossary is overlay.glossary:
            return kept.index
        return kept.index.rebound(overlay.glossary) if _same_terms(kept.index, overlay) else None

    async def index(self, overlay) -> QuestionIndex | None:
        """The index of `overlay`'s terms: at once when built (or one of the same terms is: taken over), else once
        its build (started now, or joined) has run. None when too many builds are waiting, when `overlay` is older
        than the server's overlay kept or being built, or when its build stopped or failed: the caller answers by
        name. Cancelled, the build goes on."""
        found = self.ready(overlay)
        if found is not None:
            return found
        key, version = _key(overlay), _version(overlay)
        kept = self._kept.get(key)
        if kept is not None and kept.version > version:
            return None  # (a reply that began before the server's terms changed)
        job = self._jobs.get(key)
        if job is not None and overlay.glossary is not job.glossary and overlay.glossary is not job.newest:
            if job.newest_version > version:
                return None
            if _same_key(job.question_key, overlay):
                log.info("%s: the terms of %s were read again, unchanged, while their index was built", self.name, key)
                self.joined += 1
                job.newest, job.newest_version = overlay.glossary, version
            else:
                log.info(
                    "%s: the terms of %s changed while their index was built: building the newer ones", self.name, key
                )
                job.halt()  # (its entry is replaced below; what it embedded stays cached)
                del self._jobs[key]
                job = None
        if job is None:
            if kept is not None and _same_terms(kept.index, overlay):
                return self._keep(key, overlay.glossary, version, kept.index.rebound(overlay.glossary), rebound=True)
            if len(self._jobs) >= self.max_waiting:
                self.refused += 1
                log.info("%s: %d builds waiting already, a question answered by name", self.name, len(self._jobs))
                return None
            question_key = getattr(overlay, "question_key", "")
            job = self._jobs[key] = BuildJob(key, overlay.glossary, version, self, question_key)
            job.task = asyncio.get_running_loop().create_task(self._run(job), name=f"glosario-{self.name}")
        index = await asyncio.shield(job.task)
        if index is None or index.glossary is overlay.glossary:
            return index
        return index.rebound(overlay.glossary) if _same_terms(index, overlay) else None

    def _keep(
        self, key: tuple[str, int], glossary: Glossary, version: int, index: QuestionIndex, *, rebound: bool = False
    ) -> QuestionIndex:
        if rebound:
            self.rebound += 1
        else:
            self.built += 1
        keep_recent(self._kept, key, _Kept(glossary, version, index), self.max_kept)
        return index

    async def _run(self, job: BuildJob) -> QuestionIndex | None:
        """The job's build, in its turn; kept unless a newer overlay of the server asked meanwhile."""
        try:
            async with self._turn:
                self._running = job
                try:
                    job.between_batches()  # (superseded or stopping while it waited its turn: nothing to do)
                    index = await self.build(job)
                finally:
                    self._running = None
        except BuildStopped:
            log.info("%s: the build for %s stopped when asked", self.name, job.key)
            return None
        except Exception:  # (its waiting questions are answered by name; the next question builds again)
            log.exception("%s: building the question index of %s failed", self.name, job.key)
            return None
        finally:
            if self._jobs.get(job.key) is job:
                del self._jobs[job.key]
        if job.stop.is_set():  # (its own questions read it, but it is kept nowhere)
            self.built += 1
            return index
        if job.newest is not job.glossary and index.key == job.question_key:
            self._keep(job.key, job.newest, job.newest_version, index.rebound(job.newest))
        else:  # (none joined, or a reload meanwhile changed what the build read: kept as its own overlay's)
            self._keep(job.key, job.glossary, job.version, index)
        return index

    def forget(self, guild_id: int) -> None:
        """Drop a server's index (a server forgotten): kept or being built (the build stops between two batches,
        and what it built is kept nowhere; `until_stopped` waits for it to end)."""
        key = ("guild", guild_id)
        self._kept.pop(key, None)
        job = self._jobs.get(key)
        if job is not None:
            job.halt()

    async def until_stopped(self, within: float) -> bool:
        """Wait, at most `within` seconds, for the running build to end if it was told to stop: as it stops it saves
        what it embedded so far (its child process too), which must land before the caller rewrites the vector file.
        A build told to stop while queued writes nothing. Whether no build told to stop is running any more."""
        job = self._running
        if job is None or job.task is None or not job.stop.is_set():
            return True
        self.stops_awaited += 1
        done, _ = await asyncio.wait({job.task}, timeout=within)
        return bool(done)

    def close(self) -> None:
        """Stop every build between two batches (those queued stop before they start); their questions get None."""
        for job in self._jobs.values():
            job.halt()
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None


def _same_terms(index: QuestionIndex, overlay) -> bool:
    """Whether `overlay`'s terms read as those `index` was built from (the same `question_key`)."""
    return _same_key(index.key, overlay)


def _same_key(question_key: str, overlay) -> bool:
    key = getattr(overlay, "question_key", "")
    return bool(key) and question_key == key


def _key(overlay) -> tuple[str, int]:
    """A server's overlay (ServerTerms.prepare) by its server; any other by its glossary."""
    guild = getattr(overlay, "guild_id", 0)
    return ("guild", guild) if guild else ("glossary", id(overlay.glossary))


def _version(overlay) -> int:
    return getattr(overlay, "version", 0)
