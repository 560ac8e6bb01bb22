"""Telling a proposer the outcome: by direct message when they take them, else privately after their next
command."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from bot.app.background import start_background
from bot.app.community.proposals import ProposalRow
from bot.core.status import ProposalStatus
from bot.discord_app.kit.buttons import served_guild
from bot.discord_app.kit.embeds import echo, join_within
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.services import Services

log = logging.getLogger(__name__)


def outcome(row: ProposalRow, server: str) -> str:
    """What the proposer is told, in the language of the Discord they proposed from."""
    name = echo(row.fields.get("term", ""))
    if row.status == ProposalStatus.PUBLISHED:
        return t(row.locale, "prop_told_published", term=name, server=echo(server))
    return t(row.locale, "prop_told_rejected", term=name, server=echo(server), reason=echo(row.reason or "—"))


async def tell_proposer(bot: Services, guild_id: int, proposal_id: int) -> None:
    """A direct message with the outcome, if the member takes them; otherwise it waits for their next command."""
    row = await bot.app.proposals.store.get(guild_id, proposal_id)
    if row is None or row.status == ProposalStatus.PENDING:
        return
    guild = bot.get_guild(guild_id)
    try:
        channel = await bot.create_dm(discord.Object(row.user_id))
        await channel.send(outcome(row, guild.name if guild else str(guild_id)))
    except discord.HTTPException as exc:
        log.info("proposal %s: could not tell member %s by DM (%s); telling them next time", row.id, row.user_id, exc)
        return
    await bot.app.proposals.told(row.user_id, [row])


def tell_on_next_command(bot: Services, interaction: discord.Interaction) -> None:
    """A member with an outcome they were not told gets it privately, after the reply to what they asked."""
    if interaction.user.id not in bot.app.proposals.to_tell or not served_guild(interaction):
        return  # (where the bot is a guest, the answer is the reply alone: no follow-up)
    start_background(bot.background_tasks, _tell_after_reply(bot, interaction), "glosario-tell-proposer")


async def _tell_after_reply(bot: Services, interaction: discord.Interaction) -> None:
    for _ in range(100):  # the reply first (a follow-up needs it), for up to 5 s
        if interaction.response.is_done():
            break
        await asyncio.sleep(0.05)
    else:
        return
    rows = await bot.app.proposals.untold(interaction.user.id)
    if not rows:
        return
    texts = [outcome(row, g.name if (g := bot.get_guild(row.guild_id)) else str(row.guild_id)) for row in rows]
    with contextlib.suppress(discord.HTTPException):
        await interaction.followup.send(join_within(texts, 1900), ephemeral=True)
        await bot.app.proposals.told(interaction.user.id, rows)
