"""argparse as the command line uses it: closest-match suggestions for mistyped commands, choices and options,
and the argument types that refuse bad values with a sentence in the user's language."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Callable
from datetime import date
from pathlib import Path

from bot.cli._words import Words
from bot.core.invisible import one_line, printable

MAX_WORD = 100  # characters of one word of an argument error (what was typed, said back)


class Parser(argparse.ArgumentParser):
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

    def error(self, message: str):  # type: ignore[override]
        """argparse's error, with what the user typed made safe to say back: one line of printable characters, no
        word longer than MAX_WORD (a 100,000-character argument is not printed back whole)."""
        super().error(printable(" ".join(one_line(word, MAX_WORD) for word in message.split())))

    def _did_you_mean(self, name: str) -> str:
        return self.say("did_you_mean_this", name=name)


LARGEST_ID = 2**63 - 1  # Discord's ids and the database's integers are signed 64-bit numbers


def positive_int(say: Words, smallest: int = 1) -> Callable[[str], int]:
    """The argument type of ids and limits: a whole number from `smallest` (1) to LARGEST_ID, anything else refused
    with a sentence."""

    def positive_int(text: str) -> int:
        digits = text.lstrip("0") or "0" if text.isascii() and text.isdigit() else ""
        if not digits or (len(digits) <= 19 and int(digits) < smallest):
            raise argparse.ArgumentTypeError(say("not_positive" if smallest else "not_whole", text=text))
        if len(digits) > 19 or int(digits) > LARGEST_ID:  # (a long run of digits is not even converted)
            raise argparse.ArgumentTypeError(say("too_large", text=text, largest=LARGEST_ID))
        return int(digits)

    return positive_int


def iso_date(say: Words) -> Callable[[str], date]:
    """The argument type of dates: YYYY-MM-DD."""

    def iso_date(text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise argparse.ArgumentTypeError(say("not_a_date", text=text)) from None

    return iso_date


def a_path(say: Words) -> Callable[[str], Path]:
    """The argument type of files and folders to write: any path but an empty one (which would be the current
    folder)."""

    def a_path(text: str) -> Path:
        if not text.strip():
            raise argparse.ArgumentTypeError(say("empty_path"))
        return Path(text)

    return a_path


def a_database(say: Words) -> Callable[[str], str]:
    """The argument type of a database to read or write (`migrate-data --from/--to`): anything but a blank one
    (which would be the current folder)."""

    def a_database(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(say("empty_database"))
        return text

    return a_database


def base_uri(say: Words) -> Callable[[str], str]:
    """The argument type of an export's base: an absolute IRI to which a term's id can be appended (as the SKOS
    writer, pyoxigraph, checks it)."""

    def base_uri(text: str) -> str:
        import pyoxigraph

        try:
            pyoxigraph.NamedNode(f"{text}term")
        except ValueError:
            raise argparse.ArgumentTypeError(say("not_a_base", text=text)) from None
        return text

    return base_uri


def loader_checked(
    say: Words, check: Callable[[str], object], spelt: Callable[[str], str] = lambda value: value
) -> Callable[[str], str]:
    """The argument type of a value an import writes into the term files (`check`: the loader's rule for it, from
    bot/core/loader.py, a Sentence or None; `spelt`: the value as written): refused before anything is written, as
    `validate` would refuse it."""

    def checked(text: str) -> str:
        value = spelt(" ".join(text.split()))
        problem = check(value)
        if problem is not None:
            raise argparse.ArgumentTypeError(problem.text(say.lang))  # type: ignore[attr-defined]
        return value

    return checked
