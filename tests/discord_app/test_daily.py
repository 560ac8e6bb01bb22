"""Term of the day end to end: configure, post once (even across restarts), permissions, status."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest

from bot.app.daily.posts import CLAIM_LEASE
from bot.core.daily import Schedule
from bot.discord_app.kit.i18n import long_date, t
from tests.fake_discord.server import (
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    ChannelRef,
    Guild,
    snowflake,
)
from tests.helpers import eventually

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # 13:00 in Madrid: a 09:00 slot has passed today
MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_GUILD | MANAGE_MESSAGES)
EPHEMERAL = 64


def cog(bot):
    return bot.get_cog("DailyCog")


async def configure(fake, channel_id, *, guild=None, permissions=MODERATOR, hora="09:00", zona="Europe/Madrid"):
    iid = await fake.command(
        "glosario-admin diario configurar",
        {"canal": ChannelRef(channel_id), "hora": hora, "zona": zona},
        guild=guild,
        permissions=permissions,
    )
    return (await fake.response(iid))["data"]


async def test_registration_has_the_admin_group_with_manage_messages_as_default(fake, bot):
    admin = fake.find_command("glosario-admin")
    assert int(admin["default_member_permissions"]) == MANAGE_MESSAGES
    (diario,) = [o for o in admin["options"] if o["name"] == "diario"]
    assert diario["type"] == 2 and {o["name"] for o in diario["options"]} == {"configurar", "desactivar", "estado"}
    assert fake.find_command("termino-del-dia")


async def test_configure_after_todays_time_posts_once_and_agrees_with_the_command(fake, harness):
    bot = await harness.start(clock=lambda: NOW)
    channel = fake.guilds[0].channel_ids[1]
    data = await configure(fake, channel)
    assert data["flags"] & EPHEMERAL
    assert f"<#{channel}>" in data["content"] and "09:00 (Europe/Madrid)" in data["content"]
    assert "<t:" in data["content"]  # the next post as a Discord timestamp
    await fake.wait_for(lambda: len(fake.channel_messages.get(str(channel), [])) == 1)
    (post,) = fake.channel_messages[str(channel)]
    embed = post["embeds"][0]
    assert embed["author"]["name"] == "Término del día · miércoles, 2 de diciembre de 2026"
    await cog(bot).tick()  # a later tick the same day posts nothing more
    assert len(fake.channel_messages[str(channel)]) == 1
    today = (await fake.response(await fake.command("termino-del-dia")))["data"]["embeds"][0]
    assert today["title"] == embed["title"]
    await harness.stop(bot)
    again = await harness.start(clock=lambda: NOW)  # a restart after the slot
    await cog(again).tick()  # (a post would have been sent before the tick returned)
    assert len(fake.channel_messages[str(channel)]) == 1
    assert not [path for method, path, _ in fake.requests if method == "GET" and path.endswith("/messages")]  # none
    status = (await fake.response(await fake.command("glosario-admin diario estado", permissions=MODERATOR)))["data"]
    assert "activado" in status["content"] and "miércoles, 2 de diciembre de 2026" in status["content"]


async def test_missing_permission_is_named_and_nothing_is_scheduled(fake, harness):
    guild = fake.guilds[0]
    channel = guild.channel_ids[1]
    guild.deny_everyone(channel, SEND_MESSAGES)  # the bot only has @everyone: it cannot write there
    bot = await harness.start(clock=lambda: NOW)
    data = await configure(fake, channel)
    assert "me falta «Enviar mensajes»" in data["content"]
    status = (await fake.response(await fake.command("glosario-admin diario estado", permissions=MODERATOR)))["data"]
    assert "no está configurado" in status["content"]
    assert str(channel) not in fake.channel_messages
    del bot


async def test_members_cannot_configure(fake, bot):
    data = await configure(fake, fake.guilds[0].channel_ids[1], permissions=MEMBER_PERMISSIONS)
    assert "es para moderadores" in data["content"] and data["flags"] & EPHEMERAL
    manage_messages_only = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
    data = await configure(fake, fake.guilds[0].channel_ids[1], permissions=manage_messages_only)
    assert "Gestionar servidor" in data["content"]
    assert not fake.channel_messages


async def test_bad_time_and_zone_are_explained(fake, bot):
    channel = fake.guilds[0].channel_ids[1]
    assert "no es una hora válida" in (await configure(fake, channel, hora="25:00"))["content"]
    assert "no es una zona horaria" in (await configure(fake, channel, zona="Marte/Olimpo"))["content"]
    reply = await fake.response(await fake.autocomplete("glosario-admin diario configurar", "zona", "europe/mad"))
    assert reply["type"] == 8
    assert reply["data"]["choices"][0] == {"name": "Europe/Madrid", "value": "Europe/Madrid"}


async def test_a_deleted_channel_is_reported_and_other_servers_still_get_their_post(fake, harness):
    other = Guild(id=int(snowflake()), name="Otro equipo")
    fake.guilds.append(other)
    clock = {"now": datetime(2026, 12, 2, 7, 0, tzinfo=UTC)}  # 08:00 in Madrid: not yet time
    bot = await harness.start(clock=lambda: clock["now"])
    first, second = fake.guilds[0], other
    await configure(fake, first.channel_ids[0], guild=first)
    await configure(fake, second.channel_ids[0], guild=second)
    assert not fake.channel_messages
    deleted = first.channel_ids[0]
    await fake.delete_channel(first, deleted)
    await eventually(lambda: bot.get_guild(first.id).get_channel(deleted) is None)  # the bot has heard of it
    clock["now"] = NOW
    await cog(bot).tick()
    assert len(fake.channel_messages[str(second.channel_ids[0])]) == 1
    for locale in ("es-ES", "en-US"):  # said in each moderator's language, whatever the server's
        iid = await fake.command("glosario-admin diario estado", guild=first, permissions=MODERATOR, locale=locale)
        status = (await fake.response(iid))["data"]["content"]
        gone = t(locale, "post_err_channel_gone", channel=f"<#{deleted}>")
        assert t(locale, "post_error_line", at=f"<t:{int(NOW.timestamp())}:f>", detail=gone) in status


async def test_a_schedule_or_a_day_the_bot_never_wrote_costs_only_itself(fake, harness, caplog):
    """Rows of an older version or a hand edit: a time zone this host does not know (read as UTC), a time that is
    no time of day (no schedule), a pick and a post whose day is not a date (left out). Each server still gets what
    can be made of its setting; the others theirs. Said once each in the log."""
    odd, no_time, fine = fake.guilds[0], Guild(id=int(snowflake())), Guild(id=int(snowflake()))
    fake.guilds += [no_time, fine]
    clock = {"now": datetime(2026, 12, 2, 7, 0, tzinfo=UTC)}  # 08:00 in Madrid: not yet time
    bot = await harness.start(clock=lambda: clock["now"])
    cog(bot).scheduler.cancel()  # the test ticks by hand (the scheduler's first look, late, would post some itself)
    for guild in (odd, no_time, fine):  # (as `configurar` keeps it; made here so that no reply is still running)
        await bot.app.daily.configure(guild.id, guild.channel_ids[0], Schedule(9, 0, "Europe/Madrid"))
    await harness.edit("UPDATE guild_settings SET daily_tz = 'Marte/Olimpo' WHERE guild_id = ?", odd.id)
    await harness.edit("INSERT INTO daily_picks VALUES (?, '2026-13-45', 'horovod', 1)", odd.id)
    await harness.edit("INSERT INTO daily_posts VALUES (?, 'ayer', 1, 'posted', 1, NULL, '2026', NULL)", odd.id)
    await harness.edit("UPDATE guild_settings SET daily_hour = 25 WHERE guild_id = ?", no_time.id)
    clock["now"] = NOW  # 12:00 UTC: 09:00 has passed in Madrid and in UTC
    await cog(bot).tick()
    assert len(fake.channel_messages[str(fine.channel_ids[0])]) == 1
    (post,) = fake.channel_messages[str(odd.channel_ids[0])]
    today = (await fake.response(await fake.command("termino-del-dia", guild=odd)))["data"]["embeds"][0]
    assert today["title"] == post["embeds"][0]["title"]
    iid = await fake.command("glosario-admin diario estado", guild=odd, permissions=MODERATOR)
    assert "09:00 (UTC)" in (await fake.response(iid))["data"]["content"]
    assert str(no_time.channel_ids[0]) not in fake.channel_messages
    iid = await fake.command("glosario-admin diario estado", guild=no_time, permissions=MODERATOR)
    assert (await fake.response(iid))["data"]["content"] == t("es", "daily_not_configured")
    await cog(bot).tick()
    said = sorted(r.getMessage() for r in caplog.records if r.name == "bot.storage.repairs")
    assert said == [
        f"database table daily_picks, guild {odd.id}, day '2026-13-45': its day is not a date (YYYY-MM-DD): left out",
        f"database table daily_posts, guild {odd.id}, day 'ayer': its day is not a date (YYYY-MM-DD): left out",
        f"database table guild_settings, guild {odd.id}: its daily time zone is unknown: UTC",
        f"database table guild_settings, guild {no_time.id}: its daily time is not a time of day: no daily post until "
        "it is set up again",
    ]


async def test_setting_it_up_again_after_todays_post_failed_posts_todays_term_at_once(fake, harness):
    clock = {"now": datetime(2026, 12, 2, 7, 0, tzinfo=UTC)}  # 08:00 in Madrid: not yet time
    bot = await harness.start(clock=lambda: clock["now"])
    guild = fake.guilds[0]
    gone, other = guild.channel_ids
    await configure(fake, gone)
    await fake.delete_channel(guild, gone)
    await eventually(lambda: bot.get_guild(guild.id).get_channel(gone) is None)
    clock["now"] = NOW
    await cog(bot).tick()
    assert harness.rows("SELECT status FROM daily_posts") == [("failed",)]  # today's problem, shown in estado
    data = await configure(fake, other)  # the moderator reads it and picks another channel
    assert f"<t:{int(NOW.timestamp())}:F>" in data["content"]  # the next post: now
    await fake.wait_for(lambda: len(fake.channel_messages.get(str(other), [])) == 1)
    await configure(fake, other)  # set up again once posted: today's term is not posted twice
    await cog(bot).tick()
    assert len(fake.channel_messages[str(other)]) == 1
    assert harness.rows("SELECT status FROM daily_posts") == [("posted",)]


async def test_the_scheduler_outlives_a_failing_database(fake, harness):
    bot = await harness.start()
    scheduler = cog(bot).scheduler
    scheduler.change_interval(seconds=0.05)
    scheduler.restart()

    async def ticked_past(count: int) -> None:  # waits for the loop's own ticks, whatever time they take
        for _ in range(400):
            if scheduler.current_loop > count:
                return
            await asyncio.sleep(0.025)
        raise AssertionError(f"the scheduler stopped ticking at {scheduler.current_loop}")

    await ticked_past(0)  # it ticks on a working database first
    await bot.app.stores.close()  # every read fails from here on
    await ticked_past(scheduler.current_loop + 2)
    assert scheduler.is_running() and not scheduler.failed()  # still ticking: the next tick will find the database


async def test_a_server_of_another_process_is_never_claimed(fake, harness):
    from bot.core.daily import Schedule

    bot = await harness.start(clock=lambda: NOW)
    foreign = 424242424242424242  # configured in the shared database, served by another process
    await bot.app.stores.daily.configure(foreign, 77, Schedule(9, 0, "Europe/Madrid"))
    await cog(bot).tick()
    assert harness.rows("SELECT COUNT(*) FROM daily_posts WHERE guild_id = ?", foreign) == [(0,)]


async def test_a_burst_of_posts_honours_discords_global_rate_limit_and_no_server_fails(fake, harness):
    from bot.app.limits import Pacer

    others = [Guild(id=int(snowflake()), name=f"Equipo {i}") for i in range(6)]
    fake.guilds.extend(others)
    clock = {"now": datetime(2026, 12, 2, 7, 0, tzinfo=UTC)}  # not yet time
    bot = await harness.start(clock=lambda: clock["now"])
    for i, guild in enumerate(fake.guilds):
        options = {"canal": ChannelRef(guild.channel_ids[0]), "hora": "09:00", "zona": "Europe/Madrid"}
        await fake.response(
            await fake.command(
                "glosario-admin diario configurar", options, guild=guild, permissions=MODERATOR, user_id=300 + i
            )
        )
    fake.global_limit = 5  # requests a second: seven posts at once are over it
    cog(bot).pacer = Pacer(1000)  # no pacing of our own: every post meets the limit
    clock["now"] = NOW
    await cog(bot).tick()
    assert fake.rate_limited > 0  # Discord said 429 (global) …
    assert fake.busiest_second <= 5
    assert all(len(fake.channel_messages[str(g.channel_ids[0])]) == 1 for g in fake.guilds)  # … and it waited
    assert harness.rows("SELECT status, COUNT(*) FROM daily_posts GROUP BY status") == [("posted", 7)]
    assert not [path for method, path, _ in fake.requests if method == "GET" and path.endswith("/messages")]  # none


async def test_a_post_claimed_by_a_process_killed_before_sending_goes_out_once_its_claim_runs_out(fake, harness):
    from bot.core.daily import Schedule

    clock = {"now": datetime(2026, 12, 2, 7, 0, tzinfo=UTC)}  # 08:00 in Madrid: not yet time
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    bot = await harness.start(clock=lambda: clock["now"])
    cog(bot).scheduler.cancel()  # the test ticks by hand
    await bot.app.stores.daily.configure(guild.id, channel, Schedule(9, 0, "Europe/Madrid"))
    clock["now"] = NOW
    assert await bot.app.daily.claim_if_due(await bot.app.daily.settings(guild.id)) is not None
    await harness.stop(bot)  # killed the moment the claim was written: nothing was sent
    again = await harness.start(clock=lambda: clock["now"])
    cog(again).scheduler.cancel()
    await cog(again).tick()  # (a post would have been sent before the tick returned)
    assert str(channel) not in fake.channel_messages  # the claim is still live: its process may be posting
    clock["now"] = NOW + CLAIM_LEASE
    await cog(again).tick()
    assert len(fake.channel_messages[str(channel)]) == 1
    clock["now"] += CLAIM_LEASE
    await cog(again).tick()
    assert len(fake.channel_messages[str(channel)]) == 1
    assert harness.rows("SELECT status FROM daily_posts") == [("posted",)]


async def test_a_post_sent_but_never_marked_where_the_bot_cannot_read_is_sent_again_with_its_nonce_and_kept_once(
    fake, harness, monkeypatch
):
    """The retry cannot look for the first try in the channel (no Read Message History): it is sent again, with the
    first try's nonce, which Discord still remembers."""
    from bot.core.daily import Schedule

    class Killed(Exception):
        pass

    async def killed(job, message_id):  # the process dies right after Discord took the message
        raise Killed

    clock = {"now": datetime(2026, 12, 2, 7, 0, tzinfo=UTC)}  # 08:00 in Madrid: not yet time
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    bot = await harness.start(clock=lambda: clock["now"])
    cog(bot).scheduler.cancel()  # the test ticks by hand
    await bot.app.stores.daily.configure(guild.id, channel, Schedule(9, 0, "Europe/Madrid"))
    clock["now"] = NOW
    monkeypatch.setattr(bot.app.daily, "posted", killed)
    with pytest.raises(Killed):
        await cog(bot).post_if_due(await bot.app.daily.settings(guild.id))
    (first,) = fake.channel_messages[str(channel)]
    await harness.stop(bot)
    guild.deny_everyone(channel, READ_MESSAGE_HISTORY)
    clock["now"] = NOW + CLAIM_LEASE
    again = await harness.start(clock=lambda: clock["now"])
    cog(again).scheduler.cancel()
    await cog(again).tick()
    assert fake.deduplicated == 1  # the retry reached Discord, with the first send's nonce …
    assert fake.channel_messages[str(channel)] == [first]  # … so Discord kept the one message
    assert harness.rows("SELECT status, message_id FROM daily_posts") == [("posted", int(first["id"]))]


