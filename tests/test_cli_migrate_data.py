"""`glosario-bot migrate-data` given a source or a destination that cannot be one: said plainly, before the
destination is created (the copy itself, SQLite → PostgreSQL and back: tests/storage/test_copy.py)."""

from __future__ import annotations

import pytest

from bot.cli._words import Words
from bot.core.problems import said
from tests.helpers import run_cli as run


def test_a_source_that_is_a_folder_is_said_so_and_nothing_is_created(tmp_path, capsys):
    target = tmp_path / "nuevo.db"
    code, out, err = run(capsys, "migrate-data", "--from", str(tmp_path), "--to", str(target))
    folder = said("db_is_a_folder").text("es")
    assert code == 1 and out == "" and err.strip() == Words("es")("database_path_unusable", path=tmp_path, error=folder)
    assert not target.exists()


@pytest.mark.parametrize("blank", ["--from", "--to"])
def test_a_blank_database_is_refused_not_taken_for_the_current_folder(tmp_path, capsys, blank):
    argv = {"--from": str(tmp_path / "a.db"), "--to": str(tmp_path / "b.db")} | {blank: " "}
    with pytest.raises(SystemExit) as refused:
        run(capsys, "migrate-data", *(part for pair in argv.items() for part in pair))
    err = capsys.readouterr().err
    assert refused.value.code == 2 and err.startswith("uso: glosario-bot migrate-data")
    assert Words("es")("empty_database") in err


def test_a_copy_stopped_with_ctrl_c_says_so_in_a_sentence_writes_nothing_and_can_be_run_again(
    tmp_path, capsys, monkeypatch
):
    """Ctrl-C halfway (here: after the first table) ends with a sentence and the shell's 130, not a traceback;
    the copy is one transaction, so the destination is still empty and the same command then copies it all."""
    import asyncio
    import sqlite3

    import bot.storage.copy
    from tests.storage.test_copy import fill

    asyncio.run(fill(tmp_path / "a.db"))

    class StoppedAfterTheFirstTable(dict):
        def items(self):
            first = next(iter(super().items()))
            yield first
            raise KeyboardInterrupt

    monkeypatch.setattr(bot.storage.copy, "TABLES", StoppedAfterTheFirstTable(bot.storage.copy.TABLES))
    argv = ("migrate-data", "--from", str(tmp_path / "a.db"), "--to", str(tmp_path / "b.db"))
    code, out, err = run(capsys, *argv)
    assert code == 130 and out == "" and err.strip() == Words("es")("interrupted")
    with sqlite3.connect(tmp_path / "b.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM misses").fetchone() == (0,)
    monkeypatch.undo()
    assert run(capsys, *argv)[0] == 0
