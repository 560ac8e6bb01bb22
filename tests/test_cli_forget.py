"""`glosario-bot forget-user` and `forget-guild`: a dry run first, then with --yes what was removed, counted."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from bot.cli import main
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
