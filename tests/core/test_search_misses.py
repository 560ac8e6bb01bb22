"""Misses on a large glossary: the fast index rules keys out by the characters they share with the query before
scoring them (issue 26), and must leave out none that the plain scan finds."""

import random
from collections import Counter

import pytest
from rapidfuzz import fuzz

from bot.app.files import load_glossary
from bot.core.normalize import normalize
from bot.core.search import PLAUSIBLE, STOPWORDS, WORD_MATCH, Found, SearchIndex
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
            f"{rng.choice(ORDINARY)} {rng.choice(ORDINARY)} {i} zq{rng.randrange(10_000):04d}",  # and a code
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


def test_a_word_whose_letters_the_vocabulary_lacks_is_not_compared(indexes):
    """A code such as "zq4471" shares at most its two letters with any vocabulary word (none has a digit): no ratio
    can reach WORD_MATCH, and the scan answers nothing without comparing a word; a word of the vocabulary's letters
    is still compared (the bound only leaves out what could not reach)."""
    fast, reference, names = indexes
    assert not any(ch.isdigit() for ch in fast._vocab_alphabet)
    compared = []
    real = fast._could_reach
    fast._could_reach = lambda *args: compared.append(args) or real(*args)
    try:
        assert fast._scan_vocabulary("zq4471") == reference._scan_vocabulary("zq4471") == ()
        assert compared == []
        word = normalize(names[3]).split()[0] + "zz"
        assert fast._scan_vocabulary(word) == reference._scan_vocabulary(word)
        assert compared  # (compared, length by length)
    finally:
        del fast._could_reach


def test_the_filter_leaves_out_only_keys_below_the_cutoff(indexes):
    """The keys of five lengths are ruled out together, in the block that holds them: every key left out is below
    the cutoff for its own length, the shortest's or the longest's."""
    fast, _, names = indexes
    left_out = 0
    for query in [normalize(name).replace(" ", "") + "xy" for name in names[:40]]:
        low = len(query) - 2
        block = fast._key_block(low)
        near = block.letters.could_reach(query, PLAUSIBLE, low) if block and block.letters else None
        if near is not None:
            window = {i for i, length in enumerate(block.lengths) if low <= length <= low + 4}
            out = window - set(near)
            assert all(fuzz.ratio(query, block.keys[i]) < PLAUSIBLE for i in out), query
            left_out += len(out)
    assert left_out > 1000  # it does rule keys out


def test_the_candidates_are_the_keys_most_words_lead_to(indexes):
    """Up to 60 keys, most shared words first, ties in the order first met (as `Counter.most_common` picks them)."""
    fast, _, names = indexes
    over = 0
    for query in [*queries(names), *(" ".join(names[i : i + 6]) for i in range(0, 600, 6))]:
        norm = normalize(query)
        counts = Counter(
            k for word in set(norm.split()) - STOPWORDS for v in fast._similar_words(word) for k in fast._postings[v]
        )
        assert fast._word_candidates(norm) == {k for k, _ in counts.most_common(60)}, query
        over += len(counts) > 60
    assert over > 10  # the limit does cut


def test_a_misspelt_word_finds_every_word_one_edit_away(indexes):
    """The one-deletion variants are found through their hash's bucket as a plain search of the sorted hashes finds
    them (the fast and the reference index share this step: it is checked here on its own)."""
    fast, _, _ = indexes
    rng = random.Random(5)
    found = 0
    for word in rng.sample(fast._vocab, 200):
        typo = word[:2] + word[3:] + "x"
        expected = {
            fast._vocab[fast._variant_words[i]]
            for v in {typo, *(typo[:i] + typo[i + 1 :] for i in range(len(typo)))}
            for i in range(len(fast._variant_hashes))
            if fast._variant_hashes[i] == hash(v)
        }
        scored = sorted(((fuzz.ratio(typo, w), w) for w in expected), reverse=True)
        close = tuple(w for score, w in scored if score >= WORD_MATCH)[:5]
        if close:  # (else the vocabulary is scanned: test_the_character_filter_keeps_every_key_the_scan_finds)
            assert fast._similar_words_uncached(typo) == close, typo
            found += 1
    assert found > 100


