"""/glosario-admin resumen configurar | desactivar, and the weekly post: new gaps, the most asked, proposals
waiting, the answer rate and its trend (a chart). The figures are the application's (bot.app.insights.digest)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.insights.digest import Digest, Digests, DigestSettings
from bot.app.insights.statistics import percent
from bot.discord_app.digest.chart import chart_file, show_chart
from bot.discord_app.gaps import gap_label
from bot.discord_app.kit.embeds import COLOUR, LIMITS, fit, join_within
from bot.discord_app.kit.groups import (
    LANGUAGE_CHOICES,
    PostingCog,
    chosen_language,
    each_server,
    language_text,
    post_language,
    refused_for_good,
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


class DigestCog(PostingCog):
    EVERY = CHECK_EVERY_SECONDS

    def __init__(self, bot: commands.Bot, digests: Digests) -> None:
        self.digests = digests
        super().__init__(bot, DigestAdmin(self))

    async def tick(self) -> None:
        """Post the digests that are due (one server's trouble never stops the others')."""
        await each_server(self.digests.enabled, self.post_if_due, "weekly digest")

    async def post_if_due(self, settings: DigestSettings) -> bool:
        if self.bot.get_guild(settings.guild_id) is None:  # another process's server (or one the bot left)
            return False
        week = await self.digests.claim_if_due(settings)
        if week is None:
            return False
        guild = self.bot.get_guild(settings.guild_id)
        channel = guild.get_channel(settings.channel_id) if guild else None
        if not isinstance(channel, discord.TextChannel):
            log.warning("weekly digest for guild %s: channel %s is gone", settings.guild_id, settings.channel_id)
            return False  # (claimed: not retried every ten minutes all day; the setting stays for the moderators)
        if missing := missing_permissions(channel, POSTING_WITH_FILES):  # no request: free it for the next tick
            log.info("weekly digest for guild %s waits for %s in its channel", settings.guild_id, ", ".join(missing))
            await self.digests.release(settings, week)
            return False
        locale = post_language(settings.language, guild)
        digest = await self.digests.build(settings.guild_id)
        chart = await chart_file(self.digests, settings.guild_id, locale, digest.trend)
        embed = digest_embed(digest, locale)
        file = show_chart(embed, chart)
        try:
            await channel.send(embed=embed, file=file)
        except (discord.HTTPException, OSError) as exc:
            if isinstance(exc, discord.HTTPException) and refused_for_good(exc):
                # refused (403, 400…): it would be refused again every ten minutes all day; this week's is skipped
                log.warning("weekly digest for guild %s refused by Discord: %s", settings.guild_id, exc)
                return False
            log.warning("weekly digest for guild %s not posted (%s); retrying later", settings.guild_id, exc)
            await self.digests.release(settings, week)
            return False
        return True


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DigestCog(bot, services(bot).app.digests))
