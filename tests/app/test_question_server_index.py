"""A server's question index over its own terms is built as a job of its own (bot/app/questions/servers.py): while
it is built, other servers' questions are answered by meaning; one build at a time, a bounded number waiting; when
the server's terms change during a build, the newer terms win and the older index is kept nowhere. Real SQLite
file, the shipped glossary, the real model; a build is held in the encoder, never timed."""

from __future__ import annotations

import asyncio
import sys
import threading
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from bot.app.catalog import Catalog
from bot.app.community.server_terms import Saved
from bot.app.questions import service as service_module
from bot.app.questions.cache import STOPPED, BuildStopped
from bot.app.questions.sentence_model import SentenceModel
from bot.app.questions.servers import BuildJob
from bot.app.questions.service import Questions, Verdict
from bot.core.model import Glossary
from bot.core.question_texts import index_texts
from bot.core.questions import text_key
from bot.core.search import SearchIndex
from bot.core.server_terms import TermFields
from tests.app.test_question_batching import CountingModel
from tests.app.test_question_cache import sigterm_caught
from tests.app.test_server_terms import NEBULA, NOW, open_app
from tests.helpers import eventually

GUILD, OTHER, THIRD = 7, 8, 9
ORION = TermFields(
    term="Granja Orion",
    definition="La granja de servidores de CPU del laboratorio donde se preprocesan los conjuntos de datos cada noche.",
    aliases="orion",
)
ORION_EDITED = TermFields(
    term="Granja Orion",
    definition="El almacén de cintas del laboratorio donde se archivan las copias de seguridad de los modelos viejos.",
    aliases="orion",
)
VEGA = TermFields(
    term="Cola Vega",
    definition="La cola de trabajos del equipo que reparte los experimentos entre las máquinas libres por turnos.",
    aliases="vega",
)
ABOUT_NEBULA = "las gpus a100 del equipo para lanzar entrenamientos distribuidos"
ABOUT_ORION = "los servidores de cpu del laboratorio donde preprocesamos los datos por la noche"
ABOUT_ORION_EDITED = "donde se archivan en cinta las copias de seguridad de los modelos antiguos"
ABOUT_HOROVOD = "framework de uber para entrenar con mpi"


class HeldFor(CountingModel):
    """The real model, holding any call that embeds a text naming `marker` (a server's terms being indexed: the
    questions never name it) until `release` is set."""

    def __init__(self, model, marker: str) -> None:
        super().__init__(model)
        self.marker = marker
        self.held, self.release = threading.Event(), threading.Event()

    def encode(self, texts):
        if any(self.marker in text.casefold() for text in texts):
            self.held.set()
            assert self.release.wait(10)
        return super().encode(texts)


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> SentenceModel:
    found = SentenceModel(tmp_path_factory.mktemp("model"))
    found.load()
    return found


@pytest.fixture
async def app(tmp_path):
    application = await open_app(tmp_path)
    yield application
    await application.close()


async def questions_on(app, model, tmp_path, marker: str, kind: type[Questions] = Questions):
    encoder = HeldFor(model, marker)
    questions = kind(app.catalog, tmp_path / "cache", encoder)
    assert await questions.prepare()
    return questions, encoder


async def define(app, guild_id: int, fields: TermFields, previous_id: str | None = None):
    saved = await app.server_terms.save(guild_id, 42, fields, previous_id=previous_id)
    assert isinstance(saved, Saved)
    return saved.term, await app.server_terms.prepare(guild_id)


def top(answer) -> str:
    return answer.candidates[0].term.term


async def test_other_servers_questions_are_answered_by_meaning_while_a_servers_index_is_built(app, model, tmp_path):
    _, nebula = await define(app, GUILD, NEBULA)
    _, orion = await define(app, OTHER, ORION)
    questions, encoder = await questions_on(app, model, tmp_path, "orion")
    try:
        assert top(await questions.ask(ABOUT_NEBULA, nebula)) == "Clúster Nebula"  # (its index: built, kept)
        building = asyncio.create_task(questions.ask(ABOUT_ORION, orion))  # that server's first question
        assert await asyncio.to_thread(encoder.held.wait, 10)  # its index being built, held in the encoder
        here = await questions.ask(ABOUT_NEBULA, nebula)  # another server: by meaning, not by name (None)
        assert here is not None and top(here) == "Clúster Nebula"
        published = await questions.ask(ABOUT_HOROVOD)  # a server without terms of its own
        assert published.verdict is Verdict.CONFIDENT and published.term.id == "horovod"
        assert not building.done()  # (still waiting for its index)
    finally:
        encoder.release.set()
    there = await building
    assert there is not None and top(there) == "Granja Orion"
    assert top(await questions.ask(ABOUT_ORION, orion)) == "Granja Orion"
    assert questions._servers.built == 2  # (each server's index once)
    await questions.close()


