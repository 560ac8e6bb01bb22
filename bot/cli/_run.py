"""The commands that talk to Discord: run and sync, the only ones that import discord.py. Resources are built
here and injected into the bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

import discord

from bot import heap
from bot.app.application import Application
from bot.app.background import start_background
from bot.app.catalog import Catalog, load_catalog
from bot.cli._call import Call
from bot.config import Settings
from bot.core.errors import GlossaryError
from bot.discord_app.client import GlossaryBot, use_endpoints
from bot.logs import setup_logging
from bot.storage.errors import StorageError

log = logging.getLogger(__name__)
SHUTDOWN_DEADLINE = 9.0  # seconds from SIGTERM to exit, whatever fails (Docker kills at 10)


def run(call: Call) -> int:
    """`run` (the default): connect the bot to Discord until a signal stops it."""
    return _connect(call, sync_only=False)


def sync(call: Call) -> int:
    """`sync [--guild ID]`: publish the slash commands now, and end."""
    return _connect(call, sync_only=True)


def _connect(call: Call, *, sync_only: bool) -> int:
    say, settings, data_dir = call.say, call.settings, call.data_dir
    shards = settings.shards.label() if settings.shards else "all"
    setup_logging(settings.log_level, settings.log_format, [settings.token or ""], shards)
    if not settings.token:
        print(say("no_token"), file=sys.stderr)
        return 2
    if not Path(data_dir).is_dir():
        print(say("run_no_glossary_dir", path=data_dir), file=sys.stderr)
        return 1
    try:
        catalog = load_catalog(data_dir, settings.cache_dir)
    except GlossaryError as exc:
        print(say("run_invalid_glossary", path=data_dir, report=exc.report(lang=say.lang)), file=sys.stderr)
        return 1
    log.info("glossary: %d terms from %s", len(catalog.glossary), data_dir)
    if not sync_only:
        catalog.index.warm()  # before the first lookup, so that none pays for it
    return asyncio.run(
        serve(settings, catalog, sync_only=sync_only, sync_guild=getattr(call.args, "guild", None), say=say)
    )


async def serve(
    settings: Settings, catalog: Catalog, *, sync_only: bool = False, sync_guild: int | None = None, say=None
) -> int:
    """Open the database, build the bot, connect; returns the process exit code."""
    try:
        app = await Application.open(settings, catalog)
    except StorageError as exc:
        print(exc.text(say.lang) if say else str(exc), file=sys.stderr)
        return 1
    use_endpoints(settings.api_base, settings.gateway_url)
    heap.settle()  # the glossary and its index are loaded for good: out of the collector's way
    bot = GlossaryBot(app, auto_sync=not sync_only)
    code = 0
    try:
        async with bot:
            if sync_only:
                code = await _sync_only(bot, settings, sync_guild, say)
            else:
                _install_signal_handlers(bot)
                await bot.start(settings.token)
    except discord.LoginFailure:
        print(say("bad_token") if say else "Discord refused DISCORD_TOKEN", file=sys.stderr)
        code = 1
    except (discord.GatewayNotFound, discord.ConnectionClosed, OSError) as exc:
        log.error("could not stay connected to Discord: %s", exc)
        code = 1
    finally:
        problems = [*bot.shutdown_problems, *await app.close(grace=3.0)]
    if problems:
        log.error("stopped with problems: %s", "; ".join(problems))
        return code or 1
    log.info("stopped")
    return code


async def _sync_only(bot, settings: Settings, guild_id: int | None, say) -> int:
    await bot.login(settings.token)  # REST only: no gateway connection is needed to publish commands
    synced = await bot.commands_sync.sync(guild_id=guild_id, force=True)
    if synced is None:
        print(say("sync_refused"), file=sys.stderr)
        return 1
    print(
        say("synced_guild", count=len(synced), guild=guild_id) if guild_id else say("synced_global", count=len(synced))
    )
    return 0


def _install_signal_handlers(bot) -> None:
    loop = asyncio.get_running_loop()
    actions = {signal.SIGTERM: bot.shutdown, signal.SIGINT: bot.shutdown, signal.SIGHUP: bot.reload}
    for sig, action in actions.items():
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, _on_signal, bot, sig, action)


def _on_signal(bot, sig: signal.Signals, action) -> None:
    log.info("received %s: %s", sig.name, "reloading the glossary" if sig == signal.SIGHUP else "shutting down")
    loop = asyncio.get_running_loop()
    if sig != signal.SIGHUP and not bot.guard.closing:  # whatever fails or hangs below, the process ends in time
        loop.call_later(SHUTDOWN_DEADLINE, _exit_now, bot)
    start_background(bot.background_tasks, action(), f"glosario-{sig.name.lower()}")


def _exit_now(bot) -> None:
    """The stop did not finish in time: journal what is still queued, say what could not be saved, and end."""
    lost = bot.app.writer.save_now()
    log.error(
        "shutdown did not finish within %.0f s (%s); exiting now%s",
        SHUTDOWN_DEADLINE,
        "; ".join(bot.shutdown_problems) or "something hung",
        f"; {lost} write(s) could be saved in no journal and are only in this log" if lost else "",
    )
    logging.shutdown()
    os._exit(1)
