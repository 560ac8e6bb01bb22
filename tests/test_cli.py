"""The editors' command line, run in-process (and once as a real subprocess)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli._words import Words
from tests.conftest import ROOT, SHIPPED
from tests.helpers import run_cli as run


def test_lookup_text(capsys):
    code, out, _ = run(capsys, "lookup", "horovod")
    assert code == 0
    assert out.startswith("Horovod\n")
    assert "Framework de código abierto desarrollado por Uber" in out
    assert "Relacionados: AllReduce, TensorFlow Distribuido" in out
    assert "https://github.com/horovod/horovod" in out


def test_lookup_several_queries_json(capsys):
    code, out, _ = run(capsys, "lookup", "--json", "parameter server", "paralelismo de modelos", "xyzzy")
    assert code == 1  # not every query was found
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["status"] for r in rows] == ["found", "ambiguous", "not_found"]
    assert rows[0]["query"] == "parameter server"
    assert set(rows[0]["term"]) == {"id", "term", "en", "aliases", "category", "definition", "related", "links"}
    assert rows[0]["term"]["en"] == "Parameter Server"
    assert rows[1]["term"] is None
    assert rows[1]["suggestions"][0] == {
        "id": "paralelismo-de-datos",
        "term": "Paralelismo de Datos",
        "score": rows[1]["suggestions"][0]["score"],
    }
    assert rows[2]["suggestions"] == []


def test_lookup_suggests_in_text(capsys):
    _, out, _ = run(capsys, "lookup", "tensorflow")
    assert "¿Quisiste decir: TensorFlow Distribuido?" in out


def test_search(capsys):
    code, out, _ = run(capsys, "search", "parquet")
    assert code == 0 and out.startswith("Petastorm")
    code, out, _ = run(capsys, "search", "--json", "gradientes")
    hits = [json.loads(line) for line in out.splitlines()]  # JSON Lines, like lookup --json
    assert {hit["id"] for hit in hits} >= {"allreduce", "servidor-de-parametros"}


def test_validate_ok(capsys):
    code, out, _ = run(capsys, "validate")
    assert code == 0
    assert out.startswith("OK: 17 términos en 1 categoría")


def test_validate_reports_every_problem(tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(SHIPPED, bad)
    path = bad / "aprendizaje_automatico_distribuido.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "    definition: >-\n      Framework de código abierto desarrollado por Uber",
        "    defintion: >-\n      Framework de código abierto desarrollado por Uber",
        1,
    )
    text = text.replace("related: [Vertex AI, MLflow, Kubeflow]", "related: [Vertex IA, MLflow, Kubeflow]")
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "validate", str(bad))
    assert code == 1
    lines = out.splitlines()
    assert any(line.startswith(f"{path}:") and "clave desconocida 'defintion'" in line for line in lines)
    assert any(
        line.startswith(f"{path}:") and "'Vertex IA'" in line and "¿querías decir 'Vertex AI'?" in line
        for line in lines
    )
    assert "problemas" in err


def test_data_option_and_env(tmp_path, capsys, monkeypatch):
    (tmp_path / "glossary.yaml").write_text("title: Otro\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text("category: C\nterms:\n  - term: Zeta\n    definition: Letra.\n", encoding="utf-8")
    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "zeta")
    assert code == 0 and out.startswith("Zeta")
    monkeypatch.setenv("GLOSARIO_DATA", str(tmp_path))
    code, out, _ = run(capsys, "list")
    assert out == "C\n  Zeta\n"


def test_invalid_glossary_is_reported_not_raised(tmp_path, capsys):
    (tmp_path / "glossary.yaml").write_text("title: [\n", encoding="utf-8")
    code, _, err = run(capsys, "--data", str(tmp_path), "lookup", "x")
    assert code == 1
    assert "glossary.yaml:2: YAML mal formado" in err


def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "  Servidor de Parámetros — Parameter Server" in out
    assert out.count("\n  ") == 17


@pytest.mark.parametrize("entry", [["-m", "bot"]])
def test_module_entry_point(entry):
    proc = subprocess.run(
        [sys.executable, *entry, "lookup", "--json", "Horovód"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["term"]["id"] == "horovod"


async def _seed_misses(path):
    from bot.storage import open_stores
    from bot.storage.records import GapRecord

    stores = await open_stores(path)
    for guild, text, asker in [(5, "embeddings", "a"), (5, "embeddings", "b"), (6, "rag", "a")]:
        await stores.gaps.record_gaps([GapRecord(guild, text, text, asker, None, "lookup", "2026-12-02T10:00:00")])
    await stores.close()


def test_misses_lists_gaps_most_asked_first(tmp_path, capsys, monkeypatch):
    import asyncio

    path = tmp_path / "g.db"
    asyncio.run(_seed_misses(path))
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    code, out, _ = run(capsys, "misses", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["sample"], r["count"], r["askers"], r["guild_id"]) for r in rows] == [
        ("embeddings", 2, 2, 5),
        ("rag", 1, 1, 6),
    ]
    code, out, _ = run(capsys, "misses", "--guild", "6")
    assert "rag" in out and "embeddings" not in out
    code, out, _ = run(capsys, "misses", "--status", "ignored")
    assert "No hay consultas" in out


def a_gap_asked_as(text: str, tmp_path, monkeypatch) -> None:
    """A database (GLOSARIO_DB) holding one gap, asked as `text` (a member's own text, whatever it holds)."""
    import asyncio

    from bot.storage import open_stores
    from bot.storage.records import GapRecord

    async def seed() -> None:
        stores = await open_stores(tmp_path / "g.db")
        await stores.gaps.record_gaps([GapRecord(5, text, text, "a", None, "lookup", "2026-12-02T10:00:00")])
        await stores.close()

    asyncio.run(seed())
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))


def test_the_gaps_table_shows_a_member_s_escape_sequences_as_text(tmp_path, capsys, monkeypatch):
    hostile = "\x1b]0;hacked\x07\x1b[2Jborra\npantalla"  # (a terminal title, a cleared screen, a line break)

    a_gap_asked_as(hostile, tmp_path, monkeypatch)
    code, out, _ = run(capsys, "gaps")
    assert code == 0 and "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;hacked\\x07\\x1b[2Jborra\\npantalla" in out  # (one row, escapes shown as text)
    code, out, _ = run(capsys, "gaps", "--json")
    assert json.loads(out)["sample"] == hostile  # (the data itself, unchanged, for programs)


def test_a_lookup_says_a_long_or_unprintable_query_back_on_one_short_line(capsys):
    code, out, _ = run(capsys, "lookup", "zq" * 500)
    assert code == 1 and out.strip() == Words("es")("not_in_glossary", query="zq" * 49 + "z…")
    code, out, _ = run(capsys, "lookup", "zq\x1b[31m  rojo\nx")
    assert out.strip() == Words("es")("not_in_glossary", query="zq\\x1b[31m rojo x")


def test_misses_without_database(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "nada.db"))
    code, _, err = run(capsys, "misses")
    assert code == 1 and f"No hay base de datos en {(tmp_path / 'nada.db').resolve()}" in err
    assert "GLOSARIO_DB" in err


def test_invite_url_from_app_id_env_or_token(capsys, monkeypatch):
    import base64

    from bot.cli._hosting import INVITE_PERMISSIONS, application_id_from_token

    assert INVITE_PERMISSIONS == 1024 + 2048 + 16384 + 32768 + 65536
    code, out, _ = run(capsys, "invite-url", "--app-id", "42")
    server, user = (line.split()[-1] for line in out.strip().splitlines())
    assert server == (
        "https://discord.com/oauth2/authorize?client_id=42&integration_type=0&scope=bot+applications.commands"
        "&permissions=117760"
    )
    assert user == "https://discord.com/oauth2/authorize?client_id=42&integration_type=1&scope=applications.commands"
    token = base64.b64encode(b"900000000000000001").decode().rstrip("=") + ".GhIjKl.secret"
    assert application_id_from_token(token) == 900000000000000001
    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.delenv("DISCORD_APPLICATION_ID", raising=False)
    code, out, _ = run(capsys, "invite-url")
    assert "client_id=900000000000000001" in out and "secret" not in out
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    code, _, err = run(capsys, "invite-url")
    assert code == 2 and "--app-id" in err


