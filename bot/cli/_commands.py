"""Every subcommand of the command line, each one row of COMMANDS: its name, older names, arguments and handler.

A handler is named "module:function" in this package and imported only when its command runs, so that each
command starts without the others' libraries: the editors' commands never import discord.py (only `run` and
`sync` do), and the glossary commands never open a database."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path

from bot import __version__
from bot.cli._call import EVERY_STATUS, Call
from bot.cli._parser import Parser, a_database, a_path, base_uri, iso_date, loader_checked, positive_int
from bot.cli._words import Words
from bot.core.normalize import normalize
from bot.core.status import GapStatus

Arguments = Callable[[argparse.ArgumentParser, Words], None]


def _no_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    """A command that takes only --data."""


def _no_refusal(args: argparse.Namespace) -> str | None:
    return None


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: `help` is the catalogue key of its one-line help (its description too), `handler`
    "module:function" in bot.cli (a function of a Call that returns the exit status, or a coroutine of it),
    `refuse` the catalogue key of a usage error its arguments make, if any."""

    name: str
    help: str
    handler: str
    arguments: Arguments = _no_arguments
    aliases: tuple[str, ...] = ()  # older names, still accepted
    refuse: Callable[[argparse.Namespace], str | None] = _no_refusal

    def load(self) -> Callable[[Call], int | Coroutine[object, object, int]]:
        """The handler, its module imported now."""
        module, function = self.handler.split(":")
        return getattr(importlib.import_module(f"bot.cli.{module}"), function)


FORMATS = ["tbx", "skos", "skos-jsonld", "skos-rdfxml", "csv", "json"]


def _lookup_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("queries", nargs="+", metavar=say("query_metavar"), help=say("lookup_queries"))
    p.add_argument("--json", action="store_true", help=say("lookup_json"))


def _search_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("text", nargs="+", metavar=say("text_metavar"), help=say("search_text"))
    p.add_argument("--json", action="store_true", help=say("search_json"))


def _ask_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("text", nargs="+", metavar=say("text_metavar"), help=say("ask_text"))
    p.add_argument("--json", action="store_true", help=say("ask_json"))
    p.add_argument("--guild", type=positive_int(say), metavar=say("guild_metavar"), help=say("ask_guild"))


def _validate_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("directory", nargs="?", type=Path, metavar=say("dir_metavar"), help=say("validate_dir"))


def _export_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("--format", required=True, choices=FORMATS, help=say("export_format"))
    p.add_argument("--out", type=a_path(say), metavar=say("file_metavar"), help=say("export_out"))
    p.add_argument("--replace", action="store_true", help=say("export_replace"))
    p.add_argument("--base", type=base_uri(say), default=None, metavar="URI", help=say("export_base"))
    p.add_argument("--guild", type=positive_int(say), metavar=say("guild_metavar"), help=say("export_guild_help"))


def _site_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("outdir", type=a_path(say), metavar=say("dir_metavar"), help=say("site_outdir"))


def _category_problem(value: str):
    from bot.core.loader import text_problem  # (the loader is imported when an import is asked for, not at start)

    return text_problem("category", value)


def _language_problem(value: str):
    from bot.core.loader import language_problem

    return None if not value else language_problem(value)  # (empty: the glossary's own language, as before)


def _import_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("file", type=Path, metavar=say("file_metavar"), help=say("import_file"))
    category = loader_checked(say, _category_problem)
    p.add_argument("--category", type=category, metavar=say("category_metavar"), help=say("import_category"))
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--out", type=a_path(say), default=Path("glossary_import"), metavar=say("dir_metavar"), help=say("import_out")
    )
    where.add_argument("--into", type=a_path(say), metavar=say("dir_metavar"), help=say("import_into"))
    p.add_argument("--format", choices=FORMATS, help=say("import_format"))
    language = loader_checked(say, _language_problem, lambda tag: tag.replace("_", "-"))  # (es_ES is es-ES)
    p.add_argument("--lang", type=language, metavar=say("lang_metavar"), help=say("import_lang"))
    p.add_argument("--map", dest="column_map", metavar=say("map_metavar"), help=say("import_map"))
    p.add_argument("--encoding", metavar=say("encoding_metavar"), help=say("import_encoding"))
    p.add_argument("--json", action="store_true", help=say("import_json"))
    p.add_argument("--dry-run", action="store_true", help=say("import_dry_run"))
    p.add_argument("--replace", action="store_true", help=say("import_replace"))


def _gaps_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("--guild", type=_server_or_direct(say), metavar=say("guild_metavar"), help=say("guild_only"))
    p.add_argument(
        "--status", choices=[*map(str, GapStatus), EVERY_STATUS], default=GapStatus.OPEN, help=say("status_help")
    )
    p.add_argument("--json", action="store_true", help=say("misses_json"))
    p.add_argument("--format", choices=["table", "csv", "yaml"], default=None, help=say("format_help"))
    p.add_argument("--limit", type=positive_int(say), metavar="N", help=say("limit_help"))


def _server_or_direct(say: Words) -> Callable[[str], int]:
    """The --guild of what the bot records per server: a server's id, or 0 for what happened outside any server
    (a direct message, a member's own install of the app)."""
    return positive_int(say, smallest=0)


def _resolve_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("ids", nargs="*", type=positive_int(say), metavar="ID", help=say("ids_help"))
    p.add_argument("--term", metavar=say("term_metavar"), help=say("term_help"))
    p.add_argument("--answered", action="store_true", help=say("answered_help"))


def _ask_refusal(args: argparse.Namespace) -> str | None:
    return None if normalize(" ".join(args.text)) else "ask_empty"  # (blank, or punctuation only: nothing asked)


