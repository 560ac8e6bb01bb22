"""A card's text (bot/core/card.py): the description is the definition's paragraphs, one blank line apart."""

import sys
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


EVERY_SPACE = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())


@given(st.text(st.sampled_from("ab .é—\u200b\x1f\x85\u3000\u2000\u202f" + EVERY_SPACE[:12]), max_size=30))
def test_a_definition_on_one_line_is_its_words_one_space_apart_whatever_its_spaces(shipped_glossary, definition):
    term = replace(shipped_glossary.terms[0], definition=definition)
    assert card_text(term, [], "Glosario IA").description == "\n\n".join(paragraphs(definition))


def test_every_kind_of_space_is_made_one_space_and_a_clean_definition_is_kept_as_it_is(shipped_glossary):
    for space in EVERY_SPACE:
        for definition in (f"a{space}b", f"{space}a b", f"a b{space}", f"a {space}b", f"a{space}{space}b"):
            term = replace(shipped_glossary.terms[0], definition=definition)
            assert card_text(term, [], "G").description == "\n\n".join(paragraphs(definition)), repr(definition)
    clean = "Una definición — «limpia», con áéí y sin espacios de más."
    assert card_text(replace(shipped_glossary.terms[0], definition=clean), [], "G").description is clean
