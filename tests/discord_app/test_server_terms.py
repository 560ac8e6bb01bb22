"""A server's own terms through the fake Discord: the form, what /termino answers, gaps, history, isolation."""

from __future__ import annotations

import re

from bot.app.community.server_terms import Saved
from bot.app.limits import RateLimit
from bot.core.normalize import normalize, slug
from bot.core.server_terms import TermFields
from tests.fake_discord.server import COMMANDS_ONLY, MANAGE_MESSAGES, MEMBER_PERMISSIONS, Guild, message_of, snowflake
from tests.helpers import eventually

MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
FORM = {
    "Nombre": "Clúster Nebula",
    "Definición": "El clúster de GPUs del equipo, con 64 A100, donde se lanzan los entrenamientos distribuidos.",
    "Nombre en inglés (opcional)": "Nebula cluster",
    "Alias, separados por comas (opcional)": "nebula",
    "Términos relacionados, por comas (opcional)": "Horovod",
}


async def ask(fake, query, guild=None, user_id=1):
    return await fake.response(await fake.command("termino", {"termino": query}, guild=guild, user_id=user_id))


async def open_form(fake, path="termino nuevo", options=None, permissions=MODERATOR, guild=None):
    iid = await fake.command(f"glosario-admin {path}", options, permissions=permissions, guild=guild, user_id=900)
    return await fake.response(iid)


async def submit(fake, modal, values, permissions=MODERATOR, guild=None, user_id=900):
    """What the member reads after sending the form (the follow-up that replaces its "thinking…")."""
    iid = await fake.submit_modal(modal["data"], values, permissions=permissions, guild=guild, user_id=user_id)
    return await fake.answer(iid)


async def test_define_answers_in_that_server_only_and_resolves_the_gap(fake, bot, harness):
    other = await harness.joined(bot, Guild(id=int(snowflake()), name="Otro equipo"))
    before = await ask(fake, "nebula")
    assert "todavía no está en el glosario" in before["data"]["content"]  # a gap now
    await harness.flushed(bot)
    modal = await open_form(fake)
    assert modal["type"] == 9 and len(modal["data"]["components"]) == 5
    saved = await submit(fake, modal, FORM)
    assert saved["flags"] & 64 and "resuelve 1 consulta(s)" in saved["content"]
    card = (await ask(fake, "nebula"))["data"]
    (embed,) = card["embeds"]
    assert embed["title"] == "Clúster Nebula" and embed["fields"][-1]["name"] == "Término de este servidor"
    assert "<@900>" in embed["fields"][-1]["value"]  # who added it (an embed never pings)
    assert card["components"][0]["components"][0]["custom_id"] == "glosario:term:horovod"  # related: published
    assert harness.rows("SELECT status, resolved_term FROM misses WHERE sample = 'nebula'") == [
        ("resolved", "cluster-nebula")
    ]
    elsewhere = await ask(fake, "nebula", guild=other)
    assert "todavía no está en el glosario" in elsewhere["data"]["content"]
    choices = await fake.response(await fake.autocomplete("termino", "termino", "nebu"))
    assert choices["data"]["choices"][0]["value"] == "cluster-nebula"


async def test_an_english_editor_fills_the_form_in_english_and_reads_english_replies(fake, bot):
    iid = await fake.command("glosario-admin termino nuevo", permissions=MODERATOR, user_id=900, locale="en-US")
    modal = (await fake.response(iid))["data"]
    labels = [c["label"] for row in modal["components"] for c in row["components"]]
    assert modal["title"] == "New server term" and labels[:2] == ["Name", "Definition"]
    values = {"Name": "Nebula cluster", "Definition": "The team's GPU cluster, where distributed training runs."}
    sent = await fake.submit_modal(modal, values, permissions=MODERATOR, user_id=900, locale="en-US")
    saved = await fake.answer(sent)
    assert saved["content"].startswith("Saved: **Nebula cluster** now answers `/term`")
    iid = await fake.submit_modal(modal, values, permissions=MODERATOR, user_id=900, locale="en-US")  # once more
    assert "already sent" in (await fake.answer(iid))["content"]


