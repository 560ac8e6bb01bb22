"""The editors' database commands: gaps, resolve, ignore, daily, migrate, migrate-data, server-terms, feedback,
forget-user, forget-guild, and ask and export with --guild. They call the same application actions and stores as
the bot, and never import discord.py (they start as fast as `lookup`); the bot itself (`run`, `sync`) is _run.py.
Each handler is a coroutine of a Call, run by the command line's main."""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, date, datetime
from pathlib import Path

from bot.cli._call import EVERY_STATUS, Call
from bot.cli._terminal import answer_lines, format_term, json_line, load_or_report, os_said, printable, shown, write_out
from bot.cli._words import Words
from bot.config import Settings
from bot.core import daily
from bot.core.model import Glossary
from bot.core.problems import said
from bot.core.status import GapStatus, Vote
from bot.storage import Stores, open_stores
from bot.storage.errors import DatabaseBusy, StorageError, busy_reason
from bot.storage.records import Gap

MARKED = {GapStatus.RESOLVED: "marked_resolved", GapStatus.IGNORED: "marked_ignored"}
STATUS_WORDS = {
    GapStatus.OPEN: "status_open",
    GapStatus.RESOLVED: "status_resolved",
    GapStatus.IGNORED: "status_ignored",
}
COLUMNS = ("id", "count", "askers", "status", "guild", "last", "query")


async def _open_existing(settings: Settings, missing: str, say: Words, *, read_only: bool = False) -> Stores | None:
    """The database for an editor's command, or None after saying why (missing, or unusable). Every message
    names the database's absolute path and how to point at another one."""
    database = settings.database
    if isinstance(database, Path):  # (a PostgreSQL address is checked by connecting)
        try:
            folder, present = database.is_dir(), database.exists()
        except OSError as exc:  # (a name too long for the system, say)
            print(say("database_path_unusable", path=database, error=os_said(exc, say)), file=sys.stderr)
            return None
        if folder:  # (said as the bot says it: the storage's own sentence)
            wrong = _a_folder(database, say)
            print(f"{wrong} {say('elsewhere')}", file=sys.stderr)
            return None
        if not present:
            print(f"{say(missing, path=database)} {say('elsewhere')}", file=sys.stderr)
            return None
    try:
        return await open_stores(database, read_only=read_only)
    except StorageError as exc:
        print(exc.text(say.lang), file=sys.stderr)
        return None


def _a_folder(path: Path, say: Words) -> str:
    """A database path that is a folder, said as the bot says it (the storage's own sentence)."""
    return say("database_path_unusable", path=path, error=said("db_is_a_folder").text(say.lang))


def _present(path: Path) -> bool:
    """Whether there is something at `path`; True when the system cannot even say (a name too long, no permission):
    opening it then says why, in a sentence."""
    try:
        return path.exists()
    except OSError:
        return True


def _folder(path: Path) -> bool:
    """Whether `path` is a folder; False when the system cannot even say (opening it then says why)."""
    try:
        return path.is_dir()
    except OSError:
        return False


async def _with_server_terms(call: Call, use) -> int:
    """Run `use(terms, catalog)` with a server's own terms (read-only) beside the published glossary."""
    from bot.app.catalog import CatalogHolder, load_catalog
    from bot.app.community.server_terms import ServerTerms
    from bot.core.errors import GlossaryError

    say = call.say
    try:
        catalog = load_catalog(call.data_dir)
    except GlossaryError as exc:
        print(exc.report(lang=say.lang), file=sys.stderr)
        return 1
    stores = await _open_existing(call.settings, "no_database", say, read_only=True)
    if stores is None:
        return 1
    try:
        terms = ServerTerms(stores.server_terms, CatalogHolder(catalog), stores.gaps, lambda: datetime.now(UTC))
        return await use(terms, catalog)
    finally:
        await stores.close()


async def server_terms(call: Call) -> int:
    """`server-terms --guild ID`: a server's own terms as a term file (stdout), ready for glossary_data/."""
    args = call.args

    async def write(terms, catalog) -> int:
        text, count = await terms.export(args.guild)
        print(text, end="")
        print(call.say.count("server_terms_count", count, count=count, guild=args.guild), file=sys.stderr)
        return _said_set_aside(await terms.prepare(args.guild), call.say)

    return await _with_server_terms(call, write)


