"""The form for a server's own term (a modal of five fields), what a save answers, and the "Fix" button that
brings back what was typed when a save is refused (nothing typed is lost)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.app.community.server_terms import Refused, Saved
from bot.app.errors import DatabaseBusy
from bot.core.normalize import normalize
from bot.core.server_terms import TermFields
from bot.discord_app.kit.buttons import ButtonsView, button_payload
from bot.discord_app.kit.embeds import COLOUR, LIMITS, echo, escaped, fit, join_within, shorten
from bot.discord_app.kit.forms import BoundForm
from bot.discord_app.kit.i18n import language, t
from bot.discord_app.kit.permissions import moderator_or_denied
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.replies import reply
from bot.discord_app.kit.services import services

log = logging.getLogger(__name__)
DRAFT_SECONDS = 3600.0  # how long refused fields wait for their author to fix them
MAX_DRAFTS = 1000


@dataclass(frozen=True)
class Draft:
    """What a refused form held, and how to open that form again (the same kind, for the same term or proposal)."""

    fields: TermFields
    again: Callable[[discord.Interaction, TermFields], discord.ui.Modal]  # the form, filled in with the fields
    previous_id: str | None = None  # the server term being edited
    proposing: bool = False  # a member's proposal (it may not become an alias)
    taken_by: str | None = None  # the term whose name or alias the typed name already is


class Drafts:
    """Fields a save refused, per (server, member), for the "Fix" button: only their author gets them back."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, int], tuple[float, Draft]] = {}

    def keep(self, guild_id: int, user_id: int, draft: Draft) -> None:
        now = time.monotonic()
        if len(self._kept) >= MAX_DRAFTS:  # forget the expired ones; then the oldest
            self._kept = {k: v for k, v in self._kept.items() if now - v[0] < DRAFT_SECONDS}
            while len(self._kept) >= MAX_DRAFTS:
                self._kept.pop(next(iter(self._kept)))
        self._kept[(guild_id, user_id)] = (now, draft)

    def take(self, guild_id: int, user_id: int) -> Draft | None:
        found = self._kept.pop((guild_id, user_id), None)
        if found is None or time.monotonic() - found[0] >= DRAFT_SECONDS:
            return None
        return found[1]

    def forget(self, user_id: int) -> None:
        """A member asked to be forgotten: what their refused forms held, in every server, goes."""
        self._kept = {key: kept for key, kept in self._kept.items() if key[1] != user_id}


class TermModal(BoundForm):
    """New term, edit, or a gap to define: one form, bound to the editor who opened it, in that server, for that
    term or proposal. Whoever submits it is checked like the command."""

    PREFIX, TITLE = "glosario:stform", "st_modal_new"

    def __init__(
        self, interaction: discord.Interaction, fields: TermFields | None = None, previous_id: str | None = None
    ) -> None:
        fields = fields or TermFields("", "")
        locale = interaction.locale
        key = "st_modal_edit" if previous_id else self.TITLE
        super().__init__(interaction, title=t(locale, key))
        self.previous_id = previous_id

        def box(label: str, value: str, limit: int, *, long: bool = False, required: bool = False):
            item = discord.ui.TextInput(
                label=t(locale, label)[:45],
                style=discord.TextStyle.paragraph if long else discord.TextStyle.short,
                default=value[:limit] or None,
                max_length=limit,
                required=required,
            )
            self.add_item(item)
            return item

        self.name = box("st_name", fields.term, 256, required=True)
        self.definition = box("st_definition", fields.definition, 4000, long=True, required=True)
        self.en = box("st_en", fields.en, 256)
        self.aliases = box("st_aliases", fields.aliases, 1000)
        self.related = box("st_related", fields.related, 1000)

    def fields(self) -> TermFields:
        values = (self.name, self.definition, self.en, self.aliases, self.related)
        return TermFields(*((item.value or "") for item in values))

    def again(self, interaction: discord.Interaction, fields: TermFields) -> TermModal:
        """The same form (same kind, same term), filled in with `fields`: the "Fix" button's."""
        return type(self)(interaction, fields, self.previous_id)

    async def save(self, interaction: discord.Interaction, fields: TermFields) -> Saved | Refused | None:
        """What submitting does (None: nothing to save any more, and the member was told)."""
        bot = services(interaction)
        guild_id = interaction.guild_id or 0
        return await bot.app.server_terms.save(guild_id, interaction.user.id, fields, previous_id=self.previous_id)

    async def after_saved(self, interaction: discord.Interaction, saved: Saved) -> None:
        """Anything a saved term leads to, after the answer (a gap defined, a proposer told)."""

    async def not_saved(self, interaction: discord.Interaction, fields: TermFields, error: DatabaseBusy) -> None:
        """The database did not take it, however long it waited: what was typed comes back, with "Fix"."""
        log.warning("database busy for form %s of user %s: %s", self.custom_id, self.user_id, error)
        draft = Draft(fields, self.again, self.previous_id, proposing=self.PROPOSING)
        services(interaction).drafts.keep(self.guild_id, self.user_id, draft)
        fix = FixButton.rendered(t(interaction.locale, "st_fix"))
        await answer_typed(interaction, t(interaction.locale, "db_busy"), fields, [fix])

    OFFERS_ALIAS = True  # a refused name that already leads to a term may become its alias instead
    PROPOSING = False  # a member's proposal (it may not become an alias)

    async def apply(self, interaction: discord.Interaction) -> None:
        fields, guild_id, user_id = self.fields(), interaction.guild_id or 0, interaction.user.id
        try:
            saved = await self.save(interaction, fields)
        except DatabaseBusy as exc:
            await self.not_saved(interaction, fields, exc)
            return
        if saved is None:
            return
        if isinstance(saved, Saved):
            await answer_saved(interaction, saved)
            await self.after_saved(interaction, saved)
        else:
            taken = saved.taken_by.id if saved.taken_by else None
            draft = Draft(fields, self.again, self.previous_id, proposing=self.PROPOSING, taken_by=taken)
            services(interaction).drafts.keep(guild_id, user_id, draft)
            await answer_refused(interaction, saved, fields, offer_alias=self.OFFERS_ALIAS)


