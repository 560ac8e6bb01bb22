"""/glosario-admin pendientes | exportar: the gaps of this server, for its moderators, and the files editors take
away (gaps, the server's own terms, the feedback on cards). Attached to /glosario-admin (the admin feature owns
the group); each command checks the moderator itself, as the group's own commands do."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.review.exports import zipped
from bot.core.status import GapOrder, GapStatus
from bot.discord_app.gaps._list import ORDER_CHOICES, STATUS_CHOICES, ActSelect, ListState, PageButton, render
from bot.discord_app.kit.groups import AttachedCog
from bot.discord_app.kit.i18n import language, t
from bot.discord_app.kit.permissions import moderator_or_denied
from bot.discord_app.kit.services import services

EXPORT_FORMATS = ("yaml", "csv", "terminos", "opiniones")


@app_commands.describe(orden="Más pedidas o más recientes primero", estado="Qué consultas ver")
@app_commands.choices(
    orden=[app_commands.Choice(name=k, value=k) for k in ORDER_CHOICES],
    estado=[app_commands.Choice(name=k, value=k) for k in STATUS_CHOICES],
)
async def pendientes(interaction: discord.Interaction, orden: str = "frecuentes", estado: str = "abiertas") -> None:
    if not await moderator_or_denied(interaction):
        return
    state = ListState(0, ORDER_CHOICES.get(orden, GapOrder.COUNT), STATUS_CHOICES.get(estado, GapStatus.OPEN))
    embed, view = await render(services(interaction).app.review, interaction.guild_id, interaction.locale, state)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


@dataclass(frozen=True)
class Export:
    """A file for a moderator: its name (in their language), its bytes, and how many records it holds."""

    name: str
    data: bytes
    count: int


async def _export(interaction: discord.Interaction, formato: str) -> Export:
    app, guild_id, loc = services(interaction).app, interaction.guild_id or 0, interaction.locale
    if formato == "terminos":  # the server's own terms as a term file, to publish through a pull request
        name, (text, count) = t(loc, "file_server_terms"), await app.server_terms.export(guild_id)
    elif formato == "opiniones":  # votes and comments on the cards (feedback), a row each
        name, (text, count) = t(loc, "file_feedback"), await app.feedback.export_csv(guild_id)
    else:  # the open gaps, as term stubs (yaml) or a row each (csv)
        heading = t(loc, "export_title", glossary=app.catalog.glossary.title)  # (its own title, as the page's)
        title = f"{heading} ({interaction.guild.name if interaction.guild else ''})"
        name, (text, count) = (
            t(loc, "file_gaps", format=formato),
            await app.review.export(guild_id, formato, title, language(loc)),
        )
    return Export(name, text.encode("utf-8"), count)


@app_commands.describe(formato="Formato del archivo")
@app_commands.choices(formato=[app_commands.Choice(name=f, value=f) for f in EXPORT_FORMATS])
async def exportar(interaction: discord.Interaction, formato: str = "yaml") -> None:
    if not await moderator_or_denied(interaction):
        return
    await interaction.response.defer(ephemeral=True, thinking=True)  # 100,000 gaps take a second or two
    loc = interaction.locale
    export = await _export(interaction, formato)
    name, data = export.name, export.data
    if len(data) > interaction.filesize_limit:  # Discord refuses a bigger file: zipped, text shrinks a lot
        data, name = await asyncio.to_thread(zipped, name, data), name + ".zip"
    if len(data) > interaction.filesize_limit:
        too_big = {"terminos": "export_terms_too_big", "opiniones": "export_feedback_too_big"}.get(formato)
        text = t(loc, too_big or "export_too_big", count=export.count, guild=interaction.guild_id, format=formato)
        await interaction.followup.send(text, ephemeral=True)
        return
    done = {"terminos": "export_terms_done", "opiniones": "export_feedback_done"}.get(formato, "export_done")
    await interaction.followup.send(
        t(loc, done, count=export.count, format=formato.upper()),
        file=discord.File(io.BytesIO(data), filename=name),
        ephemeral=True,
    )


class GapsCog(AttachedCog):
    # The gaps list's pages and menus, answered even after a restart.
    PERSISTENT = (PageButton, ActSelect)

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(
            bot,
            app_commands.Command(
                name="pendientes", description="Consultas que el glosario no supo responder", callback=pendientes
            ),
            app_commands.Command(
                name="exportar", description="Descarga las consultas abiertas para los editores", callback=exportar
            ),
        )
