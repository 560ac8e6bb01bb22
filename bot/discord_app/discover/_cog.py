"""/glosario buscar | lista | aleatorio | ayuda, and the message menu "Explicar términos"."""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.mentions import first_sentence
from bot.core.normalize import normalize
from bot.core.question_words import MAX_QUESTION
from bot.core.search import Found
from bot.core.server_terms import TermFields
from bot.discord_app.cards import OpenButton, show_term
from bot.discord_app.kit.buttons import ButtonsView, served_guild
from bot.discord_app.kit.embeds import COLOUR, LIMITS, echo, escaped, fit, join_within, shorten
from bot.discord_app.kit.i18n import t
from bot.discord_app.kit.pager import Pager
from bot.discord_app.kit.services import services
from bot.discord_app.lookup import answer_by_name, meaning
from bot.discord_app.proposals import ProposalModal

if TYPE_CHECKING:
    from bot.app.catalog import CatalogHolder
    from bot.app.community.proposals import Proposals
    from bot.app.lookup.lookups import Lookups
    from bot.core.model import Term
    from bot.discord_app.kit.cards import CardCache
    from bot.discord_app.kit.guard import Guard

SEARCH_PAGE, LIST_PAGE, EXPLAIN_MAX = 5, 20, 10
CHOICE_VALUE = 100  # Discord's limit for an autocomplete choice's value


def category_value(category: str) -> str:
    """What autocomplete submits for a category: its name, or (over Discord's 100 characters) a stable key
    that `/glosario lista` recognises, so that a long category is never offered cut and then not found."""
    if len(category) <= CHOICE_VALUE:
        return category
    return "#" + hashlib.blake2b(category.encode(), digest_size=8).hexdigest()


