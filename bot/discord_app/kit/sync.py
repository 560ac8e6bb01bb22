"""Publishing the slash commands on purpose: to a development guild every time (instant there), globally only
when the definitions changed since the last sync (their hash is kept in the database) or when forced."""

from __future__ import annotations

import hashlib
import json
import logging

import discord
from discord import app_commands

from bot.app.glossary import MetaStore

log = logging.getLogger(__name__)


class CommandSync:
    def __init__(self, tree: app_commands.CommandTree, meta: MetaStore) -> None:
        self.tree, self.meta = tree, meta
        self.synced: str | None = None  # "global", "guild" or None, for logs and tests

    def commands_hash(self) -> str:
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands()]
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    async def sync(self, *, guild_id: int | None = None, force: bool = False) -> list[app_commands.AppCommand] | None:
        """Returns what Discord registered; None when nothing was sent or Discord refused (logged: the bot keeps
        running with the commands Discord already has)."""
        try:
            if guild_id:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                self.synced = "guild"
                log.info("commands synced to guild %s", guild_id)
                return synced
            digest = self.commands_hash()
            if not force and await self.meta.get_meta("commands_hash") == digest:
                log.info("command definitions unchanged since the last sync: not syncing")
                return None
            synced = await self.tree.sync()
            await self.meta.set_meta("commands_hash", digest)
            self.synced = "global"
            log.info("commands synced globally")
            return synced
        except discord.HTTPException:
            log.exception("command sync failed; the bot keeps running with the commands Discord already has")
            return None
