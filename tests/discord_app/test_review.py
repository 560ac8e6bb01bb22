"""Moderators' review of gaps end to end: permissions, pages, ignore/resolve, export, reload, stats, isolation."""

from __future__ import annotations

import io
import logging
import shutil
import sqlite3

import yaml
from PIL import Image

from bot.app.files import load_glossary
from bot.app.insights.chart import HEIGHT, LINE, WIDTH
from bot.discord_app.kit.i18n import t
from bot.storage.records import GapRecord
from tests.conftest import SHIPPED
from tests.fake_discord.server import (
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    Guild,
    RoleRef,
    message_of,
    snowflake,
)

MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
ADMIN = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES | MANAGE_GUILD)


async def ask(fake, query, user_id=1, guild=None):
    return await fake.response(await fake.command("termino", {"termino": query}, user_id=user_id, guild=guild))


async def admin(fake, path, options=None, *, permissions=MODERATOR, guild=None, user_id=900, locale="es-ES"):
    iid = await fake.command(
        f"glosario-admin {path}", options, permissions=permissions, guild=guild, user_id=user_id, locale=locale
    )
    return iid, await fake.response(iid)


async def export(fake, formato, **kw) -> str:
    """The file `/glosario-admin exportar` sends (after deferring: a big export takes a moment)."""
    iid, first = await admin(fake, "exportar", {"formato": formato}, **kw)
    assert first["type"] == 5
    (data,) = (await fake.response(iid, 1))["_files"].values()
    return data.decode()


def buttons_and_selects(data):
    return [c for row in data.get("components", []) for c in row["components"]]


async def test_members_are_refused_every_admin_command(fake, bot):
    for path, options in [
        ("pendientes", None),
        ("exportar", None),
        ("recargar", None),
        ("estadisticas", None),
        ("rol-editor", {"rol": RoleRef(fake.guilds[0].editor_role_id)}),
        ("diario estado", None),
    ]:
        _, reply = await admin(fake, path, options, permissions=MEMBER_PERMISSIONS)
        assert "es para moderadores" in reply["data"]["content"], path
        assert reply["data"]["flags"] & 64


async def test_moderator_sees_the_gap_a_member_just_created(fake, bot, harness):
    await ask(fake, "Tokenización", user_id=1)
    await ask(fake, "tokenizacion", user_id=2)
    await harness.flushed(bot)
    _, reply = await admin(fake, "pendientes")
    data = reply["data"]
    assert data["flags"] & 64
    (embed,) = data["embeds"]
    assert embed["title"] == "Consultas sin respuesta — abiertas"
    assert "«tokenizacion» — 2 veces, 2 personas" in embed["description"]
    assert embed["footer"]["text"] == "Página 1 de 1 · 1 en total"


async def seed_gaps(bot, guild_id, n):
    misses = bot.app.stores.gaps
    for i in range(n):
        for _ in range(n - i):  # gap i asked n - i times: a clear order
            at = f"2026-12-{1 + i % 28:02d}T10:00:00"
            await misses.record_gaps(
                [GapRecord(guild_id, f"laguna {i:02d}", f"laguna {i:02d}", f"a{i}", None, "lookup", at)]
            )


async def test_the_resolve_form_of_a_long_question_says_it_cut_within_its_quotes(fake, bot):
    asked = "como se reparte el entrenamiento\nentre muchas máquinas cuando el modelo es enorme"
    await bot.app.stores.gaps.record_gaps(
        [GapRecord(fake.guilds[0].id, asked, asked, "a1", None, "lookup", "2026-12-01T10:00:00")]
    )
    _, listed = await admin(fake, "pendientes")
    resolve = buttons_and_selects(listed["data"])[3]
    modal = await fake.response(
        await fake.click(
            message_of(listed["data"]),
            resolve["custom_id"],
            permissions=MODERATOR,
            values=[resolve["options"][0]["value"]],
        )
    )
    title = modal["data"]["title"]
    # one line, cut where it says so, its closing quote kept (was cut at 45 characters: "…entrenamiento\nentre")
    assert title == "Resolver «como se reparte el entrenamiento …»" and len(title) == 45


