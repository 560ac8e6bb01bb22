"""Persistent buttons: state lives in the custom_id ("glosario:…"), so they keep working after a restart."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.app.lookups import Asker
from bot.core.model import Glossary, Term
from bot.core.search import Suggestion
from bot.discord_app.i18n import t
from bot.discord_app.persistent import Persistent

if TYPE_CHECKING:
    from bot.discord_app.client import GlossaryBot

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
MAX_BUTTONS = 5


def served_guild(interaction: discord.Interaction) -> int:
    """The server whose glossary this interaction reads and whose moderators see its gaps: the one it comes from
    when the bot is installed there; 0 otherwise (a DM, a group DM, or a server the bot is not in, reached through
    a member's own install of the app: personal, never attributed to that server)."""
    guild_id = interaction.guild_id
    return guild_id if guild_id and interaction.is_guild_integration() else 0


def asker(interaction: discord.Interaction) -> Asker:
    """Who asked, and in which server (0 outside one the bot serves), as the application wants it."""
    return Asker(served_guild(interaction), interaction.user.id)


def _label(text: str) -> str:
    return text if len(text) <= 80 else text[:79] + "…"


class TermButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:term:(?P<id>[^:]{1,72})"):
    """Opens a related term. In an ephemeral card it navigates in place; elsewhere it answers privately."""

    PREFIX = "glosario:term:"
    STYLE = discord.ButtonStyle.secondary
    in_place = True  # in an ephemeral card, show the related term in place of this one

    def __init__(self, term_id: str, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(label=_label(label), style=self.STYLE, custom_id=self.custom_id_for(term_id))
        )
        self.term_id = term_id

    @classmethod
    def custom_id_for(cls, term_id: str) -> str:
        return f"{cls.PREFIX}{term_id}"

    @classmethod
    def rendered(cls, term: Term) -> dict:
        """This button's payload, for `ButtonsView`."""
        return button_payload(term.term, cls.custom_id_for(term.id), cls.STYLE)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"])

    async def interaction_check(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        return await interaction.client.guard.within_rate_limit(interaction)

    async def callback(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        message = interaction.message
        in_place = self.in_place and message is not None and message.flags.ephemeral
        await show_term(interaction, self.term_id, "edit" if in_place else "private")


class OpenButton(TermButton, template=r"glosario:open:(?P<id>[^:]{1,72})"):
    """Opens a term in a new private message (from a list that should stay on screen)."""

    PREFIX = "glosario:open:"
    in_place = False


Signer = Callable[[bool, str, str], str]  # (private, query hash, term id) → signature (Lookups.sign)


class SignedButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:signed"):
    """A button about one question (its hash) and one term, signed by the bot over (privacy, hash, term) with
    `Lookups.sign`: what it records counts only when the bot itself offered that term for that question.
    Subclasses set their template and `custom_id_for` (the base is never registered)."""

    STYLE = discord.ButtonStyle.secondary

    def __init__(self, term_id: str, qhash: str, private: bool, sig: str = "", label: str = "…") -> None:
        custom_id = self.custom_id_for(term_id, qhash, private, sig)
        super().__init__(discord.ui.Button(label=_label(label), style=self.STYLE, custom_id=custom_id))
        self.term_id, self.qhash, self.private, self.sig = term_id, qhash, private, sig

    @staticmethod
    def custom_id_for(term_id: str, qhash: str, private: bool, sig: str) -> str:
        return "glosario:signed"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"], match["qhash"], match["private"] == "1", match["sig"])

    async def interaction_check(self, interaction: discord.Interaction[GlossaryBot]) -> bool:
        return await interaction.client.guard.within_rate_limit(interaction)


class PickButton(
    SignedButton,
    template=r"glosario:pk:(?P<private>[01])(?P<qhash>[0-9a-f]{8})(?P<sig>[0-9a-f]{6}):(?P<id>[^:]{1,72})",
):
    """A suggestion after an ambiguous query: shows the term and records (query → term) for the editors, as an
    alias proposal."""

    STYLE = discord.ButtonStyle.primary

    @staticmethod
    def custom_id_for(term_id: str, qhash: str, private: bool, sig: str) -> str:
        return f"glosario:pk:{int(private)}{qhash}{sig}:{term_id}"

    @classmethod
    def rendered(cls, term: Term, qhash: str, private: bool, sign: Signer) -> dict:
        """This button's payload, for `ButtonsView`."""
        sig = sign(private, qhash, term.id)
        return button_payload(term.term, cls.custom_id_for(term.id, qhash, private, sig), cls.STYLE)

    async def callback(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        # Private suggestions turn into the answer; public ones answer publicly, as the question was.
        term = await show_term(interaction, self.term_id, "edit" if self.private else "public")
        if term is not None:  # a proposal counts only with the bot's own signature
            lookups = interaction.client.app.lookups
            lookups.picked(asker(interaction), self.private, self.qhash, term.id, self.sig or None)


class UnsignedPickButton(
    PickButton, template=r"glosario:pick:(?P<private>[01]):(?P<qhash>[0-9a-f]{8}):(?P<id>[^:]{1,72})"
):
    """Suggestions sent before picks were signed: they still open the term, and propose nothing."""

    @staticmethod
    def custom_id_for(term_id: str, qhash: str, private: bool, sig: str) -> str:
        return f"glosario:pick:{int(private)}:{qhash}:{term_id}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"], match["qhash"], match["private"] == "1")  # no signature: never counted


async def show_term(interaction: discord.Interaction[GlossaryBot], term_id: str, how: str) -> Term | None:
    """Answer with a term's card (counted as a lookup): "edit" (in place of the clicked message), "private" or
    "public" (a new message). A term a reload removed gets a short private note instead. Returns the term shown."""
    bot = interaction.client
    here = await bot.app.lookups.for_guild(served_guild(interaction))
    term = here.open(interaction.user.id, term_id)
    if term is None:
        await interaction.response.send_message(t(interaction.locale, "term_gone"), ephemeral=True)
        return None
    embed, view = bot.cards.card_for(term, here.overlay, interaction.locale)
    if how == "edit":
        await interaction.response.edit_message(content=None, embed=embed, view=view)
    else:
        await interaction.response.send_message(
            embed=embed, view=view or discord.utils.MISSING, ephemeral=how == "private"
        )
    return term


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
    return {"type": 2, "style": style.value, "label": _label(label), "custom_id": custom_id, "disabled": False}


class ButtonsView(discord.ui.View):
    """Buttons kept as their payload, for the messages sent on every lookup (cards, suggestions, lists).

    Their clicks reach the DynamicItems registered on the bot by custom_id, so this view needs no items:
    building discord.py's item objects for every reply cost more than the lookup itself. It never dispatches,
    is finished from the start (discord.py then keeps no copy of it) and can be shared by any number of messages.
    """

    def __init__(self, buttons: list[dict]) -> None:
        super().__init__(timeout=None)
        self._rows = [
            {"type": 1, "components": buttons[i : i + MAX_BUTTONS]} for i in range(0, len(buttons), MAX_BUTTONS)
        ]

    def is_finished(self) -> bool:
        return True

    def to_components(self) -> list[dict]:
        return self._rows

    def with_row(self, buttons: list[dict]) -> ButtonsView:
        """A view of these rows and one more below them (a card's "¿Te ha servido?")."""
        view = ButtonsView([])
        view._rows = [*self._rows, {"type": 1, "components": buttons[:MAX_BUTTONS]}]
        return view


def related_view(term: Term, glossary: Glossary) -> discord.ui.View | None:
    """One "see also" button per related term (up to five)."""
    related = [r for r in (glossary.get(i) for i in term.related) if r is not None][:MAX_BUTTONS]
    return ButtonsView([TermButton.rendered(other) for other in related]) if related else None


def suggestions_view(suggestions: tuple[Suggestion, ...], qhash: str, private: bool, sign: Signer) -> discord.ui.View:
    return ButtonsView([PickButton.rendered(s.term, qhash, private, sign) for s in suggestions[:MAX_BUTTONS]])
