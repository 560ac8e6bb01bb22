"""/glosario-admin propuestas: the members' proposals waiting, and whether members may propose. Attached to
/glosario-admin (the admin feature owns the group); the command checks the moderator itself."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.kit.groups import AttachedCog
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import manages_server, moderator_or_denied
from bot.discord_app.kit.services import services
from bot.discord_app.proposals._list import ProposalSelect, proposals_embed, proposals_view


@app_commands.describe(permitir="Permitir (o no) que los miembros propongan términos")
async def propuestas(interaction: discord.Interaction, permitir: bool | None = None) -> None:
    if not await moderator_or_denied(interaction):
        return
    proposals, loc, guild_id = services(interaction).app.proposals, interaction.locale, interaction.guild_id or 0
    note = None
    if permitir is not None:
        if not await manages_server(interaction):
            return
        await proposals.set_enabled(guild_id, permitir)
        note = t(loc, "prop_enabled" if permitir else "prop_disabled")
    rows = await proposals.pending(guild_id)
    view = proposals_view(rows, loc) or discord.utils.MISSING
    await interaction.response.send_message(note, embed=proposals_embed(rows, loc), view=view, ephemeral=True)


class ProposalsCog(AttachedCog):
    PERSISTENT = (ProposalSelect,)

    def __init__(self, bot: commands.Bot) -> None:
        description = "Las propuestas de los miembros, para publicarlas o rechazarlas"
        super().__init__(bot, app_commands.Command(name="propuestas", description=description, callback=propuestas))
