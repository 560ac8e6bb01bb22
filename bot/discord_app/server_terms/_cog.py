"""/glosario-admin termino nuevo | editar | retirar | historial: a server's own terms (editors: Manage Messages
or the editor role). The work is the application's (bot.app.community.server_terms); the form is form.py."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.community.server_terms import ServerTerms
from bot.app.privacy.erasure import ANONYMOUS
from bot.core.server_terms import TermFields
from bot.discord_app.kit.buttons import served_guild
from bot.discord_app.kit.embeds import COLOUR, LIMITS, discord_time, echo, fit, join_within
from bot.discord_app.kit.groups import AttachedCog
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import is_moderator, moderator_or_denied
from bot.discord_app.kit.services import services
from bot.discord_app.server_terms.form import AliasInsteadButton, FixButton, TermModal

ACTIONS = {"created": "st_action_created", "edited": "st_action_edited", "retired": "st_action_retired"}


class TermAdmin(app_commands.Group):
    def __init__(self, terms: ServerTerms) -> None:
        super().__init__(name="termino", description="Los términos propios de este servidor")
        self.terms = terms

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="nuevo", description="Define un término propio de este servidor")
    async def nuevo(self, interaction: discord.Interaction) -> None:
        await TermModal(interaction).show(interaction)

    @app_commands.command(name="editar", description="Cambia un término de este servidor")
    @app_commands.describe(termino="Un término de este servidor")
    async def editar(self, interaction: discord.Interaction, termino: str) -> None:
        row = await self.terms.get(interaction.guild_id, termino)
        if row is None:
            await self._say(interaction, t(interaction.locale, "st_unknown", term=echo(termino)))
            return
        fields = TermFields.from_dict(row.fields)
        await TermModal(interaction, fields, previous_id=row.term_id).show(interaction)

    @app_commands.command(name="retirar", description="Deja de responder con un término de este servidor")
    @app_commands.describe(termino="Un término de este servidor")
    async def retirar(self, interaction: discord.Interaction, termino: str) -> None:
        row = await self.terms.get(interaction.guild_id, termino)
        if row is None or not await self.terms.retire(interaction.guild_id, interaction.user.id, row.term_id):
            await self._say(interaction, t(interaction.locale, "st_unknown", term=echo(termino)))
            return
        name = discord.utils.escape_markdown(row.fields.get("term", row.term_id))
        await self._say(interaction, t(interaction.locale, "st_retired", term=name))

    @app_commands.command(name="historial", description="Las versiones de un término de este servidor")
    @app_commands.describe(termino="Un término de este servidor")
    async def historial(self, interaction: discord.Interaction, termino: str) -> None:
        loc = interaction.locale
        versions = await self.terms.history(interaction.guild_id, termino)
        if not versions:
            await self._say(interaction, t(loc, "st_unknown", term=echo(termino)))
            return
        lines = []
        for v in reversed(versions):  # the latest first
            action, at = t(loc, ACTIONS[v.action]), discord_time(v.at, "f")
            if v.by_user == ANONYMOUS:  # a member who asked to be forgotten
                head = t(loc, "st_history_line_anonymous", version=v.version, action=action, at=at)
            else:
                head = t(loc, "st_history_line", version=v.version, action=action, user=v.by_user, at=at)
            lines.append(
                f"{head}\n> **{echo(v.fields.get('term', ''))}** — {echo(v.fields.get('definition', ''))[:200]}"
            )
        title = t(loc, "st_history_title", term=versions[-1].fields.get("term", termino))
        embed = discord.Embed(title=title, description=join_within(lines, LIMITS["description"]), colour=COLOUR)
        await interaction.response.send_message(embed=fit(embed), ephemeral=True)

    @editar.autocomplete("termino")
    @retirar.autocomplete("termino")
    async def _in_service(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, retired=False)

    @historial.autocomplete("termino")
    async def _ever(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._names(interaction, current, retired=True)

    async def _names(self, interaction: discord.Interaction, current: str, *, retired: bool) -> list:
        """The server's term names for an editor (discord.py calls autocomplete without `interaction_check`: the
        check is made here, and anyone else is offered nothing, silently)."""
        if not await is_moderator(services(interaction), interaction):  # (a server the bot serves, too)
            return []
        names = await self.terms.names(served_guild(interaction), current, retired=retired)
        return [app_commands.Choice(name=name[:100], value=term_id) for term_id, name in names]


class ServerTermsCog(AttachedCog):
    PERSISTENT = (FixButton, AliasInsteadButton)

    def __init__(self, bot: commands.Bot, terms: ServerTerms) -> None:
        super().__init__(bot, TermAdmin(terms))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ServerTermsCog(bot, services(bot).app.server_terms))
