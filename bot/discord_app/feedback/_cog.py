"""Feedback under every card ("¿Te ha servido? 👍 👎") and the editors' "Edit" button beside the least helpful
terms: their buttons answer by custom_id, even after a restart. The rows and forms are bot.discord_app.feedback."""

from __future__ import annotations

from discord.ext import commands

from bot.discord_app.feedback._rows import EditTermButton, VoteButton


class FeedbackCog(commands.Cog):
    PERSISTENT = (VoteButton, EditTermButton)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.PERSISTENT)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.PERSISTENT)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(FeedbackCog(bot))