def test_health_reads_the_heartbeat_and_the_database(tmp_path, capsys, monkeypatch):
    import asyncio
    from datetime import UTC, datetime, timedelta

    from bot.app.health import Health, check, write_heartbeat
    from bot.storage.db import Database

    db_path = tmp_path / "g.db"

    async def create():
        await (await Database.open(db_path)).close()

    asyncio.run(create())
    now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    beat = tmp_path / "heartbeat"
    assert check(beat, db_path, now).healthy is False
    write_heartbeat(beat, now - timedelta(seconds=20))
    assert check(beat, db_path, now) == Health(True, "health_ok", {"seconds": 20, "db": db_path, "shards": "-"})
    write_heartbeat(beat, now, None, {0: True, 1: True})  # a process running shards 0 and 1: both connected
    assert check(beat, db_path, now).details["shards"] == "0, 1"
    write_heartbeat(beat, now, None, {0: True, 1: False, 2: False})
    down = check(beat, db_path, now)
    assert (down.healthy, down.reason, down.details) == (False, "health_shards_down", {"down": "1, 2", "count": 3})
    write_heartbeat(beat, now - timedelta(seconds=20))
    stale = check(beat, db_path, now + timedelta(minutes=5))
    assert stale.healthy is False and stale.details["limit"] == 90
    write_heartbeat(beat, datetime.now(UTC))
    monkeypatch.setenv("GLOSARIO_DB", str(db_path))
    code, out, _ = run(capsys, "health")
    assert code == 0 and out.startswith("en orden: conectado a Discord hace")
    db_path.write_bytes(b"roto" * 100)
    code, out, _ = run(capsys, "health")
    assert code == 1 and "no abre" in out


def test_daily_is_deterministic_and_follows_the_recorded_history(tmp_path, capsys, monkeypatch):
    import asyncio
    from datetime import UTC, date, datetime, timedelta

    from bot.core.daily import DailyEntry
    from bot.storage.daily import SqlDailyStore
    from bot.storage.db import Database

    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    soon = (datetime.now(UTC).date() + timedelta(days=3)).isoformat()
    code, first, _ = run(capsys, "daily", "--guild", "5", "--date", soon)
    _, again, _ = run(capsys, "daily", "--guild", "5", "--date", soon)
    assert code == 0 and first == again and first.startswith(f"Término del día ({soon}, servidor 5)")

    async def record():
        db = await Database.open(tmp_path / "g.db")
        await SqlDailyStore(db).record_pick(5, DailyEntry(date.fromisoformat(soon), "horovod", 0))
        await db.close()

    asyncio.run(record())
    _, shown, _ = run(capsys, "daily", "--guild", "5", "--date", soon)
    assert "\nHorovod\n" in shown  # what the bot picked for that day
    code, _, err = run(capsys, "daily", "--guild", "5", "--date", "9999-12-31")
    assert code == 1 and "No puedo saber el término del 9999-12-31" in err
    _, one, _ = run(capsys, "daily", "--guild", "5", "--date", "2030-03-03")
    _, other, _ = run(capsys, "daily", "--guild", "5", "--date", "2030-03-04")
    assert "previsión" in one and one.split("\n", 2)[2] != other.split("\n", 2)[2]


def test_daily_for_a_past_date_shows_what_was_recorded_that_day_or_says_nothing_was(tmp_path, capsys, monkeypatch):
    """A past date is history: each day its own recorded term, never today's pick relabelled."""
    import asyncio
    from datetime import UTC, datetime, timedelta

    from bot.cli._words import Words
    from bot.core.daily import DailyEntry
    from bot.storage.daily import SqlDailyStore
    from bot.storage.db import Database

    say = Words("es")
    today = datetime.now(UTC).date()
    days = [today - timedelta(days=n) for n in (40, 30, 20, 10)]
    recorded = dict(zip(days[:3], ["horovod", "allreduce", "petastorm"], strict=True))
    names = {"horovod": "Horovod", "allreduce": "AllReduce", "petastorm": "Petastorm"}

    async def record():
        db = await Database.open(tmp_path / "g.db")
        for day, term_id in recorded.items():
            await SqlDailyStore(db).record_pick(5, DailyEntry(day, term_id, 0))
        await SqlDailyStore(db).record_pick(5, DailyEntry(days[3], "no-longer-a-term", 0))
        await db.close()

    asyncio.run(record())
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    for day, term_id in recorded.items():
        code, out, _ = run(capsys, "daily", "--guild", "5", "--date", day.isoformat())
        assert code == 0 and out.startswith(say("daily_heading", day=day.isoformat(), guild=5, note=""))
        assert f"\n{names[term_id]}\n" in out, day
    code, out, _ = run(capsys, "daily", "--guild", "5", "--date", days[3].isoformat())
    expected = say("daily_recorded_elsewhere", day=days[3].isoformat(), guild=5, id="no-longer-a-term")
    assert code == 0 and out.strip() == expected
    never = (today - timedelta(days=5)).isoformat()
    code, out, _ = run(capsys, "daily", "--guild", "5", "--date", never)
    assert code == 1 and out.strip() == say("daily_not_recorded", day=never, guild=5)
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "none.db"))  # no database at all: no history either
    code, out, _ = run(capsys, "daily", "--date", "1999-01-01")
    assert code == 1 and out.strip() == say("daily_not_recorded", day="1999-01-01", guild=0)
    assert not (tmp_path / "none.db").exists()


def test_misses_formats_and_resolve_ignore_by_id(tmp_path, capsys, monkeypatch):
    import asyncio

    import yaml

    path = tmp_path / "g.db"
    asyncio.run(_seed_misses(path))
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    _, out, _ = run(capsys, "misses", "--format", "csv")
    assert out.splitlines()[0].startswith("id,guild_id,query") and len(out.splitlines()) == 3
    _, out, _ = run(capsys, "misses", "--format", "yaml", "--guild", "5")
    assert [t["term"] for t in yaml.safe_load(out)["terms"]] == ["embeddings"]
    rows = {
        json.loads(line)["sample"]: json.loads(line)["id"] for line in run(capsys, "misses", "--json")[1].splitlines()
    }
    code, out, _ = run(capsys, "resolve", str(rows["embeddings"]), "--term", "horovd")
    assert code == 0 and "(→ horovod)" in out
    code, out, err = run(capsys, "ignore", str(rows["rag"]), "999")
    assert code == 1 and out.startswith("1 de 2") and "No hay ninguna consulta con el id 999" in err
    _, out, _ = run(capsys, "misses", "--json", "--status", "all")
    assert {
        (json.loads(r)["sample"], json.loads(r)["status"], json.loads(r)["resolved_term"]) for r in out.splitlines()
    } == {("embeddings", "resolved", "horovod"), ("rag", "ignored", None)}
    code, _, err = run(capsys, "resolve", "1", "--term", "quantum foam")
    assert code == 1 and "no es un término" in err


