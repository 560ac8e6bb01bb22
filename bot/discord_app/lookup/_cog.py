"""/termino: look a term up, with autocomplete on every keystroke."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.lookup.lookups import Lookups
from bot.app.lookup.turns import Turns
from bot.core.question_words import MAX_QUESTION
from bot.core.search import Ambiguous, Found
from bot.discord_app.kit.buttons import served_guild
from bot.discord_app.kit.embeds import echo
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.services import services
from bot.discord_app.lookup.meaning import NotItButton
from bot.discord_app.lookup.meaning import answer as answer_by_meaning
from bot.discord_app.lookup.meaning import ask as ask_by_meaning
from bot.discord_app.lookup.suggestions import SuggestionButton, UnsignedSuggestionButton, suggestions_view

if TYPE_CHECKING:
    from bot.discord_app.kit.services import Cards


class LookupCog(commands.Cog):
    # Suggestions and the answer to a question, answered by custom_id even after a restart (the cards' own
    # buttons are the cards feature's).
    PERSISTENT = (SuggestionButton, UnsignedSuggestionButton, NotItButton)

    # A text of this many words or more takes a turn first: on a long text the name matcher costs about 1 ms, on a
    # name or a short miss a tenth of that, less than a turn costs when many arrive at once.
    LONG_TEXT_WORDS = 5

    def __init__(self, bot: commands.Bot, lookups: Lookups, cards: Cards) -> None:
        self.bot, self.lookups, self.cards = bot, lookups, cards
        self.host = services(bot)  # the same client, as what handlers may use of it
        self.turns = Turns()  # the name matcher's ~1 ms, one /termino per pass of the loop (bot/app/lookup/turns.py)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.PERSISTENT)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.PERSISTENT)

    @app_commands.command(name="termino", description="Explica un término del glosario de IA")
    @app_commands.describe(
        termino="El término que quieres consultar",
        privado="Solo tú verás la respuesta (por defecto, fuera de los servidores del bot)",
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def termino(
        self,
        interaction: discord.Interaction,
        termino: app_commands.Range[str, 1, MAX_QUESTION],  # (a question is read to its 300th character)
        privado: bool | None = None,
    ) -> None:
        # (The rate limit is the tree's, shared by every command and button.)
        here, user = await self.lookups.for_guild(served_guild(interaction)), interaction.user.id
        if len(termino.split(None, self.LONG_TEXT_WORDS - 1)) >= self.LONG_TEXT_WORDS:
            await self.turns.take()  # many at once: the loop's timers and I/O run between two of them
        by_meaning = self.host.app.questions_ready  # then a gap waits for the question path's verdict (a few ms)
        answer = here.lookup(user, termino, gap=not by_meaning)
        privado = privado if privado is not None else not here.guild_id  # private where the bot is a guest
        loc, send = interaction.locale, interaction.response.send_message
        if by_meaning and answer is not None and not isinstance(answer.result, Found):
            meant = await ask_by_meaning(self.host, termino, answer.overlay, answer.result)
            if meant is not None:
                await answer_by_meaning(interaction, termino, meant, answer, privado)
                return
            here.unanswered(user, termino, answer)  # a name nobody has: as without the question path
        if answer is None:
            await send(t(loc, "empty_query"), ephemeral=True)
        elif isinstance(answer.result, Found):
            await answer_by_name(interaction, self.cards, answer.result, answer.overlay, privado)
        elif isinstance(answer.result, Ambiguous):
            view = suggestions_view(answer.result.candidates, answer.qhash, privado, self.lookups.sign)
            text = t(loc, "did_you_mean", query=echo(termino))
            await send(text, view=view, ephemeral=True)
        else:
            await send(t(loc, "not_found", query=echo(termino)), ephemeral=True)

    @termino.autocomplete("termino")
    async def termino_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        here = await self.lookups.for_guild(served_guild(interaction))
        choices = here.complete(current)
        return [app_commands.Choice(name=c.label, value=c.id) for c in choices]


async def answer_by_name(interaction: discord.Interaction, cards: Cards, found: Found, overlay, private: bool) -> None:
    """Reply with the card of the term a name found (/termino, and /glosario pregunta when a name was asked); a
    form to avoid is answered with the preferred term, said."""
    loc = interaction.locale
    embed, view = cards.card_for(found.term, overlay, loc)
    said = found.avoided and t(loc, "avoided_form", form=echo(found.avoided), term=echo(found.term.term))
    await interaction.response.send_message(
        said or None, embed=embed, view=view or discord.utils.MISSING, ephemeral=private
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LookupCog(bot, services(bot).app.lookups, services(bot).cards))
