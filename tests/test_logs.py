"""Logs: one line per event with level and logger, JSON on request, secrets never written."""

import json
import logging

from bot.logs import setup_logging

SECRET = "MTIzNDU2Nzg5.fake-token-for-a-test-only"


def test_text_lines_have_level_and_logger_and_no_token(capsys):
    setup_logging("INFO", "text", [SECRET])
    logging.getLogger("bot.example").info("connecting with %s", SECRET)
    logging.getLogger("bot.example").debug("hidden at INFO")
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert " INFO    bot.example: connecting with [redacted]" in out
    assert SECRET not in out


def test_json_lines(capsys):
    setup_logging("DEBUG", "json", [SECRET])
    logging.getLogger("bot.example").warning("token=%s", SECRET)
    entry = json.loads(capsys.readouterr().out)
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.example"
    assert entry["message"] == "token=[redacted]"