def test_the_gaps_stubs_carry_the_glossary_s_own_title(tmp_path, capsys, monkeypatch):
    """The title `site` gives the page (glossary.yaml's), not the shipped glossary's name whatever the glossary."""
    import asyncio

    import yaml

    path = tmp_path / "g.db"
    asyncio.run(_seed_misses(path))
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    data = tmp_path / "propio"
    data.mkdir()
    (data / "glossary.yaml").write_text("title: Vocabulario de Robótica\nlanguage: es\n", encoding="utf-8")
    (data / "c.yaml").write_text("category: C\nterms:\n  - term: Zeta\n    definition: Letra.\n", encoding="utf-8")
    for lang in ("es", "en"):
        say = Words(lang)
        monkeypatch.setenv("LANG", "en_US.UTF-8" if lang == "en" else "es_ES.UTF-8")
        code, out, _ = run(capsys, "--data", str(data), "gaps", "--format", "yaml", "--guild", "5")
        title = say("export_title", glossary="Vocabulario de Robótica", where=say("export_guild", guild=5))
        assert code == 0 and out.splitlines()[0] == f"# {title}" and "Glosario IA" not in out
        assert [t["term"] for t in yaml.safe_load(out)["terms"]] == ["embeddings"]
    code, _, err = run(capsys, "--data", str(tmp_path / "ninguno"), "gaps", "--format", "yaml")
    assert code == 1 and "ninguno" in err  # (no glossary, no title: said, as every command on it says it)
    assert run(capsys, "--data", str(tmp_path / "ninguno"), "gaps", "--format", "csv")[0] == 0  # (a list needs none)


def test_data_works_before_and_after_the_command(tmp_path, capsys):
    data = tmp_path / "g"
    shutil.copytree(SHIPPED, data)
    (data / "extra.yaml").write_text("category: Extra\nterms:\n  - term: Cuantización\n    definition: Menos bits.\n")
    for argv in (["--data", str(data), "lookup", "cuantizacion"], ["lookup", "--data", str(data), "cuantizacion"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and out.startswith("Cuantización"), argv


def test_misses_is_whole_by_default_and_a_limited_list_says_so(tmp_path, capsys, monkeypatch):
    import asyncio

    from bot.storage import open_stores
    from bot.storage.records import GapRecord

    path = tmp_path / "g.db"

    async def seed():
        stores = await open_stores(path)
        await stores.gaps.record_gaps(
            [GapRecord(1, f"q{n:03d}", f"q{n:03d}", "a", None, "lookup", "t") for n in range(154)]
        )
        await stores.close()

    asyncio.run(seed())
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    assert len(run(capsys, "misses", "--json")[1].splitlines()) == 154
    assert len(run(capsys, "misses", "--format", "csv")[1].splitlines()) == 155  # and the header
    code, out, _ = run(capsys, "misses", "--limit", "100")
    assert code == 0 and out.rstrip().endswith("100 de 154 consultas (sin --limit salen todas)")
    _, out, err = run(capsys, "misses", "--format", "yaml", "--limit", "100")
    assert "100 de 154" in err and "100 de 154" not in out  # the file stays a clean term file
    for bad in ("0", "-3", "diez"):
        with pytest.raises(SystemExit) as info:
            main(["misses", "--limit", bad])
        assert info.value.code == 2 and "no es un número entero mayor que 0" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["csv", "yaml", "table"])
def test_json_and_format_together_are_refused(capsys, fmt):
    with pytest.raises(SystemExit) as info:
        main(["misses", "--json", "--format", fmt])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--json y --format no van juntos" in err
    assert err.startswith("uso: glosario-bot gaps [-h]")  # (the usage of the command, not the list of commands)
    with pytest.raises(SystemExit):
        main(["resolve"])
    assert capsys.readouterr().err.startswith("uso: glosario-bot resolve [-h]")


def test_invite_url_refuses_an_id_that_is_not_one(capsys):
    with pytest.raises(SystemExit) as info:
        main(["invite-url", "--app-id", "-5"])
    assert info.value.code == 2 and "'-5' no es un número entero mayor que 0" in capsys.readouterr().err


def test_read_only_commands_work_on_a_read_only_database(tmp_path, capsys, monkeypatch):
    import asyncio
    import os

    path = tmp_path / "g.db"
    asyncio.run(_seed_misses(path))
    path.chmod(0o444)
    # root writes through permission bits: there the file is made immutable instead
    root = os.geteuid() == 0
    if root and (shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode):
        pytest.skip("running as root on a file system without chattr +i")
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    try:
        code, out, err = run(capsys, "misses")
        assert code == 0 and "embeddings" in out, err
        assert "abierta" in out and " open " not in out  # statuses in the table's language
        code, out, err = run(capsys, "daily", "--guild", "5")
        assert code == 0, err
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(path)], check=True)


def test_the_command_line_speaks_one_language(capsys, monkeypatch):
    for argv in (["--help"], ["misses", "--help"], ["lookup", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert "uso:" in out and "opciones" in out
        for english in ("usage:", "positional arguments", "options:", "show this help"):
            assert english not in out, (argv, english)
    with pytest.raises(SystemExit):
        main(["ignore"])
    err = capsys.readouterr().err
    assert "faltan estos argumentos" in err and "the following arguments" not in err
    with pytest.raises(SystemExit):
        main(["misses", "--status", "cerradas"])
    assert "opción no válida" in capsys.readouterr().err
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    code, out, _ = run(capsys, "lookup", "paralelismo de modelos")
    assert code == 1 and out.startswith("“paralelismo de modelos” is not in the glossary. Did you mean:")
    with pytest.raises(SystemExit):
        main(["misses", "--help"])
    out = capsys.readouterr().out
    assert "usage:" in out and "questions the bot could not answer" in out and "consultas" not in out


def test_every_placeholder_in_the_help_is_in_the_help_language():
    """argparse names a value after its option (`--guild GUILD`) unless told otherwise: every argument that takes
    a value names it in the help's language, or with a name both languages share (ID, N, URI, URL, LOG)."""
    from bot.cli._commands import argument_parser as _parser
    from bot.cli._words import Words

    shared = {"ID", "N", "URI", "URL", "LOG"}
    seen: dict[str, set[str]] = {}
    for lang in ("es", "en"):
        parser = _parser(Words(lang))
        (commands,) = [a for a in parser._actions if a.dest == "command"]
        for name, sub in [("", parser), *commands.choices.items()]:
            for action in sub._actions:
                if action.nargs == 0 or action.choices is not None or action.dest in ("help", "command"):
                    continue
                assert action.metavar is not None, (lang, name, action.dest)  # (else argparse's English dest)
                seen.setdefault(lang, set()).add(action.metavar)
    assert {"CARPETA", "ID_SERVIDOR", "ID_USUARIO", "TÉRMINO", "FECHA", "CAMPO=COLUMNA,…"} <= seen["es"]
    assert {"DIR", "GUILD_ID", "USER_ID", "TERM", "DATE", "FIELD=COLUMN,…"} <= seen["en"]
    assert not (seen["es"] & seen["en"]) - shared, seen["es"] & seen["en"]


def test_every_argument_has_help_and_there_is_a_version(capsys):
    from bot import __version__
    from bot.cli._commands import argument_parser as _parser
    from bot.cli._words import Words

    parser = _parser(Words("es"))
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    for name, sub in commands.choices.items():
        assert sub.description, name
        for action in sub._actions:
            assert action.help, (name, action.dest)
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"glosario-bot {__version__}"


def test_every_subcommand_is_named_once_and_bound_to_a_handler():
    from bot.cli._commands import COMMANDS

    names = [name for command in COMMANDS for name in (command.name, *command.aliases)]
    assert len(names) == len(set(names))
    for command in COMMANDS:
        assert callable(command.load()), command.handler


def test_english_locale_gets_english_reports_and_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "glossary.yaml").write_text("title: X\n")
    (bad / "a.yaml").write_text("category: C\nterms:\n  - term: A\n    defintion: x\n")
    code, out, err = run(capsys, "validate", str(bad))
    assert code == 1
    assert f"{bad / 'a.yaml'}:4: unknown key 'defintion' in the term: did you mean 'definition'?" in out
    assert f"{bad / 'a.yaml'}:3: the definition ('definition') of this term is missing: it is required" in out
    assert err.strip() == f"2 problems in {bad}"
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "none.db"))
    code, _, err = run(capsys, "misses")
    assert code == 1 and err.startswith("There is no database at") and "GLOSARIO_DB" in err
    (tmp_path / "newer.db").write_bytes(b"")
    import sqlite3

    with sqlite3.connect(tmp_path / "newer.db") as conn:
        conn.execute("PRAGMA user_version = 99")
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "newer.db"))
    code, _, err = run(capsys, "misses")
    assert code == 1 and "has schema 99" in err and "Upgrade the bot" in err
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    code, _, err = run(capsys, "list")
    assert (
        code == 2 and err.strip() == "Configuration error: LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not 'LOUD'"
    )


