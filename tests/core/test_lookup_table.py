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


def test_every_swap_of_two_letters_in_a_long_name_is_at_least_suggested(shipped_index, shipped_glossary):
    from bot.core.normalize import normalize
    from bot.core.search import Ambiguous, NotFound

    for term in shipped_glossary:
        for key in (normalize(k) for k in term.spellings()):
            if len(key) < 10:
                continue
            for i in range(len(key) - 1):
                query = key[:i] + key[i + 1] + key[i] + key[i + 2 :]
                result = shipped_index.lookup(query)
                offered = (
                    [result.term.id]
                    if isinstance(result, Found)
                    else [c.term.id for c in result.candidates]
                    if isinstance(result, Ambiguous)
                    else [result.best_guess.term.id]
                    if isinstance(result, NotFound) and result.best_guess
                    else []
                )
                assert term.id in offered, (query, result)


def test_traps_that_share_words_still_suggest_the_neighbour(shipped_index):
    result = shipped_index.lookup("paralelismo de modelos")
    assert isinstance(result, Ambiguous)
    assert result.candidates[0].term.id == "paralelismo-de-datos"
