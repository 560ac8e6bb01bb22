"""Shared pieces of the features: a command or group put under /glosario-admin or /glosario (owned by the admin
and discover features), the scheduler's walk over the servers that want a post, the language of those posts and
their problems as moderators read them."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import TypeVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app.background import each_tick_outlives_errors
from bot.app.daily.posts import PostProblem, Problem
from bot.discord_app.kit.embeds import shorten
from bot.discord_app.kit.i18n import language, t
from bot.discord_app.kit.permissions import permission_names
from bot.discord_app.kit.services import services

log = logging.getLogger(__name__)
ADMIN = "glosario-admin"
GLOSARIO = "glosario"
T = TypeVar("T")
# The `idioma` option of a scheduled post's setup: its language, whatever the server's preferred locale says
# (Discord gives community servers en-US unless someone changes it).
LANGUAGE_CHOICES = [app_commands.Choice(name="Español", value="es"), app_commands.Choice(name="English", value="en")]
LANGUAGE_NAMES = {"es": "language_es", "en": "language_en"}
DISCORD_WORDS = 300  # characters of Discord's own words about a failed post shown in a status (its whole reply: 2,000)
PROBLEMS = {
    Problem.CHANNEL_GONE: "post_err_channel_gone",
    Problem.MISSING_PERMISSIONS: "post_err_perms",
    Problem.DISCORD: "post_err_discord",
    Problem.NETWORK: "post_err_network",
}


def chosen_language(option: str | None, interaction: discord.Interaction) -> str:
    """The language a moderator sets a scheduled post up in: the one they chose, or else their own."""
    return option if option in LANGUAGE_NAMES else language(interaction.locale)


def post_language(stored: str | None, guild: discord.Guild | None) -> str:
    """The language a scheduled post is written in: the one kept with its setting, or (a setting made before the
    choice was kept) the server's preferred locale's."""
    return stored if stored in LANGUAGE_NAMES else language(guild.preferred_locale if guild else None)


def language_text(stored: str | None, guild: discord.Guild | None, locale: object) -> str:
    """A scheduled post's language, for a status: named in the reader's language, and said to be the server's
    when no choice was kept."""
    name = t(locale, LANGUAGE_NAMES[post_language(stored, guild)])
    return name if stored in LANGUAGE_NAMES else t(locale, "post_language_server", language=name)


def attach(bot: commands.Bot, command: app_commands.Command | app_commands.Group, parent: str = ADMIN) -> None:
    """Put a feature's own command or group under another feature's group (/glosario-admin, /glosario): features
    load in name order, and the groups' owners (admin, discover) load before the features that attach to them."""
    group = bot.tree.get_command(parent)
    if isinstance(group, app_commands.Group):
        group.add_command(command)


def detach(bot: commands.Bot, command: app_commands.Command | app_commands.Group, parent: str = ADMIN) -> None:
    group = bot.tree.get_command(parent)
    if isinstance(group, app_commands.Group):
        group.remove_command(command.name)


async def each_server(
    load: Callable[[], Awaitable[Iterable[T]]], post: Callable[[T], Awaitable[object]], what: str
) -> None:
    """One scheduler tick: the servers `load` lists, each given to `post`. A failing read is retried at the next
    tick (the loop must not die), and one server's trouble never stops the others'."""
    try:
        servers = await load()
    except Exception:
        log.exception("%s: could not read the servers' settings; retrying at the next tick", what)
        return
    for settings in servers:
        try:
            await post(settings)
        except Exception:
            log.exception("%s failed for guild %s", what, getattr(settings, "guild_id", "?"))


class AttachedCog(commands.Cog):
    """A feature's cog whose commands live under another feature's group (PARENT: /glosario-admin or /glosario):
    on load they are attached there and the feature's persistent items (PERSISTENT) registered; on unload both
    are undone."""

    PARENT: str = ADMIN
    PERSISTENT: tuple[type, ...] = ()

    def __init__(self, bot: commands.Bot, *attached: app_commands.Command | app_commands.Group) -> None:
        self.bot, self.attached = bot, attached

    async def cog_load(self) -> None:
        for command in self.attached:
            attach(self.bot, command, self.PARENT)
        self.bot.add_dynamic_items(*self.PERSISTENT)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.PERSISTENT)
        for command in self.attached:
            detach(self.bot, command, self.PARENT)


def problem_text(stored: str, locale: object) -> str:
    """A scheduled post's problem as kept in the database, in the reader's language (a text kept by an older
    version: as it is), Discord's own words cut to DISCORD_WORDS (behind Cloudflare an error may be a whole HTML
    page, which would take a status past Discord's 2,000 characters)."""
    problem = PostProblem.read(stored)
    if problem is None:
        return shorten(stored, DISCORD_WORDS)
    channel = f"<#{problem.channel_id}>"
    perms = permission_names(problem.permissions, locale)
    text = shorten(problem.text, DISCORD_WORDS)
    return t(locale, PROBLEMS[problem.problem], channel=channel, perms=perms, status=problem.status, text=text)


def stored_time(at: str) -> str:
    """An ISO time kept in the database as a Discord timestamp (each reader's own time zone)."""
    try:
        return f"<t:{int(datetime.fromisoformat(at).timestamp())}:f>"
    except ValueError:
        return at


# What a scheduled post's send raises when Discord could not be reached or the connection broke before it answered:
# OSError (refused, reset, timed out) and aiohttp's own errors that are no OSError (ServerDisconnectedError: the
# connection closed under the request). The network's trouble, freed for the next look, not a bug of the bot's.
UNREACHABLE: tuple[type[Exception], ...] = (OSError, aiohttp.ClientError)


