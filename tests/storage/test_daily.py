"""The term of the day's claims and the weekly digest's as leases, on SQLite and PostgreSQL: a claim its process
never finished (it died) is taken over once its lease runs out, a live one never is, and each post is marked once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.app.daily.posts import CLAIM_LEASE, DailyPosts, PostProblem, Problem, lease
from bot.app.insights.digest import Digests
from bot.core.daily import Schedule
from bot.core.status import DailyPostStatus
from bot.storage import open_stores
from bot.storage.daily import SqlDailyStore, SqlDigestStore
from bot.storage.db import SCHEMA_VERSION, Database
from tests.storage.schemas import postgres_at, sqlite_at

G, CHANNEL = 424242424242424242, 434343434343434343  # real snowflakes' size: more than 32 bits
AFTER_NINE = datetime(2026, 12, 2, 9, 1, tzinfo=UTC)  # a 09:00 (UTC) slot has passed today


@pytest.fixture
def db(database):
    """Each test runs on SQLite and on PostgreSQL (the `database` fixture, tests/conftest.py)."""
    return database


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    @property
    def now_text(self) -> str:
        return self.now.isoformat(timespec="seconds")


def process(db, clock: Clock) -> DailyPosts:
    """One bot process's daily posts over the shared database (claiming needs no glossary)."""
    return DailyPosts(SqlDailyStore(db), None, clock)  # type: ignore[arg-type]


async def configured(db):
    store = SqlDailyStore(db)
    await store.configure(G, CHANNEL, Schedule(9, 0))
    return await store.settings(G)


async def test_a_claim_left_by_a_dead_process_is_taken_over_when_its_lease_runs_out_and_posted_once(db):
    clock = Clock(AFTER_NINE)
    dead, restarted, other = process(db, clock), process(db, clock), process(db, clock)
    settings = await configured(db)
    job = await dead.claim_if_due(settings)  # … and the process is killed before it sends anything
    assert job is not None and job.taken_over is None
    clock.now += CLAIM_LEASE - timedelta(seconds=1)
    assert await restarted.claim_if_due(settings) is None  # the lease still holds: it may yet be posting
    clock.now += timedelta(seconds=1)
    retry = await restarted.claim_if_due(settings)
    assert retry is not None and (retry.guild_id, retry.channel_id, retry.day) == (job.guild_id, CHANNEL, job.day)
    assert retry.taken_over == AFTER_NINE  # when the dead claim was made: its post, if sent, came after
    assert retry.nonce == job.nonce  # the same message to Discord: a send that did reach it is not doubled
    assert await other.claim_if_due(settings) is None  # taken over by one process only
    await restarted.posted(retry, 555)
    clock.now += CLAIM_LEASE * 10
    assert await other.claim_if_due(settings) is None  # posted: done for the day, whatever the clock says
    last = await SqlDailyStore(db).last_post(G)
    assert (last.status, last.message_id) == (DailyPostStatus.POSTED, 555)


async def test_a_live_lease_is_not_stolen_by_another_process(db):
    clock = Clock(AFTER_NINE)
    first, second = process(db, clock), process(db, clock)
    settings = await configured(db)
    assert await first.claim_if_due(settings) is not None
    for _ in range(3):  # the other process's ticks while the first one posts
        clock.now += CLAIM_LEASE / 4
        assert await second.claim_if_due(settings) is None
    last = await SqlDailyStore(db).last_post(G)
    assert last.status == DailyPostStatus.POSTING


async def test_a_process_that_outlived_its_lease_cannot_release_the_claim_that_replaced_it(db):
    clock = Clock(AFTER_NINE)
    slow, successor, third = process(db, clock), process(db, clock), process(db, clock)
    settings = await configured(db)
    stale = await slow.claim_if_due(settings)
    clock.now += CLAIM_LEASE
    assert await successor.claim_if_due(settings) is not None
    late = PostProblem(Problem.DISCORD, CHANNEL, status=503, text="late")
    await slow.failed(stale, late, retry=True)  # its answer came after the lease ran out
    assert await third.claim_if_due(settings) is None  # the successor's claim still holds
    assert (await SqlDailyStore(db).settings(G)).error is None


