"""The baseline of bench_e2e: a minimal discord.py bot whose /termino answers one fixed embed."""

import os

import discord
from discord import app_commands

from bot.discord_app.client import use_endpoints


class MinimalBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        embed = discord.Embed(title="Horovod", description="Framework de código abierto.")

        @self.tree.command(name="termino", description="fixed")
        async def termino(interaction: discord.Interaction, termino: str) -> None:
            await interaction.response.send_message(embed=embed)

    async def setup_hook(self) -> None:
        await self.tree.sync()


if __name__ == "__main__":
    use_endpoints(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    MinimalBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