# A post whose claim was taken over may have gone out before the claim's process died. Its channel's first messages
# from shortly before that claim (HISTORY_MARGIN: the host's clock and Discord's may differ a little) are read once
# to find it: the post was sent within seconds of its claim, so a few messages cover it even in a busy channel.
HISTORY_LIMIT = 25
HISTORY_MARGIN = timedelta(minutes=1)


def refused_for_good(exc: discord.HTTPException) -> bool:
    """Whether Discord refused a scheduled post itself (a 4xx but 429: 403, 400…), which it would refuse again at
    every tick, rather than having trouble of its own (5xx, 429) that the next tick may not meet."""
    return exc.status < 500 and exc.status != 429


class PostingCog(AttachedCog):
    """A cog that owns a /glosario-admin subgroup and posts on a schedule (the term of the day, the digest):
    `tick` looks at every server every EVERY seconds, once the bot is connected."""

    EVERY: float = 60.0

    def __init__(self, bot: commands.Bot, admin: app_commands.Group) -> None:
        super().__init__(bot, admin)
        self.admin = admin
        # (each tick outlives any error: a database down for a while must not stop the posts for good)
        self.scheduler = tasks.loop(seconds=self.EVERY)(each_tick_outlives_errors(type(self).__name__)(self.tick))
        self.scheduler.before_loop(self.bot.wait_until_ready)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.scheduler.start()

    async def cog_unload(self) -> None:
        self.scheduler.cancel()
        await super().cog_unload()

    WHAT = "scheduled post"  # what the logs call this cog's posts

    async def tick(self) -> None:
        raise NotImplementedError

    async def _failed(self, job, problem: PostProblem, *, retry: bool = False) -> bool:
        """Record why `job`'s post did not go out (`retry`: free its claim for the next look); False."""
        raise NotImplementedError

    def is_this_post(self, message: discord.Message, job) -> bool:
        """Whether `message`, one the bot posted itself, is `job`'s post (in whichever language it was written)."""
        raise NotImplementedError

    async def send_post(self, channel: discord.TextChannel, job, **message) -> discord.Message | None:
        """Send `job`'s post with its nonce (discord.py sends it with enforce_nonce: Discord answers a second try
        within a few minutes with the first message). A job that took over a claim first looks for the post that
        claim's process may have sent before it died: found, that message is the answer and nothing is sent. None
        after recording why not: Discord's trouble (5xx, 429) and the network free the claim for the next look; a
        refusal of the message itself (another 4xx: 403 too) would be refused again at every look, so it is the
        post's problem (said by `estado`) instead."""
        if job.taken_over is not None and (earlier := await self._sent_before(channel, job)) is not None:
            return earlier
        try:
            return await channel.send(nonce=job.nonce, **message)
        except discord.HTTPException as exc:
            problem = PostProblem(Problem.DISCORD, job.channel_id, status=exc.status, text=exc.text or str(exc))
            await self._failed(job, problem, retry=not refused_for_good(exc))
        except UNREACHABLE as exc:  # the network (a dropped connection too)
            log.info("%s for guild %s: Discord could not be reached: %s", self.WHAT, job.guild_id, exc)
            await self._failed(job, PostProblem(Problem.NETWORK, job.channel_id), retry=True)
        return None

    async def _sent_before(self, channel: discord.TextChannel, job) -> discord.Message | None:
        """`job`'s post, if the process whose claim it took over sent it; None when it is not among the channel's
        first HISTORY_LIMIT messages since that claim, or when they cannot be read (the post is then sent, as
        before, and the log says why). One request, made only by a job that took a claim over."""
        what = f"{self.WHAT} for guild {job.guild_id}"
        me = channel.guild.me
        if me is None or not channel.permissions_for(me).read_message_history:  # (Discord would answer "no messages")
            log.info("%s: sent without looking for an earlier try: no Read Message History in <#%s>", what, channel.id)
            return None
        try:
            async for message in channel.history(limit=HISTORY_LIMIT, after=job.taken_over - HISTORY_MARGIN):
                if self._posted_by_us(message) and self.is_this_post(message, job):
                    log.info("%s: an earlier try went out (message %s): not sent again", what, message.id)
                    return message
        except discord.HTTPException as exc:
            reason = f"Discord answered {exc.status}: {shorten(exc.text or str(exc), DISCORD_WORDS)}"
            log.info("%s: sent without looking for an earlier try: %s", what, reason)
            return None
        except UNREACHABLE as exc:
            log.info("%s: sent without looking for an earlier try: Discord could not be reached: %s", what, exc)
            return None
        log.info("%s: no earlier try in <#%s> since its claim: sending it", what, channel.id)
        return None

    def _posted_by_us(self, message: discord.Message) -> bool:
        """A message this bot posted itself: not a member's, and not its reply to a command (which may show the
        same card: /termino-del-dia)."""
        return (
            self.bot.user is not None
            and message.author.id == self.bot.user.id
            and message.type is discord.MessageType.default
            and message.interaction_metadata is None
            and message.webhook_id is None
        )

    def served_here(self, guild_id: int) -> discord.Guild | None:
        """The server, when its posts are this process's: on one of its shards and connected (None for another
        process's server, one this process cannot see yet, or one the bot left): only then is a post claimed."""
        if not services(self.bot).owns(guild_id):
            return None
        return self.bot.get_guild(guild_id)