async def test_a_refused_form_keeps_what_was_typed_and_only_its_author_gets_it_back(fake, bot):
    modal = await open_form(fake)
    refused = await submit(fake, modal, {**FORM, "Nombre": "Horovod"})  # a published term's name
    data = refused
    assert "No he guardado el término" in data["content"] and "«Horovod» ya es un nombre o alias" in data["content"]
    assert data["embeds"][0]["description"] == FORM["Definición"]  # nothing typed is lost
    (fix,) = [c for row in data["components"] for c in row["components"]]
    stranger = await fake.response(
        await fake.click(message_of(data), fix["custom_id"], permissions=MODERATOR, user_id=901)
    )
    assert "No tengo nada tuyo pendiente" in stranger["data"]["content"]
    again = await fake.response(
        await fake.click(message_of(data), fix["custom_id"], permissions=MODERATOR, user_id=900)
    )
    assert again["type"] == 9
    values = {c["label"]: c.get("value") for row in again["data"]["components"] for c in row["components"]}
    assert values["Nombre"] == "Horovod" and values["Definición"] == FORM["Definición"]


async def test_edit_history_and_retire(fake, bot):
    await submit(fake, await open_form(fake), FORM)
    modal = await open_form(fake, "termino editar", {"termino": "cluster-nebula"})
    assert modal["type"] == 9
    await submit(fake, modal, {**FORM, "Definición": "El clúster de GPUs del equipo, ahora con 128 A100."})
    assert "128 A100" in (await ask(fake, "nebula"))["data"]["embeds"][0]["description"]
    retired = await open_form(fake, "termino retirar", {"termino": "cluster-nebula"})
    assert "Retirado" in retired["data"]["content"]
    assert "todavía no está en el glosario" in (await ask(fake, "nebula"))["data"]["content"]
    history = (await open_form(fake, "termino historial", {"termino": "cluster-nebula"}))["data"]["embeds"][0]
    assert [line.split(" · ")[1] for line in history["description"].splitlines() if line.startswith("**v")] == [
        "retirado por <@900>",
        "editado por <@900>",
        "creado por <@900>",
    ]


async def test_members_cannot_define_even_with_a_forged_form(fake, bot, harness):
    refused = await open_form(fake, permissions=MEMBER_PERMISSIONS)
    assert "es para moderadores" in refused["data"]["content"]
    modal = await open_form(fake)  # a moderator's form, submitted by a member
    forged = await submit(fake, modal, FORM, permissions=MEMBER_PERMISSIONS, user_id=900)
    assert "es para moderadores" in forged["content"]
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]


async def test_a_restart_keeps_the_servers_terms(fake, harness):
    bot = await harness.start()
    await submit(fake, await open_form(fake), FORM)
    await harness.stop(bot)
    await harness.start()
    assert (await ask(fake, "nebula"))["data"]["embeds"][0]["title"] == "Clúster Nebula"


async def test_define_a_gap_from_the_pending_list(fake, bot, harness):
    for query, user in (("Nebula", 1), ("nebula", 2), ("nebula", 3)):  # asked most often as "nebula"
        await ask(fake, query, user_id=user)
    await harness.flushed(bot)
    listing = (await fake.response(await fake.command("glosario-admin pendientes", permissions=MODERATOR)))["data"]
    define = [c for row in listing["components"] for c in row["components"]][-1]
    assert define["placeholder"] == "Definir como término del servidor…"
    modal = await fake.response(
        await fake.click(
            message_of(listing),
            define["custom_id"],
            permissions=MODERATOR,
            values=[define["options"][0]["value"]],
            user_id=900,
        )
    )
    assert modal["type"] == 9
    prefilled = {c["label"]: c.get("value") for row in modal["data"]["components"] for c in row["components"]}
    assert prefilled["Nombre"] == "nebula"
    saved = await submit(fake, modal, {**FORM, "Nombre": "nebula", "Alias, separados por comas (opcional)": ""})
    assert "resuelve 1 consulta(s)" in saved["content"]


async def test_definir_resolves_that_gap_even_when_the_term_is_named_otherwise(fake, bot, harness):
    """The moderator renames the term in the form (the gap was asked as "cluster gpu del equipo"): the gap defined
    is resolved by its id, naming the term saved, although the new term does not answer its spelling."""
    await ask(fake, "cluster gpu del equipo")
    await harness.flushed(bot)
    listing = (await fake.response(await fake.command("glosario-admin pendientes", permissions=MODERATOR)))["data"]
    define = [c for row in listing["components"] for c in row["components"]][-1]
    gap_id = define["options"][0]["value"]
    modal = await fake.response(
        await fake.click(message_of(listing), define["custom_id"], permissions=MODERATOR, values=[gap_id], user_id=900)
    )
    saved = await submit(fake, modal, FORM)  # named "Clúster Nebula"
    assert saved["embeds"][0]["title"] == "Clúster Nebula"
    sql = f"SELECT status, resolved_term FROM misses WHERE id = {int(gap_id)}"
    await eventually(lambda: harness.rows(sql) == [("resolved", "cluster-nebula")])  # (after the answer)


