"""A server's question index over its own terms is built as a job of its own (bot/app/questions/servers.py): while
it is built, other servers' questions are answered by meaning; one build at a time, a bounded number waiting; when
the server's terms change during a build, the newer terms win and the older index is kept nowhere. Real SQLite
file, the shipped glossary, the real model; a build is held in the encoder, never timed."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.app.community.server_terms import Saved
from bot.app.questions.sentence_model import SentenceModel
from bot.app.questions.service import Questions, Verdict
from bot.core.server_terms import TermFields
from tests.app.test_question_batching import CountingModel
from tests.app.test_server_terms import NEBULA, open_app
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
