"""`glosario-bot feedback [--guild ID] [--json]`: the members' votes and comments on the definitions, in the
reader's language, never who voted."""

from __future__ import annotations

import asyncio
import json

from bot.cli import main
from bot.core.gaps import asker_hash
from bot.storage import open_stores
from bot.storage.records import CommentRecord, VoteRecord

G, H = 424242424242424242, 535353535353535353
AT = "2026-12-03T10:00:00+00:00"
COMMENT = "Falta un ejemplo\n\x1b[31mrojo"  # a line break and a terminal escape, as a member might type them


def seed(path) -> str:
    async def go() -> str:
        stores = await open_stores(path)
        try:
            salt = await stores.meta.salt()
            one, two = asker_hash(salt, 1), asker_hash(salt, 2)
            await stores.feedback.record_votes(
                [VoteRecord(G, "horovod", one, "helpful", AT), VoteRecord(H, "ray", one, "unhelpful", AT)]
            )
            await stores.feedback.record_comments([CommentRecord(G, "allreduce", two, COMMENT, AT)])
            return salt
        finally:
            await stores.close()

    return asyncio.run(go())


def test_feedback_as_json_lines_and_as_text_in_both_languages(tmp_path, capsys, monkeypatch):
    db = tmp_path / "g.db"
    salt = seed(db)
    monkeypatch.setenv("GLOSARIO_DB", str(db))

    assert main(["feedback", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["guild_id"], x["term_id"], x["vote"], x["comment"]) for x in lines] == [
        (G, "allreduce", "unhelpful", COMMENT),  # the comment as typed
        (G, "horovod", "helpful", None),
        (H, "ray", "unhelpful", None),
    ]
    assert set(lines[0]) == {"guild_id", "term_id", "vote", "comment", "at"}  # who voted is never given out

    assert main(["feedback", "--guild", str(G)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["servidor", "término", "voto", "cuándo", "comentario"]
    assert "👎 no sirve" in out and "👍 sirve" in out and "ray" not in out
    assert "Falta un ejemplo\\n\\x1b[31mrojo" in out and "\x1b" not in out  # escaped for the terminal
    assert out.splitlines()[-1] == "2 votos: 1 👍 y 1 👎, 1 con comentario"
    assert asker_hash(salt, 1) not in out and asker_hash(salt, 2) not in out

    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert main(["feedback", "--guild", str(H)]) == 0
    out = capsys.readouterr().out
    assert "👎 unhelpful" in out and out.splitlines()[-1] == "1 vote: 0 👍 and 1 👎, 0 with a comment"


def test_feedback_with_no_votes_says_so(tmp_path, capsys, monkeypatch):
    seed(tmp_path / "g.db")
    monkeypatch.setenv("GLOSARIO_DB", str(tmp_path / "g.db"))
    assert main(["feedback", "--guild", "99"]) == 0
    assert capsys.readouterr().out.strip() == "Nadie ha votado todavía ninguna definición con ese filtro."
