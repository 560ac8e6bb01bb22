"""SQLite stores of the term of the day (per-guild schedule, the pick of each date, each post, claimed before
sending) and of the editor role: the DailyStore and RoleStore of bot.storage.interfaces."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfoNotFoundError

from bot.core import daily
from bot.core.daily import DailyEntry, Schedule
from bot.core.status import DailyPostStatus, Days
from bot.storage.db import Database
from bot.storage.records import Claim, DailyPost, DailySettings, DigestSettings
from bot.storage.repairs import odd_row, stored_date

_SETTINGS = (
    "guild_id, daily_enabled, daily_channel_id, daily_hour, daily_minute, daily_tz, daily_days, daily_error, "
    "daily_error_at, daily_server_terms, daily_language"
)


class SqlDailyStore:
    def __init__(self, db: Database):
        self.db = db

    async def settings(self, guild_id: int) -> DailySettings | None:
        row = await (
            await self.db.reader.execute(
                f"SELECT {_SETTINGS} FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
        ).fetchone()
        return _settings(row) if row else None

    async def enabled(self) -> list[DailySettings]:
        rows = await (
            await self.db.reader.execute(f"SELECT {_SETTINGS} FROM guild_settings WHERE daily_enabled = 1")
        ).fetchall()
        return [_settings(row) for row in rows]  # (`_settings` reads any row: one server's never stops the others')

    async def configure(
        self,
        guild_id: int,
        channel_id: int,
        schedule: Schedule,
        *,
        server_terms: bool = False,
        language: str | None = None,
    ) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                """
                INSERT INTO guild_settings
                    (guild_id, daily_enabled, daily_channel_id, daily_hour, daily_minute, daily_tz, daily_days,
                     daily_server_terms, daily_language)
                VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET daily_enabled = 1, daily_channel_id = excluded.daily_channel_id,
                    daily_hour = excluded.daily_hour, daily_minute = excluded.daily_minute,
                    daily_tz = excluded.daily_tz, daily_days = excluded.daily_days,
                    daily_server_terms = excluded.daily_server_terms, daily_language = excluded.daily_language,
                    daily_error = NULL, daily_error_at = NULL
                """,
                (
                    guild_id,
                    channel_id,
                    schedule.hour,
                    schedule.minute,
                    schedule.tz,
                    str(schedule.days),
                    int(server_terms),
                    language,
                ),
            )

    async def disable(self, guild_id: int) -> bool:
        async with self.db.transaction():
            cursor = await self.db.conn.execute(
                "UPDATE guild_settings SET daily_enabled = 0 WHERE guild_id = ? AND daily_enabled = 1", (guild_id,)
            )
        return cursor.rowcount > 0

    async def report_error(self, guild_id: int, detail: str, at: str) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                "UPDATE guild_settings SET daily_error = ?, daily_error_at = ? WHERE guild_id = ?",
                (detail, at, guild_id),
            )

    async def history(self, guild_id: int, before: date | None = None) -> list[DailyEntry]:
        sql, args = "SELECT day, term_id, cycle FROM daily_picks WHERE guild_id = ?", [guild_id]
        if before is not None:
            sql += " AND day < ?"
            args.append(before.isoformat())
        rows = await (await self.db.reader.execute(sql + " ORDER BY day", args)).fetchall()
        return [entry for row in rows if (entry := _entry(guild_id, *row)) is not None]

    async def record_pick(self, guild_id: int, entry: DailyEntry) -> DailyEntry:
        """Keep the first pick made for a date (if two are made at once, both callers get the same one)."""
        async with self.db.transaction():
            await self.db.conn.execute(
                "INSERT OR IGNORE INTO daily_picks (guild_id, day, term_id, cycle) VALUES (?, ?, ?, ?)",
                (guild_id, entry.day.isoformat(), entry.term_id, entry.cycle),
            )
            row = await (
                await self.db.conn.execute(
                    "SELECT term_id, cycle FROM daily_picks WHERE guild_id = ? AND day = ?",
                    (guild_id, entry.day.isoformat()),
                )
            ).fetchone()
        return DailyEntry(entry.day, row[0], row[1])

    async def last_post(self, guild_id: int) -> DailyPost | None:
        sql = "SELECT day, channel_id, status, message_id, detail FROM daily_posts WHERE guild_id = ? ORDER BY day DESC"
        row = await (await self.db.reader.execute(f"{sql} LIMIT 1", (guild_id,))).fetchone()
        if row is None:
            return None
        day = stored_date(row[0], "daily_posts", guild=guild_id, day=row[0])
        if day is not None:
            return DailyPost(day, *row[1:])
        # A day that is not a date (a hand edit) sorts after every date: the latest post is the first that has one.
        for found, *rest in await (await self.db.reader.execute(sql, (guild_id,))).fetchall():
            if (day := _day(found)) is not None:
                return DailyPost(day, *rest)
        return None

    async def claim(self, guild_id: int, day: date, channel_id: int, at: str, until: str) -> Claim | None:
        """Reserve (guild, day) before sending, from `at` until `until` (ISO times in UTC): only one post per local
        date, across restarts and races. A claim still `posting` after its `until` (its process died) is taken
        over, and the Claim says until when it held; a live one, or a post made or failed, is not (None)."""
        key = (guild_id, day.isoformat())
        async with self.db.transaction():
            earlier = await (
                await self.db.conn.execute(
                    "SELECT claimed_until FROM daily_posts WHERE guild_id = ? AND day = ? "
                    f"AND status = '{DailyPostStatus.POSTING}'",
                    key,
                )
            ).fetchone()
            cursor = await self.db.conn.execute(
                "INSERT INTO daily_posts (guild_id, day, channel_id, status, at, claimed_until) "
                f"VALUES (?, ?, ?, '{DailyPostStatus.POSTING}', ?, ?) "
                "ON CONFLICT (guild_id, day) DO UPDATE SET channel_id = excluded.channel_id, at = excluded.at, "
                "claimed_until = excluded.claimed_until "
                f"WHERE daily_posts.status = '{DailyPostStatus.POSTING}' AND daily_posts.claimed_until <= excluded.at",
                (*key, channel_id, at, until),
            )
        if cursor.rowcount != 1:
            return None
        return Claim(earlier[0] if earlier else None)

    async def posted(self, guild_id: int, day: date, message_id: int) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                f"UPDATE daily_posts SET status = '{DailyPostStatus.POSTED}', message_id = ? "
                "WHERE guild_id = ? AND day = ?",
                (message_id, guild_id, day.isoformat()),
            )
            await self.db.conn.execute(
                "UPDATE guild_settings SET daily_error = NULL, daily_error_at = NULL WHERE guild_id = ?", (guild_id,)
            )

    async def retry_failed(self, guild_id: int, day: date) -> None:
        """Free (guild, day) for another try if its post failed (a post made, or being made, stays as it is)."""
        async with self.db.transaction():
            await self.db.conn.execute(
                f"DELETE FROM daily_posts WHERE guild_id = ? AND day = ? AND status = '{DailyPostStatus.FAILED}'",
                (guild_id, day.isoformat()),
            )

    async def failed(self, guild_id: int, day: date, detail: str, at: str, *, retry: bool) -> None:
        """A post that could not be made: released for a later try, or kept as failed for the day. Only the claim
        made `at` is touched: one taken over since (its lease ran out) is the new claimant's. Released, the claim
        runs out at once (the next look takes it over, and looks in the channel first: a send can fail minutes
        after Discord took it, later than Discord remembers its nonce)."""
        held = f"guild_id = ? AND day = ? AND status = '{DailyPostStatus.POSTING}' AND at = ?"
        async with self.db.transaction():
            if retry:
                cursor = await self.db.conn.execute(
                    f"UPDATE daily_posts SET claimed_until = at WHERE {held}", (guild_id, day.isoformat(), at)
                )
            else:
                cursor = await self.db.conn.execute(
                    f"UPDATE daily_posts SET status = '{DailyPostStatus.FAILED}', detail = ? WHERE {held}",
                    (detail, guild_id, day.isoformat(), at),
                )
            if cursor.rowcount == 0:
                return
            await self.db.conn.execute(
                "UPDATE guild_settings SET daily_error = ?, daily_error_at = ? WHERE guild_id = ?",
                (detail, at, guild_id),
            )


def _settings(row: tuple) -> DailySettings:
    guild_id, enabled, channel_id, hour, minute, tz, days, error, error_at, server_terms, language = row
    schedule = _schedule(guild_id, hour, minute, tz, days) if hour is not None or minute is not None else None
    return DailySettings(guild_id, bool(enabled), channel_id, schedule, error, error_at, bool(server_terms), language)


def _schedule(guild_id: int, hour: object, minute: object, tz: object, days: object) -> Schedule | None:
    """A server's daily schedule as kept; a row this version never writes (a hand edit, an older version) is
    repaired where it can be (an unknown zone is UTC, unknown days every day) and said once; a time that is no time
    of day is no schedule (the term of the day is then not posted, and `diario estado` says it is not set up)."""
    if not (_whole(hour, 23) and _whole(minute, 59)):
        odd_row(
            "guild_settings",
            "its daily time is not a time of day: no daily post until it is set up again",
            guild=guild_id,
        )
        return None
    try:
        days = Days(days)
    except ValueError:
        odd_row("guild_settings", "its daily days are unknown: every day", guild=guild_id)
        days = Days.EVERY_DAY
    try:
        daily.zone(tz)  # type: ignore[arg-type]
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        odd_row("guild_settings", "its daily time zone is unknown: UTC", guild=guild_id)
        tz = "UTC"
    return Schedule(hour, minute, tz, days)  # type: ignore[arg-type]


def _whole(value: object, most: int) -> bool:
    return type(value) is int and 0 <= value <= most


def _day(stored: object) -> date | None:
    try:
        return date.fromisoformat(stored)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _entry(guild_id: int, day: object, term_id: str, cycle: object) -> DailyEntry | None:
    """A day's pick as kept; None, said once, for a row whose day is not a date or whose cycle is not a number."""
    found = stored_date(day, "daily_picks", guild=guild_id, day=day)
    if found is None:
        return None
    if type(cycle) is not int:
        odd_row("daily_picks", "its cycle is not a whole number: left out", guild=guild_id, day=day)
        return None
    return DailyEntry(found, term_id, cycle)


