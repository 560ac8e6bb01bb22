"""Discord's limits are totals: long names, long gaps and big cards, against a fake that refuses what Discord
refuses (each part of an embed, and 6,000 characters across a message's embeds)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.core.normalize import slug
from bot.discord_app.kit.i18n import t
from bot.storage.records import GapRecord
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
    from tests.fake_discord.form_body import message_problem

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
