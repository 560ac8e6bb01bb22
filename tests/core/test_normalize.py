"""Normalisation: one form for indexing and for queries."""

import string
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from bot.core.normalize import _SEPARATORS, compact, normalize, slug, sorted_compact


def test_examples():
    assert normalize("Servidor de Parámetros") == "servidor de parametros"
    assert normalize("  ¿Qué es   Horovod? ") == "que es horovod"
    assert normalize("all-reduce") == normalize("all_reduce") == normalize("all.reduce") == "all reduce"
    assert normalize("ＨＯＲＯＶＯＤ") == "horovod"  # full-width letters
    assert compact(normalize("All Reduce")) == "allreduce"
    assert sorted_compact("tensorflow distributed") == sorted_compact("distributed tensorflow")
    assert slug("Servidor de Parámetros") == "servidor-de-parametros"


def test_enye_stays_distinct_from_n():
    assert normalize("AÑO") == "año"
    assert normalize("año") != normalize("ano")
    assert normalize("an\u0303o") == "año"  # decomposed input


@given(st.text())
def test_idempotent(text):
    once = normalize(text)
    assert normalize(once) == once


@given(st.text())
def test_no_runs_of_spaces_and_no_edges(text):
    out = normalize(text)
    assert "  " not in out
    assert out == out.strip()


ACCENTED = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ü": "u", "à": "a", "ç": "c", "ô": "o"}


@given(st.text(alphabet=st.sampled_from(list("abcdeiouxyz -") + list(ACCENTED)), max_size=40))
def test_accent_insensitive(text):
    plain = "".join(ACCENTED.get(ch, ch) for ch in text)
    assert normalize(text) == normalize(plain)
    assert normalize(text.upper()) == normalize(plain)
    assert normalize(unicodedata.normalize("NFD", text)) == normalize(plain)


@given(st.text(alphabet=string.ascii_letters + string.digits + " _-.,!?'\t\n", max_size=40))
def test_ascii_text_already_spaced_is_returned_as_the_separators_rule_makes_it(text):
    """A text of letters and digits between single spaces skips the separators' pattern: the same result."""
    assert normalize(text) == _SEPARATORS.sub(" ", text.lower()).strip()