async def test_pages_through_25_gaps_ignores_one_and_resolves_one_naming_its_term(fake, bot, harness):
    guild_id = fake.guilds[0].id
    await seed_gaps(bot, guild_id, 25)
    _, reply = await admin(fake, "pendientes")
    data = reply["data"]
    assert data["embeds"][0]["footer"]["text"] == "Página 1 de 3 · 25 en total"
    assert data["embeds"][0]["description"].count("\n") == 9  # ten entries
    prev, nxt, ignore, resolve, _define = buttons_and_selects(data)
    assert prev["disabled"] is True and nxt["custom_id"] == "glosario:gaps:1:count:open"
    page2 = await fake.response(await fake.click(message_of(data), nxt["custom_id"], permissions=MODERATOR))
    assert page2["type"] == 7 and page2["data"]["embeds"][0]["footer"]["text"] == "Página 2 de 3 · 25 en total"
    assert "**11.** «laguna 10»" in page2["data"]["embeds"][0]["description"]
    nxt = buttons_and_selects(page2["data"])[1]
    page3 = (await fake.response(await fake.click(message_of(page2["data"]), nxt["custom_id"], permissions=MODERATOR)))[
        "data"
    ]
    assert page3["embeds"][0]["description"].count("\n") == 4 and buttons_and_selects(page3)[1]["disabled"]

    target = next(o for o in ignore["options"] if o["label"] == "1. laguna 00")
    done = await fake.response(
        await fake.click(message_of(data), ignore["custom_id"], permissions=MODERATOR, values=[target["value"]])
    )
    assert done["type"] == 7 and done["data"]["embeds"][0]["footer"]["text"] == "Página 1 de 3 · 24 en total"
    assert harness.rows("SELECT status FROM misses WHERE sample = 'laguna 00'") == [("ignored",)]

    resolve = buttons_and_selects(done["data"])[3]
    choice = next(o for o in resolve["options"] if o["label"].endswith("laguna 01"))
    modal = await fake.response(
        await fake.click(
            message_of(done["data"]), resolve["custom_id"], permissions=MODERATOR, values=[choice["value"]]
        )
    )
    assert modal["type"] == 9
    sent = await fake.submit_modal(
        modal["data"],
        {"Término que la responde (opcional)": "horovd"},
        message=message_of(done["data"]),
        permissions=MODERATOR,
    )
    assert (await fake.response(sent))["type"] == 6  # deferred, then the list the form came from is updated
    updated = await fake.response(sent, 1)
    assert updated["webhook"] == "PATCH" and "laguna 01" not in updated["embeds"][0]["description"]
    assert harness.rows("SELECT status, resolved_term FROM misses WHERE sample = 'laguna 01'") == [
        ("resolved", "horovod")
    ]
    _, ignored = await admin(fake, "pendientes", {"estado": "ignoradas"})
    assert "laguna 00" in ignored["data"]["embeds"][0]["description"]


async def test_export_yaml_stubs_load_once_filled_and_csv_has_the_counts(fake, bot, harness, tmp_path):
    for user, query in [(1, "tokenización"), (2, "Tokenizacion"), (3, "tokenisacion"), (4, "embeddings")]:
        await ask(fake, query, user_id=user)
    await harness.flushed(bot)
    text = await export(fake, "yaml")
    stubs = yaml.safe_load(text)
    names = [t["term"] for t in stubs["terms"]]
    assert names[0] in ("tokenización", "Tokenizacion") and "embeddings" in names
    assert stubs["terms"][0]["aliases"] == ["tokenisacion"]  # a typo of the same gap becomes an alias
    assert all(t["definition"] == "" for t in stubs["terms"])
    (tmp_path / "glossary.yaml").write_text("title: Prueba\n", encoding="utf-8")
    (tmp_path / "pendientes.yaml").write_text(
        text.replace('definition: ""', 'definition: "Por escribir."'), encoding="utf-8"
    )
    assert len(load_glossary(tmp_path)) == 2
    assert "# Rellena cada 'definition'" in text and "category: Pendientes" in text and "# 1 vez, 1 persona" in text
    english = await export(fake, "yaml", locale="en-GB")  # the moderator's language, the whole file through
    assert "# Fill in each 'definition'" in english and "category: Pending" in english
    assert "# 1 time, 1 person" in english and not any(w in english for w in ("Rellena", "vez", "persona"))
    assert yaml.safe_load(english)["terms"] == stubs["terms"]
    csv_text = await export(fake, "csv")
    lines = csv_text.splitlines()
    assert lines[0].startswith("id,guild_id,query,kind,count,askers")
    assert len(lines) == 4