def _resolve_refusal(args: argparse.Namespace) -> str | None:
    if args.answered and (args.ids or args.term is not None):  # (they would be left out without a word)
        return "answered_alone"
    return None if args.ids or args.answered else "ids_or_answered"


def _ignore_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("ids", nargs="+", type=positive_int(say), metavar="ID", help=say("ids_help"))


def _sync_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("--guild", type=positive_int(say), metavar=say("guild_metavar"), help=say("sync_guild"))


def _daily_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument(
        "--guild", type=positive_int(say, smallest=0), default=0, metavar=say("guild_metavar"), help=say("daily_guild")
    )
    p.add_argument("--date", type=iso_date(say), metavar=say("date_metavar"), help=say("daily_date"))


def _migrate_data_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    database = a_database(say)
    p.add_argument("--from", dest="source", type=database, required=True, metavar="URL", help=say("migrate_data_from"))
    p.add_argument("--to", dest="target", type=database, required=True, metavar="URL", help=say("migrate_data_to"))


def _server_terms_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument(
        "--guild", type=positive_int(say), required=True, metavar=say("guild_metavar"), help=say("server_terms_guild")
    )


def _feedback_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("--guild", type=_server_or_direct(say), metavar=say("guild_metavar"), help=say("guild_only"))
    p.add_argument("--json", action="store_true", help=say("feedback_json"))


def _forget_arguments(metavar: str, help_key: str) -> Arguments:
    def arguments(p: argparse.ArgumentParser, say: Words) -> None:
        p.add_argument("target", type=positive_int(say), metavar=say(metavar), help=say(help_key))
        p.add_argument("--yes", action="store_true", help=say("forget_yes"))

    return arguments


_forget_user_arguments = _forget_arguments("user_metavar", "forget_user_id")
_forget_guild_arguments = _forget_arguments("guild_metavar", "forget_guild_id")


def _gaps_refusal(args: argparse.Namespace) -> str | None:
    """`--json` is a format of its own: with any `--format` (the table's too) it is a usage error."""
    return "json_and_format" if args.json and args.format is not None else None


def _replay_log_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("logs", nargs="*", type=a_path(say), metavar="LOG", help=say("replay_log_files"))


def _invite_arguments(p: argparse.ArgumentParser, say: Words) -> None:
    p.add_argument("--app-id", type=positive_int(say), metavar="ID", help=say("app_id_help"))


# In the order of the help screen.
COMMANDS = (
    Subcommand("run", "run_help", "_run:run"),
    Subcommand("lookup", "lookup_help", "_glossary:lookup", _lookup_arguments),
    Subcommand("search", "search_help", "_glossary:search", _search_arguments),
    Subcommand("ask", "ask_help", "_glossary:ask", _ask_arguments, refuse=_ask_refusal),
    Subcommand("validate", "validate_help", "_glossary:validate", _validate_arguments),
    Subcommand("list", "list_help", "_glossary:listing"),
    Subcommand("export", "export_help", "_glossary:export", _export_arguments),
    Subcommand("site", "site_help", "_glossary:site", _site_arguments),
    Subcommand("import", "import_help", "_imports:import_terms", _import_arguments),
    Subcommand("gaps", "misses_help", "_database:gaps", _gaps_arguments, aliases=("misses",), refuse=_gaps_refusal),
    Subcommand("resolve", "resolve_help", "_database:resolve", _resolve_arguments, refuse=_resolve_refusal),
    Subcommand("ignore", "ignore_help", "_database:ignore", _ignore_arguments),
    Subcommand("sync", "sync_help", "_run:sync", _sync_arguments),
    Subcommand("daily", "daily_help", "_database:daily_term", _daily_arguments),
    Subcommand("migrate", "migrate_help", "_database:migrate"),
    Subcommand("migrate-data", "migrate_data_help", "_database:migrate_data", _migrate_data_arguments),
    Subcommand("server-terms", "server_terms_help", "_database:server_terms", _server_terms_arguments),
    Subcommand("feedback", "feedback_help", "_database:feedback", _feedback_arguments),
    Subcommand("forget-user", "forget_user_help", "_database:forget_user", _forget_user_arguments),
    Subcommand("forget-guild", "forget_guild_help", "_database:forget_guild", _forget_guild_arguments),
    Subcommand("replay-log", "replay_log_help", "_journal:replay_log", _replay_log_arguments),
    Subcommand("health", "health_help", "_hosting:health"),
    Subcommand("invite-url", "invite_help", "_hosting:invite", _invite_arguments),
)
DEFAULT = "run"  # what `glosario-bot` alone does


def subcommand(name: str | None) -> Subcommand:
    """The subcommand called by this name or an older one (None: the default)."""
    name = name or DEFAULT
    return next(c for c in COMMANDS if name == c.name or name in c.aliases)


def argument_parser(say: Words) -> Parser:
    """The whole command line's parser: the program's options, and each subcommand's from COMMANDS."""
    parser = Parser(prog="glosario-bot", description=say("prog_description"), say=say)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}", help=say("version_help"))
    parser.add_argument("--data", type=Path, metavar=say("dir_metavar"), help=say("data_help"))
    sub = parser.add_subparsers(dest="command", metavar=say("command_metavar"))
    for command in COMMANDS:
        p = sub.add_parser(
            command.name, aliases=list(command.aliases), help=say(command.help), description=say(command.help), say=say
        )
        # --data is accepted after the command too (`lookup --data DIR q`); given there, it wins.
        p.add_argument(
            "--data", type=Path, default=argparse.SUPPRESS, metavar=say("dir_metavar"), help=say("data_help")
        )
        command.arguments(p, say)
    return parser
