"""Persistent items (buttons and menus that keep working after a restart: discord.py's DynamicItem) that fail the
way commands fail. discord.py only logs an exception raised while such an item is made from its custom_id, checked
or run, so the member would wait for Discord's 3 s and then be told the button "no longer works". Every persistent
item of the bot mixes in `Persistent`, first among its bases:

    class TermButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:term:…"):

- an error in `callback` or `interaction_check` reaches the guard's apology (and the log, with its traceback);
- a custom_id its class cannot read (forged, or from an older version) is a refusal, logged at INFO, answered at
  once with the short "this no longer works" note."""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

import discord

from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.services import services

log = logging.getLogger(__name__)


class Persistent:
    """Mix-in for DynamicItems: errors routed like commands' (see the module's docstring)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "callback" in cls.__dict__:
            cls.callback = _routed_callback(cls.__dict__["callback"])  # type: ignore[method-assign]
        if "interaction_check" in cls.__dict__:
            cls.interaction_check = _routed_check(cls.__dict__["interaction_check"])  # type: ignore[method-assign]
        if "from_custom_id" in cls.__dict__:
            cls.from_custom_id = _refusing(cls, cls.__dict__["from_custom_id"].__func__)  # type: ignore[method-assign]


def _routed_callback(callback):
    @functools.wraps(callback)
    async def routed(self, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except Exception as error:
            await services(interaction).guard.on_interaction_error(interaction, error)

    routed.__routed__ = True  # type: ignore[attr-defined]
    return routed


def _routed_check(check):
    @functools.wraps(check)
    async def routed(self, interaction: discord.Interaction) -> bool:
        try:
            return await check(self, interaction)
        except Exception as error:
            await services(interaction).guard.on_interaction_error(interaction, error)
            return False

    return routed


def _refusing(cls: type, make):
    @functools.wraps(make)
    async def reading(klass, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        try:
            return await make(klass, interaction, item, match)
        except Exception as error:
            custom_id = getattr(item, "custom_id", "?")
            log.info("unreadable %s custom_id %r from user %s: %r", cls.__name__, custom_id, interaction.user.id, error)
            return Unreadable(custom_id if isinstance(custom_id, str) else "")

    return classmethod(reading)


class Unreadable(discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:unreadable"):
    """What a custom_id that could not be read becomes: a refusal, at once (never registered: only made here)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id="glosario:unreadable"))
        self.read_as = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(getattr(item, "custom_id", ""))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(t(interaction.locale, "stale_interaction"), ephemeral=True)
