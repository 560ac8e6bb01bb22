"""The moderators' weekly digest end to end: configured in Discord, posted once a week with its chart."""

from __future__ import annotations

import io
import itertools
import logging
from datetime import UTC, datetime, timedelta

from PIL import Image

from bot.app.daily.posts import CLAIM_LEASE
from bot.app.insights.chart import HEIGHT, LINE, WIDTH
from bot.discord_app.kit.i18n import t
from tests.fake_discord.server import (
    ATTACH_FILES,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    ChannelRef,
    Guild,
    snowflake,
)
from tests.helpers import eventually

MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
EPHEMERAL = 64
ADMIN = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES | MANAGE_GUILD)


async def test_the_digest_is_posted_once_a_week_on_its_day_with_the_chart(fake, harness):
    clock = {"now": MONDAY - timedelta(days=1)}  # a Sunday
    bot = await harness.start(clock=lambda: clock["now"])
    channel = fake.guilds[0].channel_ids[0]
    refused = await fake.response(
        await fake.command(
            "glosario-admin resumen configurar", {"canal": ChannelRef(channel)}, permissions=MEMBER_PERMISSIONS
        )
    )
    assert "es para moderadores" in refused["data"]["content"]
    done = await fake.response(
        await fake.command(
            "glosario-admin resumen configurar", {"canal": ChannelRef(channel), "dia": 0}, permissions=ADMIN
        )
    )
    assert "cada lunes (UTC)" in done["data"]["content"]
    for query in ("horovod", "ray", "computación cuántica", "computacion cuantica", "blockchain"):
        await fake.response(await fake.command("termino", {"termino": query}, user_id=7))
    bot.app.lookups.flush()
    await harness.flushed(bot)
    cog = bot.get_cog("DigestCog")
    await cog.tick()
    assert str(channel) not in fake.channel_messages  # not its day
    clock["now"] = MONDAY
    await cog.tick()
    await cog.tick()  # the same week again: nothing more
    (post,) = fake.channel_messages[str(channel)]
    (embed,) = post["embeds"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert embed["title"] == "Resumen semanal del glosario · 2026-W49"
    assert fields["Consultas nuevas sin respuesta"] == "2"
    assert fields["Las más pedidas (abiertas)"].splitlines()[0] == "«computacion cuantica» — 2"
    assert fields["Tasa de respuesta (7 días)"].startswith("40 %")
    assert embed["image"]["url"] == "attachment://tendencia.png"
    chart = Image.open(io.BytesIO(post["_files"]["tendencia.png"]))  # the answer-rate chart, Sunday's rate on it
    assert chart.format == "PNG" and chart.size == (WIDTH, HEIGHT)
    assert LINE in {color for _, color in chart.convert("RGB").getcolors(WIDTH * HEIGHT)}
    clock["now"] = MONDAY + timedelta(days=7)
    await cog.tick()
    assert len(fake.channel_messages[str(channel)]) == 2  # the next week's
    assert not [path for method, path, _ in fake.requests if method == "GET" and path.endswith("/messages")]  # none


async def test_a_digest_setting_or_a_days_counts_the_bot_never_wrote_cost_only_themselves(fake, harness, caplog):
    """Rows of an older version or a hand edit: a weekday that is no day of the week (read as Monday, as the command
    sets none other), lookup counts of a day that is not a date (left out of the trend). The digest still goes out,
    in that server and the others; `resumen estado` answers. Said once each in the log."""
    odd, fine = fake.guilds[0], Guild(id=int(snowflake()))
    fake.guilds.append(fine)
    bot = await harness.start(clock=lambda: MONDAY)
    bot.get_cog("DigestCog").scheduler.cancel()  # the test ticks by hand
    for guild in (odd, fine):  # (as `configurar` keeps it; made here so that no reply is still running)
        await bot.app.digests.configure(guild.id, guild.channel_ids[0], 0, "es")
    await harness.edit("UPDATE guild_settings SET digest_weekday = NULL WHERE guild_id = ?", odd.id)
    await harness.edit("INSERT INTO lookups VALUES (?, '2026-99-99', 'found', 'horovod', 3)", odd.id)
    await bot.get_cog("DigestCog").tick()
    for guild in (odd, fine):
        (post,) = fake.channel_messages[str(guild.channel_ids[0])]
        assert post["embeds"][0]["title"] == "Resumen semanal del glosario · 2026-W49"
    iid = await fake.command("glosario-admin resumen estado", guild=odd, permissions=ADMIN)
    assert "lunes" in (await fake.response(iid))["data"]["content"]
    said = sorted(r.getMessage() for r in caplog.records if r.name == "bot.storage.repairs")
    assert said == [
        f"database table guild_settings, guild {odd.id}: its digest weekday is not a day of the week: Monday",
        f"database table lookups, guild {odd.id}, day '2026-99-99': its day is not a date (YYYY-MM-DD): left out",
    ]


async def test_a_channel_the_bot_cannot_post_in_is_named_and_a_refusal_is_not_sent_again_all_day(fake, harness):
    guild = fake.guilds[0]
    closed, channel = guild.channel_ids
    guild.deny_everyone(closed, ATTACH_FILES)  # the chart could not go with the digest
    clock = {"now": MONDAY}
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    # The test ticks by hand. A first look of the scheduler's own, late on a busy machine, claimed the week at 09:00
    # and was still sending when the clock moved on ten minutes: the test's next tick took the claim over as a dead
    # process's and sent it again.
    cog.scheduler.cancel()
    refused = await fake.response(
        await fake.command("glosario-admin resumen configurar", {"canal": ChannelRef(closed)}, permissions=ADMIN)
    )
    perms = t("es", "perm_attach_files")
    assert refused["data"]["content"] == t("es", "post_missing_perms", channel=f"<#{closed}>", perms=perms)
    assert harness.rows("SELECT digest_channel_id FROM guild_settings WHERE digest_channel_id IS NOT NULL") == []
    await fake.response(
        await fake.command("glosario-admin resumen configurar", {"canal": ChannelRef(channel)}, permissions=ADMIN)
    )
    fake.channel_errors = [403, 403, 403]  # Discord refuses it all the same (the permission taken away since)
    for _ in range(3):  # the ticks of that Monday
        await cog.tick()
        clock["now"] += timedelta(minutes=10)
    posts = [path for method, path, _ in fake.requests if method == "POST" and path == f"/channels/{channel}/messages"]
    assert len(posts) == 1  # refused once: not asked again every ten minutes all day


async def test_the_digest_speaks_the_language_it_was_set_up_in_and_an_older_setting_the_servers(fake, harness):
    chosen, older = fake.guilds[0], Guild(id=int(snowflake()), name="Otro equipo")
    fake.guilds.append(older)
    chosen.locale = older.locale = "en-US"  # Discord's default for a community server nobody changed
    bot = await harness.start(clock=lambda: MONDAY)
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()  # the test ticks by hand
    done = await fake.response(
        await fake.command(
            "glosario-admin resumen configurar", {"canal": ChannelRef(chosen.channel_ids[0])}, permissions=ADMIN
        )
    )  # a Spanish-speaking moderator, no language given: theirs
    assert done["data"]["content"].endswith(f", en {t('es', 'language_es')}.")
    await bot.app.stores.digests.configure(older.id, older.channel_ids[0], 0)  # as before languages were kept
    await cog.tick()
    (spanish,) = fake.channel_messages[str(chosen.channel_ids[0])]
    (english,) = fake.channel_messages[str(older.channel_ids[0])]
    assert spanish["embeds"][0]["title"] == t("es", "digest_title", week="2026-W49")
    assert english["embeds"][0]["title"] == t("en", "digest_title", week="2026-W49")
    options = {"canal": ChannelRef(chosen.channel_ids[0]), "idioma": "en"}  # chosen: whoever sets it up
    done = await fake.response(await fake.command("glosario-admin resumen configurar", options, permissions=ADMIN))
    assert done["data"]["content"].endswith(f", en {t('es', 'language_en')}.")
    assert harness.rows("SELECT digest_language FROM guild_settings WHERE guild_id = ?", chosen.id) == [("en",)]


def titles(fake, channel: int) -> list[str]:
    return [post["embeds"][0]["title"] for post in fake.channel_messages.get(str(channel), [])]


async def test_a_digest_missed_on_its_day_is_posted_later_that_week_once_and_an_older_week_never(fake, harness):
    channel = fake.guilds[0].channel_ids[0]
    clock = {"now": MONDAY - timedelta(days=1)}  # Sunday: set up for Mondays
    bot = await harness.start(clock=lambda: clock["now"])
    options = {"canal": ChannelRef(channel), "dia": 0}
    await fake.response(await fake.command("glosario-admin resumen configurar", options, permissions=ADMIN))
    await harness.stop(bot)  # … and no bot is up all Monday
    clock["now"] = MONDAY + timedelta(days=1, hours=3)  # Tuesday
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()  # the test ticks by hand
    await cog.tick()
    assert titles(fake, channel) == [t("es", "digest_title", week="2026-W49")]  # late, at the first look
    for days in (1, 4, 6):  # the rest of that week (Sunday's last hours too): posted once
        clock["now"] = MONDAY + timedelta(days=days, hours=14)
        await cog.tick()
    assert len(titles(fake, channel)) == 1
    clock["now"] = MONDAY + timedelta(days=16)  # back after a long outage: two Mondays missed (weeks 50 and 51)
    await cog.tick()
    await cog.tick()
    assert titles(fake, channel)[1:] == [t("es", "digest_title", week="2026-W51")]  # only this week's, once


async def test_a_week_claimed_by_a_process_killed_before_sending_is_posted_once_when_its_claim_runs_out(fake, harness):
    channel = fake.guilds[0].channel_ids[0]
    clock = {"now": MONDAY}
    bot = await harness.start(clock=lambda: clock["now"])
    bot.get_cog("DigestCog").scheduler.cancel()  # the test ticks by hand
    options = {"canal": ChannelRef(channel), "dia": 0}
    await fake.response(await fake.command("glosario-admin resumen configurar", options, permissions=ADMIN))
    settings = await bot.app.digests.settings(fake.guilds[0].id)
    killed = await bot.app.digests.claim_if_due(settings)  # this week's, claimed …
    assert killed is not None
    await harness.stop(bot)  # … by a process killed before it sent anything
    bot = await harness.start(clock=lambda: clock["now"])  # back at once
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()
    clock["now"] += CLAIM_LEASE / 2
    await cog.tick()
    assert titles(fake, channel) == []  # the claim still holds: it might have been sending
    clock["now"] += CLAIM_LEASE / 2
    await cog.tick()
    await cog.tick()
    assert titles(fake, channel) == [t("es", "digest_title", week="2026-W49")]  # not lost: posted, once
    (post,) = [
        body for method, path, body in fake.requests if method == "POST" and path.endswith(f"{channel}/messages")
    ]
    assert post["enforce_nonce"] and post["nonce"] == killed.nonce  # what the killed one would have sent


async def test_a_digest_turned_on_after_its_day_waits_for_the_next_week(fake, harness):
    channel = fake.guilds[0].channel_ids[0]
    clock = {"now": MONDAY + timedelta(days=2)}  # Wednesday: set up for Mondays
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()
    options = {"canal": ChannelRef(channel), "dia": 0}
    await fake.response(await fake.command("glosario-admin resumen configurar", options, permissions=ADMIN))
    for days in (2, 3, 6):
        clock["now"] = MONDAY + timedelta(days=days, hours=1)
        await cog.tick()
    assert titles(fake, channel) == []  # this week's Monday came before it was turned on: no late digest
    options = {"canal": ChannelRef(channel), "dia": 0, "idioma": "en"}  # changed since: still not owed
    await fake.response(await fake.command("glosario-admin resumen configurar", options, permissions=ADMIN))
    await cog.tick()
    assert titles(fake, channel) == []
    clock["now"] = MONDAY + timedelta(days=7)
    await cog.tick()
    assert titles(fake, channel) == [t("en", "digest_title", week="2026-W50")]


MODERATORS = itertools.count(500)  # (a new moderator each time: one asking this often would be told to wait)


async def status(fake, *, permissions=ADMIN, locale="es-ES") -> dict:
    iid = await fake.command(
        "glosario-admin resumen estado", permissions=permissions, locale=locale, user_id=next(MODERATORS)
    )
    return (await fake.response(iid))["data"]


async def test_resumen_estado_says_where_when_in_which_language_the_last_post_and_the_last_problem(fake, harness):
    guild = fake.guilds[0]
    first, second = guild.channel_ids
    clock = {"now": MONDAY}
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()  # the test ticks by hand
    assert "es para moderadores" in (await status(fake, permissions=MEMBER_PERMISSIONS))["content"]
    manage_messages_only = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
    assert t("es", "admin_denied_guild") in (await status(fake, permissions=manage_messages_only))["content"]
    none = await status(fake)
    assert none["content"] == t("es", "digest_status_none") and none["flags"] & EPHEMERAL
    await fake.response(
        await fake.command("glosario-admin resumen configurar", {"canal": ChannelRef(first)}, permissions=ADMIN)
    )
    said = {"channel": f"<#{first}>", "day": t("es", "weekday_0"), "language": t("es", "language_es")}
    assert (await status(fake))["content"] == t("es", "digest_status", **said, last=t("es", "post_last_none"))
    await cog.tick()
    posted = f"<t:{int(MONDAY.timestamp())}:f>"
    shown = await status(fake)
    assert shown["content"] == t("es", "digest_status", **said, last=posted) and shown["flags"] & EPHEMERAL
    await fake.delete_channel(guild, first)
    await eventually(lambda: bot.get_guild(guild.id).get_channel(first) is None)  # the bot has heard of it
    clock["now"] = MONDAY + timedelta(days=7)
    await cog.tick()
    for locale in ("es-ES", "en-US"):  # each moderator in their own language, whatever the digest's
        said = {"channel": f"<#{first}>", "day": t(locale, "weekday_0"), "language": t(locale, "language_es")}
        gone = t(locale, "post_err_channel_gone", channel=f"<#{first}>")
        problem = t(locale, "post_error_line", at=f"<t:{int(clock['now'].timestamp())}:f>", detail=gone)
        expected = t(locale, "digest_status", **said, last=posted) + problem
        assert (await status(fake, locale=locale))["content"] == expected
    await cog.tick()  # that week's is not tried again by itself …
    await fake.response(
        await fake.command("glosario-admin resumen configurar", {"canal": ChannelRef(second)}, permissions=ADMIN)
    )
    await cog.tick()  # … but setting it up again (another channel) is how a moderator fixes it: posted at once
    await cog.tick()
    assert titles(fake, second) == [t("es", "digest_title", week="2026-W50")]
    said = {"channel": f"<#{second}>", "day": t("es", "weekday_0"), "language": t("es", "language_es")}
    posted = f"<t:{int(clock['now'].timestamp())}:f>"
    assert (await status(fake))["content"] == t("es", "digest_status", **said, last=posted)  # the problem is over


async def test_a_channel_the_bot_lost_a_permission_in_is_the_last_problem_until_the_digest_goes_out(fake, harness):
    guild = fake.guilds[0]
    channel = guild.channel_ids[1]
    clock = {"now": MONDAY - timedelta(days=1)}
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()
    await fake.response(
        await fake.command("glosario-admin resumen configurar", {"canal": ChannelRef(channel)}, permissions=ADMIN)
    )
    await harness.stop(bot)
    guild.deny_everyone(channel, ATTACH_FILES)  # taken away while the bot was down
    clock["now"] = MONDAY
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()
    await cog.tick()
    missing = t("es", "post_err_perms", perms=t("es", "perm_attach_files"), channel=f"<#{channel}>")
    assert missing in (await status(fake))["content"]
    assert titles(fake, channel) == []
    await harness.stop(bot)
    guild.overwrites.clear()  # given back: the next look posts it, and the problem is over
    clock["now"] = MONDAY + timedelta(hours=1)
    bot = await harness.start(clock=lambda: clock["now"])
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()
    await cog.tick()
    assert titles(fake, channel) == [t("es", "digest_title", week="2026-W49")]
    said = {"channel": f"<#{channel}>", "day": t("es", "weekday_0"), "language": t("es", "language_es")}
    posted = f"<t:{int(clock['now'].timestamp())}:f>"
    assert (await status(fake))["content"] == t("es", "digest_status", **said, last=posted)  # no problem line


async def set_up_on_monday(fake, harness):
    """A bot whose clock says Monday, its digest set up (in Spanish, a week ago) for Mondays in the first server's
    first channel; the scheduler stopped: the test ticks by hand. Its cog and the channel."""
    guild = fake.guilds[0]
    channel = guild.channel_ids[0]
    bot = await harness.start(clock=lambda: MONDAY)
    cog = bot.get_cog("DigestCog")
    cog.scheduler.cancel()
    await bot.app.stores.digests.configure(guild.id, channel, 0, "es", "2026-11-23T09:00:00+00:00")
    return cog, channel


async def test_a_connection_closed_mid_post_is_a_network_problem_and_the_next_look_posts_it(fake, harness, caplog):
    """aiohttp's ServerDisconnectedError (no OSError) under the send: the network's trouble, kept for `estado`, and
    the week freed for the next look, not left claimed and logged as a bug."""
    caplog.set_level(logging.INFO)
    cog, channel = await set_up_on_monday(fake, harness)
    fake.channel_disconnects = 1
    await cog.tick()
    assert titles(fake, channel) == [] and fake.channel_disconnects == 0  # it was tried, and lost
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # not an unexpected error, no traceback
    network = t("es", "post_err_network")
    line = t("es", "post_error_line", at=f"<t:{int(MONDAY.timestamp())}:f>", detail=network)
    assert line in (await status(fake))["content"]
    await cog.tick()  # the next look, within the claim's 2 minutes: freed, so it goes out now
    await cog.tick()
    assert titles(fake, channel) == [t("es", "digest_title", week="2026-W49")]
    assert network not in (await status(fake))["content"]  # the problem is over


async def test_an_error_page_discord_answered_with_is_shown_cut_in_resumen_estado(fake, harness):
    """Discord's own words are kept as the digest's problem; behind Cloudflare a 5xx (or a refusal) may come as a
    whole HTML page, which `estado` shows cut: its reply stays within Discord's 2,000 characters."""
    cog, _ = await set_up_on_monday(fake, harness)
    page = "<html><head><title>503 Service Temporarily Unavailable</title></head>" + "<p>cloudflare</p>" * 300
    fake.channel_errors = [(503, page)]
    await cog.tick()
    shown = (await status(fake))["content"]
    assert len(shown) <= 2000 and "503" in shown and "Service Temporarily Unavailable" in shown
    assert not fake.refused
