"""`glosario-bot replay-log` given logs it cannot read: the path and why, in the reader's language, and an empty
path refused before anything is read; given a log written before a member or a server was forgotten: none of what
they forgot is written back."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from bot.cli._words import Words
from bot.core.gaps import asker_hash
from bot.core.problems import Sentence
from bot.storage import open_stores
from bot.storage.journal import UNSAVED
from bot.storage.records import GapRecord, UnloggedRecord, VoteRecord, record_fields
from tests.helpers import run_cli as run

G, H = 424242424242424242, 535353535353535353
MEMBER, OTHER = 777777777777777777, 888888888888888888
BEFORE = "2026-12-03T10:00:00+00:00"


@pytest.mark.parametrize(("lang", "locale"), [("es", "es_ES.UTF-8"), ("en", "en_US.UTF-8")])
def test_a_log_that_cannot_be_read_is_named_with_the_reason_in_the_reader_s_language(
    tmp_path, capsys, monkeypatch, lang, locale
):
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    monkeypatch.setenv("LANG", locale)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    say = Words(lang)
    for path, reason in [(tmp_path / "ninguno\x1b[2J.log", "os_ENOENT"), (tmp_path, "os_EISDIR")]:
        code, out, err = run(capsys, "replay-log", str(path))
        shown = str(path).replace("\x1b", "\\x1b")  # (a control character in a name is shown as its escape)
        said = say("replay_unreadable_file", path=shown, error=Sentence(reason).text(lang))
        assert code == 1 and out == "" and err.strip() == said
    assert not (tmp_path / "g.db").exists()


def test_an_empty_log_path_is_refused_not_read_as_the_current_folder(capsys):
    with pytest.raises(SystemExit) as refused:
        run(capsys, "replay-log", "")
    assert refused.value.code == 2 and Words("es")("empty_path") in capsys.readouterr().err


def salted(path) -> str:
    async def go() -> str:
        stores = await open_stores(path)
        try:
            return await stores.meta.salt()
        finally:
            await stores.close()

    return asyncio.run(go())


def stop_log(path, records: list) -> None:
    """A log as a stop on a full disk leaves it: each write the bot could keep nowhere else on a line of its own."""
    lines = [
        f"2026-12-03 10:00:01,000 ERROR   [shard all] bot.storage.writer: {UNSAVED} "
        + json.dumps({"op": record.OP, "id": f"stop-{n}", **record_fields(record)})
        for n, record in enumerate(records)
    ]
    path.write_text("\n".join(lines) + "\n")


def visit(guild: int, asker: str, sample: str, at: str) -> list:
    return [
        GapRecord(guild, sample, sample, asker, None, "lookup", at),
        VoteRecord(guild, "horovod", asker, "helpful", at),
    ]


def test_a_log_written_before_forget_user_writes_none_of_that_member_s_records_back(tmp_path, capsys, monkeypatch):
    db, log = tmp_path / "g.db", tmp_path / "bot.log"
    monkeypatch.setenv("GLOSARIO_DB", str(db))
    salt = salted(db)
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    back = (datetime.now(UTC) + timedelta(hours=1)).isoformat(timespec="seconds")  # once they are back
    stop_log(
        log, [*visit(G, mine, "antes", BEFORE), *visit(G, theirs, "suyo", BEFORE), *visit(H, mine, "vuelta", back)]
    )

    assert run(capsys, "forget-user", str(MEMBER), "--yes")[0] == 0
    code, out, _ = run(capsys, "replay-log", str(log))
    say = Words("es")
    assert code == 0 and out.splitlines() == [
        say("replay_found", count=6),
        say("replay_written", count=4),
        say("replay_already", count=0),
        say("replay_forgotten", count=2),
    ]
    assert str(MEMBER) not in out and mine not in out  # (named nowhere)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT sample FROM misses ORDER BY sample").fetchall() == [("suyo",), ("vuelta",)]
        assert sorted(conn.execute("SELECT guild_id, voter FROM feedback").fetchall()) == [(G, theirs), (H, mine)]
    code, out, _ = run(capsys, "replay-log", str(log))  # again: the same, nothing written twice
    assert code == 0 and say("replay_already", count=4) in out and say("replay_forgotten", count=2) in out


def test_a_log_written_before_forget_guild_writes_none_of_that_server_s_records_back(tmp_path, capsys, monkeypatch):
    db, log = tmp_path / "g.db", tmp_path / "bot.log"
    monkeypatch.setenv("GLOSARIO_DB", str(db))
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    salt = salted(db)
    mine, theirs = asker_hash(salt, MEMBER), asker_hash(salt, OTHER)
    day = BEFORE[:10]
    in_g = [*visit(G, mine, "a", BEFORE), *visit(G, theirs, "b", BEFORE), UnloggedRecord(G, day)]
    stop_log(log, [*in_g, *visit(H, theirs, "c", BEFORE), UnloggedRecord(H, day)])

    assert run(capsys, "forget-guild", str(G), "--yes")[0] == 0
    code, out, _ = run(capsys, "replay-log", str(log))
    say = Words("en")
    assert code == 0 and out.splitlines() == [
        say("replay_found", count=8),
        say("replay_written", count=3),
        say("replay_already", count=0),
        say("replay_forgotten", count=5),
    ]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT guild_id, sample FROM misses").fetchall() == [(H, "c")]
        assert conn.execute("SELECT guild_id FROM unlogged_misses").fetchall() == [(H,)]
        assert conn.execute("SELECT guild_id FROM feedback").fetchall() == [(H,)]