async def answer_saved(interaction: discord.Interaction, saved: Saved) -> None:
    loc, bot = interaction.locale, services(interaction)
    key = "st_saved_resolved" if saved.resolved else "st_saved"
    text = t(loc, key, term=discord.utils.escape_markdown(saved.term.term), count=saved.resolved)
    overlay = bot.app.lookups.overlay(interaction.guild_id or 0)
    embed, view = bot.cards.card_for(saved.term, overlay, loc)
    await reply(interaction, text, embed=embed, view=view)


async def answer_refused(
    interaction: discord.Interaction, refused: Refused, fields: TermFields, *, offer_alias: bool = False
) -> None:
    """Every problem, what was typed (in an embed, so nothing is lost), and the button that brings the form back."""
    loc = interaction.locale
    english = language(loc) == "en"
    problems = [f"• {p.english if english else p.message}" for p in refused.problems]
    if refused.taken_here:
        problems.append(t(loc, "st_taken_server"))
    text = join_within([t(loc, "st_refused"), *problems], 1900)
    buttons = [FixButton.rendered(t(loc, "st_fix"))]
    taken = refused.taken_by
    name = normalize(fields.term)
    spelt = {normalize(s) for s in taken.spellings()} if taken is not None else set()
    if offer_alias and taken is not None and normalize(refused.taken_spelling or "") == name and name not in spelt:
        # The name typed already leads to that term (spelt another way): offer it as its alias instead.
        label = t(loc, "st_as_alias", spelling=shorten(fields.term, 30), term=shorten(taken.term, 30))
        buttons.append(AliasInsteadButton.rendered(label))
    await answer_typed(interaction, text, fields, buttons)


async def answer_typed(interaction: discord.Interaction, text: str, fields: TermFields, buttons: list[dict]) -> None:
    """Why the term was not saved, what was typed (in an embed, so nothing is lost), and the buttons."""
    loc = interaction.locale
    embed = discord.Embed(title=t(loc, "st_typed"), description=shorten(fields.definition or "—", 4000), colour=COLOUR)
    for label, value in (("st_name", fields.term), ("st_en", fields.en), ("st_aliases", fields.aliases)):
        if value:
            embed.add_field(name=t(loc, label), value=shorten(value, LIMITS["field_value"]), inline=False)
    if fields.related:
        embed.add_field(name=t(loc, "st_related"), value=shorten(fields.related, LIMITS["field_value"]), inline=False)
    await reply(interaction, text, embed=fit(embed), view=ButtonsView(buttons))


class _DraftButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:draft"):
    """A button on a refused form's reply: it carries no state (its custom_id is fixed); what it acts on is the
    presser's own draft, so nobody else's can be reached. Subclasses set their custom_id as their template."""

    CUSTOM_ID = "glosario:draft"
    STYLE = discord.ButtonStyle.primary

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="…", style=self.STYLE, custom_id=self.CUSTOM_ID))

    @classmethod
    def rendered(cls, label: str) -> dict:
        return button_payload(label, cls.CUSTOM_ID, cls.STYLE)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match, /):
        return cls()


class FixButton(_DraftButton, template=r"glosario:stfix"):
    """Brings the refused form back, filled in as its author left it (to them only)."""

    CUSTOM_ID = "glosario:stfix"

    async def callback(self, interaction: discord.Interaction) -> None:
        # Anyone may press it: it only ever brings back the presser's own draft, and the form it opens checks
        # whoever submits it like the command that first opened it.
        draft = services(interaction).drafts.take(interaction.guild_id or 0, interaction.user.id)
        if draft is None:
            await interaction.response.send_message(t(interaction.locale, "st_no_draft"), ephemeral=True)
            return
        await draft.again(interaction, draft.fields).show(interaction)


class AliasInsteadButton(_DraftButton, template=r"glosario:stalias"):
    """After a name collision: the typed name becomes an alias of the term that has it (its author only)."""

    CUSTOM_ID = "glosario:stalias"
    STYLE = discord.ButtonStyle.secondary

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot, guild_id, loc = services(interaction), interaction.guild_id or 0, interaction.locale
        draft = bot.drafts.take(guild_id, interaction.user.id)
        term = None
        if draft is not None and draft.taken_by is not None and not draft.proposing:
            spelling = draft.fields.term.strip()
            term = await bot.app.server_terms.add_alias(guild_id, interaction.user.id, spelling, draft.taken_by)
        if term is None:
            await interaction.response.send_message(t(loc, "st_no_draft"), ephemeral=True)
            return
        text = t(loc, "gaps_accepted", spelling=echo(draft.fields.term.strip()), term=escaped(term.term))
        await interaction.response.send_message(text, ephemeral=True)
