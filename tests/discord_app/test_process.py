"""`glosario-bot run` as a real process against the fake Discord: start-up errors, serving, stopping."""

from __future__ import annotations

import asyncio
import signal

from tests.fake_discord.process import env_for, finish, run_bot, serving
from tests.fake_discord.server import TOKEN


async def test_no_token_exits_2_and_says_how_to_get_one(fake, tmp_path):
    code, out = await finish(await run_bot(env_for(fake, tmp_path, DISCORD_TOKEN=""), "run"))
    assert code == 2
    assert "Falta DISCORD_TOKEN" in out and "developers/applications" in out
    assert "Traceback" not in out


async def test_invalid_glossary_refuses_to_start_with_the_report(fake, tmp_path):
    (tmp_path / "glossary.yaml").write_text("title: X\n")
    (tmp_path / "a.yaml").write_text("category: C\nterms:\n  - term: A\n    defintion: x\n")
    code, out = await finish(await run_bot(env_for(fake, tmp_path, GLOSARIO_DATA=str(tmp_path)), "run"))
    assert code == 1
    assert "no es válido; el bot no arranca" in out
    assert f"{tmp_path / 'a.yaml'}:4: clave desconocida 'defintion'" in out
    assert fake.requests == []  # it never talked to Discord


async def test_bad_token_is_a_clear_error_and_never_printed(fake, tmp_path):
    wrong = "wrong-token-" + "y" * 40
    code, out = await finish(await run_bot(env_for(fake, tmp_path, DISCORD_TOKEN=wrong), "run"))
    assert code == 1
    assert "Discord ha rechazado DISCORD_TOKEN" in out
    assert "Traceback" not in out
    assert wrong not in out


async def test_serves_then_stops_cleanly_on_sigterm_without_leaking_the_token(fake, tmp_path):
    proc = await run_bot(env_for(fake, tmp_path), "run")
    try:
        await fake.wait_ready(timeout=30)
        for _ in range(100):  # READY reaches the bot's handlers a moment after the fake sends it
            if fake.commands.get("global"):
                break
            await asyncio.sleep(0.05)
        reply = await fake.response(await fake.command("termino", {"termino": "horovod"}), timeout=15)
        assert reply["data"]["embeds"][0]["title"] == "Horovod"
        miss = await fake.response(await fake.command("termino", {"termino": "tokenización"}), timeout=15)
        assert "todavía no está" in miss["data"]["content"]
    finally:
        proc.send_signal(signal.SIGTERM)
    code, out = await finish(proc)
    assert code == 0, out
    assert TOKEN not in out
    assert "received SIGTERM" in out
    assert "PyNaCl" not in out and "davey" not in out  # no voice: no warnings about voice libraries
    import sqlite3

    with sqlite3.connect(tmp_path / "data" / "glosario.db") as conn:
        assert conn.execute("SELECT sample FROM misses").fetchall() == [("tokenización",)]


async def health(env: dict[str, str]) -> tuple[int, str]:
    return await finish(await run_bot(env, "health"))


async def test_sigterm_finishes_replies_in_flight_flushes_gaps_and_exits_0(fake, tmp_path):
    env = env_for(fake, tmp_path)
    proc = await run_bot(env, "run")
    try:
        await fake.wait_ready(timeout=30)
        await fake.wait_for(lambda: "global" in fake.commands)
        for _ in range(50):  # the first heartbeat is written as the gateway connection opens
            code, out = await health(env)
            if code == 0:
                break
            await asyncio.sleep(0.2)
        assert code == 0 and out.startswith("en orden:"), out
        fake.callback_delay = 1.0
        queries = ["horovod", "computación cuántica", "redes de hopfield", "ray", "ajuste fino"]
        ids = [await fake.command("termino", {"termino": q}, user_id=500 + i) for i, q in enumerate(queries)]
        await fake.wait_for(lambda: fake.callbacks_started >= len(ids))  # all five replies are on their way
    finally:
        proc.send_signal(signal.SIGTERM)
    code, out = await finish(proc)
    assert code == 0, out
    replies = [await fake.response(i, timeout=1) for i in ids]
    assert [r["data"]["embeds"][0]["title"] for r in (replies[0], replies[3])] == ["Horovod", "Ray"]
    assert all("todavía no está" in r["data"]["content"] for r in (replies[1], replies[2], replies[4]))
    import sqlite3

    with sqlite3.connect(tmp_path / "data" / "glosario.db") as conn:
        samples = {s for (s,) in conn.execute("SELECT sample FROM misses")}
        found = conn.execute("SELECT SUM(count) FROM lookups WHERE outcome = 'found'").fetchone()[0]
    assert samples == {"computación cuántica", "redes de hopfield", "ajuste fino"}
    assert found == 2
    code, out = await health(env)
    assert code == 1 and "no hay latido" in out


