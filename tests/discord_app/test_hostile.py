"""A hostile member, end to end: broken text, lost replies, floods, forged buttons, menus and modals."""

from __future__ import annotations

import csv
import io
import logging
import re

from bot.app.limits import RateLimit
from bot.core.normalize import normalize
from bot.discord_app.kit.i18n import t
from bot.storage.gaps import query_hash
from tests.fake_discord.server import MANAGE_MESSAGES, MEMBER_PERMISSIONS, bot_message

MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
EPHEMERAL = 64


def components(data: dict) -> list[dict]:
    return [c for row in data.get("components", []) for c in row["components"]]


async def ask(fake, query: str, user_id: int = 1, **kw) -> dict:
    return await fake.response(await fake.command("termino", {"termino": query}, user_id=user_id, **kw))


async def admin(fake, path: str, options=None, *, permissions=MODERATOR, user_id=900) -> tuple[str, dict]:
    iid = await fake.command(f"glosario-admin {path}", options, permissions=permissions, user_id=user_id)
    return iid, await fake.response(iid)


async def test_a_lone_surrogate_is_answered_logged_and_stops_nothing(fake, bot, harness):
    reply = await ask(fake, "tokeni\ud800zación")  # JSON's "\ud800" escape: valid JSON, not valid Unicode text
    assert "todavía no está" in reply["data"]["content"]
    assert "\ufffd" in reply["data"]["content"]
    await ask(fake, "aprendizaje federado", user_id=2)
    await harness.flushed(bot)
    assert sorted(s for (s,) in harness.rows("SELECT sample FROM misses")) == [
        "aprendizaje federado",
        "tokeni\ufffdzación",
    ]
    assert bot.app.writer.rejected == 0  # made valid where it entered: nothing for the writer to refuse


async def test_a_miss_whose_reply_discord_refused_is_still_logged(fake, bot, harness):
    fake.callback_errors = [429, 429]  # a 429 without a Via header: discord.py gives up at once
    iid = await fake.command("termino", {"termino": "redes de hopfield"}, user_id=3)
    await fake.wait_for(lambda: len(fake.failed_callbacks) >= 1)
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, count FROM misses") == [("redes de hopfield", 1)]
    assert iid in {i for i, _ in fake.failed_callbacks}


async def test_one_limit_covers_search_and_buttons(fake, bot):
    for n in range(6):
        reply = await fake.response(await fake.command("glosario buscar", {"texto": f"zzz {n}"}, user_id=40))
        assert "zzz" in reply["data"]["content"]
    seventh = await fake.response(await fake.command("glosario buscar", {"texto": "zzz 7"}, user_id=40))
    assert "Vas muy rápido" in seventh["data"]["content"] and seventh["data"]["flags"] & EPHEMERAL

    card = (await ask(fake, "horovod", user_id=41))["data"]
    message = bot_message(card, "1")
    answers = [await fake.response(await fake.click(message, "glosario:term:allreduce", user_id=42)) for _ in range(7)]
    assert all(a["data"].get("embeds") for a in answers[:6])
    assert "Vas muy rápido" in answers[6]["data"]["content"]


async def test_one_member_cannot_flood_the_gap_list(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)  # this test is about the gap budget, not the rate limit
    for n in range(25):
        reply = await ask(fake, f"basura {n:02d}", user_id=50)
        assert "todavía no está" in reply["data"]["content"]  # answered as usual
    await ask(fake, "basura 00", user_id=50)  # asking the same again costs nothing
    await ask(fake, "algo legítimo", user_id=51)  # nor does another member's question
    await harness.flushed(bot)
    (logged,) = harness.rows("SELECT COUNT(*) FROM misses WHERE sample LIKE 'basura%'")[0]
    assert logged == 20
    assert harness.rows("SELECT count FROM misses WHERE sample = 'basura 00'") == [(2,)]
    assert harness.rows("SELECT SUM(count) FROM unlogged_misses") == [(5,)]
    assert harness.rows("SELECT sample FROM misses WHERE sample = 'algo legítimo'") == [("algo legítimo",)]
    _, listing = await admin(fake, "pendientes")
    fields = {f["name"]: f["value"] for f in listing["data"]["embeds"][0].get("fields", [])}
    assert "5 consulta(s) sin respuesta no se apuntaron" in fields["⚠️"]