async def test_terms_changed_during_their_build_win_and_the_older_index_is_kept_nowhere(app, model, tmp_path):
    term, older = await define(app, OTHER, ORION)
    questions, encoder = await questions_on(app, model, tmp_path, "orion")
    try:
        first = asyncio.create_task(questions.ask(ABOUT_ORION, older))
        assert await asyncio.to_thread(encoder.held.wait, 10)  # the older terms' index being built, held
        _, newer = await define(app, OTHER, ORION_EDITED, previous_id=term.id)  # an editor changes the term
        assert newer.version > older.version
        second = asyncio.create_task(questions.ask(ABOUT_ORION_EDITED, newer))
        await eventually(lambda: questions._servers._jobs[("guild", OTHER)].glossary is newer.glossary)
    finally:
        encoder.release.set()
    answer = await second
    assert answer is not None and answer.candidates[0].term.definition == ORION_EDITED.definition
    await first  # (the older build stopped, or its index read by its own question only)
    kept = questions._servers._kept
    assert list(kept) == [("guild", OTHER)] and kept["guild", OTHER].glossary is newer.glossary
    built = len(encoder.calls)
    assert await questions.ask(ABOUT_ORION, older) is None  # a reply begun with the older terms: by name…
    assert len(encoder.calls) == built  # …and nothing built for them again
    assert (await questions.ask(ABOUT_ORION_EDITED, newer)).candidates[0].term.definition == ORION_EDITED.definition
    await questions.close()


async def test_terms_read_again_unchanged_during_their_build_join_it(app, model, tmp_path):
    """The server's terms read again while their index is built (a member forgotten, the terms dropped from memory),
    the same texts in a new overlay: its question waits for that build, which goes on and is kept as the newer
    overlay's; nothing is stopped or built twice."""
    term, older = await define(app, OTHER, ORION)
    questions, encoder = await questions_on(app, model, tmp_path, "orion")
    try:
        first = asyncio.create_task(questions.ask(ABOUT_ORION, older))
        assert await asyncio.to_thread(encoder.held.wait, 10)  # its index being built, held
        app.server_terms.forget_cached(OTHER)
        newer = await app.server_terms.prepare(OTHER)
        assert newer.glossary is not older.glossary and newer.version > older.version
        assert newer.question_key == older.question_key
        job = questions._servers._jobs["guild", OTHER]
        second = asyncio.create_task(questions.ask(ABOUT_ORION, newer))
        await eventually(lambda: job.stop.is_set() or questions._servers.joined == 1)
        assert not job.stop.is_set() and questions._servers._jobs["guild", OTHER] is job  # joined, not restarted
    finally:
        encoder.release.set()
    assert (await first).candidates[0].term is older.glossary.get(term.id)
    assert (await second).candidates[0].term is newer.glossary.get(term.id)
    assert questions._servers.built == 1
    kept = questions._servers._kept
    assert kept["guild", OTHER].glossary is newer.glossary and kept["guild", OTHER].version == newer.version
    built = questions._servers.built
    assert (await questions.ask(ABOUT_ORION, newer)).candidates[0].term is newer.glossary.get(term.id)
    assert questions._servers.built == built  # (answered from the kept index)
    await questions.close()


