"""Forms (modals) bound to the opening they came from, and kept until their opener sends them.

discord.py keeps one open modal per `custom_id`, so a fixed id would let whichever form was opened last handle
every submission: a form opened in one server saved in another, two editors' edits crossed. Each form therefore
gets an id of its own (a random token after the family's prefix) and remembers who opened it and in which
server; a submission from anyone else, or from elsewhere, is refused politely and applies to nothing. What it
is *for* (which term, which proposal, which gap) lives on the form object itself, never in the submitted data.

A form its opener sends within Discord's 15-minute window is applied, whatever others do meanwhile:
- discord.py knows it before Discord shows it (Discord's answer to the opening may reach the bot after the
  member has already sent the form), and it lives FORM_SECONDS from then, past the window;
- its submission is deferred at once ("thinking…"), so that its writes may wait for a busy database (SAVE_WAIT);
- nobody else's forms close it: when MAX_MEMBERS members have forms open, a new form waits (its opener is told).
What cannot be applied says why and gives back what was typed: a form closed by its opener's own newer ones (a
member keeps at most MAX_OPEN_PER_MEMBER open: Discord shows one at a time), an expired or unknown one (the bot
restarted), a refused one (no longer a moderator), one the database never took."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import ClassVar, NamedTuple

import discord

from bot.app.errors import DatabaseBusy, reply_may_wait
from bot.discord_app.kit.embeds import shorten
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import is_moderator
from bot.discord_app.kit.replies import reply, typed_back
from bot.discord_app.kit.services import services

log = logging.getLogger(__name__)
FORM_TITLE = 45  # Discord's longest form title
FORM_SECONDS = 1800.0  # a form lives this long from when it is shown: past Discord's 15-minute window
SAVE_WAIT = 60.0  # seconds a sent form's writes wait for a busy database (its answer is deferred)
MAX_OPEN_PER_MEMBER = 3
MAX_MEMBERS = 10_000  # members with forms open at once; past it a new form waits, none open is closed for it
MAX_CLOSED = 10_000  # closed forms remembered (why, and their labels) to answer one sent late


class Closed(NamedTuple):
    """Why a form is closed (a catalogue key), and its fields' labels (to give back what was typed)."""

    why: str
    labels: tuple[str, ...]


class OpenForms:
    """The forms each member has open, oldest first, and why the recent ones closed."""

    def __init__(self) -> None:
        self._by_member: dict[tuple[int, int], list[BoundForm]] = {}
        self._by_id: dict[str, BoundForm] = {}
        self._closed: OrderedDict[str, Closed] = OrderedDict()

    def has_room(self, guild_id: int, user_id: int) -> bool:
        """Whether a form may open for this member: always for one with forms open (their own oldest closes if
        they have too many), else while fewer than MAX_MEMBERS members have forms open."""
        if (guild_id, user_id) in self._by_member or len(self._by_member) < MAX_MEMBERS:
            return True
        for key in list(self._by_member):
            self._still_open(key)
        return len(self._by_member) < MAX_MEMBERS

    def opened(self, form: BoundForm) -> None:
        """A form shown to its opener; past MAX_OPEN_PER_MEMBER, that member's oldest closes."""
        key = (form.guild_id, form.user_id)
        forms = [*self._still_open(key), form]
        self._by_id[form.custom_id] = form
        while len(forms) > MAX_OPEN_PER_MEMBER:
            oldest = forms.pop(0)
            self._remember(oldest, "form_replaced")
            oldest.stop()  # discord.py forgets it; a submission of it is answered by `closed`
        self._by_member[key] = forms

    def forget(self, user_id: int) -> None:
        """A member asked to be forgotten: their open forms close, in every server, remembered by nobody (one sent
        later is answered as no longer open, with what was typed given back, and applies to nothing)."""
        for key in [key for key in self._by_member if key[1] == user_id]:
            for form in self._by_member.pop(key):
                self._by_id.pop(form.custom_id, None)
                form.stop()  # discord.py forgets it

    def count(self, guild_id: int, user_id: int) -> int:
        return len(self._still_open((guild_id, user_id)))

    def closed(self, custom_id: str) -> Closed | None:
        """Why the form with this id is closed (None while it is open, or for an id never seen here)."""
        form = self._by_id.get(custom_id)
        if form is not None and form.is_finished():
            self._still_open((form.guild_id, form.user_id))
        return self._closed.get(custom_id)

    def is_open(self, custom_id: str) -> bool:
        form = self._by_id.get(custom_id)
        return form is not None and not form.is_finished()

    def _still_open(self, key: tuple[int, int]) -> list[BoundForm]:
        forms = []
        for form in self._by_member.pop(key, []):
            if form.is_finished():
                self._remember(form, "form_sent" if form.sent else "form_expired")
            else:
                forms.append(form)
        if forms:
            self._by_member[key] = forms
        return forms

    def _remember(self, form: BoundForm, why: str) -> None:
        self._by_id.pop(form.custom_id, None)
        self._closed[form.custom_id] = Closed(why, tuple(label for label, _ in form.typed()))
        while len(self._closed) > MAX_CLOSED:
            self._closed.popitem(last=False)

    def screen(self, interaction: discord.Interaction, start: Callable[[Coroutine], None]) -> None:
        """A form sent that is not open here (closed, expired, or unknown after a restart) is answered at once,
        with what was typed; `start` runs that answer as work in flight. Open ones go to their form."""
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not self.is_open(custom_id):
            start(_answer_closed(interaction, custom_id, self.closed(custom_id)))


