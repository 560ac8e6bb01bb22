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
from bot.storage.tables import KEYS, TABLES
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
        # who was forgotten goes along: a log replayed into the copy must not bring them back
        await stores.erasure.forget_member(77, "hash-of-77", at="2026-12-03T12:00:00", dry_run=False)
        await stores.erasure.forget_server(G + 7, at="2026-12-03T12:00:00", dry_run=False)
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
        keys = {
            t: tuple(r[1] for r in sorted(conn.execute(f"PRAGMA table_info({t})"), key=lambda r: r[5]) if r[5])
            for t in tables
        }
    assert schema == TABLES  # a migration that adds a table or column must add it here too
    assert keys == KEYS


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
            async with stores.unit.transaction():
                forgotten = await stores.erasure.forgotten(["hash-of-77"], [G + 7])
            assert (forgotten.members, forgotten.guilds) == (
                {"hash-of-77": "2026-12-03T12:00:00"},
                {G + 7: "2026-12-03T12:00:00"},
            )
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


def test_rows_postgresql_refuses_are_each_named_nothing_is_copied_and_once_fixed_the_copy_goes(
    tmp_path, postgres_url, capsys
):
    """What SQLite keeps and PostgreSQL takes not (a hand edit, an older version): text in a number's column, a NUL
    in a text. Every such row is named by its table and key with PostgreSQL's reason (was a traceback at the first
    one); the destination stays empty, so that the same command works once they are fixed."""
    source = tmp_path / "g.db"
    asyncio.run(fill(source))
    with sqlite3.connect(source) as conn:
        (gap,) = conn.execute("SELECT MIN(id) FROM misses").fetchone()
        conn.execute("UPDATE misses SET count = 'muchas' WHERE id = ?", (gap,))
        conn.execute("INSERT INTO feedback VALUES (?, 'horovod', 'v1', 'unhelpful', 'falta' || char(0), '2026')", (G,))
    assert main(["migrate-data", "--from", str(source), "--to", postgres_url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("No he copiado nada: la base de datos de destino rechaza 6 de las filas del origen: ")
    assert f"misses (id {gap}): invalid input for column count: 'muchas'" in err
    assert f"miss_askers (miss_id {gap}, asker 'b'): insert or update on table" in err  # (its gap refused first)
    assert f"feedback (guild_id {G}, term_id 'horovod', voter 'v1'): invalid byte sequence" in err
    assert "\x00" not in err and "Corrígelas o bórralas en el origen" in err
    from tests.postgres import sql

    assert sql(postgres_url, "SELECT COUNT(*) FROM misses") == [(0,)]
    with sqlite3.connect(source) as conn:
        conn.execute("UPDATE misses SET count = 3 WHERE id = ?", (gap,))
        conn.execute("UPDATE feedback SET comment = 'falta' WHERE voter = 'v1'")
    assert main(["migrate-data", "--from", str(source), "--to", postgres_url]) == 0
