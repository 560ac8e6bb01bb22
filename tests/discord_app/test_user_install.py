"""The app installed to a member's own account: /termino, /glosario and "Explicar términos" anywhere (a server the
bot is not in, a DM, a group DM), private by default, with gaps kept personal; moderators' commands stay with the
server install. What Discord sends for each context is modelled by the fake (tests/fake_discord/server.py)."""

from __future__ import annotations

import pytest

from bot.app.limits import RateLimit
from bot.discord_app.kit.i18n import t
from tests.fake_discord.server import (
    COMMANDS_ONLY,
    DM,
    GROUP_DM,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    SERVER,
    USER_IN_SERVER,
    ChannelRef,
    Guild,
    RoleRef,
    message_of,
    snowflake,
)

EPHEMERAL = 64
# Discord's documented values: integration_types 0 GUILD_INSTALL, 1 USER_INSTALL; contexts 0 GUILD, 1 BOT_DM,
# 2 PRIVATE_CHANNEL.
ANYWHERE = {"integration_types": [0, 1], "contexts": [0, 1, 2]}
SERVER_ONLY = {"integration_types": [0], "contexts": [0]}
MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_GUILD | MANAGE_MESSAGES)


def elsewhere() -> Guild:
    """A server the bot is not in (a member's own install reaches it)."""
    return Guild(id=int(snowflake()), name="Servidor ajeno")


async def test_published_commands_declare_where_they_can_be_installed_and_used(fake, bot):
    await fake.wait_for(lambda: "global" in fake.commands)
    published = {(c["name"], c.get("type", 1)): c for c in fake.commands["global"]}
    for key, expected in (
        (("termino", 1), ANYWHERE),
        (("glosario", 1), ANYWHERE),
        (("Explicar términos", 3), ANYWHERE),
        (("glosario-admin", 1), SERVER_ONLY),
        (("termino-del-dia", 1), SERVER_ONLY),
    ):
        command = published[key]
        assert {k: sorted(command[k]) for k in expected} == expected, key


@pytest.mark.parametrize("via", [USER_IN_SERVER, DM, GROUP_DM])
async def test_termino_answers_with_the_card_in_every_context(fake, bot, harness, via):
    guild = elsewhere() if via == USER_IN_SERVER else None
    card = await fake.response(await fake.command("termino", {"termino": "horovd"}, guild=guild, via=via))
    assert card["type"] == 4 and card["data"]["embeds"][0]["title"] == "Horovod"
    assert card["data"]["flags"] & EPHEMERAL  # private by default where the bot is a guest
    related = card["data"]["components"][0]["components"][0]["custom_id"]
    opened = await fake.response(await fake.click(message_of(card["data"]), related, guild=guild, via=via))
    assert opened["data"]["embeds"][0]["title"] != "Horovod"  # its buttons work there too
    public = await fake.response(
        await fake.command("termino", {"termino": "horovod", "privado": False}, guild=guild, via=via)
    )
    assert not public["data"].get("flags", 0) & EPHEMERAL  # public when the member asks and Discord allows it


async def test_a_miss_through_a_members_own_install_is_a_personal_gap(fake, bot, harness):
    guest_in = elsewhere()
    for via, guild in ((USER_IN_SERVER, guest_in), (DM, None), (GROUP_DM, None)):
        miss = await fake.response(
            await fake.command("termino", {"termino": f"aprendizaje por refuerzo {via}"}, guild=guild, via=via)
        )
        assert "todavía no está en el glosario" in miss["data"]["content"]
    await harness.flushed(bot)
    assert {row[0] for row in harness.rows("SELECT guild_id FROM misses")} == {0}  # no server's, ever
    listing = await fake.response(
        await fake.command("glosario-admin pendientes", permissions=str(1 << 13 | 1 << 11 | 1 << 10))
    )
    assert "aprendizaje por refuerzo" not in str(listing["data"])  # no server's moderators see them


async def test_a_server_with_the_commands_but_not_the_bot_is_served_like_a_members_own_install(fake, bot, harness):
    """The app added to a server with the scope applications.commands alone: Discord sends the server install's
    interactions (the server's id as owner "0"), but the bot is not there (no moderators' view of it, no posts, no
    forgetting when it leaves): its members' gaps and votes are personal, and answers private by default."""
    bare = elsewhere()
    miss = await fake.response(
        await fake.command("termino", {"termino": "aprendizaje por refuerzo"}, guild=bare, via=COMMANDS_ONLY)
    )
    assert miss["data"]["content"] == t("es", "not_found", query="aprendizaje por refuerzo")
    card = await fake.response(await fake.command("termino", {"termino": "horovod"}, guild=bare, via=COMMANDS_ONLY))
    assert card["data"]["flags"] & EPHEMERAL
    down = card["data"]["components"][-1]["components"][-1]["custom_id"]  # 👎: its form, then the comment
    form = await fake.response(await fake.click(message_of(card["data"]), down, guild=bare, via=COMMANDS_ONLY))
    label = form["data"]["components"][0]["components"][0]["label"]
    comment = {label: "falta un ejemplo"}
    await fake.response(await fake.submit_modal(form["data"], comment, guild=bare, via=COMMANDS_ONLY))
    proposal = await fake.response(await fake.command("glosario proponer", guild=bare, via=COMMANDS_ONLY))
    assert proposal["data"]["content"] == t("es", "needs_server")
    await harness.flushed(bot)
    assert harness.rows("SELECT guild_id FROM misses") == [(0,)]
    assert harness.rows("SELECT guild_id, comment FROM feedback") == [(0, "falta un ejemplo")]


