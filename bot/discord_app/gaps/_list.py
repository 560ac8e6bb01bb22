"""The moderators' list of gaps: pages, and the buttons and menus on them (state in custom_id "glosario:…")."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import discord

from bot.app.community.server_terms import Saved
from bot.app.review.gaps import PAGE_SIZE, Gap, GapPage, GapReview
from bot.core.invisible import one_line
from bot.core.server_terms import TermFields
from bot.core.status import GapKind, GapOrder, GapStatus
from bot.discord_app.feedback import least_helpful_lines
from bot.discord_app.kit.buttons import chosen_ids, render_only
from bot.discord_app.kit.embeds import COLOUR, LIMITS, discord_time, echo, escaped, fit, join_within, shorten
from bot.discord_app.kit.forms import FORM_TITLE, BoundForm
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import moderator_or_denied
from bot.discord_app.kit.persistent import Persistent
from bot.discord_app.kit.replies import reply
from bot.discord_app.kit.services import services
from bot.discord_app.server_terms.form import TermModal

log = logging.getLogger(__name__)
STATUS_NAMES = {
    GapStatus.OPEN: "gaps_status_open",
    GapStatus.IGNORED: "gaps_status_ignored",
    GapStatus.RESOLVED: "gaps_status_resolved",
}
STATUS_CHOICES = {"abiertas": GapStatus.OPEN, "ignoradas": GapStatus.IGNORED, "resueltas": GapStatus.RESOLVED}
ORDER_CHOICES = {"frecuentes": GapOrder.COUNT, "recientes": GapOrder.RECENT}


@dataclass(frozen=True, slots=True)
class ListState:
    """Which page of the gaps list, in which order, of which status: the part of a gaps list custom_id that
    carries it. The one definition that writes it (`text`) and reads it back (`PATTERN`, `from_match`)."""

    page: int
    order: GapOrder
    status: GapStatus

    PATTERN = (
        r"(?P<page>\d{1,5}):(?P<order>"
        + "|".join(o.value for o in GapOrder)
        + "):(?P<status>"
        + "|".join(s.value for s in GapStatus)
        + ")"
    )

    @property
    def text(self) -> str:
        return f"{max(self.page, 0)}:{self.order}:{self.status.value}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ListState:
        return cls(int(match["page"]), GapOrder(match["order"]), GapStatus(match["status"]))

    def turned(self, by: int) -> ListState:
        return ListState(max(self.page + by, 0), self.order, self.status)


def _plural(locale: object, key: str, n: int) -> str:
    one, many = t(locale, key).split("|")
    return one if n == 1 else many


QUESTION_MARK = "❓"  # a gap asked as a question (a description, not a name)


def gap_label(gap: Gap) -> str:
    """A gap as lists name it: its text, marked when it was asked as a question."""
    return (f"{QUESTION_MARK} " if gap.kind == GapKind.QUESTION else "") + f"«{echo(gap.sample)}»"


def gap_lines(page: GapPage, locale: object) -> list[str]:
    """The entries of one page of the gaps list, one line each (every entry shown: the menus below offer all of
    them, so each gets its share of the description)."""
    lines = []
    for row in page.rows:
        gap = row.gap
        line = t(
            locale,
            "gaps_line",
            n=row.number,
            query=echo(gap.sample),
            count=gap.count,
            times=_plural(locale, "gaps_times", gap.count),
            askers=gap.askers,
            people=_plural(locale, "gaps_people", gap.askers),
            first=discord_time(gap.first_seen, "d"),
            last=discord_time(gap.last_seen, "R"),
        )
        if row.term is not None:
            line += " · " + t(locale, "gaps_resolved_as" if row.resolved_as else "gaps_guess", term=escaped(row.term))
        if gap.kind == GapKind.QUESTION:
            line = f"{QUESTION_MARK} {line}"
        lines.append(shorten(line, LIMITS["description"] // PAGE_SIZE - 1))
    return lines


def proposal_lines(page: GapPage, locale: object) -> list[str]:
    """The alias proposals members made by picking suggestions ("'horovd' → Horovod, 3 personas")."""
    return [
        t(
            locale,
            "gaps_proposal_line",
            query=echo(p.sample),
            term=escaped(p.term),
            times=p.people,
            times_word=_plural(locale, "gaps_people", p.people),
        )
        for p in page.proposals
    ]


def gaps_embed(page: GapPage, locale: object) -> discord.Embed:
    status_name = t(locale, STATUS_NAMES[page.status])
    embed = discord.Embed(title=t(locale, "gaps_title", status=status_name), colour=COLOUR)
    embed.description = "\n".join(gap_lines(page, locale)) or t(locale, "gaps_empty", status=status_name)
    if any(row.gap.kind == GapKind.QUESTION for row in page.rows):
        embed.add_field(name=QUESTION_MARK, value=t(locale, "gaps_question_legend"), inline=False)
    if page.unlogged:
        embed.add_field(name="⚠️", value=t(locale, "gaps_unlogged", count=page.unlogged), inline=False)
    if page.proposals:
        value = join_within(proposal_lines(page, locale), LIMITS["field_value"])
        embed.add_field(name=t(locale, "gaps_proposals"), value=value, inline=False)
    if page.improvable is not None and page.improvable.total:  # feedback: definitions members found unhelpful
        value = least_helpful_lines(page.improvable, locale)
        embed.add_field(name=t(locale, "fb_improvable"), value=value, inline=False)
    embed.set_footer(text=t(locale, "gaps_page", page=page.page + 1, pages=page.pages, total=page.total))
    return fit(embed)


def gaps_items(page: GapPage, locale: object) -> list[discord.ui.Item]:
    """Paging buttons, and the menus to act on the page's entries."""
    state = ListState(page.page, page.order, page.status)
    items: list[discord.ui.Item] = [
        PageButton(state.turned(-1), t(locale, "gaps_prev"), disabled=page.page == 0),
        PageButton(state.turned(+1), t(locale, "gaps_next"), disabled=page.page >= page.pages - 1),
    ]
    if page.rows:
        options = [
            discord.SelectOption(label=f"{row.number}. {row.gap.sample}"[:100], value=str(row.gap.id))
            for row in page.rows
        ]
        if page.status == GapStatus.OPEN:
            items.append(ActSelect("ignore", state, t(locale, "gaps_ignore"), options, many=True))
            items.append(ActSelect("resolve", state, t(locale, "gaps_resolve"), options, many=False))
            items.append(ActSelect("define", state, t(locale, "gaps_define"), options, many=False))
        else:
            items.append(ActSelect("reopen", state, t(locale, "gaps_reopen"), options, many=True))
    if page.proposals and page.status == GapStatus.OPEN:
        accept = [
            discord.SelectOption(label=shorten(f"«{p.sample}» → {p.term}", 100), value=f"{p.qhash}:{p.term_id}"[:100])
            for p in page.proposals
        ]
        items.append(ActSelect("accept", state, t(locale, "gaps_accept"), accept, many=False))
    return items


