"""The baselines of bench_e2e: a minimal discord.py bot whose /termino answers one fixed reply.

python -m bench.minimal_bot            a small embed (the issue's baseline)
python -m bench.minimal_bot --card     one card of the glossary in GLOSARIO_DATA, built once at start
                                       (the embed and buttons our bot sends: the same reply size)
"""

import gc
import os
import sys
from pathlib import Path

import discord
from discord import app_commands

from bot.discord_app.client import use_endpoints


def fixed_card() -> tuple[discord.Embed, discord.ui.View | None]:
    from bot.app.catalog import load_catalog
    from bot.discord_app.cards import card_view
    from bot.discord_app.kit.embeds import term_embed

    glossary = load_catalog(Path(os.environ["GLOSARIO_DATA"])).glossary
    term = next(t for t in glossary.terms if t.en and len(t.related) >= 2)  # a typical card: fields and buttons
    # The same reply as ours: "see also" buttons and the "¿Te ha servido?" row every card carries. The embed is a
    # plain discord.Embed, as any bot would send (ours sends a card's payload made once: a saving of our own, which
    # the baseline does not share), the buttons their rows made once, as before.
    embed = discord.Embed.from_dict(term_embed(term, glossary, "es-ES").to_dict())
    return embed, card_view(term, glossary, "es-ES")


class MinimalBot(discord.Client):
    def __init__(self, reply: tuple[discord.Embed, discord.ui.View | None]) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        embed, view = reply

        @self.tree.command(name="termino", description="fixed")
        async def termino(interaction: discord.Interaction, termino: str) -> None:
            await interaction.response.send_message(
                embed=embed, view=view or discord.utils.MISSING, allowed_mentions=discord.AllowedMentions.none()
            )

    async def setup_hook(self) -> None:
        await self.tree.sync()


if __name__ == "__main__":
    use_endpoints(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    card = "--card" in sys.argv[1:]
    reply = fixed_card() if card else (discord.Embed(title="Horovod", description="Framework de código abierto."), None)
    # A bot that sends one fixed card holds no glossary: free the one the card was taken from before serving, so that
    # the full collection that would free it does not land, at random, among the measured interactions (it moved
    # this bot's count by up to 0.16 M instructions per interaction from one run to the next).
    gc.collect()
    MinimalBot(reply).run(os.environ["DISCORD_TOKEN"], log_handler=None)