async def test_a_form_with_an_invisible_character_is_refused_and_what_was_typed_is_kept(fake, bot, harness):
    typed = {**FORM, "Definición": "El clúster de GPUs\u200b del equipo."}
    refused = await submit(fake, await open_form(fake), typed)
    assert "carácter invisible" in refused["content"]
    assert refused["embeds"][0]["description"] == typed["Definición"]  # kept, invisible character and all
    assert refused["embeds"][0]["fields"][0]["value"] == "Clúster Nebula"
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]


async def test_the_servers_terms_are_searched_listed_and_explained_there(fake, bot):
    await submit(fake, await open_form(fake), FORM)
    found = (await fake.response(await fake.command("glosario buscar", {"texto": "clúster GPUs"})))["data"]
    assert "Clúster Nebula" in found["embeds"][0]["description"]
    listed = await fake.response(await fake.command("glosario lista", {"categoria": "Términos del servidor"}))
    assert "Clúster Nebula" in listed["data"]["embeds"][0]["description"]
    explained = await fake.response(
        await fake.message_command("Explicar términos", "¿Lanzo el job en nebula con Horovod?")
    )
    description = explained["data"]["embeds"][0]["description"]
    assert "Horovod" in description and "Clúster Nebula" in description


FORM_LABELS = {
    "aliases": "Alias, separados por comas (opcional)",
    "related": "Términos relacionados, por comas (opcional)",
}
MASKED_LINK = re.compile(r"(?<!\\)(?:\\\\)*\[[^\]]*(?<!\\)\]\(")  # a masked link that would form


async def test_a_servers_term_name_is_shown_as_typed_never_as_a_link_or_a_mention(fake, bot):
    bot.guard.rate = RateLimit(1000, 20)
    linked, pinging = "[Nebula](https://evil.example/login)", "Fénix <@&42> **ya**"
    blank, aliases, related = dict.fromkeys(FORM, ""), FORM_LABELS["aliases"], FORM_LABELS["related"]
    first = {**blank, "Nombre": linked, "Definición": "Un clúster de GPUs.", aliases: "nebula"}
    second = {**blank, "Nombre": pinging, "Definición": "Otro clúster de GPUs.", aliases: "fenix", related: linked}
    for values in (first, second):
        await submit(fake, await open_form(fake), values)
    found = (await fake.response(await fake.command("glosario buscar", {"texto": "clúster GPUs"})))["data"]
    listed = (await fake.response(await fake.command("glosario lista", {"categoria": "Términos del servidor"})))["data"]
    explained = (await fake.response(await fake.message_command("Explicar términos", "¿Nebula o Fénix?")))["data"]
    card = (await ask(fake, "fenix"))["data"]["embeds"][0]
    shown = [reply["embeds"][0]["description"] for reply in (found, listed, explained)]
    shown.append(next(f["value"] for f in card["fields"] if f["name"] == "Ver también"))
    for text in shown:
        assert "https://evil.example/login" in text and not MASKED_LINK.search(text)  # its target, for what it is
    for text in shown[:3]:
        assert "Fénix" in text and "<@&42>" not in text and "**ya**" not in text  # no mention, no markdown


async def test_a_published_term_with_the_same_name_wins_and_moderators_are_told(fake, harness, tmp_path):
    import shutil

    from tests.conftest import SHIPPED

    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    bot = await harness.start(data_dir=data)
    await submit(fake, await open_form(fake), FORM)
    (data / "extra.yaml").write_text(
        "category: Infraestructura\nterms:\n  - term: Clúster Nebula\n    definition: El clúster publicado.\n"
    )
    iid = await fake.command("glosario-admin recargar", permissions=MODERATOR)
    await fake.response(iid, 1)
    card = (await ask(fake, "clúster nebula"))["data"]["embeds"][0]
    assert card["description"] == "El clúster publicado." and card["fields"][-1]["name"] != "Término de este servidor"
    stats = await fake.response(await fake.command("glosario-admin estadisticas", permissions=MODERATOR), 1)
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    assert (
        fields["Términos del servidor que ahora sustituye el glosario publicado (ya no responden)"]
        == "«Clúster Nebula»"
    )
    del bot


