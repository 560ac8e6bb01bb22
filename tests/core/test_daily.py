"""Term of the day, pure: the pick (cycles, stability, glossary changes) and the schedule (zones, DST, days)."""

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.core import daily
from bot.core.daily import DailyEntry, Schedule
from bot.core.loader import load_glossary_from_texts
from bot.core.status import Days

META = "title: T\n"


def glossary(n: int, prefix: str = "Término"):
    terms = "".join(f"  - term: {prefix} {i:02d}\n    definition: D.\n" for i in range(n))
    return load_glossary_from_texts([("glossary.yaml", META), ("a.yaml", f"category: C\nterms:\n{terms}")])


def run_days(g, guild: int, start: date, days: int, history=None) -> list[DailyEntry]:
    history = list(history or [])
    for offset in range(days):
        day = start + timedelta(days=offset)
        term, cycle = daily.pick(g, guild, day, history)
        history.append(DailyEntry(day, term.id, cycle))
    return history


def test_no_repeat_until_every_term_was_shown_then_a_new_order():
    g = glossary(17)
    history = run_days(g, 1, date(2026, 1, 1), 34)
    first, second = [e.term_id for e in history[:17]], [e.term_id for e in history[17:]]
    assert sorted(first) == sorted(second) == sorted(t.id for t in g)
    assert first != second  # a new cycle, in a new order
    assert {e.cycle for e in history[:17]} == {0} and {e.cycle for e in history[17:]} == {1}


def test_same_guild_and_date_gives_the_same_term_and_guilds_differ():
    g = glossary(17)
    history = run_days(g, 1, date(2026, 1, 1), 5)
    day = date(2026, 1, 3)
    assert daily.pick(g, 1, day, history)[0].id == history[2].term_id  # recorded dates keep their term
    fresh = date(2026, 1, 6)
    assert daily.pick(g, 1, fresh, history) == daily.pick(g, 1, fresh, history)
    orders = {tuple(e.term_id for e in run_days(g, guild, date(2026, 1, 1), 17)) for guild in range(5)}
    assert len(orders) > 1


def test_added_terms_join_the_cycle_and_removed_ones_are_skipped():
    small = glossary(5)
    history = run_days(small, 1, date(2026, 1, 1), 3)
    grown = glossary(8)  # Término 00..07: three new terms
    history = run_days(grown, 1, date(2026, 1, 4), 5, history)
    assert len({e.term_id for e in history}) == 8  # cycle 0 finishes with every term, new ones included
    assert {e.cycle for e in history} == {0}
    shrunk = load_glossary_from_texts(
        [
            ("glossary.yaml", META),
            (
                "a.yaml",
                "category: C\nterms:\n"
                "  - term: Término 00\n    definition: D.\n"
                "  - term: Término 01\n    definition: D.\n",
            ),
        ]
    )
    term, _ = daily.pick(shrunk, 1, date(2026, 2, 1), history)
    assert term.id in {"termino-00", "termino-01"}
    gone_day = history[0].day
    if history[0].term_id not in {"termino-00", "termino-01"}:  # its term was removed: pick another
        assert daily.pick(shrunk, 1, gone_day, history)[0].id in {"termino-00", "termino-01"}


def test_parse_time_and_zone():
    assert daily.parse_time("9:05") == (9, 5)
    assert daily.parse_time(" 21.30 ") == (21, 30)
    assert daily.parse_time("21h30") == (21, 30)
    for bad in ("24:00", "7", "12:60", "mediodía", ""):
        assert daily.parse_time(bad) is None
    assert daily.parse_zone("Europe/Madrid") == daily.parse_zone(" europe/MADRID ") == "Europe/Madrid"
    assert daily.parse_zone("utc") == "UTC" and daily.parse_zone("America/Buenos_Aires") == "America/Buenos_Aires"
    # the host's own names (its files, not the time zone database's) would not work on a slim image or elsewhere
    for bad in ("Mars/Olympus", "../etc/passwd", "", "/etc/localtime", "localtime", "posix/Europe/Madrid"):
        assert daily.parse_zone(bad) is None


def test_each_zone_is_read_from_its_file_once_however_many_servers_use_it(monkeypatch):
    """A tick looks at every server's schedule; ZoneInfo itself keeps only the last 8 zones made, so with servers
    in more zones than that each look read each zone's file again."""
    made, real = [], daily.ZoneInfo

    def counted(name):
        made.append(name)
        return real(name)

    daily.zone.cache_clear()
    monkeypatch.setattr(daily, "ZoneInfo", counted)
    names = daily.zone_names()[:20]
    for _tick in range(3):
        for name in names:
            assert daily.local_date(datetime(2026, 12, 6, 12, tzinfo=UTC), Schedule(9, 0, name)) is not None
    assert sorted(made) == sorted(names)
    daily.zone.cache_clear()
    with pytest.raises(daily.ZoneInfoNotFoundError):
        daily.zone("Mars/Olympus")


