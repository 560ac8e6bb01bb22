"""Feedback on Discord: the "¿Te ha servido? 👍 👎" row under every card, the optional "¿Qué faltaba?" form after
a 👎, and what the editors see of it (the least helpful terms, the latest comments, the "Edit" button of a server
term). The counting is the application's (bot.app.feedback.votes)."""

from __future__ import annotations

import functools
import logging
import re

import discord

from bot.app.feedback.votes import MAX_COMMENT, Commented, Shown
from bot.core.model import Term
from bot.core.server_terms import TermFields
from bot.core.status import Vote
from bot.discord_app.kit.buttons import ButtonsView, asker, button_payload, served_guild
from bot.discord_app.kit.embeds import LIMITS, discord_time, echo, join_within, shorten
from bot.discord_app.kit.forms import BoundForm
from bot.discord_app.kit.i18n import language, t
from bot.discord_app.kit.permissions import moderator_or_denied
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.replies import reply
from bot.discord_app.kit.services import services
from bot.discord_app.server_terms.form import TermModal

log = logging.getLogger(__name__)
MAX_EDIT_BUTTONS = 5
_SIGN = {Vote.HELPFUL: "+", Vote.UNHELPFUL: "-"}
_EMOJI = {Vote.HELPFUL: "👍", Vote.UNHELPFUL: "👎"}
_LABEL = {Vote.HELPFUL: "fb_yes", Vote.UNHELPFUL: "fb_no"}
_THANKS = {Vote.HELPFUL: "fb_thanks_helpful", Vote.UNHELPFUL: "fb_thanks_unhelpful"}
_COMMENTED = {
    Commented.SAVED: "fb_comment_saved",
    Commented.EMPTY: "fb_thanks_unhelpful",
    Commented.OVER_BUDGET: "fb_comment_over_budget",
    Commented.GONE: "fb_unknown_term",
}
QUESTION_ID = "glosario:fb:ask"  # the row's question: a disabled button, never pressed


class VoteButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:fb:(?P<vote>[+-]):(?P<id>[^:]{1,72})"
):
    """👍 or 👎 on a term's card: the member's vote on that term in this server (changeable); a 👎 offers the
    "¿Qué faltaba?" form. A term the server does not have (a forged id) counts nothing and says so."""

    STYLE = discord.ButtonStyle.secondary

    def __init__(self, term_id: str, vote: Vote, label: str = "…") -> None:
        button = discord.ui.Button(
            label=label, emoji=_EMOJI[vote], style=self.STYLE, custom_id=self.custom_id_for(term_id, vote)
        )
        super().__init__(button)
        self.term_id, self.vote = term_id, vote

    @staticmethod
    def custom_id_for(term_id: str, vote: Vote) -> str:
        return f"glosario:fb:{_SIGN[vote]}:{term_id}"

    @classmethod
    def rendered(cls, term_id: str, vote: Vote, locale: object) -> dict:
        """This button's payload, for `ButtonsView`."""
        payload = button_payload(t(locale, _LABEL[vote]), cls.custom_id_for(term_id, vote), cls.STYLE)
        return {**payload, "emoji": {"id": None, "name": _EMOJI[vote]}}

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"], Vote.HELPFUL if match["vote"] == "+" else Vote.UNHELPFUL)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await services(interaction).guard.within_rate_limit(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        feedback, who, loc = services(interaction).app.feedback, asker(interaction), interaction.locale
        term = await feedback.vote(who, self.term_id, self.vote)
        if term is None:
            await interaction.response.send_message(t(loc, "fb_unknown_term"), ephemeral=True)
        elif self.vote is Vote.UNHELPFUL and feedback.may_comment(who, term.id):
            await CommentForm(interaction, term).show(interaction)
        else:
            await interaction.response.send_message(t(loc, _THANKS[self.vote]), ephemeral=True)


def vote_row(term: Term, locale: object) -> list[dict]:
    """The row under a card: "¿Te ha servido?" (a quiet, disabled label), 👍 and 👎, in the reader's language."""
    question, votes = _row_in(language(locale))
    row = [question]
    for prefix, button in votes:  # (a loop: a generator unpacked into the list cost a third more)
        row.append({**button, "custom_id": prefix + term.id})
    return row


@functools.cache
def _row_in(lang: str) -> tuple[dict, tuple[tuple[str, dict], ...]]:
    """The row's question, and each vote's button with its custom id's prefix (the id of no term), in one language:
    made once, as every card carries the row (made afresh, it was a tenth of a new card's cost). Shared: never
    modify them."""
    question = {**button_payload(t(lang, "fb_question"), QUESTION_ID, VoteButton.STYLE), "disabled": True}
    return question, tuple((VoteButton.custom_id_for("", vote), VoteButton.rendered("", vote, lang)) for vote in Vote)