async def test_a_stored_term_that_no_longer_passes_is_not_served_and_moderators_are_told(fake, bot, harness):
    stale = {"term": "Zorro\x9b31m", "definition": "Un zorro."}  # (stored before a rule refused it)
    guild = fake.guilds[0].id
    await bot.app.stores.server_terms.save(guild, "zorro", stale, 1, "2026-12-02T10:00:00", previous_id=None)
    await submit(fake, await open_form(fake), FORM)  # (a valid one beside it still answers)
    assert (await ask(fake, "clúster nebula"))["data"]["embeds"][0]["title"] == "Clúster Nebula"
    not_served = (await ask(fake, "zorro"))["data"]
    assert not any("Zorro" in embed.get("title", "") for embed in not_served.get("embeds", []))
    stats = await fake.response(await fake.command("glosario-admin estadisticas", permissions=MODERATOR), 1)
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    name = "Términos del servidor que ya no pasan las comprobaciones (no responden: corrígelos o retíralos)"
    assert fields[name] == "«Zorro\x9b31m»"


async def test_exported_server_terms_are_a_term_file_validate_accepts(
    fake, bot, harness, tmp_path, monkeypatch, capsys
):
    import shutil

    from bot.cli import main
    from tests.conftest import SHIPPED

    await submit(fake, await open_form(fake), FORM)
    second = {
        **FORM,
        "Nombre": "Cola Aurora",
        "Nombre en inglés (opcional)": "",
        "Alias, separados por comas (opcional)": "",
    }
    await submit(
        fake, await open_form(fake), {**second, "Términos relacionados, por comas (opcional)": "nebula, AllReduce"}
    )
    iid = await fake.command("glosario-admin exportar", {"formato": "terminos"}, permissions=MODERATOR, user_id=900)
    sent = await fake.response(iid, 1)
    assert "Los 2 término(s) de este servidor" in sent["content"]
    (data,) = sent["_files"].values()
    text = data.decode()
    assert "related:\n  - Clúster Nebula\n  - AllReduce" in text  # by their names
    folder = tmp_path / "glossary"
    shutil.copytree(SHIPPED, folder)
    (folder / "servidor.yaml").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 0  # a pull request away from every server
    assert "19 términos en 2 categorías" in capsys.readouterr().out
    monkeypatch.setenv("GLOSARIO_DB", str(harness.db_path))
    import asyncio

    assert await asyncio.to_thread(main, ["server-terms", "--guild", str(fake.guilds[0].id)]) == 0
    out, err = capsys.readouterr()
    assert out == text and "2 términos del servidor" in err


async def test_accepting_an_alias_proposal_answers_at_once_and_forged_ones_do_nothing(fake, bot, harness):
    from bot.app.limits import RateLimit

    bot.guard.rate = RateLimit(1000, 20)
    unsure = (await ask(fake, "paralelismo de modelos", user_id=61))["data"]
    pick = unsure["components"][0]["components"][0]["custom_id"]
    await fake.response(await fake.click(message_of(unsure), pick, user_id=61))
    await harness.flushed(bot)
    listing = (await fake.response(await fake.command("glosario-admin pendientes", permissions=MODERATOR)))["data"]
    accept = [c for row in listing["components"] for c in row["components"]][-1]
    assert accept["placeholder"] == "Aceptar una propuesta de alias…"
    (option,) = accept["options"]
    forged = option["value"].replace(option["value"][:8], "deadbeef")
    for value, permissions in ((option["value"], MEMBER_PERMISSIONS), (forged, MODERATOR)):
        refused = await fake.response(
            await fake.click(message_of(listing), accept["custom_id"], permissions=permissions, values=[value])
        )
        assert "es para moderadores" in str(refused["data"]) or "ya no está" in refused["data"]["content"]
    still = (await ask(fake, "paralelismo de modelos"))["data"]
    assert "Quisiste decir" in still["content"]  # nothing forged changed the answer
    await harness.flushed(bot)  # (that question is logged before the alias exists, as a member would ask it)
    assert harness.rows("SELECT COUNT(*) FROM server_aliases") == [(0,)]
    done = await fake.response(
        await fake.click(message_of(listing), accept["custom_id"], permissions=MODERATOR, values=[option["value"]])
    )
    assert "«paralelismo de modelos» ya responde con **Paralelismo de Datos**" in done["data"]["content"]
    card = (await ask(fake, "Paralelismo de modelos"))["data"]
    assert card["embeds"][0]["title"] == "Paralelismo de Datos"  # in this server, as its editors decided
    assert harness.rows("SELECT status, resolved_term FROM misses WHERE sample = 'paralelismo de modelos'") == [
        ("resolved", "paralelismo-de-datos")
    ]
    assert harness.rows("SELECT COUNT(*) FROM picks") == [(0,)]  # settled: off the proposals