class SqlRoleStore:
    """The editor role of each guild: members with it may use the review commands."""

    def __init__(self, db: Database):
        self.db = db

    async def editor_role(self, guild_id: int) -> int | None:
        row = await (
            await self.db.reader.execute("SELECT editor_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,))
        ).fetchone()
        return row[0] if row else None

    async def set_editor_role(self, guild_id: int, role_id: int | None) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                "INSERT INTO guild_settings (guild_id, editor_role_id) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET editor_role_id = excluded.editor_role_id",
                (guild_id, role_id),
            )


_DIGEST = (
    "guild_id, digest_channel_id, digest_weekday, digest_last, digest_language, digest_since, digest_posted_at, "
    "digest_error, digest_error_at, digest_claimed_until"
)


def _digest(row: tuple) -> DigestSettings:
    guild_id, channel_id, weekday, *rest = row
    if not _whole(weekday, 6):  # (a hand edit, a row of an older version: Monday, as `configure` takes no other day)
        odd_row("guild_settings", "its digest weekday is not a day of the week: Monday", guild=guild_id)
        weekday = 0
    return DigestSettings(guild_id, channel_id, weekday, *rest)


class SqlDigestStore:
    """The moderators' weekly digest per guild (in guild_settings). `digest_last` is the week last claimed: done
    (posted, or gone without) when `digest_claimed_until` is NULL, else being posted until then (a lease, as the
    daily post's)."""

    def __init__(self, db: Database):
        self.db = db

    async def configure(
        self, guild_id: int, channel_id: int, weekday: int, language: str | None = None, since: str | None = None
    ) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                "INSERT INTO guild_settings (guild_id, digest_channel_id, digest_weekday, digest_language, "
                "digest_since) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET digest_channel_id = excluded.digest_channel_id, "
                "digest_weekday = excluded.digest_weekday, digest_language = excluded.digest_language, "
                "digest_since = CASE WHEN guild_settings.digest_channel_id IS NULL THEN excluded.digest_since "
                "ELSE guild_settings.digest_since END, digest_error = NULL, digest_error_at = NULL, "
                # a week that went without (its problem kept) is owed again; a claimed one is being posted
                "digest_last = CASE WHEN guild_settings.digest_error IS NULL "
                "OR guild_settings.digest_claimed_until IS NOT NULL THEN guild_settings.digest_last END",
                (guild_id, channel_id, weekday, language, since),
            )

    async def disable(self, guild_id: int) -> bool:
        async with self.db.transaction():
            cursor = await self.db.conn.execute(
                "UPDATE guild_settings SET digest_channel_id = NULL "
                "WHERE guild_id = ? AND digest_channel_id IS NOT NULL",
                (guild_id,),
            )
        return cursor.rowcount > 0

    async def settings(self, guild_id: int) -> DigestSettings | None:
        sql = f"SELECT {_DIGEST} FROM guild_settings WHERE guild_id = ? AND digest_channel_id IS NOT NULL"
        row = await (await self.db.reader.execute(sql, (guild_id,))).fetchone()
        return _digest(row) if row else None

    async def enabled(self) -> list[DigestSettings]:
        sql = f"SELECT {_DIGEST} FROM guild_settings WHERE digest_channel_id IS NOT NULL"
        return [_digest(r) for r in await (await self.db.reader.execute(sql)).fetchall()]

    async def claim(self, guild_id: int, week: str, at: str, until: str) -> Claim | None:
        async with self.db.transaction():
            earlier = await (
                await self.db.conn.execute(
                    "SELECT digest_claimed_until FROM guild_settings WHERE guild_id = ? AND digest_last = ?",
                    (guild_id, week),
                )
            ).fetchone()
            cursor = await self.db.conn.execute(
                "UPDATE guild_settings SET digest_last = ?, digest_claimed_until = ? "
                "WHERE guild_id = ? AND digest_channel_id IS NOT NULL "
                "AND (digest_last IS NULL OR digest_last != ? OR digest_claimed_until <= ?)",
                (week, until, guild_id, week, at),
            )
        if cursor.rowcount != 1:
            return None
        return Claim(earlier[0] if earlier else None)

    async def posted(self, guild_id: int, week: str, at: str) -> None:
        async with self.db.transaction():
            await self.db.conn.execute(
                "UPDATE guild_settings SET digest_last = ?, digest_claimed_until = NULL, digest_posted_at = ?, "
                "digest_error = NULL, digest_error_at = NULL WHERE guild_id = ?",
                (week, at, guild_id),
            )

    async def failed(self, guild_id: int, week: str, until: str, detail: str, at: str, *, retry: bool) -> None:
        # Freed: the claim runs out at `at` (the next look takes it over), or kept until `until` when the failure came
        # later still: a send may fail minutes after Discord took it, and the look that takes the claim over reads the
        # channel from shortly before the claim, which it tells by when that claim held until. Gone without: done.
        freed = min(at, until, key=datetime.fromisoformat) if retry else None
        async with self.db.transaction():
            await self.db.conn.execute(
                "UPDATE guild_settings SET digest_claimed_until = ?, digest_error = ?, digest_error_at = ? "
                "WHERE guild_id = ? AND digest_last = ? AND digest_claimed_until = ?",
                (freed, detail, at, guild_id, week, until),
            )
