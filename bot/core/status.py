"""The states a lookup, a gap, a daily post and a daily schedule can be in: one definition each (their values are
what the database and the JSON outputs hold)."""

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


class DailyPostStatus(StrEnum):
    """Where a server's term of the day for one date stands: claimed and being sent (a lease: a claim whose
    process died runs out and is taken over), posted, or failed for the day."""

    POSTING = "posting"
    POSTED = "posted"
    FAILED = "failed"


class Days(StrEnum):
    """Which days a server's term of the day is posted (stored as these neutral values; each surface names them
    in its own language)."""

    EVERY_DAY = "every_day"
    WEEKDAYS = "weekdays"
