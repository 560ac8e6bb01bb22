"""The answer-rate chart as a Discord attachment (drawn by the application, bot.app.insights.chart)."""

from __future__ import annotations

import io
import logging

import discord

from bot.app.insights.digest import Digests
from bot.discord_app.kit.i18n import t

log = logging.getLogger(__name__)


async def chart_file(digests: Digests, guild_id: int, locale: object, trend=None) -> discord.File | None:
    """The answer-rate chart as an attachment; None (and a log line) if it cannot be drawn."""
    try:
        trend = trend or await digests.trend(guild_id)
        png = await digests.chart(trend, title=t(locale, "chart_title"), ylabel=t(locale, "chart_ylabel"))
    except Exception:
        log.exception("could not draw the answer-rate chart for guild %s", guild_id)
        return None
    return discord.File(io.BytesIO(png), filename=t(locale, "file_chart"))


def show_chart(embed: discord.Embed, chart: discord.File | None) -> discord.File:
    """The chart as the embed's image, if it could be drawn; what to send with the embed (MISSING if none)."""
    if chart is None:
        return discord.utils.MISSING
    embed.set_image(url=f"attachment://{chart.filename}")
    return chart
