"""Grouping texts that are typos of each other (the YAML export's stubs): linear, and as good as comparing all."""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from bot.core.normalize import normalize
from bot.core.search import typo_distance
from bot.core.typo_groups import group_typos


def _quadratic(texts: list[str]) -> list[int]:
    """The reference: every text against every group leader before it."""
    leaders: list[int] = []
    result: list[int] = []
    for index, text in enumerate(texts):
        home = next((h for h in leaders if typo_distance(text, texts[h]) is not None), None)
        result.append(index if home is None else home)
        if home is None:
            leaders.append(index)
    return result


def _one_typo(word: str, rng: random.Random) -> str:
    letters = list(word)
    i = rng.randrange(len(letters))
    match rng.randrange(4):
        case 0:
            letters[i] = rng.choice(string.ascii_lowercase)
        case 1:
            letters.insert(i, rng.choice(string.ascii_lowercase))
        case 2 if len(letters) > 1:
            del letters[i]
        case _ if i + 1 < len(letters):
            letters[i], letters[i + 1] = letters[i + 1], letters[i]
    return "".join(letters)


def test_typos_join_the_first_group_and_the_rest_stay_apart():
    texts = ["horovod", "horovd", "hrovod", "paralelismo de datos", "paralelismo de modelos", "paralelsmo de datos"]
    leaders = group_typos(texts)
    assert leaders == [0, 0, 0, 3, 4, 3]  # "modelos" is not a typo of "datos"


def test_short_texts_are_never_typos_and_repeated_letters_count_once():
    assert group_typos(["tpu", "gpu", "tpus"]) == [0, 1, 2]  # no budget for three letters
    assert group_typos(["allreduce", "alreduce", "allreduse"]) == [0, 0, 0]


def test_letters_beyond_latin_are_grouped_by_the_same_rule():
    assert group_typos(["数据并行训练", "数据并行训", "モデル並列化", "🙂🙂🙂🙂🙂"]) == [0, 0, 2, 3]


def test_empty_and_single_inputs():
    assert group_typos([]) == []
    assert group_typos(["horovod"]) == [0]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_text_one_typo_from_a_group_is_in_one_like_comparing_all(seed):
    rng = random.Random(seed)
    words = ["".join(rng.choices("abcdefgh", k=rng.randint(4, 9))) for _ in range(12)]
    texts = list(dict.fromkeys(normalize(_one_typo(rng.choice(words), rng)) for _ in range(40)))
    leaders = group_typos(texts)
    for index, leader in enumerate(leaders):
        assert leader <= index and leaders[leader] == leader
        if leader != index:
            assert typo_distance(texts[index], texts[leader]) is not None
        # no leader before the one it has (or before it, when it leads) is one edit away and a typo of it
        for h in range(min(leader, index) if leader != index else index):
            if leaders[h] == h and OSA.distance(texts[index], texts[h]) == 1:
                assert typo_distance(texts[index], texts[h]) is None


def test_on_a_thousand_texts_it_groups_like_comparing_all():
    rng = random.Random(7)
    texts: list[str] = []
    words: list[str] = []
    while len(texts) < 1000:
        if words and rng.random() < 0.3:  # a typo of a word (two typos of one word may be two edits apart)
            text = _one_typo(rng.choice(words), rng)
        else:
            text = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(6, 12)))
            words.append(text)
        if text not in texts:
            texts.append(text)
    # random words of 6–12 letters are more than two edits apart: only the made typos can join
    assert group_typos(texts) == _quadratic(texts)