MADRID = Schedule(9, 0, "Europe/Madrid")


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_due_from_the_local_slot_on_and_only_once():
    before = utc(2026, 12, 2, 7, 59)  # 08:59 in Madrid (UTC+1 in winter)
    at = utc(2026, 12, 2, 8, 0)
    assert daily.due(before, MADRID, None) is None
    assert daily.due(at, MADRID, None) == date(2026, 12, 2)
    assert daily.due(at + timedelta(hours=10), MADRID, date(2026, 12, 2)) is None  # already posted today


def test_catch_up_after_downtime_posts_today_once_not_the_missed_days():
    last = date(2026, 11, 28)
    now = utc(2026, 12, 2, 15, 0)
    assert daily.due(now, MADRID, last) == date(2026, 12, 2)


def test_local_date_not_utc_date():
    late = Schedule(23, 30, "America/Mexico_City")  # UTC-6
    now = utc(2026, 12, 3, 5, 31)  # 23:31 on 2 December in Mexico City
    assert daily.due(now, late, None) == date(2026, 12, 2)


def test_dst_changes_keep_the_local_time():
    summer = utc(2026, 7, 1, 7, 0)  # 09:00 CEST (UTC+2)
    assert daily.due(summer, MADRID, None) == date(2026, 7, 1)
    assert daily.due(summer - timedelta(minutes=1), MADRID, None) is None
    # 29 March 2026: 02:00 → 03:00 in Madrid. A 02:30 slot does not exist that night: it falls at 03:30.
    night = Schedule(2, 30, "Europe/Madrid")
    assert daily.slot(date(2026, 3, 29), night) == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    # 25 October 2026: 03:00 → 02:00. A 02:30 slot happens twice: the first one counts, once.
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert daily.slot(date(2026, 10, 25), night) == first
    assert daily.due(first + timedelta(hours=1), night, date(2026, 10, 25)) is None


def test_weekdays_only():
    weekdays = Schedule(9, 0, "UTC", Days.WEEKDAYS)
    saturday = utc(2026, 12, 5, 12, 0)
    assert daily.due(saturday, weekdays, None) is None
    assert daily.next_post(saturday, weekdays, None) == utc(2026, 12, 7, 9, 0)  # Monday
    assert daily.due(saturday, Schedule(9, 0, "UTC", Days.EVERY_DAY), None) == date(2026, 12, 5)


@pytest.mark.parametrize(
    ("now", "last", "expected"),
    [
        (utc(2026, 12, 2, 7, 0), None, utc(2026, 12, 2, 8, 0)),  # later today
        (utc(2026, 12, 2, 9, 0), None, utc(2026, 12, 2, 9, 0)),  # due now
        (utc(2026, 12, 2, 9, 0), date(2026, 12, 2), utc(2026, 12, 3, 8, 0)),  # tomorrow
    ],
)
def test_next_post(now, last, expected):
    assert daily.next_post(now, MADRID, last) == expected


@pytest.mark.parametrize("schedule", [None, Schedule(9, 0, "UTC", Days.WEEKDAYS)], ids=["no schedule", "weekdays"])
def test_a_forecast_is_what_picking_day_after_day_gives(shipped_glossary, schedule):
    today = date(2026, 12, 3)
    history = [DailyEntry(date(2026, 12, 1), "horovod", 0), DailyEntry(date(2026, 12, 5), "ray", 0)]
    picked, day = list(history), today
    expected = {}
    while day <= today + timedelta(days=80):  # several cycles of the 17 terms
        recorded = next((e for e in picked if e.day == day), None)
        if recorded is None:
            term, cycle = daily.pick(shipped_glossary, 7, day, picked)
            if schedule is None or day.weekday() < 5:
                picked.append(DailyEntry(day, term.id, cycle))
        else:
            term = shipped_glossary.get(recorded.term_id)
        expected[day] = term.id
        day += timedelta(days=1)
    for day, term_id in expected.items():
        found = daily.forecast(shipped_glossary, 7, day, history, today, schedule)
        assert found is not None and found[0].id == term_id, day


def test_a_forecast_too_far_ahead_is_refused(shipped_glossary):
    today = date(2026, 12, 3)
    assert daily.forecast(shipped_glossary, 7, date(9999, 12, 31), [], today, None) is None
    near, far = (daily.forecast(shipped_glossary, 7, d, [], today, None) for d in (date(2027, 3, 3), date(2027, 3, 4)))
    assert near is not None and far is not None and near[0] != far[0]  # each day its own term, not "the next"


def test_a_post_has_one_nonce_per_server_and_local_date_that_fits_discords_limit():
    biggest = (1 << 64) - 1  # a snowflake is 64 bits
    day = date(2026, 12, 2)
    nonce = daily.post_nonce(biggest, day)
    assert nonce == daily.post_nonce(biggest, day)  # a restarted process, or another one, sends the same
    assert len(nonce) <= 25  # Discord's limit for a nonce
    days = (day, day + timedelta(days=1), date(9999, 12, 31))
    nonces = {daily.post_nonce(g, d) for g in (1, 2, biggest) for d in days}
    assert len(nonces) == 9 and all(len(n) <= 25 for n in nonces)
    assert not nonce.isdigit()  # never one of the random numbers discord.py sends as the nonce of other messages