async def test_failed_posts_still_free_the_day_or_keep_it(db):
    clock = Clock(AFTER_NINE)
    posts = process(db, clock)
    settings = await configured(db)
    unavailable = PostProblem(Problem.DISCORD, CHANNEL, status=503, text="Service Unavailable")
    await posts.failed(await posts.claim_if_due(settings), unavailable, retry=True)
    job = await posts.claim_if_due(settings)  # freed: the next tick tries again at once
    assert job is not None and job.taken_over == AFTER_NINE - CLAIM_LEASE  # (taken over: it looks in the channel)
    await posts.failed(job, PostProblem(Problem.DISCORD, CHANNEL, status=400, text="refused"), retry=False)
    clock.now += CLAIM_LEASE * 10
    assert await posts.claim_if_due(settings) is None  # the day's problem, not tried again
    assert (await SqlDailyStore(db).last_post(G)).status == DailyPostStatus.FAILED


async def test_a_claim_stuck_before_the_upgrade_is_retried_after_it(tmp_path):
    path = tmp_path / "g.db"
    with sqlite_at(path, 6) as conn:  # a database as version 6 of the bot left it after a crash mid-post
        conn.execute(
            "INSERT INTO daily_posts (guild_id, day, channel_id, status, at) VALUES (?, ?, ?, 'posting', ?)",
            (G, AFTER_NINE.date().isoformat(), CHANNEL, AFTER_NINE.isoformat(timespec="seconds")),
        )
    db = await Database.open(path)
    try:
        settings = await configured(db)
        job = await process(db, Clock(AFTER_NINE + CLAIM_LEASE)).claim_if_due(settings)
        assert job is not None and job.taken_over == AFTER_NINE - CLAIM_LEASE  # (it ran out when it was made)
    finally:
        await db.close()


async def test_setting_it_up_again_frees_a_failed_day_and_only_that(db):
    clock = Clock(AFTER_NINE)
    posts = process(db, clock)
    settings = await configured(db)
    gone = PostProblem(Problem.CHANNEL_GONE, CHANNEL)
    await posts.failed(await posts.claim_if_due(settings), gone, retry=False)
    assert await posts.claim_if_due(settings) is None  # the day's problem
    await posts.configure(G, CHANNEL, Schedule(9, 0))  # the moderator fixed it and set it up again
    job = await posts.claim_if_due(await SqlDailyStore(db).settings(G))
    assert job is not None
    await posts.posted(job, 555)
    await posts.configure(G, CHANNEL, Schedule(9, 0))
    assert await posts.claim_if_due(await SqlDailyStore(db).settings(G)) is None  # posted stays posted
    assert (await SqlDailyStore(db).last_post(G)).message_id == 555


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
async def test_settings_made_before_languages_were_kept_have_none_and_only_spanish_or_english_is_kept(
    dialect, tmp_path, request
):
    """Migration 12: a daily post and a digest set up by version 11 keep following the server's locale (no language
    of their own) until a moderator sets them up again, in Spanish or English."""
    settings = (
        "INSERT INTO guild_settings (guild_id, daily_enabled, daily_channel_id, daily_hour, daily_minute, "
        "digest_channel_id, digest_weekday) VALUES ({}, 1, {}, 9, 0, {}, 2)"
    )
    if dialect == "sqlite":
        where = tmp_path / "g.db"
        with sqlite_at(where, 11) as conn:
            conn.execute(settings.format("?", "?", "?"), (G, CHANNEL, CHANNEL))
    else:
        import asyncpg

        where = request.getfixturevalue("postgres_url")
        await postgres_at(where, 11)
        conn = await asyncpg.connect(where)
        await conn.execute(settings.format("$1", "$2", "$3"), G, CHANNEL, CHANNEL)
        await conn.close()
    stores = await open_stores(where)
    try:
        assert stores.migrated == tuple(range(12, SCHEMA_VERSION + 1))
        daily, digest = await stores.daily.settings(G), await stores.digests.settings(G)
        assert (daily.language, daily.schedule, daily.channel_id) == (None, Schedule(9, 0), CHANNEL)
        assert (digest.language, digest.weekday) == (None, 2)
        await stores.daily.configure(G, CHANNEL, Schedule(9, 0), language="en")
        await stores.digests.configure(G, CHANNEL, 2, "es")
        assert ((await stores.daily.settings(G)).language, (await stores.digests.settings(G)).language) == ("en", "es")
        with pytest.raises(Exception) as refused:
            await stores.digests.configure(G, CHANNEL, 2, "fr")
        assert stores.database.refuses_content(refused.value)  # the schema's own check, not a busy database
        assert (await stores.digests.settings(G)).language == "es"
    finally:
        await stores.close()