async def test_a_gap_whose_text_is_not_utf8_is_listed_and_exported_with_the_others(fake, bot, harness, caplog):
    """SQLite keeps any bytes as text (a hand edit, a restore); one text that is not UTF-8 failed every read that
    met it (the whole list, the export). Its bad bytes are read as U+FFFD, and the log says which table once."""
    for user, query in [(1, "tokenización"), (2, "embeddings")]:
        await ask(fake, query, user_id=user)
    await harness.flushed(bot)
    await harness.edit(
        "INSERT INTO misses (guild_id, normalized, query_hash, sample, count, first_seen, last_seen) "
        "VALUES (?, 'roto', 'h', CAST(X'726F746FEDA080' AS TEXT), 5, '2026-12-01', '2026-12-01')",
        fake.guilds[0].id,
    )
    _, reply = await admin(fake, "pendientes")
    description = reply["data"]["embeds"][0]["description"]
    assert "«roto\ufffd" in description and "«tokenización»" in description and "«embeddings»" in description
    lines = (await export(fake, "csv")).splitlines()
    assert len(lines) == 4 and any(",roto\ufffd" in line for line in lines)
    said = [r.getMessage() for r in caplog.records if r.name == "bot.storage.repairs"]
    assert said == [
        "database table misses: column 'sample' holds text that is not UTF-8: its bad bytes are read as "
        "U+FFFD from now on"
    ]


async def test_the_exported_stubs_carry_the_glossary_s_own_title(fake, harness, tmp_path):
    """The title of the glossary the bot serves (its glossary.yaml, as on the web page), in the moderator's
    language, and the server's name: never the shipped glossary's name whatever the glossary."""
    from bot.discord_app.kit.i18n import t

    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    (data / "glossary.yaml").write_text("title: Vocabulario de Robótica\nlanguage: es\n", encoding="utf-8")
    bot = await harness.start(data_dir=data)
    await ask(fake, "zzz inexistente", user_id=7)
    await harness.flushed(bot)
    guild = fake.guilds[0].name
    for locale in ("es-ES", "en-US"):
        text = await export(fake, "yaml", locale=locale, user_id=901 if locale == "es-ES" else 902)
        heading = t(locale, "export_title", glossary="Vocabulario de Robótica")
        assert text.splitlines()[0] == f"# {heading} ({guild})" and "Glosario IA" not in text


async def test_reload_broken_keeps_the_old_glossary_and_adding_a_term_resolves_its_gap(fake, harness, tmp_path):
    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    bot = await harness.start(data_dir=data)
    await ask(fake, "ajuste fino")
    await harness.flushed(bot)
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: Ajuste Fino\n    defintion: x\n")
    iid, first = await admin(fake, "recargar")
    assert first["type"] == 5  # deferred: reading the files may take a moment
    failed = await fake.response(iid, 1)
    assert "No he recargado" in failed["content"] and "extra.yaml:4:" in failed["content"]
    assert str(data) not in failed["content"]  # moderators never see the server's own paths
    assert (await ask(fake, "horovod"))["data"]["embeds"][0]["title"] == "Horovod"
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: Ajuste Fino\n    definition: Fine-tuning.\n")
    iid, _ = await admin(fake, "recargar")
    ok = (await fake.response(iid, 1))["embeds"][0]
    assert "**18** términos (1 nuevos, 0 quitados, 0 cambiados)" in ok["description"]
    fields = {f["name"]: f["value"] for f in ok["fields"]}
    assert fields["Nuevos"] == "Ajuste Fino"
    assert fields["Consultas que ahora tienen respuesta"] == "«ajuste fino» → Ajuste Fino"
    assert harness.rows("SELECT status, resolved_term FROM misses") == [("resolved", "ajuste-fino")]


async def test_another_servers_gaps_are_never_shown_or_touched(fake, harness):
    other = Guild(id=int(snowflake()), name="Otro")
    fake.guilds.append(other)
    bot = await harness.start()
    await ask(fake, "secreto del otro servidor", guild=other)
    await ask(fake, "lo nuestro")
    await harness.flushed(bot)
    _, reply = await admin(fake, "pendientes")
    text = reply["data"]["embeds"][0]["description"]
    assert "lo nuestro" in text and "secreto" not in text
    (their_id,) = harness.rows("SELECT id FROM misses WHERE guild_id = ?", other.id)[0]
    ignore = buttons_and_selects(reply["data"])[2]
    forged = {**ignore, "options": [{"label": "x", "value": str(their_id)}]}  # a crafted choice
    message = message_of({**reply["data"], "components": [{"type": 1, "components": [forged]}]})
    await fake.response(await fake.click(message, ignore["custom_id"], permissions=MODERATOR, values=[str(their_id)]))
    assert harness.rows("SELECT status FROM misses WHERE guild_id = ?", other.id) == [("open",)]
    assert "secreto" not in await export(fake, "csv")


