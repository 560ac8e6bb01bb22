"""Misses on a large glossary: the fast index rules keys out by the characters they share with the query before
scoring them (issue 26), and must leave out none that the plain scan finds."""

import random

import pytest
from rapidfuzz import fuzz

from bot.app.files import load_glossary
from bot.core.normalize import normalize
from bot.core.search import PLAUSIBLE, SearchIndex
from tests.synthetic import generate

ORDINARY = [
    "consulta",
    "inexistente",
    "como",
    "funciona",
    "ejemplo",
    "diferencia",
    "entre",
    "ambos",
    "produccion",
    "ñandú",
    "17",
    "2026",
]


@pytest.fixture(scope="module")
def indexes(tmp_path_factory) -> tuple[SearchIndex, SearchIndex, list[str]]:
    directory = tmp_path_factory.mktemp("synthetic")
    names = generate(directory, 2000)
    glossary = load_glossary(directory)
    return SearchIndex(glossary), SearchIndex(glossary, reference=True), names


def _mangled(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(chars))
        chars[at : at + 1] = rng.choice(([], [rng.choice("aeioñxz ")], [chars[at], chars[at]]))
    return "".join(chars) or text


def queries(names: list[str]) -> list[str]:
    rng = random.Random(26)
    out = []
    for i in range(150):
        name = rng.choice(names)
        out += [
            f"{rng.choice(ORDINARY)} {rng.choice(ORDINARY)} {i}",  # ordinary words the glossary does not have
            f"{name} {rng.choice(ORDINARY)}",  # a name with a word it does not have
            _mangled(rng, name.replace(" ", "")),  # spacing lost, and typos
            _mangled(rng, name + rng.choice(names)),
        ]
    return out


def test_misses_answer_what_the_plain_scan_answers(indexes):
    fast, reference, names = indexes
    for query in queries(names):
        assert fast.lookup(query) == reference.lookup(query), query


def test_the_character_filter_keeps_every_key_the_scan_finds(indexes):
    fast, reference, names = indexes
    found = 0
    for query in queries(names):
        norm = normalize(query)
        found += len(kept := fast._compact_candidates(norm))
        assert kept == reference._compact_candidates(norm), query
        for word in norm.split():
            if len(word) > 3:
                assert fast._scan_vocabulary(word) == reference._scan_vocabulary(word), word
    assert found > 50  # the queries do come near some keys


def test_the_filter_leaves_out_only_keys_below_the_cutoff(indexes):
    fast, _, names = indexes
    left_out = 0
    for query in [normalize(name).replace(" ", "") + "xy" for name in names[:40]]:
        keys = fast._len_keys.get(len(query) + 1)
        near = fast._could_reach(query, "keys", keys, PLAUSIBLE) if keys else None
        if near is not None:
            out = set(range(len(keys))) - set(near)
            assert all(fuzz.ratio(query, keys[i]) < PLAUSIBLE for i in out), query
            left_out += len(out)
    assert left_out > 1000  # it does rule keys out