async def test_servers_first_questions_at_once_build_one_index_at_a_time_and_a_bounded_number_wait(
    app, model, tmp_path
):
    class Few(Questions):
        MAX_SERVER_BUILDS = 2

    _, orion = await define(app, OTHER, ORION)
    _, nebula = await define(app, GUILD, NEBULA)
    _, vega = await define(app, THIRD, VEGA)
    questions, encoder = await questions_on(app, model, tmp_path, "orion", Few)
    try:
        first = asyncio.create_task(questions.ask(ABOUT_ORION, orion))
        assert await asyncio.to_thread(encoder.held.wait, 10)
        second = asyncio.create_task(questions.ask(ABOUT_NEBULA, nebula))
        await eventually(lambda: len(questions._servers._jobs) == 2)
        assert await questions.ask("la cola que reparte los experimentos por turnos", vega) is None  # by name, at once
        assert questions._servers.refused == 1
        assert not any("nebula" in text.casefold() for text in encoder.texts)  # one build at a time: it waits
    finally:
        encoder.release.set()
    assert top(await first) == "Granja Orion" and top(await second) == "Clúster Nebula"
    assert top(await questions.ask("la cola que reparte los experimentos por turnos", vega)) == "Cola Vega"
    await questions.close()


async def test_a_server_read_again_with_the_same_terms_keeps_its_index_and_an_edited_term_builds_it_again(
    app, model, tmp_path
):
    """A member forgotten re-reads every server's terms (their authors anonymised) and a reload re-reads them against
    the new glossary: the same texts, a new Glossary object. The index built for the first is taken over, nothing
    embedded or built again; a term whose text changed builds it again."""
    term, before = await define(app, GUILD, NEBULA)  # (related to Horovod: a name the published glossary gives)
    questions, encoder = await questions_on(app, model, tmp_path, "nebula")
    encoder.release.set()
    assert top(await questions.ask(ABOUT_NEBULA, before)) == "Clúster Nebula"
    assert questions._servers.built == 1

    await app.erasure.forget_member(42)  # the editor who defined it (ServerTerms.forget_cached: every server)
    forgotten = await app.server_terms.prepare(GUILD)
    assert forgotten.glossary is not before.glossary and forgotten.authors[term.id].anonymous
    assert forgotten.question_key == before.question_key
    embedded = len(encoder.calls)
    answer = await questions.ask(ABOUT_NEBULA, forgotten)
    assert answer.candidates[0].term is forgotten.glossary.get(term.id)  # the new overlay's term, by meaning
    assert questions._servers.built == 1 and questions._servers.rebound == 1
    assert not any("nebula" in text.casefold() for call in encoder.calls[embedded:] for text in call)

    await app.glossary.reload()  # the same files: a new catalog, the server's terms read again against it
    reloaded = await app.server_terms.prepare(GUILD)
    assert reloaded.glossary is not forgotten.glossary
    assert top(await questions.ask(ABOUT_NEBULA, reloaded)) == "Clúster Nebula"
    assert questions._servers.built == 1 and questions._servers.rebound == 2

    edited = replace(NEBULA, definition=ORION_EDITED.definition)
    _, changed = await define(app, GUILD, edited, previous_id=term.id)
    assert changed.question_key != reloaded.question_key
    answer = await questions.ask(ABOUT_ORION_EDITED, changed)
    assert answer.candidates[0].term.definition == ORION_EDITED.definition
    assert questions._servers.built == 2
    assert await questions.ask(ABOUT_NEBULA, reloaded) is None  # (an older overlay: by name, nothing taken over)
    await questions.close()


async def test_a_reload_that_renames_a_related_published_term_builds_the_servers_index_again(app, model, tmp_path):
    """What the index reads of a server's terms includes the published names they relate to."""
    _, before = await define(app, GUILD, NEBULA)
    questions, encoder = await questions_on(app, model, tmp_path, "nebula")
    encoder.release.set()
    assert top(await questions.ask(ABOUT_NEBULA, before)) == "Clúster Nebula"
    published = app.catalog.glossary
    renamed = tuple(
        replace(t, term="Horovod de Uber", aliases=(*t.aliases, "Horovod")) if t.id == "horovod" else t
        for t in published
    )
    glossary = Glossary(published.title, published.subtitle, published.language, renamed)
    app.catalog.current = Catalog(glossary, SearchIndex(glossary), "renamed")
    after = await app.server_terms.prepare(GUILD)
    assert "Relacionado: Horovod de Uber" in index_texts(after.glossary, glossary)[0][0]
    assert after.question_key != before.question_key
    assert top(await questions.ask(ABOUT_NEBULA, after)) == "Clúster Nebula"
    assert questions._servers.built == 2 and questions._servers.rebound == 0
    await questions.close()


