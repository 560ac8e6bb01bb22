"""/glosario-admin resumen configurar | desactivar | estado, and the weekly post: new gaps, the most asked, proposals
waiting, the answer rate and its trend (a chart). The figures are the application's (bot.app.insights.digest)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.daily.posts import PostProblem, Problem
from bot.app.insights.digest import Digest, DigestJob, Digests, DigestSettings
from bot.app.insights.statistics import percent
from bot.discord_app.digest.chart import chart_file, show_chart
from bot.discord_app.gaps import gap_label
from bot.discord_app.kit.embeds import COLOUR, LIMITS, fit, join_within
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
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import (
    POSTING_WITH_FILES,
    manages_server,
    missing_permissions,
    moderator_or_denied,
    permission_names,
)
from bot.discord_app.kit.services import services

log = logging.getLogger(__name__)
CHECK_EVERY_SECONDS = 600
WEEKDAYS = ("weekday_0", "weekday_1", "weekday_2", "weekday_3", "weekday_4", "weekday_5", "weekday_6")
DAY_NAMES = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


def digest_embed(digest: Digest, locale: object) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "digest_title", week=digest.week), colour=COLOUR)
    embed.add_field(name=t(locale, "digest_new"), value=str(digest.new_gaps))
    embed.add_field(name=t(locale, "digest_proposals"), value=str(digest.proposals))
    rate = t(locale, "digest_rate_value", rate=percent(digest.rate), previous=percent(digest.previous_rate))
    embed.add_field(name=t(locale, "digest_rate"), value=rate, inline=False)
    embed.add_field(name=t(locale, "by_meaning"), value=str(digest.by_meaning), inline=False)
    top = [gap_label(g) + f" — {g.count}" for g in digest.top_gaps]
    embed.add_field(name=t(locale, "digest_top"), value=join_within(top, LIMITS["field_value"]) or "—", inline=False)
    if digest.feedback is not None:  # what members said of the definitions (feedback)
        week = digest.feedback
        value = t(locale, "fb_digest_value", improvable=week.improvable, votes=week.votes, comments=week.comments)
        embed.add_field(name=t(locale, "fb_improvable"), value=value, inline=False)
    embed.set_footer(text=t(locale, "digest_footer"))
    return fit(embed)


def status_text(settings: DigestSettings, guild: discord.Guild | None, loc: object) -> str:
    """`/glosario-admin resumen estado`: where, when and in which language, when it was last posted, and its last
    problem."""
    if settings.posted_at:
        last = stored_time(settings.posted_at)
    elif settings.last_week and not settings.error and settings.claimed_until is None:  # (before the time was kept)
        last = t(loc, "digest_last_week", week=settings.last_week)
    else:
        last = t(loc, "post_last_none")
    text = t(
        loc,
        "digest_status",
        channel=f"<#{settings.channel_id}>",
        day=t(loc, WEEKDAYS[settings.weekday]),
        language=language_text(settings.language, guild, loc),
        last=last,
    )
    if settings.error:
        at = stored_time(settings.error_at) if settings.error_at else "?"
        text += t(loc, "post_error_line", at=at, detail=problem_text(settings.error, loc))
    return text


class DigestAdmin(app_commands.Group):
    def __init__(self, cog: DigestCog) -> None:
        super().__init__(name="resumen", description="Resumen semanal para los moderadores")
        self.cog, self.digests = cog, cog.digests

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await moderator_or_denied(interaction) and await manages_server(interaction)

    @app_commands.command(name="configurar", description="Publica cada semana un resumen de consultas y propuestas")
    @app_commands.describe(
        canal="Canal del resumen",
        dia="Día de la semana (UTC)",
        idioma="Idioma de las publicaciones (por defecto, el tuyo en Discord)",
    )
    @app_commands.choices(
        dia=[app_commands.Choice(name=name, value=n) for n, name in enumerate(DAY_NAMES)], idioma=LANGUAGE_CHOICES
    )
    async def configurar(
        self, interaction: discord.Interaction, canal: discord.TextChannel, dia: int = 0, idioma: str | None = None
    ) -> None:
        loc, weekday = interaction.locale, dia if 0 <= dia <= 6 else 0
        language = chosen_language(idioma, interaction)
        channel = interaction.guild.get_channel(canal.id) if interaction.guild else None
        if not isinstance(channel, discord.TextChannel):
            text = t(loc, "post_bad_channel")
        elif missing := missing_permissions(channel, POSTING_WITH_FILES):  # (the chart is a file)
            text = t(loc, "post_missing_perms", channel=channel.mention, perms=permission_names(missing, loc))
        else:
            await self.digests.configure(interaction.guild_id, channel.id, weekday, language)
            said = language_text(language, interaction.guild, loc)
            text = t(loc, "digest_configured", channel=channel.mention, day=t(loc, WEEKDAYS[weekday]), language=said)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="desactivar", description="Deja de publicar el resumen semanal")
    async def desactivar(self, interaction: discord.Interaction) -> None:
        key = "digest_disabled" if await self.digests.disable(interaction.guild_id) else "digest_not_configured"
        await interaction.response.send_message(t(interaction.locale, key), ephemeral=True)

    @app_commands.command(name="estado", description="Cómo está configurado el resumen semanal")
    async def estado(self, interaction: discord.Interaction) -> None:
        settings, loc = await self.digests.settings(interaction.guild_id), interaction.locale
        text = status_text(settings, interaction.guild, loc) if settings else t(loc, "digest_status_none")
        await interaction.response.send_message(text, ephemeral=True)


class DigestCog(PostingCog):
    EVERY = CHECK_EVERY_SECONDS
    WHAT = "weekly digest"

    def __init__(self, bot: commands.Bot, digests: Digests) -> None:
        self.digests = digests
        super().__init__(bot, DigestAdmin(self))

    async def tick(self) -> None:
        """Post the digests that are due (one server's trouble never stops the others')."""
        await each_server(self.digests.enabled, self.post_if_due, "weekly digest")

    async def post_if_due(self, settings: DigestSettings) -> bool:
        guild = self.served_here(settings.guild_id)
        if guild is None:  # another process's shard, or a server this one cannot see (yet), or one the bot left
            return False
        job = await self.digests.claim_if_due(settings)
        if job is None:
            return False
        channel = guild.get_channel(job.channel_id)
        if not isinstance(channel, discord.TextChannel):  # (not retried every ten minutes all week: `estado` says it)
            return await self._failed(job, PostProblem(Problem.CHANNEL_GONE, job.channel_id))
        if missing := missing_permissions(channel, POSTING_WITH_FILES):  # no request: free it for the next tick
            problem = PostProblem(Problem.MISSING_PERMISSIONS, channel.id, permissions=missing)
            return await self._failed(job, problem, retry=True)
        locale = post_language(settings.language, guild)
        digest = await self.digests.build(settings.guild_id)
        chart = await chart_file(self.digests, settings.guild_id, locale, digest.trend)
        embed = digest_embed(digest, locale)
        file = show_chart(embed, chart)
        if await self.send_post(channel, job, embed=embed, file=file) is None:
            return False
        await self.digests.posted(job)
        return True

    def is_this_post(self, message: discord.Message, job: DigestJob) -> bool:
        """The week's digest: its title names the week, in either language a digest is written in."""
        title = message.embeds[0].title if message.embeds else None
        return title in {t(lang, "digest_title", week=job.week) for lang in LANGUAGE_NAMES}

    async def _failed(self, job: DigestJob, problem: PostProblem, *, retry: bool = False) -> bool:
        await self.digests.failed(job, problem, retry=retry)
        detail = problem_text(problem.stored(), "en-US")
        outcome = "will be retried" if retry else "skipped this week"
        level = logging.INFO if problem.problem == Problem.MISSING_PERMISSIONS else logging.WARNING  # (theirs to give)
        log.log(level, "weekly digest for guild %s %s: %s", job.guild_id, outcome, detail)
        return False


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DigestCog(bot, services(bot).app.digests))
