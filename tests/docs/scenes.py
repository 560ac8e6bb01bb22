"""The interactions the documentation's pictures show, played against the real bot on the fake Discord: one
server with a fixed id and a fixed clock, so that the term of the day and the dates are the same on every run.

`python -m tests.docs.screenshots` draws what they answer; tests/docs/test_screenshots.py plays them again and
compares the answers with what the pictures were drawn from."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.discord_app.client import GlossaryBot
from tests.discord_app.conftest import Harness
from tests.fake_discord.server import MANAGE_MESSAGES, MEMBER_PERMISSIONS, FakeDiscord, Guild
from tests.helpers import eventually

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)  # a Wednesday morning
SERVER_ID = 1_100_000_000_000_000_001
MODERATOR = str(int(MEMBER_PERMISSIONS) | MANAGE_MESSAGES)
HERE = Path(__file__).resolve().parent
PICTURES = HERE.parents[1] / "docs" / "screenshots"

Play = Callable[[FakeDiscord, Harness, GlossaryBot], Awaitable[dict]]


@dataclass(frozen=True)
class Scene:
    name: str  # the picture: docs/screenshots/<name>.png, drawn from <name>.json
    invoked: str  # what the member used, as Discord shows it above the answer
    play: Play  # sends the interaction; returns the data of the bot's answer


async def _command(fake: FakeDiscord, name: str, options: dict | None = None, **kw) -> dict:
    return (await fake.response(await fake.command(name, options, **kw)))["data"]


async def _termino(fake, harness, bot) -> dict:
    return await _command(fake, "termino", {"termino": "horovod"})


async def _typo(fake, harness, bot) -> dict:
    return await _command(fake, "termino", {"termino": "paralelismo de modelos"})


async def _question(fake, harness, bot) -> dict:
    return await _command(fake, "glosario pregunta", {"texto": "framework de uber para entrenar con mpi"})


async def _daily(fake, harness, bot) -> dict:
    return await _command(fake, "termino-del-dia")


async def _explain(fake, harness, bot) -> dict:
    text = "¿Usamos Horovod o un servidor de parámetros para el sharding?"
    return (await fake.response(await fake.message_command("Explicar términos", text)))["data"]


# What members asked that the glossary does not have (with the near miss of _typo, asked before): user, query.
ASKED = [(11, "tokenización"), (12, "tokenizacion"), (13, "RLHF"), (14, "rlhf"), (15, "rlfh"), (16, "cuantización")]


async def _gaps(fake, harness, bot) -> dict:
    for user_id, query in ASKED:
        await _command(fake, "termino", {"termino": query}, user_id=user_id)
    await harness.flushed(bot)
    return await _command(fake, "glosario-admin pendientes", permissions=MODERATOR, user_id=900)


SCENES = (
    Scene("termino-horovod", "/termino termino: horovod", _termino),
    Scene("quisiste-decir", "/termino termino: paralelismo de modelos", _typo),
    Scene("pregunta", "/glosario pregunta texto: framework de uber para entrenar con mpi", _question),
    Scene("termino-del-dia", "/termino-del-dia", _daily),
    Scene("explicar-terminos", "Explicar términos", _explain),
    Scene("pendientes", "/glosario-admin pendientes", _gaps),
)


def shown(data: dict) -> dict:
    """What a picture shows of an answer: its text, embeds, buttons and menus (not their ids: those carry hashes
    and signatures a picture does not show)."""
    embed_keys = ("author", "title", "url", "description", "fields", "footer", "color")
    item_keys = ("type", "style", "label", "emoji", "disabled", "placeholder", "url")
    return {
        "content": data.get("content"),
        "ephemeral": bool((data.get("flags") or 0) & 64),
        "embeds": [{k: embed[k] for k in embed_keys if k in embed} for embed in data.get("embeds") or []],
        "components": [
            [{k: item[k] for k in item_keys if k in item} for item in row["components"]]
            for row in data.get("components") or []
        ],
    }


@contextlib.asynccontextmanager
async def served(tmp_path: Path, encoder) -> AsyncIterator[tuple[FakeDiscord, Harness, GlossaryBot]]:
    """The bot on a fake Discord with one server, the clock at NOW, the question path on with `encoder` (a loaded
    SentenceModel) and ready."""
    guild = Guild(id=SERVER_ID, channel_ids=[SERVER_ID + 10, SERVER_ID + 11])
    fake = await FakeDiscord([guild]).start()
    harness = Harness(fake, tmp_path)
    try:
        bot = await harness.start(clock=lambda: NOW, questions=encoder)
        await eventually(lambda: bot.app.questions_ready, timeout=60)
        yield fake, harness, bot
    finally:
        await harness.stop_all()
        await fake.stop()


async def answers(tmp_path: Path, encoder) -> dict[str, dict]:
    """Every scene played in order, by name: what a picture of its answer shows."""
    async with served(tmp_path, encoder) as (fake, harness, bot):
        return {scene.name: shown(await scene.play(fake, harness, bot)) for scene in SCENES}
