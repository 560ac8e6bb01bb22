"""Feedback end to end through the fake Discord: "¿Te ha servido? 👍 👎" under every card, one changeable vote per
member, term and server, the optional "¿Qué faltaba?" form, and what only the editors see of it."""

from __future__ import annotations

import csv
import io

from bot.app.limits import RateLimit
from bot.discord_app.kit.i18n import t
from tests.discord_app.test_review import MODERATOR, admin, export
from tests.discord_app.test_server_terms import FORM, open_form, submit
from tests.fake_discord.server import DM, MEMBER_PERMISSIONS, message_of

EPHEMERAL = 64
COMMENT = "Falta un ejemplo con **PyTorch** @everyone <@123>"


async def card(fake, query="horovod", *, user_id=1, locale="es-ES", via=None):
    extra = {"via": via} if via else {}
    reply = await fake.response(
        await fake.command("termino", {"termino": query}, user_id=user_id, locale=locale, **extra)
    )
    return reply["data"]


def vote_buttons(data) -> tuple[dict, dict, dict]:
    question, up, down = data["components"][-1]["components"]
    return question, up, down


async def click(fake, data, button, *, user_id, **kw):
    iid = await fake.click(message_of(data), button["custom_id"], user_id=user_id, **kw)
    return await fake.response(iid)


async def vote(fake, data, which: str, *, user_id, comment: str | None = None, **kw):
    """A member presses 👍 ("up") or 👎 ("down"); after a 👎, fills in the form (or closes it) as `comment` says."""
    _, up, down = vote_buttons(data)
    reply = await click(fake, data, up if which == "up" else down, user_id=user_id, **kw)
    if comment is not None:
        assert reply["type"] == 9, reply  # the "¿Qué faltaba?" form
        (label,) = [c["label"] for row in reply["data"]["components"] for c in row["components"]]
        sent = await fake.submit_modal(reply["data"], {label: comment}, user_id=user_id)
        return await fake.answer(sent)
    return reply


async def test_every_card_asks_and_two_members_vote_and_one_changes_their_mind(fake, bot, harness):
    data = await card(fake)
    question, up, down = vote_buttons(data)
    assert question["disabled"] and question["label"] == t("es", "fb_question")
    assert (up["emoji"]["name"], down["emoji"]["name"]) == ("👍", "👎")
    assert data["components"][0]["components"][0]["custom_id"].startswith("glosario:term:")  # "see also" first
    english = vote_buttons(await card(fake, locale="en-US"))
    assert english[0]["label"] == t("en", "fb_question") == "Was this helpful?"

    thanks = await vote(fake, data, "up", user_id=1)
    assert thanks["data"]["content"] == t("es", "fb_thanks_helpful") and thanks["data"]["flags"] & EPHEMERAL
    form = await vote(fake, data, "down", user_id=2)
    assert form["type"] == 9 and form["data"]["title"] == t("es", "fb_modal_title")  # optional: closed unsent
    await harness.flushed(bot)
    assert harness.rows("SELECT vote, COUNT(*) FROM feedback GROUP BY vote ORDER BY vote") == [
        ("helpful", 1),
        ("unhelpful", 1),
    ]
    await vote(fake, data, "down", user_id=1, comment="")  # changed their mind; nothing to add
    await harness.flushed(bot)
    guild = fake.guilds[0].id
    assert harness.rows("SELECT guild_id, term_id, vote, COUNT(*) FROM feedback GROUP BY guild_id, term_id, vote") == [
        (guild, "horovod", "unhelpful", 2)
    ]
    voters = [v for (v,) in harness.rows("SELECT voter FROM feedback")]
    assert len(set(voters)) == 2 and not {"1", "2"} & set(voters)  # salted hashes, never the ids


