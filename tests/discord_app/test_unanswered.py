"""A click nothing answers (a button no item of ours reads) gets the guard's short private note, once, and a stop
waits for that note: it is an interaction in flight like any other."""

import asyncio

from bot.discord_app.kit.i18n import t
from tests.discord_app.test_feedback import EPHEMERAL, card
from tests.fake_discord.server import message_of
from tests.helpers import eventually

UNREAD = "glosario:nadie:lee:esto"  # the shape of no persistent item of the bot


def unread_message(data: dict) -> dict:
    question = data["components"][-1]["components"][0]
    return message_of({**data, "components": [{"type": 1, "components": [{**question, "custom_id": UNREAD}]}]})


async def test_a_click_nothing_answers_gets_one_note_and_the_guard_forgets_it(fake, bot):
    data = await card(fake)
    iid = await fake.click(unread_message(data), UNREAD, user_id=7)
    reply = await fake.response(iid)
    assert reply["data"]["content"] == t("es", "stale_interaction") and reply["data"]["flags"] & EPHEMERAL
    await eventually(lambda: bot.guard.in_flight() == 0)  # the note sent: nothing left to wait for
    assert len(fake.responses[iid]) == 1


async def test_a_stop_waits_for_the_note_to_a_click_nothing_answered(fake, harness):
    bot = await harness.start()
    data = await card(fake)
    iid = await fake.click(unread_message(data), UNREAD, user_id=8)
    await eventually(lambda: bot.guard.in_flight() == 1)  # received, unanswered
    await asyncio.wait_for(bot.shutdown(grace=10), 15)
    assert (await fake.response(iid, timeout=1))["data"]["content"] == t("es", "stale_interaction")
    assert bot.is_closed()
