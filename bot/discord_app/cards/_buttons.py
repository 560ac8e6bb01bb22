"""The buttons under every term card: "see also" (a related term, in place in a private card), "open" (a term
in a new private message), and the card with its buttons as a reply."""

from __future__ import annotations

import re

import discord

from bot.core.model import Glossary, Term
from bot.discord_app.feedback import vote_row
from bot.discord_app.kit.buttons import MAX_BUTTONS, ButtonsView, button_label, button_payload, served_guild
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.services import services


class TermButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:term:(?P<id>[^:]{1,72})"):
    """Opens a related term. In an ephemeral card it navigates in place; elsewhere it answers privately."""

    PREFIX = "glosario:term:"
    STYLE = discord.ButtonStyle.secondary
    in_place = True  # in an ephemeral card, show the related term in place of this one

    def __init__(self, term_id: str, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(label=button_label(label), style=self.STYLE, custom_id=self.custom_id_for(term_id))
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

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await services(interaction).guard.within_rate_limit(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        message = interaction.message
        in_place = self.in_place and message is not None and message.flags.ephemeral
        await show_term(interaction, self.term_id, "edit" if in_place else "private")


class OpenButton(TermButton, template=r"glosario:open:(?P<id>[^:]{1,72})"):
    """Opens a term in a new private message (from a list that should stay on screen)."""

    PREFIX = "glosario:open:"
    in_place = False


async def show_term(interaction: discord.Interaction, term_id: str, how: str) -> Term | None:
    """Answer with a term's card (counted as a lookup): "edit" (in place of the clicked message), "private" or
    "public" (a new message). A term a reload removed gets a short private note instead. Returns the term shown."""
    bot = services(interaction)
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


def related_view(term: Term, glossary: Glossary) -> discord.ui.View | None:
    """One "see also" button per related term (up to five)."""
    buttons = _related_buttons(term, glossary)
    return ButtonsView(buttons) if buttons else None


def card_view(term: Term, glossary: Glossary, locale: object) -> discord.ui.View:
    """A card's buttons: "see also" (up to five), then "¿Te ha servido?". Built once per card (cards are cached)."""
    return ButtonsView(_related_buttons(term, glossary), below=vote_row(term, locale))


def _related_buttons(term: Term, glossary: Glossary) -> list[dict]:
    buttons = []
    for term_id in term.all_related():  # every sense's
        other = glossary.get(term_id)
        if other is not None:
            buttons.append(TermButton.rendered(other))
            if len(buttons) == MAX_BUTTONS:
                break
    return buttons
