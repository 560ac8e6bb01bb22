"""A form its opener submits is applied, whatever others do meanwhile (a crowd, another process holding the
database, Discord telling the bot late that the form was shown); one that truly cannot be applied says why and
gives back what was typed."""

from __future__ import annotations

import asyncio
import json

from bot.app.limits import RateLimit
from bot.discord_app.kit import forms
from bot.discord_app.kit.i18n import t
from tests.discord_app.test_forms import DEFINITION, NAME, form, open_form
from tests.discord_app.test_server_terms import MODERATOR
from tests.fake_discord.server import message_of

NEW = "glosario-admin termino nuevo"


async def submit(fake, modal, values, *, user_id, **kw) -> dict:
    """What the member reads after sending the form."""
    return await fake.answer(await fake.submit_modal(modal, values, permissions=MODERATOR, user_id=user_id, **kw))


def shows(answer: dict, *texts: str) -> bool:
    """Whether the answer carries each text whole (in its message, its embeds or a file attached to it)."""
    whole = json.dumps(answer, ensure_ascii=False) + "".join(f.decode() for f in (answer.get("_files") or {}).values())
    return all(text in whole for text in texts)


async def test_a_form_sent_before_the_bot_hears_it_was_shown_is_applied(fake, bot, harness):
    fake.late_answers = 1.0  # the member sees the form and sends it while the bot still waits for Discord's answer
    modal = await open_form(fake, NEW, user_id=10)
    saved = await submit(fake, modal, form("Clúster Fénix", "El clúster del equipo A."), user_id=10)
    assert "Clúster Fénix" in saved["content"] and saved["content"].startswith("Guardado"), saved
    assert harness.rows("SELECT term_id FROM server_terms") == [("cluster-fenix",)]


async def test_a_form_waits_for_a_database_another_process_holds(fake, bot, harness):
    modal = await open_form(fake, NEW, user_id=10)
    other_process = await harness.locked()  # longer than a reply may wait (a second), shorter than Discord's window
    sending = await fake.submit_modal(
        modal, form("Clúster Fénix", "El del equipo A."), permissions=MODERATOR, user_id=10
    )
    assert (await fake.response(sending))["type"] == 5  # "thinking…" at once: the member is not left without a word
    await asyncio.sleep(1.5)
    other_process.execute("ROLLBACK")
    other_process.close()
    saved = await fake.answer(sending)
    assert saved["content"].startswith("Guardado") and saved["flags"] & 64, saved
    assert harness.rows("SELECT term_id FROM server_terms") == [("cluster-fenix",)]


async def test_a_form_the_database_never_takes_gives_back_what_was_typed(fake, bot, harness, monkeypatch):
    monkeypatch.setattr(forms, "SAVE_WAIT", 0.5)  # (in service a minute: Discord's window is 15)
    modal = await open_form(fake, NEW, user_id=10)
    other_process = await harness.locked()
    try:
        typed = form("Clúster Fénix", "El clúster del equipo A, con 32 GPUs H100 en su sala propia.")
        answer = await submit(fake, modal, typed, user_id=10)
    finally:
        other_process.execute("ROLLBACK")
        other_process.close()
    assert answer["content"].startswith(t("es", "db_busy")) and answer["flags"] & 64, answer
    assert shows(answer, typed[NAME], typed[DEFINITION])  # nothing typed is lost
    (fix,) = [c for row in answer["components"] for c in row["components"]]
    again = await fake.response(
        await fake.click(message_of(answer), fix["custom_id"], permissions=MODERATOR, user_id=10)
    )
    values = {c["label"]: c.get("value") for row in again["data"]["components"] for c in row["components"]}
    assert values[NAME] == typed[NAME] and values[DEFINITION] == typed[DEFINITION]  # the form back, filled in
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]


async def test_a_form_closed_by_its_openers_newer_ones_gives_back_what_was_typed(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    modals = [await open_form(fake, NEW, user_id=10) for _ in range(forms.MAX_OPEN_PER_MEMBER + 1)]
    typed = form("Clúster Fénix", "El clúster del equipo A, con 32 GPUs H100 en su sala propia.")
    oldest = await submit(fake, modals[0], typed, user_id=10)
    assert oldest["content"].startswith(t("es", "form_replaced", limit=forms.MAX_OPEN_PER_MEMBER)), oldest
    assert oldest["flags"] & 64 and shows(oldest, typed[NAME], typed[DEFINITION])
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]
    newest = await submit(fake, modals[-1], typed, user_id=10)
    assert newest["content"].startswith("Guardado")


async def test_others_opening_forms_never_close_a_members_form(fake, bot, harness, monkeypatch):
    bot.guard.rate = RateLimit(1000, 20)
    monkeypatch.setattr(forms, "MAX_MEMBERS", 3)  # members with forms open at once (10,000 in service)
    mine = await open_form(fake, NEW, user_id=10)
    others = [await fake.response(await fake.command(NEW, permissions=MODERATOR, user_id=20 + n)) for n in range(4)]
    assert [o["type"] for o in others] == [9, 9, 4, 4]  # once full, a new form waits: none open is closed for it
    assert others[-1]["data"]["content"] == t("es", "forms_full") and others[-1]["data"]["flags"] & 64
    saved = await submit(fake, mine, form("Clúster Fénix", "El clúster del equipo A."), user_id=10)
    assert saved["content"].startswith("Guardado"), saved


async def test_forty_moderators_saving_while_members_ask_lose_nothing(fake, bot, harness):
    """The issue's crowd: 40 moderators of one server each create 5 terms, one form at a time, while members ask
    /termino about 8 times a second; and every moderator with a form open at once, sent together."""
    bot.guard.rate = RateLimit(10_000, 20)
    asking = asyncio.Event()

    async def members() -> None:
        n = 0
        while not asking.is_set():
            n += 1
            await fake.command("termino", {"termino": f"consulta {n % 50}"}, user_id=5000 + n % 100)
            await asyncio.sleep(0.125)

    async def moderator(m: int) -> list[dict]:
        answers = []
        for k in range(5):
            modal = await open_form(fake, NEW, user_id=100 + m)
            answers.append(
                await submit(fake, modal, form(f"Crowd M{m:02d}K{k}", f"Término {k} de {m}."), user_id=100 + m)
            )
        return answers

    traffic = asyncio.create_task(members())
    answers = [a for each in await asyncio.gather(*(moderator(m) for m in range(40))) for a in each]
    opened = [await open_form(fake, NEW, user_id=100 + m) for m in range(40)]  # all open at once, then all sent
    together = await asyncio.gather(
        *(
            submit(fake, modal, form(f"Junto M{m:02d}", f"Enviado con los demás, {m}."), user_id=100 + m)
            for m, modal in enumerate(opened)
        )
    )
    asking.set()
    await traffic
    assert sum(a["content"].startswith("Guardado") for a in answers + together) == 240, [
        a["content"] for a in answers + together if not a["content"].startswith("Guardado")
    ]
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(240,)]
