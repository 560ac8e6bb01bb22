"""The fake Discord's read of a channel's messages (GET /channels/{id}/messages) through discord.py, as Discord
answers it; the scheduled posts' retakes rely on it (test_post_retake.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import discord
import pytest

from tests.fake_discord.server import READ_MESSAGE_HISTORY, VIEW_CHANNEL

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


async def test_a_read_of_a_channel_answers_as_discord_does(fake, harness):
    """GET /channels/{id}/messages through discord.py: the latest first, or those before or after a time (the ids
    tell it); no nonce kept; a member's text empty (no message content intent); nothing without Read Message
    History, and 403 without View Channel."""
    guild, channel_id = fake.guilds[0], fake.guilds[0].channel_ids[1]
    clock = {"now": NOW}
    bot = await harness.start(clock=lambda: clock["now"])
    channel = bot.get_channel(channel_id)
    sent = await channel.send("uno", nonce="n1")
    assert sent.nonce == "n1"  # (the create's answer says it)
    clock["now"] += timedelta(minutes=1)
    fake.member_says(channel_id, "dos")
    clock["now"] += timedelta(minutes=1)
    await channel.send("tres")
    assert [m.content async for m in channel.history(limit=2)] == ["tres", ""]
    assert [m.content async for m in channel.history(limit=5, after=NOW + timedelta(seconds=30))] == ["", "tres"]
    assert [(m.content, m.nonce) async for m in channel.history(limit=5, before=NOW + timedelta(seconds=30))] == [
        ("uno", None)
    ]
    guild.deny_everyone(channel_id, READ_MESSAGE_HISTORY)
    assert [m async for m in channel.history(limit=5)] == []
    guild.deny_everyone(channel_id, VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden):
        [m async for m in channel.history(limit=5)]


async def test_a_reply_everyone_sees_is_a_message_of_the_channel_and_a_private_one_is_not(fake, bot):
    """The bot's answer to a member's slash command is in the channel's messages, of a command's type and with who
    used it; an ephemeral one is not."""
    await fake.response(await fake.command("termino", {"termino": "horovod"}, user_id=7))
    await fake.response(await fake.command("glosario-admin diario estado", user_id=8))  # refused: only for them
    channel = bot.get_channel(fake.guilds[0].channel_ids[0])
    (reply,) = [m async for m in channel.history(limit=10)]
    assert reply.type is discord.MessageType.chat_input_command and reply.author.id == bot.user.id
    assert reply.interaction_metadata.user.id == 7 and reply.embeds[0].title == "Horovod"
