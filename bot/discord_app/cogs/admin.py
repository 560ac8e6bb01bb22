"""/glosario-admin: moderators' tools. Thin: checks, then review / daily helpers and storage."""

from __future__ import annotations

import asyncio
import io
import zipfile
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import GlossaryError
from bot.core.status import GapStatus, Outcome
from bot.discord_app.embeds import COLOUR, LIMITS, echo, fit, join_within
from bot.discord_app.i18n import t
from bot.discord_app.review import (
    ORDER_CHOICES,
    STATUS_CHOICES,
    ActSelect,
    PageButton,
    deny,
    moderator_or_denied,
    render,
)
from bot.discord_app.views import NO_MENTIONS
from bot.reports import gaps_csv, gaps_yaml
from bot.statistics import percent, summarize

if TYPE_CHECKING:
    from bot.discord_app.client import GlossaryBot
    from bot.discord_app.cogs.daily import DailyCog


def _zipped(name: str, data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return out.getvalue()


def _names(terms, limit: int = 15) -> str:
    """Up to `limit` names, as many as fit in one field, and how many more there are."""
    names = [term.term for term in terms]
    shown: list[str] = []
    for name in names[:limit]:
        more = len(names) - len(shown) - 1
        if len(", ".join([*shown, name])) + len(f" … (+{more})") > LIMITS["field_value"]:
            break
        shown.append(name)
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" … (+{more})" if more > 0 else "")


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="glosario-admin",
        description="Herramientas de moderación del glosario",
        guild_only=True,
        default_permissions=discord.Permissions(manage_messages=True),
    )
    diario = app_commands.Group(name="diario", description="Término del día", parent=admin)

    PERSISTENT = (PageButton, ActSelect)  # the gaps list's pages and menus, answered even after a restart

    def __init__(self, bot: GlossaryBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.PERSISTENT)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.PERSISTENT)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Every /glosario-admin command: Manage Messages or the editor role, checked here for real."""
        return await moderator_or_denied(interaction)

    async def _manages_server(self, interaction: discord.Interaction) -> bool:
        if interaction.permissions.manage_guild:
            return True
        await deny(interaction, "admin_denied_guild")
        return False

    @property
    def daily(self) -> DailyCog:
        return self.bot.get_cog("DailyCog")  # type: ignore[return-value]

    # -- gaps -------------------------------------------------------------------------------------
    @admin.command(name="pendientes", description="Consultas que el glosario no supo responder")
    @app_commands.describe(orden="Más pedidas o más recientes primero", estado="Qué consultas ver")
    @app_commands.choices(
        orden=[app_commands.Choice(name=k, value=k) for k in ORDER_CHOICES],
        estado=[app_commands.Choice(name=k, value=k) for k in STATUS_CHOICES],
    )
    async def pendientes(
        self, interaction: discord.Interaction, orden: str = "frecuentes", estado: str = "abiertas"
    ) -> None:
        embed, view = await render(
            self.bot,
            interaction.guild_id,
            interaction.locale,
            0,
            ORDER_CHOICES.get(orden, "count"),
            STATUS_CHOICES.get(estado, GapStatus.OPEN),
        )
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @admin.command(name="exportar", description="Descarga las consultas abiertas para los editores")
    @app_commands.describe(formato="Formato del archivo")
    @app_commands.choices(
        formato=[app_commands.Choice(name="yaml", value="yaml"), app_commands.Choice(name="csv", value="csv")]
    )
    async def exportar(self, interaction: discord.Interaction, formato: str = "yaml") -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # 100,000 gaps take a second or two
        misses = self.bot.services.misses
        gaps = await misses.export(guild_id=interaction.guild_id, most_asked=formato == "yaml")
        if formato == "csv":
            text = await asyncio.to_thread(gaps_csv, gaps)
        else:
            title = f"{t(interaction.locale, 'export_title')} ({interaction.guild.name if interaction.guild else ''})"
            picks = await misses.picks(guild_id=interaction.guild_id)
            text = await asyncio.to_thread(gaps_yaml, gaps, picks, title=title)
        name = f"glosario-pendientes.{formato}"
        data = text.encode("utf-8")
        if len(data) > interaction.filesize_limit:  # Discord refuses a bigger file: zipped, text shrinks a lot
            data, name = await asyncio.to_thread(_zipped, name, data), name + ".zip"
        if len(data) > interaction.filesize_limit:
            await interaction.followup.send(
                t(interaction.locale, "export_too_big", count=len(gaps), guild=interaction.guild_id, format=formato),
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
            return
        await interaction.followup.send(
            t(interaction.locale, "export_done", count=len(gaps), format=formato.upper()),
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @admin.command(name="recargar", description="Vuelve a leer el glosario de disco")
    async def recargar(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # reading a big glossary takes time
        loc = interaction.locale
        report = await self.bot.reload_glossary()
        if isinstance(report, GlossaryError):
            head = t(loc, "reload_failed", count=len(report.problems), terms=len(self.bot.services.catalog.glossary))
            body = report.report(relative_to=str(self.bot.services.settings.data_dir))
            body = join_within(body.splitlines(), 1900 - len(head), lambda n: t(loc, "reload_more", count=n))
            await interaction.followup.send(f"{head}\n```\n{body}\n```", ephemeral=True, allowed_mentions=NO_MENTIONS)
            return
        changes = report.changes
        embed = discord.Embed(
            colour=COLOUR,
            description=t(
                loc,
                "reload_ok",
                count=len(report.catalog.glossary),
                added=len(changes.added),
                removed=len(changes.removed),
                changed=len(changes.changed),
            ),
        )
        for key, terms in (
            ("reload_added", changes.added),
            ("reload_removed", changes.removed),
            ("reload_changed", changes.changed),
        ):
            if terms:
                embed.add_field(name=t(loc, key), value=_names(terms), inline=False)
        here = [(gap, term_id) for gap, term_id in report.resolved if gap.guild_id == interaction.guild_id]
        if here:
            glossary = report.catalog.glossary
            lines = [f"«{echo(gap.sample)}» → {glossary.get(term_id).term}" for gap, term_id in here]
            embed.add_field(
                name=t(loc, "reload_resolved"), value=join_within(lines, LIMITS["field_value"]), inline=False
            )
        await interaction.followup.send(embed=fit(embed), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @admin.command(name="estadisticas", description="Consultas, aciertos y lagunas de este servidor")
    async def estadisticas(self, interaction: discord.Interaction) -> None:
        loc, guild_id = interaction.locale, interaction.guild_id
        services = self.bot.services
        week_ago = (services.clock() - timedelta(days=6)).date().isoformat()
        stats = summarize(
            services.catalog.glossary,
            await services.usage.outcomes(guild_id=guild_id),
            await services.usage.outcomes(guild_id=guild_id, since=week_ago),
            await services.usage.term_counts(guild_id=guild_id),
        )
        gaps = await services.misses.gaps(guild_id=guild_id, status=GapStatus.OPEN, limit=5)
        never, none = stats.never_looked_up, t(loc, "stats_none")
        embed = discord.Embed(title=t(loc, "stats_title"), colour=COLOUR)
        embed.add_field(name=t(loc, "stats_terms"), value=str(stats.terms))
        embed.add_field(
            name=t(loc, "stats_lookups"),
            value=t(loc, "stats_lookups_value", total=stats.lookups, week=stats.lookups_week),
        )
        rates = {k: percent(v) for k, v in stats.rates.items()}
        embed.add_field(
            name=t(loc, "stats_rates"),
            value=t(
                loc,
                "stats_rates_value",
                found=rates[Outcome.FOUND],
                ambiguous=rates[Outcome.AMBIGUOUS],
                missed=rates[Outcome.NOT_FOUND],
            ),
            inline=False,
        )
        embed.add_field(
            name=t(loc, "stats_top"),
            value=join_within([f"{term.term} — {n}" for term, n in stats.most_looked_up], LIMITS["field_value"])
            or none,
            inline=False,
        )
        embed.add_field(
            name=t(loc, "stats_gaps"),
            value=join_within([f"«{echo(g.sample)}» — {g.count}" for g in gaps], LIMITS["field_value"]) or none,
            inline=False,
        )
        embed.add_field(name=f"{t(loc, 'stats_never')} ({len(never)})", value=_names(never, 20) or none, inline=False)
        await interaction.response.send_message(embed=fit(embed), ephemeral=True, allowed_mentions=NO_MENTIONS)

    @admin.command(name="rol-editor", description="Quién, además de los moderadores, puede revisar el glosario")
    @app_commands.describe(rol="Rol de los editores del glosario")
    async def rol_editor(self, interaction: discord.Interaction, rol: discord.Role) -> None:
        if not await self._manages_server(interaction):
            return
        await self.bot.services.roles.set_editor_role(interaction.guild_id, rol.id)
        await interaction.response.send_message(
            t(interaction.locale, "role_set", role=rol.mention), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    # -- term of the day (Manage Server) ------------------------------------------------------------
    @diario.command(name="configurar", description="Publica un término cada día en un canal")
    @app_commands.describe(
        canal="Canal donde publicar",
        hora="Hora local, HH:MM",
        zona="Zona horaria IANA (por defecto UTC)",
        dias="Qué días publicar",
    )
    @app_commands.choices(
        dias=[
            app_commands.Choice(name="todos los días", value="todos"),
            app_commands.Choice(name="de lunes a viernes", value="laborables"),
        ]
    )
    async def configurar(
        self,
        interaction: discord.Interaction,
        canal: discord.TextChannel,
        hora: str,
        zona: str = "UTC",
        dias: str = "todos",
    ) -> None:
        if await self._manages_server(interaction):
            await self.daily.configure(interaction, canal, hora, zona, dias)

    @configurar.autocomplete("zona")
    async def zona_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        return self.daily.zones(current)

    @diario.command(name="desactivar", description="Deja de publicar el término del día")
    async def desactivar(self, interaction: discord.Interaction) -> None:
        if await self._manages_server(interaction):
            await self.daily.disable(interaction)

    @diario.command(name="estado", description="Cómo está configurado el término del día")
    async def estado(self, interaction: discord.Interaction) -> None:
        if await self._manages_server(interaction):
            await self.daily.status(interaction)


async def setup(bot: GlossaryBot) -> None:
    await bot.add_cog(AdminCog(bot))