def _said_set_aside(overlay, say: Words) -> int:
    """1, after naming them on stderr, when some of the server's stored terms no longer pass the checks and were
    left out; else 0."""
    names = overlay.set_aside if overlay is not None else ()
    if not names:
        return 0
    listed = ", ".join(shown(name) for name in names)
    print(say.count("server_terms_set_aside", len(names), count=len(names), names=listed), file=sys.stderr)
    return 1


async def export_guild(call: Call) -> int:
    """`export --guild ID --format F`: a server's own terms in another format (related published terms named)."""
    from bot.app.interchange.formats import DEFAULT_BASE, export

    args = call.args

    async def write(terms, catalog) -> int:
        overlay = await terms.prepare(args.guild)
        own = overlay.glossary if overlay else Glossary(catalog.glossary.title, "", "es", ())
        text = export(own, args.format, base=args.base or DEFAULT_BASE, context=catalog.glossary)
        if args.out is None:
            sys.stdout.write(text)
        elif not write_out(args.out, text, call.say):
            return 1
        print(call.say.count("server_terms_count", len(own), count=len(own), guild=args.guild), file=sys.stderr)
        return _said_set_aside(overlay, call.say)

    return await _with_server_terms(call, write)


async def ask_guild(call: Call) -> int:
    """`ask QUESTION --guild ID`: the question asked of the published glossary and that server's own terms."""
    from bot.app.questions.service import Questions, Verdict
    from bot.core.model import Layered

    args = call.args

    async def answer(terms, catalog) -> int:
        from bot.app.catalog import CatalogHolder

        overlay = await terms.prepare(args.guild)
        questions = Questions(CatalogHolder(catalog), call.settings.cache_dir)
        found = await asyncio.to_thread(questions.ask_now, " ".join(args.text), overlay)
        names = Layered(catalog.glossary, overlay.glossary if overlay else None)
        for line in answer_lines(found, names, call.say, args.json):
            print(line)
        return 0 if found.verdict is Verdict.CONFIDENT else 1

    return await _with_server_terms(call, answer)


async def forget_user(call: Call) -> int:
    """`forget-user USER_ID [--yes]`: a member, in every server."""
    return await _forget(call, member=True)


async def forget_guild(call: Call) -> int:
    """`forget-guild GUILD_ID [--yes]`: a server, in every table."""
    return await _forget(call, member=False)


async def _forget(call: Call, *, member: bool) -> int:
    """`forget-user USER_ID` / `forget-guild GUILD_ID`: what names the member (or is the server's), per table, and
    the journals' records; removed only with --yes (the bot's own action: bot.app.privacy.erasure)."""
    from datetime import timedelta

    from bot.app.privacy.erasure import Erasure
    from bot.storage.errors import DatabaseBusy

    settings, args, say = call.settings, call.args, call.say
    stores = await _open_existing(settings, "no_database", say, read_only=not args.yes)
    if stores is None:
        return 1
    try:
        grace = timedelta(days=settings.forget_guild_after_days)
        salt = await stores.meta.existing_salt()
        cache = {} if member or not args.yes else _question_cache(call, stores)
        erasure = Erasure(stores.erasure, salt, settings.journal_files, lambda: datetime.now(UTC), grace=grace, **cache)
        forget = erasure.forget_member if member else erasure.forget_server
        erased = await forget(args.target, dry_run=not args.yes)
    except (DatabaseBusy, OSError) as exc:
        why = busy_reason(exc).text(say.lang) if isinstance(exc, DatabaseBusy) else os_said(exc, say)
        print(say("forget_failed", error=printable(why)), file=sys.stderr)
        return 1
    finally:
        await stores.close()
    what = say("forget_user_what" if member else "forget_guild_what", id=args.target)
    print(say("forget_done" if args.yes else "forget_dry_run", what=what))
    lines = [say("forget_table", table=t, rows=say.amount("rows_n", n)) for t, n in erased.removed.items() if n]
    lines += [
        say("forget_table_anonymised", table=t, rows=say.amount("rows_n", n)) for t, n in erased.anonymised.items() if n
    ]
    for line in lines or [say("forget_nothing")]:
        print(line)
    print(say("forget_journaled", count=erased.journaled))
    if not args.yes:
        print(say("forget_then_yes"))
    return 0


