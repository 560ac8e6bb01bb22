"""An interaction discord.py cannot read (kit.guard.validate_interactions) is logged and skipped: the gateway's
connection stays up and every interaction around it is answered."""

from __future__ import annotations

import asyncio
import logging

from bot.discord_app.kit.guard import validate_interactions
from tests.fake_discord.server import MEMBER_PERMISSIONS

GUARD = "bot.discord_app.kit.guard"
SKIPPED = "an interaction could not be read (id {}); the next ones still are"


def test_the_parser_logs_what_it_cannot_read_and_reads_the_next(caplog):
    read: list[str] = []

    def parse(data: dict) -> None:
        if "type" not in data:
            raise KeyError("type")
        read.append(data["id"])

    parsers = {"INTERACTION_CREATE": parse}
    validate_interactions(parsers)
    user = {"user": {"id": "5"}}
    with caplog.at_level(logging.ERROR, logger=GUARD):
        for payload in ({"id": "1", "type": 2}, {"id": "2"}, {"id": "3", "type": 2, "data": {"v": "a\ud800"}}):
            parsers["INTERACTION_CREATE"](payload | user)
    assert read == ["1", "3"]
    assert [r.getMessage() for r in caplog.records] == [SKIPPED.format(2)]


def test_an_interaction_that_does_not_say_who_sent_it_is_skipped(caplog):
    """In a server Discord says who as `member`, elsewhere as `user`: a payload with neither (or a server's without
    its member) would reach a handler with no user, fail there and leave the interaction unanswered."""
    read: list[str] = []
    parsers = {"INTERACTION_CREATE": lambda data: read.append(data["id"])}
    validate_interactions(parsers)
    member, user = {"member": {"user": {"id": "5"}}}, {"user": {"id": "5"}}
    payloads = [
        {"id": "1", "guild_id": "9"} | member,
        {"id": "2", "guild_id": "9"} | user,
        {"id": "3"} | user,
        {"id": "4"},
        {"id": "5", "guild_id": "9", "member": "5"},
    ]
    with caplog.at_level(logging.WARNING, logger=GUARD):
        for payload in payloads:
            parsers["INTERACTION_CREATE"](payload)
    assert read == ["1", "3"]
    assert [r.getMessage() for r in caplog.records] == [
        f"an interaction without who sent it (id {n}) was skipped" for n in (2, 4, 5)
    ]


async def test_a_malformed_interaction_in_a_burst_stops_neither_the_others_nor_the_bot(fake, bot, caplog):
    """Through the real client: a frame discord.py cannot turn into an interaction (no type), sent between two
    lookups, is logged; both lookups are answered and the bot stays connected for the next one. (Before, its
    KeyError left discord.py's gateway reader and closed the shard: nothing after it was answered.)"""
    broken = fake._interaction(2, {"name": "termino"}, guild=None, user_id=7, locale="es-ES", permissions="0")
    del broken["type"]
    with caplog.at_level(logging.ERROR, logger=GUARD):
        sent = await asyncio.gather(
            fake.command("termino", {"termino": "horovod"}, user_id=5, permissions=MEMBER_PERMISSIONS),
            fake._dispatch(broken),
            fake.command("termino", {"termino": "allreduce"}, user_id=6, permissions=MEMBER_PERMISSIONS),
        )
        first, third = [await fake.response(iid) for iid in (sent[0], sent[2])]
    assert first["data"]["embeds"][0]["title"] == "Horovod"
    assert third["data"]["embeds"][0]["title"] == "AllReduce"
    assert SKIPPED.format(broken["id"]) in caplog.text
    later = await fake.response(await fake.command("termino", {"termino": "ray"}, user_id=8))
    assert later["data"]["embeds"][0]["title"] == "Ray"
