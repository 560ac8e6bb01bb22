"""Pure builders: Term → discord.Embed, and safe echoes of user text."""

from __future__ import annotations

import discord

from bot.core.model import Glossary, Term
from bot.discord_app.i18n import t

COLOUR = discord.Colour(0x2B6CB0)
MAX_ECHO = 100


def echo(text: str) -> str:
    """User text made safe to show: one line, trimmed, markdown and mentions neutralised."""
    line = " ".join(text.split())
    if len(line) > MAX_ECHO:
        line = line[: MAX_ECHO - 1] + "…"
    line = discord.utils.escape_markdown(line)
    # A zero-width space after every @ breaks @everyone, @here, <@user>, <@&role> whatever the id looks like.
    return line.replace("@", "@\u200b") or "…"


def term_embed(term: Term, glossary: Glossary, locale: object, *, heading: str | None = None) -> discord.Embed:
    """The card for one term, shared by /termino, buttons and the term of the day."""
    embed = discord.Embed(title=term.term, description=term.definition, colour=COLOUR)
    if heading:
        embed.set_author(name=heading)
    if term.en:
        embed.add_field(name=t(locale, "english"), value=term.en, inline=True)
    embed.add_field(name=t(locale, "category"), value=term.category, inline=True)
    if term.aliases:
        embed.add_field(name=t(locale, "aliases"), value=", ".join(term.aliases), inline=False)
    related = [r.term for r in (glossary.get(i) for i in term.related) if r is not None]
    if related:
        embed.add_field(name=t(locale, "related"), value=", ".join(related), inline=False)
    if term.links:
        embed.add_field(name=t(locale, "links"), value="\n".join(f"[{k.title}]({k.url})" for k in term.links))
    footer = f"{glossary.title} — {glossary.subtitle}" if glossary.subtitle else glossary.title
    embed.set_footer(text=footer[:2048])
    return embed