async def test_the_digest_keeps_when_it_was_turned_on_through_changes_until_it_is_turned_off(db):
    store = SqlDigestStore(db)
    await store.configure(G, CHANNEL, 0, "es", "2026-12-02T10:00:00+00:00")
    await store.configure(G, CHANNEL + 1, 3, "en", "2026-12-03T10:00:00+00:00")  # another channel, day, language
    assert (await store.settings(G)).since == "2026-12-02T10:00:00+00:00"
    assert await store.disable(G)
    await store.configure(G, CHANNEL, 0, "es", "2026-12-09T10:00:00+00:00")  # on again: from now
    assert (await store.settings(G)).since == "2026-12-09T10:00:00+00:00"


async def test_a_digest_set_up_before_migrations_13_to_15_owes_every_week_and_keeps_its_last_week(tmp_path):
    path = tmp_path / "g.db"
    with sqlite_at(path, 12) as conn:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, digest_channel_id, digest_weekday, digest_last) "
            "VALUES (?, ?, 0, '2026-W48')",
            (G, CHANNEL),
        )
    stores = await open_stores(path)
    try:
        settings = await stores.digests.settings(G)
        assert (settings.since, settings.posted_at, settings.error, settings.last_week, settings.claimed_until) == (
            None,
            None,
            None,
            "2026-W48",
            None,
        )
        # migration 15: a week claimed before it is done (it may have been posted), whatever the clock says
        assert not await stores.digests.claim(G, "2026-W48", "2026-11-29T10:00:00+00:00", "2026-11-29T10:02:00+00:00")
    finally:
        await stores.close()


def held(at: str) -> tuple[str, str]:
    """A claim made at `at`, and when its lease runs out."""
    return lease(datetime.fromisoformat(at))


async def test_the_digest_keeps_its_last_post_and_problem_and_setting_it_up_again_owes_a_failed_week(db):
    store = SqlDigestStore(db)
    await store.configure(G, CHANNEL, 0, "es", "2026-11-29T10:00:00+00:00")
    assert await store.claim(G, "2026-W49", *held("2026-11-30T09:00:00+00:00"))
    await store.posted(G, "2026-W49", "2026-11-30T09:00:00+00:00")
    at, until = held("2026-12-07T09:00:00+00:00")
    assert await store.claim(G, "2026-W50", at, until)
    await store.failed(G, "2026-W50", until, '{"problem":"channel_gone"}', at, retry=False)  # it goes without
    settings = await store.settings(G)
    assert (settings.posted_at, settings.error_at, settings.last_week, settings.claimed_until) == (
        "2026-11-30T09:00:00+00:00",
        "2026-12-07T09:00:00+00:00",
        "2026-W50",
        None,
    )
    assert not await store.claim(G, "2026-W50", *held("2026-12-08T09:00:00+00:00"))
    await store.configure(G, CHANNEL + 1, 0, "es", "2026-12-08T10:00:00+00:00")  # the moderator fixes it
    settings = await store.settings(G)
    assert (settings.error, settings.error_at, settings.last_week) == (None, None, None)
    assert await store.claim(G, "2026-W50", *held("2026-12-08T10:05:00+00:00"))  # owed again, once
    await store.posted(G, "2026-W50", "2026-12-08T10:10:00+00:00")
    await store.configure(G, CHANNEL + 1, 0, "en", "2026-12-08T11:00:00+00:00")  # no problem: a posted week stays
    assert not await store.claim(G, "2026-W50", *held("2026-12-08T11:05:00+00:00"))


def digests(db, clock: Clock) -> Digests:
    """One bot process's weekly digests over the shared database (claiming needs no figures)."""
    return Digests(SqlDigestStore(db), None, None, None, clock)  # type: ignore[arg-type]


async def digest_on_mondays(db):
    """A digest for Mondays, turned on the week before: on AFTER_NINE (a Wednesday), this week's is owed."""
    await SqlDigestStore(db).configure(G, CHANNEL, 0, "es", "2026-11-25T10:00:00+00:00")


async def digest_settings(db):
    return await SqlDigestStore(db).settings(G)  # (what each look reads first)


async def test_a_week_claimed_by_a_dead_process_is_taken_over_when_its_lease_runs_out_and_posted_once(db):
    clock = Clock(AFTER_NINE)
    dead, restarted, other = digests(db, clock), digests(db, clock), digests(db, clock)
    await digest_on_mondays(db)
    job = await dead.claim_if_due(await digest_settings(db))  # … and the process is killed before it sends
    assert job is not None and job.week == "2026-W49" and job.taken_over is None
    clock.now += CLAIM_LEASE - timedelta(seconds=1)
    assert await restarted.claim_if_due(await digest_settings(db)) is None  # the lease holds: it may be posting
    clock.now += timedelta(seconds=1)
    retry = await restarted.claim_if_due(await digest_settings(db))
    assert retry is not None and (retry.guild_id, retry.channel_id, retry.week) == (G, CHANNEL, "2026-W49")
    assert retry.taken_over == AFTER_NINE  # when the dead claim was made: its digest, if sent, came after
    assert retry.nonce == job.nonce  # the same message to Discord: a send that did reach it is not doubled
    assert await other.claim_if_due(await digest_settings(db)) is None  # taken over by one process only
    await restarted.posted(retry)
    settings = await digest_settings(db)
    assert (settings.last_week, settings.claimed_until, settings.posted_at) == ("2026-W49", None, clock.now_text)
    clock.now += CLAIM_LEASE * 10
    assert await other.claim_if_due(await digest_settings(db)) is None  # posted: done for the week


