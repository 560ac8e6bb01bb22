"""Liveness: the heartbeat `glosario-bot health` reads, written while the bot is connected to Discord."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.app.background import each_tick_outlives_errors
from bot.app.glossary import RELOAD_CHECK_EVERY
from bot.app.health import HEARTBEAT_EVERY
from bot.discord_app.kit.services import services

if TYPE_CHECKING:
    from bot.app.application import Application

log = logging.getLogger(__name__)


class OperationCog(commands.Cog):
    def __init__(self, bot: commands.Bot, app: Application) -> None:
        self.bot, self.app = bot, app

    async def cog_load(self) -> None:
        self.heartbeat.start()
        self.follow_reloads.start()

    async def cog_unload(self) -> None:
        self.heartbeat.cancel()
        self.follow_reloads.cancel()

    @tasks.loop(seconds=RELOAD_CHECK_EVERY)
    @each_tick_outlives_errors("following reloads by other processes")
    async def follow_reloads(self) -> None:
        """A reload in another process sharing the database (SIGHUP or /glosario-admin recargar there) is made
        here too, within RELOAD_CHECK_EVERY seconds."""
        await self.app.glossary.follow_others()

    @tasks.loop(seconds=HEARTBEAT_EVERY.total_seconds())
    @each_tick_outlives_errors("heartbeat")
    async def heartbeat(self) -> None:
        if not self.bot.is_closed() and self.bot.shards:
            self.beat()

    def beat(self) -> None:
        """The heartbeat, with each of this process's shards connected or not (health is bad while one is not)."""
        self.app.beat(self.bot.shard_states())

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        bot = self.bot
        shards = ", ".join(str(i) for i in sorted(bot.shard_states()))
        servers, count = len(bot.guilds), bot.shard_count
        log.info("connected to Discord as %s in %d server(s), shard(s) %s of %s", bot.user, servers, shards, count)
        self.beat()

    @commands.Cog.listener()
    async def on_shard_connect(self, shard_id: int) -> None:
        self.beat()

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d ready", shard_id)
        self.beat()

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        self.beat()

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        log.warning("shard %d disconnected from Discord", shard_id)
        self.beat()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OperationCog(bot, services(bot).app))
