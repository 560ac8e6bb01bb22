"""What the stores take and give back, whatever the database: typed write records (the write queue's unit,
journaled as JSON) and the rows the stores return."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, NamedTuple

from bot.core.daily import Schedule
from bot.core.status import Outcome

# -- writes made after a reply, through the write queue -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GapRecord:
    """One more ask of a question nobody could answer (a gap)."""

    OP: ClassVar[str] = "miss"
    guild_id: int
    sample: str
    normalized: str
    asker: str  # salted hash (bot.core.gaps.asker_hash), never the user id
    best_guess: str | None
    kind: str  # "lookup" or "search"
    at: str  # ISO time


@dataclass(frozen=True, slots=True)
class SuggestionChoiceRecord:
    """A member chose `term_id` among the suggestions for the query with hash `qhash` (an alias proposal)."""

    OP: ClassVar[str] = "pick"
    guild_id: int
    qhash: str
    term_id: str
    asker: str
    at: str


@dataclass(frozen=True, slots=True)
class LookupRecord:
    """Lookups counted in memory and added to the day's counts."""

    OP: ClassVar[str] = "lookup"
    guild_id: int
    day: str
    outcome: Outcome
    term_id: str  # "" unless found
    count: int = 1


@dataclass(frozen=True, slots=True)
class LookupCountsRecord:
    """One server's lookups counted in memory during one flush window, as one record: one id claimed and one
    journal line for all of them, not one per term (each row is what a LookupRecord holds). Per server, so that
    forgetting a server drops its counts with the record (`guild_id`, like every record)."""

    OP: ClassVar[str] = "lookups"
    guild_id: int
    rows: list[list[Any]]  # [day, outcome, term_id ("" unless found), count], each (day, outcome, term_id) once


@dataclass(frozen=True, slots=True)
class UnloggedRecord:
    """A gap answered but not logged, because the member was over the hourly budget of new gaps."""

    OP: ClassVar[str] = "unlogged"
    guild_id: int
    day: str


@dataclass(frozen=True, slots=True)
class VoteRecord:
    """A member's 👍 or 👎 under a term's card (feedback): one per member, term and server, the latest kept."""

    OP: ClassVar[str] = "vote"
    guild_id: int  # 0: a member's own install (a DM, or a server the bot is not in): personal
    term_id: str
    voter: str  # salted hash (bot.core.gaps.asker_hash), never the user id
    vote: str  # a Vote value
    at: str


@dataclass(frozen=True, slots=True)
class CommentRecord:
    """What a member said was missing from a definition (after a 👎): shown to the server's editors only."""

    OP: ClassVar[str] = "comment"
    guild_id: int
    term_id: str
    voter: str
    comment: str
    at: str


WriteRecord = (
    GapRecord | SuggestionChoiceRecord | LookupRecord | LookupCountsRecord | UnloggedRecord | VoteRecord | CommentRecord
)
RECORD_TYPES: dict[str, type[WriteRecord]] = {
    cls.OP: cls
    for cls in (
        GapRecord,
        SuggestionChoiceRecord,
        LookupRecord,
        LookupCountsRecord,
        UnloggedRecord,
        VoteRecord,
        CommentRecord,
    )
}
# Each record type's field names, read once: `dataclasses.fields` walks the class on every call, and a record is
# turned into fields and back on every write after a reply.
FIELD_NAMES: dict[type[WriteRecord], tuple[str, ...]] = {
    cls: tuple(field.name for field in dataclasses.fields(cls)) for cls in RECORD_TYPES.values()
}


def record_fields(record: WriteRecord) -> dict[str, Any]:
    """The record as JSON-able fields (for the journal)."""
    return {name: getattr(record, name) for name in FIELD_NAMES[type(record)]}


def record_from(op: object, fields: dict[str, Any]) -> WriteRecord:
    """A record back from its op and fields (a journal line). Raises TypeError for an unknown op or wrong fields."""
    kind = RECORD_TYPES.get(op) if isinstance(op, str) else None
    if kind is None:
        raise TypeError(f"unknown write {op!r}")
    return kind(**{name: fields[name] for name in FIELD_NAMES[kind] if name in fields})


# What each annotation of a record's field admits, read back from JSON (a bool is not an int here).
_ADMITS: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "str": (str,),
    "str | None": (str, type(None)),
    "Outcome": (str,),
    "list[list[Any]]": (list,),
}
_ROW_ADMITS = ((str,), (str,), (str,), (int,))  # a LookupCountsRecord's row: [day, outcome, term_id, count]
_INTEGER = range(-(2**63), 2**63)  # what both databases store in an integer column
FIELD_TYPES: dict[type[WriteRecord], tuple[tuple[str, tuple[type, ...]], ...]] = {
    cls: tuple((field.name, _ADMITS[str(field.type)]) for field in dataclasses.fields(cls))
    for cls in RECORD_TYPES.values()
}


def checked_record_from(op: object, fields: dict[str, Any]) -> WriteRecord:
    """`record_from` for a record read back from a file (a journal, a log: edited by hand, torn): every field of the
    type its record declares, or TypeError naming the first that is not (before any handler meets it)."""
    record = record_from(op, fields)
    for name, admits in FIELD_TYPES[type(record)]:
        _check(name, getattr(record, name), admits)
    if isinstance(record, LookupCountsRecord):
        for row in record.rows:  # [day, outcome, term_id, count]
            if not isinstance(row, list) or len(row) != 4:
                raise TypeError("rows holds a row that is not [day, outcome, term_id, count]")
            for part, value, admits in zip(("day", "outcome", "term_id", "count"), row, _ROW_ADMITS, strict=True):
                _check(f"rows' {part}", value, admits)
    return record


