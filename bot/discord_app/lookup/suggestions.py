"""Suggestions after a query that named no term with confidence: one button per candidate, each signed by the
bot over (privacy, query, term), so that a click counts as an alias proposal only when the bot offered it."""

from __future__ import annotations

import re
from collections.abc import Callable

import discord

from bot.core.model import Term
from bot.core.search import Suggestion
from bot.discord_app.cards import show_term
from bot.discord_app.kit.buttons import MAX_BUTTONS, ButtonsView, asker, button_label, button_payload
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.services import services

Signer = Callable[[bool, str, str], str]  # (private, query hash, term id) → signature (Lookups.sign)


class SignedButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:signed"):
    """A button about one question (its hash) and one term, signed by the bot over (privacy, hash, term) with
    `Lookups.sign`: what it records counts only when the bot itself offered that term for that question.
    Subclasses set their template and `custom_id_for` (the base is never registered)."""

    STYLE = discord.ButtonStyle.secondary

    def __init__(self, term_id: str, qhash: str, private: bool, sig: str = "", label: str = "…") -> None:
        custom_id = self.custom_id_for(term_id, qhash, private, sig)
        super().__init__(discord.ui.Button(label=button_label(label), style=self.STYLE, custom_id=custom_id))
        self.term_id, self.qhash, self.private, self.sig = term_id, qhash, private, sig

    @staticmethod
    def custom_id_for(term_id: str, qhash: str, private: bool, sig: str) -> str:
        return "glosario:signed"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"], match["qhash"], match["private"] == "1", match["sig"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await services(interaction).guard.within_rate_limit(interaction)


class SuggestionButton(
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

    async def callback(self, interaction: discord.Interaction) -> None:
        # Private suggestions turn into the answer; public ones answer publicly, as the question was.
        term = await show_term(interaction, self.term_id, "edit" if self.private else "public")
        if term is not None:  # a proposal counts only with the bot's own signature
            lookups = services(interaction).app.lookups
            lookups.picked(asker(interaction), self.private, self.qhash, term.id, self.sig or None)


class UnsignedSuggestionButton(
    SuggestionButton, template=r"glosario:pick:(?P<private>[01]):(?P<qhash>[0-9a-f]{8}):(?P<id>[^:]{1,72})"
):
    """Suggestions sent before picks were signed: they still open the term, and propose nothing."""

    @staticmethod
    def custom_id_for(term_id: str, qhash: str, private: bool, sig: str) -> str:
        return f"glosario:pick:{int(private)}:{qhash}:{term_id}"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"], match["qhash"], match["private"] == "1")  # no signature: never counted


def suggestions_view(suggestions: tuple[Suggestion, ...], qhash: str, private: bool, sign: Signer) -> discord.ui.View:
    return ButtonsView([SuggestionButton.rendered(s.term, qhash, private, sign) for s in suggestions[:MAX_BUTTONS]])
