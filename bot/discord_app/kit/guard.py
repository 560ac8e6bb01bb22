"""What every interaction goes through: text made valid where it enters, the shared rate limit, a polite answer
for anything left unanswered, errors turned into a short apology, and no new work while the bot stops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine

import discord
from discord import app_commands

from bot.app.errors import DatabaseBusy
from bot.app.limits import RateLimit
from bot.core.normalize import valid_text
from bot.core.shards import shard_of
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.replies import reply
from bot.logs import current_shard

log = logging.getLogger(__name__)
COOLDOWN_USES, COOLDOWN_SECONDS = 6, 20.0  # per member, over every interaction that does work or posts
UNANSWERED_AFTER = 2.5  # seconds: Discord gives an interaction 3
DRAIN_POLL = 0.05  # seconds between looks at the replies in flight while stopping


def make_valid(value: dict | list) -> None:
    """Make every string of a JSON value encodable, in place (lone surrogates replaced); ASCII costs nothing."""
    # Exact types, not isinstance with `dict | list` (a union made for every number and string): parsed JSON holds
    # no subclasses, and this runs on every interaction.
    pairs = value.items() if type(value) is dict else enumerate(value)
    for key, item in pairs:
        kind = type(item)
        if kind is str:
            if not item.isascii():
                value[key] = valid_text(item)  # a value replaced, no key added: the iteration is unaffected
        elif kind is dict or kind is list:
            make_valid(item)


def validate_interactions(parsers: dict[str, Callable[[dict], None]]) -> None:
    """Text from Discord is made valid once, where it enters: what members typed (the interaction's data). An
    interaction discord.py cannot read, or that does not say who sent it, is logged and skipped: its error would
    otherwise leave the gateway's reader and end the shard's connection, and every interaction after it would go
    unanswered."""
    parse_interaction = parsers["INTERACTION_CREATE"]

    def parse_valid_interaction(data: dict) -> None:
        try:
            if not isinstance(data.get("member" if data.get("guild_id") else "user"), dict):
                # (Discord always says who: `member` in a server, `user` elsewhere; without it discord.py leaves
                # the interaction's user unset, and its handler fails where no one can be answered)
                log.warning("an interaction without who sent it (id %s) was skipped", data.get("id"))
                return
            if isinstance(data.get("data"), dict):
                make_valid(data["data"])
            parse_interaction(data)
        except Exception:
            log.exception("an interaction could not be read (id %s); the next ones still are", data.get("id"))

    parsers["INTERACTION_CREATE"] = parse_valid_interaction


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return interaction.command.qualified_name
    return str((interaction.data or {}).get("custom_id", interaction.type))


def _note_shard(interaction: discord.Interaction) -> None:
    """What the handling of this interaction logs carries its server's shard (the handler's own task only)."""
    count = interaction.client.shard_count
    if interaction.guild_id is not None and count:
        current_shard.set(str(shard_of(interaction.guild_id, count)))


class Guard:
    def __init__(self, is_closed: Callable[[], bool]) -> None:
        self.is_closed = is_closed
        self.closing = False
        self.rate = RateLimit(COOLDOWN_USES, COOLDOWN_SECONDS)
        self.on_accepted: Callable[[discord.Interaction], None] | None = None  # told of every command taken
        # Buttons, menus and forms whose timer has not yet checked that they were answered (a task only if not).
        self._watched: set[discord.Interaction] = set()
        self._held: set[asyncio.Task] = set()  # handlers at work (commands, forms, rate-limited buttons)

    async def accepting_work(self, interaction: discord.Interaction) -> bool:
        """Every command and context menu: not while stopping, and within the member's rate limit.
        Autocomplete is answered from memory on every keystroke and is never limited."""
        _note_shard(interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            return not self.closing
        self.hold(interaction)
        if self.closing:
            await reply(interaction, t(interaction.locale, "restarting"))
            return False
        wait = self.rate.retry_after(interaction.user.id)  # (checked here, not through within_rate_limit: once)
        if wait:
            await self._refuse(interaction, wait)
            return False
        if self.on_accepted is not None:
            self.on_accepted(interaction)
        return True

    async def within_rate_limit(self, interaction: discord.Interaction) -> bool:
        """One limit for every interaction that does work or posts (commands, term buttons, menus): over it,
        one polite private note and nothing else."""
        _note_shard(interaction)
        self.hold(interaction)
        wait = self.rate.retry_after(interaction.user.id)
        if wait:
            await self._refuse(interaction, wait)
            return False
        return True

    async def _refuse(self, interaction: discord.Interaction, wait: float) -> None:
        log.info("rate limit: user %s waits %.0f s", interaction.user.id, wait)
        await reply(interaction, t(interaction.locale, "cooldown", seconds=max(1, round(wait))))

    def hold(self, interaction: discord.Interaction) -> None:
        """The task handling `interaction` (the caller's) is work in flight: a graceful stop waits for it to end.
        Called from the checks every handler goes through, so no task needs to be recognised by its name."""
        task = asyncio.current_task()
        if task is not None and task not in self._held:
            self._held.add(task)
            task.add_done_callback(self._held.discard)

    def start(self, answer: Coroutine[object, object, None]) -> None:
        """Run an answer no handler gives (a form sent too late) as work in flight: a graceful stop waits for it;
        its failure is logged."""
        task = asyncio.get_running_loop().create_task(answer)
        self._held.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task) -> None:
        self._held.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("answering an interaction failed", exc_info=task.exception())

    def watch(self, interaction: discord.Interaction) -> None:
        """Every button, menu and modal gets an answer: one that nothing handled (a forged or unknown custom_id,
        or a list whose buttons died with a restart) gets a short private note before Discord's 3 s are up.
        (A timer, not a task: a task sleeping for every click cost 40 K instructions, a timer a third of that.)"""
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            asyncio.get_running_loop().call_later(UNANSWERED_AFTER, self._check_answered, interaction)
            self._watched.add(interaction)

    def _check_answered(self, interaction: discord.Interaction) -> None:
        self._watched.discard(interaction)
        if interaction.response.is_done() or self.is_closed():
            return
        task = asyncio.get_running_loop().create_task(self._answer_unanswered(interaction))
        self._held.add(task)  # work in flight: a graceful stop waits for the note
        task.add_done_callback(self._held.discard)

    async def _answer_unanswered(self, interaction: discord.Interaction) -> None:
        custom_id = (interaction.data or {}).get("custom_id")
        log.info("nothing answered %s from user %s: telling them", custom_id, interaction.user.id)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, t(interaction.locale, "stale_interaction"))

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            # A refusal (permission, rate limit, stopping) was already answered politely: it is not an error.
            log.info("refused %s for user %s", _what(interaction), interaction.user.id)
            return
        await self.on_interaction_error(interaction, getattr(error, "original", error))

    async def on_interaction_error(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Anything a command, button, menu or modal did not handle. Exception text is never shown to users: a
        short apology for them, the traceback for the log; a database busy elsewhere is a note, not an error."""
        if isinstance(error, DatabaseBusy):
            log.warning("database busy for user %s: %s", interaction.user.id, error)
            message = t(interaction.locale, "db_busy")
        else:
            log.error("interaction %s failed", _what(interaction), exc_info=error)
            message = t(interaction.locale, "error")
        try:
            await reply(interaction, message)
        except discord.HTTPException:
            log.warning("could not tell the user about the error", exc_info=True)

    def in_flight(self) -> int:
        """Interactions still being handled: handlers at work, and buttons, menus or forms not yet answered."""
        return len(self._pending()) + self._unanswered()

    def _pending(self) -> set[asyncio.Task]:
        current = asyncio.current_task()
        return {task for task in self._held if task is not current and not task.done()}

    def _unanswered(self) -> int:
        """Buttons, menus and forms not answered yet, whose timer has not run (it then answers, in a held task)."""
        return sum(not interaction.response.is_done() for interaction in self._watched)

    async def drain(self, grace: float) -> None:
        """Stop taking new work, and let every interaction in flight finish (up to `grace` seconds): commands,
        buttons, menus and forms, including the "restarting" replies to those that arrive meanwhile."""
        self.closing = True  # from here on, new commands get a short "restarting" reply
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        logged = False
        while True:
            in_flight = self._pending()
            count = len(in_flight) + self._unanswered()  # (a click being handled counts in both: a log's count)
            if not count:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                log.warning("%d interaction(s) still in flight after %.0f s: closing anyway", count, grace)
                break
            if not logged:
                log.info("waiting for %d interaction(s) in flight", count)
                logged = True
            # An answer is not an awaitable event: look again shortly, or as soon as a handler ends.
            wait = min(remaining, DRAIN_POLL)
            if in_flight:
                await asyncio.wait(in_flight, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            else:
                await asyncio.sleep(wait)
