"""Persistent buttons and menus fail the way commands fail: an error reaches the same apology at once, and a
custom_id from an older version is still read (or refused politely), never an ERROR traceback per click."""

from __future__ import annotations

import logging

import discord

from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.persistent import Persistent
from tests.fake_discord.server import message_of


class Exploding(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"test:explode"):
    """A button whose handler fails (only in this test)."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="💥", custom_id="test:explode"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")


def carrying(custom_id: str) -> dict:
    button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    return message_of({"content": "…", "components": [{"type": 1, "components": [button]}]})


async def test_an_error_in_a_buttons_handler_gets_the_apology_at_once(fake, bot, caplog):
    bot.add_dynamic_items(Exploding)
    caplog.set_level(logging.INFO)
    reply = await fake.response(await fake.click(carrying("test:explode"), "test:explode"), timeout=2)
    assert reply["data"]["content"] == t("es", "error") and reply["data"]["flags"] & 64  # not "no longer works"
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failures) == 1 and failures[0].exc_info is not None  # logged once, with its traceback


async def test_a_suggestion_from_before_signatures_still_opens_its_term(fake, bot, caplog):
    caplog.set_level(logging.INFO)
    old = "glosario:pick:0:deadbeef:horovod"
    reply = await fake.response(await fake.click(carrying(old), old), timeout=2)
    assert reply["data"]["embeds"][0]["title"] == "Horovod"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_every_persistent_item_of_the_bot_routes_its_errors():
    """A new button or menu cannot forget: every DynamicItem of the bot mixes in Persistent."""
    import importlib
    import inspect
    import pkgutil

    import bot.discord_app as package
    from bot.discord_app.kit.persistent import Unreadable

    found = set()
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        for _, cls in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            if issubclass(cls, discord.ui.DynamicItem) and cls.__module__.startswith("bot.") and cls is not Unreadable:
                found.add(cls)
    assert len(found) >= 10
    assert [c.__name__ for c in found if not issubclass(c, Persistent)] == []