async def test_a_connection_closed_mid_post_is_a_network_problem_and_the_next_look_posts_it(fake, harness, caplog):
    """aiohttp's ServerDisconnectedError (Discord, or a proxy, dropped the connection before answering) is no OSError:
    it is still the network, not a bug of the bot's, and the day is freed at once rather than when the claim runs
    out."""
    from bot.core.daily import Schedule

    caplog.set_level(logging.INFO)
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    bot = await harness.start(clock=lambda: NOW)
    cog(bot).scheduler.cancel()  # the test ticks by hand
    await bot.app.stores.daily.configure(guild.id, channel, Schedule(9, 0, "Europe/Madrid"))
    fake.channel_disconnects = 1
    await cog(bot).tick()
    assert str(channel) not in fake.channel_messages and fake.channel_disconnects == 0  # it was tried, and lost
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # not an unexpected error, no traceback
    iid = await fake.command("glosario-admin diario estado", permissions=MODERATOR)
    network = t("es", "post_err_network")
    assert (
        t("es", "post_error_line", at=f"<t:{int(NOW.timestamp())}:f>", detail=network)
        in (await fake.response(iid))["data"]["content"]
    )
    await cog(bot).tick()  # the next look, within the claim's 2 minutes: freed, so it goes out now
    assert len(fake.channel_messages[str(channel)]) == 1
    # (it looked in the channel first, once: the try the connection lost may have reached Discord)
    assert len([p for method, p, _ in fake.requests if method == "GET" and p.endswith("/messages")]) == 1
    assert harness.rows("SELECT status FROM daily_posts") == [("posted",)]
    iid = await fake.command("glosario-admin diario estado", permissions=MODERATOR, user_id=9)
    assert network not in (await fake.response(iid))["data"]["content"]  # the problem is over