async def save_nodes(app, count: int) -> None:
    """`count` terms of the other server ("Nodo 0"…), stored directly (minutes of typing in Discord)."""
    at = NOW.isoformat(timespec="seconds")
    for i in range(count):
        fields = TermFields(term=f"Nodo {i}", definition=f"El nodo número {i} del clúster de preprocesado del equipo.")
        await app.server_terms.store.save(OTHER, f"nodo-{i}", fields.to_dict(), 42, at, previous_id=None)


async def test_a_servers_many_new_texts_are_embedded_by_the_child_process_as_this_process_embeds_them(
    app, model, tmp_path
):
    _, overlay = await define(app, OTHER, ORION)
    _, overlay = await define(app, OTHER, VEGA)
    questions = Questions(app.catalog, tmp_path / "cache", model)  # (the real model, compiled in its folder)
    assert await questions.prepare()
    children = questions.children
    questions.IN_PROCESS = 2  # (the server's two texts and their words: more than that)
    answer = await questions.ask(ABOUT_ORION, overlay)
    assert answer is not None and top(answer) == "Granja Orion"
    assert questions.children == children + 1 and questions._server_cache.encoded == 0  # none embedded here
    index = questions._servers.ready(overlay)
    texts = questions.server_texts(overlay.glossary)
    assert len(texts) > questions.IN_PROCESS
    assert np.allclose(index.vectors, model.encode(texts[: len(index.vectors)]), atol=1e-3)
    assert not list((tmp_path / "cache").glob(".embed-job-*"))  # the job file is gone
    await questions.close()


async def test_a_server_forgotten_while_the_child_process_embeds_its_terms_stops_it(app, model, tmp_path, monkeypatch):
    monkeypatch.setattr(service_module, "STOP_GRACE", 60.0)  # (a busy machine's batch may outlast the 2 s: not killed)
    await save_nodes(app, 120)
    overlay = await app.server_terms.prepare(OTHER)
    questions = Questions(app.catalog, tmp_path / "cache", model)
    questions.FORGET_WAIT = 90.0
    assert await questions.prepare()
    children = questions.children
    questions.IN_PROCESS = 2
    asking = asyncio.create_task(questions.ask("el nodo del clúster donde se preprocesan los datos", overlay))
    await eventually(
        lambda: questions.children > children and sigterm_caught(questions._child.pid), timeout=30
    )  # (the server's terms being embedded by the child)
    await questions.forget_servers([OTHER])
    assert await asking is None  # (answered by name)
    assert questions._child.returncode == STOPPED  # it stopped itself between two batches, not killed
    assert not questions._servers._kept and not questions._servers._jobs
    await questions.close()


def file_keys(questions: Questions) -> set[bytes]:
    """The text hashes the servers' vector file holds."""
    return set(np.load(questions._server_cache.path)["key"].tolist())


def keys_of(questions: Questions, overlay) -> set[bytes]:
    return {text_key(text, questions.encoder.name).encode("ascii") for text in questions.server_texts(overlay.glossary)}


async def forget_while_held(app, questions: Questions, guild_id: int, release, *, until_rewritten: bool) -> None:
    """Forget `guild_id` as the bot does once its grace period is over, while its index's build is held; `release()`
    the build once the erasure waits for it to stop, or has begun (`until_rewritten`: has ended) keeping the vector
    file to the other servers' texts; then wait for the erasure to end."""
    app.questions = questions  # (the erasure's question path)
    begun, rewritten = threading.Event(), threading.Event()
    keep = questions.keep_server_vectors

    def keep_server_vectors(texts):
        begun.set()
        try:
            return keep(texts)
        finally:
            rewritten.set()

    questions.keep_server_vectors = keep_server_vectors
    await app.erasure.left(guild_id)
    app.erasure.clock = lambda: NOW + timedelta(days=31)
    erasing = asyncio.create_task(app.erasure.forget_departed(lambda _: True, lambda g: g != guild_id))
    try:
        kept = rewritten if until_rewritten else begun
        await eventually(lambda: questions._servers.stops_awaited or kept.is_set(), timeout=30)
    finally:
        release()
    assert await erasing == [guild_id]


