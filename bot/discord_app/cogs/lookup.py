"""/termino: look a term up, with autocomplete on every keystroke."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.normalize import normalize
from bot.core.search import Ambiguous, Found
from bot.core.status import Outcome
from bot.discord_app.embeds import echo
from bot.discord_app.i18n import t
from bot.discord_app.views import (
    NO_MENTIONS,
    OpenButton,
    PickButton,
    TermButton,
    UnsignedPickButton,
    suggestions_view,
)
from bot.storage.gaps import gap_key

if TYPE_CHECKING:
    from bot.discord_app.client import GlossaryBot


class LookupCog(commands.Cog):
    # Buttons on cards and suggestions, answered by custom_id even after a restart (used by every cog's cards).
    PERSISTENT = (TermButton, OpenButton, PickButton, UnsignedPickButton)

    def __init__(self, bot: GlossaryBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.PERSISTENT)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.PERSISTENT)

    @app_commands.command(name="termino", description="Explica un término del glosario de IA")
    @app_commands.describe(termino="El término que quieres consultar", privado="Solo tú verás la respuesta")
    async def termino(self, interaction: discord.Interaction, termino: str, privado: bool = False) -> None:
        # (the rate limit is the tree's, shared by every command and button.) What was asked is recorded
        # before the reply is sent: a reply Discord refuses or loses must not lose the question.
        catalog = self.bot.services.catalog.current  # one snapshot for the whole answer, even during a reload
        glossary, index = catalog.glossary, catalog.index
        if not normalize(termino):
            await interaction.response.send_message(
                t(interaction.locale, "empty_query"), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        # Autocomplete submits the term's id; anything typed by hand is resolved like a query.
        chosen = glossary.get(termino)
        result = Found(chosen) if chosen is not None else index.lookup(termino)
        if isinstance(result, Found):
            term = result.term
            embed, view = self.bot.services.catalog.card(term, interaction.locale)
            self.bot.record_lookup(interaction, Outcome.FOUND, term.id)
            await interaction.response.send_message(
                embed=embed,
                view=view or discord.utils.MISSING,
                ephemeral=privado,
                allowed_mentions=NO_MENTIONS,
            )
            return
        if isinstance(result, Ambiguous):
            qhash = gap_key(termino).qhash
            self.bot.record_lookup(interaction, Outcome.AMBIGUOUS, None)
            self.bot.record_miss(interaction, termino, result.candidates[0].term.id, "lookup")
            await interaction.response.send_message(
                t(interaction.locale, "did_you_mean", query=echo(termino)),
                view=suggestions_view(result.candidates, qhash, privado, self.bot.services.salt),
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
            return
        self.bot.record_lookup(interaction, Outcome.NOT_FOUND, None)
        self.bot.record_miss(interaction, termino, result.best_guess and result.best_guess.term.id, "lookup")
        await interaction.response.send_message(
            t(interaction.locale, "not_found", query=echo(termino)), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @termino.autocomplete("termino")
    async def termino_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        choices = self.bot.services.catalog.index.complete(current)
        return [app_commands.Choice(name=c.label, value=c.id) for c in choices]


async def setup(bot: GlossaryBot) -> None:
    await bot.add_cog(LookupCog(bot))
