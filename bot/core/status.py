"""The states a lookup, a gap, a daily post and a daily schedule can be in: one definition each (their values are
what the database and the JSON outputs hold)."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """What a lookup found."""

    FOUND = "found"
    AMBIGUOUS = "ambiguous"
    NOT_FOUND = "not_found"
    MEANING = "meaning"  # no name matched, and the question path named one term with confidence


class GapKind(StrEnum):
    """How a gap was asked: a name looked up, words searched for, or a question in one's own words (a
    description the question path could not answer with confidence)."""

    LOOKUP = "lookup"
    SEARCH = "search"
    QUESTION = "question"


class ProposalStatus(StrEnum):
    """Where a member's proposed term stands: waiting for the editors, published as a server term, or rejected."""

    PENDING = "pending"
    PUBLISHED = "published"
    REJECTED = "rejected"


class GapStatus(StrEnum):
    """Where a gap (a question nobody could answer) stands in the moderators' review."""

    OPEN = "open"
    RESOLVED = "resolved"
    IGNORED = "ignored"


class GapOrder(StrEnum):
    """How a list of gaps is sorted: the most asked first, or the latest asked first."""

    COUNT = "count"
    RECENT = "recent"


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


class Vote(StrEnum):
    """A member's answer to "¿Te ha servido?" under a card (feedback): one per member, term and server."""

    HELPFUL = "helpful"
    UNHELPFUL = "unhelpful"
