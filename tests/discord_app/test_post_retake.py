"""A scheduled post whose claim was taken over (its process died after claiming it) end to end: the term of the day
and the weekly digest look in the channel for what the dead process may have sent before sending again, once, and
only then; a channel they cannot read gets the post as before, and the log says why."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import discord
import pytest
from discord.utils import time_snowflake

from bot.app.daily.posts import CLAIM_LEASE
from bot.core.daily import Schedule
from bot.discord_app.kit.groups import HISTORY_LIMIT, HISTORY_MARGIN
from bot.discord_app.kit.i18n import t
from tests.discord_app.conftest import Harness
from tests.fake_discord.server import NONCE_WINDOW, READ_MESSAGE_HISTORY

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # 13:00 in Madrid: a 09:00 slot has passed today
MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LATER = timedelta(seconds=NONCE_WINDOW) + timedelta(minutes=10)  # back after Discord forgot the nonce


@pytest.fixture(params=["sqlite", "postgresql"])
async def either(request, fake, tmp_path):
    """The harness with its bots on either store: a SQLite file, or PostgreSQL (the claims' SQL is shared)."""
    h = Harness(fake, tmp_path, request.getfixturevalue("postgres_url") if request.param == "postgresql" else None)
    yield h
    await h.stop_all()


class Killed(Exception):
    """The process dies right after Discord took the message, before it is marked posted."""


async def killed(*args, **kwargs):
    raise Killed


def posts(fake, channel: int) -> list[dict]:
    """What the bot asked Discord to post in a channel."""
    return [
        body for method, path, body in fake.requests if method == "POST" and path == f"/channels/{channel}/messages"
    ]


def reads(fake, channel: int) -> list[dict]:
    """The bot's reads of a channel's messages (their queries)."""
    return [
        query for method, path, query in fake.requests if method == "GET" and path == f"/channels/{channel}/messages"
    ]


def said(caplog) -> list[str]:
    """What the posting cogs logged at INFO."""
    return [
        r.getMessage() for r in caplog.records if r.name == "bot.discord_app.kit.groups" and r.levelno == logging.INFO
    ]


def warned(caplog) -> list[str]:
    """What the Discord layer logged as a warning or worse (a post's problem, a bug)."""
    return [
        r.getMessage() for r in caplog.records if r.name.startswith("bot.discord_app") and r.levelno >= logging.WARNING
    ]


async def daily_bot(harness, clock, channel: int):
    """A bot whose term of the day is set up for 09:00 in Madrid in `channel` of the first server; the test ticks."""
    bot = await harness.start(clock=lambda: clock["now"])
    bot.get_cog("DailyCog").scheduler.cancel()
    await bot.app.stores.daily.configure(harness.fake.guilds[0].id, channel, Schedule(9, 0, "Europe/Madrid"))
    return bot


async def digest_bot(harness, clock, channel: int):
    """A bot whose digest is set up (in Spanish, a week ago) for Mondays in `channel` of the first server."""
    bot = await harness.start(clock=lambda: clock["now"])
    bot.get_cog("DigestCog").scheduler.cancel()
    await bot.app.stores.digests.configure(harness.fake.guilds[0].id, channel, 0, "es", "2026-11-23T09:00:00+00:00")
    return bot


async def test_a_daily_post_sent_but_never_marked_is_not_sent_again_by_the_bot_back_later(
    fake, either, caplog, monkeypatch
):
    harness = either
    caplog.set_level(logging.INFO)
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    clock = {"now": NOW}
    bot = await daily_bot(harness, clock, channel)
    monkeypatch.setattr(bot.app.daily, "posted", killed)
    with pytest.raises(Killed):
        await bot.get_cog("DailyCog").post_if_due(await bot.app.daily.settings(guild.id))
    (first,) = fake.channel_messages[str(channel)]
    await harness.stop(bot)
    fake.member_says(channel, "¡buenos días!")  # the channel goes on meanwhile
    clock["now"] += LATER
    again = await harness.start(clock=lambda: clock["now"])
    cog = again.get_cog("DailyCog")
    cog.scheduler.cancel()
    await cog.tick()
    assert fake.channel_messages[str(channel)] == [first] and len(posts(fake, channel)) == 1  # not sent again
    assert harness.rows("SELECT status, message_id FROM daily_posts") == [("posted", int(first["id"]))]
    (read,) = reads(fake, channel)  # one short read, of what came after a minute before the claim that ran out
    assert (int(read["limit"]), int(read["after"])) == (HISTORY_LIMIT, time_snowflake(NOW - HISTORY_MARGIN, high=True))
    assert any(first["id"] in line for line in said(caplog))
    await cog.tick()
    assert len(reads(fake, channel)) == 1 and len(posts(fake, channel)) == 1  # done for the day


async def test_a_daily_post_that_never_reached_discord_is_sent_and_a_members_card_is_not_taken_for_it(fake, harness):
    """/termino-del-dia answers with the very card of the day, heading included, in the channel where a member used
    it: the bot's reply to a command, not its post."""
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[0]  # where the fake's members use commands
    clock = {"now": NOW}
    bot = await daily_bot(harness, clock, channel)
    assert await bot.app.daily.claim_if_due(await bot.app.daily.settings(guild.id)) is not None
    await harness.stop(bot)  # killed the moment the claim was written: nothing was sent
    again = await harness.start(clock=lambda: clock["now"])
    cog = again.get_cog("DailyCog")
    cog.scheduler.cancel()
    clock["now"] += CLAIM_LEASE / 2
    card = (await fake.response(await fake.command("termino-del-dia")))["data"]["embeds"][0]
    clock["now"] = NOW + CLAIM_LEASE
    await cog.tick()
    (post,) = fake.channel_messages[str(channel)]
    assert post["embeds"][0]["author"] == card["author"]  # the same heading: only being a reply tells them apart
    assert len(reads(fake, channel)) == 1
    assert harness.rows("SELECT status, message_id FROM daily_posts") == [("posted", int(post["id"]))]


@pytest.mark.parametrize("unreadable", ["permission", "refused", "network"])
async def test_a_daily_post_in_a_channel_it_cannot_read_is_sent_once_and_the_log_says_why(
    fake, harness, caplog, unreadable
):
    caplog.set_level(logging.INFO)
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    clock = {"now": NOW}
    bot = await daily_bot(harness, clock, channel)
    assert await bot.app.daily.claim_if_due(await bot.app.daily.settings(guild.id)) is not None
    await harness.stop(bot)
    if unreadable == "permission":
        guild.deny_everyone(channel, READ_MESSAGE_HISTORY)  # (Discord would answer an empty list)
    elif unreadable == "refused":
        fake.history_errors = [403]
    else:
        fake.history_disconnects = 2  # (aiohttp tries a GET again once on a connection closed under it)
    clock["now"] += CLAIM_LEASE
    again = await harness.start(clock=lambda: clock["now"])
    cog = again.get_cog("DailyCog")
    cog.scheduler.cancel()
    await cog.tick()
    assert len(posts(fake, channel)) == 1 and len(fake.channel_messages[str(channel)]) == 1
    assert harness.rows("SELECT status FROM daily_posts") == [("posted",)]
    assert len(reads(fake, channel)) == {"permission": 0, "refused": 1, "network": 2}[unreadable]  # (0: vain)
    why = {"permission": "Read Message History", "refused": "403", "network": "could not be reached"}[unreadable]
    assert [line for line in said(caplog) if why in line]
    assert warned(caplog) == []  # not a problem of the post's


async def test_the_weekly_digest_sent_but_never_marked_is_not_sent_again_at_a_later_look(
    fake, either, caplog, monkeypatch
):
    harness = either
    caplog.set_level(logging.INFO)
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[0]
    clock = {"now": MONDAY}
    bot = await digest_bot(harness, clock, channel)
    monkeypatch.setattr(bot.app.digests, "posted", killed)
    with pytest.raises(Killed):
        await bot.get_cog("DigestCog").post_if_due(await bot.app.digests.settings(guild.id))
    (first,) = fake.channel_messages[str(channel)]
    await harness.stop(bot)
    clock["now"] += LATER  # a later look: the digest looks every ten minutes, Discord remembers a nonce for fewer
    again = await harness.start(clock=lambda: clock["now"])
    cog = again.get_cog("DigestCog")
    cog.scheduler.cancel()
    await cog.tick()
    assert fake.channel_messages[str(channel)] == [first] and len(posts(fake, channel)) == 1  # not sent again
    settings = await again.app.digests.settings(guild.id)
    assert (settings.last_week, settings.claimed_until, settings.error) == ("2026-W49", None, None)  # posted
    assert len(reads(fake, channel)) == 1 and any(first["id"] in line for line in said(caplog))
    clock["now"] += timedelta(minutes=10)
    await cog.tick()
    assert len(reads(fake, channel)) == 1 and len(posts(fake, channel)) == 1  # done for the week


@pytest.mark.parametrize("readable", [True, False])
async def test_the_weekly_digest_that_never_reached_discord_is_sent_once_readable_or_not(
    fake, harness, caplog, readable
):
    caplog.set_level(logging.INFO)
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[0]
    clock = {"now": MONDAY}
    bot = await digest_bot(harness, clock, channel)
    assert await bot.app.digests.claim_if_due(await bot.app.digests.settings(guild.id)) is not None
    await harness.stop(bot)  # killed the moment the claim was written: nothing was sent
    fake.history_errors = [] if readable else [403]
    clock["now"] += CLAIM_LEASE
    again = await harness.start(clock=lambda: clock["now"])
    cog = again.get_cog("DigestCog")
    cog.scheduler.cancel()
    await cog.tick()
    await cog.tick()
    assert [p["embeds"][0]["title"] for p in posts(fake, channel)] == [t("es", "digest_title", week="2026-W49")]
    assert len(reads(fake, channel)) == 1
    assert bool([line for line in said(caplog) if "403" in line]) is not readable
    assert warned(caplog) == []


async def test_the_weekly_digest_whose_send_failed_long_after_it_reached_discord_is_not_sent_again(
    fake, harness, monkeypatch
):
    """Discord took the digest, but its answer never came: the connection gave up minutes later (aiohttp waits up to
    five). The failure frees the week; the next look, ten minutes on, looks for the digest from shortly before the
    claim that sent it, not from shortly before the failure, and finds it."""
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[0]
    clock = {"now": MONDAY}
    bot = await digest_bot(harness, clock, channel)
    send = discord.TextChannel.send

    async def taken_then_timed_out(self, *args, **kwargs):
        await send(self, *args, **kwargs)
        clock["now"] += timedelta(minutes=4)
        raise TimeoutError

    monkeypatch.setattr(discord.TextChannel, "send", taken_then_timed_out)
    cog = bot.get_cog("DigestCog")
    assert not await cog.post_if_due(await bot.app.digests.settings(guild.id))
    monkeypatch.undo()
    (first,) = fake.channel_messages[str(channel)]
    clock["now"] += timedelta(minutes=10)
    await cog.tick()
    assert fake.channel_messages[str(channel)] == [first] and len(posts(fake, channel)) == 1  # not sent again
    assert (await bot.app.digests.settings(guild.id)).claimed_until is None  # posted


async def test_a_daily_post_whose_send_failed_long_after_it_reached_discord_is_not_sent_again(
    fake, harness, monkeypatch
):
    """The same for the term of the day: its next tick, a minute on, comes after Discord forgot the nonce of a try
    whose answer took minutes not to come. The day is freed as a claim run out, and the tick that takes it over
    looks in the channel first."""
    guild, channel = fake.guilds[0], fake.guilds[0].channel_ids[1]
    clock = {"now": NOW}
    bot = await daily_bot(harness, clock, channel)
    send = discord.TextChannel.send

    async def taken_then_timed_out(self, *args, **kwargs):
        await send(self, *args, **kwargs)
        clock["now"] += timedelta(minutes=4)
        raise TimeoutError

    monkeypatch.setattr(discord.TextChannel, "send", taken_then_timed_out)
    cog = bot.get_cog("DailyCog")
    assert not await cog.post_if_due(await bot.app.daily.settings(guild.id))
    monkeypatch.undo()
    (first,) = fake.channel_messages[str(channel)]
    clock["now"] += timedelta(minutes=1)
    await cog.tick()
    assert fake.channel_messages[str(channel)] == [first] and len(posts(fake, channel)) == 1  # not sent again
    assert harness.rows("SELECT status, message_id FROM daily_posts") == [("posted", int(first["id"]))]
