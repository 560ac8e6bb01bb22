"""Discord's limits are totals: long names, long gaps and big cards, against a fake that refuses what Discord
refuses (each part of an embed, and 6,000 characters across a message's embeds)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace

import discord
import pytest

from bot.core.normalize import slug
from bot.discord_app.kit.i18n import t
from bot.storage.records import GapRecord
from tests.fake_discord.form_body import invalid_form_body, message_problem
from tests.fake_discord.server import MANAGE_GUILD, MANAGE_MESSAGES, MEMBER_PERMISSIONS, ChannelRef

MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES | MANAGE_GUILD)
LONG_CATEGORY = "Aprendizaje Automático Distribuido a Gran Escala " * 6  # 300 characters
LONG_TERM = ("Paralelismo Híbrido de Datos, Tensores y Etapas " * 6)[:250].strip()
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def big_glossary(tmp_path):
    data = tmp_path / "big"
    data.mkdir()
    (data / "glossary.yaml").write_text(
        "title: Glosario IA\nsubtitle: " + "El diccionario completo de la Inteligencia Artificial " * 4 + "\n"
    )
    definition = "Una definición muy larga y completa. " * 100  # 3,700 characters
    aliases = ", ".join(f"alias largo número {n:03d}" for n in range(20))
    (data / "largo.yaml").write_text(
        f"category: {LONG_CATEGORY.strip()}\nterms:\n"
        f"  - term: {LONG_TERM}\n    definition: {definition.strip()}\n    aliases: [{aliases}]\n"
        f'  - term: Horovod\n    definition: Framework de entrenamiento distribuido.\n    related: ["{LONG_TERM}"]\n',
        encoding="utf-8",
    )
    return data


async def test_a_big_card_is_sent_whole_and_within_the_total(fake, harness, big_glossary):
    await harness.start(data_dir=big_glossary)
    card = (await fake.response(await fake.command("termino", {"termino": "alias largo número 007"})))["data"]
    (embed,) = card["embeds"]
    assert embed["title"] == LONG_TERM and embed["description"].endswith("completa.")  # the term's text, whole
    assert fake.refused == []


async def test_list_of_a_long_category_and_its_autocomplete(fake, harness, big_glossary):
    await harness.start(data_dir=big_glossary)
    choices = (await fake.response(await fake.autocomplete("glosario lista", "categoria", "gran escala")))["data"]
    (choice,) = choices["choices"]
    assert len(choice["name"]) <= 100 and len(choice["value"]) <= 100
    listing = (await fake.response(await fake.command("glosario lista", {"categoria": choice["value"]})))["data"]
    (embed,) = listing["embeds"]
    assert embed["title"].endswith("…") and len(embed["title"]) == 256  # shortened, not refused by Discord
    assert LONG_TERM[:50] in embed["description"]
    assert fake.refused == []


async def test_long_gaps_fit_the_pending_list_and_the_statistics(fake, harness, big_glossary):
    bot = await harness.start(data_dir=big_glossary)
    guild_id = fake.guilds[0].id
    for n in range(12):
        sample = f"{n:02d} " + "_*`|~>" * 33  # every character escaped: twice as long once shown
        for asker in range(30):
            at = f"2026-12-02T10:{n:02d}:00"
            record = GapRecord(guild_id, sample, f"laguna larga {n:02d}", f"a{asker}", slug(LONG_TERM), "lookup", at)
            await bot.app.stores.gaps.record_gaps([record])
    for order in ("recientes", "frecuentes"):
        iid = await fake.command("glosario-admin pendientes", {"orden": order}, permissions=MODERATOR)
        (embed,) = (await fake.response(iid))["data"]["embeds"]
        assert embed["description"].count("\n") == 9  # all ten entries of the page, each shortened to fit
    stats = await fake.response(await fake.command("glosario-admin estadisticas", permissions=MODERATOR), 1)
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    assert fields["Lagunas más pedidas"].endswith("(+3)") or fields["Lagunas más pedidas"].count("\n") == 4
    assert fake.refused == []


async def test_a_daily_post_discord_refuses_is_recorded_not_retried_all_day(fake, harness):
    bot = await harness.start(clock=lambda: NOW)
    channel = fake.guilds[0].channel_ids[1]
    fake.channel_errors = [400]  # Discord refuses this message (not a 5xx, not a 429)
    iid = await fake.command(
        "glosario-admin diario configurar",
        {"canal": ChannelRef(channel), "hora": "09:00", "zona": "Europe/Madrid"},
        permissions=MODERATOR,
    )
    await fake.response(iid)
    for _ in range(500):  # until the bot has recorded what Discord answered
        if harness.rows("SELECT status FROM daily_posts") == [("failed",)]:
            break
        await asyncio.sleep(0.01)
    assert harness.rows("SELECT status, detail FROM daily_posts")[0][0] == "failed"
    daily = bot.get_cog("DailyCog")
    await daily.tick()  # a later tick that day
    assert fake.channel_messages.get(str(channel)) is None  # not posted again and again
    status = (await fake.response(await fake.command("glosario-admin diario estado", permissions=MODERATOR)))["data"]
    refused = t("es", "post_err_discord", channel=f"<#{channel}>", status=400, text="fake failure 400")
    assert refused in status["content"]


def test_the_fake_refuses_forms_and_menus_over_discords_limits():
    def form(title="Resolver", label="Término", value=""):
        text = {"type": 4, "custom_id": "t", "label": label, "style": 1, "value": value}
        return {
            "type": 9,
            "data": {"custom_id": "f", "title": title, "components": [{"type": 1, "components": [text]}]},
        }

    def menu(**option):
        select = {"type": 3, "custom_id": "m", "options": [{"label": "a", "value": "1", **option}]}
        return {"content": "x", "components": [{"type": 1, "components": [select]}]}

    assert message_problem(form()) is None and message_problem(menu(description="d" * 100)) is None
    assert message_problem(form(title="x" * 46)) == "title: 46 > 45"
    assert message_problem(form(label="x" * 46)) == "components.0.components.0.label: 46 > 45"
    assert message_problem(form(value="x" * 4001)) == "components.0.components.0.value: 4001 > 4000"
    assert message_problem(menu(label="x" * 101)) == "components.0.components.0.options.0.label: 101 > 100"
    assert message_problem(menu(description="x" * 101)).endswith("options.0.description: 101 > 100")


def button(custom_id="b", **part):
    return {"type": 2, "style": 1, "label": "Ver", "custom_id": custom_id, **part}


def select(options=("1", "2"), **part):
    return {"type": 3, "custom_id": "m", "options": [{"label": v, "value": v} for v in options], **part}


def message(*rows):
    return {"content": "x", "components": [{"type": 1, "components": list(row)} for row in rows]}


REFUSED_COMPONENTS = [  # what Discord refuses, and where and what the fake says it is
    (message(*[[button(f"b{n}")] for n in range(6)]), "components: 6 > 5"),
    (message([button(f"b{n}") for n in range(6)]), "components.0.components: 6, not 1 to 5"),
    (message([]), "components.0.components: 0, not 1 to 5"),
    (message([select(), button()]), "components.0.components.1: COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    (message([button(), select()]), "components.0.components.1: COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    (
        message([button("a")], [button("a", disabled=True)]),
        "components.1.components.0.custom_id: COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    (message([button(None)]), "components.0.components.0.custom_id: BUTTON_COMPONENT_CUSTOM_ID_REQUIRED"),
    (
        message([button(style=5, url="https://x.org")]),
        "components.0.components.0.custom_id: BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE",
    ),
    (
        message([button(url="https://x.org")]),
        "components.0.components.0.url: BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE",
    ),
    (message([button(None, style=5)]), "components.0.components.0.url: BASE_TYPE_REQUIRED"),
    (message([button(None, style=5, url="https://x.org/" + "a" * 499)]), "components.0.components.0.url: 513 > 512"),
    (message([select(custom_id="")]), "components.0.components.0.custom_id: BASE_TYPE_REQUIRED"),
    (message([select(options=())]), "components.0.components.0.options: 0, not 1 to 25"),
    (message([select(options=[str(n) for n in range(26)])]), "components.0.components.0.options: 26, not 1 to 25"),
    (
        message([select(options=("1", "2", "1"))]),
        "components.0.components.0.options.2: SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
    ),
    (message([select(max_values=3)]), "components.0.components.0.options: 2 < 3"),
    (message([select(min_values=2)]), "components.0.components.0.min_values: 2 > 1"),
    (message([select(max_values=0, min_values=0)]), "components.0.components.0.max_values: 0 < 1"),
    (message([select(max_values=26)]), "components.0.components.0.max_values: 26 > 25"),
    (message([select(placeholder="x" * 151)]), "components.0.components.0.placeholder: 151 > 150"),
]


@pytest.mark.parametrize(("body", "problem"), REFUSED_COMPONENTS)
def test_the_fake_refuses_components_discord_refuses(body, problem):
    """Discord's components reference: at most 5 rows of 1 to 5 buttons or one select; a custom_id on every button but
    a link one (which has a url instead), used once in a message; a select's 1 to 25 options, distinct values, as many
    as max_values, and min_values no higher."""
    assert message_problem(body) == problem


def test_the_fake_accepts_what_discord_accepts():
    link = button(None, style=5, url="https://x.org")
    many = select(options=[str(n) for n in range(25)], min_values=0, max_values=25)
    rows = [[button(f"b{n}") for n in range(5)], [link, dict(link)], [many], [select(custom_id="n")], [button("m2")]]
    assert message_problem(message(*rows)) is None


def test_the_fake_refuses_forms_discord_refuses():
    """A form (modal): a custom_id of 1 to 100 characters, 1 to 5 rows, each text input's custom_id used once, its
    lengths within 0 (1 for the longest) to 4,000."""

    def form(custom_id="f", *inputs):
        rows = [{"type": 1, "components": [{"type": 4, "style": 1, "label": "T", **i}]} for i in inputs]
        return {"type": 9, "data": {"custom_id": custom_id, "title": "Resolver", "components": rows}}

    assert message_problem(form("f", {"custom_id": "a", "min_length": 0, "max_length": 4000})) is None
    assert message_problem(form("", {"custom_id": "a"})) == "custom_id: 0, not 1 to 100"
    assert message_problem(form("f")) == "components: 0, not 1 to 5"
    assert message_problem(form("f", *[{"custom_id": str(n)} for n in range(6)])) == "components: 6 > 5"
    twice = form("f", {"custom_id": "a"}, {"custom_id": "a"})
    assert message_problem(twice) == "components.1.components.0.custom_id: COMPONENT_CUSTOM_ID_DUPLICATED"
    assert message_problem(form("f", {"custom_id": "a", "max_length": 0})).endswith(".max_length: 0 < 1")
    assert message_problem(form("f", {"custom_id": "a", "min_length": 4001})).endswith(".min_length: 4001 > 4000")
    assert message_problem(form("f", {"custom_id": "a", "min_length": -1})).endswith(".min_length: -1 < 0")
    assert message_problem(form("f", {})) == "components.0.components.0.custom_id: BASE_TYPE_REQUIRED"


def test_the_fake_answers_a_refusal_as_discord_does():
    """400, code 50035 and an `errors` object nested along the path (under `data` in an interaction's answer), with
    Discord's code and words at its end: what discord.py turns into "In data.components…: …"."""
    answer = {"type": 4, "data": message([button("a"), button("a")])}
    body = invalid_form_body(message_problem(answer), answer)
    duplicated = {"code": "COMPONENT_CUSTOM_ID_DUPLICATED", "message": "Component custom id cannot be duplicated"}
    row = {"0": {"components": {"1": {"custom_id": {"_errors": [duplicated]}}}}}
    assert body == {"message": "Invalid Form Body", "code": 50035, "errors": {"data": {"components": row}}}
    said = discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"), body).text
    assert (
        said
        == "Invalid Form Body\nIn data.components.0.components.1.custom_id: Component custom id cannot be duplicated"
    )
    words = {  # each kind of problem in Discord's words (as its answers say them)
        "content: 2001 > 2000": "Must be 2000 or fewer in length.",
        "components.0.components: 6, not 1 to 5": "Must be between 1 and 5 in length.",
        "components.0.components.0.options: 2 < 3": "Must be 3 or more in length.",
        "components.0.components.0.max_values: 26 > 25": "int value should be less than or equal to 25.",
        "components.0.components.0.max_length: 0 < 1": "int value should be greater than or equal to 1.",
        "components.0.components.0.min_length: -1 < 0": "int value should be greater than or equal to 0.",
        "custom_id: 0, not 1 to 100": "Must be between 1 and 100 in length.",
        "embeds: MAX_EMBED_SIZE_EXCEEDED (6001 characters in all)": "Embed size exceeds maximum size of 6000",
    }
    for problem, said in words.items():
        errors = invalid_form_body(problem, {})["errors"]
        for part in problem.partition(": ")[0].split("."):
            errors = errors[part]
        assert errors["_errors"][0]["message"] == said
    for _, problem in REFUSED_COMPONENTS:  # every check has Discord's words
        assert invalid_form_body(problem, {})["errors"]