async def propose(fake, values, user_id=555, termino=None):
    iid = await fake.command("glosario proponer", {"termino": termino} if termino else None, user_id=user_id)
    modal = await fake.response(iid)
    assert modal["type"] == 9, modal
    return await submit(fake, modal, values, permissions=MEMBER_PERMISSIONS, user_id=user_id)


async def proposals_list(fake, permissions=MODERATOR, options=None):
    iid = await fake.command("glosario-admin propuestas", options, permissions=permissions, user_id=900)
    return (await fake.response(iid))["data"]


async def test_a_member_proposes_an_editor_publishes_it_edited_and_the_member_is_told(fake, bot, harness):
    thanks = await propose(fake, FORM, termino="Clúster Nebula")
    assert "espera a los editores" in thanks["content"]
    assert "todavía no está en el glosario" in (await ask(fake, "nebula"))["data"]["content"]  # not an answer yet
    listing = await proposals_list(fake)
    assert "«Clúster Nebula» — propuesta por <@555>" in listing["embeds"][0]["description"]
    publish, _reject = [c for row in listing["components"] for c in row["components"]]
    forged = await fake.response(
        await fake.click(message_of(listing), publish["custom_id"], permissions=MEMBER_PERMISSIONS, values=["1"])
    )
    assert "es para moderadores" in forged["data"]["content"]
    modal = await fake.response(
        await fake.click(message_of(listing), publish["custom_id"], permissions=MODERATOR, user_id=900, values=["1"])
    )
    prefilled = {c["label"]: c.get("value") for row in modal["data"]["components"] for c in row["components"]}
    assert prefilled["Nombre"] == "Clúster Nebula"
    saved = await submit(fake, modal, {**FORM, "Definición": "El clúster de GPUs del equipo (revisado)."})
    assert "Guardado" in saved["content"]
    assert "(revisado)" in (await ask(fake, "nebula"))["data"]["embeds"][0]["description"]

    def dms() -> list[list[dict]]:
        return [messages for channel, messages in fake.channel_messages.items() if fake.dm_channels.get(channel) == 555]

    await eventually(lambda: len(dms()) == 1)  # sent right after the editor's reply
    (dm,) = dms()
    assert "se ha publicado" in dm[0]["content"] and "Clúster Nebula" in dm[0]["content"]
    await eventually(lambda: harness.rows("SELECT status, notified FROM proposals") == [("published", 1)])


async def test_an_editor_publishing_a_proposal_another_rejected_meanwhile_gets_what_they_typed_back(fake, bot, harness):
    await propose(fake, FORM, termino="Clúster Nebula")
    listing = await proposals_list(fake)
    publish, reject = [c for row in listing["components"] for c in row["components"]]
    publishing = await fake.response(
        await fake.click(message_of(listing), publish["custom_id"], permissions=MODERATOR, user_id=900, values=["1"])
    )
    rejecting = await fake.response(
        await fake.click(message_of(listing), reject["custom_id"], permissions=MODERATOR, user_id=901, values=["1"])
    )
    reason = {"Motivo (se lo diré a quien la propuso)": "Duplicada."}
    assert "rechazada" in (await submit(fake, rejecting, reason, user_id=901))["content"]
    late = await submit(fake, publishing, {**FORM, "Definición": "Reescrita con cuidado por el editor."})
    assert "ya no está pendiente" in late["content"]
    (typed,) = late["embeds"]  # what the editor wrote is not lost (was the sentence alone)
    assert typed["title"] == "Lo que escribiste"
    assert any(f["value"] == "Reescrita con cuidado por el editor." for f in typed["fields"])
    assert harness.rows("SELECT status FROM proposals") == [("rejected",)]
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]


async def test_a_rejected_proposal_is_told_on_the_members_next_command_when_dms_are_closed(fake, bot, harness):
    fake.dms_closed.add(556)
    await propose(fake, FORM, user_id=556)
    listing = await proposals_list(fake)
    _, reject = [c for row in listing["components"] for c in row["components"]]
    modal = await fake.response(
        await fake.click(message_of(listing), reject["custom_id"], permissions=MODERATOR, user_id=900, values=["1"])
    )
    done = await submit(fake, modal, {"Motivo (se lo diré a quien la propuso)": "Ya existe como «Horovod»."})
    assert "rechazada" in done["content"]
    assert harness.rows("SELECT status, reason, notified FROM proposals") == [
        ("rejected", "Ya existe como «Horovod».", 0)
    ]
    iid = await fake.command("termino", {"termino": "horovod"}, user_id=556)
    reply, told = await fake.response(iid), await fake.response(iid, 1)
    assert reply["data"]["embeds"][0]["title"] == "Horovod"  # the answer first
    assert told["flags"] & 64 and "no se ha publicado" in told["content"] and "Ya existe" in told["content"]
    await eventually(lambda: harness.rows("SELECT notified FROM proposals") == [(1,)])


