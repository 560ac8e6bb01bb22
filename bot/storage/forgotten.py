"""Who was forgotten, and when, as the write queue (bot.storage.writer) reads it in each batch's transaction: a write
record made at or before the erasure of a member it names (by their salted hash) or of its server is not written,
wherever it comes from (this process's queue, another process's, a journal, a log); one made after it (the member, or
the server, back) is written as usual.

Each record says when it was made: `at` (an ISO time) for everything that names a member; `day` (the UTC date) for
the counts that name nobody (lookups, gaps not logged), of which the day alone cannot tell the part made before an
erasure that day from the part made after it: a count of the erasure's day, or of a day before, is taken as made
before it (privacy first: for a server forgotten and back the same day, at most that day's counts are not kept)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime

from bot.storage.records import LookupCountsRecord, WriteRecord
from bot.storage.repairs import odd_row

HASH_FIELDS = ("asker", "voter")  # the fields of a record that hold a member's salted hash (bot.core.gaps.asker_hash)


@dataclass(frozen=True, slots=True)
class Forgotten:
    """The members (by salted hash) and servers (by id) of some records that were forgotten, each with when."""

    members: dict[str, str]  # salted hash → when the member was last forgotten (ISO time)
    guilds: dict[int, str]  # server id → when it was last forgotten (ISO time)

    def __bool__(self) -> bool:
        return bool(self.members or self.guilds)

    def keep(self, record: WriteRecord) -> WriteRecord | None:
        """The record as it may be written: itself; None when it was made at or before the erasure of a member or a
        server it names; lookup counts without their rows of the days at or before it (None when no row is left)."""
        erasures = []
        if (at := self.guilds.get(record.guild_id)) is not None:
            erasures.append(_erased(at, "forgotten_guilds", guild=record.guild_id))
        for name in HASH_FIELDS:
            if (at := self.members.get(getattr(record, name, None))) is not None:
                erasures.append(_erased(at, "forgotten_members"))  # (the row named by nobody: its key is a hash)
        if not erasures:
            return record
        erased = max(erasures)
        if isinstance(record, LookupCountsRecord):
            rows = [row for row in record.rows if _after(row[0], erased, day=True)]
            return record if len(rows) == len(record.rows) else (replace(record, rows=rows) if rows else None)
        made = getattr(record, "at", None)
        if isinstance(made, str):
            return record if _after(made, erased, day=False) else None
        return record if _after(getattr(record, "day", None), erased, day=True) else None


def keys(records: Iterable[WriteRecord]) -> tuple[list[str], list[int]]:
    """The salted hashes and the server ids some records name, each once (what to look up in the forgotten list)."""
    hashes: dict[str, None] = {}
    guilds: dict[int, None] = {}
    for record in records:
        guilds[record.guild_id] = None
        for name in HASH_FIELDS:
            value = getattr(record, name, None)
            if isinstance(value, str):
                hashes[value] = None
    return list(hashes), list(guilds)


def moment(text: str) -> datetime:
    """An ISO time as a moment in UTC (one without a zone is taken as UTC, as the bot's clock is). Raises ValueError."""
    at = datetime.fromisoformat(text)
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def _erased(at: object, table: str, **ids: object) -> datetime:
    """When a member or a server was forgotten, as the list keeps it. A time that cannot be read (a hand edit) is
    taken as the latest there is, said once: nothing of theirs is written (privacy first), and a batch of other
    members' and servers' records is not held back with theirs."""
    try:
        return moment(at)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        odd_row(table, "its time is not a time: taken as forgotten for good, nothing of theirs is written", **ids)
        return datetime.max.replace(tzinfo=UTC)


def _after(made: object, erased: datetime, *, day: bool) -> bool:
    """Whether a record made at `made` (an ISO time, or with `day` an ISO date) came after the erasure at `erased`. A
    time that cannot be read is taken as before it: such a record is not written back."""
    if not isinstance(made, str):
        return False
    try:
        if day:
            return date.fromisoformat(made) > erased.date()
        return moment(made) > erased
    except ValueError:
        return False
