"""Rendered term cards: the embed and its buttons (made by the cards feature, `bot.discord_app.cards.card_view`),
built once per term and language and reused for every reply; dropped when a reload swaps the glossary."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import discord

from bot.app.catalog import Catalog, CatalogHolder
from bot.app.community.server_terms import Author, Overlay
from bot.app.interchange.site import term_url
from bot.core.model import Glossary, Layered, Term
from bot.discord_app.kit.embeds import card_embed, discord_time, term_embed
from bot.discord_app.kit.i18n import language, t

Card = tuple[discord.Embed, discord.ui.View | None]
Buttons = Callable[[Term, Glossary, object], discord.ui.View | None]  # a card's buttons (bot.discord_app.cards)


def attribution_of(author: Author, locale: object) -> str:
    """Who added a server term, and when (a mention in an embed never pings): "un miembro" once they were forgotten."""
    if author.anonymous:
        return t(locale, "st_card_value_anonymous", date=discord_time(author.at, "D"))
    return t(locale, "st_card_value", user=author.user_id, date=discord_time(author.at, "D"))


class CardCache:
    MAX_CARDS = 2048

    def __init__(self, holder: CatalogHolder, buttons: Buttons, site_url: str | None = None) -> None:
        self.holder, self.buttons = holder, buttons
        self.site_url = site_url  # GLOSARIO_SITE_URL: published terms' cards link to their anchor there
        self._made_from: Catalog | None = None
        self._cards: OrderedDict[tuple[str, str], Card] = OrderedDict()

    def card_for(self, term: Term, overlay: Overlay | None, locale: object) -> Card:
        """A published term's card (from the cache), or a server term's (built each time: it names its author)."""
        if overlay is None or overlay.glossary.get(term.id) is not term:
            return self.card(term, locale)
        both = Layered(self.holder.glossary, overlay.glossary)
        author = overlay.authors.get(term.id)
        attribution = attribution_of(author, locale) if author is not None else ""
        embed = card_embed(overlay.card(term, self.holder.glossary), locale, attribution=attribution)
        return embed, self.buttons(term, both, locale)  # type: ignore[arg-type]

    def url_for(self, term: Term) -> str | None:
        """The term's anchor on the glossary's web page; None without one, or for a server's own term (the page
        holds the published glossary only)."""
        if self.site_url is None or self.holder.glossary.get(term.id) is not term:
            return None
        return term_url(self.site_url, term.id)

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
            embed = term_embed(term, glossary, locale, url=self.url_for(term))
            found = cards[key] = (embed, self.buttons(term, glossary, locale))
            if len(cards) > self.MAX_CARDS:
                cards.popitem(last=False)
        else:
            cards.move_to_end(key)
        return found
