"""The question path in a real `glosario-bot run` process: a SIGTERM during the first index build stops the
child process that embeds the terms between two batches, and the bot ends in time, cleanly."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

from bot.app.questions.cache import STOPPED
from bot.app.questions.sentence_model import SentenceModel
from tests.app.test_question_cache import sigterm_caught
from tests.fake_discord.process import env_for, finish, run_bot, serving
from tests.helpers import eventually
from tests.synthetic import generate


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("model")
    SentenceModel(folder).load()
    return folder


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


async def test_sigterm_during_the_first_build_stops_the_embedding_process(fake, tmp_path, compiled):
    data, cache = tmp_path / "glossary", tmp_path / "cache"
    generate(data, 2000)  # minutes of embedding: the build is still running when the signal comes
    shutil.copytree(compiled, cache)  # (the model already compiled: the child starts embedding at once)
    env = env_for(fake, tmp_path, GLOSARIO_DATA=str(data), GLOSARIO_CACHE_DIR=str(cache), GLOSARIO_QUESTIONS="on")
    proc = await run_bot(env, "run")
    try:
        await serving(fake, proc)
        child: list[int] = []

        def embedding() -> bool:
            child[:] = [pid for pid in children_of(proc.pid) if sigterm_caught(pid)]
            return bool(child)

        await eventually(embedding, timeout=60)
    finally:
        proc.send_signal(signal.SIGTERM)
    code, out = await finish(proc, within=15)
    assert code == 0, out
    said = [line for line in out.splitlines() if "embedding process" in line]
    assert any(f"the embedding process stopped (exit {STOPPED})" in line for line in said), said  # not killed
    assert not alive(child[0])
    assert "question path ready" not in out
    assert "Traceback" not in out
