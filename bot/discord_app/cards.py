"""Rendered term cards (embed + "see also" buttons), built once per term and language and reused for every reply;
dropped when a reload swaps the glossary."""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime

import discord

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.server_terms import Overlay
from bot.core.model import Glossary, Term
from bot.discord_app.embeds import fit, term_embed
from bot.discord_app.i18n import language, t
from bot.discord_app.views import related_view

Card = tuple[discord.Embed, discord.ui.View | None]


class CardCache:
    MAX_CARDS = 2048

    def __init__(self, holder: CatalogHolder) -> None:
        self.holder = holder
        self._made_from: Catalog | None = None
        self._cards: OrderedDict[tuple[str, str], Card] = OrderedDict()

    def card_for(self, term: Term, overlay: Overlay | None, locale: object) -> Card:
        """A published term's card (from the cache), or a server term's (built each time: it names its author)."""
        if overlay is None or overlay.glossary.get(term.id) is not term:
            return self.card(term, locale)
        both = _Both(self.holder.glossary, overlay.glossary)
        embed = term_embed(term, both, locale)  # type: ignore[arg-type]
        author = overlay.authors.get(term.id)
        if author is not None:
            value = t(locale, "st_card_value", user=author.user_id, date=_date(author.at))
            embed.add_field(name=t(locale, "st_card_field"), value=value, inline=False)
        return fit(embed), related_view(term, both)  # type: ignore[arg-type]

    def card(self, term: Term, locale: object) -> Card:
        """The term's embed and buttons (shared objects: never modify them)."""
        catalog = self.holder.current
        if catalog is not self._made_from:
            self._made_from, self._cards = catalog, OrderedDict()
        key = (term.id, language(locale))
        cards = self._cards
        found = cards.get(key)
        if found is None:
            glossary = catalog.glossary
            found = cards[key] = (term_embed(term, glossary, locale), related_view(term, glossary))
            if len(cards) > self.MAX_CARDS:
                cards.popitem(last=False)
        else:
            cards.move_to_end(key)
        return found


class _Both:
    """The published glossary and a server's terms, for what a server term's card names (its related terms)."""

    def __init__(self, published: Glossary, own: Glossary) -> None:
        self.published, self.own = published, own
        self.title, self.subtitle = published.title, published.subtitle

    def get(self, term_id: str) -> Term | None:
        return self.published.get(term_id) or self.own.get(term_id)


def _date(iso: str) -> str:
    try:
        return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:D>"
    except ValueError:
        return iso
