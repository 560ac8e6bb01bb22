"""Every row of the labelled query table, against the shipped glossary."""

import pytest

from bot.core.search import Ambiguous, Found, NotFound
from tests.core.lookup_table import MISS, ROWS, TRAP


def test_table_is_big_enough():
    assert len(ROWS) >= 80
    assert sum(1 for _, expected, _ in ROWS if expected == TRAP) >= 20
    kinds = {kind for _, _, kind in ROWS}
    assert {"exact", "accents", "case", "typo", "transposition", "english", "spacing", "trap"} <= kinds


@pytest.mark.parametrize(("query", "expected", "kind"), ROWS, ids=[f"{k}:{q}" for q, _, k in ROWS])
def test_row(shipped_index, query, expected, kind):
    result = shipped_index.lookup(query)
    if expected == TRAP:
        assert not isinstance(result, Found), f"{query!r} is another concept but came back as {result.term.term}"
    elif expected == MISS:
        assert isinstance(result, NotFound), f"{query!r} should find nothing, got {result}"
    else:
        assert isinstance(result, Found), f"{query!r} ({kind}) should find {expected}, got {result}"
        assert result.term.id == expected


def test_traps_that_share_words_still_suggest_the_neighbour(shipped_index):
    result = shipped_index.lookup("paralelismo de modelos")
    assert isinstance(result, Ambiguous)
    assert result.candidates[0].term.id == "paralelismo-de-datos"
