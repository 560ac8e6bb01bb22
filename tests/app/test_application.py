"""The application's actions without Discord: a real SQLite file in a temp dir, the shipped glossary."""

from __future__ import annotations

import asyncio

from bot.app.lookup.lookups import Asker
from bot.app.review.gaps import GapPage, GapRow
from bot.core.search import Ambiguous, Found, NotFound
from bot.core.status import GapStatus
from bot.discord_app.gaps import gap_lines
from bot.storage.records import Gap, GapRecord


async def test_a_lookup_answers_and_what_it_could_not_answer_becomes_a_gap(app):
    member = Asker(guild_id=7, user_id=1)
    assert isinstance(app.lookups.lookup(member, "horovod").result, Found)
    unsure = app.lookups.lookup(member, "paralelismo")
    assert isinstance(unsure.result, Ambiguous) and len(unsure.qhash) == 8
    assert isinstance(app.lookups.lookup(member, "computación cuántica").result, NotFound)
    assert app.lookups.lookup(member, "  ¿? ") is None  # nothing to look up: no gap either
    app.lookups.flush()
    await asyncio.wait_for(app.writer.drain(), 10)
    page = await app.review.page(7, GapStatus.OPEN, "count", 0)
    assert sorted(row.gap.sample for row in page.rows) == ["computación cuántica", "paralelismo"]
    assert (await app.review.page(8, GapStatus.OPEN, "count", 0)).total == 0  # another server's list is its own
    stats = await app.statistics(7)
    assert stats.lookups == 3 and [g.sample for g in stats.top_gaps][:1] in (["paralelismo"], ["computación cuántica"])


async def test_a_pick_counts_only_with_the_bots_own_signature(app):
    member = Asker(guild_id=7, user_id=1)
    answer = app.lookups.lookup(member, "paralelismo")
    term_id = answer.result.candidates[0].term.id
    signature = app.lookups.sign(False, answer.qhash, term_id)
    assert app.lookups.picked(member, False, answer.qhash, term_id, "000000") is False  # forged
    assert app.lookups.picked(member, True, answer.qhash, term_id, signature) is False  # signed for another reply
    assert app.lookups.picked(member, False, answer.qhash, term_id, signature) is True
    await asyncio.wait_for(app.writer.drain(), 10)
    page = await app.review.page(7, GapStatus.OPEN, "count", 0)
    assert [(p.sample, p.people) for p in page.proposals] == [("paralelismo", 1)]


async def test_a_reload_resolves_the_gaps_the_glossary_now_answers(app):
    # Gaps logged while an older glossary could not answer them: one the current glossary answers, one it does not.
    for text in ("horovd", "computación cuántica"):
        await app.stores.gaps.record_gaps([GapRecord(7, text, text, "a", None, "lookup", "t")])
    report = await app.glossary.reload()
    assert [(gap.sample, term) for gap, term in report.resolved] == [("horovd", "horovod")]
    (left,) = (await app.review.page(7, GapStatus.OPEN, "count", 0)).rows
    assert left.gap.sample == "computación cuántica"
    assert await app.review.set_status(8, [left.gap.id], GapStatus.IGNORED) == 0  # not that server's gap
    assert await app.review.set_status(7, [left.gap.id], GapStatus.IGNORED) == 1


def test_gap_page_lines_are_text_for_one_language(app):
    gap = Gap(
        1, 7, "horovd", "horovd", "lookup", 3, 2, "2026-12-01T10:00:00", "2026-12-02T10:00:00", "horovod", "open", None
    )
    page = GapPage(GapStatus.OPEN, "count", 0, 1, 1, [GapRow(1, gap, "Horovod", False)], 0, [])
    (spanish,) = gap_lines(page, "es-ES")
    (english,) = gap_lines(page, "en-US")
    assert "«horovd» — 3 veces, 2 personas" in spanish and "Horovod" in spanish
    assert "3 times" in english and spanish != english


async def test_the_application_starts_the_question_path_itself_without_discord(tmp_path):
    """With the question path on, `Application.start` loads it in the background (no Discord client involved):
    names are answered meanwhile, `questions_loading` says it is coming and `questions_ready` when questions are in.
    Off, nothing is loaded."""
    from bot.app.application import Application
    from bot.app.catalog import load_catalog
    from bot.app.questions.service import Questions
    from bot.config import Settings
    from tests.app.test_question_cache import CountingEncoder
    from tests.conftest import SHIPPED
    from tests.helpers import eventually

    for on in (True, False):
        settings = Settings(
            data_dir=SHIPPED,
            database_url=f"sqlite:///{tmp_path / f'{on}.db'}",
            cache_dir=tmp_path / f"cache-{on}",
            questions=on,
        )
        app = await Application.open(settings, load_catalog(SHIPPED))
        encoder = CountingEncoder()
        if on:
            app.__dict__["questions"] = Questions(app.catalog, settings.cache_dir, encoder=encoder)
        await app.start()
        loading = [task for task in asyncio.all_tasks() if task.get_name() == "glosario-questions"]
        assert len(loading) == on  # started by the application's own start, or not at all
        assert app.questions_loading == on  # (off: it will never be ready, and nothing says it is coming)
        if on:
            await eventually(lambda: app.questions_ready)  # noqa: B023 (awaited within the iteration)
            assert not app.questions_loading
            assert encoder.calls >= 1 and len(encoder.texts) >= len(app.catalog.glossary)  # the index was built
        else:
            assert not app.questions_ready and "questions" not in app.__dict__  # nothing loaded
        assert await app.close() == []
