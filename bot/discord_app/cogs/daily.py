"""Term of the day: /termino-del-dia, /glosario-admin diario …, and the scheduler that posts it."""

from __future__ import annotations

import functools
import logging
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import available_timezones

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.core import daily
from bot.core.daily import DailyEntry, Schedule
from bot.discord_app.embeds import term_embed
from bot.discord_app.i18n import long_date, t
from bot.discord_app.views import NO_MENTIONS, related_view
from bot.storage.daily import DailySettings
from bot.storage.db import DatabaseBusy, within_a_second

if TYPE_CHECKING:
    from bot.core.model import Term
    from bot.discord_app.client import GlossaryBot

log = logging.getLogger(__name__)
CHECK_EVERY_SECONDS = 30
DAYS_NAMES = {"todos": "daily_days_todos", "laborables": "daily_days_laborables"}
_REQUIRED = (
    ("view_channel", "perm_view_channel"),
    ("send_messages", "perm_send_messages"),
    ("embed_links", "perm_embed_links"),
)


@functools.cache
def _zones() -> list[str]:
    """Every IANA zone name, read from tzdata on first use (not at import)."""
    return sorted(available_timezones())


def _stamp(moment: datetime) -> str:
    ts = int(moment.timestamp())
    return f"<t:{ts}:F> (<t:{ts}:R>)"


