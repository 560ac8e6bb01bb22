"""`glosario-bot ask`: a question in one's own words, offline, in text or JSON Lines, with a server's terms."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.cli._words import Words
from bot.core.question_confidence import CONFIDENT_PROBABILITY
from tests.app.test_server_terms import NEBULA, open_app
from tests.helpers import run_cli as run


@pytest.fixture(autouse=True)
def _cache(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("GLOSARIO_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "ask-cache"))


def test_ask_text_confident(capsys):
    code, out, _ = run(capsys, "ask", "¿cómo se llama lo de Uber para entrenar con MPI?")
    assert code == 0
    assert out.startswith(Words("es")("ask_confident", term="Horovod"))
    assert "Relacionados: AllReduce" in out


def test_ask_json_lines_best_first(capsys):
    code, out, _ = run(capsys, "ask", "--json", "dask pero pa machine learning")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and 1 <= len(rows) <= 3
    assert set(rows[0]) == {"term", "id", "score", "confident", "probability"}
    assert all(set(r) == {"term", "id", "score", "confident"} for r in rows[1:])
    assert 0 <= rows[0]["probability"] < CONFIDENT_PROBABILITY  # unsure: below the stated threshold
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    assert not any(r["confident"] for r in rows)
    assert "dask-ml" in [r["id"] for r in rows]
    _, out, _ = run(capsys, "ask", "--json", "framework", "de", "uber", "para", "entrenar", "con", "mpi")
    first, *rest = (json.loads(line) for line in out.splitlines())
    assert first["id"] == "horovod" and first["confident"] and not any(r["confident"] for r in rest)
    assert CONFIDENT_PROBABILITY <= first["probability"] <= 1


def test_an_undecodable_byte_in_the_question_is_read_as_a_replacement_character(capsys):
    # (a terminal in another encoding: Python hands the byte over as a lone surrogate, which UTF-8 cannot encode)
    code, out, _ = run(capsys, "ask", "¿cómo se llama lo de Uber para entrenar con MPI? \udcff")
    assert code == 0
    assert out.startswith(Words("es")("ask_confident", term="Horovod"))


def test_ask_nothing_in_english(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code, out, _ = run(capsys, "ask", "what is a convolutional network?")
    assert code == 1 and out.strip() == Words("en")("ask_nothing")


def test_ask_with_a_servers_terms(capsys, tmp_path, monkeypatch):
    async def define() -> None:
        app = await open_app(tmp_path)
        await app.server_terms.save(7, 42, NEBULA)
        assert await app.close() == []

    asyncio.run(define())
    monkeypatch.setenv("GLOSARIO_DB", f"sqlite:///{tmp_path / 'g.db'}")
    question = "el clúster de GPUs A100 del equipo donde lanzamos los entrenamientos"
    _, out, _ = run(capsys, "ask", "--json", "--guild", "7", question)
    assert json.loads(out.splitlines()[0])["id"] == "cluster-nebula"
    _, out, _ = run(capsys, "ask", "--json", "--guild", "8", question)
    assert "cluster-nebula" not in out


@pytest.mark.parametrize(("lang", "locale"), [("es", "es_ES.UTF-8"), ("en", "en_US.UTF-8")])
@pytest.mark.parametrize("question", ["", "   ", "¿?"])
def test_an_empty_question_is_a_usage_error_in_the_user_s_language(capsys, monkeypatch, lang, locale, question):
    """Not "no glossary term answers that question" (exit 1, as for a question asked), nor nothing at all with
    --json: nothing was asked."""
    from bot.cli import main

    monkeypatch.setenv("LANG", locale)
    for json_flag in ([], ["--json"]):
        with pytest.raises(SystemExit) as exited:
            main(["ask", *json_flag, question])
        out, err = capsys.readouterr()
        assert exited.value.code == 2 and out == "" and Words(lang)("ask_empty") in err
