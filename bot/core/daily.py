"""Term of the day: which term (pure, deterministic) and when to post it (pure, clock passed in)."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.core.model import Glossary, Term
from bot.core.status import Days

_HHMM = re.compile(r"(?P<h>[01]?\d|2[0-3])[:.h](?P<m>[0-5]\d)")


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """A term already chosen for a guild and date, and the cycle it belongs to."""

    day: date
    term_id: str
    cycle: int


@dataclass(frozen=True, slots=True)
class Schedule:
    hour: int
    minute: int
    tz: str = "UTC"
    days: Days = Days.EVERY_DAY

    @property
    def zone(self) -> ZoneInfo:
        return zone(self.tz)


@functools.cache
def zone(name: str) -> ZoneInfo:
    """The time zone of that name, read from its file once per process. ZoneInfo keeps only the last 8 zones it
    made (and those still in use): a tick that looks at the schedules of servers in more zones than that read each
    zone's file again for every server. Only zones that exist are kept (a name that names none raises, as
    ZoneInfo does, and is not kept), so at most the database's few hundred. Raises ZoneInfoNotFoundError,
    ValueError, TypeError or OSError as ZoneInfo does."""
    return ZoneInfo(name)


def _order_key(guild_id: int, cycle: int, term_id: str) -> bytes:
    return hashlib.blake2b(f"{guild_id}:{cycle}:{term_id}".encode(), digest_size=8).digest()


def pick(glossary: Glossary, guild_id: int, day: date, history: Sequence[DailyEntry]) -> tuple[Term, int]:
    """The term for (guild, day) and its cycle.

    A date already in the history keeps its term (if still in the glossary). Otherwise the next term of the
    current cycle: every term once, in an order shuffled per guild and cycle, before any repeats. Terms added
    to the glossary join the current cycle; removed ones are skipped.
    """
    for entry in history:
        if entry.day == day and glossary.get(entry.term_id) is not None:
            return glossary.get(entry.term_id), entry.cycle  # type: ignore[return-value]
    cycle = max((e.cycle for e in history), default=0)
    shown = {e.term_id for e in history if e.cycle == cycle}
    remaining = [t for t in glossary if t.id not in shown]
    if not remaining:
        cycle += 1
        remaining = list(glossary)
    return min(remaining, key=lambda t: _order_key(guild_id, cycle, t.id)), cycle


FORECAST_YEARS = 10  # further than this, a date's term is refused rather than guessed


def forecast(
    glossary: Glossary,
    guild_id: int,
    day: date,
    history: Sequence[DailyEntry],
    today: date,
    schedule: Schedule | None,
) -> tuple[Term, int] | None:
    """The term a future `day` will get, as the picks of the days from `today` on are made in turn: on the
    days the schedule posts (every day without one), assuming the glossary stays as it is. None for a date
    more than FORECAST_YEARS ahead. Same result as calling `pick` day after day, in one sort per cycle."""
    if day <= today or any(e.day == day and glossary.get(e.term_id) is not None for e in history):
        return pick(glossary, guild_id, day, [e for e in history if e.day <= day])
    if (day - today).days > 366 * FORECAST_YEARS:
        return None
    recorded = {e.day for e in history}
    cycle = max((e.cycle for e in history), default=0)
    shown = {e.term_id for e in history if e.cycle == cycle}
    order = sorted((t for t in glossary if t.id not in shown), key=lambda t: _order_key(guild_id, cycle, t.id))
    position, current = 0, today
    while True:
        if position == len(order):  # every term shown: a new cycle, in a new order
            cycle += 1
            order, position = sorted(glossary, key=lambda t: _order_key(guild_id, cycle, t.id)), 0
        if current == day:
            return order[position], cycle
        if current not in recorded and (schedule is None or _posts_on(current, schedule)):
            position += 1
        current += timedelta(days=1)


def parse_time(text: str) -> tuple[int, int] | None:
    """'9:05', '09:05', '21.30' or '21h30' → (hour, minute); None when it is not a time of day."""
    match = _HHMM.fullmatch(text.strip())
    return (int(match["h"]), int(match["m"])) if match else None


def parse_zone(name: str) -> str | None:
    """The IANA zone name as the time zone database writes it ("europe/madrid" is "Europe/Madrid"), or None when
    it names none. Only the database's own names, which the tzdata package ships, so that a schedule works on every
    host ("localtime", "posix/…" and "right/…" are a host's own files, which a slim image or another machine lacks,
    or are off by leap seconds)."""
    canonical = _zone_names().get(name.strip().casefold())
    if canonical is None:
        return None
    try:
        zone(canonical)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return canonical


@functools.cache
def zone_names() -> list[str]:
    """The zone names `parse_zone` takes, in order (what a moderator is offered while typing one)."""
    return sorted(_zone_names().values())


@functools.cache
def _zone_names() -> dict[str, str]:
    """Every zone name of the time zone database, by its case-folded form (read once: some 20 ms; the daily cog
    reads it off the event loop when it loads)."""
    return {name.casefold(): name for name in available_timezones() - {"localtime"}}  # (a host's own file)


def local_date(now: datetime, schedule: Schedule | None) -> date:
    """Today in the schedule's time zone (UTC for a server without a schedule)."""
    return now.astimezone(schedule.zone if schedule else UTC).date()


def _posts_on(day: date, schedule: Schedule) -> bool:
    return schedule.days == Days.EVERY_DAY or day.weekday() < 5


def slot(day: date, schedule: Schedule) -> datetime:
    """The posting moment of a local date, as an aware datetime. A time skipped by a DST change
    (e.g. 02:30 on the spring-forward night) falls one hour later; a repeated one is taken the first time."""
    local = datetime.combine(day, time(schedule.hour, schedule.minute), tzinfo=schedule.zone)
    return local.astimezone(UTC)  # through UTC, so that a skipped local time is normalised


def due(now: datetime, schedule: Schedule, last_posted: date | None) -> date | None:
    """The local date to post for now, or None. Today's post is due from its slot on, until it is made —
    so a bot that was down, or a schedule set after today's time, posts today's term at once, once."""
    today = local_date(now, schedule)
    if last_posted == today or not _posts_on(today, schedule):
        return None
    return today if now >= slot(today, schedule) else None


def post_nonce(guild_id: int, day: date, kind: str = "d") -> str:
    """The one nonce of a server's post for a date, whoever sends it and however often: `kind` ("d": the term of
    the day, by its local date; "w": the weekly digest, by its week's Monday), the guild id and the date in
    fixed-width hex (23 characters, within Discord's 25; never all digits, like discord.py's random ones)."""
    return f"{kind}{guild_id:016x}{day.toordinal():06x}"


def next_post(now: datetime, schedule: Schedule, last_posted: date | None) -> datetime:
    """When the next post will be made (now, if one is due)."""
    if due(now, schedule, last_posted) is not None:
        return now
    day = local_date(now, schedule)
    for _ in range(8):
        if _posts_on(day, schedule) and day != last_posted and slot(day, schedule) > now:
            return slot(day, schedule)
        day += timedelta(days=1)
    raise AssertionError("a schedule posts at least every few days")  # pragma: no cover
