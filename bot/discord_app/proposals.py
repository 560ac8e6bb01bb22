"""Members' proposals in Discord: the editors' list (publish, optionally editing first; reject with a reason),
and telling the proposer the outcome: by direct message when they take them, else privately the next time they
use the bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.core.server_terms import TermFields
from bot.core.status import ProposalStatus
from bot.discord_app.embeds import COLOUR, LIMITS, echo, fit, join_within, shorten
from bot.discord_app.forms import BoundForm
from bot.discord_app.i18n import t
from bot.discord_app.permissions import moderator_or_denied
from bot.discord_app.persistent import Persistent
from bot.discord_app.review import gap_ids
from bot.discord_app.term_form import TermModal
from bot.discord_app.views import render_only, served_guild
from bot.storage.records import ProposalRow

if TYPE_CHECKING:
    from bot.discord_app.client import GlossaryBot

log = logging.getLogger(__name__)
SHOWN = 10  # proposals a list shows (the oldest first); the rest are counted


def proposals_embed(rows: list[ProposalRow], locale: object) -> discord.Embed:
    lines = [
        t(locale, "prop_line", n=row.id, term=echo(row.fields.get("term", "")), user=row.user_id)
        + f"\n> {shorten(echo(row.fields.get('definition', '')), 160)}"
        for row in rows[:SHOWN]
    ]
    if len(rows) > SHOWN:
        lines.append(t(locale, "prop_more", count=len(rows) - SHOWN))
    embed = discord.Embed(title=t(locale, "prop_title", count=len(rows)), colour=COLOUR)
    embed.description = join_within(lines, LIMITS["description"]) or t(locale, "prop_none")
    return fit(embed)


def proposals_view(rows: list[ProposalRow], locale: object) -> discord.ui.View | None:
    if not rows:
        return None
    options = [
        discord.SelectOption(label=shorten(f"{row.id}. {row.fields.get('term', '')}", 100), value=str(row.id))
        for row in rows[:SHOWN]
    ]
    return render_only(
        [
            ProposalSelect("publish", t(locale, "prop_publish"), options),
            ProposalSelect("reject", t(locale, "prop_reject"), options),
        ]
    )


class ProposalSelect(
    Persistent, discord.ui.DynamicItem[discord.ui.Select], template=r"glosario:prop:(?P<action>publish|reject)"
):
    def __init__(self, action: str, placeholder: str = "…", options: list[discord.SelectOption] | None = None) -> None:
        options = options or [discord.SelectOption(label="…", value="0")]
        super().__init__(
            discord.ui.Select(custom_id=f"glosario:prop:{action}", placeholder=placeholder, options=options)
        )
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["action"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def callback(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        ids = gap_ids((interaction.data or {}).get("values", []))  # (the same bounded parse as gap ids)
        proposals, guild_id = interaction.client.app.proposals, interaction.guild_id or 0
        row = await proposals.get(guild_id, ids[0]) if ids else None
        if row is None:  # forged, another server's, or decided meanwhile
            await interaction.response.send_message(t(interaction.locale, "prop_gone"), ephemeral=True)
        elif self.action == "publish":
            fields = TermFields.from_dict(row.fields)
            await interaction.response.send_modal(TermModal(interaction, fields, proposal_id=row.id))
        else:
            await interaction.response.send_modal(RejectModal(interaction, row.id))


class RejectModal(BoundForm):
    """The reason for rejecting one proposal, from the editor who chose it."""

    PREFIX = "glosario:propreject"

    def __init__(self, interaction: discord.Interaction, proposal_id: int) -> None:
        locale = interaction.locale
        super().__init__(interaction, title=t(locale, "prop_reject_title"), timeout=1800)
        self.proposal_id = proposal_id
        self.reason = discord.ui.TextInput(
            label=t(locale, "prop_reason")[:45], style=discord.TextStyle.paragraph, max_length=500, required=True
        )
        self.add_item(self.reason)

    async def allowed(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        return await moderator_or_denied(interaction)

    async def on_submit(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        bot, guild_id = interaction.client, interaction.guild_id or 0
        row = await bot.app.proposals.reject(guild_id, self.proposal_id, interaction.user.id, self.reason.value or "")
        key = "prop_rejected" if row else "prop_gone"
        name = echo(row.fields.get("term", "")) if row else ""
        await interaction.response.send_message(t(interaction.locale, key, term=name), ephemeral=True)
        if row is not None:
            await tell_proposer(bot, guild_id, row.id)


def outcome(row: ProposalRow, server: str) -> str:
    """What the proposer is told, in the language of the Discord they proposed from."""
    name = echo(row.fields.get("term", ""))
    if row.status == ProposalStatus.PUBLISHED:
        return t(row.locale, "prop_told_published", term=name, server=echo(server))
    return t(row.locale, "prop_told_rejected", term=name, server=echo(server), reason=echo(row.reason or "—"))


async def tell_proposer(bot: GlossaryBot, guild_id: int, proposal_id: int) -> None:
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


def tell_on_next_command(bot: GlossaryBot, interaction: discord.Interaction) -> None:
    """A member with an outcome they were not told gets it privately, after the reply to what they asked."""
    if interaction.user.id not in bot.app.proposals.to_tell or not served_guild(interaction):
        return  # (where the bot is a guest, the answer is the reply alone: no follow-up)
    task = asyncio.get_running_loop().create_task(_tell_after_reply(bot, interaction))
    bot.background_tasks.add(task)
    task.add_done_callback(bot.background_tasks.discard)


async def _tell_after_reply(bot: GlossaryBot, interaction: discord.Interaction) -> None:
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