async def test_editor_role_and_statistics(fake, bot, harness):
    guild = fake.guilds[0]
    _, denied = await admin(fake, "rol-editor", {"rol": RoleRef(guild.editor_role_id)})  # Manage Messages only
    assert "Gestionar servidor" in denied["data"]["content"]
    _, done = await admin(fake, "rol-editor", {"rol": RoleRef(guild.editor_role_id)}, permissions=ADMIN)
    assert f"<@&{guild.editor_role_id}>" in done["data"]["content"]
    fake.member_roles[555] = [guild.editor_role_id]
    for query in ("horovod", "horovod", "ray", "zzz inexistente", "tensorflow"):
        await ask(fake, query, user_id=7)
    bot.app.lookups.flush()
    await harness.flushed(bot)
    iid, first = await admin(fake, "estadisticas", permissions=MEMBER_PERMISSIONS, user_id=555)  # an editor
    assert first["type"] == 5  # deferred: the chart is drawn meanwhile
    stats = await fake.response(iid, 1)
    assert stats["embeds"][0]["image"]["url"] == "attachment://tendencia.png"
    chart = Image.open(io.BytesIO(stats["_files"]["tendencia.png"]))  # the answer-rate chart, today's rate on it
    assert chart.format == "PNG" and chart.size == (WIDTH, HEIGHT)
    assert LINE in {color for _, color in chart.convert("RGB").getcolors(WIDTH * HEIGHT)}
    fields = {f["name"]: f["value"] for f in stats["embeds"][0]["fields"]}
    assert fields["Términos"] == "17"
    assert fields["Consultas"] == "5 en total · 5 en los últimos 7 días"
    assert (
        fields["Resultados"]
        == "60 % respondidas · 0 % preguntas respondidas por significado · 20 % dudosas · 20 % sin respuesta"
    )
    assert fields["Más consultados"].splitlines()[0] == "Horovod — 2"
    assert fields["Nunca consultados (15)"].startswith("Aprendizaje Automático Distribuido")


async def test_the_editor_role_is_read_once_kept_a_short_while_and_changed_at_once(fake, bot, harness):
    """The editor role is asked at every interaction of a member without Manage Messages (an editor's keystrokes, a
    hostile member's clicks): read once, then from memory; a change made here counts at once, one another process
    makes (the shared database) once the role's time in memory is over."""
    guild, roles, now = fake.guilds[0], bot.app.roles, [1000.0]
    roles.now = lambda: now[0]  # (the roles' own clock, moved by the test)
    editors = iter(range(555, 600))  # (a new editor each time: six interactions a member in 20 s)

    async def allowed(*, role: int | None = guild.editor_role_id) -> bool:
        user_id = next(editors)
        fake.member_roles[user_id] = [role] if role else []
        _, listing = await admin(fake, "pendientes", permissions=MEMBER_PERMISSIONS, user_id=user_id)
        assert listing["data"].get("embeds") or listing["data"]["content"] == t("es", "admin_denied")
        return bool(listing["data"].get("embeds"))

    await admin(fake, "rol-editor", {"rol": RoleRef(guild.editor_role_id)}, permissions=ADMIN)
    reads: list[str] = []
    reader = roles.store.db.reader
    await reader.set_trace_callback(lambda sql: reads.append(sql) if "editor_role_id" in sql else None)
    assert await allowed() and len(reads) == 1
    assert await allowed() and not await allowed(role=None) and len(reads) == 1  # from memory, refusals too
    await admin(fake, "rol-editor", {"rol": RoleRef(int(snowflake()))}, permissions=ADMIN)
    assert not await allowed()  # changed here: at once
    await admin(fake, "rol-editor", {"rol": RoleRef(guild.editor_role_id)}, permissions=ADMIN)
    assert await allowed()
    reads.clear()
    await roles.store.set_editor_role(guild.id, int(snowflake()))  # another process, sharing the database
    now[0] += roles.ttl - 1
    assert await allowed() and reads == []  # (still the role in memory)
    now[0] += 1
    assert not await allowed() and len(reads) == 1  # its time over: read again
    await reader.set_trace_callback(None)