def _question_cache(call: Call, stores: Stores) -> dict:
    """What forget-guild needs to drop a server's vectors from the question path's cache folder: the published
    glossary (a server's texts name its terms' related published ones) and every server's terms."""
    from bot.app.catalog import CatalogHolder, load_catalog
    from bot.app.community.server_terms import ServerTerms
    from bot.core.errors import GlossaryError

    if call.settings.cache_dir is None:
        return {}
    try:
        catalog = CatalogHolder(load_catalog(call.data_dir))
    except GlossaryError as exc:  # (the rows still go; the vectors stay until a run with a valid glossary)
        print(exc.report(lang=call.say.lang), file=sys.stderr)
        return {}

    def questions():
        from bot.app.questions.service import Questions

        return Questions(catalog, call.settings.cache_dir)

    terms = ServerTerms(stores.server_terms, catalog, stores.gaps, lambda: datetime.now(UTC))
    return {"server_terms": terms, "questions": questions}


async def feedback(call: Call) -> int:
    """`feedback [--guild ID] [--json]`: every vote and comment on the definitions (who voted is never stored), by
    server, term and time; --json gives JSON Lines, one object per vote."""
    args, say = call.args, call.say
    stores = await _open_existing(call.settings, "no_database_yet", say, read_only=True)
    if stores is None:
        return 1
    try:
        rows = await stores.feedback.export(guild_id=args.guild)
    finally:
        await stores.close()
    if args.json:
        for row in rows:
            print(json_line(row.to_dict()))
        return 0
    if not rows:
        print(say("no_feedback"))
        return 0
    names = dict(zip(("guild", "term", "vote", "at", "comment"), say("feedback_columns").split("|"), strict=True))
    print(say("feedback_header", **names))
    for row in rows:
        vote = say("vote_helpful" if row.vote == Vote.HELPFUL else "vote_unhelpful")
        comment = printable(row.comment or "")
        print(say("feedback_header", guild=row.guild_id, term=row.term_id, vote=vote, at=row.at, comment=comment))
    helpful = sum(row.vote == Vote.HELPFUL for row in rows)
    counts = {"helpful": helpful, "unhelpful": len(rows) - helpful, "comments": sum(bool(r.comment) for r in rows)}
    print(say.count("feedback_total", len(rows), count=len(rows), **counts))
    return 0


async def migrate(call: Call) -> int:
    """`migrate`: create the database, or bring its schema up to this version's (what a start does too)."""
    say = call.say
    try:
        stores = await open_stores(call.settings.database)
    except StorageError as exc:
        print(exc.text(say.lang), file=sys.stderr)
        return 1
    try:
        version, applied = await stores.schema_version(), stores.migrated
    finally:
        await stores.close()
    if applied:
        numbers = ", ".join(map(str, applied))
        print(say.count("migrated", len(applied), path=stores.location, version=version, applied=numbers))
    else:
        print(say("migrate_current", path=stores.location, version=version))
    return 0


async def migrate_data(call: Call) -> int:
    """`migrate-data --from URL --to URL`: every row of one database into another, empty one (created and
    migrated if needed): SQLite → PostgreSQL when the bot outgrows one process, or back."""
    from bot.config import SettingsError, database_path, is_postgres
    from bot.storage.copy import copy_all

    args, say = call.args, call.say
    try:
        source, target = (url if is_postgres(url) else database_path(url) for url in (args.source, args.target))
    except SettingsError as exc:
        print(exc.text(say.lang), file=sys.stderr)
        return 2
    if isinstance(source, Path) and not _present(source):
        print(say("no_database", path=source), file=sys.stderr)
        return 1
    if isinstance(source, Path) and _folder(source):  # (SQLite would call it a disk I/O error)
        print(_a_folder(source, say), file=sys.stderr)
        return 1
    opened = []
    try:
        opened.append(await open_stores(source, read_only=True))
        opened.append(await open_stores(target))
        copied = await copy_all(*opened)
    except StorageError as exc:
        print(exc.text(say.lang), file=sys.stderr)
        return 1
    finally:
        for stores in opened:
            await stores.close()
    rows, tables = say.amount("rows_n", sum(copied.rows.values())), say.amount("tables_n", len(copied.rows))
    print(say("migrated_data", rows=rows, tables=tables, to=opened[1].location))
    return 0


