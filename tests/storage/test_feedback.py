"""Feedback (👍/👎 on cards, and what was missing) on SQLite and PostgreSQL: one vote per member, term and server,
changeable; comments kept as typed; the least helpful terms ranked; nobody's id or hash given out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app.catalog import CatalogHolder, load_catalog
from bot.app.feedback.votes import MAX_COMMENT, MIN_VOTES, Commented, Feedback, feedback_csv
from bot.app.limits import GapBudget
from bot.app.lookup.lookups import Asker
from bot.core.gaps import asker_hash
from bot.core.status import Vote
from bot.storage import stores_on
from bot.storage.records import CommentRecord, LatestComments, RecentFeedback, VoteRecord
from tests.conftest import SHIPPED

G, H = 424242424242424242, 535353535353535353  # two servers (snowflake-sized)
SALT = "sal"
AT, LATER = "2026-12-03T10:00:00+00:00", "2026-12-03T11:00:00+00:00"
UP, DOWN = Vote.HELPFUL.value, Vote.UNHELPFUL.value


def voter(n: int) -> str:
    return asker_hash(SALT, n)


@pytest.fixture
def store(database):
    return stores_on(database).feedback


async def test_one_vote_per_member_term_and_server_and_the_latest_counts(store):
    await store.record_votes([VoteRecord(G, "horovod", voter(1), UP, AT), VoteRecord(G, "horovod", voter(2), UP, AT)])
    await store.record_votes([VoteRecord(G, "horovod", voter(1), DOWN, LATER)] * 5)  # a flood: still one vote
    await store.record_votes([VoteRecord(H, "horovod", voter(1), UP, AT)])  # another server: its own vote
    (votes,) = await store.tally(G)
    assert (votes.term_id, votes.helpful, votes.unhelpful, votes.comments) == ("horovod", 1, 1, 0)
    (elsewhere,) = await store.tally(H)
    assert (elsewhere.helpful, elsewhere.unhelpful) == (1, 0)
    assert await store.tally(G, min_votes=3) == []


async def test_a_comment_is_kept_as_typed_and_a_thumbs_up_takes_it_back(store):
    text = "Falta un ejemplo con **PyTorch** y <@123>\ny el enlace al artículo"
    await store.record_votes([VoteRecord(G, "horovod", voter(1), DOWN, AT)])
    await store.record_comments([CommentRecord(G, "horovod", voter(1), text, AT)])
    latest = await store.comments(G)
    assert latest.total == 1 and latest.rows[0].comment == text and latest.rows[0].vote == DOWN
    await store.record_votes([VoteRecord(G, "horovod", voter(1), DOWN, LATER)])  # 👎 again: the comment stays
    assert (await store.comments(G)).total == 1
    await store.record_votes([VoteRecord(G, "horovod", voter(1), UP, LATER)])  # changed their mind
    assert await store.comments(G) == LatestComments(rows=[], total=0)
    assert await store.since(G, AT) == RecentFeedback(votes=1, comments=0)


async def test_the_export_names_no_voter(store):
    await store.record_votes(
        [VoteRecord(G, "horovod", voter(1), UP, AT), VoteRecord(H, "allreduce", voter(2), DOWN, AT)]
    )
    await store.record_comments([CommentRecord(H, "allreduce", voter(2), "=HYPERLINK(1)", LATER)])
    everything = await store.export()
    assert [(r.guild_id, r.term_id, r.vote, r.comment) for r in everything] == [
        (G, "horovod", UP, None),
        (H, "allreduce", DOWN, "=HYPERLINK(1)"),
    ]
    assert [r.term_id for r in await store.export(guild_id=H)] == ["allreduce"]
    assert not any(voter(n) in str(r.to_dict()) for r in everything for n in (1, 2))
    csv = feedback_csv(everything, lambda term_id: term_id.title())
    assert "'=HYPERLINK(1)" in csv  # a spreadsheet never runs it


class Queue:
    """The write queue's place: what the application submits, applied at once."""

    def __init__(self, store) -> None:
        self.store = store
        self.pending: list = []

    def submit(self, record) -> None:
        self.pending.append(record)

    async def flush(self) -> None:
        pending, self.pending = self.pending, []
        for record in pending:
            write = self.store.record_votes if isinstance(record, VoteRecord) else self.store.record_comments
            await write([record])


async def test_the_least_helpful_terms_need_enough_votes_and_unknown_terms_count_nothing(store):
    catalog = CatalogHolder(load_catalog(SHIPPED))
    queue = Queue(store)
    feedback = Feedback(store, catalog, None, queue, SALT, lambda: datetime(2026, 12, 3, 10, tzinfo=UTC))  # type: ignore[arg-type]
    assert await feedback.vote(Asker(G, 1), "no-existe", Vote.UNHELPFUL) is None  # a forged button
    for member, vote in enumerate([Vote.UNHELPFUL, Vote.UNHELPFUL, Vote.HELPFUL], start=1):
        await feedback.vote(Asker(G, member), "horovod", vote)
    for member in (1, 2):  # only two votes: not ranked yet
        await feedback.vote(Asker(G, member), "allreduce", Vote.UNHELPFUL)
    for member in (1, 2, 3):  # all helpful: nothing to improve
        await feedback.vote(Asker(G, member), "ray", Vote.HELPFUL)
    assert await feedback.comment(Asker(G, 1), "horovod", "   ") is Commented.EMPTY
    assert await feedback.comment(Asker(G, 1), "horovod", "x" * 900) is Commented.SAVED
    await queue.flush()
    ranked = await feedback.least_helpful(G)
    assert ranked.total == 1 and MIN_VOTES == 3
    (horovod,) = ranked.items
    assert horovod.term.id == "horovod" and (horovod.votes.unhelpful, horovod.votes.votes) == (2, 3)
    assert not horovod.server_term
    (name, row), total = (await feedback.comments(G)).items[0], (await feedback.comments(G)).total
    assert name == "Horovod" and len(row.comment) == MAX_COMMENT and total == 1
    assert all(r.term_id != "no-existe" for r in await store.export())


async def test_comments_have_the_hourly_budget_of_gaps_and_the_same_term_again_is_free(store):
    catalog = CatalogHolder(load_catalog(SHIPPED))
    feedback = Feedback(store, catalog, None, Queue(store), SALT, lambda: datetime.now(UTC), GapBudget(2, 3600))  # type: ignore[arg-type]
    member = Asker(G, 7)
    assert await feedback.comment(member, "horovod", "uno") is Commented.SAVED
    assert await feedback.comment(member, "allreduce", "dos") is Commented.SAVED
    assert not feedback.may_comment(member, "ray")
    assert await feedback.comment(member, "ray", "tres") is Commented.OVER_BUDGET
    assert feedback.may_comment(member, "horovod")  # changing a comment costs nothing
    assert await feedback.comment(member, "horovod", "uno, mejor dicho") is Commented.SAVED
    assert feedback.may_comment(Asker(G, 8), "ray")  # another member has their own
