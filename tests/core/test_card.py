"""A card's text (bot/core/card.py): the description is the definition's paragraphs, one blank line apart."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.core.card import card_text
from bot.core.paragraphs import paragraphs


@given(st.text(st.sampled_from("ab \t\n\r\u2028\u00a0."), max_size=30))
def test_the_description_is_the_paragraphs_of_the_definition(shipped_glossary, definition):
    term = replace(shipped_glossary.terms[0], definition=definition)
    card = card_text(term, [], "Glosario IA")
    assert card.description == "\n\n".join(paragraphs(definition))