async def test_alias_proposals_count_people_and_only_what_the_bot_offered(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    data = (await ask(fake, "paralelismo de modelos", user_id=60))["data"]
    pick = components(data)[0]["custom_id"]
    message = bot_message(data, "1")
    for _ in range(20):  # one member clicking twenty times
        await fake.response(await fake.click(message, pick, user_id=61))
    await fake.response(await fake.click(message, pick, user_id=62))  # and one more person
    qhash = query_hash(normalize("paralelismo de modelos"))
    forged_hash = pick.replace(qhash, "deadbeef")
    forged_term = re.sub(r":[^:]+$", ":horovod", pick)
    for forged in (forged_hash, forged_term):  # a crafted button on a crafted message: shown, but not counted
        crafted = bot_message(
            {**data, "components": [{"type": 1, "components": [{**components(data)[0], "custom_id": forged}]}]}, "1"
        )
        shown = await fake.response(await fake.click(crafted, forged, user_id=63))
        assert shown["data"]["embeds"][0]["title"] in ("Paralelismo de Datos", "Horovod")
    # a custom_id that is not on the message at all: discord.py drops it, and the bot still answers
    stray = await fake.response(await fake.click(message, forged_hash, user_id=64))
    assert "ya no funciona" in stray["data"]["content"] and stray["data"]["flags"] & EPHEMERAL
    await harness.flushed(bot)
    assert harness.rows("SELECT sample, term_id, count FROM picks") == [
        ("paralelismo de modelos", "paralelismo-de-datos", 2)
    ]
    _, listing = await admin(fake, "pendientes")
    fields = {f["name"]: f["value"] for f in listing["data"]["embeds"][0]["fields"]}
    assert fields["Propuestas de alias"] == "«paralelismo de modelos» → Paralelismo de Datos, 2 personas"


async def one_gap_listed(fake, bot, harness, user_id: int) -> tuple[list[dict], dict]:
    """A member's question that found nothing, and the moderators' list showing it: its menus and message."""
    await ask(fake, "tokenizacion", user_id=user_id)
    await harness.flushed(bot)
    _, listing = await admin(fake, "pendientes")
    return components(listing["data"]), bot_message(listing["data"], "1")


async def test_a_forged_modal_submit_is_refused(fake, bot, harness):
    menus, message = await one_gap_listed(fake, bot, harness, user_id=70)
    resolve = menus[3]
    modal = await fake.response(
        await fake.click(message, resolve["custom_id"], permissions=MODERATOR, values=[resolve["options"][0]["value"]])
    )
    assert modal["type"] == 9  # a moderator opened it; a member sends the same custom_id
    refused = await fake.response(
        await fake.submit_modal(modal["data"], {}, message=message, user_id=71, permissions=MEMBER_PERMISSIONS)
    )
    assert refused["data"]["content"] == t("es", "form_not_yours") and refused["data"]["flags"] & EPHEMERAL
    # The one who opened it, no longer a moderator: refused like the command.
    demoted = await fake.answer(
        await fake.submit_modal(modal["data"], {}, message=message, user_id=111, permissions=MEMBER_PERMISSIONS)
    )
    assert "es para moderadores" in demoted["content"] and demoted["flags"] & EPHEMERAL
    assert harness.rows("SELECT status FROM misses") == [("open",)]


async def test_a_forged_menu_value_gets_an_answer(fake, bot, harness):
    menus, message = await one_gap_listed(fake, bot, harness, user_id=80)
    ignore = menus[2]
    for value in ("9" * 40, "-1", "abc"):
        answer = await fake.response(
            await fake.click(message, ignore["custom_id"], permissions=MODERATOR, values=[value])
        )
        assert answer["type"] == 7 and "ya no está en la lista" in answer["data"]["content"]
    assert harness.rows("SELECT status FROM misses") == [("open",)]
    real = ignore["options"][0]["value"]
    done = await fake.response(await fake.click(message, ignore["custom_id"], permissions=MODERATOR, values=[real]))
    assert done["type"] == 7 and not done["data"].get("content")  # the note does not stay on the list
    assert harness.rows("SELECT status FROM misses") == [("ignored",)]


async def test_a_refused_member_gets_one_polite_message_and_no_error(fake, bot, caplog):
    caplog.set_level(logging.INFO)
    iid, reply = await admin(fake, "estadisticas", permissions=MEMBER_PERMISSIONS, user_id=90)
    assert "es para moderadores" in reply["data"]["content"]
    await ask(fake, "horovod", user_id=90)  # something after it, so a second message would have arrived
    assert len(fake.responses[iid]) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_csv_export_neutralises_formulas(fake, bot, harness):
    await ask(fake, '=HYPERLINK("http://x.example","clic")', user_id=95)
    await ask(fake, "@SUM(1+1)", user_id=96)
    await harness.flushed(bot)
    iid, _ = await admin(fake, "exportar", {"formato": "csv"})
    (data,) = (await fake.response(iid, 1))["_files"].values()
    rows = list(csv.DictReader(io.StringIO(data.decode())))
    assert sorted(r["query"] for r in rows) == ['\'=HYPERLINK("http://x.example","clic")', "'@SUM(1+1)"]


async def test_english_members_are_told_english_command_names(fake, bot):
    iid = await fake.command(
        "glosario-admin diario estado", permissions=str(int(MODERATOR) | (1 << 5)), locale="en-US", user_id=99
    )
    text = (await fake.response(iid))["data"]["content"]
    assert "/glossary-admin daily setup" in text and "diario" not in text


async def test_marks_that_turn_text_around_stay_inside_the_members_text(fake, bot, harness):
    """A member's text with a right-to-left override (U+202E) or isolate is said back without it: it would turn
    around the rest of the bot's sentence, in their reply and on the moderators' list."""
    hostile = "tokeni\u202ezación \u2067x"
    reply = await ask(fake, hostile, user_id=97)
    await harness.flushed(bot)
    _, listing = await admin(fake, "pendientes")
    for text in (reply["data"]["content"], listing["data"]["embeds"][0]["description"]):
        assert "tokenización x" in text and not re.search("[\u202a-\u202e\u2066-\u2069]", text)