async def render(
    review: GapReview, guild_id: int, locale: object, state: ListState
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of this guild's gaps, with paging buttons and the menus to act on its entries."""
    page = await review.page(guild_id, state.status, state.order, state.page)
    return gaps_embed(page, locale), render_only(gaps_items(page, locale))


class PageButton(Persistent, discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:gaps:" + ListState.PATTERN):
    def __init__(self, state: ListState, label: str = "…", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"glosario:gaps:{state.text}",
            )
        )
        self.state = state

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(ListState.from_match(match))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        embed, view = await render(
            services(interaction).app.review, interaction.guild_id, interaction.locale, self.state
        )
        await interaction.response.edit_message(content=None, embed=embed, view=view)


class ActSelect(
    Persistent,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"glosario:gapact:(?P<action>ignore|resolve|reopen|define|accept):" + ListState.PATTERN,
):
    def __init__(
        self,
        action: str,
        state: ListState,
        placeholder: str = "…",
        options: list[discord.SelectOption] | None = None,
        many: bool = True,
    ) -> None:
        options = options or [discord.SelectOption(label="…", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"glosario:gapact:{action}:{state.text}",
                placeholder=placeholder,
                options=options,
                min_values=1,
                max_values=len(options) if many else 1,
            )
        )
        self.action, self.state = action, state

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["action"], ListState.from_match(match))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        review, guild_id, loc = services(interaction).app.review, interaction.guild_id, interaction.locale
        if self.action == "accept":
            await self._accept(interaction)
            return
        ids = chosen_ids((interaction.data or {}).get("values", []))
        if self.action in ("resolve", "define"):
            gap = await review.get(guild_id, ids[0]) if ids else None
            if gap is not None and self.action == "define":  # the most asked spelling as the name
                name = await review.most_asked_spelling(guild_id, gap.id) or gap.sample
                await DefineModal(interaction, TermFields(name, ""), gap.id).show(interaction)
                return
            if gap is not None:
                await ResolveModal(interaction, gap.id, gap.sample, self.state).show(interaction)
                return
        else:
            status = GapStatus.IGNORED if self.action == "ignore" else GapStatus.OPEN
            if await review.decide(guild_id, ids, status):
                embed, view = await render(review, guild_id, loc, self.state)
                await interaction.response.edit_message(content=None, embed=embed, view=view)
                return
        # Nothing of this server's matched (a forged or stale value): say so, and show the list as it is now.
        log.info("gap action %s with values %r by user %s matched nothing", self.action, ids, interaction.user.id)
        embed, view = await render(review, guild_id, loc, self.state)
        await interaction.response.edit_message(content=t(interaction.locale, "gaps_gone"), embed=embed, view=view)

    async def _accept(self, interaction: discord.Interaction) -> None:
        """An alias proposal accepted: the spelling answers at once in this server, and its gap is resolved."""
        review, guild_id, loc = services(interaction).app.review, interaction.guild_id, interaction.locale
        values = (interaction.data or {}).get("values", [])
        match = re.fullmatch(r"(?P<qhash>[0-9a-f]{8}):(?P<term>[^:]{1,72})", str(values[0])) if values else None
        accepted = None
        if match is not None:
            accepted = await services(interaction).app.server_terms.accept_alias(
                guild_id, interaction.user.id, match["qhash"], match["term"]
            )
        if accepted is None:  # a forged or settled proposal
            log.info("alias proposal %r by user %s matched nothing", values[:1], interaction.user.id)
        note = (
            t(loc, "gaps_accepted", spelling=echo(accepted[0]), term=escaped(accepted[1].term))
            if accepted
            else t(loc, "gaps_gone")
        )
        embed, view = await render(review, guild_id, loc, self.state)
        await interaction.response.edit_message(content=note, embed=embed, view=view)


