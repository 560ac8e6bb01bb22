"""A real full disk under a real `glosario-bot run`, with the default settings (no fallback journal): what the bot
acknowledged is kept, and comes back once the disk has room again."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
from pathlib import Path

from tests.fake_discord.process import env_for, finish, run_bot, serving
from tests.helpers import eventually, fill, small_disk


def stored(db: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return [sample for (sample,) in conn.execute("SELECT sample FROM misses")]


async def ask(fake, queries: list[str]) -> None:
    for n, query in enumerate(queries):
        reply = await fake.response(await fake.command("termino", {"termino": query}, user_id=8000 + n))
        assert "todavía no está" in reply["data"]["content"]  # acknowledged


async def test_sigterm_on_a_full_disk_journals_every_acknowledged_gap_and_the_next_start_writes_them_once(
    fake, tmp_path
):
    data = tmp_path / "data"
    db, journal = data / "glosario.db", data / "glosario.db.pending.jsonl"
    before, while_full = [f"antes {n}" for n in range(5)], [f"lleno {n}" for n in range(30)]
    with small_disk(data):
        proc = await run_bot(env_for(fake, tmp_path, LOG_LEVEL="INFO"), "run")
        try:
            await serving(fake, proc)
            await ask(fake, before)
            await eventually(lambda: sorted(stored(db)) == sorted(before))
            filler = fill(data)
            await ask(fake, while_full)
            proc.send_signal(signal.SIGTERM)
            code, out = await finish(proc, within=12)
        finally:
            if proc.returncode is None:
                proc.kill()
        records = [json.loads(line) for line in journal.read_text().splitlines()] if journal.exists() else []
        kept = [r["sample"] for r in records if r["op"] == "miss"]
        assert sorted(kept) == sorted(while_full), out[-3000:]  # journaled at the stop, the disk still full
        assert code == 1 and "journaled, not in the database yet" in out
        filler.unlink()  # room again
        proc = await run_bot(env_for(fake, tmp_path, LOG_LEVEL="INFO"), "run")
        try:
            await serving(fake, proc)
            await eventually(lambda: not journal.exists())  # replayed
            proc.send_signal(signal.SIGTERM)
            code, out = await finish(proc, within=12)
        finally:
            if proc.returncode is None:
                proc.kill()
        assert code == 0, out[-3000:]
        assert sorted(stored(db)) == sorted(before + while_full)  # each once