async def test_a_comment_reaches_the_editors_and_no_other_member(fake, bot, harness):
    data = await card(fake)
    said = await vote(fake, data, "down", user_id=1, comment=COMMENT)
    assert said["content"] == t("es", "fb_comment_saved") and COMMENT not in str(said)
    for member in (2, 3):
        await vote(fake, data, "down", user_id=member, comment="")
    await vote(fake, data, "up", user_id=4)
    await harness.flushed(bot)

    iid, _ = await admin(fake, "estadisticas")
    stats = await fake.response(iid, 1)
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    least = fields[t("es", "fb_least_helpful", min=3)]
    assert least.startswith("**Horovod** — 👎 3 de 4 (75 %) · 1 comentario(s)")
    comments = fields[t("es", "fb_comments")]
    assert "**Horovod**" in comments and "\\*\\*PyTorch\\*\\*" in comments  # escaped: shown, never rendered
    assert "@\u200beveryone" in comments and "<@\u200b123>" in comments  # and never a mention
    assert "components" not in stats or not stats["components"]  # a published term: edited in the repository

    rows = list(csv.DictReader(io.StringIO(await export(fake, "opiniones"))))
    assert [(r["term_id"], r["term"], r["vote"]) for r in rows].count(("horovod", "Horovod", "unhelpful")) == 3
    assert [r["comment"] for r in rows if r["comment"]] == [COMMENT]  # the export keeps it as typed
    assert "voter" not in rows[0]

    iid, listing = await admin(fake, "pendientes")
    improvable = {f["name"]: f["value"] for f in listing["data"]["embeds"][0].get("fields", [])}
    assert improvable[t("es", "fb_improvable")].startswith("**Horovod**")

    # Another member: the card is the same for everyone, and the editors' views are not theirs.
    assert "PyTorch" not in str(await card(fake, user_id=5))
    for path in ("estadisticas", "exportar", "pendientes"):
        _, refused = await admin(fake, path, permissions=MEMBER_PERMISSIONS, user_id=5)
        assert "PyTorch" not in str(refused) and refused["data"]["flags"] & EPHEMERAL


async def test_a_forged_vote_or_a_flood_counts_nothing_extra(fake, bot, harness):
    data = await card(fake)
    _, up, _ = vote_buttons(data)
    for forged in ("glosario:fb:+:no-existe", "glosario:fb:-:" + "x" * 72, "glosario:fb:?:horovod"):
        # a crafted button on a crafted message (a custom_id the message does not carry is dropped by discord.py)
        crafted = message_of({**data, "components": [{"type": 1, "components": [{**up, "custom_id": forged}]}]})
        reply = (await fake.response(await fake.click(crafted, forged, user_id=1)))["data"]
        assert reply["flags"] & EPHEMERAL
        if "?" in forged:  # not the shape of a vote: no button of ours answers it, the guard does
            assert reply["content"] == t("es", "stale_interaction")
        else:  # a vote on a term this glossary does not have
            assert reply["content"] == t("es", "fb_unknown_term")

    clicks = [await fake.click(message_of(data), up["custom_id"], user_id=2) for _ in range(10)]
    answers = [(await fake.response(iid))["data"]["content"] for iid in clicks]
    assert answers.count(t("es", "fb_thanks_helpful")) == 6  # the guard's rate limit: six in 20 s
    assert all(a == t("es", "fb_thanks_helpful") or "espera" in a for a in answers)
    await harness.flushed(bot)
    assert harness.rows("SELECT term_id, vote FROM feedback") == [("horovod", "helpful")]  # one vote, one term


async def test_comments_share_the_hourly_budget_size_of_gaps(fake, bot, harness):
    from bot.app.limits import GapBudget

    bot.guard.rate = RateLimit(1000, 20)
    bot.app.feedback.budget = GapBudget(1, 3600)
    await vote(fake, await card(fake, "horovod"), "down", user_id=1, comment="uno")
    over = await vote(fake, await card(fake, "allreduce"), "down", user_id=1)
    assert over["data"]["content"] == t("es", "fb_thanks_unhelpful")  # no form offered: the vote alone counts
    await harness.flushed(bot)
    assert harness.rows("SELECT term_id, vote, comment FROM feedback ORDER BY term_id") == [
        ("allreduce", "unhelpful", None),
        ("horovod", "unhelpful", "uno"),
    ]