async def test_an_editor_role_the_database_cannot_give_is_an_apology_and_read_again_next_time(fake, bot, caplog):
    """As before the role was kept in memory: the member is told something went wrong (the error logged), and
    nothing is kept of the failed read: the next interaction reads the role again."""
    guild, roles = fake.guilds[0], bot.app.roles
    await admin(fake, "rol-editor", {"rol": RoleRef(guild.editor_role_id)}, permissions=ADMIN)
    store, fails = roles.store, [True]

    class Failing:  # the real store; reading the role fails while `fails` says so
        def __getattr__(self, name):
            return getattr(store, name)

        async def editor_role(self, guild_id):
            if fails[0]:
                raise sqlite3.OperationalError("disk I/O error")
            return await store.editor_role(guild_id)

    roles.store = Failing()
    fake.member_roles[555] = [guild.editor_role_id]
    _, reply = await admin(fake, "pendientes", permissions=MEMBER_PERMISSIONS, user_id=555)
    assert reply["data"]["content"] == t("es", "error")
    assert any(r.levelno == logging.ERROR and "disk I/O error" in str(r.exc_info) for r in caplog.records)
    fails[0] = False
    _, listing = await admin(fake, "pendientes", permissions=MEMBER_PERMISSIONS, user_id=555)
    assert listing["data"]["embeds"]


async def test_every_file_a_moderator_is_sent_is_named_in_their_language(fake, bot, harness):
    """The exports and the chart: Spanish names for a Spanish locale, English ones for an English locale (the
    message and the file's own text follow the same locale)."""
    await ask(fake, "zzz inexistente", user_id=7)
    bot.app.lookups.flush()
    await harness.flushed(bot)
    names = {}
    for moderator, locale in ((901, "es-ES"), (902, "en-US")):  # (one each: six commands a member in 20 s)
        for formato in ("yaml", "csv", "terminos", "opiniones"):
            iid, _ = await admin(fake, "exportar", {"formato": formato}, locale=locale, user_id=moderator)
            (names[locale, formato],) = (await fake.response(iid, 1))["_files"]
        iid, _ = await admin(fake, "estadisticas", locale=locale, user_id=moderator)
        stats = await fake.response(iid, 1)
        (names[locale, "chart"],) = stats["_files"]
        assert stats["embeds"][0]["image"]["url"] == f"attachment://{names[locale, 'chart']}"
    assert names == {
        ("es-ES", "yaml"): "glosario-pendientes.yaml",
        ("es-ES", "csv"): "glosario-pendientes.csv",
        ("es-ES", "terminos"): "terminos-del-servidor.yaml",
        ("es-ES", "opiniones"): "glosario-opiniones.csv",
        ("es-ES", "chart"): "tendencia.png",
        ("en-US", "yaml"): "glossary-open-questions.yaml",
        ("en-US", "csv"): "glossary-open-questions.csv",
        ("en-US", "terminos"): "server-terms.yaml",
        ("en-US", "opiniones"): "glossary-feedback.csv",
        ("en-US", "chart"): "trend.png",
    }


async def test_an_export_too_big_for_discord_names_the_command_that_gives_that_file(fake, bot, harness):
    """Past Discord's file size even zipped, each export says the operator's command for the same records: gaps
    for the questions, server-terms for the server's own terms, feedback for the votes and comments."""
    await ask(fake, "zzz inexistente", user_id=7)
    bot.app.lookups.flush()
    await harness.flushed(bot)
    fake.attachment_limit = 16  # (no file fits: not even a zip's own headers)
    guild = fake.guilds[0].id
    said = {}
    for formato, locale, moderator in (("csv", "es-ES", 901), ("terminos", "es-ES", 901), ("opiniones", "en-US", 902)):
        iid, _ = await admin(fake, "exportar", {"formato": formato}, locale=locale, user_id=moderator)
        reply = await fake.response(iid, 1)
        assert not reply.get("_files") and reply["flags"] & 64  # (said to the moderator alone, nothing attached)
        said[formato] = reply["content"]
    assert f"`glosario-bot gaps --guild {guild} --format csv`" in said["csv"]
    assert said["terminos"].startswith("Los 0 términos propios del servidor no caben")
    assert f"`glosario-bot server-terms --guild {guild}`" in said["terminos"]
    assert said["opiniones"].startswith("The 0 votes and comments do not fit")
    assert f"`glosario-bot feedback --guild {guild} --json`" in said["opiniones"]
