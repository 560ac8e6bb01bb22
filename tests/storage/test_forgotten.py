"""The forgotten list as the write queue reads it: which records were made at or before the erasure of a member or a
server they name (bot.storage.forgotten), each record by the time it carries."""

from __future__ import annotations

import dataclasses

import pytest

from bot.core.status import Outcome
from bot.storage.forgotten import HASH_FIELDS, Forgotten, keys
from bot.storage.records import (
    RECORD_TYPES,
    CommentRecord,
    GapRecord,
    LookupCountsRecord,
    LookupRecord,
    SuggestionChoiceRecord,
    UnloggedRecord,
    VoteRecord,
)

G, H = 424242424242424242, 535353535353535353
MINE, THEIRS = "hash-of-member", "hash-of-other"
ERASED = "2026-12-03T10:00:00+00:00"
FORGOTTEN = Forgotten({MINE: ERASED}, {H: ERASED})


def member_records(asker: str, at: str, guild: int = G) -> list:
    return [
        GapRecord(guild, "nebula", "nebula", asker, None, "lookup", at),
        SuggestionChoiceRecord(guild, "qh", "horovod", asker, at),
        VoteRecord(guild, "horovod", asker, "helpful", at),
        CommentRecord(guild, "horovod", asker, "Falta un ejemplo", at),
    ]


def test_every_record_type_carries_its_time_and_every_member_field_is_known():
    """A record type added later must say when it was made, or the check cannot tell it from an older one."""
    for kind in RECORD_TYPES.values():
        names = {field.name for field in dataclasses.fields(kind)}
        assert "guild_id" in names, kind
        assert names & {"at", "day", "rows"}, f"{kind.__name__} carries no time of its own"
        for name in names - {"qhash"}:  # (a question's hash, not a member's)
            if "asker" in name or "voter" in name or "hash" in name:
                assert name in HASH_FIELDS, f"{kind.__name__}.{name} may hold a member's hash"


@pytest.mark.parametrize(
    ("at", "kept"),
    [
        ("2026-12-03T09:59:59+00:00", False),
        (ERASED, False),  # the same second: taken as before
        ("2026-12-03T11:00:00+01:00", False),  # the same moment, in another zone
        ("2026-12-03T10:00:00", False),  # no zone: UTC, as the bot's clock
        ("2026-12-03T10:00:01+00:00", True),
        ("2026-12-03T10:00:01", True),
        ("no es una fecha", False),  # a time that cannot be read: not written back
    ],
)
def test_a_member_s_record_is_written_only_when_made_after_they_were_forgotten(at, kept):
    for record in member_records(MINE, at):
        assert (FORGOTTEN.keep(record) is record) is kept, record
    for record in member_records(THEIRS, at):  # another member's, in a server not forgotten: always
        assert FORGOTTEN.keep(record) is record


def test_a_forgotten_server_s_records_by_anyone_go_by_the_same_rule():
    for record in member_records(THEIRS, "2026-12-02T23:00:00+00:00", guild=H):
        assert FORGOTTEN.keep(record) is None
    for record in member_records(THEIRS, "2026-12-03T10:00:05+00:00", guild=H):
        assert FORGOTTEN.keep(record) is record
    # forgotten twice over (the member and the server): the later erasure counts
    both = Forgotten({MINE: "2026-12-05T10:00:00+00:00"}, {H: ERASED})
    assert both.keep(member_records(MINE, "2026-12-04T10:00:00+00:00", guild=H)[0]) is None


def test_counts_that_carry_only_their_day_are_taken_as_made_before_an_erasure_that_day():
    for day, kept in [("2026-12-02", False), ("2026-12-03", False), ("2026-12-04", True)]:
        for record in (LookupRecord(H, day, Outcome.FOUND, "horovod"), UnloggedRecord(H, day)):
            assert (FORGOTTEN.keep(record) is record) is kept, record
    # a second's lookup counts across midnight: the next day's rows are written, the erasure day's are not
    rows = [["2026-12-03", "found", "horovod", 2], ["2026-12-04", "found", "horovod", 1]]
    assert FORGOTTEN.keep(LookupCountsRecord(H, rows)) == LookupCountsRecord(H, rows[1:])
    assert FORGOTTEN.keep(LookupCountsRecord(H, rows[:1])) is None
    assert FORGOTTEN.keep(LookupCountsRecord(G, rows)) == LookupCountsRecord(G, rows)  # not forgotten


def test_a_batch_is_looked_up_by_each_hash_and_server_once():
    records = [*member_records(MINE, ERASED), *member_records(THEIRS, ERASED, guild=H), UnloggedRecord(G, "2026")]
    assert keys(records) == ([MINE, THEIRS], [G, H])
    assert not Forgotten({}, {}) and FORGOTTEN
