"""Pure builders: Term → discord.Embed, and safe echoes of user text."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord

from bot.core.card import CardText, card_text, footer
from bot.core.invisible import ECHOED, one_line, without_turns
from bot.core.model import Glossary, Term
from bot.discord_app.kit.i18n import language, t

COLOUR = discord.Colour(0x2B6CB0)
MAX_ECHO = ECHOED  # (bot/core/invisible.py: what the command line says back too)
# Discord's limits for one embed: each part, the number of fields, and the total across a message's embeds.
LIMITS = {"title": 256, "description": 4096, "field_name": 256, "field_value": 1024, "footer": 2048, "author": 256}
MAX_FIELDS, TOTAL = 25, 6000
ELLIPSIS = "…"
# (LIMITS' values as names, for `parts_within`, which every new card goes through.)
_TITLE, _DESCRIPTION, _FIELD_NAME, _FIELD_VALUE, _FOOTER, _AUTHOR = (
    LIMITS[part] for part in ("title", "description", "field_name", "field_value", "footer", "author")
)


def shorten(text: str, limit: int) -> str:
    """At most `limit` characters; a cut text ends in "…"."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS if limit > 0 else ""


def join_within(lines: list[str], limit: int, more: Callable[[int], str] = lambda n: f"… (+{n})") -> str:
    """Whole lines, one per row, within `limit` characters; the lines left out are counted on a last row."""
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        left = len(lines) - i - 1
        tail = len(more(left)) + 1 if left else 0
        line = shorten(line, limit - tail) if not out else line
        if used + len(line) + (1 if out else 0) + tail > limit:
            return "\n".join([*out, more(len(lines) - i)])
        out.append(line)
        used += len(line) + (1 if len(out) > 1 else 0)
    return "\n".join(out)


def fit(embed: discord.Embed) -> discord.Embed:
    """Fit an embed to Discord's limits in place, per part and in total (the one place that does it).

    Each part is first cut to its own limit. If the whole is still over 6,000 characters, parts are shortened
    in this order until it fits: the footer, the author line, the fields from the last to the first, then the
    description; the title and field names stay. A cut part ends in "…"; nothing is dropped silently."""
    if _within_limits(embed):
        return embed  # the usual case, checked in one pass
    _cut_each_part(embed)
    _shorten_to_total(embed)
    return embed


def _within_limits(embed: discord.Embed) -> bool:
    fields = [(f.name, f.value) for f in embed.fields]
    return parts_within(embed.title, embed.description, fields, embed.footer.text, embed.author.name)


def parts_within(
    title: str | None,
    description: str | None,
    fields: list[tuple[str | None, str | None]] | list[tuple[str, str, bool]],
    footer: str | None,
    author: str | None,
) -> bool:
    """Whether an embed made of these parts is within every limit `fit` enforces (then `fit` would change nothing).
    `fields`: each field's name and value, first in a tuple (what follows, such as `inline`, is not read)."""
    # (Each part's length taken once, a missing part's as 0: every new card is checked here.)
    title_size, description_size, footer_size, author_size = (
        len(title or ""),
        len(description or ""),
        len(footer or ""),
        len(author or ""),
    )
    if (
        len(fields) > MAX_FIELDS
        or title_size > _TITLE
        or description_size > _DESCRIPTION
        or footer_size > _FOOTER
        or author_size > _AUTHOR
    ):
        return False
    total = title_size + description_size + footer_size + author_size
    for field in fields:
        name_size, value_size = len(field[0] or ""), len(field[1] or "")
        if not name_size or not value_size or name_size > _FIELD_NAME or value_size > _FIELD_VALUE:
            return False
        total += name_size + value_size
    return total <= TOTAL


def _cut_each_part(embed: discord.Embed) -> None:
    fields = embed.fields
    if embed.title:
        embed.title = shorten(embed.title, LIMITS["title"])
    if embed.description:
        embed.description = shorten(embed.description, LIMITS["description"])
    while len(embed.fields) > MAX_FIELDS:
        embed.remove_field(len(embed.fields) - 1)
    for i, f in enumerate(fields[:MAX_FIELDS]):
        name, value = (
            shorten(f.name or ELLIPSIS, LIMITS["field_name"]),
            shorten(f.value or ELLIPSIS, LIMITS["field_value"]),
        )
        if (name, value) != (f.name, f.value):
            embed.set_field_at(i, name=name, value=value, inline=f.inline)
    if embed.footer.text:
        embed.set_footer(text=shorten(embed.footer.text, LIMITS["footer"]), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=shorten(embed.author.name, LIMITS["author"]), url=embed.author.url)


def _shorten_to_total(embed: discord.Embed) -> None:
    """Over 6,000 characters in all: the footer, the author line, the fields from the last, then the description."""
    excess = len(embed) - TOTAL
    if excess <= 0:
        return
    if embed.footer.text:
        kept = max(len(embed.footer.text) - excess, 0)
        excess -= len(embed.footer.text) - kept
        embed.set_footer(text=shorten(embed.footer.text, kept) or None)
    if excess > 0 and embed.author.name:
        kept = max(len(embed.author.name) - excess, 0)
        excess -= len(embed.author.name) - kept
        embed.set_author(name=shorten(embed.author.name, kept) or ELLIPSIS)
    for i in reversed(range(len(embed.fields))):
        if excess <= 0:
            break
        f = embed.fields[i]
        kept = max(len(f.value) - excess, 1)
        excess -= len(f.value) - kept
        embed.set_field_at(i, name=f.name, value=shorten(f.value, kept), inline=f.inline)
    if excess > 0 and embed.description:
        kept = max(len(embed.description) - excess, 1)
        embed.description = shorten(embed.description, kept)


