"""Forms that cannot be crossed: each opened form has its own identity, bound to who opened it, where and for
what. Many editors and members at once, in two servers, lose nothing and cross nothing."""

from __future__ import annotations

import asyncio
import json
import re

from bot.app.community.server_terms import Refused
from bot.app.limits import RateLimit
from bot.core.server_terms import TermFields
from bot.discord_app.kit.forms import MAX_OPEN_PER_MEMBER
from bot.discord_app.kit.i18n import t
from tests.discord_app.test_server_terms import FORM, MODERATOR, ask
from tests.fake_discord.server import MEMBER_PERMISSIONS, Guild, snowflake
from tests.helpers import eventually

NAME, DEFINITION = "Nombre", "Definición"


async def second_guild(harness, bot) -> Guild:
    return await harness.joined(bot, Guild(id=int(snowflake()), name="Otro equipo"))


async def open_form(fake, path, options=None, *, user_id, guild=None, permissions=MODERATOR):
    iid = await fake.command(path, options, permissions=permissions, guild=guild, user_id=user_id)
    modal = await fake.response(iid)
    assert modal["type"] == 9, modal
    return modal["data"]


async def submit(fake, modal, values, *, user_id, guild=None, permissions=MODERATOR):
    iid = await fake.submit_modal(modal, values, permissions=permissions, guild=guild, user_id=user_id)
    return await fake.answer(iid)


def form(name: str, definition: str) -> dict[str, str]:
    blank = dict.fromkeys(FORM, "")
    return {**blank, NAME: name, DEFINITION: definition, "Términos relacionados, por comas (opcional)": "Horovod"}


async def test_a_form_opened_in_one_server_never_saves_another_servers_term(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    a, b = fake.guilds[0], await second_guild(harness, bot)
    fenix = form("Clúster Fénix", "El clúster privado del equipo A, con 32 GPUs H100 en su sala propia.")
    await submit(fake, await open_form(fake, "glosario-admin termino nuevo", user_id=10, guild=a), fenix, user_id=10)
    # B's moderator opens "new", then A's moderator opens "edit" on A's private term: two forms open at once.
    new_in_b = await open_form(fake, "glosario-admin termino nuevo", user_id=20, guild=b)
    edit_in_a = await open_form(
        fake, "glosario-admin termino editar", {"termino": "cluster-fenix"}, user_id=10, guild=a
    )
    assert new_in_b["custom_id"] != edit_in_a["custom_id"]
    saved_b = await submit(
        fake,
        new_in_b,
        form("Término de B", "Un término propio del servidor B, nada que ver con A."),
        user_id=20,
        guild=b,
    )
    assert "Término de B" in saved_b["content"] and "Fénix" not in str(saved_b)
    edited_a = await submit(
        fake, edit_in_a, {**fenix, DEFINITION: "El clúster privado del equipo A, ahora con 64 GPUs H100."}, user_id=10
    )
    assert "Clúster Fénix" in edited_a["content"]
    assert harness.rows("SELECT guild_id, term_id FROM server_terms ORDER BY guild_id, term_id") == sorted(
        [(a.id, "cluster-fenix"), (b.id, "termino-de-b")]
    )
    assert "64 GPUs" in (await ask(fake, "cluster fenix", guild=a))["data"]["embeds"][0]["description"]
    assert "todavía no está" in (await ask(fake, "cluster fenix", guild=b))["data"]["content"]  # nothing leaked to B


async def test_a_form_submitted_by_someone_else_or_from_elsewhere_is_refused(fake, bot, harness):
    a, b = fake.guilds[0], await second_guild(harness, bot)
    modal = await open_form(fake, "glosario-admin termino nuevo", user_id=10, guild=a)
    values = form("Clúster Fénix", "El clúster privado del equipo A, con 32 GPUs H100 en su sala propia.")
    other_moderator = await submit(fake, modal, values, user_id=11, guild=a)
    same_member_elsewhere = await submit(fake, modal, values, user_id=10, guild=b)
    for refused in (other_moderator, same_member_elsewhere):
        assert refused["content"] == t("es", "form_not_yours") and refused["flags"] & 64
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]
    assert "Guardado" in (await submit(fake, modal, values, user_id=10, guild=a))["content"]  # still its own


async def test_terms_created_one_after_another_are_all_kept(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    modal = await open_form(fake, "glosario-admin termino nuevo", user_id=10)
    for n in range(40):  # the next form is opened while the previous one is still being saved and closed
        values = form(f"Clúster número {n}", f"El clúster número {n} del equipo, para pruebas.")
        saving = await fake.submit_modal(modal, values, permissions=MODERATOR, user_id=10)
        modal = await open_form(fake, "glosario-admin termino nuevo", user_id=10)
        assert f"número {n}" in (await fake.answer(saving))["content"]
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(40,)]


