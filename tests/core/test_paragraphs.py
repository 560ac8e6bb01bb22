"""A definition's paragraphs, whichever way the term file (or a form) wrote the blank line between them."""

from __future__ import annotations

import pytest

from bot.core.loader import load_glossary_from_texts
from bot.core.paragraphs import paragraphs


@pytest.mark.parametrize(
    "definition",
    [
        ">-\n      Uno, dos\n      y tres.\n\n      Cuatro.\n",  # folded: the blank line arrives as one line break
        "|\n      Uno, dos\n      y tres.\n\n      Cuatro.\n",  # literal: line breaks kept, the blank line too
        '"Uno, dos y tres.\\n\\nCuatro."',
        "Uno, dos\n      y tres.\n\n      Cuatro.\n",  # plain
    ],
)
def test_every_yaml_style_gives_the_same_paragraphs(definition):
    text = f"category: C\nterms:\n  - term: A\n    definition: {definition}"
    glossary = load_glossary_from_texts([("glossary.yaml", "title: T\n"), ("c.yaml", text)])
    assert paragraphs(glossary.get("a").definition) == ["Uno, dos y tres.", "Cuatro."]


def test_one_paragraph_and_nothing():
    assert paragraphs("  Una sola frase.  ") == ["Una sola frase."]
    assert paragraphs("Uno\r\n\r\nDos") == ["Uno", "Dos"]
    assert paragraphs("") == [] and paragraphs(" \n \n") == []
