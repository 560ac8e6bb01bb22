"""The editors' database commands: misses, daily, resolve, ignore. They never import discord.py, so they start
as fast as `lookup`; the bot itself (`run`, `sync`) is runner.py."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.config import Settings
from bot.core.status import GapStatus
from bot.storage.db import Database, StorageError
from bot.storage.gaps import MissLog
from bot.terminal import format_term, load_or_report

MARKED = {GapStatus.RESOLVED: "marked_resolved", GapStatus.IGNORED: "marked_ignored"}
STATUS_WORDS = {
    GapStatus.OPEN: "status_open",
    GapStatus.RESOLVED: "status_resolved",
    GapStatus.IGNORED: "status_ignored",
}


def dispatch(command: str, args: argparse.Namespace, settings: Settings, data_dir: Path) -> int:
    if command == "misses":
        return asyncio.run(_misses(settings, args))
    if command == "daily":
        return asyncio.run(_daily(settings, args, data_dir))
    return asyncio.run(_set_status(settings, args, data_dir, command))


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
        status = GapStatus.RESOLVED if command == "resolve" else GapStatus.IGNORED
        changed = await log_.set_status(sorted(known), status, term_id=term_id) if known else 0
    finally:
        await db.close()
    unknown = [str(i) for i in dict.fromkeys(args.ids) if i not in known]
    if unknown:
        print(say("unknown_ids", ids=", ".join(unknown)), file=sys.stderr)
    marked = say(MARKED[status], changed=changed, total=len(set(args.ids)))
    print(marked + (f" (→ {term_id})" if term_id else ""))
    return 0 if not unknown else 1


async def _daily(settings: Settings, args: argparse.Namespace, data_dir: Path) -> int:
    """Print the term of the day for a guild and date, from the recorded history when there is one."""
    from datetime import UTC, datetime

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
                status=say(STATUS_WORDS[g.status]),
                guild=g.guild_id,
                last=g.last_seen,
                query=g.sample,
            )
            print(row + (f"  ({g.best_guess}?)" if g.best_guess else ""))
    if shown:  # a limited list says so (on stderr: files and pipes get only the data)
        print(shown, file=sys.stderr if fmt != "table" or args.json else sys.stdout)
    return 0
