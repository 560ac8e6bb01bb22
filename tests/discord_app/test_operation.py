"""Operation in-process: shutdown lets replies finish and turns new work away politely; reload swaps safely."""

from __future__ import annotations

import asyncio
import gc
import shutil
import weakref

from bot import heap
from bot.core.errors import GlossaryError
from tests.conftest import SHIPPED


async def test_shutdown_finishes_in_flight_and_answers_newcomers(fake, harness):
    bot = await harness.start()
    fake.callback_delay = 0.5
    first = await fake.command("termino", {"termino": "horovod"})
    await fake.wait_for(lambda: fake.callbacks_started >= 1)
    stopping = asyncio.create_task(bot.shutdown(grace=5))
    await asyncio.sleep(0.05)
    late = await fake.command("termino", {"termino": "ray"}, user_id=5)
    await asyncio.wait_for(stopping, 10)
    assert (await fake.response(first, timeout=1))["data"]["embeds"][0]["title"] == "Horovod"
    late_reply = await fake.response(late, timeout=1)
    assert "reiniciando" in late_reply["data"]["content"] and late_reply["data"]["flags"] & 64
    assert bot.is_closed()


async def test_reload_swaps_only_a_valid_glossary(fake, harness, tmp_path):
    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    bot = await harness.start(data_dir=data)
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: Ajuste Fino\n    definition: Fine-tuning.\n")
    report = await bot.app.glossary.reload()
    assert len(report.catalog.glossary) == 18
    assert [t.term for t in report.changes.added] == ["Ajuste Fino"]
    reply = await fake.response(await fake.command("termino", {"termino": "ajuste fino"}))
    assert reply["data"]["embeds"][0]["title"] == "Ajuste Fino"
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: [roto\n")
    error = await bot.app.glossary.reload()
    assert isinstance(error, GlossaryError)
    assert str(data / "extra.yaml") in error.report()
    assert len(bot.app.catalog.glossary) == 18  # the last good glossary keeps serving


async def test_a_reload_frees_the_replaced_glossary_and_keeps_the_new_one_out_of_the_collector(fake, harness):
    bot = await harness.start()
    heap.settle()  # as `glosario-bot run` does once the glossary is loaded
    old_index = weakref.ref(bot.app.catalog.index)
    bot.app.catalog.index.lookup("horovd")  # fill its caches, as serving does
    report = await bot.app.glossary.reload()
    assert old_index() is None  # frozen objects are never collected: the old glossary was let go first
    assert gc.get_freeze_count() > len(report.catalog.glossary)  # the new one is out of the collector's way
    assert not any(obj is report.catalog.index for obj in gc.get_objects())


async def test_an_unexpected_failure_gets_a_short_apology_not_the_exception(fake, harness):
    from bot.discord_app.i18n import STRINGS
    from tests.fake_discord.server import MANAGE_MESSAGES, MEMBER_PERMISSIONS

    bot = await harness.start()
    await bot.app.stores.close()  # the database is gone from under the bot
    moderator = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
    reply = await fake.response(await fake.command("glosario-admin pendientes", permissions=moderator))
    assert reply["data"]["flags"] & 64
    assert reply["data"]["content"] == STRINGS["es"]["error"]  # no exception text
    lookup = await fake.response(await fake.command("termino", {"termino": "horovod"}))
    assert lookup["data"]["embeds"][0]["title"] == "Horovod"  # answering from memory still works
