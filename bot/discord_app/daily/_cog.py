"""Term of the day: /termino-del-dia, /glosario-admin diario …, and the scheduler that posts it. The bookkeeping
(which term, the schedule, claiming each post) is the application's (bot.app.daily.posts); sending is done here."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.daily.posts import DailyPosts, DailySettings, DailyStatus, PostJob, PostProblem, Problem
from bot.app.limits import Pacer
from bot.core import daily
from bot.core.daily import DailyEntry, Schedule
from bot.core.status import DailyPostStatus, Days
from bot.discord_app.cards import card_view
from bot.discord_app.kit.buttons import served_guild
from bot.discord_app.kit.embeds import term_embed
from bot.discord_app.kit.groups import (
    LANGUAGE_CHOICES,
    LANGUAGE_NAMES,
    PostingCog,
    chosen_language,
    each_server,
    language_text,
    post_language,
    problem_text,
    stored_time,
)
from bot.discord_app.kit.i18n import long_date, t
from bot.discord_app.kit.permissions import manages_server, missing_permissions, moderator_or_denied, permission_names
from bot.discord_app.kit.services import services

if TYPE_CHECKING:
    from bot.core.model import Glossary, Term

log = logging.getLogger(__name__)
CHECK_EVERY_SECONDS = 30
DAYS_NAMES = {Days.EVERY_DAY: "daily_days_every_day", Days.WEEKDAYS: "daily_days_weekdays"}


def _stamp(moment: datetime) -> str:
    ts = int(moment.timestamp())
    return f"<t:{ts}:F> (<t:{ts}:R>)"


def daily_card(
    term: Term, entry: DailyEntry, glossary: Glossary, locale: object, url: str | None = None
) -> tuple[discord.Embed, object]:
    heading = t(locale, "daily_heading", date=long_date(locale, entry.day))
    embed = term_embed(term, glossary, locale, heading=heading, url=url)
    return embed, card_view(term, glossary, locale)


def status_text(status: DailyStatus, guild: discord.Guild, loc: object) -> str:
    """`/glosario-admin diario estado`: the schedule, its language, the next post and how the last one went."""
    settings, schedule, last = status.settings, status.schedule, status.last
    if last is None:
        last_text = t(loc, "post_last_none")
    elif last.status == DailyPostStatus.FAILED:
        detail = problem_text(last.detail, loc) if last.detail else "?"
        last_text = t(loc, "daily_last_failed", date=long_date(loc, last.day), detail=detail)
    else:
        link = f" — https://discord.com/channels/{guild.id}/{last.channel_id}/{last.message_id}"
        last_text = long_date(loc, last.day) + (link if last.message_id else "")
    text = t(
        loc,
        "daily_status",
        state=t(loc, "daily_state_on" if settings.enabled else "daily_state_off"),
        channel=f"<#{settings.channel_id}>",
        time=f"{schedule.hour:02d}:{schedule.minute:02d}",
        zone=schedule.tz,
        days=t(loc, DAYS_NAMES[schedule.days]),
        language=language_text(settings.language, guild, loc),
        next=_stamp(status.next_post) if status.next_post else "—",
        last=last_text,
    )
    if settings.error:
        at = stored_time(settings.error_at) if settings.error_at else "?"
        text += t(loc, "post_error_line", at=at, detail=problem_text(settings.error, loc))
    return text


class DailyAdmin(app_commands.Group):
    """/glosario-admin diario: set up the term of the day (Manage Server)."""

    def __init__(self, cog: DailyCog) -> None:
        super().__init__(name="diario", description="Término del día")
        self.cog, self.posts = cog, cog.posts

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction) and await manages_server(interaction)

    @app_commands.command(name="configurar", description="Publica un término cada día en un canal")
    @app_commands.describe(
        canal="Canal donde publicar",
        hora="Hora local, HH:MM",
        zona="Zona horaria IANA (por defecto UTC)",
        dias="Qué días publicar",
        propios="Incluir los términos propios de este servidor",
        idioma="Idioma de las publicaciones (por defecto, el tuyo en Discord)",
    )
    @app_commands.choices(
        dias=[
            app_commands.Choice(name="todos los días", value=Days.EVERY_DAY.value),
            app_commands.Choice(name="de lunes a viernes", value=Days.WEEKDAYS.value),
        ],
        idioma=LANGUAGE_CHOICES,
    )
    async def configurar(
        self,
        interaction: discord.Interaction,
        canal: discord.TextChannel,
        hora: str,
        zona: str = "UTC",
        dias: str = Days.EVERY_DAY.value,
        propios: bool = False,
        idioma: str | None = None,
    ) -> None:
        loc, language = interaction.locale, chosen_language(idioma, interaction)
        parsed, zone = daily.parse_time(hora), daily.parse_zone(zona)
        channel = interaction.guild.get_channel(canal.id) if interaction.guild else None
        if parsed is None:
            problem = t(loc, "daily_bad_time", value=hora[:40])
        elif zone is None:
            problem = t(loc, "daily_bad_zone", value=zona[:60])
        elif not isinstance(channel, discord.TextChannel):
            problem = t(loc, "post_bad_channel")
        elif missing := missing_permissions(channel):
            problem = t(loc, "post_missing_perms", channel=channel.mention, perms=permission_names(missing, loc))
        else:
            problem = None
        if problem is not None:
            await interaction.response.send_message(problem, ephemeral=True)
            return
        schedule = Schedule(parsed[0], parsed[1], zone, Days(dias) if dias in set(Days) else Days.EVERY_DAY)
        upcoming = await self.posts.configure(
            interaction.guild_id, channel.id, schedule, server_terms=propios, language=language
        )
        time, days = f"{schedule.hour:02d}:{schedule.minute:02d}", t(loc, DAYS_NAMES[schedule.days])
        said = {"channel": channel.mention, "time": time, "zone": zone, "days": days, "next": _stamp(upcoming)}
        text = t(loc, "daily_configured", **said, language=language_text(language, interaction.guild, loc))
        await interaction.response.send_message(text, ephemeral=True)
        settings = await self.posts.settings(interaction.guild_id)
        if settings is not None:
            await self.cog.post_if_due(settings)  # a time already past today: today's term goes out now

    @configurar.autocomplete("zona")
    async def zona_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Time zone names: prefix matches first, then anywhere."""
        needle = current.strip().lower().replace(" ", "_")
        starts = [z for z in daily.zone_names() if z.lower().startswith(needle)]
        inside = [z for z in daily.zone_names() if needle in z.lower() and z not in starts]
        return [app_commands.Choice(name=z, value=z) for z in (starts + inside)[:25]]

    @app_commands.command(name="desactivar", description="Deja de publicar el término del día")
    async def desactivar(self, interaction: discord.Interaction) -> None:
        key = "daily_disabled" if await self.posts.disable(interaction.guild_id) else "daily_not_configured"
        await interaction.response.send_message(t(interaction.locale, key), ephemeral=True)

    @app_commands.command(name="estado", description="Cómo está configurado el término del día")
    async def estado(self, interaction: discord.Interaction) -> None:
        status = await self.posts.status(interaction.guild_id)
        loc = interaction.locale
        text = status_text(status, interaction.guild, loc) if status else t(loc, "daily_not_configured")
        await interaction.response.send_message(text, ephemeral=True)


