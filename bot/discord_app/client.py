"""GlossaryBot: wiring only. The application (bot.app) does the work; each feature (a package beside this module,
found by itself) reads interactions and renders; what every feature uses is in kit/."""

from __future__ import annotations

import asyncio
import importlib
import logging
import pkgutil

import discord
import yarl
from discord.ext import commands

from bot import discord_app as features_home
from bot.app.application import Application
from bot.discord_app.cards import card_view
from bot.discord_app.kit.buttons import NO_MENTIONS
from bot.discord_app.kit.cards import CardCache
from bot.discord_app.kit.forms import OpenForms
from bot.discord_app.kit.guard import Guard, validate_interactions
from bot.discord_app.kit.sync import CommandSync
from bot.discord_app.kit.translator import GlossaryTranslator
from bot.discord_app.proposals import tell_on_next_command
from bot.discord_app.server_terms import Drafts

log = logging.getLogger(__name__)


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at another REST base / gateway (a proxy, or the fake Discord of the tests)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def features() -> list[str]:
    """The feature packages of the Discord layer (every package here with a setup(); kit/ has none)."""
    found = []
    for module in pkgutil.iter_modules(features_home.__path__):
        name = f"{features_home.__name__}.{module.name}"
        if module.ispkg and hasattr(importlib.import_module(name), "setup"):
            found.append(name)
    return sorted(found)


class GlossaryBot(commands.AutoShardedBot):
    """Sharded from the start: every shard Discord recommends in one process, or the subset GLOSARIO_SHARDS names
    (several processes, or hosts, splitting one fixed count)."""

    def __init__(self, app: Application, *, guild_ready_timeout: float = 2.0, auto_sync: bool = True) -> None:
        # The bot has no voice: discord.py's warnings about voice libraries would alarm operators for nothing.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # nothing else: no message content, no members
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=NO_MENTIONS,  # every send and edit: user text never pings anyone
            guild_ready_timeout=guild_ready_timeout,
            shard_count=app.settings.shards.count if app.settings.shards else None,
            shard_ids=list(app.settings.shards.ids) if app.settings.shards else None,
        )
        self.app = app
        self.shard_plan = app.settings.shards
        self.cards = CardCache(app.catalog, card_view, app.settings.site_url)
        self.drafts = Drafts()  # server-term forms a save refused, for their authors to fix
        self.forms = OpenForms()  # each member's open forms (modals), and why the recent ones closed
        self.guard = Guard(self.is_closed)
        self.commands_sync = CommandSync(self.tree, app.stores.meta)
        self.auto_sync = auto_sync  # `glosario-bot sync` publishes by itself, once
        self.background_tasks: set[asyncio.Task] = set()  # referenced so they are not garbage-collected
        self.shutdown_problems: list[str] = []  # what a stop could not do (the process then exits non-zero)
        self.tree.on_error = self.guard.on_tree_error
        self.tree.interaction_check = self.guard.accepting_work
        self.guard.on_accepted = lambda interaction: tell_on_next_command(self, interaction)
        validate_interactions(self._connection.parsers)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(GlossaryTranslator())
        # Every feature package beside this module with a setup() is loaded, in name order (admin, which owns
        # /glosario-admin, first): a new one needs no line here. Each registers its own persistent items.
        for name in features():
            await self.load_extension(name)
        await self.app.start()  # (with the question path on, its model starts loading off the loop)
        if self.auto_sync and (self.shard_plan is None or self.shard_plan.publishes_commands):
            await self.commands_sync.sync(guild_id=self.app.settings.dev_guild_id)  # by one process: shard 0's

    def owns(self, guild_id: int) -> bool:
        """Whether a server is on one of this process's shards (its term of the day is this process's to post)."""
        return self.shard_plan is None or self.shard_plan.owns(guild_id)

    def shard_states(self) -> dict[int, bool]:
        """Each of this process's shards: connected or not."""
        return {shard_id: not info.is_closed() for shard_id, info in self.shards.items()}

    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None:
        # (Watched here rather than in an `on_interaction` listener, which would cost a task for every command.)
        if event_name == "interaction":
            interaction: discord.Interaction = args[0]  # type: ignore[assignment]
            self.guard.watch(interaction)
            if interaction.type is discord.InteractionType.modal_submit:  # a form closed meanwhile: answered here
                self.forms.screen(interaction, self.guard.start)
        super().dispatch(event_name, *args, **kwargs)

    async def shutdown(self, grace: float = 6.0) -> None:
        """Stop taking new work, let replies in flight finish (up to `grace` seconds), then disconnect."""
        if self.guard.closing:
            return
        await self.guard.drain(grace)
        try:
            await self.close()
        except Exception as exc:  # the process must still end: the runner reports what went wrong
            self.shutdown_problems.append(f"could not disconnect cleanly: {exc}")
            log.exception("shutdown: closing the connection to Discord failed")

    async def reload(self) -> None:
        """SIGHUP: reload the glossary (the application logs the outcome)."""
        await self.app.glossary.reload()
