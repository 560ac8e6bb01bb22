"""Command line: run | lookup | search | ask | validate | list | misses | resolve | ignore | daily | migrate | sync |
health | invite-url. Thin: parse, call the application (or the core), print in the user's language."""

from __future__ import annotations

import argparse
import difflib
import json
import shlex
import sys
from datetime import date
from pathlib import Path

from bot import __version__
from bot.app.files import load_glossary
from bot.cli_text import Words
from bot.config import Settings, SettingsError, locale_language
from bot.core.errors import GlossaryError
from bot.core.mentions import first_sentence
from bot.core.model import Glossary
from bot.core.search import Found
from bot.core.status import GapStatus
from bot.terminal import format_lookup, load_or_report, lookup_json

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
FORGET = ("forget-user", "forget-guild")
ALIASES = {"misses": "gaps"}  # older names of commands, still accepted
DATABASE = ("gaps", "daily", "resolve", "ignore", "migrate", "migrate-data", "server-terms", "feedback", *FORGET)


def _types(say: Words) -> tuple:
    def positive_int(text: str) -> int:
        """A whole number above zero (ids, limits): anything else is refused with a sentence."""
        if not (text.isascii() and text.isdigit()) or int(text) <= 0:
            raise argparse.ArgumentTypeError(say("not_positive", text=text))
        return int(text)

    def iso_date(text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise argparse.ArgumentTypeError(say("not_a_date", text=text)) from None

    return positive_int, iso_date


class _Parser(argparse.ArgumentParser):
    """argparse that suggests the closest command, choice or option to a mistyped one, and reports an unknown
    option with the usage of the command it was given to."""

    def __init__(self, *args, say: Words, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.say = say

    def _check_value(self, action: argparse.Action, value: object) -> None:
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as exc:
            close = difflib.get_close_matches(str(value), [str(c) for c in action.choices or ()], n=1)
            if not close:
                raise
            raise argparse.ArgumentError(action, f"{exc.message}; {self._did_you_mean(close[0])}") from None

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            commands = next((a.choices for a in self._actions if isinstance(a, argparse._SubParsersAction)), {})
            in_hand = commands.get(getattr(parsed, "command", None), self)  # type: ignore[union-attr]
            in_hand.unrecognized(unknown)
        return parsed

    def unrecognized(self, unknown: list[str]) -> None:
        """Refuse arguments this (sub)command does not take, with its own usage and the closest option."""
        message = argparse._("unrecognized arguments: %s") % " ".join(unknown)  # type: ignore[attr-defined]
        options = [option for action in self._actions for option in action.option_strings]
        for given in (u.split("=", 1)[0] for u in unknown if u.startswith("-")):
            close = difflib.get_close_matches(given, options, n=1)
            if close:
                message += f"; {self._did_you_mean(close[0])}"
                break
        self.error(message)

    def _did_you_mean(self, name: str) -> str:
        return self.say("did_you_mean_this", name=name)


def _parser(say: Words) -> argparse.ArgumentParser:
    parser = _Parser(prog="glosario-bot", description=say("prog_description"), say=say)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}", help=say("version_help"))
    parser.add_argument("--data", type=Path, help=say("data_help"))
    sub = parser.add_subparsers(dest="command", metavar=say("command_metavar"))

    def command(name: str, help_key: str) -> argparse.ArgumentParser:
        older = [old for old, new in ALIASES.items() if new == name]
        p = sub.add_parser(name, aliases=older, help=say(help_key), description=say(help_key), say=say)
        # --data is accepted after the command too (`lookup --data DIR q`); given there, it wins.
        p.add_argument("--data", type=Path, default=argparse.SUPPRESS, help=say("data_help"))
        return p

    command("run", "run_help")
    p = command("lookup", "lookup_help")
    p.add_argument("queries", nargs="+", metavar=say("query_metavar"), help=say("lookup_queries"))
    p.add_argument("--json", action="store_true", help=say("lookup_json"))
    p = command("search", "search_help")
    p.add_argument("text", nargs="+", metavar=say("text_metavar"), help=say("search_text"))
    p.add_argument("--json", action="store_true", help=say("search_json"))
    _ask_command(say, command)
    p = command("validate", "validate_help")
    p.add_argument("directory", nargs="?", type=Path, metavar="DIR", help=say("validate_dir"))
    command("list", "list_help")
    p = command("export", "export_help")
    formats = ["tbx", "skos", "skos-jsonld", "skos-rdfxml", "csv", "json"]
    p.add_argument("--format", required=True, choices=formats, help=say("export_format"))
    p.add_argument("--out", type=Path, help=say("export_out"))
    p.add_argument("--base", default=None, help=say("export_base"))
    p.add_argument("--guild", type=_types(say)[0], help=say("export_guild_help"))
    p = command("site", "site_help")
    p.add_argument("outdir", type=Path, metavar="DIR", help=say("site_outdir"))
    p = command("import", "import_help")
    p.add_argument("file", type=Path, metavar=say("file_metavar"), help=say("import_file"))
    p.add_argument("--category", help=say("import_category"))
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, default=Path("glossary_import"), help=say("import_out"))
    where.add_argument("--into", type=Path, metavar="DIR", help=say("import_into"))
    p.add_argument("--format", choices=formats, help=say("import_format"))
    _import_options(p, say)
    _database_commands(say, command)
    command("health", "health_help")
    p = command("invite-url", "invite_help")
    p.add_argument("--app-id", type=_types(say)[0], help=say("app_id_help"))
    return parser


