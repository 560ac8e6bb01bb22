"""/termino end to end: the real bot, over loopback, against the fake Discord."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.app.files import load_glossary
from bot.storage.gaps import query_hash
from tests.conftest import SHIPPED
from tests.fake_discord.server import APP_ID, message_of

EPHEMERAL = 64


def buttons(data: dict) -> list[dict]:
    return [c for row in data.get("components", []) for c in row["components"]]


async def test_login_identify_and_command_registration(fake, bot):
    assert fake.identified == 1
    assert fake.intents == 1  # GUILDS only: no message content, no members
    (termino,) = [c for c in fake.commands["global"] if c["name"] == "termino"]
    options = {o["name"]: o for o in termino["options"]}
    assert options["termino"]["type"] == 3 and options["termino"]["required"] is True
    assert options["termino"]["autocomplete"] is True
    assert options["termino"]["max_length"] == 300  # what a question is read to: Discord's box says where it stops
    assert options["privado"]["type"] == 5 and options["privado"].get("required", False) is False
    (put,) = [
        body for method, path, body in fake.requests if (method, path) == ("PUT", f"/applications/{APP_ID}/commands")
    ]
    names = {cmd["name"] for cmd in put}
    assert {"termino", "termino-del-dia", "glosario", "glosario-admin", "Explicar términos"} <= names


async def test_found_replies_with_the_term_card(fake, bot):
    iid = await fake.command("termino", {"termino": "horovd"})
    reply = await fake.response(iid)
    assert reply["type"] == 4
    data = reply["data"]
    assert not (data.get("flags") or 0) & EPHEMERAL  # public by default
    assert data["allowed_mentions"] == {"parse": []}
    (embed,) = data["embeds"]
    assert embed["title"] == "Horovod"
    assert embed["description"].startswith("Framework de código abierto desarrollado por Uber")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Categoría"] == "Aprendizaje Automático Distribuido"
    assert "AllReduce" in fields["Ver también"]
    assert "https://github.com/horovod/horovod" in fields["Enlaces"]
    assert embed["footer"]["text"] == "Glosario IA — El diccionario completo de la Inteligencia Artificial"
    assert "url" not in embed  # no web page configured: the title links nowhere
    ids = [b["custom_id"] for b in buttons(data)]
    assert ids[:2] == ["glosario:term:allreduce", "glosario:term:tensorflow-distribuido"]


async def test_only_a_long_text_takes_a_turn_on_the_event_loop(fake, bot):
    """A name or a short miss costs the name matcher a tenth of a millisecond: it answers without waiting for a turn
    (bot/app/lookup/turns.py), which would cost more than it saves; a text of five words or more takes one."""
    turns = bot.get_cog("LookupCog").turns
    short = ["horovod", "horovd", "Paralelismo de Datos", "consulta inexistente 12 zq4471"]
    sent = [await fake.command("termino", {"termino": q}) for q in short]
    replies = await asyncio.gather(*map(fake.response, sent))
    assert [r["type"] for r in replies] == [4] * len(short) and turns.taken == 0
    long = ["¿cómo se reparten los datos entre varias GPUs?", "qué hace uber con sus modelos grandes hoy"]
    sent = [await fake.command("termino", {"termino": q}) for q in long]
    replies = await asyncio.gather(*map(fake.response, sent))
    assert [r["type"] for r in replies] == [4] * len(long) and turns.taken == len(long)


async def test_with_a_web_page_each_card_links_to_its_term_there(fake, harness):
    await harness.start(site_url="https://glosario.example/ia/")
    card = (await fake.response(await fake.command("termino", {"termino": "horovd"})))["data"]["embeds"][0]
    assert card["url"] == "https://glosario.example/ia/#horovod"
    daily = (await fake.response(await fake.command("termino-del-dia")))["data"]["embeds"][0]
    assert daily["url"].startswith("https://glosario.example/ia/#") and daily["url"].endswith(
        next(t.id for t in load_glossary(SHIPPED).terms if t.term == daily["title"])
    )


async def test_english_name_shows_the_english_field_and_private_is_ephemeral(fake, bot):
    reply = await fake.response(await fake.command("termino", {"termino": "parameter server", "privado": True}))
    assert reply["data"]["flags"] & EPHEMERAL
    fields = {f["name"]: f["value"] for f in reply["data"]["embeds"][0]["fields"]}
    assert fields["Inglés"] == "Parameter Server"


async def test_autocomplete_answers_from_the_index(fake, bot):
    reply = await fake.response(await fake.autocomplete("termino", "termino", "horo"))
    assert reply["type"] == 8
    choices = reply["data"]["choices"]
    assert choices[0] == {"name": "Horovod", "value": "horovod"}
    assert len(choices) <= 25
    everything = await fake.response(await fake.autocomplete("termino", "termino", ""))
    assert len(everything["data"]["choices"]) == 17
    # the id an autocomplete choice submits resolves to its term
    reply = await fake.response(await fake.command("termino", {"termino": "servidor-de-parametros"}))
    assert reply["data"]["embeds"][0]["title"] == "Servidor de Parámetros"


async def test_ambiguous_offers_buttons_and_a_click_answers_and_is_recorded(fake, bot, harness):
    iid = await fake.command("termino", {"termino": "paralelismo de modelos"})
    reply = await fake.response(iid)
    data = reply["data"]
    assert data["flags"] & EPHEMERAL
    assert "¿Quisiste decir" in data["content"]
    qhash = query_hash("paralelismo de modelos")
    custom_ids = [b["custom_id"] for b in buttons(data)]
    assert re.fullmatch(rf"glosario:pk:0{qhash}[0-9a-f]{{6}}:paralelismo-de-datos", custom_ids[0])
    message = {**message_of(data), "flags": EPHEMERAL}
    click = await fake.response(await fake.click(message, custom_ids[0], user_id=222))
    assert click["type"] == 4
    assert click["data"]["embeds"][0]["title"] == "Paralelismo de Datos"
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, term_id, count FROM picks") == [
        ("paralelismo de modelos", "paralelismo-de-datos", 1)
    ]
    assert harness.rows("SELECT sample, best_guess FROM misses") == [("paralelismo de modelos", "paralelismo-de-datos")]


async def test_private_pick_turns_the_suggestions_into_the_answer(fake, bot):
    data = (await fake.response(await fake.command("termino", {"termino": "tensorflow", "privado": True})))["data"]
    (first, *_) = buttons(data)
    assert first["custom_id"].startswith("glosario:pk:1")
    click = await fake.response(await fake.click({**message_of(data), "flags": EPHEMERAL}, first["custom_id"]))
    assert click["type"] == 7  # update the ephemeral message in place
    assert click["data"]["embeds"][0]["title"] == "TensorFlow Distribuido"


async def test_related_button_opens_the_term(fake, bot):
    data = (await fake.response(await fake.command("termino", {"termino": "horovod"})))["data"]
    public = await fake.response(await fake.click(message_of(data), "glosario:term:allreduce"))
    assert public["type"] == 4 and public["data"]["flags"] & EPHEMERAL
    assert public["data"]["embeds"][0]["title"] == "AllReduce"
    private = await fake.response(await fake.click({**message_of(data), "flags": EPHEMERAL}, "glosario:term:petastorm"))
    assert private["type"] == 7
    assert private["data"]["embeds"][0]["title"] == "Petastorm"
    # a button left on an old message for a term that a reload removed
    stale = {
        **data,
        "components": [
            {
                "type": 1,
                "components": [{"type": 2, "style": 2, "label": "Viejo", "custom_id": "glosario:term:no-existe"}],
            }
        ],
    }
    gone = await fake.response(await fake.click(message_of(stale), "glosario:term:no-existe"))
    assert "ya no está" in gone["data"]["content"]
    assert bot.persistent_views == []  # buttons work through dynamic items; no view is kept per message


async def test_not_found_is_friendly_and_logged_after_the_reply(fake, bot, harness):
    reply = await fake.response(await fake.command("termino", {"termino": "Quantum Annealing"}, user_id=1))
    assert reply["data"]["flags"] & EPHEMERAL
    assert "todavía no está en el glosario" in reply["data"]["content"]
    await fake.response(await fake.command("termino", {"termino": "quantum  annealing"}, user_id=2))
    await fake.response(await fake.command("termino", {"termino": "QUANTUM ANNEALING"}, user_id=1))
    bot.app.lookups.flush()  # lookup counts are kept in memory and flushed every few seconds
    await harness.flushed(bot)
    rows = harness.rows(
        "SELECT m.normalized, m.count, (SELECT COUNT(*) FROM miss_askers a WHERE a.miss_id = m.id), "
        "m.status, m.guild_id FROM misses m"
    )
    assert rows == [("quantum annealing", 3, 2, "open", fake.guilds[0].id)]
    askers = harness.rows("SELECT asker FROM miss_askers")
    assert all(len(a) == 24 and a not in ("1", "2") for (a,) in askers)  # salted hashes, never raw ids
    outcomes = dict(harness.rows("SELECT outcome, SUM(count) FROM lookups GROUP BY outcome"))
    assert outcomes == {"not_found": 3}


async def test_mentions_and_markdown_in_the_query_are_neutralised(fake, bot):
    query = "@everyone @here <@&123456789012345678> <@456> **negrita** `código`"
    data = (await fake.response(await fake.command("termino", {"termino": query})))["data"]
    assert data["allowed_mentions"] == {"parse": []}
    content = data["content"]
    assert "@everyone" not in content and "@\u200beveryone" in content
    assert "@here" not in content
    assert "<@&123456789012345678>" not in content and "<@456>" not in content
    assert "\\*\\*negrita\\*\\*" in content and "\\`código\\`" in content


async def test_english_locale_gets_english_text(fake, bot):
    data = (await fake.response(await fake.command("termino", {"termino": "zzzzzz"}, locale="en-US")))["data"]
    assert "is not in the glossary yet" in data["content"]
    card = (await fake.response(await fake.command("termino", {"termino": "sharding"}, locale="en-GB")))["data"]
    assert {f["name"] for f in card["embeds"][0]["fields"]} >= {"Category", "See also"}


async def test_cooldown_is_polite(fake, bot):
    replies = []
    for _ in range(7):
        replies.append(await fake.response(await fake.command("termino", {"termino": "ray"}, user_id=77)))
    assert all(r["data"].get("embeds") for r in replies[:6])
    assert "Vas muy rápido" in replies[6]["data"]["content"] and replies[6]["data"]["flags"] & EPHEMERAL
    other = await fake.response(await fake.command("termino", {"termino": "ray"}, user_id=78))
    assert other["data"]["embeds"][0]["title"] == "Ray"


async def test_a_locked_database_does_not_break_replies_and_the_miss_lands_later(fake, bot, harness):
    locker = await harness.locked("EXCLUSIVE")
    try:
        reply = await fake.response(await fake.command("termino", {"termino": "aprendizaje por refuerzo"}), timeout=3)
        assert "todavía no está" in reply["data"]["content"]
        card = await fake.response(await fake.command("termino", {"termino": "feast"}), timeout=3)
        assert card["data"]["embeds"][0]["title"] == "Feast"
        await asyncio.sleep(0.5)
        assert bot.app.writer.pending >= 1
    finally:
        locker.rollback()
        locker.close()
    await harness.flushed(bot, within=20)
    assert harness.rows("SELECT sample, count FROM misses") == [("aprendizaje por refuerzo", 1)]


async def test_a_dropped_gateway_connection_is_survived(fake, bot):
    await fake.drop_gateway()
    await fake.wait_ready(timeout=15)
    assert fake.resumed + fake.identified >= 2
    reply = await fake.response(await fake.command("termino", {"termino": "kubeflow"}))
    assert reply["data"]["embeds"][0]["title"] == "Kubeflow"


async def test_commands_sync_only_when_they_change(fake, harness):
    first = await harness.start()
    assert first.commands_sync.synced == "global"
    await harness.stop(first)
    fake.requests.clear()
    second = await harness.start()
    assert second.commands_sync.synced is None
    assert not [r for r in fake.requests if r[0] == "PUT"]


async def test_dev_guild_syncs_there_at_every_start(fake, harness):
    guild_id = fake.guilds[0].id
    bot = await harness.start(dev_guild_id=guild_id)
    assert bot.commands_sync.synced == "guild"
    assert "termino" in [c["name"] for c in fake.commands[str(guild_id)]]


@pytest.fixture(autouse=True)
def _no_real_discord(monkeypatch):
    """Any attempt to reach the real Discord fails loudly instead of leaving the machine."""
    import discord

    assert "127.0.0.1" in discord.http.Route.BASE or discord.http.Route.BASE.startswith("https://discord.com")


async def test_every_feature_package_is_loaded(bot):
    """(Each feature registers its own persistent buttons: the click tests of test_review and test_lookup use them.)"""
    from pathlib import Path

    import bot.discord_app as package

    folders = {p.parent.name for p in Path(package.__file__).parent.glob("*/__init__.py")} - {"kit"}
    assert len(folders) >= 10
    assert set(bot.extensions) == {f"bot.discord_app.{name}" for name in folders}  # found, not listed by hand


async def test_a_definition_with_paragraphs_keeps_them_on_the_card(fake, harness, tmp_path):
    from bot.core.paragraphs import paragraphs

    data = tmp_path / "g"
    data.mkdir()
    (data / "glossary.yaml").write_text("title: T\n", encoding="utf-8")
    (data / "c.yaml").write_text(
        "category: C\nterms:\n  - term: Zeta\n    definition: >-\n      Primer párrafo,\n      en dos líneas.\n\n"
        "      Segundo párrafo: https://example.org/zeta\n",
        encoding="utf-8",
    )
    await harness.start(data_dir=data)
    (embed,) = (await fake.response(await fake.command("termino", {"termino": "zeta"})))["data"]["embeds"]
    assert embed["description"].split("\n\n") == [
        "Primer párrafo, en dos líneas.",
        "Segundo párrafo: https://example.org/zeta",
    ]
    assert embed["description"].split("\n\n") == paragraphs(load_glossary(data).get("zeta").definition)
