"""A card's embed and buttons are made once and sent as their payloads: each payload is what discord.py makes of
the same card built the ordinary way (its embed through `Embed`'s own methods, its buttons through their items)."""

import dataclasses

import discord
import pytest

from bot.core.card import CardText
from bot.core.status import Vote
from bot.discord_app.cards import TermButton, card_view
from bot.discord_app.feedback import VoteButton, vote_row
from bot.discord_app.feedback._rows import QUESTION_ID
from bot.discord_app.kit.buttons import button_payload, render_only
from bot.discord_app.kit.embeds import COLOUR, TOTAL, CardEmbed, card_embed, fit, term_embed
from bot.discord_app.kit.i18n import t

LOCALES = ("es-ES", "en-US", "es-ES")  # back to the first: nothing made for one language leaks into another


def ordinary_embed(card: CardText, locale: str, heading=None, url=None, attribution="") -> discord.Embed:
    """The card as an ordinary embed, built and fitted through discord.py's own methods."""
    embed = discord.Embed(title=card.title, description=card.description, colour=COLOUR, url=url)
    if heading:
        embed.set_author(name=heading)
    for key, value, inline in card.fields:
        embed.add_field(name=t(locale, key), value=value, inline=inline)
    if attribution:
        embed.add_field(name=t(locale, "st_card_field"), value=attribution, inline=False)
    embed.set_footer(text=card.footer)
    return fit(embed)


def test_every_card_sends_what_discord_py_makes_of_its_embed(shipped_glossary):
    for locale in LOCALES:
        for term in shipped_glossary.terms:
            embed = term_embed(term, shipped_glossary, locale, heading="Término del día", url="https://x.org/#a")
            assert isinstance(embed, CardEmbed)
            assert embed.to_dict() == discord.Embed.to_dict(embed)  # the payload is the embed's attributes
            assert embed.title == term.term and embed.fields[0].name == t(locale, "english" if term.en else "category")
            assert embed.colour == COLOUR and embed.author.name == "Término del día" and embed.timestamp is None
            assert not embed.image and len(embed) == len(discord.Embed.from_dict(embed.to_dict()))


@pytest.mark.parametrize("heading,url,attribution", [(None, None, ""), ("Hoy", "https://x.org/", "<@1> · <t:1:D>")])
def test_a_card_payload_equals_the_ordinary_embed_of_the_same_card(heading, url, attribution):
    card = CardText(
        "Horovod", "Framework *distribuido*.", (("english", "Horovod", True), ("category", "MLOps", True)), "G"
    )
    for locale in LOCALES:
        ours = card_embed(card, locale, heading=heading, url=url, attribution=attribution)
        assert ours.to_dict() == ordinary_embed(card, locale, heading, url, attribution).to_dict()


def test_a_card_over_the_limits_is_fitted_before_it_becomes_its_payload():
    long = "palabra " * 900  # 7,200 characters: over a description's 4,096 and the 6,000 in all
    card = CardText("T" * 300, long, (("category", "x" * 2000, False), ("aliases", "y" * 1500, False)), "pie " * 700)
    ours = card_embed(card, "es-ES")
    assert ours.to_dict() == ordinary_embed(card, "es-ES").to_dict() == discord.Embed.to_dict(ours)
    assert len(ours) <= TOTAL and len(ours.title) <= 256 and ours.title.endswith("…")


def test_a_copy_is_an_ordinary_embed_and_changing_it_leaves_the_card_alone(shipped_glossary):
    card = term_embed(shipped_glossary.get("horovod"), shipped_glossary, "es-ES")
    sent = discord.Embed.to_dict(card)
    changed = card.copy()
    assert type(changed) is discord.Embed and changed.to_dict() == sent
    changed.title = "otro"
    changed.set_field_at(0, name="x", value="y")
    changed.set_footer(text="z")
    assert card.to_dict() == sent == discord.Embed.to_dict(card)


def test_a_card_view_is_its_related_items_and_the_vote_row_made_afresh(shipped_glossary):
    term = next(term for term in shipped_glossary.terms if len(term.related) >= 2)
    related = [shipped_glossary.get(i) for i in term.related][:5]
    for locale in LOCALES:
        rows = card_view(term, shipped_glossary, locale).to_components()
        (items_row,) = render_only([TermButton(r.id, r.term) for r in related]).to_components()
        question = {**button_payload(t(locale, "fb_question"), QUESTION_ID, VoteButton.STYLE), "disabled": True}
        fresh_votes = [VoteButton.rendered(term.id, vote, locale) for vote in Vote]
        assert rows == [items_row, {"type": 1, "components": [question, *fresh_votes]}]
        assert vote_row(term, locale) == [question, *fresh_votes]


def test_a_card_view_is_never_kept_nor_dispatched_by_discord_py(shipped_glossary):
    lonely = dataclasses.replace(shipped_glossary.get("horovod"), related=())
    view = card_view(lonely, shipped_glossary, "en-US")
    assert [row["components"][0]["custom_id"] for row in view.to_components()] == [QUESTION_ID]  # the vote row alone
    assert view.is_finished() and not view.is_dispatchable() and not view.has_components_v2()
    assert view.timeout is None and view.children == []
