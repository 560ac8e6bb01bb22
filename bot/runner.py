"""Commands that need Discord or the database: run, sync, misses. Resources are built here and injected."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import logging
import os
import signal
import sys
from pathlib import Path

import discord

from bot import heap
from bot.catalog import load_catalog
from bot.config import Settings
from bot.core.errors import GlossaryError
from bot.logs import setup_logging
from bot.storage.db import Database, StorageError
from bot.storage.gaps import MissLog

log = logging.getLogger(__name__)
SHUTDOWN_DEADLINE = 9.0  # seconds from SIGTERM to exit, whatever fails (Docker kills at 10)


def dispatch(command: str, args: argparse.Namespace, settings: Settings, data_dir: Path) -> int:
    say = args.say
    if command == "misses":
        return asyncio.run(_misses(settings, args))
    if command == "daily":
        return asyncio.run(_daily(settings, args, data_dir))
    if command in ("resolve", "ignore"):
        return asyncio.run(_set_status(settings, args, data_dir, command))
    setup_logging(settings.log_level, settings.log_format, [settings.token or ""])
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
    return asyncio.run(
        serve(settings, catalog, sync_only=command == "sync", sync_guild=getattr(args, "guild", None), say=say)
    )


async def serve(
    settings: Settings, catalog, *, sync_only: bool = False, sync_guild: int | None = None, say=None
) -> int:
    """Open the database, build the bot, connect; returns the process exit code."""
    from bot.discord_app.client import GlossaryBot, Services, use_endpoints

    try:
        db = await Database.open(settings.db_path)
    except StorageError as exc:
        print(exc.text(say.lang) if say else str(exc), file=sys.stderr)
        return 1
    services = await Services.create(settings, catalog, db)
    use_endpoints(settings.api_base, settings.gateway_url)
    heap.settle()  # the glossary and its index are loaded for good: out of the collector's way
    bot = GlossaryBot(services, auto_sync=not sync_only)
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
        lost = await services.writer.close(grace=3.0)
        try:
            await db.close()
        except Exception as exc:
            bot.shutdown_problems.append(f"could not close the database: {exc}")
            log.error("shutdown: could not close the database %s: %s", settings.db_path, exc)
    if lost or bot.shutdown_problems:
        log.error(
            "stopped with problems: %s",
            "; ".join([*bot.shutdown_problems, *([f"{lost} write(s) lost"] if lost else [])]),
        )
        return code or 1
    log.info("stopped")
    return code


async def _sync_only(bot, settings: Settings, guild_id: int | None, say) -> int:
    await bot.login(settings.token)  # REST only: no gateway connection is needed to publish commands
    synced = await bot.sync_commands(guild_id=guild_id, force=True)
    if synced is None:
        print(say("sync_refused"), file=sys.stderr)
        return 1
    print(
        say("synced_guild", count=len(synced), guild=guild_id) if guild_id else say("synced_global", count=len(synced))
    )
    return 0


def _install_signal_handlers(bot) -> None:
    loop = asyncio.get_running_loop()
    actions = {signal.SIGTERM: bot.shutdown, signal.SIGINT: bot.shutdown, signal.SIGHUP: bot.reload_glossary}
    for sig, action in actions.items():
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, _on_signal, bot, sig, action)


def _on_signal(bot, sig: signal.Signals, action) -> None:
    log.info("received %s: %s", sig.name, "reloading the glossary" if sig == signal.SIGHUP else "shutting down")
    loop = asyncio.get_running_loop()
    if sig != signal.SIGHUP and not bot.closing:  # whatever fails or hangs below, the process ends in time
        loop.call_later(SHUTDOWN_DEADLINE, _exit_now, bot)
    task = loop.create_task(action(), name=f"glosario-{sig.name.lower()}")
    bot.background_tasks.add(task)
    task.add_done_callback(functools.partial(_forget_and_log, bot.background_tasks))


def _exit_now(bot) -> None:
    """The stop did not finish in time: journal what is still queued, say what could not be saved, and end."""
    lost = bot.services.writer.save_now()
    log.error(
        "shutdown did not finish within %.0f s (%s); exiting now%s",
        SHUTDOWN_DEADLINE,
        "; ".join(bot.shutdown_problems) or "something hung",
        f"; {lost} write(s) could be saved nowhere and are lost" if lost else "",
    )
    logging.shutdown()
    os._exit(1)


def _forget_and_log(owner: set[asyncio.Task], task: asyncio.Task) -> None:
    """Background tasks are referenced until done, and their failures are logged, never lost."""
    owner.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("background task %s failed", task.get_name(), exc_info=task.exception())


async def _open_existing(settings: Settings, missing: str, say, *, read_only: bool = False) -> Database | None:
    """The database for an editor's command, or None after saying why (missing, or unusable). Every message
    names the database's absolute path and how to point at another one."""
    path = settings.db_path.resolve()
    if not path.exists():
        print(say(missing, path=path) + " " + say("elsewhere"), file=sys.stderr)
        return None
    try:
        return await (Database.open_read_only(path) if read_only else Database.open(path))
    except StorageError as exc:
        print(exc.text(say.lang) if say else str(exc), file=sys.stderr)
        return None


