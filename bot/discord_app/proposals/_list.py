"""The editors' list of members' proposals: publish (optionally editing first) or reject with a reason."""

from __future__ import annotations

import logging
import re

import discord

from bot.app.community.proposals import ProposalRow
from bot.core.server_terms import TermFields
from bot.discord_app.kit.buttons import chosen_ids, render_only
from bot.discord_app.kit.embeds import COLOUR, LIMITS, echo, fit, join_within, shorten
from bot.discord_app.kit.forms import BoundForm
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import moderator_or_denied
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.replies import reply
from bot.discord_app.kit.services import services
from bot.discord_app.proposals._forms import PublishModal
from bot.discord_app.proposals._told import tell_proposer

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

    async def callback(self, interaction: discord.Interaction) -> None:
        ids = chosen_ids((interaction.data or {}).get("values", []))
        proposals, guild_id = services(interaction).app.proposals, interaction.guild_id or 0
        row = await proposals.get(guild_id, ids[0]) if ids else None
        if row is None:  # forged, another server's, or decided meanwhile
            await interaction.response.send_message(t(interaction.locale, "prop_gone"), ephemeral=True)
        elif self.action == "publish":
            fields = TermFields.from_dict(row.fields)
            await PublishModal(interaction, fields, row.id).show(interaction)
        else:
            await RejectModal(interaction, row.id).show(interaction)


class RejectModal(BoundForm):
    """The reason for rejecting one proposal, from the editor who chose it."""

    PREFIX = "glosario:propreject"

    def __init__(self, interaction: discord.Interaction, proposal_id: int) -> None:
        locale = interaction.locale
        super().__init__(interaction, title=t(locale, "prop_reject_title"))
        self.proposal_id = proposal_id
        self.reason = discord.ui.TextInput(
            label=t(locale, "prop_reason")[:45], style=discord.TextStyle.paragraph, max_length=500, required=True
        )
        self.add_item(self.reason)

    async def apply(self, interaction: discord.Interaction) -> None:
        bot, guild_id = services(interaction), interaction.guild_id or 0
        row = await bot.app.proposals.reject(guild_id, self.proposal_id, interaction.user.id, self.reason.value or "")
        key = "prop_rejected" if row else "prop_gone"
        name = echo(row.fields.get("term", "")) if row else ""
        await reply(interaction, t(interaction.locale, key, term=name))
        if row is not None:
            await tell_proposer(bot, guild_id, row.id)