class DailyCog(PostingCog):
    EVERY = CHECK_EVERY_SECONDS
    WHAT = "term of the day"

    def __init__(self, bot: commands.Bot, posts: DailyPosts, posts_per_second: float) -> None:
        self.posts = posts
        # under Discord's global 50 requests a second, with room for replies and other calls (settings: 40)
        self.pacer = Pacer(posts_per_second)
        super().__init__(bot, DailyAdmin(self))

    async def cog_load(self) -> None:
        await asyncio.to_thread(daily.zone_names)  # (the zone names read once, off the event loop)
        await super().cog_load()

    @app_commands.command(name="termino-del-dia", description="El término del día de este servidor")
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    async def termino_del_dia(self, interaction: discord.Interaction) -> None:
        guild_id = served_guild(interaction)
        if not guild_id:  # each server the bot is in has its own day's term; elsewhere there is none to show
            await interaction.response.send_message(t(interaction.locale, "daily_needs_server"), ephemeral=True)
            return
        pick = await self.posts.todays_term(guild_id)
        url = services(self.bot).cards.url_for(pick.term)
        embed, view = daily_card(pick.term, pick.entry, pick.glossary, interaction.locale, url)
        await interaction.response.send_message(embed=embed, view=view)

    # -- posting ----------------------------------------------------------------------------------
    async def tick(self) -> None:
        """One look at every server with a daily post: post the ones that are due (what the scheduler does every
        CHECK_EVERY_SECONDS)."""
        await each_server(self.posts.enabled, self.post_if_due, "term of the day")

    async def post_if_due(self, settings: DailySettings) -> bool:
        """Post today's term in this guild if it is due and nobody posted it yet. True when posted. Only a server
        this bot is connected to is claimed: another process's server is left to it."""
        guild = self.served_here(settings.guild_id)
        if guild is None:  # another process's shard, or a server this one cannot see (yet)
            return False
        job = await self.posts.claim_if_due(settings)
        if job is None:
            return False
        locale = post_language(settings.language, guild)  # (the settings of this tick: a change waits for the next)
        channel = guild.get_channel(job.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return await self._failed(job, PostProblem(Problem.CHANNEL_GONE, job.channel_id))
        if missing := missing_permissions(channel):
            return await self._failed(job, PostProblem(Problem.MISSING_PERMISSIONS, channel.id, permissions=missing))
        pick = await self.posts.todays_term(job.guild_id)
        term = pick.term
        await self.pacer.wait()
        embed, view = daily_card(term, pick.entry, pick.glossary, locale, services(self.bot).cards.url_for(term))
        message = await self.send_post(channel, job, embed=embed, view=view)
        if message is None:
            return False
        await self.posts.posted(job, message.id)
        log.info("term of the day for guild %s posted: %s", job.guild_id, term.id)
        return True

    def is_this_post(self, message: discord.Message, job: PostJob) -> bool:
        """The day's card: its heading names the day, in either language a post is written in."""
        heading = message.embeds[0].author.name if message.embeds else None
        return heading in {t(lang, "daily_heading", date=long_date(lang, job.day)) for lang in LANGUAGE_NAMES}

    async def _failed(self, job: PostJob, problem: PostProblem, *, retry: bool = False) -> bool:
        await self.posts.failed(job, problem, retry=retry)
        detail = problem_text(problem.stored(), "en-US")
        log.warning(
            "term of the day for guild %s %s: %s", job.guild_id, "will be retried" if retry else "failed", detail
        )
        return False


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DailyCog(bot, services(bot).app.daily, services(bot).app.settings.daily_posts_per_second))
