"""`glosario-bot run` as a real process against the fake Discord: start-up errors, serving, stopping."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from tests.conftest import ROOT
from tests.fake_discord.server import TOKEN


def env_for(fake, tmp_path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GLOSARIO_"))}
    env.update(
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        GLOSARIO_DB=str(tmp_path / "data" / "glosario.db"),
        LOG_LEVEL="DEBUG",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


async def run_bot(env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def finish(proc: asyncio.subprocess.Process, within: float = 30) -> tuple[int, str]:
    out, _ = await asyncio.wait_for(proc.communicate(), within)
    return proc.returncode, out.decode()


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
    import sqlite3

    with sqlite3.connect(tmp_path / "data" / "glosario.db") as conn:
        assert conn.execute("SELECT sample FROM misses").fetchall() == [("tokenización",)]