@pytest.mark.parametrize(
    "argv",
    [["lookup", "horovod"], ["search", "gradientes"], ["list"], ["validate"], ["misses"], ["daily"], ["ignore", "1"]],
    ids=lambda argv: argv[0],
)
def test_offline_commands_never_import_discord(tmp_path, argv):
    """The editors' commands start fast: discord.py (and with it aiohttp) is imported only by run and sync."""
    program = f"import sys; from bot.cli import main; main({argv!r}); print('discord' in sys.modules)"
    env = {**os.environ, "GLOSARIO_DB": str(tmp_path / "g.db")}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr


def test_migrate_creates_the_database_once_and_then_has_nothing_to_do(tmp_path, capsys, monkeypatch):
    from bot.storage.db import SCHEMA_VERSION

    path = tmp_path / "nueva" / "g.db"
    monkeypatch.setenv("GLOSARIO_DB", f"sqlite:///{path}")
    code, out, _ = run(capsys, "migrate")
    applied = ", ".join(str(n) for n in range(1, SCHEMA_VERSION + 1))
    assert code == 0 and f"migraciones {applied} aplicadas; esquema {SCHEMA_VERSION}" in out and str(path) in out
    code, out, _ = run(capsys, "migrate")
    assert code == 0 and f"ya está en el esquema {SCHEMA_VERSION}" in out
    path.write_bytes(b"no es sqlite" * 100)
    code, _, err = run(capsys, "migrate")
    assert code == 1 and "no es una base de datos SQLite válida" in err


def test_resolve_answered_closes_the_gaps_the_term_files_now_answer(tmp_path, capsys, monkeypatch):
    import asyncio

    from bot.cli._words import Words
    from bot.storage import open_stores
    from bot.storage.records import GapRecord

    path = tmp_path / "g.db"

    async def seed():
        stores = await open_stores(path)
        for text in ("horovd", "computación cuántica"):  # a typo of a term, and a real gap
            await stores.gaps.record_gaps([GapRecord(1, text, text, "a", None, "lookup", "t")])
        await stores.close()

    asyncio.run(seed())
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    code, out, _ = run(capsys, "resolve", "--answered")
    assert code == 0 and out.strip() == Words("es").count("resolved_answered", 1, count=1)
    _, left, _ = run(capsys, "misses", "--json")
    assert [json.loads(line)["sample"] for line in left.splitlines()] == ["computación cuántica"]
    _, resolved, _ = run(capsys, "misses", "--json", "--status", "resolved")
    assert json.loads(resolved)["resolved_term"] == "horovod"


