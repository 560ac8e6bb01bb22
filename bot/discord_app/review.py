"""The moderators' list of gaps: pages, and the buttons and menus on them (state in custom_id "glosario:…")."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.core.search import Found
from bot.core.status import GapStatus
from bot.discord_app.embeds import COLOUR, LIMITS, echo, fit, join_within, shorten
from bot.discord_app.i18n import t
from bot.discord_app.views import NO_MENTIONS, render_only
from bot.storage.db import DatabaseBusy, within_a_second

if TYPE_CHECKING:
    from bot.discord_app.client import GlossaryBot

log = logging.getLogger(__name__)
PAGE_SIZE = 10
STATUS_NAMES = {
    GapStatus.OPEN: "gaps_status_open",
    GapStatus.IGNORED: "gaps_status_ignored",
    GapStatus.RESOLVED: "gaps_status_resolved",
}
STATUS_CHOICES = {"abiertas": GapStatus.OPEN, "ignoradas": GapStatus.IGNORED, "resueltas": GapStatus.RESOLVED}
ORDER_CHOICES = {"frecuentes": "count", "recientes": "recent"}


@dataclass(frozen=True, slots=True)
class ListState:
    """Which page of the gaps list, in which order, of which status: the part of a gaps list custom_id that
    carries it. The one definition that writes it (`text`) and reads it back (`PATTERN`, `from_match`)."""

    page: int
    order: str  # "count" or "recent"
    status: GapStatus

    PATTERN = r"(?P<page>\d{1,5}):(?P<order>count|recent):(?P<status>" + "|".join(s.value for s in GapStatus) + ")"

    @property
    def text(self) -> str:
        return f"{max(self.page, 0)}:{self.order}:{self.status.value}"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ListState:
        return cls(int(match["page"]), match["order"], GapStatus(match["status"]))

    def turned(self, by: int) -> ListState:
        return ListState(max(self.page + by, 0), self.order, self.status)


async def is_moderator(bot: GlossaryBot, interaction: discord.Interaction) -> bool:
    """Manage Messages, or the editor role this server chose. default_permissions is only Discord's hint."""
    if interaction.guild is None:
        return False
    if interaction.permissions.manage_messages or interaction.permissions.manage_guild:
        return True
    role_id = await bot.services.roles.editor_role(interaction.guild.id)
    roles = getattr(interaction.user, "roles", [])
    return role_id is not None and any(role.id == role_id for role in roles)


async def moderator_or_denied(interaction: discord.Interaction[GlossaryBot]) -> bool:
    """True for a moderator; anyone else gets the short private refusal."""
    if await is_moderator(interaction.client, interaction):
        return True
    await deny(interaction)
    return False


async def deny(interaction: discord.Interaction, key: str = "admin_denied") -> None:
    await interaction.response.send_message(t(interaction.locale, key), ephemeral=True, allowed_mentions=NO_MENTIONS)


def _plural(locale: object, key: str, n: int) -> str:
    one, many = t(locale, key).split("|")
    return one if n == 1 else many


def _stamp(iso: str, style: str) -> str:
    try:
        return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:{style}>"
    except ValueError:
        return iso


