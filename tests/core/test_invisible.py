"""Characters nobody sees: what `validate` refuses, and what an import removes instead (never a text `validate`
accepts)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import GlossaryError
from bot.core.invisible import cleaned, first_refused
from bot.core.loader import load_glossary_from_texts

META = "title: T\nsubtitle: S\nlanguage: es\n"


def clean(text: str) -> tuple[str, dict[str, int]]:
    removed = Counter()
    return cleaned(text, removed), dict(removed)


@pytest.mark.parametrize(
    ("text", "kept", "removed"),
    [
        ("features to\u200b it.", "features to it.", {"U+200B ZERO WIDTH SPACE": 1}),
        ("\ufeffA character", "A character", {"U+FEFF ZERO WIDTH NO-BREAK SPACE": 1}),
        ("2\u2060.0 a\u2060b", "2.0 ab", {"U+2060 WORD JOINER": 2}),
        ("x\u2062y", "xy", {"U+2062 INVISIBLE TIMES": 1}),
        ("of\u200cfline", "offline", {"U+200C ZERO WIDTH NON-JOINER": 1}),  # Latin letters: joins nothing
        ("\u200dword\u200d", "word", {"U+200D ZERO WIDTH JOINER": 2}),  # at either end: nothing to join
        ("a \u200c b", "a  b", {"U+200C ZERO WIDTH NON-JOINER": 1}),
        ("infor\u00admation", "infor\u00admation", {}),  # a soft hyphen shows where a line breaks: kept
        ("nbsp\u00a0kept", "nbsp\u00a0kept", {}),
    ],
)
def test_an_import_removes_what_nobody_sees_and_counts_each_kind(text, kept, removed):
    assert clean(text) == (kept, removed)


@pytest.mark.parametrize(
    "text",
    [
        "می\u200cخواهم",  # Persian: the non-joiner parts two letters that would otherwise join
        "क्\u200dष",  # Devanagari: the joiner asks for the half form instead of the conjunct
        "ക്\u200dക",  # Malayalam
        "\U0001f469\u200d\U0001f4bb",  # 👩‍💻: one emoji of two
        "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # with a skin tone
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # 🏳️‍🌈 (after VS-16)
    ],
)
def test_a_joiner_that_is_part_of_a_spelling_is_kept_and_validate_accepts_it(text):
    assert clean(text) == (text, {})
    assert first_refused(text) is None
    term = f'category: X\nterms:\n  - term: "Nombre {text}"\n    definition: "Texto: {text}."\n'
    (found,) = load_glossary_from_texts([("glossary.yaml", META), ("a.yaml", term)]).terms
    assert (found.term, found.definition) == (f"Nombre {text}", f"Texto: {text}.")


def test_validate_still_refuses_what_an_import_would_remove():
    term = 'category: X\nterms:\n  - term: "of\\u200cfline"\n    definition: "Features to\\u200b it."\n'
    with pytest.raises(GlossaryError) as refused:
        load_glossary_from_texts([("glossary.yaml", META), ("a.yaml", term)])
    said = [p.message for p in refused.value.problems]
    assert len(said) == 2
    assert "U+200C ZERO WIDTH NON-JOINER" in said[0] and "U+200B ZERO WIDTH SPACE" in said[1]


TEXTS = st.text(
    st.sampled_from("ab \u0645\u06cc\u0915\u094d\U0001f469\ufe0f\u00ad\u200b\u200c\u200d\u2060\ufeff\u2063\u202e\x07")
)


@given(TEXTS)
def test_an_import_never_changes_a_text_validate_accepts(text):
    if first_refused(text) is None:
        assert clean(text) == (text, {})


@given(TEXTS)
def test_what_an_import_leaves_is_refused_only_for_what_changes_how_a_text_is_shown(text):
    kept, removed = clean(text)
    assert len(kept) + sum(removed.values()) == len(text)  # every character removed is counted
    found = first_refused(kept)
    assert found is None or found[1] in "\u202e\x07"  # a bidirectional override, a control character