@pytest.mark.parametrize("via", [USER_IN_SERVER, COMMANDS_ONLY, DM, GROUP_DM])
async def test_a_servers_commands_anywhere_else_are_a_polite_refusal_in_the_members_language(fake, bot, harness, via):
    """Discord offers them only through the bot's server install (integration_types 0, context 0); one that comes
    from anywhere else (a server with the commands but not the bot, a registration of an older version) is told,
    privately and in the member's language, that it needs a server the bot is in: no error, and nothing is kept for
    that server, even at the word of one of its moderators."""
    bot.guard.rate = RateLimit(1000, 20)
    guild = elsewhere() if via in (USER_IN_SERVER, COMMANDS_ONLY) else None
    channel = ChannelRef((guild or fake.guilds[0]).channel_ids[0])
    for locale, lang in (("es-ES", "es"), ("en-US", "en")):
        for name, options, key in (
            ("glosario-admin pendientes", None, "needs_server"),
            ("glosario-admin rol-editor", {"rol": RoleRef(int(snowflake()))}, "needs_server"),
            ("glosario-admin diario configurar", {"canal": channel, "hora": "09:00"}, "needs_server"),
            ("termino-del-dia", None, "daily_needs_server"),
        ):
            iid = await fake.command(name, options, guild=guild, via=via, permissions=MODERATOR, locale=locale)
            refused = await fake.response(iid)
            assert refused["type"] == 4 and refused["data"]["content"] == t(lang, key), (name, refused)
            assert refused["data"]["flags"] & EPHEMERAL
    await harness.flushed(bot)
    for table in ("guild_settings", "daily_posts", "daily_picks"):
        assert harness.rows(f"SELECT * FROM {table}") == [], table


async def test_an_interaction_that_says_it_comes_from_a_group_dm_is_never_a_servers(fake, bot, harness):
    """A payload naming the bot's server and its server install, but whose context says a group DM (no such thing
    comes from Discord): what it leaves is personal, and a moderator's permissions in it moderate nothing."""
    bot.guard.rate = RateLimit(1000, 20)

    async def sent_from_a_group_dm(name: str, options: dict | None = None) -> dict:
        registered = fake.find_command(name.split()[0])
        opts = [{"name": key, "type": 3, "value": value} for key, value in (options or {}).items()]
        for part in reversed(name.split()[1:]):
            opts = [{"name": part, "type": 1, "options": opts}]
        data = {"id": registered["id"], "name": name.split()[0], "type": 1, "options": opts}
        payload = fake._interaction(2, data, guild=None, user_id=111, locale="es-ES", permissions=MODERATOR)
        payload["context"] = 2
        payload["channel"] = {"id": payload["channel_id"], "type": 3, "recipients": [payload["member"]["user"]]}
        return await fake.response(await fake._dispatch(payload))

    miss = await sent_from_a_group_dm("termino", {"termino": "aprendizaje por refuerzo"})
    assert miss["data"]["content"] == t("es", "not_found", query="aprendizaje por refuerzo")
    assert (await sent_from_a_group_dm("termino", {"termino": "horovod"}))["data"]["flags"] & EPHEMERAL
    listing = await sent_from_a_group_dm("glosario-admin pendientes")
    assert listing["data"]["content"] == t("es", "needs_server")
    await harness.flushed(bot)
    assert harness.rows("SELECT guild_id FROM misses") == [(0,)]


@pytest.mark.parametrize("via", [USER_IN_SERVER, DM, GROUP_DM])
async def test_help_elsewhere_lists_only_what_can_be_used_there(fake, bot, via):
    guild = elsewhere() if via == USER_IN_SERVER else None
    for locale, lang, absent in (("es-ES", "es", "/termino-del-dia"), ("en-US", "en", "/term-of-the-day")):
        help_card = await fake.response(await fake.command("glosario ayuda", guild=guild, via=via, locale=locale))
        body = help_card["data"]["embeds"][0]["description"]
        assert body == t(lang, "help_body_elsewhere") and absent not in body
    at_home = await fake.response(await fake.command("glosario ayuda", via=SERVER))
    assert at_home["data"]["embeds"][0]["description"] == t("es", "help_body")


async def test_a_servers_own_terms_stay_in_that_server(fake, bot, harness):
    from tests.discord_app.test_server_terms import FORM, open_form, submit

    await submit(fake, await open_form(fake), FORM)
    assert (await fake.response(await fake.command("termino", {"termino": "nebula"})))["data"].get("embeds")
    for via, guild in ((USER_IN_SERVER, elsewhere()), (DM, None)):
        away = await fake.response(await fake.command("termino", {"termino": "nebula"}, guild=guild, via=via))
        assert "todavía no está" in away["data"]["content"]


async def test_glosario_and_explain_work_in_a_dm_and_proposing_needs_a_server(fake, bot):
    found = await fake.response(await fake.command("glosario buscar", {"texto": "uber mpi"}, via=DM))
    assert "Horovod" in str(found["data"])
    random_card = await fake.response(await fake.command("glosario aleatorio", via=GROUP_DM))
    assert random_card["data"]["embeds"] and random_card["data"]["flags"] & EPHEMERAL
    explained = await fake.response(await fake.message_command("Explicar términos", "usamos Horovod y Ray", via=DM))
    assert "Horovod" in str(explained["data"]) and explained["data"]["flags"] & EPHEMERAL
    refused = await fake.response(await fake.command("glosario proponer", via=DM))
    assert refused["data"]["content"] == t("es", "needs_server")
    in_server = await fake.response(await fake.command("glosario proponer", via=SERVER))
    assert in_server["type"] == 9  # the form, where the bot and its editors are