async def _set_status(settings: Settings, args: argparse.Namespace, data_dir: Path, command: str) -> int:
    """`resolve ID… [--term T]` and `ignore ID…` on the gaps log."""
    term_id, say = None, args.say
    if command == "resolve" and args.term:
        from bot.cli import load_or_report
        from bot.core.search import Found, SearchIndex

        glossary = load_or_report(data_dir, say)
        if glossary is None:
            return 1
        result = SearchIndex(glossary).lookup(args.term)
        if not isinstance(result, Found):
            print(say("not_a_term", term=args.term), file=sys.stderr)
            return 1
        term_id = result.term.id
    db = await _open_existing(settings, "no_database", say)
    if db is None:
        return 1
    log_ = MissLog(db)
    try:
        known = {gap.id for gap in await log_.gaps(status="all", ids=args.ids, limit=len(args.ids))}
        status = "resolved" if command == "resolve" else "ignored"
        changed = await log_.set_status(sorted(known), status, term_id=term_id) if known else 0
    finally:
        await db.close()
    unknown = [str(i) for i in dict.fromkeys(args.ids) if i not in known]
    if unknown:
        print(say("unknown_ids", ids=", ".join(unknown)), file=sys.stderr)
    marked = say(f"marked_{status}", changed=changed, total=len(set(args.ids)))
    print(marked + (f" (→ {term_id})" if term_id else ""))
    return 0 if not unknown else 1


async def _daily(settings: Settings, args: argparse.Namespace, data_dir: Path) -> int:
    """Print the term of the day for a guild and date, from the recorded history when there is one."""
    from datetime import UTC, datetime

    from bot.cli import format_term, load_or_report
    from bot.core import daily
    from bot.storage.daily import DailyStore

    say = args.say
    glossary = load_or_report(data_dir, say)
    if glossary is None:
        return 1
    history, schedule = [], None
    if settings.db_path.exists():  # without a database the pick is the deterministic one, with no history
        db = await _open_existing(settings, "no_database", say, read_only=True)
        if db is None:
            return 1
        try:
            store = DailyStore(db)
            found = await store.settings(args.guild)
            schedule = found.schedule if found else None
            history = await store.history(args.guild)
        finally:
            await db.close()
    today = daily.local_date(datetime.now(UTC), schedule)
    day = args.date or today
    found = daily.forecast(glossary, args.guild, day, history, today, schedule)
    if found is None:
        print(say("forecast_refused", day=day.isoformat(), years=daily.FORECAST_YEARS), file=sys.stderr)
        return 1
    term, _ = found
    note = say("forecast_note") if day > today else ""
    print(say("daily_heading", day=day.isoformat(), guild=args.guild, note=note))
    print(format_term(term, glossary, say))
    return 0


async def _misses(settings: Settings, args: argparse.Namespace) -> int:
    say = args.say
    db = await _open_existing(settings, "no_database_yet", say, read_only=True)
    if db is None:
        return 1
    log_ = MissLog(db)
    fmt = args.format or "table"
    try:
        total = await log_.count(guild_id=args.guild, status=args.status)
        if fmt == "yaml":
            from bot.reports import gaps_yaml

            gaps = (await log_.export(guild_id=args.guild, status=args.status, most_asked=True))[: args.limit]
            where = say("export_guild", guild=args.guild) if args.guild is not None else say("export_everywhere")
            text = gaps_yaml(gaps, await log_.picks(guild_id=args.guild), title=say("export_title", where=where))
        else:
            gaps = await log_.export(guild_id=args.guild, status=args.status)
            gaps = gaps[: args.limit] if args.limit else gaps
    finally:
        await db.close()
    shown = say("limited", shown=len(gaps), total=total) if len(gaps) < total else None
    if fmt == "yaml":
        print(text, end="")
    elif fmt == "csv":
        from bot.reports import gaps_csv

        print(gaps_csv(gaps), end="")
    elif args.json:
        for gap in gaps:
            print(json.dumps(gap.to_dict(), ensure_ascii=False))
    elif not gaps:
        print(say("no_gaps"))
    else:
        columns = dict(
            zip(
                ("id", "count", "askers", "status", "guild", "last", "query"),
                say("gaps_columns").split("|"),
                strict=True,
            )
        )
        print(say("gaps_header", **columns))
        for g in gaps:
            row = say(
                "gaps_header",
                id=g.id,
                count=g.count,
                askers=g.askers,
                status=say(f"status_{g.status}"),
                guild=g.guild_id,
                last=g.last_seen,
                query=g.sample,
            )
            print(row + (f"  ({g.best_guess}?)" if g.best_guess else ""))
    if shown:  # a limited list says so (on stderr: files and pipes get only the data)
        print(shown, file=sys.stderr if fmt != "table" or args.json else sys.stdout)
    return 0
