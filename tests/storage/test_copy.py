"""`glosario-bot migrate-data`: a SQLite database's every row into PostgreSQL (and back), the salt included."""

from __future__ import annotations

import asyncio
import sqlite3

from bot.cli import main
from bot.core.daily import Schedule
from bot.core.normalize import normalize
from bot.core.status import Outcome
from bot.storage import open_stores
from bot.storage.records import GapRecord, LookupRecord
from bot.storage.tables import TABLES
from tests.storage.test_storage import miss

G = 424242424242424242  # a real snowflake's size: more than 32 bits


async def fill(path) -> dict:
    stores = await open_stores(path)
    try:
        salt = await stores.meta.salt()
        await stores.gaps.record_gaps(
            [miss("Tokenización", G, "a"), miss("tokenizacion", G, "b"), miss("embedings", G, "a", best_guess="x")]
        )
        await stores.usage.record_lookups([LookupRecord(G, "2026-12-03", Outcome.FOUND, "horovod", 7)])
        await stores.daily.configure(G, G + 1, Schedule(9, 30, "Europe/Madrid"))
        await stores.server_terms.save(G, "mi-termino", {"term": "Mi término"}, 5, "2026-12-03T10:00", previous_id=None)
        first = await stores.proposals.add(G, 9, "es-ES", {"term": "Propuesto"}, "2026-12-03T11:00:00", limit=5)
        return {
            "salt": salt,
            "gaps": [tuple(g) for g in await stores.gaps.gaps(guild_id=G, limit=100)],
            "outcomes": await stores.usage.outcomes(guild_id=G),
            "daily": await stores.daily.settings(G),
            "terms": [t.term_id for t in await stores.server_terms.terms(G)],
            "proposal": first,
        }
    finally:
        await stores.close()


def test_the_copy_knows_every_table_and_column_of_the_schema(tmp_path):
    async def create():
        await (await open_stores(tmp_path / "g.db")).close()

    asyncio.run(create())
    with sqlite3.connect(tmp_path / "g.db") as conn:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        schema = {t: tuple(r[1] for r in conn.execute(f"PRAGMA table_info({t})")) for t in tables}
    assert schema == TABLES  # a migration that adds a table or column must add it here too


def test_sqlite_to_postgresql_and_back_keeps_everything(tmp_path, postgres_url, capsys):
    source = tmp_path / "g.db"
    before = asyncio.run(fill(source))
    assert main(["migrate-data", "--from", f"sqlite:///{source}", "--to", postgres_url]) == 0
    assert f"filas de {len(TABLES)} tablas." in capsys.readouterr().out

    async def read_back() -> dict:
        stores = await open_stores(postgres_url)
        try:
            assert await stores.meta.salt() == before["salt"]  # distinct askers keep adding up
            assert [tuple(g) for g in await stores.gaps.gaps(guild_id=G, limit=100)] == before["gaps"]
            assert await stores.usage.outcomes(guild_id=G) == before["outcomes"]
            assert await stores.daily.settings(G) == before["daily"]
            assert [t.term_id for t in await stores.server_terms.terms(G)] == before["terms"]
            # new rows are numbered after the copied ones
            assert (
                await stores.proposals.add(G, 9, "es-ES", {"term": "Otra"}, "2026-12-04", limit=5) > before["proposal"]
            )
            await stores.gaps.record_gaps([GapRecord(G, "nueva", normalize("nueva"), "c", None, "lookup", "t")])
            (new,) = [g for g in await stores.gaps.gaps(guild_id=G, limit=100) if g.sample == "nueva"]
            assert new.id > max(g[0] for g in before["gaps"])
        finally:
            await stores.close()

    asyncio.run(read_back())
    assert main(["migrate-data", "--from", postgres_url, "--to", str(tmp_path / "back.db")]) == 0
    with sqlite3.connect(tmp_path / "back.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM misses").fetchone()[0] == len(before["gaps"]) + 1


def test_a_destination_with_data_is_refused_and_left_alone(tmp_path, postgres_url, capsys):
    asyncio.run(fill(tmp_path / "a.db"))
    assert main(["migrate-data", "--from", str(tmp_path / "a.db"), "--to", postgres_url]) == 0
    assert main(["migrate-data", "--from", str(tmp_path / "a.db"), "--to", postgres_url]) == 1
    assert "ya tiene datos" in capsys.readouterr().err
