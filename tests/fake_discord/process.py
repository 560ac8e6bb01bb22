"""`glosario-bot` as a real process against the fake Discord: environment, start, finish (shared by tests)."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

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
        LANG="es_ES.UTF-8",
        LC_ALL="",
        PYTHONUNBUFFERED="1",
        GLOSARIO_QUESTIONS="off",  # the question path's model is loaded only by the tests about it
    )
    env.update(extra)
    return env


async def run_bot(env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    # Output goes to a file, not a pipe: a chatty DEBUG log must never block the bot on a full pipe.
    with tempfile.NamedTemporaryFile(prefix="glosario-bot-", suffix=".log", delete=False) as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *args, cwd=ROOT, env=env, stdout=log, stderr=asyncio.subprocess.STDOUT
        )
    proc.log_path = log.name  # type: ignore[attr-defined]
    return proc


async def finish(proc: asyncio.subprocess.Process, within: float = 30) -> tuple[int, str]:
    """Wait for the process to end; its exit code and everything it printed."""
    try:
        await asyncio.wait_for(proc.wait(), within)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, _read_and_remove(Path(proc.log_path))  # type: ignore[attr-defined]


def _read_and_remove(path: Path) -> str:
    out = path.read_text(encoding="utf-8", errors="replace")
    path.unlink()
    return out


async def serving(fake, proc: asyncio.subprocess.Process) -> None:
    """Wait until the bot process is connected and its commands are registered."""
    await fake.wait_ready(timeout=30)
    await fake.wait_for(lambda: "global" in fake.commands, timeout=30)
