"""argparse as the command line uses it: closest-match suggestions for mistyped commands, choices and options,
and the argument types that refuse bad values with a sentence in the user's language."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Callable
from datetime import date

from bot.cli._words import Words


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

    def _did_you_mean(self, name: str) -> str:
        return self.say("did_you_mean_this", name=name)


def positive_int(say: Words) -> Callable[[str], int]:
    """The argument type of ids and limits: a whole number above zero, anything else refused with a sentence."""

    def positive_int(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or int(text) <= 0:
            raise argparse.ArgumentTypeError(say("not_positive", text=text))
        return int(text)

    return positive_int


def iso_date(say: Words) -> Callable[[str], date]:
    """The argument type of dates: YYYY-MM-DD."""

    def iso_date(text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise argparse.ArgumentTypeError(say("not_a_date", text=text)) from None

    return iso_date