def echo(text: str) -> str:
    """User text made safe to show: one line, trimmed, markdown and mentions neutralised."""
    return escaped(one_line(text, MAX_ECHO)) or "…"


def escaped(text: str) -> str:
    """Text shown as it reads wherever Discord reads markdown, whole (a term's name in a list: a server's term is
    members' text): markdown, masked links, mentions and marks that turn the text around neutralised."""
    # A zero-width space after every @ breaks @everyone, @here, <@user>, <@&role> whatever the id looks like.
    return discord.utils.escape_markdown(without_turns(text)).replace("@", "@\u200b")


def discord_time(iso: str, style: str) -> str:
    """An ISO time as a Discord timestamp (shown in each reader's own time zone and language); the text as it is
    when it is not a time."""
    try:
        return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:{style}>"
    except ValueError:
        return iso


def term_embed(
    term: Term, glossary: Glossary, locale: object, *, heading: str | None = None, url: str | None = None
) -> discord.Embed:
    """The card for one term, shared by /termino, buttons and the term of the day (its title links to `url`: the
    term on the glossary's web page, when there is one)."""
    related = {i: r.term for i in term.all_related() if (r := glossary.get(i)) is not None}  # every sense's, by id
    card = card_text(term, related, footer(glossary.title, glossary.subtitle))
    return card_embed(card, locale, heading=heading, url=url)


def card_embed(
    card: CardText, locale: object, *, heading: str | None = None, url: str | None = None, attribution: str = ""
) -> discord.Embed:
    """A card's text as an embed, labels in the reader's language (the attribution value last, when given)."""
    labels = _labels(language(locale))
    fields = [(labels[key], value, inline) for key, value, inline in card.fields]
    if attribution:
        fields.append((labels["st_card_field"], attribution, False))
    # The usual card is checked on its own strings, and made straight into its payload; one over a limit is made
    # as an ordinary embed and cut by `fit`, the one place that cuts.
    if not parts_within(card.title, card.description, fields, card.footer, heading):
        embed = discord.Embed(title=card.title, description=card.description, colour=COLOUR, url=url)
        if heading:
            embed.set_author(name=heading)
        for name, value, inline in fields:
            embed.add_field(name=name, value=value, inline=inline)
        embed.set_footer(text=card.footer)
        return CardEmbed(fit(embed).to_dict())
    payload: dict = {
        "footer": {"text": card.footer},
        "fields": [{"inline": inline, "name": name, "value": value} for name, value, inline in fields],
        "flags": 0,
        "color": COLOUR.value,
        "type": "rich",
    }
    if heading:
        payload["author"] = {"name": heading}
    if card.description:
        payload["description"] = card.description
    if url:
        payload["url"] = url
    if card.title:
        payload["title"] = card.title
    return CardEmbed(payload)


class _Labels(dict[str, str]):
    """A card's field names in one language, by key, each looked up in the catalogue the first time it is asked."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def __missing__(self, key: str) -> str:
        label = self[key] = t(self.lang, key)
        return label


@functools.cache
def _labels(lang: str) -> _Labels:
    return _Labels(lang)


class CardEmbed(discord.Embed):
    """A card's embed, sent as the payload it was made from.

    A card is made once and shared by every reply that shows it (the card cache), while `Embed.to_dict` rebuilds
    the payload from the embed's attributes on every send (37 K instructions, more than making the card). A
    CardEmbed holds its payload and gives it to discord.py on each send. Sending reads nothing else, so the
    attributes an Embed keeps (title, fields, footer, …) are filled from the payload by `Embed.from_dict` only when
    something first reads one (no reply does; filling them cost 26 K instructions a card). Like every shared card,
    it is never changed once made: `copy()` gives an ordinary embed to change. tests/discord_app/test_cards.py
    holds the payload equal to what `Embed.to_dict` makes of the embed.
    """

    __slots__ = ("_filled", "_payload")

    def __init__(self, payload: dict) -> None:
        """The embed of a payload in Discord's format, which it then sends as it is."""
        # (No Embed.__init__: the embed's attributes are its payload's, filled at the first read of one.)
        self._payload, self._filled = payload, False

    def __getattr__(self, name: str) -> Any:
        # Python calls this only for an attribute that is not set: the first such read fills them all; after that,
        # one still unset is absent from the card (as it would be from any embed).
        if name in ("_payload", "_filled") or self._filled:
            raise AttributeError(name)
        self._filled = True
        filled = discord.Embed.from_dict(self._payload)
        for slot in discord.Embed.__slots__:
            if hasattr(filled, slot):
                setattr(self, slot, getattr(filled, slot))
        return getattr(self, name)

    def to_dict(self) -> dict:  # type: ignore[override]
        return self._payload

    def copy(self) -> discord.Embed:  # type: ignore[override]
        return discord.Embed.from_dict(copy.deepcopy(self._payload))
