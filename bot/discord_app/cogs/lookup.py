"""/termino: look a term up, with autocomplete on every keystroke."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.lookups import Lookups
from bot.core.search import Ambiguous, Found
from bot.discord_app.embeds import echo
from bot.discord_app.i18n import t
from bot.discord_app.views import (
    NO_MENTIONS,
    OpenButton,
    PickButton,
    TermButton,
    UnsignedPickButton,
    asker,
    suggestions_view,
)

if TYPE_CHECKING:
    from bot.app.server_terms import ServerTerms
    from bot.discord_app.cards import CardCache
    from bot.discord_app.client import GlossaryBot


class LookupCog(commands.Cog):
    # Buttons on cards and suggestions, answered by custom_id even after a restart (used by every cog's cards).
    PERSISTENT = (TermButton, OpenButton, PickButton, UnsignedPickButton)

    def __init__(self, bot: commands.Bot, lookups: Lookups, terms: ServerTerms, cards: CardCache) -> None:
        self.bot, self.lookups, self.terms, self.cards = bot, lookups, terms, cards

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.PERSISTENT)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.PERSISTENT)

    @app_commands.command(name="termino", description="Explica un término del glosario de IA")
    @app_commands.describe(termino="El término que quieres consultar", privado="Solo tú verás la respuesta")
    async def termino(self, interaction: discord.Interaction, termino: str, privado: bool = False) -> None:
        # (The rate limit is the tree's, shared by every command and button.)
        await self.terms.prepare(interaction.guild_id or 0)  # the server's own terms (from memory once loaded)
        answer = self.lookups.lookup(asker(interaction), termino)
        loc, send = interaction.locale, interaction.response.send_message
        if answer is None:
            await send(t(loc, "empty_query"), ephemeral=True, allowed_mentions=NO_MENTIONS)
        elif isinstance(answer.result, Found):
            embed, view = self.cards.card_for(answer.result.term, answer.overlay, loc)
            await send(embed=embed, view=view or discord.utils.MISSING, ephemeral=privado, allowed_mentions=NO_MENTIONS)
        elif isinstance(answer.result, Ambiguous):
            view = suggestions_view(answer.result.candidates, answer.qhash, privado, self.lookups.sign)
            text = t(loc, "did_you_mean", query=echo(termino))
            await send(text, view=view, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await send(t(loc, "not_found", query=echo(termino)), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @termino.autocomplete("termino")
    async def termino_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        await self.terms.prepare(interaction.guild_id or 0)
        choices = self.lookups.complete(current, interaction.guild_id or 0)
        return [app_commands.Choice(name=c.label, value=c.id) for c in choices]


async def setup(bot: GlossaryBot) -> None:
    await bot.add_cog(LookupCog(bot, bot.app.lookups, bot.app.server_terms, bot.cards))