def _check(name: str, value: object, admits: tuple[type, ...]) -> None:
    if not isinstance(value, admits) or isinstance(value, bool):
        raise TypeError(f"{name} is {type(value).__name__}, not {admits[0].__name__}")
    if isinstance(value, int) and value not in _INTEGER:
        raise ValueError(f"{name} is past what the database stores")


# -- rows read back -----------------------------------------------------------------------------------------


class Gap(NamedTuple):
    """A gap: a question (aggregated by its normalised form) nobody could answer, in one server. A named tuple:
    read-only, and 100,000 of them are made from rows four times faster than as a frozen dataclass."""

    id: int
    guild_id: int
    normalized: str
    sample: str
    kind: str
    count: int
    askers: int
    first_seen: str
    last_seen: str
    best_guess: str | None
    status: str  # a GapStatus value
    resolved_term: str | None

    def to_dict(self) -> dict:
        return self._asdict()


class AliasSuggestion(NamedTuple):
    """Members picked the same term among the suggestions for one question: a spelling offered to the editors as
    an alias of that term (SqlGapStore.proposals)."""

    normalized: str  # the question, normalised (its query_hash is the suggestion's handle)
    sample: str  # how it was asked
    term_id: str  # the term they picked
    people: int  # how many picked it


class SuggestionChoice(NamedTuple):
    """A spelling and the term members picked for it, over every server or one (SqlGapStore.picks)."""

    sample: str
    term_id: str
    times: int


class DailyOutcome(NamedTuple):
    """The lookups of one day with one outcome, in one server (SqlUsageStore.daily_outcomes)."""

    day: str  # YYYY-MM-DD
    outcome: str  # an Outcome value
    lookups: int


class ServerAlias(NamedTuple):
    """A spelling a server accepted as an alias of a published term (SqlServerTermStore.aliases)."""

    normalized: str
    spelling: str
    term_id: str


class LatestComments(NamedTuple):
    """A server's latest feedback comments, newest first, and how many it has in all (SqlFeedbackStore.comments)."""

    rows: list[FeedbackRow]
    total: int


class RecentFeedback(NamedTuple):
    """Votes and comments given or changed since a moment (SqlFeedbackStore.since)."""

    votes: int
    comments: int


@dataclass(frozen=True, slots=True)
class DailySettings:
    guild_id: int
    enabled: bool
    channel_id: int | None
    schedule: Schedule | None
    error: str | None
    error_at: str | None
    server_terms: bool = False  # the server's own terms may be the term of the day
    language: str | None = None  # of the posts, "es" or "en" (None: set up before it was kept, the server's own)


@dataclass(frozen=True, slots=True)
class Claim:
    """A scheduled post (a day's term, a week's digest) claimed. `taken_over_until`: until when the claim it took
    over held (ISO, UTC), a claim of the same post whose process may have sent it before it died (or, for the
    digest, before its failure freed the week); None when the post was not claimed before."""

    taken_over_until: str | None = None


@dataclass(frozen=True, slots=True)
class DailyPost:
    day: date
    channel_id: int
    status: str  # a DailyPostStatus
    message_id: int | None
    detail: str | None


@dataclass(frozen=True, slots=True)
class ServerTermRow:
    """A server's own term as stored: the fields as typed (JSON), who added it and when."""

    guild_id: int
    term_id: str
    fields: dict[str, str]
    author_id: int
    created_at: str
    updated_by: int
    updated_at: str
    retired_at: str | None


@dataclass(frozen=True, slots=True)
class DigestSettings:
    guild_id: int
    channel_id: int
    weekday: int  # 0 Monday … 6 Sunday (UTC)
    last_week: str | None  # the ISO week of the last digest claimed ("2026-W49"): done unless `claimed_until`
    language: str | None = None  # of the digest, "es" or "en" (None: set up before it was kept, the server's own)
    since: str | None = None  # when it was turned on, ISO time in UTC (None: before that was kept)
    posted_at: str | None = None  # when the last digest was posted (ISO, UTC)
    error: str | None = None  # its last problem since (a PostProblem as stored), and when
    error_at: str | None = None
    # while `last_week` is being posted: until when its claim holds (ISO, UTC; then another look takes it over)
    claimed_until: str | None = None


@dataclass(frozen=True, slots=True)
class ProposalRow:
    """A member's proposed term, waiting for the editors or decided."""

    id: int
    guild_id: int
    user_id: int
    locale: str
    fields: dict[str, str]
    status: str  # a ProposalStatus value
    reason: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class ServerTermVersion:
    """One change of a server term: "created", "edited" or "retired", the fields after it, who and when."""

    version: int
    action: str
    fields: dict[str, str]
    by_user: int
    at: str


@dataclass(frozen=True, slots=True)
class Erased:
    """What forgetting a member or a server removed (or, in a dry run, would remove), counted per table."""

    removed: dict[str, int]  # table → rows removed
    anonymised: dict[str, int] = dataclasses.field(default_factory=dict)  # table → rows kept, the member's id gone
    journaled: int = 0  # write records removed from the journals (not in the database yet)

    @property
    def total(self) -> int:
        return sum(self.removed.values()) + sum(self.anonymised.values()) + self.journaled


@dataclass(frozen=True, slots=True)
class TermVotes:
    """The votes on one term in one server."""

    term_id: str
    helpful: int
    unhelpful: int
    comments: int

    @property
    def votes(self) -> int:
        return self.helpful + self.unhelpful

    @property
    def unhelpful_share(self) -> float:
        return self.unhelpful / self.votes if self.votes else 0.0


@dataclass(frozen=True, slots=True)
class FeedbackRow:
    """One member's vote on a term, and their comment if they left one (who voted is never given out)."""

    guild_id: int
    term_id: str
    vote: str  # a Vote value
    comment: str | None
    at: str

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)