def test_resolve_needs_ids_or_answered(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["resolve"])
    assert exited.value.code == 2 and "indica los ids de las consultas, o --answered" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_mistyped_command_or_option_gets_the_closest_one_and_the_usage_of_its_command(capsys, monkeypatch, lang):
    from bot.cli._words import Words

    monkeypatch.setenv("LANG", "en_US.UTF-8" if lang == "en" else "es_ES.UTF-8")
    say = Words(lang)
    with pytest.raises(SystemExit) as info:
        main(["lookpu", "horovod"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and say("did_you_mean_this", name="lookup") in err
    with pytest.raises(SystemExit) as info:
        main(["lookup", "horovod", "--jsn"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and say("did_you_mean_this", name="--json") in err
    usage = err.splitlines()[0]
    assert "glosario-bot lookup " in usage and "--json" in usage  # lookup's usage, not the top level's
    assert "glosario-bot lookup: error:" in err
    with pytest.raises(SystemExit):
        main(["misses", "--status", "resolvd"])
    err = capsys.readouterr().err
    assert say("did_you_mean_this", name="resolved") in err and "GapStatus" not in err
    with pytest.raises(SystemExit):
        main(["lookup", "horovod", "--zzzzzz"])  # nothing close: refused, nothing suggested
    err = capsys.readouterr().err
    assert "--zzzzzz" in err and say("did_you_mean_this", name="--json") not in err


@pytest.mark.parametrize("words", [["gradientes", "asincrona"], ["datos"], ["entrenamiento", "distribuido", "datos"]])
def test_search_scores_follow_the_ranking_so_a_script_can_cut_by_score(capsys, words):
    _, text, _ = run(capsys, "search", *words)
    _, lines, _ = run(capsys, "search", "--json", *words)
    hits = [json.loads(line) for line in lines.splitlines()]
    assert [h["term"] for h in hits] == [line[:40].rstrip() for line in text.splitlines()]  # same ranking
    scores = [h["score"] for h in hits]
    assert len(hits) > 1 and scores == sorted(scores, reverse=True)
    assert scores[0] > scores[-1] and all(0 < s <= 100 for s in scores)


def test_search_scores_rank_more_words_and_names_higher(capsys):
    by_id = {h["id"]: h["score"] for h in map(json.loads, run(capsys, "search", "--json", "datos")[1].splitlines())}
    assert by_id["paralelismo-de-datos"] > by_id["petastorm"]  # in its name, not only in a definition
    both = [json.loads(line) for line in run(capsys, "search", "--json", "gradientes", "asincrona")[1].splitlines()]
    assert both[0]["id"] == "servidor-de-parametros" and both[0]["score"] > 50 >= both[1]["score"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_counts_agree_with_their_nouns(tmp_path, capsys, monkeypatch, lang):
    """One of a thing is singular in every message that counts: "1 término", never "1 términos" or "término(s)"."""
    import asyncio

    from bot.cli._words import Words

    monkeypatch.setenv("LANG", "en_US.UTF-8" if lang == "en" else "es_ES.UTF-8")
    say = Words(lang)
    one = tmp_path / "uno"
    one.mkdir()
    (one / "glossary.yaml").write_text("title: Uno\n", encoding="utf-8")
    (one / "c.yaml").write_text("category: C\nterms:\n  - term: Zeta\n    definition: Letra.\n", encoding="utf-8")
    outputs = []
    code, out, _ = run(capsys, "validate", str(one))
    assert code == 0 and out.strip() == say(
        "valid", terms=say.amount("terms_n", 1), categories=say.amount("categories_n", 1), path=one
    )
    outputs.append(out)
    code, out, _ = run(capsys, "--data", str(one), "site", str(tmp_path / "web"))
    assert code == 0 and out.strip() == say.count("site_written", 1, count=1, path=tmp_path / "web" / "index.html")
    outputs.append(out)
    code, _, err = run(capsys, "--data", str(one), "export", "--format", "csv", "--out", str(tmp_path / "x.csv"))
    assert code == 0 and err.strip() == say.count("exported", 1, count=1, path=tmp_path / "x.csv")
    outputs.append(err)
    path = tmp_path / "g.db"
    asyncio.run(_seed_misses(path))
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    stubs = run(capsys, "misses", "--format", "yaml")[1]
    many, one = (
        ("# 2 times, 2 people", "# 1 time, 1 person")
        if lang == "en"
        else ("# 2 veces, 2 personas", "# 1 vez, 1 persona")
    )
    assert many in stubs and one in stubs  # the term file's own comments, in the command line's language
    assert ("Rellena" in stubs) == (lang == "es") and ("Fill in" in stubs) == (lang == "en")
    outputs.append(stubs)
    ids = [json.loads(line)["id"] for line in run(capsys, "misses", "--json")[1].splitlines()]
    code, out, err = run(capsys, "ignore", str(ids[0]), "998", "999")
    assert out.strip() == say.count("marked_ignored", 3, changed=1, total=3)
    assert err.strip() == say.count("unknown_ids", 2, ids="998, 999")
    outputs += [out, err]
    code, out, err = run(capsys, "resolve", str(ids[1]))
    assert out.strip() == say.count("marked_resolved", 1, changed=1, total=1)
    outputs.append(out)
    text = "\n".join(outputs)
    assert "(s)" not in text and not any(
        f"1 {many}" in text
        for many in ("términos", "categorías", "terms", "categories", "veces", "personas", "times", "people")
    )


def test_lookup_keeps_the_paragraphs_of_a_definition(tmp_path, capsys):
    (tmp_path / "glossary.yaml").write_text("title: T\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text(
        "category: C\nterms:\n  - term: Zeta\n    definition: >-\n      Primer párrafo,\n      en dos líneas.\n\n"
        "      Segundo párrafo: https://example.org/zeta\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "zeta")
    definition = out.split("\n\n", 1)[1].rsplit("\n\nCategoría", 1)[0]
    assert code == 0
    assert definition.split("\n\n") == [
        "  Primer párrafo, en dos líneas.",
        "  Segundo párrafo: https://example.org/zeta",
    ]


def test_lookup_of_a_form_to_avoid_answers_with_the_preferred_term_and_says_so(tmp_path, capsys):
    (tmp_path / "glossary.yaml").write_text("title: T\nsubtitle: S\nlanguage: es\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text(
        "category: C\nterms:\n  - term: Red neuronal\n    definition: Un modelo.\n    deprecated: [red neural]\n",
        encoding="utf-8",
    )
    from bot.cli._words import Words

    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "red neural")
    assert code == 0 and out.startswith(Words("es")("avoided_form", form="red neural", term="Red neuronal"))
    assert "Un modelo." in out
    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "--json", "red neural")
    assert json.loads(out)["avoided"] == "red neural" and json.loads(out)["term"]["term"] == "Red neuronal"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_lookup_shows_what_the_card_shows_beside_the_definition(tmp_path, capsys, monkeypatch, lang):
    from bot.cli._words import Words

    if lang == "en":
        monkeypatch.setenv("LANG", "en_US.UTF-8")
    (tmp_path / "glossary.yaml").write_text("title: T\nsubtitle: S\nlanguage: es\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text(
        "category: C\nterms:\n"
        "  - term: Red neuronal\n    definition: A model of connected units.\n    definition_language: en\n"
        "    deprecated: [red neural, neurored]\n    note: Una nota.\n    example: Un ejemplo.\n"
        "    sources: [{text: Wikipedia, url: 'https://es.wikipedia.org/wiki/Red'}, {text: 'Un libro, p. 3'}]\n"
        "    tags: [modelos, básico]\n"
        "  - term: Capa\n    definition: Un conjunto de unidades.\n    definition_language: es-ES\n",
        encoding="utf-8",
    )
    say = Words(lang)
    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "red neuronal")
    assert code == 0
    for line in (
        f"{say('term_definition_language')}: en",
        f"{say('term_avoid')}: red neural, neurored",
        f"{say('term_note')}: Una nota.",
        f"{say('term_example')}: Un ejemplo.",
        f"{say('term_source')}: Wikipedia <https://es.wikipedia.org/wiki/Red>",
        f"{say('term_source')}: Un libro, p. 3",
        f"{say('term_tags')}: modelos, básico",
    ):
        assert line + "\n" in out
    assert say("term_avoid") == ("Evita" if lang == "es" else "Avoid")
    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "capa")
    assert code == 0 and say("term_definition_language") not in out  # in the glossary's own language: not said


def test_gaps_is_the_command_and_misses_its_older_name(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    assert main(["migrate"]) == 0
    capsys.readouterr()
    outputs = []
    for name in ("gaps", "misses"):
        code = main([name, "--json"])
        outputs.append((code, capsys.readouterr().out))
    assert outputs[0] == outputs[1] and outputs[0][0] in (0, 1)


def test_lookup_and_list_show_every_sense_of_a_name(tmp_path, capsys):
    from tests.core.test_senses import META, VALID

    (tmp_path / "glossary.yaml").write_text(META, encoding="utf-8")
    (tmp_path / "a.yaml").write_text(VALID, encoding="utf-8")
    code, out, _ = run(capsys, "--data", str(tmp_path), "lookup", "modelo")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Modelo (Model)"
    first, second = (
        lines.index("1. Función aprendida de los datos."),
        lines.index("2. Representación matemática de un sistema."),
    )
    assert lines[first + 2 : second - 1] == [
        "  Categoría: Aprendizaje",
        "  Relacionados: Datos",
        "  Nota: La acepción común.",
    ]
    own = lines[second + 2 :]
    assert own[:2] == ["  Categoría: Estadística", "  Relacionados: Datos, Parámetro"]
    assert "  Ejemplo: Un modelo lineal." in own and "  Fuente: Libro <https://example.org/libro>" in own
    assert "También: modelo de IA" in own and "Etiquetas: básico" in own  # shared by the senses, after them
    code, out, _ = run(capsys, "--data", str(tmp_path), "list")
    assert out.splitlines() == [
        "Aprendizaje",
        "  Datos",
        "  Modelo — Model",
        "  Parámetro",
        "Estadística",  # the second sense's category lists the term too
        "  Modelo — Model",
    ]


def test_replay_log_writes_what_a_stop_kept_only_in_its_log_each_once(tmp_path, capsys, monkeypatch):
    """A stop on a full disk with nowhere else to go: the writes are lines of the log (text or JSON format), and one
    command writes them to the database; run again (or on a log holding them twice), nothing counts twice."""
    import sqlite3

    from bot.storage.journal import UNSAVED

    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    misses = [
        {"op": "miss", "id": f"0b33-{n}", "guild_id": 5, "sample": f"laguna {n}", "normalized": f"laguna {n}"}
        | {"asker": "a", "best_guess": None, "kind": "lookup", "at": "2026-12-03T10:00:00+00:00"}
        for n in range(3)
    ]
    text = [
        f"2026-12-03 10:00:01,000 ERROR   [shard all] bot.storage.writer: {UNSAVED} {json.dumps(m)}" for m in misses
    ]
    as_json = json.dumps(
        {"level": "ERROR", "logger": "bot.storage.writer", "message": f"{UNSAVED} {json.dumps(misses[2])}"}
    )
    log = tmp_path / "bot.log"
    log.write_text(
        "\n".join(["2026-12-03 10:00:00,000 INFO    [shard all] bot: stopping", *text[:2], as_json, text[2]])
    )
    code, out, _ = run(capsys, "replay-log", str(log))
    assert code == 0, out
    assert out.splitlines() == [
        "Escrituras guardadas solo en el log: 3",
        "  escritas ahora en la base de datos: 3",
        "  ya estaban en la base de datos: 0",
    ]
    code, out, _ = run(capsys, "replay-log", str(log))
    assert code == 0 and "  ya estaban en la base de datos: 3" in out
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("SELECT sample, count FROM misses ORDER BY sample").fetchall() == [
            (f"laguna {n}", 1) for n in range(3)
        ]


def test_replay_log_sets_a_torn_record_aside_and_writes_the_others_at_once(tmp_path, capsys, monkeypatch):
    """A log line edited by hand or torn (a field missing, null where text goes, a number past what the database
    stores) is set aside for its content, counted as refused, and never blocks the good ones of its batch."""
    from bot.storage.journal import UNSAVED

    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    good = {"op": "miss", "id": "ok-1", "guild_id": 5, "sample": "hola", "normalized": "hola", "asker": "a"}
    good |= {"best_guess": None, "kind": "lookup", "at": "2026-12-03T10:00:00+00:00"}
    torn = [
        {"op": "miss", "id": "t-1"},
        good | {"id": "t-2", "normalized": None},
        good | {"id": "t-3", "guild_id": 10**20},
        good | {"id": "t-4", "guild_id": True},
        {"op": "lookups", "id": "t-5", "guild_id": 5, "rows": [["2026-12-03", "found", None, 1]]},
    ]
    log = tmp_path / "bot.log"
    log.write_text("\n".join(f"x ERROR bot.storage.writer: {UNSAVED} {json.dumps(r)}" for r in [*torn, good]))
    code, out, _ = run(capsys, "replay-log", str(log))
    assert code == 1 and out.splitlines()[:4] == [
        "Escrituras guardadas solo en el log: 6",
        "  escritas ahora en la base de datos: 1",
        "  ya estaban en la base de datos: 0",
        f"  rechazadas por su contenido, guardadas con el motivo en {tmp_path / 'g.db.rejected.jsonl'}: 5",
    ]
    _, out, _ = run(capsys, "gaps", "--json")
    assert [json.loads(line)["sample"] for line in out.splitlines()] == ["hola"]


def refused(capsys, *argv: str) -> str:
    """An argument error: exit 2 and its message (stderr's last line)."""
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    assert info.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_ids_past_what_discord_and_the_database_hold_are_refused_with_a_sentence(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    for argv in (["gaps", "--guild"], ["resolve"], ["feedback", "--guild"], ["forget-user"]):
        said = refused(capsys, *argv, str(2**63))
        assert f"'{2**63}' es demasiado grande: el máximo es {2**63 - 1}" in said, said
    assert "es demasiado grande" in refused(capsys, "gaps", "--guild", "9" * 5000)  # (too long to convert)
    assert "'-5' no es un número entero (0 o mayor)" in refused(capsys, "daily", "--guild", "-5")
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()  # (a past day with nothing recorded: 1)
    code, out, _ = run(capsys, "daily", "--guild", "0", "--date", tomorrow)
    assert code == 0 and out.strip()


def test_an_argument_error_says_what_was_typed_back_short_and_printable(capsys):
    said = refused(capsys, "gaps", "--guild", "a" * 100_000)
    assert len(said) <= 200 and f"'{'a' * 98}…" in said
    said = refused(capsys, "x" * 100_000)  # (an unknown command: the commands are listed after it, whole)
    assert "'lookup'" in said and "x" * 100 not in said
    said = refused(capsys, "gaps", "--guild", "\x1b[31mX")
    assert "\x1b" not in said and "'\\x1b[31mX' no es un número entero (0 o mayor)" in said


def test_an_export_that_cannot_be_written_says_so_in_one_line(capsys, tmp_path):
    for out, why in ((tmp_path, "es una carpeta"), (tmp_path / "no" / "such.csv", "la ruta no existe")):
        code, _, err = run(capsys, "export", "--format", "csv", "--out", str(out))
        assert code == 1 and err == f"No se puede escribir {out}: {why}\n"  # (the system's reason, in Spanish)
    assert "la ruta está vacía" in refused(capsys, "export", "--format", "csv", "--out", "")
    assert "la ruta está vacía" in refused(capsys, "site", "")


def test_an_export_replaces_a_file_only_when_asked(capsys, tmp_path, monkeypatch):
    """As `import` does: a file at --out is left as it was, said in the reader's language, unless --replace."""
    out = tmp_path / "glosario.csv"
    out.write_text("mío\n", encoding="utf-8")
    for lang in ("es", "en"):
        monkeypatch.setenv("LANG", "en_US.UTF-8" if lang == "en" else "es_ES.UTF-8")
        for guild in ([], ["--guild", "8"]):  # (a server's own terms: refused before the database is opened)
            code, stdout, err = run(capsys, "export", "--format", "csv", "--out", str(out), *guild)
            assert (code, stdout, err) == (1, "", Words(lang)("export_exists", path=out) + "\n")
            assert out.read_text(encoding="utf-8") == "mío\n"
    link = tmp_path / "enlace.csv"
    link.symlink_to(out)  # (a link to a file: the file it names is what would be replaced)
    assert run(capsys, "export", "--format", "csv", "--out", str(link))[0] == 1
    code, _, err = run(capsys, "export", "--format", "csv", "--out", str(out), "--replace")
    assert code == 0 and out.read_text(encoding="utf-8").startswith("id,") and err.startswith("17 ")
    assert link.is_symlink()


def test_an_export_s_base_is_an_iri_a_term_s_id_can_follow(capsys):
    for base in ("no uri", "x", "http://a/<b>/"):
        assert f"'{base}' no es un URI base" in refused(capsys, "export", "--format", "skos", "--base", base)
    code, out, _ = run(capsys, "export", "--format", "skos", "--base", "urn:glosario:")
    assert code == 0 and "<urn:glosario:horovod>" in out


def test_resolve_with_an_empty_term_names_no_term(capsys, tmp_path, monkeypatch):
    import asyncio

    path = tmp_path / "g.db"
    asyncio.run(_seed_misses(path))
    monkeypatch.setenv("GLOSARIO_DB", str(path))
    code, _, err = run(capsys, "resolve", "1", "--term", "")
    assert code == 1 and "«» no es un término del glosario." in err
    _, out, _ = run(capsys, "gaps", "--json", "--status", "open")
    assert len(out.splitlines()) == 2  # (nothing resolved)


def test_an_import_that_is_not_text_in_its_encoding_says_which_byte(capsys, tmp_path):
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"terms": [{"term": "Café"}]}'.encode("latin-1"))
    code, _, err = run(capsys, "import", str(latin), "--dry-run")
    assert code == 1 and err.strip() == f"No se puede leer {latin}: no es texto UTF-8 (byte 24)"
    sheet = tmp_path / "raro.csv"
    sheet.write_bytes(b"name,definition\nx,\x81\x8d\n")  # (bytes Windows-1252 does not define either)
    code, _, err = run(capsys, "import", str(sheet), "--dry-run")
    assert code == 1 and "no es texto UTF-8, Windows-1252 (byte 18); indica su codificación con --encoding" in err
    code, _, err = run(capsys, "import", str(sheet), "--encoding", "klingon", "--dry-run")
    assert code == 2 and "no conozco la codificación «klingon»" in err


def imported(capsys, tmp_path, sheet_text: str) -> tuple[Path, str, str]:
    """A CSV of this text imported into a new folder: the folder, what import printed, what validate says of it."""
    sheet, out_dir = tmp_path / "terminos.csv", tmp_path / "importado"
    sheet.write_text(sheet_text, encoding="utf-8")
    code, out, _ = run(capsys, "import", str(sheet), "--out", str(out_dir))
    assert code == 0
    return out_dir, out, run(capsys, "validate", str(out_dir))[1]


def test_an_import_says_the_terms_it_wrote_and_its_json_is_one_line(capsys, tmp_path):
    text = "Término;Definición\nNodo;Máquina de un clúster.\nNodo;Vértice de un grafo.\n"
    out_dir, out, checked = imported(capsys, tmp_path, text)
    say = Words("es")
    assert say.amount("imported_n", 2) in out  # two senses imported…
    assert say.count("imported", 1, count=1, path=out_dir, skipped=0) in out  # …as the one term validate counts
    assert checked.startswith("OK: 1 término ")
    code, out, _ = run(capsys, "import", str(tmp_path / "terminos.csv"), "--dry-run", "--json")
    (line,) = out.splitlines()  # JSON Lines, like every --json
    assert code == 0 and json.loads(line)["imported"] == 2


def test_an_import_of_a_category_named_glossary_keeps_the_folder_s_glossary_yaml(capsys, tmp_path):
    out_dir, _, checked = imported(capsys, tmp_path, "term,definition,category\nHorovod,Framework de Uber.,Glossary\n")
    assert checked.startswith("OK: 1 término ")  # (its terms were written over the glossary.yaml)
    assert sorted(p.name for p in out_dir.iterdir()) == ["glossary-2.yaml", "glossary.yaml"]


def test_an_import_says_a_map_column_the_csv_does_not_have_instead_of_guessing(capsys, tmp_path, monkeypatch):
    sheet = tmp_path / "terminos.csv"
    sheet.write_text("Término;Definición\nNodo;Máquina de un clúster.\n", encoding="utf-8")
    code, out, err = run(capsys, "import", str(sheet), "--map", "name=Palabra", "--dry-run")
    assert code == 1 and "Palabra" in err and "Término, Definición" in err
    assert out == ""  # nothing imported (not "Término" guessed in its place), and no count of a file refused whole
    (tmp_path / "lista.json").write_text('[{"term": "Nodo"}]', encoding="utf-8")  # (a JSON refused whole: the same)
    code, out, err = run(capsys, "import", str(tmp_path / "lista.json"), "--dry-run")
    assert code == 1 and out == "" and "debe ser un objeto" in err  # (was "1 entrada leída: 0 importadas, 1…")
    code, _, err = run(capsys, "import", str(sheet), "--map", "definition=3", "--dry-run")
    assert code == 1 and "«3»" in err
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    _, _, err = run(capsys, "import", str(tmp_path / "empty.csv"), "--dry-run")
    assert "the columns are: (none)" in err  # in the reader's language


@pytest.mark.skipif(
    not Path("/proc/self/mem").exists(), reason="needs Linux's /proc/self/mem (a file that fails to read)"
)
def test_a_term_file_that_cannot_be_read_is_a_problem_of_that_file(capsys, tmp_path, monkeypatch):
    shutil.copytree(SHIPPED, tmp_path / "g")
    (tmp_path / "g" / "roto.yaml").symlink_to("/proc/self/mem")  # (reading it fails: an input/output error)
    code, out, _ = run(capsys, "validate", str(tmp_path / "g"))
    assert code == 1 and f"{tmp_path / 'g' / 'roto.yaml'}: no se puede leer (error de entrada/salida)" in out
    code, _, err = run(capsys, "--data", str(tmp_path / "g"), "lookup", "horovod")
    assert code == 1 and "roto.yaml: no se puede leer" in err and "Traceback" not in err
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    _, out, _ = run(capsys, "validate", str(tmp_path / "g"))
    assert "roto.yaml: cannot be read (input/output error)" in out


def test_json_lines_and_yaml_escape_what_a_terminal_would_obey_or_yaml_refuse(capsys, tmp_path, monkeypatch):
    import yaml

    hostile = "a\x9b2J\u202eb é\x85"  # (U+009B is "ESC [" in one character; U+202E turns the text around)

    a_gap_asked_as(hostile, tmp_path, monkeypatch)
    _, out, _ = run(capsys, "gaps", "--json")
    assert "\x9b" not in out and "\u202e" not in out and '"a\\u009b2J\\u202eb é\\u0085"' in out
    assert json.loads(out)["sample"] == hostile
    _, out, _ = run(capsys, "gaps", "--format", "csv")  # (to a file or a pipe: the data as it is)
    assert hostile in out
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)  # (on a screen: shown as escapes)
    _, out, _ = run(capsys, "gaps", "--format", "csv")
    assert "\x9b" not in out and "a\\x9b2J\\u202eb é\\x85" in out
    monkeypatch.undo()
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    _, out, _ = run(capsys, "gaps", "--format", "yaml")  # (the file a moderator fills in: it must load)
    assert "\x9b" not in out and yaml.safe_load(out)["terms"][0]["term"] == hostile


def test_a_database_path_that_is_a_folder_or_too_long_is_said_plainly(capsys, tmp_path, monkeypatch):
    from bot.core.problems import said

    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path))
    code, _, err = run(capsys, "gaps")
    folder = said("db_is_a_folder").text("es")  # (one sentence: the editors' commands say it as the bot does)
    say = Words("es")
    assert code == 1 and err == f"{say('database_path_unusable', path=tmp_path, error=folder)} {say('elsewhere')}\n"
    code, _, err = run(capsys, "migrate")
    assert code != 0 and f"{tmp_path}: {folder}. " in err
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / ("a" * 300)))
    code, _, err = run(capsys, "gaps")
    assert code == 1 and err.startswith("No se puede usar la ruta de la base de datos") and "Traceback" not in err
    code, _, err = run(capsys, "daily")
    assert code == 1 and err.startswith("No se puede usar la ruta de la base de datos")
    code, _, err = run(capsys, "migrate")  # (as `run` checks it at start)
    assert code != 0 and "su ruta no se puede usar (" in err
    code, _, err = run(capsys, "migrate-data", "--from", str(tmp_path / ("a" * 300)), "--to", str(tmp_path / "b.db"))
    assert code == 1 and err.startswith("No se puede escribir en la base de datos")


