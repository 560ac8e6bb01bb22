"""Asking in one's own words, end to end: the three answers in /termino and /glosario pregunta, *No era esto*, a
server's own term found by meaning in that server only, and question gaps in `pendientes`. One model, loaded
once for the module, serves every bot started here (loading it takes seconds)."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.discord_app.kit.i18n import t
from tests.app.test_question_batching import QUESTIONS, CountingModel, with_words
from tests.discord_app.test_server_terms import FORM, MODERATOR, open_form, submit
from tests.fake_discord.server import Guild, message_of, snowflake
from tests.helpers import eventually

CONFIDENT = "framework de uber para entrenar con mpi"
NOTHING = "receta de tortilla de patatas con cebolla"
# Descriptions the question path is unsure about, for the unsure answer (the first one that is, is used).
UNSURE = (
    "herramienta para guardar features y servirlas en produccion",
    "como se ajusta el learning rate en adam",
    "algo para repartir el trabajo entre muchas maquinas",
)


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    from bot.app.questions.sentence_model import SentenceModel

    model = SentenceModel(tmp_path_factory.mktemp("model"))
    model.load()
    return model


@pytest.fixture
async def bot(harness, encoder):
    started = await harness.start(questions=encoder)
    await eventually(lambda: started.app.questions_ready, timeout=60)
    return started


async def verdict_of(bot, text: str, guild_id: int = 0) -> str:
    overlay = await bot.app.server_terms.prepare(guild_id)
    return (await bot.app.questions.ask(text, overlay)).verdict


async def unsure(bot) -> str:
    for text in UNSURE:
        if await verdict_of(bot, text) == "unsure":
            return text
    raise AssertionError("none of the unsure examples is unsure any more: add one")


async def ask(fake, command: str, text: str, **kw) -> dict:
    option = "termino" if command == "termino" else "texto"
    return (await fake.response(await fake.command(command, {option: text}, **kw)))["data"]


@pytest.mark.parametrize("command", ["termino", "glosario pregunta"])
async def test_the_three_answers(fake, bot, harness, command):
    confident = await ask(fake, command, CONFIDENT)
    assert confident["content"] == t("es", "best_match", term="Horovod")
    assert confident["embeds"][0]["title"] == "Horovod"
    buttons = [c for row in confident["components"] for c in row["components"]]
    assert buttons[-1]["label"] == t("es", "not_it")
    maybe_text = await unsure(bot)
    maybe = await ask(fake, command, maybe_text)
    assert maybe["content"].startswith(t("es", "maybe", query="X").split("«")[0]) and maybe["flags"] & 64
    offered = [c for row in maybe["components"] for c in row["components"]]
    assert 1 <= len(offered) <= 3 and all(c["custom_id"].startswith("glosario:open:") for c in offered)
    nothing = await ask(fake, command, NOTHING)
    assert nothing["content"] == t("es", "not_found", query=NOTHING)
    await harness.flushed(bot)
    gaps = harness.rows("SELECT sample, kind, question FROM misses ORDER BY sample")
    assert gaps == sorted([(maybe_text, "lookup", 1), (NOTHING, "lookup", 1)])  # the answered one is no gap
    await eventually(lambda: bot.app.lookups._counts == {})
    bot.app.lookups.flush()
    await harness.flushed(bot)
    assert harness.rows("SELECT term_id, count FROM lookups WHERE outcome = 'meaning'") == [("horovod", 1)]


async def test_a_name_is_answered_as_before(fake, bot):
    assert (await ask(fake, "termino", "horovd"))["embeds"][0]["title"] == "Horovod"
    trap = await ask(fake, "termino", "paralelismo de modelos")  # a different concept: never answered by meaning
    assert "Quisiste decir" in trap["content"]
    first = next(c["custom_id"] for row in trap["components"] for c in row["components"])
    assert first.endswith(":paralelismo-de-datos") and not first.startswith("glosario:open:")  # a suggestion, as before


async def test_not_this_makes_the_question_a_gap_once_per_person(fake, bot, harness):
    answer = await ask(fake, "termino", CONFIDENT, user_id=7)
    not_it = [c for row in answer["components"] for c in row["components"]][-1]["custom_id"]
    for _ in range(2):  # pressed twice: counted once
        reply = await fake.response(await fake.click(message_of(answer), not_it, user_id=7))
        assert reply["data"]["content"] == t("es", "not_it_thanks")
    signed, term = not_it.rsplit(":", 1)
    forged = f"{signed[:-6]}ffffff:{term}"  # a signature the bot never made, on a message…
    message = json.loads(json.dumps(message_of(answer)).replace(not_it, forged))  # …that claims to carry it
    refused = await fake.response(await fake.click(message, forged, user_id=8))
    assert refused["data"]["content"] == t("es", "not_it_gone")
    again = await ask(fake, "termino", CONFIDENT, user_id=9)  # asked again by someone else: the same question…
    await fake.response(await fake.click(message_of(again), not_it, user_id=7))  # …and the first member says no again
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, count, question FROM misses") == [(CONFIDENT, 1, 1)]  # (was 2)


async def test_a_member_forgotten_is_no_longer_remembered_to_have_said_not_this(fake, harness, encoder):
    from datetime import timedelta

    from bot.app.application import utc_now
    from tests.discord_app.test_erasure import forget

    later = [
        timedelta(0)
    ]  # (what they say after the erasure is in a later second: one in its second is taken as before)
    bot = await harness.start(questions=encoder, clock=lambda: utc_now() + later[0])
    await eventually(lambda: bot.app.questions_ready, timeout=60)
    answer = await ask(fake, "termino", CONFIDENT, user_id=7)
    not_it = [c for row in answer["components"] for c in row["components"]][-1]["custom_id"]
    await fake.response(await fake.click(message_of(answer), not_it, user_id=7))
    await harness.flushed(bot)
    await forget(fake, 7)
    assert harness.rows("SELECT COUNT(*) FROM miss_askers") == [(0,)]
    later[0] = timedelta(seconds=1)
    await fake.response(await fake.click(message_of(answer), not_it, user_id=7))  # said again: counted again
    await harness.flushed(bot)
    assert harness.rows("SELECT COUNT(*) FROM miss_askers") == [(1,)]


async def test_a_servers_own_term_is_found_by_meaning_in_that_server_only(fake, bot, harness):
    await submit(fake, await open_form(fake), FORM)  # "Clúster Nebula", the team's GPU cluster
    question = "el cluster de gpus del equipo donde lanzamos los entrenamientos"
    here = await ask(fake, "glosario pregunta", question)
    assert "Clúster Nebula" in str(here)
    other = await harness.joined(bot, Guild(id=int(snowflake()), name="Otro equipo"))
    there = await ask(fake, "glosario pregunta", question, guild=other)
    assert "Nebula" not in str(there)


async def test_after_a_member_is_forgotten_a_servers_terms_are_answered_by_meaning_without_a_rebuild(fake, bot):
    """/glosario olvidarme re-reads every server's terms (their authors anonymised): the same texts, so the server's
    question index is taken over as it is, not built again one server at a time."""
    await submit(fake, await open_form(fake), FORM)  # "Clúster Nebula", by the editor (900)
    question = "el cluster de gpus del equipo donde lanzamos los entrenamientos"
    assert "Clúster Nebula" in str(await ask(fake, "glosario pregunta", question))
    assert bot.app.questions._servers.built == 1
    prompt = await fake.response(await fake.command("glosario olvidarme", user_id=900), 1)
    (button,) = [c for row in prompt["components"] for c in row["components"]]
    done = await fake.click(message_of(prompt), button["custom_id"], user_id=900)
    assert (await fake.response(done, 1))["content"].startswith(t("es", "forget_done", summary="").strip())
    assert "Clúster Nebula" in str(await ask(fake, "glosario pregunta", question, user_id=61))
    assert bot.app.questions._servers.built == 1 and bot.app.questions._servers.rebound == 1


async def test_while_a_servers_first_question_builds_its_index_other_servers_are_answered_by_meaning(
    fake, harness, encoder, monkeypatch
):
    from bot.discord_app.lookup import meaning
    from tests.app.test_question_server_index import ABOUT_ORION, HeldFor

    monkeypatch.setattr(meaning, "WAIT_SECONDS", 60.0)  # (the held server's question waits for its index)
    held = HeldFor(encoder, "orion")  # embedding the other server's terms is held until released
    bot = await harness.start(questions=held)
    await eventually(lambda: bot.app.questions_ready, timeout=60)
    other = await harness.joined(bot, Guild(id=int(snowflake()), name="Laboratorio"))
    await submit(fake, await open_form(fake), FORM)  # "Clúster Nebula", here
    orion = dict(FORM, **{"Nombre": "Granja Orion", "Alias, separados por comas (opcional)": "orion"})
    orion["Definición"] = "La granja de servidores de CPU del laboratorio donde se preprocesan los datos cada noche."
    orion["Nombre en inglés (opcional)"] = orion["Términos relacionados, por comas (opcional)"] = ""
    await submit(fake, await open_form(fake, guild=other), orion, guild=other)
    assert (await ask(fake, "glosario pregunta", CONFIDENT, user_id=61))["embeds"]  # (this server's index: built)
    try:
        first = await fake.command("glosario pregunta", {"texto": ABOUT_ORION}, guild=other, user_id=62)
        assert await asyncio.to_thread(held.held.wait, 10)  # the other server's index being built, held
        here = await ask(fake, "glosario pregunta", f"{CONFIDENT} y gpus", user_id=63)
        assert here["content"] == t("es", "best_match", term="Horovod")  # by meaning, not by name
        assert not fake.responses.get(first)  # (the other server's question still waits for its index)
    finally:
        held.release.set()
    assert (await fake.response(first))["data"]["content"] == t("es", "best_match", term="Granja Orion")


async def test_question_gaps_are_marked_in_the_pending_list(fake, bot, harness):
    await ask(fake, "termino", NOTHING)
    await ask(fake, "termino", "tokenizacion")  # a name nobody has: a gap, not a question
    await harness.flushed(bot)
    listing = (await fake.response(await fake.command("glosario-admin pendientes", permissions=MODERATOR)))["data"]
    lines = listing["embeds"][0]["description"].splitlines()
    assert any(line.startswith("❓") and NOTHING in line for line in lines)
    assert any("tokenizacion" in line and not line.startswith("❓") for line in lines)
    assert t("es", "gaps_question_legend") in str(listing["embeds"][0]["fields"])


async def counting_bot(harness, encoder) -> tuple[object, CountingModel]:
    counting = CountingModel(encoder)
    started = await harness.start(questions=counting)
    await eventually(lambda: started.app.questions_ready, timeout=60)
    counting.calls.clear()
    return started, counting


async def test_a_text_that_cannot_be_a_question_never_reaches_the_encoder(fake, harness, encoder):
    bot, counting = await counting_bot(harness, encoder)
    miss = "consulta inexistente 12 zq4471"  # two words that carry meaning, a number and a code: a name's miss
    reply = await ask(fake, "termino", miss, user_id=1)
    assert reply["content"] == t("es", "not_found", query=miss)
    code = "zq4471 77"  # asked as a question: nothing, without the model
    reply = await ask(fake, "glosario pregunta", code, user_id=2)
    assert reply["content"] == t("es", "not_found", query=code)
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, question FROM misses ORDER BY sample") == [(miss, 0), (code, 1)]
    assert counting.calls == []
    assert (await ask(fake, "termino", CONFIDENT, user_id=3))["embeds"][0]["title"] == "Horovod"
    assert counting.texts == with_words([CONFIDENT])  # (the same bot does call it for a question)


async def test_questions_asked_together_are_encoded_together(fake, harness, encoder):
    bot, counting = await counting_bot(harness, encoder)
    texts = [*QUESTIONS, *UNSURE[1:]]  # (distinct texts)
    counting.hold.clear()  # the first question's batch is held in the encoder until every other has arrived
    sent = [await fake.command("glosario pregunta", {"texto": texts[0]}, user_id=500)]
    await eventually(lambda: len(counting.calls) == 1)
    sent += [await fake.command("glosario pregunta", {"texto": q}, user_id=500 + i) for i, q in enumerate(texts) if i]
    batcher = bot.app.questions._batcher
    await eventually(lambda: len(batcher._queue) == len(texts) - 1)
    counting.hold.set()
    replies = [(await fake.response(s))["data"]["content"] for s in sent]
    assert t("es", "questions_loading") not in replies and replies[1] == t("es", "best_match", term="Horovod")
    first = with_words(texts[:1])  # what arrived meanwhile: the next batch, one call (words read before, kept)
    assert counting.calls == [first, [text for text in with_words(texts[1:]) if text not in first]]


async def test_past_the_queue_s_bound_a_question_is_answered_by_name_at_once(fake, harness, encoder):
    bot, counting = await counting_bot(harness, encoder)
    batcher = bot.app.questions._batcher
    batcher.max_waiting = 1  # (64 in service: one waiting is enough to show the bound)
    counting.hold.clear()
    running = await fake.command("glosario pregunta", {"texto": QUESTIONS[0]}, user_id=600)
    await eventually(lambda: len(counting.calls) == 1)
    waiting = await fake.command("glosario pregunta", {"texto": QUESTIONS[1]}, user_id=601)
    await eventually(lambda: len(batcher._queue) == 1)
    refused = await ask(fake, "termino", "framework de uber para entrenar con mpi y gpus", user_id=602)
    assert refused["content"] == t("es", "not_found", query="framework de uber para entrenar con mpi y gpus")
    assert batcher.refused == 1  # answered by the name matcher while the others still wait
    counting.hold.set()
    for sent in (running, waiting):
        assert (await fake.response(sent))["data"]["content"] != t("es", "questions_loading")
    first = with_words(QUESTIONS[:1])
    assert counting.texts == first + [text for text in with_words(QUESTIONS[1:2]) if text not in first]


async def test_a_question_that_takes_too_long_is_answered_by_name_and_one_nobody_waits_for_is_dropped(
    fake, harness, encoder, monkeypatch
):
    from bot.discord_app.lookup import meaning

    monkeypatch.setattr(meaning, "WAIT_SECONDS", 0.3)  # (1.5 s in service: the deadline, shortened)
    bot, counting = await counting_bot(harness, encoder)
    counting.hold.clear()  # the encoder holds the first batch past the deadline
    slow = "framework de uber para entrenar con mpi y gpus"
    first = await fake.command("termino", {"termino": slow}, user_id=700)
    await eventually(lambda: len(counting.calls) == 1)
    behind = await ask(fake, "termino", QUESTIONS[0], user_id=701)  # queued behind it, past the deadline too
    assert behind["content"] == t("es", "not_found", query=QUESTIONS[0])  # the name matcher's answer
    assert (await fake.response(first))["data"]["content"] == t("es", "not_found", query=slow)
    counting.hold.set()
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, question FROM misses ORDER BY sample") == sorted([(slow, 0), (QUESTIONS[0], 0)])
    await eventually(lambda: bot.app.questions._batcher._running is None)
    assert counting.calls == [with_words([slow])]  # the one behind was dropped before its batch: never encoded


class Failing(CountingModel):
    """The real model, failing every call once told to (a broken worker thread, memory exhausted)."""

    fail, failed = False, 0

    def encode(self, texts):
        if self.fail:
            self.failed += 1
            raise RuntimeError("the encoder failed")
        return super().encode(texts)


async def test_a_question_path_that_fails_answers_by_name_and_keeps_every_gap(fake, harness, encoder):
    failing = Failing(encoder)
    bot = await harness.start(questions=failing)
    await eventually(lambda: bot.app.questions_ready, timeout=60)
    failing.fail = True
    termino, pregunta = "mejor equipo de futbol de la liga espanola", "como cocinar arroz con pollo rapido"
    assert (await ask(fake, "termino", termino, user_id=11))["content"] == t("es", "not_found", query=termino)
    unavailable = (await ask(fake, "glosario pregunta", pregunta, user_id=12))["content"]
    assert unavailable == t("es", "questions_unavailable", query=pregunta)
    assert failing.failed == 2  # (both reached the encoder, which failed them)
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, question FROM misses ORDER BY sample") == [(pregunta, 1), (termino, 0)]
    failing.fail = False  # the next question is answered by meaning again
    again = await ask(fake, "glosario pregunta", CONFIDENT, user_id=13)
    assert again["content"] == t("es", "best_match", term="Horovod")


async def test_a_long_term_id_keeps_the_not_this_button_within_discord_s_100_characters(fake, bot):
    """The fake refuses, as Discord does, a custom_id over 100 characters: the whole reply would be lost."""
    from bot.discord_app.lookup.meaning import NotItButton

    name = "Clúster Nebula del equipo de investigación en aprendizaje profundo distribuido"
    await submit(fake, await open_form(fake), dict(FORM, **{"Nombre": name}))
    # (a question, not its alias alone: "que es nebula" is a name, answered with the card alone)
    reply = await ask(fake, "glosario pregunta", "donde estan las gpus nebula del equipo")
    assert reply["content"] == t("es", "best_match", term=name)
    not_it = [c for row in reply["components"] for c in row["components"]][-1]["custom_id"]
    assert len(not_it) == 100 and not_it.startswith("glosario:ni:")
    template = NotItButton.__discord_ui_compiled_template__
    older = "glosario:notit:0:0123abcd:a1b2c3:horovod"  # (an id of a reply sent before: still read)
    assert template.fullmatch(older)["id"] == "horovod" and template.fullmatch(not_it)["qhash"] in not_it
    assert fake.refused == []


async def test_when_meaning_finds_nothing_termino_answers_as_with_the_path_off(fake, bot):
    """A loose name suggestion beside words the glossary does not define: the reply is the name matcher's own
    ("¿Quisiste decir…?" and its suggestions), not the question path's rejected candidates."""
    text = "distribuido tortilla de patatas"
    assert await verdict_of(bot, text) == "nothing"
    bot.app.questions_ready = False
    off = await ask(fake, "termino", text, user_id=21)
    bot.app.questions_ready = True
    on = await ask(fake, "termino", text, user_id=22)

    def shown(reply):
        return reply["content"], [c["label"] for row in reply.get("components", []) for c in row["components"]]

    assert shown(on) == shown(off) and shown(on)[1]  # (the same suggestions, at least one)