def _import_options(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("--lang", help=say("import_lang"))
    p.add_argument("--map", dest="column_map", metavar="CAMPO=COLUMNA,…", help=say("import_map"))
    p.add_argument("--encoding", help=say("import_encoding"))
    p.add_argument("--json", action="store_true", help=say("import_json"))
    p.add_argument("--dry-run", action="store_true", help=say("import_dry_run"))
    p.add_argument("--replace", action="store_true", help=say("import_replace"))


def _ask_command(say: Words, command) -> None:
    p = command("ask", "ask_help")
    p.add_argument("text", nargs="+", metavar=say("text_metavar"), help=say("ask_text"))
    p.add_argument("--json", action="store_true", help=say("ask_json"))
    p.add_argument("--guild", type=_types(say)[0], help=say("ask_guild"))


def _database_commands(say: Words, command) -> None:
    positive_int, iso_date = _types(say)
    p = command("gaps", "misses_help")
    p.add_argument("--guild", type=positive_int, help=say("guild_only"))
    p.add_argument("--status", choices=[*map(str, GapStatus), "all"], default=GapStatus.OPEN, help=say("status_help"))
    p.add_argument("--json", action="store_true", help=say("misses_json"))
    p.add_argument("--format", choices=["table", "csv", "yaml"], default=None, help=say("format_help"))
    p.add_argument("--limit", type=positive_int, help=say("limit_help"))
    p = command("resolve", "resolve_help")
    p.add_argument("ids", nargs="*", type=positive_int, metavar="ID", help=say("ids_help"))
    p.add_argument("--term", help=say("term_help"))
    p.add_argument("--answered", action="store_true", help=say("answered_help"))
    p = command("ignore", "ignore_help")
    p.add_argument("ids", nargs="+", type=positive_int, metavar="ID", help=say("ids_help"))
    p = command("sync", "sync_help")
    p.add_argument("--guild", type=positive_int, help=say("sync_guild"))
    p = command("daily", "daily_help")
    p.add_argument("--guild", type=int, default=0, help=say("daily_guild"))
    p.add_argument("--date", type=iso_date, help=say("daily_date"))
    command("migrate", "migrate_help")
    p = command("migrate-data", "migrate_data_help")
    p.add_argument("--from", dest="source", required=True, metavar="URL", help=say("migrate_data_from"))
    p.add_argument("--to", dest="target", required=True, metavar="URL", help=say("migrate_data_to"))
    p = command("server-terms", "server_terms_help")
    p.add_argument("--guild", type=positive_int, required=True, help=say("server_terms_guild"))
    p = command("feedback", "feedback_help")
    p.add_argument("--guild", type=positive_int, help=say("guild_only"))
    p.add_argument("--json", action="store_true", help=say("feedback_json"))
    p = command("forget-user", "forget_user_help")
    p.add_argument("target", type=positive_int, metavar="USER_ID", help=say("forget_user_id"))
    p.add_argument("--yes", action="store_true", help=say("forget_yes"))
    p = command("forget-guild", "forget_guild_help")
    p.add_argument("target", type=positive_int, metavar="GUILD_ID", help=say("forget_guild_id"))
    p.add_argument("--yes", action="store_true", help=say("forget_yes"))


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # `glosario-bot list | head`: the reader left, nothing is wrong
        sys.stderr.close()
        return EXIT_OK


def _main(argv: list[str] | None) -> int:
    say = Words(locale_language())
    say.speak_argparse()
    parser = _parser(say)
    args = parser.parse_args(argv)
    args.say = say
    if getattr(args, "json", False) and getattr(args, "format", None) not in (None, "table"):
        parser.error(say("json_and_format"))
    if args.command == "resolve" and not args.ids and not args.answered:
        parser.error(say("ids_or_answered"))
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(say("settings_error", error=exc.text(say.lang)), file=sys.stderr)
        return EXIT_USAGE
    data_dir = args.data or settings.data_dir
    command = ALIASES.get(args.command, args.command) or "run"
    if command in DATABASE or (command in ("export", "ask") and args.guild):
        from bot import offline  # the database, not Discord: discord.py is never imported for these

        return offline.dispatch(command, args, settings, data_dir)
    if command in ("run", "sync"):
        from bot import runner  # imports discord only when it is needed

        return runner.dispatch(command, args, settings, data_dir)
    if command == "validate":
        return _validate(args.directory or data_dir, say)
    if command == "import":
        return _import(args, say)
    if command == "health":
        return _health(settings, say)
    if command == "invite-url":
        return _invite(args, settings, say)
    glossary = load_or_report(data_dir, say)
    if glossary is None:
        return EXIT_FAIL
    if command == "list":
        return _list(glossary)
    if command == "export":
        return _export(args, glossary, say)
    if command == "site":
        return _site(args, glossary, say)
    if command == "ask":
        return _ask(args, glossary, settings, say)
    return _lookup(args, glossary, say) if command == "lookup" else _search(args, glossary, say)


def _export(args: argparse.Namespace, glossary: Glossary, say: Words) -> int:
    """`export --format F [--out FILE]`: the published glossary in a terminology standard, a spreadsheet or JSON."""
    from bot.app.interchange import DEFAULT_BASE, export

    text = export(glossary, args.format, base=args.base or DEFAULT_BASE)
    if args.out is None:
        sys.stdout.write(text)
        return EXIT_OK
    args.out.write_text(text, encoding="utf-8")
    print(say.count("exported", len(glossary), count=len(glossary), path=args.out), file=sys.stderr)
    return EXIT_OK


def _site(args: argparse.Namespace, glossary: Glossary, say: Words) -> int:
    """`site OUTDIR`: the glossary as one self-contained web page."""
    from bot.app.site import write_site

    try:
        path = write_site(glossary, args.outdir)
    except OSError as exc:
        print(say("site_unwritable", path=args.outdir, error=exc.strerror or exc), file=sys.stderr)
        return EXIT_FAIL
    print(say.count("site_written", len(glossary), count=len(glossary), path=path))
    return EXIT_OK


def _import(args: argparse.Namespace, say: Words) -> int:
    """`import FILE [--category NAME] [--out DIR | --into DIR] [--lang L] [--map …] [--json] [--dry-run]
    [--replace]`: term files in our format from TBX, SKOS, CSV or JSON; every entry imported or refused with its
    reason, every field not kept counted, nothing overwritten unless asked; `--into DIR` merges into a glossary
    folder."""
    from bot.app.imports import DEFAULT_CATEGORY, clashes, report, write

    base = _import_base(args, say) if args.into is not None else None
    if isinstance(base, int):
        return base
    args.lang = args.lang or (base.glossary.language if base else "es")
    args.out = args.into or args.out  # (what is written, and the folder the closing hint validates)
    imported = _read_import(args, say)
    if isinstance(imported, int):
        return imported
    summary = report(imported, args.category or DEFAULT_CATEGORY, base)
    existing = [] if args.replace or args.dry_run else clashes(args.out, summary.files)
    if existing:
        print(say("import_exists", path=existing[0], count=len(existing)), file=sys.stderr)
        return EXIT_FAIL
    if summary.files and not args.dry_run:
        write(args.out, summary.files, imported.title.split(" — ")[0], args.lang)
    if args.json:
        print(json.dumps(summary.to_json(say.lang), ensure_ascii=False, indent=2))
    else:
        _import_summary(args, say, summary)
    return EXIT_OK if summary.imported and not summary.refused else EXIT_FAIL


def _import_base(args: argparse.Namespace, say: Words):
    """The folder `--into` names, or an exit code when it is no valid glossary (said as `validate` says it)."""
    from bot.app.merge import open_base

    if args.replace:
        print(say("import_into_replace"), file=sys.stderr)
        return EXIT_USAGE
    try:
        return open_base(args.into)
    except GlossaryError as exc:
        print(say("invalid_glossary", path=args.into, report=exc.report(lang=say.lang)), file=sys.stderr)
        return EXIT_FAIL


def _read_import(args: argparse.Namespace, say: Words):
    """The file's entries, or an exit code when it cannot be read at all (said on stderr)."""
    from bot.app.csv_in import decode, parse_map, read_csv
    from bot.app.interchange import format_of, read

    fmt = args.format or format_of(args.file.name)
    if fmt is None:
        print(say("import_unknown_format", path=args.file), file=sys.stderr)
        return EXIT_USAGE
    try:
        mapping = parse_map(args.column_map or "")
        text, _ = decode(args.file.read_bytes(), args.encoding if fmt == "csv" else "utf-8-sig")
    except ValueError as exc:
        print(say("import_bad_map", part=exc), file=sys.stderr)
        return EXIT_USAGE
    except (OSError, UnicodeDecodeError, LookupError) as exc:
        print(say("import_unreadable", path=args.file, error=exc), file=sys.stderr)
        return EXIT_FAIL
    return read_csv(text, mapping) if fmt == "csv" else read(text, fmt, args.lang)


def _import_summary(args: argparse.Namespace, say: Words, summary) -> None:
    for refused in summary.refused:
        where = f"{refused.where}: " if refused.where else ""
        print(f"{args.file}: {where}{refused.reason(say.lang)}", file=sys.stderr)
    dropped = ", ".join(f"{name} ({count})" for name, count in sorted(summary.dropped.items()))
    print(say("import_counts", read=summary.read, imported=summary.imported, refused=len(summary.refused)))
    if dropped:
        print(say("import_dropped", fields=dropped))
    if not summary.imported:
        print(say("import_nothing", path=args.file), file=sys.stderr)
    elif args.dry_run:
        print(say("import_dry_run_done"))
    else:
        count, path = summary.imported, shlex.quote(str(args.out))  # the hint is a command to paste
        print(say.count("imported", count, count=count, path=path, skipped=len(summary.refused)))


def _health(settings: Settings, say: Words) -> int:
    from datetime import UTC, datetime

    from bot.app.health import check

    found = check(settings.heartbeat_file, settings.database, datetime.now(UTC))
    count = found.details.get("count")  # a reason that counts something agrees with it
    reason = say(found.reason, **found.details) if count is None else say.count(found.reason, count, **found.details)
    print(say("healthy" if found.healthy else "unhealthy", reason=reason))
    return EXIT_OK if found.healthy else EXIT_FAIL


def _invite(args: argparse.Namespace, settings: Settings, say: Words) -> int:
    app_id = args.app_id or settings.application_id or application_id_from_token(settings.token)
    if app_id is None:
        print(say("no_app_id"), file=sys.stderr)
        return EXIT_USAGE
    print(say("invite_server", url=invite_url(app_id)))
    print(say("invite_user", url=user_install_url(app_id)))
    return EXIT_OK


def _lookup(args: argparse.Namespace, glossary: Glossary, say: Words) -> int:
    from bot.core.search import SearchIndex

    index = SearchIndex(glossary)
    results = [(q, index.lookup(q)) for q in args.queries]
    for query, result in results:
        print(
            json.dumps(lookup_json(query, result), ensure_ascii=False)
            if args.json
            else format_lookup(query, result, glossary, say)
        )
    return EXIT_OK if all(isinstance(r, Found) for _, r in results) else EXIT_FAIL


def _ask(args: argparse.Namespace, glossary: Glossary, settings: Settings, say: Words) -> int:
    """`ask QUESTION [--json]`: the glossary term that fits a question in one's own words (bot/app/questions.py).
    Exit status 0 for a confident answer, 1 otherwise."""
    from bot.app.catalog import Catalog, CatalogHolder, build_index
    from bot.app.questions import Questions, Verdict
    from bot.terminal import answer_lines

    questions = Questions(CatalogHolder(Catalog(glossary, build_index(glossary), "")), settings.cache_dir)
    answer = questions.ask_now(" ".join(args.text))
    for line in answer_lines(answer, glossary, say, args.json):
        print(line)
    return EXIT_OK if answer.verdict is Verdict.CONFIDENT else EXIT_FAIL


def _search(args: argparse.Namespace, glossary: Glossary, say: Words) -> int:
    from bot.core.search import SearchIndex

    hits = SearchIndex(glossary).search(" ".join(args.text))
    if args.json:  # JSON Lines, like `lookup --json`: one object a line, for streaming and jq
        for h in hits:
            print(json.dumps({"id": h.term.id, "term": h.term.term, "score": h.score}, ensure_ascii=False))
    elif not hits:
        print(say("no_hits"))
    for hit in [] if args.json else hits:
        print(f"{hit.term.term:<40} {first_sentence(hit.term.definition)}")
    return EXIT_OK if hits else EXIT_FAIL


# View Channel, Send Messages, Embed Links, Attach Files: what the features need, nothing more.
INVITE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15)


