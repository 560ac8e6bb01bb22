"""Forms (modals) bound to the opening they came from.

discord.py keeps one open modal per `custom_id`, so a fixed id would let whichever form was opened last handle
every submission: a form opened in one server saved in another, two editors' edits crossed. Each form therefore
gets an id of its own (a random token after the family's prefix) and remembers who opened it and in which
server; a submission from anyone else, or from elsewhere, is refused politely and applies to nothing. What it
is *for* (which term, which proposal, which gap) lives on the form object itself, never in the submitted data.

A member keeps at most `MAX_OPEN_PER_MEMBER` forms open (Discord shows one at a time; the rest were dismissed
without a word): opening one more closes the oldest, so nobody can fill the bot's memory with forms."""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from typing import ClassVar

import discord

from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.services import services

log = logging.getLogger(__name__)
MAX_OPEN_PER_MEMBER = 3
MAX_MEMBERS = 10_000  # members with forms open, remembered at once (the oldest forgotten first)


class OpenForms:
    """The forms each member has open, oldest first, so that opening one more closes the oldest."""

    def __init__(self) -> None:
        self._by_member: OrderedDict[tuple[int, int], list[BoundForm]] = OrderedDict()

    def opened(self, form: BoundForm) -> None:
        key = (form.guild_id, form.user_id)
        forms = [f for f in self._by_member.pop(key, []) if not f.is_finished()]
        forms.append(form)
        while len(forms) > MAX_OPEN_PER_MEMBER:
            forms.pop(0).stop()  # discord.py forgets it: its custom_id now answers "no longer works"
        self._by_member[key] = forms
        while len(self._by_member) > MAX_MEMBERS:
            _, oldest = self._by_member.popitem(last=False)
            for stale in oldest:
                stale.stop()

    def count(self, guild_id: int, user_id: int) -> int:
        return sum(1 for f in self._by_member.get((guild_id, user_id), []) if not f.is_finished())


class BoundForm(discord.ui.Modal):
    """A modal with an identity of its own, bound to who opened it and where. Subclasses set `PREFIX` and
    implement `allowed` (the same permission check as the command that opened them) and `on_submit`."""

    PREFIX: ClassVar[str] = "glosario:form"

    def __init__(self, interaction: discord.Interaction, *, title: str, timeout: float) -> None:
        super().__init__(title=title[:45], timeout=timeout, custom_id=f"{self.PREFIX}:{secrets.token_urlsafe(12)}")
        self.guild_id, self.user_id = interaction.guild_id or 0, interaction.user.id
        self.sent = False  # a form is applied once: a repeated submission (a replay, a double send) is refused
        forms: OpenForms | None = getattr(services(interaction), "forms", None)
        if forms is not None:
            forms.opened(self)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """The one who opened this form, in the server it was opened in; then the command's own check."""
        if (interaction.guild_id or 0, interaction.user.id) != (self.guild_id, self.user_id):
            log.info(
                "form %s opened by user %s in guild %s submitted by user %s in guild %s: refused",
                self.custom_id,
                self.user_id,
                self.guild_id,
                interaction.user.id,
                interaction.guild_id,
            )
            await interaction.response.send_message(t(interaction.locale, "form_not_yours"), ephemeral=True)
            return False
        if self.sent:
            log.info("form %s submitted again by user %s: refused", self.custom_id, self.user_id)
            await interaction.response.send_message(t(interaction.locale, "form_sent"), ephemeral=True)
            return False
        services(interaction).guard.hold(interaction)
        self.sent = True  # before any await: a second submission arriving meanwhile is the repeat
        if await self.allowed(interaction):
            return True
        self.sent = False
        return False

    async def allowed(self, interaction: discord.Interaction) -> bool:
        raise NotImplementedError

    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:
        await services(interaction).guard.on_interaction_error(interaction, error)
