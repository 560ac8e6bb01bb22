"""Discovery end to end: search, list, random, help, "Explicar términos", English, pagination rules."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.pager import Pager
from tests.fake_discord.server import message_of
from tests.synthetic import generate

EPHEMERAL = 64


def components(data):
    return [c for row in data.get("components", []) for c in row["components"]]


async def test_search_pages_opens_a_term_and_logs_a_search_that_finds_nothing(fake, bot, harness):
    iid = await fake.command("glosario buscar", {"texto": "aprendizaje"})
    data = (await fake.response(iid))["data"]
    shown = fake.message_of(iid)
    assert data["flags"] & EPHEMERAL
    embed = data["embeds"][0]
    assert embed["title"] == "Términos con «aprendizaje»"
    assert embed["footer"]["text"].startswith("Página 1 de ")
    prev, nxt, *term_buttons = components(data)
    assert prev["disabled"] and not nxt["disabled"] and len(term_buttons) == 5  # one button per term
    page2 = await fake.response(await fake.click(shown, nxt["custom_id"]))
    assert page2["type"] == 7 and page2["data"]["embeds"][0]["footer"]["text"].startswith("Página 2 de ")
    first = components(page2["data"])[2]  # each page has the buttons of its own terms
    opened = await fake.response(await fake.click(shown, first["custom_id"]))
    assert opened["data"]["flags"] & EPHEMERAL and opened["data"]["embeds"][0]["title"] == first["label"]
    nothing = await fake.response(await fake.command("glosario buscar", {"texto": "blockchain cuántico"}))
    assert "Ningún término contiene «blockchain cuántico»" in nothing["data"]["content"]
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, kind FROM misses") == [("blockchain cuántico", "search")]


async def test_only_the_asker_pages_and_buttons_grey_out_after_the_timeout(fake, bot, monkeypatch):
    monkeypatch.setattr(Pager, "TIMEOUT", 0.5)
    iid = await fake.command("glosario buscar", {"texto": "distribuido"}, user_id=10)
    data = (await fake.response(iid))["data"]
    nxt = components(data)[1]
    stranger = await fake.response(await fake.click(fake.message_of(iid), nxt["custom_id"], user_id=11))
    assert "es de quien la pidió" in stranger["data"]["content"]
    edited = await fake.response(iid, 1, timeout=5)  # the edit made when the view times out
    assert edited["webhook"] == "PATCH"
    assert all(c.get("disabled") for c in components(edited))


async def test_list_by_category_paginated(fake, harness, tmp_path):
    generate(tmp_path / "g", 45)
    bot = await harness.start(data_dir=tmp_path / "g")
    data = (await fake.response(await fake.command("glosario lista")))["data"]
    assert data["embeds"][0]["title"] == "Glosario · 45 términos"
    assert data["embeds"][0]["footer"]["text"] == "Página 1 de 3"
    assert data["embeds"][0]["description"].startswith("__Categoría 000__\n• ")
    choices = (await fake.response(await fake.autocomplete("glosario lista", "categoria", "cat")))["data"]["choices"]
    assert choices == [{"name": "Categoría 000", "value": "Categoría 000"}]
    one = (await fake.response(await fake.command("glosario lista", {"categoria": "categoria 000"})))["data"]
    assert one["embeds"][0]["title"] == "Categoría 000 · 45 términos"
    bad = (await fake.response(await fake.command("glosario lista", {"categoria": "Cocina"})))["data"]
    assert "No hay ninguna categoría «Cocina»" in bad["content"]
    del bot


async def test_random_and_help(fake, bot):
    card = (await fake.response(await fake.command("glosario aleatorio")))["data"]
    assert card["embeds"][0]["footer"]["text"].startswith("Glosario IA")
    helped = (await fake.response(await fake.command("glosario ayuda")))["data"]
    assert helped["flags"] & EPHEMERAL and "/termino" in helped["embeds"][0]["description"]
    english = (await fake.response(await fake.command("glosario ayuda", locale="en-GB")))["data"]
    assert english["embeds"][0]["title"] == "Glosario IA: what I can do"
    assert "/glossary search" in english["embeds"][0]["description"]
    # every /glosario subcommand a member can use is in the help, under its name in the help's language
    subcommands = [o for o in fake.find_command("glosario")["options"] if o["type"] == 1]
    assert {"pregunta", "proponer", "olvidarme"} <= {o["name"] for o in subcommands}
    (pregunta,) = [o for o in subcommands if o["name"] == "pregunta"]
    assert pregunta["options"][0]["max_length"] == 300  # what a question is read to, where Discord's box stops
    for option in (o for o in subcommands if o["name"] != "ayuda"):  # (the help itself)
        assert f"/glosario {option['name']}" in helped["embeds"][0]["description"], option["name"]
        english_name = option["name_localizations"]["en-GB"]
        assert f"/glossary {english_name}" in english["embeds"][0]["description"], english_name


async def test_explain_terms_in_a_message(fake, bot):
    text = "¿Usamos Horovod con all-reduce o un parameter server? Lo de paralelismo de datos ya lo tenemos."
    data = (await fake.response(await fake.message_command("Explicar términos", text)))["data"]
    assert data["flags"] & EPHEMERAL
    description = data["embeds"][0]["description"]
    assert description.splitlines()[0].startswith("**Horovod** — Framework de código abierto")
    assert [b["custom_id"] for b in components(data)] == [
        "glosario:open:horovod",
        "glosario:open:allreduce",
        "glosario:open:servidor-de-parametros",
        "glosario:open:paralelismo-de-datos",
    ]
    opened = await fake.response(await fake.click({**message_of(data), "flags": EPHEMERAL}, "glosario:open:allreduce"))
    assert opened["type"] == 4 and opened["data"]["embeds"][0]["title"] == "AllReduce"  # a new message
    none = (await fake.response(await fake.message_command("Explicar términos", "hoy hay paella")))["data"]
    assert "No encuentro términos del glosario" in none["content"]


async def test_explain_a_4000_character_message_against_10k_terms(fake, harness, tmp_path):
    names = generate(tmp_path / "g", 10_000)
    await harness.start(data_dir=tmp_path / "g")
    words = []
    for name in names[:400:20]:
        words += ["lorem", "ipsum", name.lower(), "dolor"]
    text = " ".join(words * 10)[:4000]
    assert len(text) == 4000
    # Discord gives an interaction 3 seconds: the first reply must be back well within that.
    reply = await fake.response(await fake.message_command("Explicar términos", text), timeout=3)
    data = reply["data"]
    assert data["embeds"][0]["description"].count("\n") == 10  # ten terms, then "y N más"
    assert data["embeds"][0]["description"].splitlines()[-1].startswith("y ")


def localised(payload) -> list[tuple[str, str]]:
    """Every (what, Spanish text) in a registration payload that lacks an English (en-US) version."""
    missing = []

    def walk(node, where):
        for key in ("name", "description"):
            if node.get(key) and "en-US" not in (node.get(f"{key}_localizations") or {}):
                missing.append((f"{where}.{key}", node[key]))
        for option in node.get("options", []) or []:
            walk(option, f"{where}/{option['name']}")
        for choice in node.get("choices", []) or []:
            if "en-US" not in (choice.get("name_localizations") or {}):
                missing.append((f"{where}.choice", choice["name"]))

    for command in payload:
        walk(command, command["name"])
    return [m for m in missing if m[1] != ""]  # context menus have no description


async def test_every_command_option_and_choice_has_english(fake, bot):
    payload = fake.commands["global"]
    assert localised(payload) == []
    names = {c["name"]: c.get("name_localizations", {}).get("en-US") for c in payload}
    assert names["termino"] == "term" and names["glosario"] == "glossary"
    assert names["Explicar términos"] == "Explain terms" and names["glosario-admin"] == "glossary-admin"


@pytest.mark.parametrize("locale", ["en-US", "en-GB"])
async def test_replies_follow_the_english_locale(fake, bot, locale):
    data = (await fake.response(await fake.command("glosario buscar", {"texto": "zzzz"}, locale=locale)))["data"]
    assert "No term contains" in data["content"]
    data = (await fake.response(await fake.message_command("Explicar términos", "Horovod", locale=locale)))["data"]
    assert data["embeds"][0]["title"] == "Glossary terms in this message"
    await asyncio.sleep(0)


async def test_list_pages_open_terms_from_a_menu(fake, bot):
    iid = await fake.command("glosario lista")
    data = (await fake.response(iid))["data"]
    prev, nxt, menu = components(data)
    assert prev["disabled"] and nxt["disabled"]  # 17 terms: one page
    assert len(menu["options"]) == 17 and menu["options"][0]["label"] == "AllReduce"
    opened = await fake.response(await fake.click(fake.message_of(iid), menu["custom_id"], values=["feast"]))
    assert opened["data"]["embeds"][0]["title"] == "Feast"


@pytest.mark.parametrize(("locale", "lang"), [("es-ES", "es"), ("en-GB", "en")])
async def test_an_empty_question_is_asked_for_a_description_not_a_term(fake, bot, locale, lang):
    """/glosario pregunta with nothing to read (punctuation only) asks for a description, not for "the term you
    want to look up" with /termino's example."""
    iid = await fake.command("glosario pregunta", {"texto": "¿?"}, locale=locale)
    data = (await fake.response(iid))["data"]
    assert data["content"] == t(lang, "empty_question") and data["flags"] & 64