def test_an_import_refuses_a_category_or_language_its_files_could_not_hold_before_writing(capsys, tmp_path):
    sheet = tmp_path / "ok.csv"
    sheet.write_text("name,definition\nZeta,Letra.\nEta,Otra letra.\n,Sin nombre.\n", encoding="utf-8")
    out = tmp_path / "out"
    said = refused(capsys, "import", str(sheet), "--out", str(out), "--category", "\x1b[2J")
    assert "'category' contiene un carácter invisible (U+001B, en la posición 1)" in said
    said = refused(capsys, "import", str(sheet), "--out", str(out), "--lang", "x" * 1000)
    assert "'language' tiene 1000 caracteres" in said
    said = refused(capsys, "import", str(sheet), "--out", str(out), "--lang", "español")
    assert "debe ser una etiqueta de idioma (BCP 47)" in said
    assert not out.exists()  # (nothing written)
    code, printed, _ = run(
        capsys, "import", str(sheet), "--out", str(out), "--lang", "es-ES", "--category", " Mi  tema "
    )
    assert code == 1 and printed.startswith("3 entradas leídas: 2 importadas, 1 rechazada.")  # (1: one refused)
    code, printed, _ = run(capsys, "validate", str(out))
    assert code == 0, printed
    assert "category: Mi tema" in (out / "mi-tema.yaml").read_text(encoding="utf-8")
    one = tmp_path / "one.csv"
    one.write_text("name,definition\nZeta,Letra.\n", encoding="utf-8")
    _, printed, _ = run(capsys, "import", str(one), "--dry-run")
    assert printed.startswith("1 entrada leída: 1 importada, 0 rechazadas.")