class DiscoverCog(commands.Cog):
    # Members may take the glossary with them: their own install of the app answers anywhere (a server the bot is
    # not in, DMs, group DMs). Subcommands share the group's contexts: `proponer` checks it needs the bot's server.
    glosario = app_commands.Group(
        name="glosario",
        description="Explora el glosario de IA",
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
    )

    def __init__(
        self,
        bot: commands.Bot,
        lookups: Lookups,
        proposals: Proposals,
        cards: CardCache,
        guard: Guard,
    ) -> None:
        self.bot, self.lookups, self.cards, self.guard = bot, lookups, cards, guard
        self.proposals = proposals
        self.catalog: CatalogHolder = lookups.catalog
        self.explain_menu = app_commands.ContextMenu(
            name="Explicar términos",
            callback=self.explain,
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
        )

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.explain_menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.explain_menu.name, type=self.explain_menu.type)

    async def _open(self, interaction: discord.Interaction, term_id: str) -> None:
        if await self.guard.within_rate_limit(interaction):  # a card each: the same limit as /termino
            await show_term(interaction, term_id, "private")

    @glosario.command(name="buscar", description="Busca términos por las palabras de su definición")
    @app_commands.describe(texto="Palabras a buscar")
    async def buscar(self, interaction: discord.Interaction, texto: str) -> None:
        here = await self.lookups.for_guild(served_guild(interaction))
        hits = here.search(interaction.user.id, texto)  # a gap is logged before the reply
        loc = interaction.locale
        if not hits:
            await interaction.response.send_message(t(loc, "search_none", query=echo(texto)), ephemeral=True)
            return
        terms = [hit.term for hit in hits]
        title = t(loc, "search_title", query=echo(texto))

        def render(page: int) -> tuple[discord.Embed, list[Term]]:
            chunk = terms[page * SEARCH_PAGE : (page + 1) * SEARCH_PAGE]
            lines = [
                f"**{escaped(term.term)}**"
                + (f" ({escaped(term.en)})" if term.en else "")
                + f" — {first_sentence(term.definition)}"
                for term in chunk
            ]
            return discord.Embed(
                title=title, description=join_within(lines, LIMITS["description"]), colour=COLOUR
            ), chunk

        pager = Pager(interaction.user.id, loc, -(-len(terms) // SEARCH_PAGE), render, self._open, buttons=True)
        await pager.send(interaction)

    @glosario.command(name="pregunta", description="Describe lo que buscas con tus palabras y te digo qué término es")
    @app_commands.describe(
        texto="Lo que buscas, con tus palabras (por ejemplo: el framework de Uber para entrenar con MPI)"
    )
    async def pregunta(self, interaction: discord.Interaction, texto: app_commands.Range[str, 1, MAX_QUESTION]) -> None:
        loc, user, app = interaction.locale, interaction.user.id, services(self.bot).app
        here = await self.lookups.for_guild(served_guild(interaction))
        names = here.lookup(user, texto, gap=False)
        if names is None:
            await interaction.response.send_message(t(loc, "empty_question"), ephemeral=True)
            return
        if isinstance(names.result, Found):  # a name (a typo too): its card, as /termino answers it, counted once
            await answer_by_name(interaction, self.cards, names.result, names.overlay, private=not here.guild_id)
            return
        if app.questions_loading:  # the first seconds after a start: asked again soon, so no gap yet
            await interaction.response.send_message(t(loc, "questions_loading"), ephemeral=True)
            return
        if not app.questions_ready:  # off (GLOSARIO_QUESTIONS), or its model could not be loaded: it will not come
            here.unanswered(user, texto, names, question=True)
            await interaction.response.send_message(t(loc, "questions_off", query=echo(texto)), ephemeral=True)
            return
        meant = await meaning.ask(self.bot, texto, names.overlay)
        if meant is None:  # too long, a full queue or a failure: the gap as usual, and the member told so
            here.unanswered(user, texto, names, question=True)
            await interaction.response.send_message(t(loc, "questions_unavailable", query=echo(texto)), ephemeral=True)
            return
        await meaning.answer(interaction, texto, meant, names, private=not here.guild_id)

    @glosario.command(name="lista", description="Todos los términos, por orden alfabético")
    @app_commands.describe(categoria="Solo los de esta categoría")
    async def lista(self, interaction: discord.Interaction, categoria: str | None = None) -> None:
        loc, guild_id = interaction.locale, served_guild(interaction)
        every = (await self.lookups.for_guild(guild_id)).terms()  # the server's own terms too
        categories = list(dict.fromkeys(category for term in every for category in term.categories()))
        if categoria:
            wanted = [
                c for c in categories if categoria in (c, category_value(c)) or normalize(c) == normalize(categoria)
            ]
            if not wanted:
                await interaction.response.send_message(
                    t(loc, "list_unknown_category", category=echo(categoria)),
                    ephemeral=True,
                )
                return
            categories = wanted

        # Grouped by category, alphabetical inside each: one row per term, the category heading where it changes.
        # A term with senses in several categories is found by each, and a list names it once, under the first:
        # the category asked for may be two spellings of one name ("Visión", "vision"), a sense of the term in each.
        def listed(term: Term, category: str) -> bool:
            return category in term.categories() if categoria else term.category == category

        rows: list[tuple[str, Term]] = []
        named: set[str] = set()
        for category in sorted(categories, key=normalize):
            for term in sorted((x for x in every if listed(x, category)), key=lambda x: normalize(x.term)):
                if term.id not in named:
                    named.add(term.id)
                    rows.append((category, term))
        terms = [term for _, term in rows]
        title = (
            t(loc, "list_title_category", category=categories[0], count=len(terms))
            if categoria
            else t(loc, "list_title", count=len(terms))
        )

        def render(page: int) -> tuple[discord.Embed, list[Term]]:
            chunk = rows[page * LIST_PAGE : (page + 1) * LIST_PAGE]
            lines, heading = [], None
            for category, term in chunk:
                if category != heading:
                    heading = category
                    lines.append(f"__{heading}__")
                lines.append(f"• {escaped(term.term)}" + (f" — *{escaped(term.en)}*" if term.en else ""))
            return discord.Embed(title=title, description=join_within(lines, LIMITS["description"]), colour=COLOUR), [
                term for _, term in chunk
            ]

        await Pager(interaction.user.id, loc, max(1, -(-len(terms) // LIST_PAGE)), render, self._open).send(interaction)

    @lista.autocomplete("categoria")
    async def categoria_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        needle, guild_id = normalize(current), served_guild(interaction)
        every = (await self.lookups.for_guild(guild_id)).terms()
        every_category = dict.fromkeys(category for term in every for category in term.categories())
        names = [c for c in every_category if needle in normalize(c)]
        return [app_commands.Choice(name=shorten(c, 100), value=category_value(c)) for c in names[:25]]

    @glosario.command(name="aleatorio", description="Un término al azar")
    async def aleatorio(self, interaction: discord.Interaction) -> None:
        guild_id = served_guild(interaction)
        here = await self.lookups.for_guild(guild_id)
        term = random.choice(here.terms())
        embed, view = self.cards.card_for(term, here.overlay, interaction.locale)
        await interaction.response.send_message(  # public in the bot's servers; private where it is a guest
            embed=embed, view=view or discord.utils.MISSING, ephemeral=not guild_id
        )

    @glosario.command(name="proponer", description="Propón un término para el glosario de este servidor")
    @app_commands.describe(termino="El término que propones")
    async def proponer(self, interaction: discord.Interaction, termino: str | None = None) -> None:
        if not served_guild(interaction):  # a DM, or a server the bot is not in: there are no editors to propose to
            await interaction.response.send_message(t(interaction.locale, "needs_server"), ephemeral=True)
            return
        if not await self.proposals.enabled(interaction.guild_id or 0):
            await interaction.response.send_message(t(interaction.locale, "prop_off"), ephemeral=True)
            return
        fields = TermFields((termino or "").strip()[:256], "")
        await ProposalModal(interaction, fields).show(interaction)

    @glosario.command(name="ayuda", description="Qué puede hacer el bot")
    async def ayuda(self, interaction: discord.Interaction) -> None:
        loc = interaction.locale
        body = "help_body" if served_guild(interaction) else "help_body_elsewhere"  # (only what Discord offers there)
        embed = discord.Embed(title=t(loc, "help_title"), description=t(loc, body), colour=COLOUR)
        embed.set_footer(text=self.catalog.glossary.title)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def explain(self, interaction: discord.Interaction, message: discord.Message) -> None:
        """Message menu "Explicar términos": the glossary terms the message mentions, privately."""
        loc, guild_id = interaction.locale, served_guild(interaction)
        terms = (await self.lookups.for_guild(guild_id)).mentioned(message.content or "")
        if not terms:
            await interaction.response.send_message(t(loc, "explain_none"), ephemeral=True)
            return
        shown = terms[:EXPLAIN_MAX]
        lines = [f"**{escaped(term.term)}** — {first_sentence(term.definition)}" for term in shown]
        if len(terms) > EXPLAIN_MAX:
            lines.append(t(loc, "explain_more", count=len(terms) - EXPLAIN_MAX))
        embed = fit(discord.Embed(title=t(loc, "explain_title"), description=join_within(lines, 4096), colour=COLOUR))
        view = ButtonsView([OpenButton.rendered(term) for term in shown])
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    app = services(bot).app
    await bot.add_cog(DiscoverCog(bot, app.lookups, app.proposals, services(bot).cards, services(bot).guard))