async def render(
    bot: GlossaryBot, guild_id: int, locale: object, page: int, order: str, status: str
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of this guild's gaps, with paging buttons and the menus to act on its entries."""
    misses, glossary = bot.services.misses, bot.services.catalog.glossary
    total = await misses.count(guild_id=guild_id, status=status)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    gaps = await misses.gaps(guild_id=guild_id, status=status, order=order, limit=PAGE_SIZE, offset=page * PAGE_SIZE)
    status_name = t(locale, STATUS_NAMES[status])
    embed = discord.Embed(title=t(locale, "gaps_title", status=status_name), colour=COLOUR)
    lines = []
    for n, gap in enumerate(gaps, start=page * PAGE_SIZE + 1):
        line = t(
            locale,
            "gaps_line",
            n=n,
            query=echo(gap.sample),
            count=gap.count,
            times=_plural(locale, "gaps_times", gap.count),
            askers=gap.askers,
            people=_plural(locale, "gaps_people", gap.askers),
            first=_stamp(gap.first_seen, "d"),
            last=_stamp(gap.last_seen, "R"),
        )
        named = glossary.get(gap.resolved_term or gap.best_guess or "")
        if named is not None:
            key = "gaps_resolved_as" if gap.status == GapStatus.RESOLVED and gap.resolved_term else "gaps_guess"
            line += " · " + t(locale, key, term=named.term)
        # Every entry of the page is shown (the menus below offer all of them): each gets its share of room.
        lines.append(shorten(line, LIMITS["description"] // PAGE_SIZE - 1))
    embed.description = "\n".join(lines) or t(locale, "gaps_empty", status=status_name)
    unlogged = await misses.unlogged(guild_id=guild_id)
    if unlogged:
        embed.add_field(name="⚠️", value=t(locale, "gaps_unlogged", count=unlogged), inline=False)
    proposals = await misses.picks(guild_id=guild_id, limit=10)
    if proposals:
        lines = []
        for sample, term_id, times in proposals:
            named = glossary.get(term_id)
            lines.append(
                t(
                    locale,
                    "gaps_proposal_line",
                    query=echo(sample),
                    term=named.term if named else term_id,
                    times=times,
                    times_word=_plural(locale, "gaps_people", times),
                )
            )
        embed.add_field(name=t(locale, "gaps_proposals"), value=join_within(lines, LIMITS["field_value"]), inline=False)
    embed.set_footer(text=t(locale, "gaps_page", page=page + 1, pages=pages, total=total))
    state = ListState(page, order, GapStatus(status))
    items: list[discord.ui.Item] = [
        PageButton(state.turned(-1), t(locale, "gaps_prev"), disabled=page == 0),
        PageButton(state.turned(+1), t(locale, "gaps_next"), disabled=page >= pages - 1),
    ]
    if gaps:
        options = [
            discord.SelectOption(label=f"{n}. {gap.sample}"[:100], value=str(gap.id))
            for n, gap in enumerate(gaps, start=page * PAGE_SIZE + 1)
        ]
        if status == GapStatus.OPEN:
            items.append(ActSelect("ignore", state, t(locale, "gaps_ignore"), options, many=True))
            items.append(ActSelect("resolve", state, t(locale, "gaps_resolve"), options, many=False))
        else:
            items.append(ActSelect("reopen", state, t(locale, "gaps_reopen"), options, many=True))
    return fit(embed), render_only(items)


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"glosario:gaps:" + ListState.PATTERN):
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

    async def callback(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        state = self.state
        embed, view = await render(
            interaction.client, interaction.guild_id, interaction.locale, state.page, state.order, state.status
        )
        await interaction.response.edit_message(content=None, embed=embed, view=view, allowed_mentions=NO_MENTIONS)


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"glosario:gapact:(?P<action>ignore|resolve|reopen):" + ListState.PATTERN,
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
        self.page, self.order, self.status = state.page, state.order, state.status

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["action"], ListState.from_match(match))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction)

    async def callback(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        try:
            await self._act(interaction)
        except DatabaseBusy as exc:  # (items built from a message have no view of ours to route errors)
            await interaction.client.on_interaction_error(interaction, exc)

    async def _act(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        ids = gap_ids((interaction.data or {}).get("values", []))
        bot = interaction.client
        if self.action == "resolve":
            gap = await bot.services.misses.get(ids[0], guild_id=interaction.guild_id) if ids else None
            if gap is not None:
                await interaction.response.send_modal(ResolveModal(gap.id, gap.sample, self, interaction.locale))
                return
        else:
            status = GapStatus.IGNORED if self.action == "ignore" else GapStatus.OPEN
            if ids and await within_a_second(
                bot.services.misses.set_status(ids, status, guild_id=interaction.guild_id)
            ):
                embed, view = await render(
                    bot, interaction.guild_id, interaction.locale, self.page, self.order, self.status
                )
                await interaction.response.edit_message(
                    content=None, embed=embed, view=view, allowed_mentions=NO_MENTIONS
                )
                return
        # Nothing of this server's matched (a forged or stale value): say so, and show the list as it is now.
        log.info("gap action %s with values %r by user %s matched nothing", self.action, ids, interaction.user.id)
        embed, view = await render(bot, interaction.guild_id, interaction.locale, self.page, self.order, self.status)
        await interaction.response.edit_message(
            content=t(interaction.locale, "gaps_gone"), embed=embed, view=view, allowed_mentions=NO_MENTIONS
        )


MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger "id" names no gap


def gap_ids(values: list) -> list[int]:
    """The gap ids chosen in a menu; anything else (text, huge or negative numbers) is dropped."""
    ids = []
    for value in values[:25]:
        text = str(value)
        if text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID:
            ids.append(int(text))
    return ids


class ResolveModal(discord.ui.Modal):
    def __init__(self, miss_id: int, sample: str, source: ActSelect, locale: object) -> None:
        super().__init__(
            title=t(locale, "gaps_modal_title", query=sample)[:45], timeout=600, custom_id=f"glosario:resolve:{miss_id}"
        )
        self.miss_id, self.source, self.locale = miss_id, source, locale
        self.term = discord.ui.TextInput(label=t(locale, "gaps_modal_label")[:45], required=False, max_length=100)
        self.add_item(self.term)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """discord.py finds a modal by its custom_id alone: whoever submits it is checked like the command."""
        return await moderator_or_denied(interaction)

    async def on_error(self, interaction: discord.Interaction[GlossaryBot], error: Exception, /) -> None:
        await interaction.client.on_interaction_error(interaction, error)

    async def on_submit(self, interaction: discord.Interaction[GlossaryBot]) -> None:
        bot = interaction.client
        name = (self.term.value or "").strip()
        term_id = None
        if name:
            result = bot.services.catalog.index.lookup(name)
            if not isinstance(result, Found):
                await interaction.response.send_message(
                    t(interaction.locale, "gaps_modal_unknown", term=echo(name)),
                    ephemeral=True,
                    allowed_mentions=NO_MENTIONS,
                )
                return
            term_id = result.term.id
        await within_a_second(
            bot.services.misses.set_status(
                [self.miss_id], GapStatus.RESOLVED, guild_id=interaction.guild_id, term_id=term_id
            )
        )
        src = self.source
        embed, view = await render(bot, interaction.guild_id, interaction.locale, src.page, src.order, src.status)
        await interaction.response.edit_message(content=None, embed=embed, view=view, allowed_mentions=NO_MENTIONS)