def _submitted(interaction: discord.Interaction) -> list[str]:
    """The values of a form's text inputs as sent, in order (rows of inputs, or labelled inputs)."""
    values = []
    for row in (interaction.data or {}).get("components", []):
        for item in row.get("components") or [row.get("component") or {}]:
            if isinstance(item, dict) and "value" in item:
                values.append(str(item.get("value") or ""))
    return values


async def _answer_closed(interaction: discord.Interaction, custom_id: str, closed: Closed | None) -> None:
    why = closed.why if closed else "form_unknown"
    log.info("form %s sent by user %s is closed (%s): nothing applied", custom_id, interaction.user.id, why)
    if why == "form_sent":  # already applied once: a repeat
        await reply(interaction, t(interaction.locale, why))
        return
    values = _submitted(interaction)
    labels = (*closed.labels, *[""] * len(values)) if closed else [""] * len(values)
    fields = [(label or f"{n}.", value) for n, (label, value) in enumerate(zip(labels, values, strict=False), 1)]
    embed, files = typed_back(interaction.locale, fields)
    await reply(interaction, t(interaction.locale, why, limit=MAX_OPEN_PER_MEMBER), embed=embed, files=files)


class BoundForm(discord.ui.Modal):
    """A modal with an identity of its own, bound to who opened it and where. Subclasses set `PREFIX`, may
    override `refusal` (by default the moderators' check, as the command that opened them) and implement
    `apply` (what sending it does, its answer a follow-up of the deferral). Opened with `show`."""

    PREFIX: ClassVar[str] = "glosario:form"
    UPDATES_MESSAGE: ClassVar[bool] = False  # opened from a list's menu: answered by updating that list

    def __init__(self, interaction: discord.Interaction, *, title: str) -> None:
        custom_id = f"{self.PREFIX}:{secrets.token_urlsafe(12)}"
        super().__init__(title=shorten(title, FORM_TITLE), timeout=FORM_SECONDS, custom_id=custom_id)
        self.guild_id, self.user_id = interaction.guild_id or 0, interaction.user.id
        self.sent = False  # a form is applied once: a repeated submission (a replay, a double send) is refused

    async def show(self, interaction: discord.Interaction) -> None:
        """Open this form for the member who asked (instead of `send_modal`)."""
        forms = services(interaction).forms
        if not forms.has_room(self.guild_id, self.user_id):
            log.info("form for user %s not opened: %d members have forms open", self.user_id, MAX_MEMBERS)
            await reply(interaction, t(interaction.locale, "forms_full"))
            return
        forms.opened(self)
        # Known to discord.py before Discord shows it: Discord's answer to the opening may reach the bot after the
        # member has sent the form (send_modal stores it only then). (discord.py has no public call for this.)
        interaction.client._connection.store_view(self)
        try:
            await interaction.response.send_modal(self)
        except BaseException:
            self.stop()  # never shown
            raise

    def typed(self) -> list[tuple[str, str]]:
        """Each text field's label and what was typed in it."""
        # (labels as Discord shows them: reading TextInput.label is deprecated in discord.py)
        shown = [c for row in self.to_components() for c in row.get("components", [row])]
        labels = {c.get("custom_id"): c.get("label") or "" for c in shown}
        inputs = [item for item in self.children if isinstance(item, discord.ui.TextInput)]
        return [(labels.get(item.custom_id, ""), item.value or "") for item in inputs]

    async def give_back(self, interaction: discord.Interaction, text: str, **extra) -> None:
        """A private answer with what was typed (nothing typed is lost)."""
        embed, files = typed_back(interaction.locale, self.typed())
        await reply(interaction, text, embed=embed, files=files, **extra)

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
        await interaction.response.defer(ephemeral=True, thinking=not self.UPDATES_MESSAGE)
        refusal = await self.refusal(interaction)
        if refusal is None:
            return True
        self.sent = False
        log.info("form %s of user %s refused (%s): giving back what was typed", self.custom_id, self.user_id, refusal)
        await self.give_back(interaction, t(interaction.locale, refusal))
        return False

    async def refusal(self, interaction: discord.Interaction) -> str | None:
        """Why its opener may not send it now (a catalogue key), or None: by default the moderators' check."""
        return None if await is_moderator(services(interaction), interaction) else "admin_denied"

    async def on_submit(self, interaction: discord.Interaction) -> None:
        with reply_may_wait(SAVE_WAIT):
            await self.apply(interaction)

    async def apply(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def on_timeout(self) -> None:
        log.info("form %s of user %s expired unsent", self.custom_id, self.user_id)

    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:
        if isinstance(error, DatabaseBusy):  # what was typed must not be lost with the write
            log.warning("database busy for form %s of user %s: %s", self.custom_id, self.user_id, error)
            with contextlib.suppress(discord.HTTPException):
                await self.give_back(interaction, t(interaction.locale, "db_busy"))
            return
        await services(interaction).guard.on_interaction_error(interaction, error)
