"""Paginated, private lists (search results, the whole glossary): only the asker pages; buttons go grey on timeout."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable

import discord

from bot.core.model import Term
from bot.discord_app.kit.embeds import fit
from bot.discord_app.kit.i18n import t

PageRenderer = Callable[[int], tuple[discord.Embed, list[Term]]]


class Pager(discord.ui.View):
    """Previous / next, and a menu to open any term of the page. Lives in memory for `TIMEOUT` seconds (shorter
    than the 15 minutes an interaction token lasts, so the message can still be edited to disable it)."""

    TIMEOUT = 600.0

    def __init__(
        self,
        owner_id: int,
        locale: object,
        pages: int,
        render: PageRenderer,
        open_term: Callable[[discord.Interaction, str], object],
        *,
        buttons: bool = False,
    ) -> None:
        super().__init__(timeout=self.TIMEOUT)
        self.buttons = buttons  # one button per term (pages of up to 5), or one menu (longer pages)
        self.owner_id, self.locale, self.pages, self._render, self._open = owner_id, locale, pages, render, open_term
        self.page = 0
        self.interaction: discord.Interaction | None = None  # the command that showed the list
        self.prev = discord.ui.Button(label=t(locale, "gaps_prev"), style=discord.ButtonStyle.secondary, row=0)
        self.next = discord.ui.Button(label=t(locale, "gaps_next"), style=discord.ButtonStyle.secondary, row=0)
        self.prev.callback, self.next.callback = self._go_prev, self._go_next
        self.add_item(self.prev)
        self.add_item(self.next)
        self.openers: list[discord.ui.Item] = []

    def current(self) -> discord.Embed:
        """The embed of the current page (and the view's items set for it)."""
        embed, terms = self._render(self.page)
        embed.set_footer(text=t(self.locale, "pager_page", page=self.page + 1, pages=self.pages))
        fit(embed)
        self.prev.disabled = self.page == 0
        self.next.disabled = self.page >= self.pages - 1
        for item in self.openers:
            self.remove_item(item)
        self.openers = self._openers(terms)
        for item in self.openers:
            self.add_item(item)
        return embed

    def _openers(self, terms: list[Term]) -> list[discord.ui.Item]:
        """What opens the terms of this page: a button each, or a menu."""
        if not terms:
            return []
        if self.buttons and len(terms) <= 5:
            opened = []
            for term in terms:
                button = discord.ui.Button(label=term.term[:80], style=discord.ButtonStyle.primary, row=1)
                button.callback = functools.partial(self._open, term_id=term.id)
                opened.append(button)
            return opened
        menu = discord.ui.Select(
            placeholder=t(self.locale, "pager_open"),
            row=1,
            options=[
                discord.SelectOption(label=term.term[:100], value=term.id, description=(term.en or "")[:100] or None)
                for term in terms[:25]
            ],
        )
        menu.callback = self._open_selected
        return [menu]

    async def send(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        await interaction.response.send_message(embed=self.current(), view=self, ephemeral=True)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message(t(interaction.locale, "pager_not_yours"), ephemeral=True)
        return False

    async def _turn(self, interaction: discord.Interaction, delta: int) -> None:
        self.page = min(max(self.page + delta, 0), self.pages - 1)
        await interaction.response.edit_message(embed=self.current(), view=self)

    async def _go_prev(self, interaction: discord.Interaction) -> None:
        await self._turn(interaction, -1)

    async def _go_next(self, interaction: discord.Interaction) -> None:
        await self._turn(interaction, +1)

    async def _open_selected(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if values:
            await self._open(interaction, values[0])

    async def on_timeout(self) -> None:
        for item in self.children:
            item.disabled = True  # type: ignore[attr-defined]
        if self.interaction is not None:
            # If the message is gone, or its token expired, there is nothing left to disable.
            with contextlib.suppress(discord.HTTPException):
                await self.interaction.edit_original_response(view=self)