async def resolve(call: Call) -> int:
    """`resolve ID… [--term T]` and `resolve --answered` on the gaps log."""
    return await _set_status(call, GapStatus.RESOLVED)


async def ignore(call: Call) -> int:
    """`ignore ID…` on the gaps log."""
    return await _set_status(call, GapStatus.IGNORED)


async def _set_status(call: Call, status: GapStatus) -> int:
    args, say, term_id, index = call.args, call.say, None, None
    if status is GapStatus.RESOLVED and (args.term is not None or args.answered):
        # (Imported here, not for a cycle: only these two need the search index, and the rest start faster.)
        from bot.app.catalog import build_index

        glossary = load_or_report(call.data_dir, say)
        if glossary is None:
            return 1
        index = build_index(glossary)
        if args.term is not None:  # (an empty one is not "none given": it names no term)
            from bot.core.search import Found

            result = index.lookup(args.term)
            if not isinstance(result, Found):
                print(say("not_a_term", term=shown(args.term)), file=sys.stderr)
                return 1
            term_id = result.term.id
    stores = await _open_existing(call.settings, "no_database", say)
    if stores is None:
        return 1
    try:
        if getattr(args, "answered", False):
            from bot.app.glossary import resolve_answered

            resolved = await resolve_answered(index, stores.gaps)
            print(say.count("resolved_answered", len(resolved), count=len(resolved)))
            return 0
        known, changed = await _mark(stores, args.ids, status, term_id)
    except DatabaseBusy as exc:  # (another process holds the lock past its wait, or the disk refused the write)
        unsaved = "answered_not_saved" if getattr(args, "answered", False) else "status_not_saved"
        print(say(unsaved, path=stores.location, error=printable(busy_reason(exc).text(say.lang))), file=sys.stderr)
        return 1
    finally:
        await stores.close()
    unknown = [str(i) for i in dict.fromkeys(args.ids) if i not in known]
    if unknown:
        print(say.count("unknown_ids", len(unknown), ids=", ".join(unknown)), file=sys.stderr)
    total = len(set(args.ids))
    marked = say.count(MARKED[status], total, changed=changed, total=total)
    print(marked + (f" (→ {term_id})" if term_id else ""))
    return 0 if not unknown else 1


IDS_AT_ONCE = 1000  # ids in one statement (PostgreSQL takes at most 32,767 parameters, SQLite 32,766)


async def _mark(stores: Stores, ids: list[int], status: GapStatus, term_id: str | None) -> tuple[set[int], int]:
    """The ids among `ids` that name a gap, and how many of them changed status: all marked in one transaction,
    or none."""
    unique = sorted(set(ids))
    chunks = [unique[start : start + IDS_AT_ONCE] for start in range(0, len(unique), IDS_AT_ONCE)]
    known: set[int] = set()
    changed = 0
    async with stores.unit.transaction():
        for chunk in chunks:
            found = {gap.id for gap in await stores.gaps.gaps(status=None, ids=chunk, limit=len(chunk))}
            changed += await stores.gaps.set_status(sorted(found), status, term_id=term_id) if found else 0
            known |= found
    return known, changed


async def daily_term(call: Call) -> int:
    """Print the term of the day for a guild and date: for a past date, the one recorded then (or that none was);
    for today or a later date, the pick for that date."""
    settings, args, say = call.settings, call.args, call.say
    glossary = load_or_report(call.data_dir, say)
    if glossary is None:
        return 1
    history, schedule = [], None
    if settings.postgres or _present(settings.db_path):  # without a database: the deterministic pick, no history
        stores = await _open_existing(settings, "no_database", say, read_only=True)
        if stores is None:
            return 1
        try:
            found = await stores.daily.settings(args.guild)
            schedule = found.schedule if found else None
            history = await stores.daily.history(args.guild)
        finally:
            await stores.close()
    today = daily.local_date(datetime.now(UTC), schedule)
    day = args.date or today
    if day < today:  # the past is what was recorded, not a pick made now
        return _daily_recorded(glossary, call, day, history)
    found = daily.forecast(glossary, args.guild, day, history, today, schedule)
    if found is None:
        print(say("forecast_refused", day=day.isoformat(), years=daily.FORECAST_YEARS), file=sys.stderr)
        return 1
    term, _ = found
    note = say("forecast_note") if day > today else ""
    print(say("daily_heading", day=day.isoformat(), guild=args.guild, note=note))
    print(format_term(term, glossary, say))
    return 0


