"""Buttons as every feature sends them: payloads in a shared view (their clicks reach the persistent items
registered by custom_id), the label limit, and whose server an interaction is about."""

from __future__ import annotations

import logging

import discord

from bot.app.lookup.lookups import Asker

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
MAX_BUTTONS = 5
MAX_LABEL = 80  # Discord: characters in a button's label


def served_guild(interaction: discord.Interaction) -> int:
    """The server whose glossary this interaction reads and whose moderators see its gaps: the one it comes from
    when the bot is installed there, its bot user among the servers it is in; 0 otherwise (a DM, a group DM, a
    server the bot is not in, reached through a member's own install of the app or through a server install of the
    commands alone: personal, never attributed to that server)."""
    guild_id = interaction.guild_id
    if not guild_id or not interaction.is_guild_integration():
        return 0
    context = interaction.context  # (Discord never names a server for a DM or group DM: such a payload is not one)
    if context.dm_channel or context.private_channel:
        return 0
    # A server install without the bot user (scope applications.commands alone) names the server as its owner too:
    # the bot sees none of it (no GUILD_CREATE, no removal to forget it by), so it is no server the bot serves.
    return guild_id if interaction.client.get_guild(guild_id) is not None else 0


def asker(interaction: discord.Interaction) -> Asker:
    """Who asked, and in which server (0 outside one the bot serves), as the application wants it."""
    return Asker(served_guild(interaction), interaction.user.id)


def button_label(text: str) -> str:
    """A button's label within Discord's 80 characters."""
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def render_only(items: list[discord.ui.Item]) -> discord.ui.View:
    """A view used only to render buttons. Clicks reach the DynamicItems registered on the bot, so the view is
    stopped: discord.py then keeps no copy of it, where it would otherwise store one per message, forever."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def button_payload(label: str, custom_id: str, style: discord.ButtonStyle) -> dict:
    """A button as Discord's payload, for `ButtonsView`."""
    label = label if len(label) <= MAX_LABEL else button_label(label)  # (most labels are short: no call for them)
    return {"type": 2, "style": style.value, "label": label, "custom_id": custom_id, "disabled": False}


class ButtonsView(discord.ui.View):
    """Buttons kept as their payload, for the messages sent on every lookup (cards, suggestions, lists).

    Their clicks reach the DynamicItems registered on the bot by custom_id, so this view needs no items:
    building discord.py's item objects for every reply cost more than the lookup itself. It never dispatches,
    is finished from the start (discord.py then keeps no copy of it) and can be shared by any number of messages.

    For the same reason View's own state is not made (`View.__init__` draws an id from os.urandom and makes a
    future, the children and their row weights: 40 K instructions a view, more than a card's text). What discord.py
    asks of a view it sends is answered here: `to_components`, `is_finished`, `is_dispatchable`,
    `has_components_v2`, `timeout` (the bot's tests send one as a reply, an edit, a follow-up and a post).
    """

    timeout = None  # (View's property reads the state this view does not make)

    def __init__(self, buttons: list[dict], *, below: list[dict] | None = None) -> None:
        """Rows of up to five buttons; `below`, one more row under them (a card's "¿Te ha servido?")."""
        # No super().__init__(): see the class's docstring.
        self._children: list[discord.ui.Item] = []  # (read by View's `children` and repr)
        # The usual view, a card's, has one row or none, and a `below` within a row: the lists given are taken as
        # they are (made for this view: never changed after), without copies nor a loop.
        if len(buttons) <= MAX_BUTTONS:
            self._rows = [{"type": 1, "components": buttons}] if buttons else []
        else:
            self._rows = [
                {"type": 1, "components": buttons[i : i + MAX_BUTTONS]} for i in range(0, len(buttons), MAX_BUTTONS)
            ]
        if below:
            self._rows.append({"type": 1, "components": below if len(below) <= MAX_BUTTONS else below[:MAX_BUTTONS]})

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    def to_components(self) -> list[dict]:
        return self._rows

    def with_row(self, buttons: list[dict]) -> ButtonsView:
        """A view of these rows and one more below them."""
        view = ButtonsView([])
        view._rows = [*self._rows, {"type": 1, "components": buttons[:MAX_BUTTONS]}]
        return view


MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger "id" names no row


def chosen_ids(values: list) -> list[int]:
    """The ids (gaps, proposals) chosen in a menu; anything else (text, huge or negative numbers) is dropped."""
    ids = []
    for value in values[:25]:
        text = str(value)
        if text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID:
            ids.append(int(text))
    return ids