async def test_a_server_can_turn_proposals_off(fake, bot):
    from tests.fake_discord.server import MANAGE_GUILD

    refused = await proposals_list(fake, options={"permitir": False})  # Manage Messages is not enough
    assert "Gestionar servidor" in str(refused) or "servidor" in refused["content"]
    admin = str(int(MODERATOR) | MANAGE_GUILD)
    off = await proposals_list(fake, permissions=admin, options={"permitir": False})
    assert "ya no pueden proponer" in off["content"]
    iid = await fake.command("glosario proponer", user_id=557)
    assert "no acepta propuestas" in (await fake.response(iid))["data"]["content"]


async def test_a_name_that_leads_to_a_term_is_offered_as_its_alias(fake, bot, harness):
    modal = await open_form(fake)
    refused = await submit(fake, modal, {**FORM, "Nombre": "Parámetros de Servidor"})
    _fix, alias = [c for row in refused["components"] for c in row["components"]]
    assert alias["label"] == "Añadir «Parámetros de Servidor» como alias de «Servidor de Parámetros»"
    stranger = await fake.response(
        await fake.click(message_of(refused), alias["custom_id"], permissions=MODERATOR, user_id=901)
    )
    assert "No tengo nada tuyo" in stranger["data"]["content"]  # only its author's draft
    done = await fake.response(
        await fake.click(message_of(refused), alias["custom_id"], permissions=MODERATOR, user_id=900)
    )
    assert "«Parámetros de Servidor» ya responde con **Servidor de Parámetros**" in done["data"]["content"]
    assert harness.rows("SELECT spelling, term_id FROM server_aliases") == [
        ("Parámetros de Servidor", "servidor-de-parametros")
    ]


async def test_a_servers_own_terms_export_to_the_standards_naming_published_related_terms(
    fake, bot, harness, monkeypatch, capsys
):
    import asyncio

    from bot.app.interchange import formats as interchange
    from bot.cli import main

    await submit(fake, await open_form(fake), FORM)
    monkeypatch.setenv("GLOSARIO_DB", str(harness.db_path))
    capsys.readouterr()
    guild = str(fake.guilds[0].id)
    assert await asyncio.to_thread(main, ["export", "--guild", guild, "--format", "tbx"]) == 0
    out, err = capsys.readouterr()
    imported = interchange.read(out, "tbx")
    (entry,) = imported.entries  # its own terms only
    assert entry.term == "Clúster Nebula" and entry.related == ["Horovod"]  # a published term, by name
    assert "1 término del servidor" in err


async def test_the_term_autocomplete_of_the_editors_commands_offers_names_to_editors_only(fake, bot, harness):
    """Autocomplete reaches no check of the command's (discord.py calls it without `interaction_check`): the names
    of a server's terms, retired ones too, are offered to its editors in a server the bot serves, to nobody else."""
    await submit(fake, await open_form(fake), FORM)
    await open_form(fake, "termino retirar", {"termino": "cluster-nebula"})

    async def offered(path: str, **kw) -> list[str]:
        iid = await fake.autocomplete(f"glosario-admin termino {path}", "termino", "nebu", **kw)
        return [choice["value"] for choice in (await fake.response(iid))["data"]["choices"]]

    assert await offered("historial", permissions=MODERATOR) == ["cluster-nebula"]
    assert await offered("historial") == []  # a member: not even the retired term's name
    left = Guild(id=int(snowflake()), name="Sin el bot")  # terms kept (the bot left it), its commands still there
    fields = TermFields("Nebula vieja", "El clúster de GPUs que el equipo tenía antes del actual, ya apagado.")
    assert isinstance(await bot.app.server_terms.save(left.id, 900, fields), Saved)
    assert await offered("historial", permissions=MODERATOR, guild=left, via=COMMANDS_ONLY) == []
    second = {**FORM, "Nombre": "Nebula dos", "Alias, separados por comas (opcional)": ""}
    await submit(fake, await open_form(fake), second)
    assert await offered("editar", permissions=MODERATOR) == ["nebula-dos"]
    assert await offered("editar") == [] and await offered("retirar") == []