async def test_eight_editors_and_eight_members_at_once_in_two_servers(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    guilds = [fake.guilds[0], await second_guild(harness, bot)]
    opened = []  # every form opened before any is submitted: (modal, values, user, guild, moderator?)
    for g, guild in enumerate(guilds):
        for i in range(8):
            editor, member = 100 + 10 * g + i, 500 + 10 * g + i
            name = f"Término {g}-{i}"
            modal = await open_form(fake, "glosario-admin termino nuevo", user_id=editor, guild=guild)
            opened.append(
                (modal, form(name, f"Definición del editor {i} en el servidor {g}."), editor, guild, MODERATOR)
            )
            modal = await open_form(
                fake, "glosario proponer", user_id=member, guild=guild, permissions=MEMBER_PERMISSIONS
            )
            values = form(f"Propuesta {g}-{i}", f"Propuesta del miembro {i} en el servidor {g}.")
            opened.append((modal, values, member, guild, MEMBER_PERMISSIONS))
    assert len({modal["custom_id"] for modal, *_ in opened}) == 32
    answers = await asyncio.gather(*(submit(fake, m, v, user_id=u, guild=g, permissions=p) for m, v, u, g, p in opened))
    for (_, values, *_), answer in zip(opened, answers, strict=True):
        assert values[NAME] in answer["content"], answer  # each saved as what it was typed as
    await harness.flushed(bot)
    terms = harness.rows("SELECT guild_id, fields FROM server_terms")
    assert len(terms) == 16
    for guild_id, fields in terms:
        g = [guild.id for guild in guilds].index(guild_id)
        assert f"en el servidor {g}." in fields and f"Término {g}-" in fields  # in its own server, whole
    proposals = harness.rows("SELECT guild_id, user_id, fields FROM proposals WHERE status = 'pending'")
    assert len(proposals) == 16
    for guild_id, user_id, fields in proposals:
        g, i = (
            [guild.id for guild in guilds].index(guild_id),
            user_id - 500 - 10 * [guild.id for guild in guilds].index(guild_id),
        )
        assert f"Propuesta {g}-{i}" in fields


async def test_a_member_keeps_only_a_few_forms_open(fake, bot):
    bot.guard.rate = RateLimit(1000, 20)
    modals = [await open_form(fake, "glosario-admin termino nuevo", user_id=10) for _ in range(10)]
    assert bot.forms.count(fake.guilds[0].id, 10) == MAX_OPEN_PER_MEMBER
    oldest = await submit(fake, modals[0], form("Viejo", "Un formulario olvidado hace rato."), user_id=10)
    assert oldest["content"] == t("es", "form_replaced", limit=MAX_OPEN_PER_MEMBER)  # closed: nothing saved
    newest = await submit(fake, modals[-1], form("Nuevo", "El formulario abierto en último lugar."), user_id=10)
    assert "Nuevo" in newest["content"]


async def test_one_form_sent_twenty_times_at_once_counts_once(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    modal = await open_form(fake, "glosario proponer", user_id=55, permissions=MEMBER_PERMISSIONS)
    values = form("Propuesta repetida", "Una propuesta enviada veinte veces a la vez por el mismo miembro.")
    sends = [await fake.submit_modal(modal, values, permissions=MEMBER_PERMISSIONS, user_id=55) for _ in range(20)]
    answers = [(await fake.answer(iid))["content"] for iid in sends]
    assert sum("Propuesta repetida" in a for a in answers) == 1, answers
    # The repeats are refused while the first is saved, or once it is: none counts.
    assert all(a == t("es", "form_sent") for a in answers if "Propuesta" not in a)
    assert harness.rows("SELECT COUNT(*) FROM proposals") == [(1,)]


async def test_proposals_from_many_forms_at_once_stop_at_the_limit(fake, bot, harness):
    from bot.app.community.proposals import MAX_PENDING_PER_MEMBER

    bot.guard.rate = RateLimit(1000, 20)
    modals = [await open_form(fake, "glosario proponer", user_id=56, permissions=MEMBER_PERMISSIONS) for _ in range(3)]
    for n in range(MAX_PENDING_PER_MEMBER - 1):  # one short of the limit, then three at once
        await submit(
            fake,
            await open_form(fake, "glosario proponer", user_id=57, permissions=MEMBER_PERMISSIONS),
            form(f"P{n}", f"Propuesta número {n} del miembro."),
            user_id=57,
            permissions=MEMBER_PERMISSIONS,
        )
    modals = [await open_form(fake, "glosario proponer", user_id=57, permissions=MEMBER_PERMISSIONS) for _ in range(3)]
    answers = await asyncio.gather(
        *(
            submit(fake, m, form(f"Q{n}", f"Otra propuesta, la {n}."), user_id=57, permissions=MEMBER_PERMISSIONS)
            for n, m in enumerate(modals)
        )
    )
    assert sum("ya tienes" in a["content"] for a in answers) == 2
    assert harness.rows("SELECT COUNT(*) FROM proposals WHERE user_id = 57") == [(MAX_PENDING_PER_MEMBER,)]


async def test_the_largest_card_a_form_accepts_is_sent_whole_with_its_attribution(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    guild = fake.guilds[0].id
    editor = 810_000_000_000_000_000  # a long id: the longest mention

    def fields(length: int) -> TermFields:
        aliases = ", ".join(f"alias número {n:03d} del clúster" for n in range(40))[:1000].rstrip(", ")
        related = ", ".join(t.term for t in bot.app.catalog.glossary.terms)  # every published term
        return TermFields("C" + "l" * 255, "d" * length, "E" * 256, aliases, related)

    low, high = 1, 4000  # the longest definition the form accepts with every other field near its limit
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (
            (middle, high)
            if not isinstance(await bot.app.server_terms.check(guild, fields(middle)), Refused)
            else (low, middle - 1)
        )
    assert low < 4000  # the card's total is what limits it, not the field
    refused = await bot.app.server_terms.check(guild, fields(low + 1))
    assert "Discord admite 6000" in refused.problems[0].message
    typed = fields(low)
    values = {
        NAME: typed.term,
        DEFINITION: typed.definition,
        "Nombre en inglés (opcional)": typed.en,
        "Alias, separados por comas (opcional)": typed.aliases,
        "Términos relacionados, por comas (opcional)": typed.related,
    }
    saved = await submit(
        fake, await open_form(fake, "glosario-admin termino nuevo", user_id=editor), values, user_id=editor
    )
    (embed,) = saved["embeds"]
    size = sum(len(embed.get(k) or "") for k in ("title", "description")) + len(embed["footer"]["text"])
    size += sum(len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert size <= 6000
    assert embed["description"] == typed.definition and not any(f["value"].endswith("…") for f in embed["fields"])
    assert embed["fields"][-1]["value"].startswith(f"añadido por <@{editor}> el <t:")  # whole, never cut


async def test_member_written_text_never_hides_a_link_target(fake, bot, harness):
    bot.guard.rate = RateLimit(1000, 20)
    masked = "Ver [docs oficiales](https://evil.example/login) y \\[otra](https://evil.example/2)."
    values = form("Clúster Fénix", f"El clúster del equipo. {masked}")
    await submit(fake, await open_form(fake, "glosario-admin termino nuevo", user_id=10), values, user_id=10)
    card = (await ask(fake, "cluster fenix"))["data"]["embeds"][0]
    assert not re.search(r"(?<!\\)(?:\\\\)*\[[^\]]*(?<!\\)\]\(", card["description"])  # no masked link can form
    assert "https://evil.example/login" in card["description"]  # the target is shown for what it is
    row = json.loads(harness.rows("SELECT fields FROM server_terms")[0][0])
    assert masked in row["definition"]  # stored as typed: editing shows what was written


async def test_a_stop_waits_for_a_form_being_saved(fake, harness):
    bot = await harness.start()
    modal = await open_form(fake, "glosario-admin termino nuevo", user_id=10)
    lock = await harness.locked()  # the save waits for the database while the stop comes
    values = form("Clúster Fénix", "El clúster del equipo A.")
    saving = await fake.submit_modal(modal, values, permissions=MODERATOR, user_id=10)
    await eventually(lambda: bot.guard.in_flight() >= 1)
    stopping = asyncio.create_task(bot.shutdown(grace=5))
    await eventually(lambda: bot.guard.closing)
    lock.rollback()
    lock.close()
    await asyncio.wait_for(stopping, 10)
    reply = await fake.answer(saving, timeout=1)
    assert "Clúster Fénix" in reply["content"] and bot.is_closed()
    assert harness.rows("SELECT term_id FROM server_terms") == [("cluster-fenix",)]


async def test_a_name_another_server_term_has_points_to_editing_it(fake, bot):
    bot.guard.rate = RateLimit(1000, 20)
    await submit(fake, await open_form(fake, "glosario-admin termino nuevo", user_id=10), FORM, user_id=10)
    again = await submit(fake, await open_form(fake, "glosario-admin termino nuevo", user_id=10), FORM, user_id=10)
    assert t("es", "st_taken_server") in again["content"]  # the server's own term: edit it instead
    published = await submit(
        fake,
        await open_form(fake, "glosario-admin termino nuevo", user_id=10),
        form("Horovod", "Otra definición de Horovod."),
        user_id=10,
    )
    assert "ya es un nombre o alias" in published["content"] and t("es", "st_taken_server") not in published["content"]