async def test_a_vote_through_a_members_own_install_is_personal(fake, bot, harness):
    data = await card(fake, via=DM)
    await vote(fake, data, "up", user_id=1, via=DM)
    await harness.flushed(bot)
    assert harness.rows("SELECT guild_id, vote FROM feedback") == [(0, "helpful")]


async def test_editors_edit_a_least_helpful_server_term_in_one_click(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    await submit(fake, await open_form(fake), FORM)  # "Clúster Nebula", the server's own
    data = await card(fake, "nebula")
    for member in (1, 2, 3):
        await vote(fake, data, "down", user_id=member, comment="")
    await harness.flushed(bot)
    iid, _ = await admin(fake, "estadisticas")
    stats = await fake.response(iid, 1)
    (edit,) = [c for row in stats["components"] for c in row["components"]]
    assert edit["label"] == t("es", "fb_edit", term="Clúster Nebula")
    refused = await fake.response(
        await fake.click(message_of(stats), edit["custom_id"], permissions=MEMBER_PERMISSIONS, user_id=5)
    )
    assert refused["type"] == 4 and refused["data"]["flags"] & EPHEMERAL  # editors only
    opened = await fake.response(await fake.click(message_of(stats), edit["custom_id"], permissions=MODERATOR))
    assert opened["type"] == 9 and opened["data"]["title"] == t("es", "st_modal_edit")
    prefilled = {c["label"]: c.get("value") for row in opened["data"]["components"] for c in row["components"]}
    assert prefilled["Nombre"] == FORM["Nombre"] and prefilled["Definición"] == FORM["Definición"]


def test_the_term_of_the_day_asks_too(shipped_glossary):
    from datetime import date

    from bot.core.daily import DailyEntry
    from bot.discord_app.daily import daily_card

    term = shipped_glossary.get("horovod")
    _, view = daily_card(term, DailyEntry(date(2026, 12, 3), "horovod", 0), shipped_glossary, "en-US")
    question, up, down = view.to_components()[-1]["components"]
    assert question["label"] == "Was this helpful?" and up["custom_id"] == "glosario:fb:+:horovod"
    assert down["custom_id"] == "glosario:fb:-:horovod"


def test_the_vote_buttons_render_like_their_items_and_their_ids_are_read_back(shipped_glossary):
    import re

    from bot.core.status import Vote
    from bot.discord_app.feedback import VoteButton
    from bot.discord_app.kit.buttons import render_only

    longest = max(shipped_glossary.terms, key=lambda term: len(term.id))
    for vote in Vote:
        ours = VoteButton.rendered(longest.id, vote, "es-ES")
        (row,) = render_only(
            [VoteButton(longest.id, vote, t("es", "fb_yes" if vote is Vote.HELPFUL else "fb_no"))]
        ).to_components()
        assert row["components"] == [ours] and len(ours["custom_id"]) <= 100
        match = re.fullmatch(VoteButton.__discord_ui_compiled_template__, ours["custom_id"])
        assert match is not None and match["id"] == longest.id


def test_the_weekly_digest_has_a_line_for_the_definitions_to_improve():
    from datetime import date

    from bot.app.feedback.votes import WeekOfFeedback
    from bot.app.insights.digest import Digest, Trend
    from bot.discord_app.digest import digest_embed

    digest = Digest("2026-W49", 0, [], 0, None, None, Trend([date(2026, 12, 3)], {}), WeekOfFeedback(2, 9, 1))
    fields = {f.name: f.value for f in digest_embed(digest, "es-ES").fields}
    assert fields[t("es", "fb_improvable")] == t("es", "fb_digest_value", improvable=2, votes=9, comments=1)