def _typos(names: list[str]) -> list[str]:
    """One letter dropped, doubled or changed in a name (the typo kind of bench_e2e, and its cousins)."""
    rng = random.Random(12)
    out = []
    for name in rng.sample(names, 300):
        at = rng.randrange(1, len(name) - 1)
        out += [name[:at] + name[at + 1 :], name[:at] + name[at] + name[at:], name[:at] + "x" + name[at + 1 :]]
    return out


def test_a_warmed_index_answers_the_same_and_builds_nothing_more(indexes, tmp_path):
    """`warm` builds up front what lookups build on first use (a serving bot calls it before its first lookup): the
    answers do not change, and no lookup afterwards adds to what it built."""
    _, reference, names = indexes
    warmed = SearchIndex(reference.glossary)
    warmed.warm()
    counts = [letters for letters in warmed._letters.values() if letters is not None]
    counts += [block.letters for block in warmed._blocks.values() if block is not None and block.letters is not None]
    made = sum(len(letters.rows) for letters in counts)  # every character of every list, up front
    matrices = [letters.matrix for letters in counts]
    blocks = sum(1 for block in warmed._blocks.values() if block is not None and block.letters is not None)
    built = (len(warmed._by_length), len(warmed._letters), warmed._key_sorted is not None, warmed._variant_starts)
    assert built[0] == len(warmed._postings) and built[2] and built[3] is not None
    assert {key for block in warmed._blocks.values() if block for key in block.keys} == set(warmed._key_packed)
    assert made == sum(len(letters.codes) for letters in counts) and made > 100
    for query in [*_typos(names), *queries(names)]:
        assert warmed.lookup(query) == reference.lookup(query), query
    assert (len(warmed._by_length), len(warmed._letters), True, warmed._variant_starts) == built
    assert sum(1 for b in warmed._blocks.values() if b is not None and b.letters is not None) == blocks
    kept = zip(counts, matrices, strict=True)
    assert all(letters.matrix is matrix and not letters.capped for letters, matrix in kept)
    cold = SearchIndex(reference.glossary)  # the same keys by length, when made one word at a time
    assert all(cold._keys_by_length(word) == warmed._by_length[word] for word in list(cold._postings)[:500])


def test_typos_answer_what_the_plain_definition_answers(indexes):
    fast, reference, names = indexes
    confident = 0
    for query in _typos(names):
        answer = fast.lookup(query)
        assert answer == reference.lookup(query), query
        confident += isinstance(answer, Found)
    assert confident > 600  # most are answered with confidence, through the keys within typo distance


def test_a_query_that_normalises_longer_still_finds_a_key_of_over_255_letters(tmp_path):
    """ "ﬀ" normalises to "ff": 150 of them are a 300-letter query, one letter from a 301-letter alias. Its length
    is past what a word's keys by length hold (a byte), so those keys are all read, as the plain definition does."""
    (tmp_path / "glossary.yaml").write_text("title: Largo\nsubtitle: Prueba\nlanguage: es\n")
    alias = "f" * 300 + "x"
    (tmp_path / "terms.yaml").write_text(
        f"category: Prueba\nterms:\n  - term: Largo\n    definition: Un término con un alias muy largo.\n"
        f"    aliases: [{alias}]\n"
    )
    glossary = load_glossary(tmp_path)
    warmed, reference = SearchIndex(glossary), SearchIndex(glossary, reference=True)
    warmed.warm()
    for query in ("\ufb00" * 150, "\ufb00" * 150 + "xy"):
        assert warmed.lookup(query) == reference.lookup(query), query
        assert isinstance(reference.lookup(query), Found), query