def _daily_recorded(glossary: Glossary, call: Call, day: date, history: list[daily.DailyEntry]) -> int:
    """A past date: the term recorded for it in the daily post history, or a sentence saying there is none (a
    normal answer, like a lookup that finds nothing: on stdout, exit status 1)."""
    args, say = call.args, call.say
    entry = next((e for e in history if e.day == day), None)
    if entry is None:
        print(say("daily_not_recorded", day=day.isoformat(), guild=args.guild))
        return 1
    term = glossary.get(entry.term_id)
    if term is None:  # a server's own term, or one removed from the term files since
        print(say("daily_recorded_elsewhere", day=day.isoformat(), guild=args.guild, id=entry.term_id))
        return 0
    print(say("daily_heading", day=day.isoformat(), guild=args.guild, note=""))
    print(format_term(term, glossary, say))
    return 0


async def gaps(call: Call) -> int:
    """`gaps [--guild ID] [--status S] [--json | --format F] [--limit N]`: the questions nobody could answer."""
    args, say = call.args, call.say
    fmt = args.format or "table"
    glossary = None
    if fmt == "yaml":  # the stubs' title is the glossary's own (glossary.yaml), as the page's
        glossary = load_or_report(call.data_dir, say)
        if glossary is None:
            return 1
    stores = await _open_existing(call.settings, "no_database_yet", say, read_only=True)
    if stores is None:
        return 1
    gaps_store = stores.gaps
    status = None if args.status == EVERY_STATUS else GapStatus(args.status)  # (None: every status)
    try:
        total = await gaps_store.count(guild_id=args.guild, status=status)
        gaps = await gaps_store.export(
            guild_id=args.guild, status=status, most_asked=fmt == "yaml", limit=args.limit or None
        )
        picks = await gaps_store.picks(guild_id=args.guild) if fmt == "yaml" else []
    finally:
        await stores.close()
    from bot.app.review.exports import gaps_csv, gaps_yaml  # (only for files: the table starts faster without it)

    if fmt == "yaml" and glossary is not None:
        where = (
            say("export_everywhere")
            if args.guild is None
            else say("export_direct")
            if args.guild == 0
            else say("export_guild", guild=args.guild)
        )
        title = say("export_title", glossary=glossary.title, where=where)
        print(gaps_yaml(gaps, picks, title=title, lang=say.lang), end="")
    elif fmt == "csv":
        text = gaps_csv(gaps)
        if sys.stdout.isatty():  # (read on a screen, not a file: members' control characters shown as escapes)
            text = "\n".join(printable(line) for line in text.split("\n"))
        print(text, end="")
    elif args.json:
        for gap in gaps:
            print(json_line(gap.to_dict()))
    else:
        _print_table(gaps, say)
    if len(gaps) < total:  # a limited list says so (on stderr: files and pipes get only the data)
        print(
            say("limited", shown=len(gaps), total=total), file=sys.stderr if fmt != "table" or args.json else sys.stdout
        )
    return 0


def _print_table(gaps: list[Gap], say: Words) -> None:
    if not gaps:
        print(say("no_gaps"))
        return
    print(say("gaps_header", **dict(zip(COLUMNS, say("gaps_columns").split("|"), strict=True))))
    for g in gaps:
        row = say(
            "gaps_header",
            id=g.id,
            count=g.count,
            askers=g.askers,
            status=say(STATUS_WORDS[g.status]),
            guild=g.guild_id,
            last=g.last_seen,
            query=printable(g.sample),  # (a member's text: no escape sequence reaches the terminal)
        )
        print(row + (f"  ({g.best_guess}?)" if g.best_guess else ""))
