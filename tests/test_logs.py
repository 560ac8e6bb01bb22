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
    assert " INFO    [shard all] bot.example: connecting with [redacted]" in out
    assert SECRET not in out


def test_lines_carry_the_shard_of_the_server_being_handled_or_the_process_shards(capsys):
    import asyncio

    from bot.logs import current_shard

    setup_logging("INFO", "json", [SECRET], shards="0-1/4")

    async def handle_an_interaction_of_shard_1():
        current_shard.set("1")
        logging.getLogger("bot.example").info("answered")

    logging.getLogger("bot.example").info("started")
    asyncio.run(handle_an_interaction_of_shard_1())
    logging.getLogger("bot.example").info("still running")
    shards = [json.loads(line)["shard"] for line in capsys.readouterr().out.splitlines()]
    assert shards == ["0-1/4", "1", "0-1/4"]  # the handler's shard stays in the handler's own task


def test_json_lines(capsys):
    setup_logging("DEBUG", "json", [SECRET])
    logging.getLogger("bot.example").warning("token=%s", SECRET)
    entry = json.loads(capsys.readouterr().out)
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.example"
    assert entry["message"] == "token=[redacted]"
