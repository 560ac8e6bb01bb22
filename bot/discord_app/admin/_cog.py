"""/glosario-admin: the group of moderators' tools, and the tools that belong to no other feature (recargar,
estadisticas, rol-editor). The other features attach their own: gaps (pendientes, exportar), proposals
(propuestas), server terms (termino …), daily (diario …), digest (resumen …). Thin: a real permission check, one
application action, then rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.feedback.votes import MIN_VOTES
from bot.app.glossary import ReloadReport
from bot.app.insights.statistics import Statistics, percent
from bot.core.errors import GlossaryError
from bot.core.status import Outcome
from bot.discord_app.digest.chart import chart_file, show_chart
from bot.discord_app.feedback import comment_lines, edit_buttons, least_helpful_lines
from bot.discord_app.gaps import gap_label
from bot.discord_app.kit.embeds import COLOUR, LIMITS, echo, escaped, fit, join_within
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.permissions import manages_server, moderator_or_denied
from bot.discord_app.kit.services import services

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from bot.app.glossary import GlossaryService
    from bot.app.insights.digest import Digests


def _names(terms, limit: int = 15) -> str:
    """Up to `limit` names, as many as fit in one field, and how many more there are."""
    names = [escaped(term.term) for term in terms]
    shown: list[str] = []
    for name in names[:limit]:
        more = len(names) - len(shown) - 1
        if len(", ".join([*shown, name])) + len(f" … (+{more})") > LIMITS["field_value"]:
            break
        shown.append(name)
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" … (+{more})" if more > 0 else "")


def reload_embed(report: ReloadReport, guild_id: int | None, loc: object) -> discord.Embed:
    """What a reload changed, and which of this server's gaps the new glossary answers."""
    changes = report.changes
    counts = {"added": len(changes.added), "removed": len(changes.removed), "changed": len(changes.changed)}
    embed = discord.Embed(colour=COLOUR, description=t(loc, "reload_ok", count=len(report.catalog.glossary), **counts))
    for key, terms in (
        ("reload_added", changes.added),
        ("reload_removed", changes.removed),
        ("reload_changed", changes.changed),
    ):
        if terms:
            embed.add_field(name=t(loc, key), value=_names(terms), inline=False)
    glossary = report.catalog.glossary
    lines = [
        f"«{echo(gap.sample)}» → {glossary.get(term).term}" for gap, term in report.resolved if gap.guild_id == guild_id
    ]
    if lines:
        embed.add_field(name=t(loc, "reload_resolved"), value=join_within(lines, LIMITS["field_value"]), inline=False)
    return fit(embed)


def stats_embed(stats: Statistics, loc: object) -> discord.Embed:
    """`/glosario-admin estadisticas`: the figures of one server."""
    none = t(loc, "stats_none")
    rates = {k: percent(v) for k, v in stats.rates.items()}
    top = [f"{escaped(term.term)} — {n}" for term, n in stats.most_looked_up]
    gaps = [gap_label(g) + f" — {g.count}" for g in stats.top_gaps]
    embed = discord.Embed(title=t(loc, "stats_title"), colour=COLOUR)
    embed.add_field(name=t(loc, "stats_terms"), value=str(stats.terms))
    lookups = t(loc, "stats_lookups_value", total=stats.lookups, week=stats.lookups_week)
    embed.add_field(name=t(loc, "stats_lookups"), value=lookups)
    found, ambiguous, missed = rates[Outcome.FOUND], rates[Outcome.AMBIGUOUS], rates[Outcome.NOT_FOUND]
    value = t(loc, "stats_rates_value", found=found, ambiguous=ambiguous, missed=missed, meaning=rates[Outcome.MEANING])
    embed.add_field(name=t(loc, "stats_rates"), value=value, inline=False)
    embed.add_field(name=t(loc, "stats_top"), value=join_within(top, LIMITS["field_value"]) or none, inline=False)
    embed.add_field(name=t(loc, "stats_gaps"), value=join_within(gaps, LIMITS["field_value"]) or none, inline=False)
    never = stats.never_looked_up
    embed.add_field(name=f"{t(loc, 'stats_never')} ({len(never)})", value=_names(never, 20) or none, inline=False)
    if stats.superseded:
        value = join_within([f"«{echo(name)}»" for name in stats.superseded], LIMITS["field_value"])
        embed.add_field(name=t(loc, "stats_superseded"), value=value, inline=False)
    if stats.set_aside:
        value = join_within([f"«{echo(name)}»" for name in stats.set_aside], LIMITS["field_value"])
        embed.add_field(name=t(loc, "stats_set_aside"), value=value, inline=False)
    if stats.least_helpful is not None and stats.least_helpful.total:
        name = t(loc, "fb_least_helpful", min=MIN_VOTES)
        embed.add_field(name=name, value=least_helpful_lines(stats.least_helpful, loc), inline=False)
    if stats.comments is not None and stats.comments.total:
        embed.add_field(name=t(loc, "fb_comments"), value=comment_lines(stats.comments, loc), inline=False)
    return fit(embed)


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="glosario-admin",
        description="Herramientas de moderación del glosario",
        guild_only=True,
        default_permissions=discord.Permissions(manage_messages=True),
        # A server's tools: installed with the bot in a server, never through a member's own install.
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
    )

    def __init__(
        self,
        glossary: GlossaryService,
        statistics: Callable[[int], Awaitable[Statistics]],
        set_editor_role: Callable[[int, int], Awaitable[object]],
        digests: Digests,
    ) -> None:
        self.glossary, self.statistics, self.digests = glossary, statistics, digests
        self.set_editor_role = set_editor_role

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Every /glosario-admin command of this cog: Manage Messages or the editor role, checked here for real."""
        return await moderator_or_denied(interaction)

    @admin.command(name="recargar", description="Vuelve a leer el glosario de disco")
    async def recargar(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # reading a big glossary takes time
        loc = interaction.locale
        report = await self.glossary.reload()
        if isinstance(report, GlossaryError):
            head = t(loc, "reload_failed", count=len(report.problems), terms=len(self.glossary.holder.glossary))
            body = report.report(relative_to=str(self.glossary.data_dir))
            body = join_within(body.splitlines(), 1900 - len(head), lambda n: t(loc, "reload_more", count=n))
            await interaction.followup.send(f"{head}\n```\n{body}\n```", ephemeral=True)
            return
        embed = reload_embed(report, interaction.guild_id, loc)
        await interaction.followup.send(embed=embed, ephemeral=True)

    @admin.command(name="estadisticas", description="Consultas, aciertos y lagunas de este servidor")
    async def estadisticas(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # the chart takes a moment the first time
        stats = await self.statistics(interaction.guild_id)
        embed = stats_embed(stats, interaction.locale)
        file = show_chart(embed, await chart_file(self.digests, interaction.guild_id, interaction.locale))
        edit = edit_buttons(stats.least_helpful, interaction.locale) if stats.least_helpful else None
        view = edit or discord.utils.MISSING  # "Editar" beside the least helpful of the server's own terms
        await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=True)

    @admin.command(name="rol-editor", description="Quién, además de los moderadores, puede revisar el glosario")
    @app_commands.describe(rol="Rol de los editores del glosario")
    async def rol_editor(self, interaction: discord.Interaction, rol: discord.Role) -> None:
        if not await manages_server(interaction):
            return
        await self.set_editor_role(interaction.guild_id, rol.id)
        await interaction.response.send_message(t(interaction.locale, "role_set", role=rol.mention), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    app = services(bot).app
    await bot.add_cog(AdminCog(app.glossary, app.statistics, app.roles.set_editor_role, app.digests))
