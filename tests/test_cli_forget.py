"""`glosario-bot forget-user` and `forget-guild`: a dry run first, then with --yes what was removed, counted."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from bot.cli import main
from bot.cli._words import Words
from bot.core.gaps import asker_hash
from bot.storage import open_stores
from bot.storage.records import GapRecord, record_fields
from tests.storage.test_erasure import AT, MEMBER, OTHER, G, H, fill


def seed(path) -> str:
    async def go() -> str:
        stores = await open_stores(path)
        try:
            salt = await stores.meta.salt()
            await fill(stores, salt)
            return salt
        finally:
            await stores.close()

    return asyncio.run(go())


def journal_line(guild: int, asker: str) -> str:
    record = GapRecord(guild, "pendiente", "pendiente", asker, None, "lookup", AT)
    return json.dumps({"op": record.OP, "id": f"x-{guild}-{asker}", **record_fields(record)})


def test_forget_user_counts_first_then_removes_with_yes(tmp_path, capsys, monkeypatch):
    db, journal = tmp_path / "g.db", tmp_path / "g.db.pending.jsonl"
    salt = seed(db)
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    journal.write_text(journal_line(G, mine) + "\n" + journal_line(G, theirs) + "\n")
    monkeypatch.setenv("GLOSARIO_DB", str(db))

    assert main(["forget-user", str(MEMBER)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Prueba (sin --yes): no se ha borrado nada. Esto es lo que se borraría (miembro {MEMBER})")
    assert "  proposals: 2 filas\n" in out and "  miss_askers: 2 filas\n" in out
    assert "  server_terms, que se queda a nombre de «un miembro»: 2 filas\n" in out
    assert "escrituras pendientes en los journals: 1\n" in out and "repite el comando con --yes" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM proposals WHERE user_id = ?", (MEMBER,)).fetchone() == (2,)
    assert len(journal.read_text().splitlines()) == 2  # a dry run changes nothing

    assert main(["forget-user", str(MEMBER), "--yes"]) == 0
    done = capsys.readouterr().out
    assert done.startswith(f"Hecho (miembro {MEMBER}): borrado, por tabla:")
    assert done.splitlines()[1:] == out.splitlines()[1:-1]  # what was announced, table by table
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM proposals WHERE user_id = ?", (MEMBER,)).fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM miss_askers WHERE asker = ?", (mine,)).fetchone() == (0,)
        assert conn.execute("SELECT author_id FROM server_terms WHERE term_id = 'mio'").fetchall() == [(0,), (0,)]
    assert journal.read_text() == journal_line(G, theirs) + "\n"

    assert main(["forget-user", str(MEMBER), "--yes"]) == 0
    assert "  (nada)\n" in capsys.readouterr().out


def test_forget_guild_removes_every_row_of_that_server_only(tmp_path, capsys, monkeypatch):
    db = tmp_path / "g.db"
    seed(db)
    monkeypatch.setenv("GLOSARIO_DB", str(db))
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert main(["forget-guild", str(G)]) == 0
    assert "Dry run (no --yes): nothing was removed" in capsys.readouterr().out
    assert main(["forget-guild", str(G), "--yes"]) == 0
    out = capsys.readouterr().out
    assert f"Done (server {G}): removed, per table:" in out and "  server_term_versions: 3 rows\n" in out
    with sqlite3.connect(db) as conn:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            if "guild_id" in columns:
                assert conn.execute(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (G,)).fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM server_terms WHERE guild_id = ?", (H,)).fetchone() == (2,)


def test_forget_needs_an_existing_database_and_a_real_id(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "nada.db"))
    assert main(["forget-user", "5", "--yes"]) == 1
    assert "No hay base de datos" in capsys.readouterr().err
    assert not (tmp_path / "nada.db").exists()
    try:
        main(["forget-user", "0"])
    except SystemExit as exit_:
        assert exit_.code == 2
    assert "no es un número entero mayor que 0" in capsys.readouterr().err


def test_forget_user_and_forget_guild_on_postgresql_reach_its_journals_too(postgres_url, tmp_path, capsys, monkeypatch):
    from tests.postgres import sql

    monkeypatch.chdir(tmp_path)  # (with PostgreSQL the journals are in data/)
    monkeypatch.setenv("GLOSARIO_DB", postgres_url)
    salt = seed(postgres_url)
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    journal = tmp_path / "data" / "glosario.0-of-2.pending.jsonl"  # (one of two processes')
    journal.parent.mkdir()
    journal.write_text("\n".join([journal_line(G, mine), journal_line(H, theirs), journal_line(G, theirs)]) + "\n")

    assert main(["forget-user", str(MEMBER), "--yes"]) == 0
    assert "  miss_askers: 2 filas\n" in capsys.readouterr().out
    assert sql(postgres_url, f"SELECT COUNT(*) FROM miss_askers WHERE asker = '{mine}'") == [(0,)]
    assert sql(postgres_url, f"SELECT COUNT(*) FROM proposals WHERE user_id = {MEMBER}") == [(0,)]
    assert main(["forget-guild", str(G), "--yes"]) == 0
    assert sql(postgres_url, f"SELECT COUNT(*) FROM misses WHERE guild_id = {G}") == [(0,)]
    assert sql(postgres_url, f"SELECT COUNT(*) FROM server_terms WHERE guild_id = {H}") == [(2,)]
    assert journal.read_text() == journal_line(H, theirs) + "\n"


NEBULA = {"term": "Clúster Nebula", "definition": "El clúster de GPUs del equipo.", "related": "Horovod"}
ORION = {"term": "Clúster Orión", "definition": "El clúster de CPUs del equipo, para preprocesar los datos."}


def test_forget_guild_drops_its_vectors_from_the_question_cache_but_keeps_those_another_server_uses(
    tmp_path, capsys, monkeypatch
):
    import numpy as np

    from bot.app.catalog import CatalogHolder, load_catalog
    from bot.app.community.server_terms import ServerTerms
    from bot.app.questions.sentence_model import model_name
    from bot.app.questions.service import Questions
    from bot.core.questions import text_key
    from tests.app.test_question_cache import CountingEncoder
    from tests.conftest import SHIPPED

    db, cache = tmp_path / "g.db", tmp_path / "cache"  # (the cache folder's default: beside the database)
    model = CountingEncoder()
    model.name = model_name()  # the bot's model, as far as the cache file is concerned

    async def serve() -> dict[int, list[str]]:
        """What a bot does when members ask in G and H: each server's texts embedded into the cache folder."""
        stores = await open_stores(db)
        try:
            for guild, term_id, fields in ((G, "nebula", NEBULA), (H, "nebula", NEBULA), (G, "orion", ORION)):
                await stores.server_terms.save(guild, term_id, fields, MEMBER, AT, previous_id=None)
            catalog = CatalogHolder(load_catalog(SHIPPED))
            terms = ServerTerms(stores.server_terms, catalog, stores.gaps, lambda: None)
            questions = Questions(catalog, cache, encoder=model)

            async def asked_in(guild: int) -> list[str]:
                overlay = await terms.prepare(guild)
                await asyncio.to_thread(questions.ask_now, "el cluster de gpus del equipo", overlay)
                return questions.server_texts(overlay.glossary)

            texts = {G: await asked_in(G), H: await asked_in(H)}
            edited = {**ORION, "definition": "Los nodos de CPU del equipo."}  # (its first version's vector stays)
            await stores.server_terms.save(G, "orion", edited, MEMBER, AT, previous_id="orion")
            terms.forget_cached(G)
            texts[G] += await asked_in(G)
            return texts
        finally:
            await stores.close()

    def cached() -> set[bytes]:
        return set(np.load(cache / f"vectors-{model.name}-servers.npy")["key"].tolist())

    def keys(texts: list[str]) -> set[bytes]:
        return {text_key(text, model.name).encode("ascii") for text in texts}

    texts = asyncio.run(serve())
    assert cached() == keys(texts[G] + texts[H]) and keys(texts[G]) - keys(texts[H])
    assert keys(texts[G]) & keys(texts[H])  # (Nebula's text, in both)
    monkeypatch.setenv("GLOSARIO_DB", str(db))
    assert main(["forget-guild", str(G)]) == 0
    assert cached() == keys(texts[G] + texts[H])  # a dry run changes nothing
    assert main(["forget-guild", str(G), "--yes"]) == 0
    capsys.readouterr()
    assert cached() == keys(texts[H])  # G's own went, its earlier version's too; Nebula's, which H has too, stays


def test_forgetting_while_another_process_holds_the_lock_says_why_in_the_readers_language(
    tmp_path, capsys, monkeypatch
):
    """SQLite's own words ("database is locked") are said as the catalogues say them, in Spanish and in English."""
    db = tmp_path / "g.db"
    seed(db)
    monkeypatch.setenv("GLOSARIO_DB", str(db))
    other_process = sqlite3.connect(db, isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")  # (a running bot in the middle of its writes)
    try:
        said = {}
        for lang in ("es_ES.UTF-8", "en_US.UTF-8"):
            monkeypatch.setenv("LANG", lang)
            code = main(["forget-guild", str(G), "--yes"])
            said[lang] = (code, capsys.readouterr().err.strip())
    finally:
        other_process.rollback()
        other_process.close()
    assert said["es_ES.UTF-8"] == (1, Words("es")("forget_failed", error="otro proceso la tiene bloqueada"))
    assert said["en_US.UTF-8"] == (1, Words("en")("forget_failed", error="another process holds its lock"))
