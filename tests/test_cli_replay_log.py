"""`glosario-bot replay-log` given logs it cannot read: the path and why, in the reader's language, and an empty
path refused before anything is read."""

from __future__ import annotations

import pytest

from bot.cli._words import Words
from bot.core.problems import Sentence
from tests.helpers import run_cli as run


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