async def test_a_reload_builds_the_new_glossary_s_question_index_before_anyone_asks(fake, harness, encoder, tmp_path):
    import shutil

    from tests.conftest import SHIPPED

    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    bot = await harness.start(questions=encoder, data_dir=data)
    await eventually(lambda: bot.app.questions_ready, timeout=60)
    (data / "nuevo.yaml").write_text(
        "category: Nuevo\nterms:\n  - term: Zarzaparrilla\n"
        "    definition: Planta trepadora cuyas raíces se usan para preparar bebidas refrescantes.\n",
        encoding="utf-8",
    )
    reload = await fake.command("glosario-admin recargar", permissions=MODERATOR)
    assert (await fake.response(reload))["type"] == 5
    await fake.response(reload, 1)
    # built in the background, as at start: no question had to wait for it
    await eventually(lambda: bot.app.questions._published[0] is bot.app.catalog.current, timeout=30)
    found = await ask(fake, "glosario pregunta", "planta trepadora para hacer bebidas refrescantes", user_id=31)
    assert "Zarzaparrilla" in json.dumps(found, ensure_ascii=False)


async def test_a_name_asked_as_a_question_is_answered_as_termino_answers_it(fake, bot, harness):
    """A name the name matcher finds (a typo, the words of a name without «de») asked with /glosario pregunta gets
    that term's card, counted once, and no gap: not "no está" nor another term offered."""
    for user, (text, title) in enumerate(
        [("horovd", "Horovod"), ("servidor parametros", "Servidor de Parámetros"), ("horovod", "Horovod")], start=41
    ):
        reply = await ask(fake, "glosario pregunta", text, user_id=user)
        assert [e["title"] for e in reply["embeds"]] == [title], text
        assert t("es", "not_it") not in str(reply["components"])  # (a name: nothing to say «no era esto» about)
    await harness.flushed(bot)
    assert harness.rows("SELECT sample FROM misses") == []
    await eventually(lambda: bot.app.lookups._counts == {})
    bot.app.lookups.flush()
    await harness.flushed(bot)
    counted = harness.rows("SELECT outcome, term_id, count FROM lookups ORDER BY term_id")
    assert counted == [("found", "horovod", 2), ("found", "servidor-de-parametros", 1)]