def test_the_pacer_spaces_starts_evenly():
    from bot.app.limits import Pacer

    now = {"t": 100.0}
    pacer = Pacer(40, clock=lambda: now["t"])
    delays = [pacer.delay() for _ in range(5)]
    assert delays == pytest.approx([0, 0.025, 0.05, 0.075, 0.1])
    now["t"] = 200.0  # after a pause, the next start is immediate again
    assert pacer.delay() == 0


def test_a_problem_an_older_version_kept_as_text_is_shown_as_it_is():
    from bot.app.daily.posts import PostProblem, Problem
    from bot.discord_app.kit.groups import problem_text

    for kept in ("el canal <#5> ya no existe", "Discord: Missing Permissions", "400", '{"problem": "flood"}'):
        assert problem_text(kept, "en-US") == kept
    missing = PostProblem(Problem.MISSING_PERMISSIONS, 5, permissions=("send_messages",)).stored()
    perms = t("en", "perm_send_messages")
    assert problem_text(missing, "en-US") == t("en", "post_err_perms", perms=perms, channel="<#5>")


async def test_the_post_speaks_the_language_it_was_set_up_in_not_the_servers(fake, harness):
    english_server = fake.guilds[0]
    english_server.locale = "en-US"  # Discord's default for a community server nobody changed
    spanish_server = Guild(id=int(snowflake()), name="Otro equipo")
    fake.guilds.append(spanish_server)
    bot = await harness.start(clock=lambda: NOW)
    cog(bot).scheduler.cancel()  # the test ticks by hand
    day = NOW.date()
    in_spanish, in_english = english_server.channel_ids[1], spanish_server.channel_ids[1]
    data = await configure(fake, in_spanish)  # a Spanish-speaking moderator, no language given: theirs
    assert f"{t('es', 'daily_days_every_day')}, en {t('es', 'language_es')}." in data["content"]
    options = {"canal": ChannelRef(in_english), "hora": "09:00", "zona": "Europe/Madrid", "idioma": "en"}
    await fake.response(
        await fake.command("glosario-admin diario configurar", options, guild=spanish_server, permissions=MODERATOR)
    )
    await fake.wait_for(lambda: all(str(c) in fake.channel_messages for c in (in_spanish, in_english)))
    (spanish,), (english,) = (fake.channel_messages[str(c)] for c in (in_spanish, in_english))
    assert spanish["embeds"][0]["author"]["name"] == t("es", "daily_heading", date=long_date("es", day))
    assert english["embeds"][0]["author"]["name"] == t("en", "daily_heading", date=long_date("en", day))
    readers = (("es-ES", english_server, "language_es"), ("en-US", spanish_server, "language_en"))
    for locale, server, language in readers:
        status = await fake.response(
            await fake.command("glosario-admin diario estado", guild=server, permissions=MODERATOR, locale=locale)
        )
        content, name = status["data"]["content"], t(locale, language)
        assert name in content and t(locale, "post_language_server", language=name) not in content  # (chosen)


async def test_a_post_set_up_before_its_language_was_kept_follows_the_servers_locale(fake, harness):
    from bot.core.daily import Schedule

    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    guild.locale = "en-US"
    bot = await harness.start(clock=lambda: NOW)
    cog(bot).scheduler.cancel()
    await bot.app.stores.daily.configure(guild.id, channel, Schedule(9, 0, "Europe/Madrid"))  # (no language kept)
    await cog(bot).tick()
    (post,) = fake.channel_messages[str(channel)]
    assert post["embeds"][0]["author"]["name"] == t("en", "daily_heading", date=long_date("en", NOW.date()))
    status = await fake.response(await fake.command("glosario-admin diario estado", permissions=MODERATOR))
    said = t("es", "post_language_server", language=t("es", "language_en"))
    assert said in status["data"]["content"]