class ResolveModal(BoundForm):
    """Which published term answers one gap, from the moderator who chose it."""

    PREFIX, UPDATES_MESSAGE = "glosario:resolve", True

    def __init__(self, interaction: discord.Interaction, gap_id: int, sample: str, state: ListState) -> None:
        locale = interaction.locale
        room = FORM_TITLE - len(t(locale, "gaps_modal_title", query=""))  # (the query cut, its quotes kept)
        super().__init__(interaction, title=t(locale, "gaps_modal_title", query=one_line(sample, room)))
        self.gap_id, self.state, self.locale = gap_id, state, locale
        self.term = discord.ui.TextInput(label=t(locale, "gaps_modal_label")[:45], required=False, max_length=100)
        self.add_item(self.term)

    async def apply(self, interaction: discord.Interaction) -> None:
        review, guild_id = services(interaction).app.review, interaction.guild_id
        name = (self.term.value or "").strip()
        term_id = review.term_named(name) if name else None
        if name and term_id is None:
            await reply(interaction, t(interaction.locale, "gaps_modal_unknown", term=echo(name)))
            return
        await review.decide(guild_id, [self.gap_id], GapStatus.RESOLVED, term_id)
        embed, view = await render(review, guild_id, interaction.locale, self.state)
        await interaction.edit_original_response(content=None, embed=embed, view=view)  # the list, updated


class DefineModal(TermModal):
    """*Definir*: a server term written for one gap, which that gap's resolution names (whatever name the
    moderator gives the term in the form)."""

    def __init__(self, interaction: discord.Interaction, fields: TermFields, gap_id: int) -> None:
        super().__init__(interaction, fields)
        self.gap_id = gap_id

    def again(self, interaction: discord.Interaction, fields: TermFields) -> TermModal:
        return DefineModal(interaction, fields, self.gap_id)

    async def after_saved(self, interaction: discord.Interaction, saved: Saved) -> None:
        review = services(interaction).app.review
        await review.decide(interaction.guild_id or 0, [self.gap_id], GapStatus.RESOLVED, saved.term.id)