async def test_with_the_question_path_off_a_question_is_told_so_and_kept_for_the_editors(fake, harness):
    """GLOSARIO_QUESTIONS=off (or a model that failed to load): not "still loading, try in a few seconds" forever,
    but that the search by meaning is not available here, in the member's language; the question is a gap, and a
    name is still answered."""
    bot = await harness.start()  # (the question path off)
    for locale, lang in (("es-ES", "es"), ("en-US", "en")):
        reply = await ask(fake, "glosario pregunta", f"{CONFIDENT} {lang}", locale=locale, user_id=51)
        assert reply["content"] == t(lang, "questions_off", query=f"{CONFIDENT} {lang}") and reply["flags"] & 64
    assert (await ask(fake, "glosario pregunta", "horovd", user_id=52))["embeds"][0]["title"] == "Horovod"
    await harness.flushed(bot)
    rows = harness.rows("SELECT sample, question FROM misses ORDER BY sample")
    assert rows == [(f"{CONFIDENT} en", 1), (f"{CONFIDENT} es", 1)]


async def test_a_question_while_the_path_loads_is_told_so_in_the_member_s_language(fake, harness, encoder, tmp_path):
    holding = CountingModel(encoder)
    holding.hold.clear()  # the first start embeds the glossary's terms: held there, the path is still loading
    bot = await harness.start(questions=holding, cache_dir=tmp_path / "empty-cache")
    await eventually(lambda: holding.holding.is_set())
    for locale, lang in (("es-ES", "es"), ("en-GB", "en")):
        reply = await ask(fake, "glosario pregunta", CONFIDENT, locale=locale, user_id=53)
        assert reply["content"] == t(lang, "questions_loading")
    holding.hold.set()
    await eventually(lambda: bot.app.questions_ready, timeout=60)


async def test_a_question_path_that_could_not_load_is_not_said_to_be_loading(fake, harness, encoder, tmp_path):
    failing = Failing(encoder)
    failing.fail = True  # the model fails while the path loads: it never comes
    bot = await harness.start(questions=failing, cache_dir=tmp_path / "empty-cache")
    await eventually(lambda: failing.failed > 0 and not bot.app.questions_loading)
    reply = await ask(fake, "glosario pregunta", CONFIDENT, locale="en-US", user_id=54)
    assert reply["content"] == t("en", "questions_off", query=CONFIDENT)