class CommentForm(BoundForm):
    """The form "¿Qué faltaba?": what a member found missing in one term's definition, optional, editors only."""

    PREFIX = "glosario:fbform"

    def __init__(self, interaction: discord.Interaction, term: Term) -> None:
        locale = interaction.locale
        super().__init__(interaction, title=t(locale, "fb_modal_title"))
        self.term_id = term.id
        self.text = discord.ui.TextInput(
            label=shorten(t(locale, "fb_modal_label", term=term.term), 45),
            style=discord.TextStyle.paragraph,
            required=False,
            max_length=MAX_COMMENT,
        )
        self.add_item(self.text)

    async def refusal(self, interaction: discord.Interaction) -> str | None:
        return None  # whoever opened it (checked by BoundForm): any member may vote and comment

    async def apply(self, interaction: discord.Interaction) -> None:
        outcome = await services(interaction).app.feedback.comment(asker(interaction), self.term_id, self.text.value)
        await reply(interaction, t(interaction.locale, _COMMENTED[outcome]))


class EditTermButton(
    Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:fbedit:(?P<id>[^:]{1,72})"
):
    """Under the least helpful terms: opens the edit form of a server term (editors only)."""

    STYLE = discord.ButtonStyle.primary

    def __init__(self, term_id: str, label: str = "…") -> None:
        super().__init__(discord.ui.Button(label=label, style=self.STYLE, custom_id=self.custom_id_for(term_id)))
        self.term_id = term_id

    @staticmethod
    def custom_id_for(term_id: str) -> str:
        return f"glosario:fbedit:{term_id}"

    @classmethod
    def rendered(cls, term: Term, locale: object) -> dict:
        label = shorten(t(locale, "fb_edit", term=term.term), 80)
        return button_payload(label, cls.custom_id_for(term.id), cls.STYLE)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["id"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        guild_id = served_guild(interaction)
        row = await services(interaction).app.server_terms.get(guild_id, self.term_id) if guild_id else None
        if row is None:  # retired meanwhile, or a forged id
            log.info("edit of server term %r by user %s: not in service", self.term_id, interaction.user.id)
            await interaction.response.send_message(
                t(interaction.locale, "st_unknown", term=echo(self.term_id)),
                ephemeral=True,
            )
            return
        modal = TermModal(interaction, TermFields.from_dict(row.fields), previous_id=row.term_id)
        await modal.show(interaction)


# -- what the editors read ------------------------------------------------------------------------------------
def _fitted(lines: list[str], shown: Shown, locale: object) -> str:
    """Whole lines within a field's value; when not every one is shown, a last line says how many ("5 de 12")."""

    def of(left_out: int) -> str:
        return t(locale, "fb_shown_of", shown=len(lines) - left_out, total=shown.total)

    if shown.total <= len(lines):
        return join_within(lines, LIMITS["field_value"], of)
    text = join_within(lines, LIMITS["field_value"] - len(of(0)) - 1, of)
    return f"{text}\n{of(0)}" if text.count("\n") + 1 == len(lines) else text


def least_helpful_lines(shown: Shown, locale: object) -> str:
    """One line per term ("**Horovod** — 👎 4 de 5 (80 %) · 2 comentarios"), "5 de 12" when there are more; a
    field's value."""
    lines = [
        t(
            locale,
            "fb_line",
            term=discord.utils.escape_markdown(ranked.term.term),
            down=ranked.votes.unhelpful,
            votes=ranked.votes.votes,
            share=round(100 * ranked.votes.unhelpful_share),
            comments=ranked.votes.comments,
        )
        for ranked in shown.items
    ]
    return _fitted(lines, shown, locale)


def comment_lines(shown: Shown, locale: object) -> str:
    """The latest comments, escaped, each with its term and when (editors only); a field's value."""
    lines = [
        f"**{discord.utils.escape_markdown(name)}** · {discord_time(row.at, 'R')}: «{echo(row.comment or '')}»"
        for name, row in shown.items
    ]
    return _fitted(lines, shown, locale)


def edit_buttons(shown: Shown, locale: object) -> ButtonsView | None:
    """An "Editar" button for each server term among the least helpful (published ones are edited in the repo)."""
    own = [ranked.term for ranked in shown.items if ranked.server_term][:MAX_EDIT_BUTTONS]
    return ButtonsView([EditTermButton.rendered(term, locale) for term in own]) if own else None