async def test_the_editors_term_autocomplete_reads_the_servers_terms_once_and_then_answers_from_memory(fake, bot):
    """Autocomplete comes at every keystroke: the server's terms are read at the first one and kept (those in service
    in its overlay, the retired ones beside it); the next keystrokes touch no database and offer what the store
    would, until a term is saved or retired, which the next keystroke shows."""
    guild, terms = fake.guilds[0].id, bot.app.server_terms
    alone = {"Nombre en inglés (opcional)": "", "Alias, separados por comas (opcional)": ""}  # (no spelling of FORM's)
    await submit(fake, await open_form(fake), FORM)
    await submit(fake, await open_form(fake), {**FORM, **alone, "Nombre": "Nebula dos"})
    long_name = "Nébula de pruebas " + "con un nombre muy largo " * 6  # (a choice's name: 100 characters at most)
    fields = TermFields(long_name.strip(), "El clúster de pruebas del equipo, con un nombre más largo que una opción.")
    assert isinstance(await terms.save(guild, 900, fields), Saved)
    await open_form(fake, "termino retirar", {"termino": "cluster-nebula"})  # (every cached name of it dropped)

    async def store_offers(query: str, *, retired: bool) -> list[dict]:
        """What the store's rows give (the way autocomplete read them at every keystroke before)."""
        rows = await terms.store.terms(guild, retired=retired)
        named = [(r.term_id, r.fields["term"]) for r in rows if normalize(query) in normalize(r.fields["term"])]
        return [{"name": name[:100], "value": term_id} for term_id, name in named][:25]

    async def offered(path: str, query: str) -> list[dict]:
        iid = await fake.autocomplete(f"glosario-admin termino {path}", "termino", query, permissions=MODERATOR)
        return (await fake.response(iid))["data"]["choices"]

    every, in_service = await store_offers("nebu", retired=True), await store_offers("nebu", retired=False)
    assert {c["value"] for c in every} == {"cluster-nebula", "nebula-dos", slug(long_name)}  # (in the store's order)
    assert {c["value"] for c in in_service} == {"nebula-dos", slug(long_name)}
    assert max(len(c["name"]) for c in every) == 100
    reads: list[str] = []
    await terms.store.db.reader.set_trace_callback(lambda sql: reads.append(sql) if "server_terms" in sql else None)
    assert await offered("historial", "nebu") == every
    assert reads  # the first keystroke read them
    reads.clear()
    assert await offered("historial", "NÉBU") == every  # accents and case folded, as ever
    assert [c["value"] for c in await offered("historial", "nebula do")] == ["nebula-dos"]
    assert await offered("editar", "nebu") == in_service and await offered("retirar", "") == in_service
    assert reads == []  # the next keystrokes: from memory

    await submit(fake, await open_form(fake), {**FORM, **alone, "Nombre": "Nebula tres"})
    assert await offered("editar", "nebu") == await store_offers("nebu", retired=False)
    assert "nebula-tres" in [c["value"] for c in await offered("editar", "nebu")]  # saved: offered at once
    await open_form(fake, "termino retirar", {"termino": "nebula-dos"})
    assert {c["value"] for c in await offered("retirar", "nebu")} == {slug(long_name), "nebula-tres"}
    assert await offered("historial", "nebu") == await store_offers("nebu", retired=True)  # the newly retired one too
    assert [c["value"] for c in await offered("historial", "nebula do")] == ["nebula-dos"]
    reads.clear()
    assert [c["value"] for c in await offered("historial", "nebula t")] == ["nebula-tres"]
    assert reads == []
    await terms.store.db.reader.set_trace_callback(None)


