"""What a handler reaches through `interaction.client`: the application and the few Discord-side helpers the
client holds, each described by what handlers call on it. Handlers are typed against these protocols, not against
the client class: no feature imports the client (the client imports the features), and this module imports none
of the classes that implement them (no import cycle, not even one made for type checking)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    import asyncio

    import discord

    from bot.app.application import Application
    from bot.app.community.server_terms import Overlay
    from bot.core.model import Term

    Card = tuple[discord.Embed, discord.ui.View | None]


class Cards(Protocol):
    """Rendered term cards (bot.discord_app.kit.cards.CardCache)."""

    def card_for(self, term: Term, overlay: Overlay | None, locale: object) -> Card: ...

    def url_for(self, term: Term) -> str | None: ...


class Gate(Protocol):
    """What every interaction goes through (bot.discord_app.kit.guard.Guard)."""

    async def within_rate_limit(self, interaction: discord.Interaction) -> bool: ...

    async def on_interaction_error(self, interaction: discord.Interaction, error: BaseException) -> None: ...

    def hold(self, interaction: discord.Interaction) -> None: ...


class FormsOpen(Protocol):
    """Each member's open forms (bot.discord_app.kit.forms.OpenForms)."""

    def has_room(self, guild_id: int, user_id: int) -> bool: ...

    def opened(self, form: Any) -> None: ...

    def forget(self, user_id: int) -> None: ...


class KeptDrafts(Protocol):
    """Forms a save refused, kept for their authors (bot.discord_app.kit.forms.Drafts)."""

    def keep(self, guild_id: int, user_id: int, draft: Any) -> None: ...

    def take(self, guild_id: int, user_id: int) -> Any: ...

    def forget(self, user_id: int) -> None: ...


class Services(Protocol):
    app: Application  # the product's actions (bot.app): the Discord layer talks to nothing else
    cards: Cards
    guard: Gate
    forms: FormsOpen
    drafts: KeptDrafts
    background_tasks: set[asyncio.Task]

    def owns(self, guild_id: int) -> bool: ...

    def get_guild(self, guild_id: int, /) -> discord.Guild | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


def services(source: discord.Interaction | discord.Client) -> Services:
    """The client (or the client an interaction arrived through), as what handlers may use of it."""
    return cast("Services", getattr(source, "client", source))