async def test_sighup_reloads_and_keeps_the_last_good_glossary(fake, tmp_path):
    import shutil

    from tests.conftest import SHIPPED

    data = tmp_path / "glossary"
    shutil.copytree(SHIPPED, data)
    proc = await run_bot(env_for(fake, tmp_path, GLOSARIO_DATA=str(data)), "run")
    try:
        await fake.wait_ready(timeout=30)
        await fake.wait_for(lambda: "global" in fake.commands)
        (data / "extra.yaml").write_text(
            "category: Extra\nterms:\n  - term: Federated Averaging\n    definition: Promedio federado.\n"
        )
        proc.send_signal(signal.SIGHUP)
        for _ in range(100):
            reply = await fake.response(await fake.command("termino", {"termino": "federated averaging"}))
            if reply["data"].get("embeds"):
                break
            await asyncio.sleep(0.1)
        assert reply["data"]["embeds"][0]["title"] == "Federated Averaging"
        (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: Roto\n    defintion: x\n")
        proc.send_signal(signal.SIGHUP)
        await asyncio.sleep(1.0)
        still = await fake.response(await fake.command("termino", {"termino": "federated averaging"}, user_id=9))
        assert still["data"]["embeds"][0]["title"] == "Federated Averaging"  # the last good glossary
    finally:
        proc.send_signal(signal.SIGTERM)
    code, out = await finish(proc)
    assert code == 0
    assert "glossary reload failed; still serving the previous one" in out
    assert f"{data / 'extra.yaml'}:4: clave desconocida 'defintion'" in out


async def test_missing_glossary_directory(fake, tmp_path):
    code, out = await finish(await run_bot(env_for(fake, tmp_path, GLOSARIO_DATA=str(tmp_path / "nada")), "run"))
    assert code == 1
    assert f"No existe la carpeta del glosario {tmp_path / 'nada'}" in out and "Traceback" not in out


async def test_database_problems_are_one_clear_paragraph(fake, tmp_path):
    import sqlite3

    (tmp_path / "un-archivo").write_text("x")
    corrupt = tmp_path / "corrupta.db"
    corrupt.write_bytes(b"no soy sqlite" * 200)
    newer = tmp_path / "nueva.db"
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 99")
    cases = {
        str(tmp_path / "un-archivo" / "sub" / "g.db"): "No se puede crear el directorio de la base de datos",
        str(corrupt): "no es una base de datos SQLite válida",
        str(newer): "más nuevo que el de esta versión del bot",
    }
    for db_path, message in cases.items():
        code, out = await finish(await run_bot(env_for(fake, tmp_path, GLOSARIO_DB=db_path), "run"))
        assert code == 1, out
        assert message in out and "Traceback" not in out


async def test_sync_command_publishes_once_and_records_the_hash(fake, tmp_path):
    code, out = await finish(await run_bot(env_for(fake, tmp_path), "sync"))
    assert code == 0, out
    assert "Comandos publicados globalmente" in out
    puts = [r for r in fake.requests if r[0] == "PUT"]
    assert len(puts) == 1
    import sqlite3

    with sqlite3.connect(tmp_path / "data" / "glosario.db") as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'commands_hash'").fetchone()[0]
    code, out = await finish(await run_bot(env_for(fake, tmp_path), "sync", "--guild", str(fake.guilds[0].id)))
    assert code == 0 and f"en el servidor {fake.guilds[0].id}" in out
    assert "termino" in [c["name"] for c in fake.commands[str(fake.guilds[0].id)]]


async def test_sigterm_while_postgresql_is_down_journals_and_exits_1(fake, tmp_path, postgres_url, postgres_cluster):
    import json

    journal = tmp_path / "data" / "pending.jsonl"
    env = env_for(fake, tmp_path, GLOSARIO_DB=postgres_url, GLOSARIO_JOURNAL=str(journal))
    proc = await run_bot(env, "run")
    try:
        await serving(fake, proc)
        with postgres_cluster.down():
            miss = await fake.response(await fake.command("termino", {"termino": "tokenización"}), timeout=15)
            assert "todavía no está" in miss["data"]["content"]  # answered from memory
            proc.send_signal(signal.SIGTERM)
            code, out = await finish(proc, within=12)
    finally:
        if proc.returncode is None:
            proc.kill()
    assert code == 1, out  # something acknowledged is journaled, not in the database: the operator is told
    assert "did not finish within" not in out  # (a stop that went as it should, not the deadline's exit)
    assert "journaled, not in the database yet" in out
    samples = [json.loads(line).get("sample") for line in journal.read_text().splitlines()]
    assert "tokenización" in samples