def test_validate_says_what_is_wrong_with_glossary_yaml_itself(capsys, tmp_path):
    def copy(name: str) -> Path:
        shutil.copytree(SHIPPED, tmp_path / name)
        return tmp_path / name

    empty = copy("empty")
    (empty / "glossary.yaml").write_text("", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(empty))
    assert code == 1 and out.splitlines()[0] == (
        f"{empty / 'glossary.yaml'}:1: el archivo está vacío: escribe en él title, subtitle y language"
    )
    assert "falta glossary.yaml" not in out  # (it is there: what is wrong is what it holds)
    folder = copy("folder")
    (folder / "glossary.yaml").unlink()
    (folder / "glossary.yaml").mkdir()
    code, out, _ = run(capsys, "validate", str(folder))
    assert code == 1 and f"{folder / 'glossary.yaml'}: no es un archivo: glossary.yaml tiene que ser" in out
    (tmp_path / "nothing").mkdir()
    code, out, _ = run(capsys, "validate", str(tmp_path / "nothing"))
    assert code == 1 and f"{tmp_path / 'nothing' / 'glossary.yaml'}: falta glossary.yaml en esta carpeta" in out
    assert f"{tmp_path / 'nothing'}: no hay ningún término" in out


def test_a_stored_server_term_that_no_longer_passes_is_named_not_dropped_silently(capsys, tmp_path, monkeypatch):
    import asyncio

    from bot.storage import open_stores
    from tests.app.test_server_terms import NEBULA

    async def seed() -> None:
        stores = await open_stores(tmp_path / "g.db")
        await stores.server_terms.save(8, "nebula", NEBULA.to_dict(), 1, "2026-12-02T10:00:00", previous_id=None)
        stale = {"term": "Zorro\x9b31m", "definition": "Un zorro."}  # (written before a rule refused it)
        await stores.server_terms.save(8, "zorro", stale, 1, "2026-12-02T10:00:00", previous_id=None)
        await stores.close()

    asyncio.run(seed())
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    for argv in (["server-terms", "--guild", "8"], ["export", "--guild", "8", "--format", "json"]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and "Clúster Nebula" in out and "Zorro" not in out
        assert "1 término guardado ya no pasa las comprobaciones y se ha dejado fuera" in err
        assert "Zorro\\x9b31m" in err and "\x9b" not in err  # (its name said, printable)


def test_an_import_into_a_glossary_takes_a_locale_spelt_with_an_underscore_or_no_language(capsys, tmp_path):
    shutil.copytree(SHIPPED, tmp_path / "g")
    sheet = tmp_path / "uno.csv"
    sheet.write_text("name,definition\nZeta,Letra.\n", encoding="utf-8")
    code, _, err = run(capsys, "import", str(sheet), "--into", str(tmp_path / "g"), "--lang", "es_ES")
    assert code == 0, err
    code, _, err = run(capsys, "import", str(sheet), "--out", str(tmp_path / "o"), "--lang", "")
    assert code == 0, err
    assert "language: es" in (tmp_path / "o" / "glossary.yaml").read_text(encoding="utf-8")
    code, _, err = run(capsys, "import", str(sheet), "--out", str(sheet))  # (a file where the folder goes)
    assert code == 1 and err.startswith(f"No se puede escribir {sheet}: ") and "Traceback" not in err


def test_an_import_and_validate_say_a_file_s_own_control_characters_as_escapes(capsys, tmp_path):
    entries = tmp_path / "raro.json"
    document = {"title": "T", "subtitle": "S", "language": "es"}
    document["terms"] = [{"term": "Zeta\x9b31m", "definition": "Letra.", "colour\x9b": 1}]
    entries.write_text(json.dumps(document))
    code, out, err = run(capsys, "import", str(entries), "--dry-run")
    assert "\x9b" not in out + err and "colour\\x9b" in err, err
    code, out, _ = run(capsys, "import", str(entries), "--dry-run", "--json")
    assert "\x9b" not in out and "\\u009b" in out and json.loads(out)
    shutil.copytree(SHIPPED, tmp_path / "g")
    (tmp_path / "g" / "raro.yaml").write_text(
        'category: Raro\nterms:\n  - term: Zeta\n    definition: Letra.\n    "col\\x9b2J": 1\n', encoding="utf-8"
    )
    code, out, _ = run(capsys, "validate", str(tmp_path / "g"))
    assert code == 1 and "col\\x9b2J" in out and "\x9b" not in out


def test_text_in_other_scripts_and_emoji_is_said_back_as_it_is(capsys):
    for query in ("👨\u200d👩 zq", "ب\u200cا zq"):  # (ZWJ in an emoji, ZWNJ in Persian: the script's own)
        _, out, _ = run(capsys, "lookup", query)
        assert out.strip() == Words("es")("not_in_glossary", query=query)


@pytest.mark.skipif(
    not Path("/proc/self/mem").exists(), reason="needs Linux's /proc/self/mem (a file that fails to read)"
)
def test_a_glossary_yaml_that_cannot_be_read_is_one_problem(capsys, tmp_path):
    shutil.copytree(SHIPPED, tmp_path / "g")
    (tmp_path / "g" / "glossary.yaml").unlink()
    (tmp_path / "g" / "glossary.yaml").symlink_to("/proc/self/mem")
    code, out, err = run(capsys, "validate", str(tmp_path / "g"))
    assert code == 1 and out.splitlines() == [out.splitlines()[0]] and "no es un archivo" not in out + err
    assert out.startswith(f"{tmp_path / 'g' / 'glossary.yaml'}: no se puede leer (")


def test_run_without_its_glossary_folder_says_so_in_spanish(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.token")
    root = logging.getLogger()  # (run sets up logging: its handler, on this test's captured stderr, goes with it)
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    missing = tmp_path / "no-such-folder"
    code, _, err = run(capsys, "--data", str(missing), "run")
    assert code == 1 and err.strip() == Words("es")("run_no_glossary_dir", path=missing)
    assert "image" not in err.replace("imagen", "")  # (the Docker image is "la imagen")


def test_a_page_or_export_that_does_not_fit_on_the_disk_leaves_the_old_one_whole(capsys, tmp_path):
    from tests.helpers import fill, small_disk

    one = tmp_path / "uno"
    one.mkdir()
    (one / "glossary.yaml").write_text("title: Uno\n", encoding="utf-8")
    (one / "c.yaml").write_text("category: C\nterms:\n  - term: Zeta\n    definition: Letra.\n", encoding="utf-8")
    with small_disk(tmp_path / "web", "256k") as web:
        assert run(capsys, "--data", str(one), "site", str(web))[0] == 0  # a page of one term
        assert run(capsys, "--data", str(one), "export", "--format", "csv", "--out", str(web / "g.csv"))[0] == 0
        before = {name: (web / name).read_bytes() for name in ("index.html", "g.csv")}
        fill(web)  # (the new page and export, the whole glossary's, are larger than the old ones)
        code, _, err = run(capsys, "site", str(web))
        assert code == 1 and "el disco está lleno" in err
        code, _, err = run(capsys, "export", "--format", "csv", "--out", str(web / "g.csv"), "--replace")
        assert code == 1 and "el disco está lleno" in err
        assert {name: (web / name).read_bytes() for name in before} == before  # (were left cut short, or empty)
        assert sorted(p.name for p in web.iterdir()) == ["filler", "g.csv", "index.html"]  # no half-written file


def test_a_file_written_whole_keeps_its_permissions_and_its_link(tmp_path):
    from bot.app.files import write_whole

    page = tmp_path / "index.html"
    write_whole(page, "uno")
    umask = os.umask(0o022)
    os.umask(umask)
    assert page.stat().st_mode & 0o777 == 0o666 & ~umask  # a new file: what a plain write gives it
    page.chmod(0o640)
    link = tmp_path / "publicada.html"
    link.symlink_to(page)
    write_whole(link, "dos")
    assert link.is_symlink() and page.read_text() == "dos" and page.stat().st_mode & 0o777 == 0o640


def test_an_import_says_its_input_format_and_a_json_summary_together(tmp_path, capsys):
    """import's --format is the file's format, not the output's: with --json it is no usage error."""
    source = tmp_path / "terminos.csv"
    source.write_text("term,definition\nFoo,Una definición de prueba.\n", encoding="utf-8")
    code = main(["import", str(source), "--format", "csv", "--json", "--dry-run", "--category", "Pruebas"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and (summary["read"], summary["imported"]) == (1, 1)