async def test_a_server_forgotten_while_its_index_is_built_leaves_no_vector_of_its_terms_in_the_file(
    app, model, tmp_path
):
    _, stays = await define(app, GUILD, ORION)
    await define(app, OTHER, ORION)  # (the same term in both: its texts' vectors are the other server's too)
    _, gone = await define(app, OTHER, VEGA)
    questions, encoder = await questions_on(app, model, tmp_path, "vega")
    assert top(await questions.ask(ABOUT_ORION, stays)) == "Granja Orion"  # its vectors in the file
    asking = asyncio.create_task(questions.ask("la cola de experimentos del equipo", gone))
    assert await asyncio.to_thread(encoder.held.wait, 10)  # the forgotten server's index being built, held
    # (Here the erasure's rewrite would wait for the build anyway: the build holds the vector cache's lock.)
    await forget_while_held(app, questions, OTHER, encoder.release.set, until_rewritten=False)
    await asking  # (by name, or by the index its build had finished: kept nowhere)
    only_gone = keys_of(questions, gone) - keys_of(questions, stays)
    assert only_gone and any("vega" in text.casefold() for text in encoder.texts)  # (embedded, then dropped)
    assert not only_gone & file_keys(questions)
    assert keys_of(questions, stays) <= file_keys(questions)  # the shared term's vectors stay
    assert list(questions._servers._kept) == [("guild", GUILD)]
    await questions.close()


# The embedding child process, holding after its first batch (it touches HELD/embedded) until HELD/release exists.
HELD_CHILD = """
import sys, time
from pathlib import Path
import bot.app.questions.cache as cache
from bot.app.questions.sentence_model import SentenceModel

held, encode = Path(sys.argv[2]), SentenceModel.encode

def holding(self, texts):
    vectors = encode(self, texts)
    (held / "embedded").touch()
    for _ in range(3000):
        if (held / "release").exists():
            break
        time.sleep(0.01)
    return vectors

SentenceModel.encode = holding
sys.exit(cache.main(sys.argv[1:2]))
"""


async def test_a_server_forgotten_while_the_child_process_embeds_its_terms_leaves_none_of_them_in_the_file(
    app, model, tmp_path, monkeypatch
):
    await save_nodes(app, 40)
    _, gone = await define(app, OTHER, ORION)
    _, stays = await define(app, GUILD, ORION)
    questions = Questions(app.catalog, tmp_path / "cache", model)
    assert await questions.prepare()
    assert top(await questions.ask(ABOUT_ORION, stays)) == "Granja Orion"  # (embedded here: its vectors in the file)
    held = tmp_path / "held"
    held.mkdir()
    monkeypatch.setattr(service_module, "child_command", lambda job: [sys.executable, "-c", HELD_CHILD, job, held])
    # (a busy machine's child may take more than the 2 s grace to finish its batch once released: it is the save
    # that comes after the stop that this test is about, so the child is given all the time it needs, not killed)
    monkeypatch.setattr(service_module, "STOP_GRACE", 60.0)
    questions.FORGET_WAIT = 90.0
    children = questions.children
    questions.IN_PROCESS = 2
    asking = asyncio.create_task(questions.ask("el nodo del clúster donde se preprocesan los datos", gone))
    await eventually(lambda: (held / "embedded").exists(), timeout=60)  # its first batch embedded, not yet saved
    assert questions.children == children + 1
    await forget_while_held(app, questions, OTHER, (held / "release").touch, until_rewritten=True)
    assert await asking is None
    assert questions._child.returncode == STOPPED  # (it saved what it had embedded as it stopped, then the erasure)
    only_gone = keys_of(questions, gone) - keys_of(questions, stays)
    assert only_gone and not only_gone & file_keys(questions)
    assert keys_of(questions, stays) <= file_keys(questions)
    await questions.close()


async def test_a_build_halted_before_its_texts_go_to_the_child_process_starts_none(app, model, tmp_path):
    """A build told to stop while its texts were looked up (a newer read of the terms, the server forgotten) stops
    there: no child process is started to load the model and be stopped at once."""
    await save_nodes(app, 10)
    overlay = await app.server_terms.prepare(OTHER)
    questions = Questions(app.catalog, tmp_path / "cache", model)
    assert await questions.prepare()
    questions.IN_PROCESS = 2
    children = questions.children
    job = BuildJob(("guild", OTHER), overlay.glossary, overlay.version, questions._servers)
    job.halt()
    with pytest.raises(BuildStopped):
        await questions._build_server(job)
    assert questions.children == children
    await questions.close()
