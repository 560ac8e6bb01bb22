"""The states a lookup, a gap and a daily schedule can be in: one definition each (their values are what the
database and the JSON outputs hold)."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """What a lookup found."""

    FOUND = "found"
    AMBIGUOUS = "ambiguous"
    NOT_FOUND = "not_found"


class GapStatus(StrEnum):
    """Where a gap (a question nobody could answer) stands in the moderators' review."""

    OPEN = "open"
    RESOLVED = "resolved"
    IGNORED = "ignored"


class Days(StrEnum):
    """Which days a server's term of the day is posted (stored as these neutral values; each surface names them
    in its own language)."""

    EVERY_DAY = "every_day"
    WEEKDAYS = "weekdays"
