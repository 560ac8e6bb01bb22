"""Liveness: the heartbeat `glosario-bot health` reads, written while the bot is connected to Discord."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.app.health import HEARTBEAT_EVERY

if TYPE_CHECKING:
    from bot.app.application import Application
    from bot.discord_app.client import GlossaryBot

log = logging.getLogger(__name__)


class OperationCog(commands.Cog):
    def __init__(self, bot: commands.Bot, app: Application) -> None:
        self.bot, self.app = bot, app

    async def cog_load(self) -> None:
        self.heartbeat.start()

    async def cog_unload(self) -> None:
        self.heartbeat.cancel()

    @tasks.loop(seconds=HEARTBEAT_EVERY.total_seconds())
    async def heartbeat(self) -> None:
        bot = self.bot
        if bot.is_ready() and not bot.is_closed() and bot.ws is not None and bot.ws.open:
            self.app.beat()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        log.info("connected to Discord as %s in %d server(s)", self.bot.user, len(self.bot.guilds))
        self.app.beat()

    @commands.Cog.listener()
    async def on_connect(self) -> None:
        self.app.beat()

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        self.app.beat()


async def setup(bot: GlossaryBot) -> None:
    await bot.add_cog(OperationCog(bot, bot.app))
