"""Forgetting through the fake Discord: a member's own /glosario olvidarme, and a server that removed the bot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.gaps import asker_hash
from bot.discord_app.kit.i18n import t
from bot.storage.erasure import GUILD_COLUMN, HASH_COLUMNS, MARK_COLUMNS, OWNER_COLUMNS
from bot.storage.tables import TABLES
from tests.discord_app.test_server_terms import FORM, ask, open_form, propose, submit
from tests.fake_discord.server import DM, Guild, message_of, snowflake
from tests.helpers import eventually

ES = "es-ES"
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
EDITOR, MEMBER = 900, 555  # (the editor of test_server_terms' forms asks to be forgotten)
OTHER_FORM = {
    "Nombre": "Clúster Orión",
    "Definición": "El clúster de CPUs del equipo, para preprocesar los datos antes de entrenar.",
}


def naming(harness, user_id: int) -> list[tuple]:
    """Every row of every table that names the member: by user id, or by the salted hash of it."""
    (salt,) = harness.rows("SELECT value FROM meta WHERE key = 'asker_salt'")[0]
    found = []
    for table, columns in TABLES.items():
        for column in columns:
            value = user_id if column in OWNER_COLUMNS | MARK_COLUMNS else asker_hash(salt, user_id)
            if column in OWNER_COLUMNS | MARK_COLUMNS | HASH_COLUMNS:
                found += [(table, *r) for r in harness.rows(f"SELECT * FROM {table} WHERE {column} = ?", value)]
    return found


async def test_a_member_is_forgotten_on_their_own_request_and_only_they_can_confirm_it(fake, bot, harness):
    await submit(fake, await open_form(fake), FORM)  # EDITOR writes a server term
    await ask(fake, "xyzzy cuántico", user_id=EDITOR)  # a gap they asked
    await propose(fake, OTHER_FORM, user_id=EDITOR)
    await propose(fake, {**OTHER_FORM, "Nombre": "Clúster Vega"}, user_id=MEMBER)
    await harness.flushed(bot)
    assert len(naming(harness, EDITOR)) >= 4

    iid = await fake.command("glosario olvidarme", user_id=EDITOR)
    assert (await fake.response(iid))["type"] == 5  # deferred, privately: counting may take a moment
    prompt = await fake.response(iid, 1)
    assert prompt["flags"] & 64
    assert t(ES, "forget_line", what=t(ES, "forget_proposals"), count=1) in prompt["content"]
    assert t(ES, "forget_line", what=t(ES, "forget_gaps"), count=1) in prompt["content"]
    assert t(ES, "forget_line", what=t(ES, "forget_terms"), count=1) in prompt["content"]
    (button,) = [c for row in prompt["components"] for c in row["components"]]
    assert button["label"] == t(ES, "forget_button")
    message = message_of(prompt)

    stranger = await fake.response(await fake.click(message, button["custom_id"], user_id=MEMBER))
    assert stranger["data"]["content"] == t(ES, "forget_not_yours") and stranger["data"]["flags"] & 64
    forged = {**button, "custom_id": f"glosario:forget:{MEMBER}:{'0' * 12}"}  # a button the bot never made
    forged_message = message_of({**prompt, "components": [{"type": 1, "components": [forged]}]})
    refused = await fake.response(await fake.click(forged_message, forged["custom_id"], user_id=MEMBER))
    assert refused["data"]["content"] == t(ES, "forget_invalid")
    assert len(naming(harness, EDITOR)) >= 4 and harness.rows("SELECT COUNT(*) FROM proposals") == [(2,)]

    iid = await fake.click(message, button["custom_id"], user_id=EDITOR)
    assert (await fake.response(iid))["type"] == 6  # the confirmation is edited in place
    done = await fake.response(iid, 1)
    assert done["webhook"] == "PATCH" and done["content"].startswith(t(ES, "forget_done", summary="").strip())
    assert done["components"] == []
    assert naming(harness, EDITOR) == []  # no row of any table names them any more
    assert harness.rows("SELECT user_id FROM proposals") == [(MEMBER,)]  # another member's stays
    assert harness.rows("SELECT count FROM misses WHERE sample = 'xyzzy cuántico'") == [(1,)]  # counts stay
    (embed,) = (await ask(fake, "nebula"))["data"]["embeds"]
    assert embed["fields"][-1]["value"].startswith("añadido por un miembro el ")
    assert "<@" not in embed["fields"][-1]["value"]


async def test_a_server_that_removed_the_bot_is_forgotten_after_the_grace_period_unless_it_came_back(fake, harness):
    now = [NOW]
    bot = await harness.start(clock=lambda: now[0])
    gone, back = fake.guilds[0], Guild(id=int(snowflake()), name="Vuelve")
    await fake.add_bot(back)
    await eventually(lambda: bot.get_guild(back.id) is not None)
    for guild in (gone, back):
        await ask(fake, "xyzzy cuántico", guild=guild)
        await submit(fake, await open_form(fake, guild=guild), FORM, guild=guild)
    await harness.flushed(bot)

    await fake.remove_bot(gone)
    await fake.remove_bot(back)
    await eventually(lambda: harness.rows("SELECT COUNT(*) FROM guild_departures") == [(2,)])
    await fake.add_bot(back)  # added back within the grace period
    await eventually(lambda: harness.rows("SELECT guild_id FROM guild_departures") == [(gone.id,)])

    cog = bot.get_cog("ErasureCog")
    now[0] = NOW + timedelta(days=29)
    await cog.tick()
    assert harness.rows("SELECT COUNT(*) FROM misses WHERE guild_id = ?", gone.id) == [(1,)]  # not yet
    now[0] = NOW + timedelta(days=30, minutes=1)
    await cog.tick()
    for table, columns in TABLES.items():
        if GUILD_COLUMN in columns:
            assert harness.rows(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", gone.id) == [(0,)], table
    assert harness.rows("SELECT COUNT(*) FROM miss_askers") == [(1,)]  # the other server's gap keeps its asker
    assert harness.rows("SELECT COUNT(*) FROM server_terms WHERE guild_id = ?", back.id) == [(1,)]
    assert harness.rows("SELECT COUNT(*) FROM misses WHERE guild_id = ?", back.id) == [(1,)]
    forgotten_at = (NOW + timedelta(days=30, minutes=1)).isoformat(timespec="seconds")
    assert harness.rows("SELECT id, at FROM forgotten_guilds") == [
        (gone.id, forgotten_at)
    ]  # nothing of before comes back


async def test_a_members_votes_and_comments_are_named_in_their_own_words_and_go(fake, bot, harness):
    from tests.discord_app.test_feedback import card, vote

    await vote(fake, await card(fake, user_id=MEMBER), "down", user_id=MEMBER, comment="Falta un ejemplo")
    await harness.flushed(bot)
    assert harness.rows("SELECT COUNT(*) FROM feedback") == [(1,)]

    for locale in (ES, "en-US"):
        prompt = await fake.response(await fake.command("glosario olvidarme", user_id=MEMBER, locale=locale), 1)
        line = t(locale, "forget_line", what=t(locale, "forget_feedback"), count=1)
        assert line in prompt["content"].splitlines()
        assert "feedback" not in prompt["content"]  # (not the table's name)
    (button,) = [c for row in prompt["components"] for c in row["components"]]
    done = await fake.response(await fake.click(message_of(prompt), button["custom_id"], user_id=MEMBER), 1)
    assert t(ES, "forget_line", what=t(ES, "forget_feedback"), count=1) in done["content"].splitlines()
    assert harness.rows("SELECT COUNT(*) FROM feedback") == [(0,)]


async def test_the_ids_of_applied_writes_go_after_60_days_while_the_bot_runs(fake, bot, harness):
    await ask(fake, "xyzzy cuántico")
    await harness.flushed(bot)
    kept = harness.rows("SELECT id FROM applied_writes")
    assert kept  # (written today)
    await harness.edit("INSERT INTO applied_writes (id, day) VALUES ('old', '2000-01-01')")  # a bot running for ages

    await bot.get_cog("ErasureCog").tick()  # (every hour)
    assert set(harness.rows("SELECT id FROM applied_writes")) == set(kept)


async def test_a_server_that_removed_the_bot_while_it_was_not_running_is_forgotten_too(fake, harness):
    now = [NOW]
    bot = await harness.start(clock=lambda: now[0])
    here, gone = fake.guilds[0].id, int(snowflake())  # Discord never tells the bot about `gone` again
    await ask(fake, "xyzzy cuántico")
    await fake.response(await fake.command("termino", {"termino": "xyzzy cuántico"}, via=DM))  # (guild 0)
    await harness.flushed(bot)
    await harness.edit(
        "INSERT INTO misses (guild_id, normalized, query_hash, sample, first_seen, last_seen) "
        "VALUES (?, 'nebula', 'h', 'nebula', ?, ?)",
        gone,
        NOW.isoformat(),
        NOW.isoformat(),
    )
    await harness.edit("INSERT INTO guild_settings (guild_id, editor_role_id) VALUES (?, 1)", gone)

    cog = bot.get_cog("ErasureCog")
    await cog.tick()
    assert harness.rows("SELECT guild_id FROM guild_departures") == [(gone,)]  # noted now, not the others
    now[0] = NOW + timedelta(days=30, minutes=1)
    await cog.tick()
    for table, columns in TABLES.items():
        if GUILD_COLUMN in columns:
            assert harness.rows(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", gone) == [(0,)], table
    assert harness.rows("SELECT COUNT(*) FROM misses WHERE guild_id IN (0, ?)", here) == [(2,)]


async def test_forgetting_while_another_process_holds_the_database_says_so_and_pressing_again_finishes(
    fake, bot, harness, monkeypatch
):
    from bot.app.privacy import erasure

    monkeypatch.setattr(erasure, "DRAIN_WAIT", 0.2)
    await ask(fake, "xyzzy cuántico", user_id=MEMBER)
    await harness.flushed(bot)
    prompt = await fake.response(await fake.command("glosario olvidarme", user_id=MEMBER), 1)
    (button,) = [c for row in prompt["components"] for c in row["components"]]
    locker = await harness.locked()  # another process writing
    try:
        await ask(fake, "otra cosa rarísima", user_id=MEMBER)  # its gap now waits for the lock, and is retried
        busy = await fake.response(await fake.click(message_of(prompt), button["custom_id"], user_id=MEMBER), 1)
        assert busy["content"] == t(ES, "db_busy")  # not done, and said so: the button is still there
    finally:
        locker.rollback()
        locker.close()
    done = await fake.response(await fake.click(message_of(prompt), button["custom_id"], user_id=MEMBER), 1)
    assert done["content"].startswith(t(ES, "forget_done", summary="").strip())
    await harness.flushed(bot, within=20)
    assert naming(harness, MEMBER) == []  # what was being retried at the first press did not bring them back
    ((salt,),) = harness.rows("SELECT value FROM meta WHERE key = 'asker_salt'")
    journals = harness.settings().journal_file.parent.glob("*.jsonl")
    assert not any(asker_hash(salt, MEMBER) in path.read_text() for path in journals)  # nor journaled for later


async def forget(fake, user_id: int) -> dict:
    """/glosario olvidarme, confirmed: what the member reads at the end."""
    prompt = await fake.response(await fake.command("glosario olvidarme", user_id=user_id), 1)
    (button,) = [c for row in prompt["components"] for c in row["components"]]
    return await fake.response(await fake.click(message_of(prompt), button["custom_id"], user_id=user_id), 1)


async def test_what_the_bot_holds_of_a_member_in_memory_goes_with_them_too(fake, harness):
    from bot.app.application import utc_now
    from bot.app.limits import GapBudget, RateLimit
    from tests.discord_app.test_feedback import card, vote
    from tests.discord_app.test_server_terms import MODERATOR

    later = [
        timedelta(0)
    ]  # (what they do after the erasure is in a later second: one in its second is taken as before)
    bot = await harness.start(clock=lambda: utc_now() + later[0])
    bot.guard.rate = RateLimit(1000, 20)  # (this test is about what is kept, not the rate limit)
    bot.app.lookups.budget, bot.app.feedback.budget = GapBudget(1, 3600), GapBudget(1, 3600)
    await ask(fake, "xyzzy uno", user_id=EDITOR)
    await ask(fake, "xyzzy dos", user_id=EDITOR)  # over their hourly budget of gaps: not logged
    await vote(fake, await card(fake, "horovod", user_id=EDITOR), "down", user_id=EDITOR, comment="Falta un ejemplo")
    over = await vote(fake, await card(fake, "allreduce", user_id=EDITOR), "down", user_id=EDITOR)
    assert over["data"]["content"] == t(ES, "fb_thanks_unhelpful")  # over their comments' budget: no form offered
    refused = await submit(fake, await open_form(fake), {**FORM, "Nombre": "Horovod"})  # kept for *Corregir*
    (fix,) = [c for row in refused["components"] for c in row["components"]]
    still_open = await open_form(fake)
    await harness.flushed(bot)

    done = await forget(fake, EDITOR)
    assert done["content"].startswith(t(ES, "forget_done", summary="").strip())

    later[0] = timedelta(seconds=1)
    await ask(fake, "xyzzy tres", user_id=EDITOR)  # a whole budget again: what they asked before is forgotten
    offered = await vote(fake, await card(fake, "allreduce", user_id=EDITOR), "down", user_id=EDITOR)
    assert offered["type"] == 9  # the "¿Qué faltaba?" form again
    click = await fake.click(message_of(refused), fix["custom_id"], permissions=MODERATOR, user_id=EDITOR)
    assert (await fake.response(click))["data"]["content"] == t(ES, "st_no_draft")  # what the refused form held
    sent = await submit(fake, still_open, OTHER_FORM)  # a form they had open: closed, applies to nothing
    assert sent["content"] == t(ES, "form_unknown") and OTHER_FORM["Definición"] in str(sent["embeds"])
    await harness.flushed(bot)
    assert harness.rows("SELECT sample FROM misses ORDER BY sample") == [("xyzzy tres",), ("xyzzy uno",)]
    assert harness.rows("SELECT COUNT(*) FROM server_terms") == [(0,)]


async def test_what_another_process_journaled_of_a_member_before_they_were_forgotten_is_not_written_at_a_start(
    fake, harness, caplog
):
    """Another process (with several) held the member's writes while the database refused them, and journaled them
    after the member's /glosario olvidarme had scrubbed the journals: the next start replays that journal, and
    writes back none of theirs (another member's, and theirs once they are back, are written)."""
    import json
    import logging

    from bot.app.application import utc_now
    from bot.storage.records import GapRecord, VoteRecord, record_fields

    later = [timedelta(0)]
    bot = await harness.start(clock=lambda: utc_now() + later[0])
    (salt,) = harness.rows("SELECT value FROM meta WHERE key = 'asker_salt'")[0]
    mine, theirs = asker_hash(salt, EDITOR), asker_hash(salt, MEMBER)
    guild = fake.guilds[0].id
    before = (utc_now() - timedelta(minutes=1)).isoformat(timespec="seconds")
    done = await forget(fake, EDITOR)
    assert done["content"].startswith(t(ES, "forget_done", summary="").strip())
    await harness.stop(bot)

    records = [
        GapRecord(guild, "xyzzy mío", "xyzzy mio", mine, None, "lookup", before),
        VoteRecord(guild, "horovod", mine, "unhelpful", before),
        GapRecord(guild, "xyzzy suyo", "xyzzy suyo", theirs, None, "lookup", before),
    ]
    journal = harness.db_path.with_name("glosario.db.1-of-2.pending.jsonl")  # (the other process's)
    lines = [json.dumps({"op": r.OP, "id": f"other-{n}", **record_fields(r)}) for n, r in enumerate(records)]
    journal.write_text("\n".join(lines) + "\n")
    caplog.set_level(logging.INFO, logger="bot.storage.writer")
    later[0] = timedelta(seconds=2)  # (a later second than the erasure's)
    bot = await harness.start(clock=lambda: utc_now() + later[0])
    assert "skipped 2 journaled write(s) of a member or server forgotten after they were made" in caplog.text
    assert not journal.exists()
    assert harness.rows("SELECT sample FROM misses") == [("xyzzy suyo",)]
    assert naming(harness, EDITOR) == []

    await ask(fake, "xyzzy de vuelta", user_id=EDITOR)  # back after the erasure: kept as anyone's
    await harness.flushed(bot)
    assert harness.rows("SELECT sample FROM misses ORDER BY sample") == [("xyzzy de vuelta",), ("xyzzy suyo",)]
    assert harness.rows("SELECT asker FROM miss_askers ORDER BY asker") == sorted([(mine,), (theirs,)])


def cached_keys(harness, model: str) -> set[bytes]:
    """The text hashes the question path's servers' vector file holds (in the bots' cache folder)."""
    import numpy as np

    return set(np.load(harness.settings().cache_dir / f"vectors-{model}-servers.npy")["key"].tolist())


def keys_of(texts: list[str], model: str) -> set[bytes]:
    from bot.core.questions import text_key

    return {text_key(text, model).encode("ascii") for text in texts}


async def test_a_forgotten_servers_vectors_leave_the_question_cache_but_a_text_another_server_shares_stays(
    fake, harness
):
    from bot.core.status import Outcome
    from tests.app.test_question_cache import CountingEncoder

    now, model = [NOW], CountingEncoder()
    bot = await harness.start(clock=lambda: now[0], questions=model)
    await eventually(lambda: bot.app.questions_ready, timeout=60)
    gone, stays = fake.guilds[0], Guild(id=int(snowflake()), name="Se queda")
    await fake.add_bot(stays)
    await eventually(lambda: bot.get_guild(stays.id) is not None)
    for guild, form in ((gone, FORM), (stays, FORM), (gone, OTHER_FORM)):  # FORM's term in both: the same texts
        await submit(fake, await open_form(fake, guild=guild), form, guild=guild)
    texts = {}
    for guild in (gone, stays):  # a question in each builds that server's index: its vectors go to the file
        await fake.response(await fake.command("glosario pregunta", {"texto": "el cluster de gpus"}, guild=guild))
        texts[guild.id] = bot.app.questions.server_texts((await bot.app.server_terms.prepare(guild.id)).glossary)
    only_gone = keys_of(texts[gone.id], model.name) - keys_of(texts[stays.id], model.name)
    assert only_gone and keys_of(texts[gone.id] + texts[stays.id], model.name) == cached_keys(harness, model.name)
    assert set(bot.app.questions._servers._kept) == {("guild", gone.id), ("guild", stays.id)}

    await fake.remove_bot(gone)
    await eventually(lambda: harness.rows("SELECT COUNT(*) FROM guild_departures") == [(1,)])
    now[0] = NOW + timedelta(days=30, minutes=1)
    bot.app.lookups.count(gone.id, Outcome.FOUND, "horovod")  # a lookup counted, not yet handed to the queue
    await bot.get_cog("ErasureCog").tick()
    bot.app.lookups.flush()
    await harness.flushed(bot)
    assert harness.rows("SELECT COUNT(*) FROM lookups WHERE guild_id = ?", gone.id) == [(0,)]  # not written back
    assert cached_keys(harness, model.name) == keys_of(texts[stays.id], model.name)  # the shared ones stay
    (kept,) = bot.app.questions._servers._kept.values()  # its index is gone from memory too
    assert {term.source for term in kept.glossary} == {f"servidor:{stays.id}"}