class DailyCog(commands.Cog):
    def __init__(self, bot: GlossaryBot) -> None:
        self.bot = bot
        self.store = bot.services.daily

    async def cog_load(self) -> None:
        self.scheduler.start()

    async def cog_unload(self) -> None:
        self.scheduler.cancel()

    # -- the pick -----------------------------------------------------------------------------------
    async def todays_term(self, guild_id: int, now: datetime, schedule: Schedule | None) -> tuple[Term, DailyEntry]:
        """The term of the day for this guild (the same for the command and the post), recorded once."""
        glossary = self.bot.services.catalog.glossary
        day = daily.local_date(now, schedule)
        term, cycle = daily.pick(glossary, guild_id, day, await self.store.history(guild_id))
        try:
            entry = await within_a_second(self.store.record_pick(guild_id, DailyEntry(day, term.id, cycle)))
        except DatabaseBusy as exc:  # the pick is deterministic: answer now, it is recorded by the next caller
            log.warning("term of the day for guild %s answered without recording it: %s", guild_id, exc)
            return term, DailyEntry(day, term.id, cycle)
        return glossary.get(entry.term_id) or term, entry

    def card(self, term: Term, entry: DailyEntry, locale: object) -> tuple[discord.Embed, discord.ui.View | None]:
        glossary = self.bot.services.catalog.glossary
        heading = t(locale, "daily_heading", date=long_date(locale, entry.day))
        return term_embed(term, glossary, locale, heading=heading), related_view(term, glossary)

    @app_commands.command(name="termino-del-dia", description="El término del día de este servidor")
    async def termino_del_dia(self, interaction: discord.Interaction) -> None:
        settings = await self.store.settings(interaction.guild_id) if interaction.guild_id else None
        schedule = settings.schedule if settings else None
        term, entry = await self.todays_term(interaction.guild_id or 0, self.bot.services.clock(), schedule)
        embed, view = self.card(term, entry, interaction.locale)
        await interaction.response.send_message(
            embed=embed, view=view or discord.utils.MISSING, allowed_mentions=NO_MENTIONS
        )

    # -- moderators -------------------------------------------------------------------------------
    async def configure(
        self,
        interaction: discord.Interaction,
        canal: discord.TextChannel,
        hora: str,
        zona: str = "UTC",
        dias: str = "todos",
    ) -> None:
        """/glosario-admin diario configurar (the permission check is the admin cog's)."""
        loc = interaction.locale
        parsed, zone = daily.parse_time(hora), daily.parse_zone(zona)
        channel = interaction.guild.get_channel(canal.id) if interaction.guild else None
        problem = (
            t(loc, "daily_bad_time", value=hora[:40])
            if parsed is None
            else t(loc, "daily_bad_zone", value=zona[:60])
            if zone is None
            else t(loc, "daily_bad_channel")
            if not isinstance(channel, discord.TextChannel)
            else None
        )
        if problem is None:
            missing = self._missing_permissions(channel, loc)
            if missing:
                problem = t(loc, "daily_missing_perms", channel=channel.mention, perms=missing)
        if problem is not None:
            await interaction.response.send_message(problem, ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        schedule = Schedule(parsed[0], parsed[1], zone, dias if dias in daily.DAYS else "todos")
        await self.store.configure(interaction.guild_id, channel.id, schedule)
        last = await self.store.last_post(interaction.guild_id)
        upcoming = daily.next_post(self.bot.services.clock(), schedule, last.day if last else None)
        await interaction.response.send_message(
            t(
                loc,
                "daily_configured",
                channel=channel.mention,
                time=f"{schedule.hour:02d}:{schedule.minute:02d}",
                zone=zone,
                days=t(loc, DAYS_NAMES[schedule.days]),
                next=_stamp(upcoming),
            ),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        settings = await self.store.settings(interaction.guild_id)
        if settings is not None:
            await self.post_if_due(settings)  # a time already past today: today's term goes out now

    @staticmethod
    def zones(current: str) -> list[app_commands.Choice[str]]:
        """Time zone names for autocomplete: prefix matches first, then anywhere."""
        needle = current.strip().lower().replace(" ", "_")
        starts = [z for z in _zones() if z.lower().startswith(needle)]
        inside = [z for z in _zones() if needle in z.lower() and z not in starts]
        return [app_commands.Choice(name=z, value=z) for z in (starts + inside)[:25]]

    async def disable(self, interaction: discord.Interaction) -> None:
        was_on = await self.store.disable(interaction.guild_id)
        key = "daily_disabled" if was_on else "daily_not_configured"
        await interaction.response.send_message(
            t(interaction.locale, key), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    async def status(self, interaction: discord.Interaction) -> None:
        loc = interaction.locale
        settings = await self.store.settings(interaction.guild_id)
        if settings is None or settings.schedule is None:
            await interaction.response.send_message(
                t(loc, "daily_not_configured"), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        schedule, last = settings.schedule, await self.store.last_post(interaction.guild_id)
        if last is None:
            last_text = t(loc, "daily_last_none")
        elif last.status == "failed":
            last_text = t(loc, "daily_last_failed", date=long_date(loc, last.day), detail=last.detail or "?")
        else:
            last_text = long_date(loc, last.day) + (
                f" — https://discord.com/channels/{interaction.guild_id}/{last.channel_id}/{last.message_id}"
                if last.message_id
                else ""
            )
        upcoming = daily.next_post(self.bot.services.clock(), schedule, last.day if last else None)
        text = t(
            loc,
            "daily_status",
            state=t(loc, "daily_state_on" if settings.enabled else "daily_state_off"),
            channel=f"<#{settings.channel_id}>",
            time=f"{schedule.hour:02d}:{schedule.minute:02d}",
            zone=schedule.tz,
            days=t(loc, DAYS_NAMES[schedule.days]),
            next=_stamp(upcoming) if settings.enabled else "—",
            last=last_text,
        )
        if settings.error:
            text += t(loc, "daily_error_line", at=settings.error_at or "?", detail=settings.error)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    # -- posting ----------------------------------------------------------------------------------
    def _missing_permissions(self, channel: discord.abc.GuildChannel, locale: object) -> str | None:
        me = channel.guild.me
        perms = channel.permissions_for(me) if me is not None else None
        missing = [t(locale, key) for attr, key in _REQUIRED if perms is None or not getattr(perms, attr)]
        return ", ".join(missing) or None

    @tasks.loop(seconds=CHECK_EVERY_SECONDS)
    async def scheduler(self) -> None:
        await self.tick()

    async def tick(self) -> None:
        """One look at every server with a daily post: post the ones that are due (what the scheduler does every
        CHECK_EVERY_SECONDS)."""
        try:
            enabled = await self.store.enabled()
        except Exception:  # a locked or failing database: the next tick tries again (the loop must not die)
            log.exception(
                "term of the day: could not read the servers' settings; retrying in %d s", CHECK_EVERY_SECONDS
            )
            return
        for settings in enabled:
            try:
                await self.post_if_due(settings)
            except Exception:  # one server's trouble must not stop the others' posts
                log.exception("term of the day failed for guild %s", settings.guild_id)

    @scheduler.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def post_if_due(self, settings: DailySettings) -> bool:
        """Post today's term in this guild if it is due and nobody posted it yet. True when posted."""
        if not settings.enabled or settings.schedule is None or settings.channel_id is None:
            return False
        now = self.bot.services.clock()
        last = await self.store.last_post(settings.guild_id)
        day = daily.due(now, settings.schedule, last.day if last else None)
        if day is None:
            return False
        at = now.isoformat(timespec="seconds")
        if not await self.store.claim(settings.guild_id, day, settings.channel_id, at):
            return False  # another tick, or another process, has it
        guild = self.bot.get_guild(settings.guild_id)
        locale = guild.preferred_locale if guild else "es-ES"
        channel = guild.get_channel(settings.channel_id) if guild else None
        if not isinstance(channel, discord.TextChannel):
            detail = t(locale, "daily_err_channel_gone", channel=f"<#{settings.channel_id}>")
            await self.store.failed(settings.guild_id, day, detail, at, retry=False)
            log.warning("term of the day for guild %s: %s", settings.guild_id, detail)
            return False
        missing = self._missing_permissions(channel, locale)
        if missing:
            detail = t(locale, "daily_err_perms", perms=missing, channel=channel.mention)
            await self.store.failed(settings.guild_id, day, detail, at, retry=False)
            log.warning("term of the day for guild %s: %s", settings.guild_id, detail)
            return False
        term, entry = await self.todays_term(settings.guild_id, now, settings.schedule)
        embed, view = self.card(term, entry, locale)
        try:
            message = await channel.send(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as exc:
            await self.store.failed(settings.guild_id, day, f"Discord: {exc.text or 'forbidden'}", at, retry=False)
            log.warning("term of the day for guild %s: forbidden (%s)", settings.guild_id, exc.text)
            return False
        except discord.HTTPException as exc:
            # Discord trouble (5xx, 429) frees the day for the next tick; a refusal of the message itself (another
            # 4xx) would be refused again every 30 s all day: it is recorded as the day's problem instead.
            retry = exc.status >= 500 or exc.status == 429
            await self.store.failed(settings.guild_id, day, f"Discord {exc.status}: {exc.text or exc}", at, retry=retry)
            log.warning(
                "term of the day for guild %s %s: %s", settings.guild_id, "will be retried" if retry else "refused", exc
            )
            return False
        except OSError as exc:  # the network: free the day for the next tick
            await self.store.failed(settings.guild_id, day, f"Discord: {exc}", at, retry=True)
            log.warning("term of the day for guild %s will be retried: %s", settings.guild_id, exc)
            return False
        await self.store.posted(settings.guild_id, day, message.id)
        log.info("term of the day for guild %s posted: %s", settings.guild_id, term.id)
        return True


async def setup(bot: GlossaryBot) -> None:
    await bot.add_cog(DailyCog(bot))