async def test_a_stored_term_whose_fields_cannot_be_read_costs_only_itself(fake, bot, harness, caplog):
    """Rows this version never writes (an older version's, a hand edit, a restore): fields that are not JSON or
    not an object, a half character escaped in JSON, a version whose fields are lost. The other terms answer; the
    unreadable ones are set aside by their ids, named to the moderators and said once in the log."""
    await submit(fake, await open_form(fake), FORM)
    guild = fake.guilds[0].id
    put = "INSERT INTO server_terms VALUES (?, ?, ?, 5, '2026-01-02', 5, '2026-01-02', NULL)"
    await harness.edit(put, guild, "roto", '{"term": "Roto", "definition"')  # cut short
    await harness.edit(put, guild, "lista", '["Lista", "Una lista."]')
    await harness.edit(put, guild, "medio", '{"term": "Medio \\ud800", "definition": "Medio carácter."}')
    await harness.edit(
        "INSERT INTO server_term_versions VALUES (?, 'cluster-nebula', 9, 'edited', '{', 5, '2026-01-03')", guild
    )
    bot.app.server_terms.forget_cached(guild)
    assert (await ask(fake, "nebula"))["data"]["embeds"][0]["title"] == "Clúster Nebula"
    assert (await ask(fake, "medio"))["data"]["embeds"][0]["title"] == "Medio \ufffd"
    stats = await fake.response(await fake.command("glosario-admin estadisticas", permissions=MODERATOR), 1)
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    name = "Términos del servidor que ya no pasan las comprobaciones (no responden: corrígelos o retíralos)"
    assert fields[name] == "«lista»\n«roto»"
    history = (await open_form(fake, "termino historial", {"termino": "cluster-nebula"}))["data"]["embeds"][0]
    assert history["description"].startswith("**v9**") and "creado por <@900>" in history["description"]
    bot.app.server_terms.forget_cached(guild)  # (read again)
    assert (await ask(fake, "nebula"))["data"]["embeds"][0]["title"] == "Clúster Nebula"
    said = [r.getMessage() for r in caplog.records if r.name == "bot.storage.repairs"]
    roto = f"database table server_terms, guild {guild}, term 'roto': its fields are not a JSON object: read as empty"
    assert roto in said
    assert len([s for s in said if "'lista'" in s]) == 1  # once, however often the terms are read


async def test_a_proposal_whose_fields_cannot_be_read_is_listed_empty_and_can_be_rejected(fake, bot, harness):
    await propose(fake, FORM, termino="Clúster Nebula")
    await harness.edit(
        "INSERT INTO proposals (guild_id, user_id, locale, fields, created_at) VALUES (?, 556, 'es', '{', '2026')",
        fake.guilds[0].id,
    )
    listing = await proposals_list(fake)
    description = listing["embeds"][0]["description"]
    assert "«Clúster Nebula» — propuesta por <@555>" in description and "«…» — propuesta por <@556>" in description
    _, reject = [c for row in listing["components"] for c in row["components"]]
    modal = await fake.response(
        await fake.click(message_of(listing), reject["custom_id"], permissions=MODERATOR, user_id=900, values=["2"])
    )
    done = await submit(fake, modal, {"Motivo (se lo diré a quien la propuso)": "Ilegible."})
    assert "rechazada" in done["content"]
    assert harness.rows("SELECT id, status FROM proposals ORDER BY id") == [(1, "pending"), (2, "rejected")]


async def test_a_stored_term_with_a_blank_name_or_an_unusable_id_never_empties_a_list(fake, bot, harness, caplog):
    """Rows a hand edit made: a name that is blank (the editors' menu offered it as an empty choice, and Discord
    refuses the whole menu for one), an id too long for a button or a choice (every autocomplete of the server, its
    lists and its card were refused or the apology). The blank one is offered by its id; the other is set aside,
    named to the moderators, and said once in the log."""
    await submit(fake, await open_form(fake), FORM)
    guild, long_id = fake.guilds[0].id, "x" * 300
    put = "INSERT INTO server_terms VALUES (?, ?, ?, 5, '2026-01-02', 5, '2026-01-02', NULL)"
    await harness.edit(put, guild, "en-blanco", '{"term": "  ", "definition": "Sin nombre."}')
    await harness.edit(put, guild, long_id, '{"term": "Larguísimo", "definition": "Un término con un id muy largo."}')
    bot.app.server_terms.forget_cached(guild)
    offered = await fake.response(
        await fake.autocomplete("glosario-admin termino editar", "termino", "", permissions=MODERATOR, user_id=900)
    )
    assert sorted(offered["data"]["choices"], key=lambda c: c["value"]) == [
        {"name": "Clúster Nebula", "value": "cluster-nebula"},
        {"name": "en-blanco", "value": "en-blanco"},
    ]
    choices = (await fake.response(await fake.autocomplete("termino", "termino", "")))["data"]["choices"]
    assert choices[0]["value"] == "cluster-nebula"  # (the server's own first)
    listed = await fake.response(await fake.command("glosario lista", {"categoria": "Términos del servidor"}))
    assert "Clúster Nebula" in listed["data"]["embeds"][0]["description"]
    stats = await fake.response(await fake.command("glosario-admin estadisticas", permissions=MODERATOR), 1)
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    name = "Términos del servidor que ya no pasan las comprobaciones (no responden: corrígelos o retíralos)"
    assert fields[name] == "«en-blanco»\n«Larguísimo»"
    said = [r.getMessage() for r in caplog.records if r.name == "bot.storage.repairs"]
    assert said == [
        f"database table server_terms, guild {guild}, term '{long_id[:78]}…: its id is not one this "
        "version makes: set aside"
    ]