def invite_url(application_id: int) -> str:
    """The bot in a server (a server install: the bot user and the commands, with the permissions it needs)."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&integration_type=0&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )


def user_install_url(application_id: int) -> str:
    """The app on a member's own account (a user install: the commands anywhere, no bot user, no permissions)."""
    return f"https://discord.com/oauth2/authorize?client_id={application_id}&integration_type=1&scope=applications.commands"


def application_id_from_token(token: str | None) -> int | None:
    """A bot token starts with its user id in base64; for a bot, that is the application id."""
    import base64
    import binascii

    if not token or "." not in token:
        return None
    head = token.split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=False).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() else None


def _validate(directory: Path, say: Words) -> int:
    try:
        glossary = load_glossary(directory)
    except GlossaryError as exc:
        print(exc.report(lang=say.lang))
        print(say.count("problems", len(exc.problems), count=len(exc.problems), path=directory), file=sys.stderr)
        return EXIT_FAIL
    terms, categories = say.amount("terms_n", len(glossary)), say.amount("categories_n", len(glossary.categories))
    print(say("valid", terms=terms, categories=categories, path=directory))
    return EXIT_OK


def _list(glossary: Glossary) -> int:
    for category in glossary.categories:
        print(f"{category}")
        for term in sorted((t for t in glossary if t.category == category), key=lambda t: t.term.casefold()):
            print(f"  {term.term}" + (f" — {term.en}" if term.en else ""))
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