async def test_a_live_digest_claim_is_not_taken_while_it_posts_nor_after_a_send_it_could_not_mark(db):
    clock = Clock(AFTER_NINE)
    first, second = digests(db, clock), digests(db, clock)
    await digest_on_mondays(db)
    assert await first.claim_if_due(await digest_settings(db)) is not None
    # the first process sent it, and then could not mark it posted (the database went away for a moment): every
    # other look within the lease leaves that week alone, whatever the settings it read say
    for _ in range(3):
        clock.now += CLAIM_LEASE / 4
        assert await second.claim_if_due(await digest_settings(db)) is None
    assert (await digest_settings(db)).last_week == "2026-W49"


async def test_a_digest_process_that_outlived_its_lease_cannot_free_or_end_the_claim_that_replaced_it(db):
    clock = Clock(AFTER_NINE)
    slow, successor, third = digests(db, clock), digests(db, clock), digests(db, clock)
    await digest_on_mondays(db)
    stale = await slow.claim_if_due(await digest_settings(db))
    clock.now += CLAIM_LEASE
    assert await successor.claim_if_due(await digest_settings(db)) is not None
    late = PostProblem(Problem.DISCORD, CHANNEL, status=503, text="late")
    await slow.failed(stale, late, retry=True)  # its answer came after the lease ran out
    assert await third.claim_if_due(await digest_settings(db)) is None  # the successor's claim still holds
    await slow.failed(stale, late, retry=False)
    settings = await digest_settings(db)
    assert settings.error is None and settings.claimed_until is not None  # nor was it let go for the week


async def test_failed_digests_free_the_week_or_let_it_go_without(db):
    clock = Clock(AFTER_NINE)
    posts = digests(db, clock)
    await digest_on_mondays(db)
    unavailable = PostProblem(Problem.DISCORD, CHANNEL, status=503, text="Service Unavailable")
    await posts.failed(await posts.claim_if_due(await digest_settings(db)), unavailable, retry=True)
    clock.now += timedelta(minutes=10)
    job = await posts.claim_if_due(await digest_settings(db))  # freed: the next look tries again at once …
    assert job is not None and (await digest_settings(db)).error == unavailable.stored()  # kept for `estado`
    assert job.taken_over == AFTER_NINE - CLAIM_LEASE  # … and looks first: the 503's send may have gone out
    refused = PostProblem(Problem.DISCORD, CHANNEL, status=403, text="Missing Access")
    await posts.failed(job, refused, retry=False)
    clock.now += CLAIM_LEASE * 10
    assert await posts.claim_if_due(await digest_settings(db)) is None  # that week goes without
    assert (await digest_settings(db)).error == refused.stored()


async def test_setting_the_digest_up_again_does_not_free_a_week_another_process_is_posting(db):
    """The race `resumen configurar` had: run again after a failure (its problem still shown), it freed the week even
    while a process had just claimed it again, and another process looking then posted that week's digest too."""
    clock = Clock(AFTER_NINE)
    first, second = digests(db, clock), digests(db, clock)
    await digest_on_mondays(db)
    unavailable = PostProblem(Problem.DISCORD, CHANNEL, status=503, text="Service Unavailable")
    await first.failed(await first.claim_if_due(await digest_settings(db)), unavailable, retry=True)
    clock.now += timedelta(minutes=10)
    job = await first.claim_if_due(await digest_settings(db))  # the next look: sending it now
    assert job is not None
    await second.configure(G, CHANNEL, 0, "es")  # a moderator sets it up again meanwhile
    settings = await digest_settings(db)
    assert settings.error is None and settings.last_week == job.week  # the problem is over; the claim stays
    assert await second.claim_if_due(settings) is None  # the other process does not post it too
    await first.posted(job)
    clock.now += CLAIM_LEASE * 10
    assert await second.claim_if_due(await digest_settings(db)) is None
