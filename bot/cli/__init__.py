"""The command line (`glosario-bot`, `python -m bot`). Each subcommand is one row of the table in _commands.py:
its name, older names, arguments and handler. Handlers are thin: call the application (or the core), print in
the user's language."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Coroutine

from bot.cli._call import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Call
from bot.cli._commands import argument_parser, subcommand
from bot.cli._words import Words
from bot.config import Settings, SettingsError, locale_language

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line with these arguments (the process's by default); returns the exit status."""
    try:
        return _main(argv)
    except BrokenPipeError:  # `glosario-bot list | head`: the reader left, nothing is wrong
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C: a sentence, not a traceback (each command's writes are whole or not at all)
        print(Words(locale_language())("interrupted"), file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: list[str] | None) -> int:
    say = Words(locale_language())
    say.speak_argparse()
    parser = argument_parser(say)
    args = parser.parse_args(argv)
    command = subcommand(args.command)
    # (these errors come with the usage of the command they are about, not the list of every command)
    commands = next((a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction)), {})
    in_hand = commands.get(args.command, parser)
    refusal = command.refuse(args)
    if refusal:
        in_hand.error(say(refusal))
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(say("settings_error", error=exc.text(say.lang)), file=sys.stderr)
        return EXIT_USAGE
    done = command.load()(Call(args, settings, args.data or settings.data_dir, say))
    if isinstance(done, Coroutine):  # a database command
        import asyncio  # (here: the others start without it)

        return asyncio.run(done)
    return done
