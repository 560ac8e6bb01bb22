"""`glosario-bot gaps`, `resolve` and `ignore` as an operator meets them: a database another process is writing, a
long list of ids, the server 0 of direct messages, the table's columns with the times the bot stores."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.cli._words import Words
from bot.storage import open_stores
from bot.storage.records import GapRecord
from tests.helpers import run_cli as run

AT = "2026-12-03T10:00:00+00:00"  # what the bot stores: its clock is UTC, said with its offset


def seed(database, *gaps: tuple[int, str]) -> None:
    """A database (a SQLite path or a PostgreSQL URL) holding these gaps, each (server, how it was asked)."""

    async def go() -> None:
        stores = await open_stores(database)
        try:
            await stores.gaps.record_gaps([GapRecord(g, text, text, "a", None, "lookup", AT) for g, text in gaps])
        finally:
            await stores.close()

    asyncio.run(go())


def statuses(capsys) -> dict[str, str]:
    _, out, _ = run(capsys, "gaps", "--status", "all", "--json")
    return {row["sample"]: row["status"] for row in map(json.loads, out.splitlines())}


@pytest.mark.parametrize("argv", [["ignore", "1"], ["resolve", "1"], ["resolve", "1", "--term", "horovod"]])
def test_marking_gaps_while_another_process_holds_the_lock_says_so_and_changes_nothing(
    tmp_path, capsys, monkeypatch, argv
):
    seed(tmp_path / "g.db", (5, "embeddings"))
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    other_process = sqlite3.connect(tmp_path / "g.db", isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")  # (a running bot in the middle of its writes)
    try:
        code, out, err = run(capsys, *argv)
    finally:
        other_process.rollback()
        other_process.close()
    said = Words("es")("status_not_saved", path=tmp_path / "g.db", error="otro proceso la tiene bloqueada")
    assert code == 1 and out == "" and err.strip() == said
    assert statuses(capsys) == {"embeddings": "open"}


def test_resolving_every_answered_gap_on_a_locked_database_says_it_can_be_run_again(tmp_path, capsys, monkeypatch):
    seed(tmp_path / "g.db", (5, "horovod"))
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    other_process = sqlite3.connect(tmp_path / "g.db", isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")
    try:
        code, _, err = run(capsys, "resolve", "--answered")
    finally:
        other_process.rollback()
        other_process.close()
    said = Words("es")("answered_not_saved", path=tmp_path / "g.db", error="otro proceso la tiene bloqueada")
    assert code == 1 and err.strip() == said
    assert run(capsys, "resolve", "--answered")[0] == 0 and statuses(capsys) == {"horovod": "resolved"}


def test_ignoring_more_ids_than_postgresql_takes_in_one_statement(postgres_url, capsys, monkeypatch):
    """`glosario-bot ignore $(… | jq .id)` with tens of thousands of ids: PostgreSQL takes at most 32,767
    parameters in a statement, so the ids go in parts, in one transaction."""
    seed(postgres_url, (5, "embeddings"), (5, "rag"))
    monkeypatch.setenv("GLOSARIO_DB", postgres_url)
    ids = [str(n) for n in range(1, 40_001)]
    code, out, err = run(capsys, "ignore", *ids)
    assert code == 1 and out.strip() == Words("es")("marked_ignored", changed=2, total=40_000)
    assert err.strip() == Words("es")("unknown_ids", ids=", ".join(ids[2:]))
    assert statuses(capsys) == {"embeddings": "ignored", "rag": "ignored"}


def test_the_gaps_and_votes_of_direct_messages_are_server_0(tmp_path, capsys, monkeypatch):
    """What members asked or voted outside any server (a direct message, their own install of the app) is kept
    under server 0: `--guild 0` lists it, as `daily --guild 0` takes it."""
    from bot.storage.records import VoteRecord

    seed(tmp_path / "g.db", (0, "embeddings"), (5, "rag"))

    async def vote() -> None:
        stores = await open_stores(tmp_path / "g.db")
        try:
            votes = [VoteRecord(0, "horovod", "a", "helpful", AT), VoteRecord(5, "ray", "a", "helpful", AT)]
            await stores.feedback.record_votes(votes)
        finally:
            await stores.close()

    asyncio.run(vote())
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    code, out, _ = run(capsys, "gaps", "--guild", "0", "--json")
    assert code == 0 and [json.loads(line)["sample"] for line in out.splitlines()] == ["embeddings"]
    code, out, _ = run(capsys, "feedback", "--guild", "0", "--json")
    assert code == 0 and [json.loads(line)["term_id"] for line in out.splitlines()] == ["horovod"]
    code, out, _ = run(capsys, "gaps", "--guild", "0", "--format", "yaml")  # (its title says where, not "servidor 0")
    assert code == 0 and "fuera de los servidores: mensajes directos e instalaciones propias" in out.splitlines()[0]
    for command in ("gaps", "feedback"):
        with pytest.raises(SystemExit) as refused:
            run(capsys, command, "--guild", "-1")
        assert refused.value.code == 2 and Words("es")("not_whole", text="-1") in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["es_ES.UTF-8", "en_US.UTF-8"])
def test_the_gaps_table_keeps_its_columns_with_the_times_the_bot_stores(tmp_path, capsys, monkeypatch, lang):
    seed(tmp_path / "g.db", (424242424242424242, "embeddings"))
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    monkeypatch.setenv("LANG", lang)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    code, out, _ = run(capsys, "gaps")
    header, row = out.splitlines()
    query_column = header.rindex(" ") + 1  # (the last heading: the query's)
    assert code == 0 and row[query_column:] == "embeddings" and row[query_column - 2 : query_column] == "  "
    assert AT in row


@pytest.mark.parametrize("extra", [["7"], ["--term", "horovod"]])
def test_resolve_answered_takes_no_ids_and_no_term(tmp_path, capsys, monkeypatch, extra):
    """`resolve --answered 7` resolved what the glossary answers and left gap 7 as it was, without a word."""
    seed(tmp_path / "g.db", (5, "embeddings"))
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    with pytest.raises(SystemExit) as refused:
        run(capsys, "resolve", "--answered", *extra)
    err = capsys.readouterr().err
    assert refused.value.code == 2 and err.startswith("uso: glosario-bot resolve")
    assert Words("es")("answered_alone") in err


def test_a_term_that_is_not_one_is_said_back_short_and_printable(tmp_path, capsys, monkeypatch):
    seed(tmp_path / "g.db", (5, "embeddings"))
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    for typed, said in [("\x1b]0;x\x07rojo", "\\x1b]0;x\\x07rojo"), ("zq" * 5000, "zq" * 49 + "z…")]:
        code, _, err = run(capsys, "resolve", "1", "--term", typed)
        assert code == 1 and err.strip() == Words("es")("not_a_term", term=said)


def test_a_count_that_is_no_number_is_read_as_0_and_every_format_lists_the_gaps(tmp_path, capsys, monkeypatch):
    """SQLite keeps text or a real in an INTEGER column (a hand edit): such a count is read as a whole number (text
    as 0, a real cut). It made the YAML stubs a traceback, and the JSON lines a count that was no number."""
    seed(tmp_path / "g.db", (5, "embeddings"), (5, "rag"), (5, "lora"))
    with sqlite3.connect(tmp_path / "g.db") as conn:
        conn.execute("UPDATE misses SET count = 'muchas' WHERE sample = 'rag'")
        conn.execute("UPDATE misses SET count = 2.5 WHERE sample = 'lora'")
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    code, out, _ = run(capsys, "gaps", "--format", "yaml")
    assert code == 0 and "# 2 veces" in out and "# 0 veces" in out
    code, out, _ = run(capsys, "gaps", "--json")
    assert code == 0 and {(g["sample"], g["count"]) for g in map(json.loads, out.splitlines())} == {
        ("embeddings", 1),
        ("rag", 0),
        ("lora", 2),
    }
