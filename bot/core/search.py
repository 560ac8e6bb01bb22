"""SearchIndex: exact and typo-tolerant lookup, autocomplete and full-text search over a Glossary."""

from __future__ import annotations

import bisect
import functools
import re
from array import array
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate, chain, filterfalse, islice

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA, LCSseq

from bot.core.letter_counts import LetterCounts
from bot.core.model import Glossary, Term
from bot.core.normalize import compact, normalize, sorted_compact
from bot.core.similarity import MARGIN, SET_WEIGHT, length_bound, quick_similarity, similarity

# Thresholds, tuned on tests/core/lookup_table.py (every row asserted), not guessed.
PLAUSIBLE = 72  # score from which a key is offered as a suggestion
WORD_MATCH = 75  # ratio from which a query word is taken as a typo of a vocabulary word
MAX_TYPOS = 2  # edits forgiven in the whole query
MAX_SUGGESTIONS = 5
MAX_CHOICES = 25  # Discord's limit for autocomplete
MAX_QUERY = 200  # characters of a query that are read
_MAX_CANDIDATES = 60

# Words that carry no meaning on their own; they never select candidates.
STOPWORDS = frozenset(
    [
        "a",
        "al",
        "an",
        "and",
        "de",
        "del",
        "el",
        "en",
        "for",
        "in",
        "la",
        "las",
        "lo",
        "los",
        "of",
        "on",
        "para",
        "por",
        "que",
        "the",
        "to",
        "un",
        "una",
        "y",
    ]
)
# Question forms people wrap around a term: "¿qué es horovod?", "what is ray".
_LEADING_PHRASES = (
    "que es un ",
    "que es una ",
    "que es el ",
    "que es la ",
    "que es ",
    "que son los ",
    "que son las ",
    "que son ",
    "what is an ",
    "what is a ",
    "what is the ",
    "what is ",
    "what are ",
    "whats ",
    "define ",
    "definicion de ",
)
# The same phrases as one pattern, tried in the same order (each ends in a space, and a normalised text never
# does: whatever one matches leaves something after it).
_LEADING = re.compile("|".join(re.escape(phrase) for phrase in _LEADING_PHRASES))
_LEADING_INITIALS = frozenset(phrase[0] for phrase in _LEADING_PHRASES)
_FEW_KEYS = 6  # up to this many keys are scored one by one (a batched call has a fixed cost of its own)
_SIFT_MARGIN = 0.01  # sifting stops short of PLAUSIBLE: no rounding of one scorer against another loses a key


@dataclass(frozen=True, slots=True)
class Suggestion:
    term: Term
    score: float


@dataclass(frozen=True, slots=True)
class Found:
    term: Term
    score: float = 100.0
    exact: bool = True
    avoided: str = ""  # the form to avoid (a deprecated form) the query named: answered with the preferred term


@dataclass(frozen=True, slots=True)
class Ambiguous:
    candidates: tuple[Suggestion, ...]


@dataclass(frozen=True, slots=True)
class NotFound:
    best_guess: Suggestion | None = None


LookupResult = Found | Ambiguous | NotFound


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    label: str


@dataclass(frozen=True, slots=True)
class KeyBlock:
    """The compact keys of a few neighbouring lengths, in order of length (each length's in its own order), with
    their character counts (None where they cannot be counted: `LetterCounts.of`)."""

    letters: LetterCounts | None
    keys: list[str]
    ids: list[int]  # each key's place among all keys
    lengths: bytes  # each key's length (255 for 255 or more)


@dataclass(frozen=True, slots=True)
class SearchHit:
    term: Term
    score: float


def strip_question(normalized: str) -> str:
    """Remove a leading "qué es" / "what is" and similar, when something is left."""
    if normalized[:1] not in _LEADING_INITIALS:  # (most queries: no pattern to try)
        return normalized
    found = _LEADING.match(normalized)
    return normalized[found.end() :] if found and found.end() < len(normalized) else normalized


def content_words(normalized: str) -> str | None:
    """The words that carry meaning, without function words ("de", "la"…), when that leaves out something and
    keeps at least two words; else None (one word alone is too loose to stand for a name)."""
    words = normalized.split()
    if STOPWORDS.isdisjoint(words):  # (most queries: nothing to leave out)
        return None
    kept = [w for w in words if w not in STOPWORDS]
    return " ".join(kept) if len(kept) >= 2 and len(kept) < len(words) else None


def _word_budget(length: int) -> int:
    """Edits forgiven in one word of this length: none for ≤ 3 letters, 1 up to 5, then 2."""
    return 0 if length <= 3 else 1 if length <= 5 else 2


def typo_distance(query: str, key: str) -> int | None:
    """Edits (with transpositions) between two normalised texts, or None when they are not typos of each other.

    Words are compared one to one, each within its own budget, so "paralelismo de modelos" is never a
    typo of "paralelismo de datos". Where the spacing differs, the compact forms are compared instead.
    """
    query_words, key_words = query.split(), key.split()
    if len(query_words) == len(key_words):
        total = 0
        for q, k in zip(query_words, key_words, strict=True):
            if q != k:
                edits = OSA.distance(q, k, score_cutoff=MAX_TYPOS + 1)
                if edits > _word_budget(min(len(q), len(k))):
                    return None
                total += edits
        return total if total <= MAX_TYPOS else None
    q, k = compact(query), compact(key)
    if abs(len(q) - len(k)) > 1:  # a missing or extra word is another concept, not a typo
        return None
    edits = OSA.distance(q, k, score_cutoff=MAX_TYPOS + 1)
    return edits if edits <= min(MAX_TYPOS, _word_budget(len(k))) else None


class SearchIndex:
    """Built once from a Glossary; every method answers from memory."""

    def __init__(self, glossary: Glossary, *, reference: bool = False):
        """`reference=True` builds the slow, plain definition of the same answers: every candidate key scored one
        by one with `similarity` and `typo_distance`, no batching, no shortcut before scoring, the whole
        vocabulary scanned. The tests hold the fast index to it; nothing else should use it."""
        self.reference = reference
        self._build(glossary)

    def _build(self, glossary: Glossary) -> None:
        self.glossary = glossary
        self._terms: list[Term] = list(glossary.terms)
        self._exact: dict[str, int] = {}
        self._key_norm: list[str] = []
        self._key_packed: list[str] = []  # the same keys in compact form
        self._key_term: list[int] = []
        postings: dict[str, list[int]] = {}
        start_forms, start_terms, inner_forms, inner_terms = [], [], [], []  # (form, term) pairs, sorted below
        exact = self._exact
        ambiguous_sorted: set[str] = set()
        first_key: list[int] = []
        for t_idx, term in enumerate(self._terms):
            first_key.append(len(self._key_norm))
            for key in dict.fromkeys(normalize(k) for k in term.spellings()):
                k_idx = len(self._key_norm)
                packed = key.replace(" ", "")
                self._key_norm.append(key)
                self._key_packed.append(packed)
                self._key_term.append(t_idx)
                exact.setdefault(key, t_idx)
                start_forms.append(key)
                start_terms.append(t_idx)
                if packed == key:  # one word: no inner words, no other order
                    if key not in STOPWORDS:
                        postings.setdefault(key, []).append(k_idx)
                    continue
                exact.setdefault(packed, t_idx)
                start_forms.append(packed)
                start_terms.append(t_idx)
                key_words = key.split()
                for pos, word in enumerate(key_words):
                    if word not in STOPWORDS:
                        postings.setdefault(word, []).append(k_idx)
                    if pos:
                        inner_forms.append(" ".join(key_words[pos:]))
                        inner_terms.append(t_idx)
                form = "".join(sorted(key_words))
                if exact.setdefault(form, t_idx) != t_idx:
                    ambiguous_sorted.add(form)
        self._finish_exact(ambiguous_sorted)
        self._avoided = _avoided_forms(self._terms, exact)
        self._postings = {w: sorted(set(ids)) for w, ids in postings.items()}
        self._derive()
        self._starts = _sorted_pairs(start_forms, start_terms)
        self._inner = _sorted_pairs(inner_forms, inner_terms)
        self._alphabetical = sorted(range(len(self._terms)), key=lambda i: self._key_norm[first_key[i]])
        self._text: _TextIndex | None = None
        self._add_caches()

    def _finish_exact(self, ambiguous_sorted: set[str]) -> None:
        exact = self._exact
        for form in ambiguous_sorted:  # two terms with the same words in another order: no shortcut
            del exact[form]
        # The same name without its function words ("servidor parametros" for "Servidor de Parámetros"): after
        # every real key, so that it never takes another term's own name, and only where it names one term.
        content_forms: dict[str, set[int]] = {}
        for key, t_idx in zip(self._key_norm, self._key_term, strict=True):
            content = content_words(key)
            if content is not None:
                for form in (content, compact(content)):
                    content_forms.setdefault(form, set()).add(t_idx)
        for form, owners in content_forms.items():
            if len(owners) == 1 and form not in exact:
                exact[form] = next(iter(owners))

    def _derive(self) -> None:
        """The parts that follow quickly from the keys and the postings (on a build, and on a load from cache)."""
        self._len_keys: dict[int, list[str]] = {}
        self._len_ids: dict[int, list[int]] = {}
        for k_idx, packed in enumerate(self._key_packed):
            self._len_keys.setdefault(len(packed), []).append(packed)
            self._len_ids.setdefault(len(packed), []).append(k_idx)
        self._vocab = sorted(self._postings)
        self._vocab_by_len: dict[int, list[str]] = {}  # each in alphabetical order, like _vocab
        for word in self._vocab:
            self._vocab_by_len.setdefault(len(word), []).append(word)
        self._vocab_alphabet = frozenset("".join(self._vocab))  # every character of a vocabulary word
        # One-deletion neighbourhood of every vocabulary word: a misspelt word finds the words one edit away
        # (a letter missing, extra, changed or swapped) by looking its own variants up instead of a scan. Kept as
        # two flat arrays (the variants' hashes, sorted, and their words' places in the vocabulary): a fraction
        # of the memory of a dict of strings (a server's small index is mostly this). A hash shared by chance
        # only adds a candidate, which is scored like any other.
        hashes: list[int] = []
        owners: list[int] = []
        for w_idx, word in enumerate(self._vocab):
            if len(word) > 3:
                for variant in {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}:
                    hashes.append(hash(variant))
                    owners.append(w_idx)
        order = sorted(range(len(hashes)), key=hashes.__getitem__)
        self._variant_hashes = array("q", [hashes[i] for i in order])
        self._variant_words = array("L", [owners[i] for i in order])

    def _add_caches(self) -> None:
        # People ask the same things again and again: identical queries and words are answered from memory.
        self._lookup_cached = functools.lru_cache(maxsize=4096)(self._lookup)
        self._similar_words = functools.lru_cache(maxsize=16384)(self._similar_words_uncached)
        self._letters: dict[tuple[str, int], LetterCounts | None] = {}  # built on first use, per list and length
        self._blocks: dict[int, KeyBlock | None] = {}  # compact keys by blocks of lengths (`_key_block`)
        self._variant_starts: tuple[array, int, int] | None = None  # built on first use (`_bucket_starts`)
        self._key_sorted: list[str] | None = None  # built on first use (`_sorted_forms`), with `_repeats`
        self._repeats: frozenset[int] = frozenset()
        # word → its keys ordered by compact length, with those lengths (a byte each): built on first use per word
        self._by_length: dict[str, tuple[bytes, list[int]]] = {}

    def warm(self) -> None:
        """Build now what lookups otherwise build the first time they need it (the keys' sorted forms, the buckets
        of the misspelling table, each word's keys by length, each length's character counts): a serving bot calls
        it once, off the event loop, before its first lookup, so that no member waits for it (at 100,000 terms a
        first lookup paid up to 0.2 s for the sorted forms alone) and every lookup costs what the next one costs."""
        if self.reference:
            return
        self._sorted_forms()
        if self._variant_starts is None:
            self._variant_starts = _bucket_starts(self._variant_hashes)
        lengths = [min(len(packed), 255) for packed in self._key_packed]
        for word in self._postings:
            self._keys_by_length(word, lengths)
        for texts in self._vocab_by_len.values():
            letters = self._letters_for("vocabulary", texts)
            if letters is not None:
                letters.warm()
        for length in self._len_keys:
            block = self._key_block(length)
            if block is not None and block.letters is not None:
                block.letters.warm()

    # What a built index is made of, as plain data for a cache file (see `to_data`): only what takes time to
    # compute. The rest is derived again on load in a fraction of a second, sharing its strings with these.
    _DATA = ("_exact", "_key_norm", "_key_term", "_postings", "_alphabetical", "_starts", "_inner")

    def to_data(self) -> dict:
        """The built index as plain data (lists and dicts of str and int: nothing in it can run code when read
        back); `from_data` undoes it."""
        return {name: getattr(self, name) for name in self._DATA}

    @classmethod
    def from_data(cls, glossary: Glossary, data: dict) -> SearchIndex:
        """The index `to_data` described, over this glossary, without building it again."""
        index = cls.__new__(cls)
        index.reference = False
        index.glossary = glossary
        index._terms = list(glossary.terms)
        key_norm, key_term = data["_key_norm"], data["_key_term"]
        if len(key_norm) != len(key_term) or (key_term and max(key_term) >= len(index._terms)):
            raise ValueError("the index data does not match the glossary")
        index._key_norm, index._key_term = key_norm, key_term
        index._key_packed = [key.replace(" ", "") for key in key_norm]
        # The sorted forms are the keys again: one object per text, as a fresh build has.
        canon = dict(zip(key_norm, key_norm, strict=True))
        canon.update(zip(index._key_packed, index._key_packed, strict=True))
        index._exact = data["_exact"]
        index._avoided = _avoided_forms(index._terms, index._exact)
        index._starts = ([canon.get(f, f) for f in data["_starts"][0]], data["_starts"][1])
        index._inner = tuple(data["_inner"])
        index._postings = data["_postings"]
        index._alphabetical = data["_alphabetical"]
        index._derive()
        index._text = None
        index._add_caches()
        return index

    def prepare_text_search(self) -> None:
        """Build the full-text index now (it is otherwise built by the first `search`)."""
        if self._text is None:
            self._text = _TextIndex(self._terms)

    # -- lookup -----------------------------------------------------------------------------------
    def exact(self, text: str) -> Term | None:
        """The term `text` names exactly (as a lookup would answer it with certainty), without any fuzzy search."""
        norm = strip_question(normalize(text[:MAX_QUERY]))
        if not norm:
            return None
        t_idx = self._exact_match(norm)
        return None if t_idx is None else self._terms[t_idx]

    def _exact_match(self, norm: str, packed: str | None = None) -> int | None:
        """The term a normalised query names exactly: as it is, in compact form (`packed`, when already made), its
        words in another order, or its content words (the first of these that names one)."""
        exact = self._exact
        t_idx = exact.get(norm)
        if t_idx is None and " " in norm:  # (one word is its own compact and sorted form, and has no content words)
            t_idx = exact.get(packed or compact(norm))
            if t_idx is None:
                t_idx = exact.get(sorted_compact(norm))
            if t_idx is None and (content := content_words(norm)) is not None:
                t_idx = exact.get(content)
        return t_idx

    def lookup(self, query: str) -> LookupResult:
        """Resolve what a user typed to one term, a few suggestions, or nothing."""
        return self._lookup_cached(query[:MAX_QUERY])

    def _lookup(self, query: str) -> LookupResult:
        norm = strip_question(normalize(query[:MAX_QUERY]))
        if not norm:
            return NotFound()
        packed = compact(norm)
        t_idx = self._exact_match(norm, packed)
        if t_idx is not None:
            return Found(self._terms[t_idx])
        avoided = self._avoided.get(norm) or self._avoided.get(packed)
        if avoided is not None:
            return Found(self._terms[avoided[0]], avoided=avoided[1])
        if len(packed) <= 3:
            return NotFound()
        # Words first (cheap, and what typos hit). Candidates found through words are also compared in compact
        # form, so the scan over compact keys is only for queries none of whose words led anywhere plausible.
        words = self._candidate_words(norm)
        candidates = self._candidates_of(words)
        word_keys = list(candidates)
        if self.reference:
            distances = self._distances(norm, word_keys)
            found = self._confident(self._rank(norm, word_keys))
        else:  # most typos end here, before scoring similarity
            # (fewer candidates than the limit: every key holding one of the words is one)
            near = self._near(norm, word_keys, words if len(candidates) < _MAX_CANDIDATES else None)
            found = self._confident_typo(norm, near, candidates)
            distances = list(map(near.get, word_keys))
        if found is not None:
            return found
        if not self.reference and any(word in self._postings for word in norm.split()):
            ranked = self._rank_shown(norm, word_keys, distances)
        else:  # (no word of the query is the glossary's: its candidates rarely reach PLAUSIBLE, and sifting them
            # first would only add to scoring them all)
            ranked = self._rank(norm, word_keys, distances=distances)
        if all(score < PLAUSIBLE for score, _ in ranked.values()):
            ranked = self._rank(norm, self._compact_candidates(norm), ranked)
            found = self._confident(ranked)
        if found is not None:
            return found
        if not ranked:
            return NotFound()
        by_score = sorted(ranked.items(), key=lambda item: (item[1][1] is None, -item[1][0], item[0]))
        plausible = [
            Suggestion(self._terms[t], round(s, 1)) for t, (s, d) in by_score if s >= PLAUSIBLE or d is not None
        ]
        if plausible:
            return Ambiguous(tuple(plausible[:MAX_SUGGESTIONS]))
        t, (s, _) = by_score[0]
        return NotFound(Suggestion(self._terms[t], round(s, 1)) if s >= 50 else None)

    def _confident(self, ranked: dict[int, tuple[float, int | None]]) -> Found | None:
        """The one term within typo distance, strictly closer than any other; else None."""
        t_idx = _closest({t: d for t, (_, d) in ranked.items() if d is not None})
        return None if t_idx is None else Found(self._terms[t_idx], score=ranked[t_idx][0], exact=False)

    def _confident_typo(self, norm: str, near: dict[int, int], candidates: set[int]) -> Found | None:
        """What `_confident(self._rank(norm, candidates))` answers, given the typo distances of the candidate keys
        within reach (`_near`), scoring similarity only for the term found."""
        if not near:
            return None
        key_term = self._key_term
        best: dict[int, int] = {}  # term → smallest typo distance among its keys
        for k, distance in near.items():
            t_idx = key_term[k]
            best[t_idx] = min(distance, best.get(t_idx, distance))
        t_idx = _closest(best)
        if t_idx is None:
            return None
        # The term's keys are consecutive: its candidates are found among them rather than among all candidates.
        first, end = bisect.bisect_left(key_term, t_idx), bisect.bisect_right(key_term, t_idx)
        return Found(self._terms[t_idx], score=self._best_similarity(norm, first, end, near, candidates), exact=False)

    def _best_similarity(self, norm: str, first: int, end: int, near: dict[int, int], candidates: set[int]) -> float:
        """The highest `similarity` of the query with the candidate keys of one term (keys `first` to `end`), its
        keys within typo distance scored first: a key whose lengths bound every scorer below the best so far
        cannot raise it and is not scored (`similarity` is at most the larger of the two length bounds of
        `fuzz.ratio`, on compact and on whole forms, and SET_WEIGHT · 100)."""
        key_norm, key_packed = self._key_norm, self._key_packed
        packed = compact(norm)
        close = [k for k in near if first <= k < end]
        best = max(quick_similarity(norm, packed, key_norm[k], key_packed[k]) for k in close)
        for k in range(first, end):
            if k in candidates and k not in near:
                key, packed_key = key_norm[k], key_packed[k]
                bound = max(
                    length_bound(len(packed), len(packed_key)), length_bound(len(norm), len(key)), SET_WEIGHT * 100
                )
                if bound + MARGIN > best:
                    best = max(best, quick_similarity(norm, packed, key, packed_key))
        return best

    def _rank_shown(
        self, norm: str, key_ids: list[int], distances: list[int | None]
    ) -> dict[int, tuple[float, int | None]]:
        """What the answer needs of `_rank(norm, key_ids)`: every term within typo distance, and every term that
        reaches PLAUSIBLE, as `_rank` scores them; when no term reaches PLAUSIBLE, the answer depends on every
        score, and all are scored.

        `similarity` is max(ratio, token sort, SET_WEIGHT · token set), and each of the three is found here only
        for the keys where it reaches PLAUSIBLE (less a margin): the compact ratio and token sort in two batched
        `fuzz.ratio` calls (token sort is the ratio of the sorted forms, kept in the index), token set by
        `_set_reaching`. A key where none does cannot be offered, nor raise an offered term's score: it is left
        unscored. For the others, the highest of the scorers that reach is the similarity."""
        key_term = self._key_term
        close = {key_term[k] for k, d in zip(key_ids, distances, strict=True) if d is not None}
        key_packed, key_sorted = self._key_packed, self._sorted_forms()
        packed_query, cutoff = compact(norm), PLAUSIBLE - _SIFT_MARGIN
        query_words = norm.split()
        found: list[dict[int, float]] = []
        for query, choices in (
            (packed_query, [key_packed[k] for k in key_ids]),
            (" ".join(sorted(query_words)), [key_sorted[k] for k in key_ids]),
        ):
            hits = process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
            found.append({i: score for _, score, i in hits})
        sets = self._set_reaching(norm, query_words, key_ids, cutoff / SET_WEIGHT)
        found.append({i: SET_WEIGHT * score for i, score in sets.items()})
        chosen = set().union(*found)
        if close:  # every key of a term within typo distance: it is shown whatever its score
            chosen.update(i for i, k in enumerate(key_ids) if key_term[k] in close)
        order = sorted(chosen)
        scores: list[float] = []
        ratios, sorts, weighted = found
        for i in order:
            score = max(ratios.get(i, 0.0), sorts.get(i, 0.0), weighted.get(i, 0.0))
            if score == 0.0:  # (a key of a close term where no scorer reaches the cutoff)
                k = key_ids[i]
                score = quick_similarity(norm, packed_query, self._key_norm[k], key_packed[k])
            scores.append(score)
        ranked = self._merge({}, [key_ids[i] for i in order], scores, [distances[i] for i in order])
        if len(order) < len(key_ids) and all(score < PLAUSIBLE for score, _ in ranked.values()):
            left = [i for i in range(len(key_ids)) if i not in chosen]
            ids = [key_ids[i] for i in left]
            ranked = self._merge(ranked, ids, self._similarities(norm, ids), [distances[i] for i in left])
        return ranked

    def _set_reaching(self, norm: str, query_words: list[str], key_ids: list[int], cutoff: float) -> dict[int, float]:
        """`fuzz.token_set_ratio(norm, key)` of the candidate keys (by place) where it reaches `cutoff`, but for keys
        that share no word with the query: there token set is the token sort of the words without repeats, the token
        sort itself (to rounding), so SET_WEIGHT · token set stays below the token sort `_rank_shown` has from the
        sorted forms (a key whose words repeat is scored here).

        rapidfuzz splits every key into words for token set; here the words each key shares with the query are read
        from the postings, by sets, and bounds rule out most keys without a call (tests/core/test_search_shortcuts.py
        holds them to rapidfuzz). With I the shared words and s, a, b the lengths of I, of the query's other words
        and of the key's other words (each joined by spaces), token set is 100 when I is not empty and a or b is;
        else the best of 200s/(2s+1+a), 200s/(2s+1+b) and ratio(I+A, I+B) = 200(s+1+LCS(A, B))/(2s+2+a+b), where
        LCS(A, B) is at most min(a, b) and at most LCS(A, the key's sorted form), of which B is a part."""
        key_norm = self._key_norm
        self._sorted_forms()  # (made with them: self._repeats, read below)
        query_set = set(query_words)
        if len(query_set) < len(query_words) or not query_set.isdisjoint(STOPWORDS):
            # Repeated words, or function words (not in the postings): rapidfuzz on every key.
            keys = [key_norm[k] for k in key_ids]
            hits = process.extract(norm, keys, scorer=fuzz.token_set_ratio, score_cutoff=cutoff, limit=None)
            return {i: score for _, score, i in hits}
        candidates = set(key_ids)
        repeats = self._repeats
        exact = list(repeats.intersection(candidates)) if repeats else []  # keys, made places at the end
        found: dict[int, float] = {}
        groups = self._by_shared_words(query_set, candidates)
        for words, members in groups:
            self._bound_group(norm, query_set, words, members, cutoff, found, exact)
        for k in exact:
            score = fuzz.token_set_ratio(norm, key_norm[k], score_cutoff=cutoff)
            if score >= cutoff:
                found[k] = score
        return {key_ids.index(k): score for k, score in found.items()}  # (a few)

    def _by_shared_words(self, query_set: set[str], candidates: set[int]) -> list[tuple[list[str], set[int]]]:
        """The candidate keys by the query words they hold: a partition refined word by word, with set operations."""
        groups: list[tuple[list[str], set[int]]] = []
        postings = self._postings
        for word in query_set:
            if word not in postings:
                continue
            holders = candidates.intersection(postings[word])
            if not holders:
                continue
            refined = []
            for words, members in groups:
                both = members & holders
                if both:
                    members -= both
                    holders -= both
                    refined.append(([*words, word], both))
            if refined:
                groups = [group for group in groups if group[1]] + refined
            if holders:
                groups.append(([word], holders))
        return groups

    def _bound_group(
        self,
        norm: str,
        query_set: set[str],
        words: list[str],
        members: set[int],
        cutoff: float,
        found: dict[int, float],
        exact: list[int],
    ) -> None:
        """The keys sharing exactly `words` with the query: 100 into `found` where token set is 100, into `exact`
        those the bounds of `_set_reaching` cannot rule out (rapidfuzz scores them), the rest left out."""
        key_norm, repeats = self._key_norm, self._repeats
        query_length, bound = len(norm), cutoff - MARGIN
        if len(words) == len(query_set):  # every query word is the key's
            found.update(dict.fromkeys(members, 100.0))
            return
        low, high = query_length * bound / (200 - bound), query_length * (200 - bound) / bound
        s = sum(map(len, words)) + len(words) - 1
        every = 200 * s / (s + query_length) >= bound  # 200s/(2s+1+a) reaches, whatever the key
        small = s * (200 - bound) / bound  # keys up to this long: 200s/(2s+1+b) reaches
        window: list[int] = []  # (and the shortest length in it, below)
        shortest = high
        for k in members:
            if k in repeats:
                continue
            length = len(key_norm[k])
            if length == s:
                found[k] = 100.0  # (the key's words are all the query's)
            elif every or length <= small:
                exact.append(k)
            elif low <= length <= high:
                window.append(k)
                shortest = min(shortest, length)
        if window:
            rest = " ".join(sorted(query_set.difference(words)))
            a, key_sorted = len(rest), self._sorted_forms()
            # The bound below needs an LCS of bound · (query_length + length) / 200 − s − 1, least for the shortest
            # key: rapidfuzz leaves out keys under its floor, and other query words shorter than it rule out all.
            least = bound * (query_length + shortest) / 200 - s - 1
            if least > a:
                return
            choices = [key_sorted[k] for k in window]
            common = process.extract(
                rest, choices, scorer=LCSseq.similarity, score_cutoff=max(int(least), 0), limit=None
            )
            for _, lcs, j in common:
                length = len(key_norm[window[j]])
                if 200 * (s + 1 + min(lcs, a, length - s - 1)) / (query_length + length) >= bound:
                    exact.append(window[j])

    def _sorted_forms(self) -> list[str]:
        """Each key's words sorted and joined by spaces (`fuzz.token_sort_ratio` is `fuzz.ratio` of these), built
        the first time a query needs them, with the keys whose words repeat."""
        if self._key_sorted is None:
            forms: list[str] = []
            repeats: set[int] = set()
            for k_idx, key in enumerate(self._key_norm):
                if " " in key:
                    words = key.split()
                    form = " ".join(sorted(words))
                    if form != key:  # (else the key's own string: no memory for keys already in order)
                        key = form
                    if len(set(words)) < len(words):
                        repeats.add(k_idx)
                forms.append(key)
            self._key_sorted, self._repeats = forms, frozenset(repeats)
        return self._key_sorted

    def _rank(
        self,
        norm: str,
        key_ids: set[int] | list[int],
        ranked: dict[int, tuple[float, int | None]] | None = None,
        distances: list[int | None] | None = None,
    ) -> dict[int, tuple[float, int | None]]:
        """Candidate terms → (best similarity, best typo distance or None), merged into `ranked`.
        `distances`, when already known, are the keys' typo distances in the order of `key_ids`."""
        ids = list(key_ids)
        if distances is None:
            distances = self._distances(norm, ids)
        return self._merge({} if ranked is None else ranked, ids, self._similarities(norm, ids), distances)

    def _merge(
        self,
        ranked: dict[int, tuple[float, int | None]],
        key_ids: list[int],
        scores: list[float],
        distances: list[int | None],
    ) -> dict[int, tuple[float, int | None]]:
        """The keys' scores and distances merged into `ranked`, per term: the best score, the smallest distance."""
        for k_idx, score, distance in zip(key_ids, scores, distances, strict=True):
            t_idx = self._key_term[k_idx]
            old = ranked.get(t_idx)
            if old is not None:
                score = max(score, old[0])
                if old[1] is not None and (distance is None or old[1] < distance):
                    distance = old[1]
            ranked[t_idx] = (score, distance)
        return ranked

    def _similarities(self, norm: str, key_ids: list[int]) -> list[float]:
        """`similarity(norm, key)` of each key, in three batched rapidfuzz calls instead of three per key."""
        keys = [self._key_norm[k] for k in key_ids]
        if self.reference:
            return [similarity(norm, key) for key in keys]
        if len(keys) <= _FEW_KEYS:  # (a typo's own keys; the few a name with extra words can be offered)
            packed = compact(norm)
            return [quick_similarity(norm, packed, self._key_norm[k], self._key_packed[k]) for k in key_ids]
        scores = [0.0] * len(keys)
        for query, choices, scorer, weight in (
            (compact(norm), [self._key_packed[k] for k in key_ids], fuzz.ratio, 1.0),
            (norm, keys, fuzz.token_sort_ratio, 1.0),
            (norm, keys, fuzz.token_set_ratio, SET_WEIGHT),
        ):
            for _, score, i in process.extract(query, choices, scorer=scorer, limit=None):
                if weight * score > scores[i]:
                    scores[i] = weight * score
        return scores

    def _distances(self, norm: str, key_ids: list[int]) -> list[int | None]:
        """`typo_distance(norm, key)` of each key."""
        if self.reference:
            return [typo_distance(norm, self._key_norm[k]) for k in key_ids]
        return list(map(self._near(norm, key_ids).get, key_ids))

    def _near(self, norm: str, key_ids: list[int], words: list[str] | None = None) -> dict[int, int]:
        """The keys within typo distance of the query among `key_ids` → `typo_distance(norm, key)`. The compact
        forms' distance never exceeds the words' summed distance, nor falls below the difference of their lengths:
        only keys whose compact length is within MAX_TYPOS of the query's are compared, in one batched call over
        the compact forms. With `words` (vocabulary words, when `key_ids` are every key holding one of them), those
        keys are read from each word's keys ordered by length instead of from all of `key_ids`."""
        key_packed, key_norm = self._key_packed, self._key_norm
        packed_query = compact(norm)
        low, high = len(packed_query) - MAX_TYPOS, len(packed_query) + MAX_TYPOS
        if words is None or high >= 255:  # (a key's length by word is kept up to 255: past it, every key is read)
            within = [k for k in key_ids if low <= len(key_packed[k]) <= high]
        else:
            reached: set[int] = set()
            for word in words:
                lengths, keys = self._keys_by_length(word)
                reached.update(keys[bisect.bisect_left(lengths, low) : bisect.bisect_right(lengths, high)])
            within = list(reached)
        found: dict[int, int] = {}
        if not within:
            return found
        packed = [key_packed[k] for k in within]
        near = process.extract(packed_query, packed, scorer=OSA.distance, score_cutoff=MAX_TYPOS, limit=None)
        for _, _, j in near:
            distance = typo_distance(norm, key_norm[within[j]])
            if distance is not None:
                found[within[j]] = distance
        return found

    def _compact_candidates(self, norm: str) -> set[int]:
        """Keys near the query in compact form (length ± 2): spacing variants with typos. The keys of the five
        lengths are ruled out together by their characters (one block holds them all, `_key_block`), and the few
        left are scored length by length, as a scan of each length's keys would find them."""
        packed = compact(norm)
        found: set[int] = set()
        low, high = max(1, len(packed) - 2), len(packed) + 2
        block = None if self.reference else self._key_block(low)
        near = None if block is None or block.letters is None else block.letters.could_reach(packed, PLAUSIBLE, low)
        if near is not None:
            by_length: dict[int, list[int]] = {}  # (places in the block, in its order: each length's own order)
            for i in near:
                if low <= block.lengths[i] <= high:
                    by_length.setdefault(block.lengths[i], []).append(i)
            for places in by_length.values():
                keys = [block.keys[i] for i in places]
                hits = process.extract(packed, keys, scorer=fuzz.ratio, score_cutoff=PLAUSIBLE, limit=10)
                found.update(block.ids[places[j]] for _, _, j in hits)
            return found
        for length in range(low, high + 1):  # (the reference index, or too many keys left to be worth listing)
            keys = self._len_keys.get(length)
            if keys:
                hits = process.extract(packed, keys, scorer=fuzz.ratio, score_cutoff=PLAUSIBLE, limit=10)
                found.update(self._len_ids[length][i] for _, _, i in hits)
        return found

    def _key_block(self, low: int) -> KeyBlock | None:
        """The block of compact keys whose lengths hold `low` to `low + 4`: block k holds lengths 3k to 3k + 6, so
        every such window lies in one block (each length is in two or three blocks); None when no key is there."""
        k = low // 3
        if k not in self._blocks:
            lengths = [length for length in range(3 * k, 3 * k + 7) if length in self._len_keys]
            keys = [key for length in lengths for key in self._len_keys[length]]
            ids = [k_idx for length in lengths for k_idx in self._len_ids[length]]
            self._blocks[k] = (
                KeyBlock(LetterCounts.of(keys), keys, ids, bytes(min(len(key), 255) for key in keys)) if keys else None
            )
        return self._blocks[k]

    def _could_reach(self, query: str, kind: str, texts: list[str], cutoff: float) -> list[int] | None:
        """The places of the texts (all of one length) whose `fuzz.ratio` with `query` can reach `cutoff`, by the
        characters they share; None for all of them (the reference index, texts over 255 characters, or too many
        texts left to be worth listing)."""
        if self.reference:
            return None
        letters = self._letters_for(kind, texts)
        return None if letters is None else letters.could_reach(query, cutoff)

    def _letters_for(self, kind: str, texts: list[str]) -> LetterCounts | None:
        """The character counts of one list of texts of one length (made on first use, or by `warm`)."""
        place = (kind, len(texts[0]))
        if place not in self._letters:
            self._letters[place] = LetterCounts.of(texts)
        return self._letters[place]

    def _keys_by_length(self, word: str, lengths: list[int] | None = None) -> tuple[bytes, list[int]]:
        """The keys holding `word`, ordered by the length of their compact form, and those lengths (a byte each:
        255 stands for 255 or more, which `_near` never looks for); `lengths`, when given, are those of every key."""
        found = self._by_length.get(word)
        if found is None:
            if lengths is None:
                key_packed = self._key_packed
                lengths = {k: min(len(key_packed[k]), 255) for k in self._postings[word]}  # (this word's keys)
            keys = sorted(self._postings[word], key=lengths.__getitem__)
            found = self._by_length[word] = (bytes(map(lengths.__getitem__, keys)), keys)
        return found

    def _word_candidates(self, norm: str, limit: int = _MAX_CANDIDATES) -> set[int]:
        """Keys sharing a word, or a misspelling of one, with the query; most shared words first."""
        return self._candidates_of(self._candidate_words(norm), limit)

    def _candidate_words(self, norm: str) -> list[str]:
        """The vocabulary words the query's words may be (each query word's `_similar_words`, in turn)."""
        similar = self._similar_words
        return [v for word in set(norm.split()) - STOPWORDS for v in similar(word)]

    def _candidates_of(self, words: list[str], limit: int = _MAX_CANDIDATES) -> set[int]:
        """The keys holding these words, the `limit` that hold most of them when there are more (`most_common`)."""
        postings = self._postings
        lists = [postings[v] for v in words]
        found = set().union(*lists)  # (most queries reach fewer keys than the limit: no counting needed)
        if len(found) <= limit:
            return found
        seen: set[int] = set()
        shared: set[int] = set()  # the keys in two lists or more
        for keys in lists:
            shared.update(seen.intersection(keys))
            seen.update(keys)
        if len(shared) < limit:  # (the usual case) the limit-th count is 1: `most_common` takes every shared key,
            # then the others in the order first met, by sets and iterators that walk the keys in C
            others = filterfalse(shared.__contains__, chain.from_iterable(lists))
            return shared.union(islice(others, limit - len(shared)))
        counts = Counter(chain.from_iterable(lists))
        # `counts.most_common(limit)`: the keys above the limit-th count, then those at it in the order first met
        # (a heap over every key cost as much as the counting)
        at = sorted(counts.values(), reverse=True)[limit - 1]
        top = [k for k, n in counts.items() if n > at]
        return {*top, *islice((k for k, n in counts.items() if n == at), limit - len(top))}

    def _similar_words_uncached(self, word: str) -> tuple[str, ...]:
        """Vocabulary words that `word` may be a misspelling of (at most 5, most alike first)."""
        if word in self._postings:
            return (word,)
        if len(word) <= 3 or not self._may_reach_vocabulary(word):
            return ()
        near: set[int] = set()  # (places in the vocabulary)
        hashes, owners, vocab = self._variant_hashes, self._variant_words, self._vocab
        if self._variant_starts is None:
            self._variant_starts = _bucket_starts(hashes)
        starts, shift, half = self._variant_starts
        for variant in {word, *[word[:i] + word[i + 1 :] for i in range(len(word))]}:
            key = hash(variant)
            bucket = (key >> shift) + half
            i, end = starts[bucket], starts[bucket + 1]  # (most buckets hold one hash or none)
            while i < end:
                if hashes[i] == key:
                    near.add(owners[i])
                i += 1
        scored = sorted(((fuzz.ratio(word, vocab[w]), vocab[w]) for w in near), reverse=True)
        close = tuple(w for score, w in scored if score >= WORD_MATCH)[:5]
        if close:
            return close
        return self._scan_vocabulary(word)  # nothing one edit away: two edits, longer words

    def _may_reach_vocabulary(self, word: str) -> bool:
        """Whether any vocabulary word could have a ratio of WORD_MATCH with `word`: `word` shares at most its `s`
        characters that occur in the vocabulary at all, so its ratio with any word is at most 200·s/(len(word) + s)
        (a code such as "zq4471" where no vocabulary word has a digit: 2 of 6, at most 50)."""
        shareable = sum(ch in self._vocab_alphabet for ch in word)
        return 200 * shareable >= WORD_MATCH * (len(word) + shareable)

    def _scan_vocabulary(self, word: str) -> tuple[str, ...]:
        """The 5 vocabulary words most alike `word` (ratio ≥ WORD_MATCH), best first, then alphabetically.

        Only words whose length allows that ratio (at most 200·shorter/(sum of lengths)) are compared, and none
        when too few of the word's characters occur in the vocabulary at all (`_may_reach_vocabulary`).
        """
        if self.reference:
            found = process.extract(word, self._vocab, scorer=fuzz.ratio, score_cutoff=WORD_MATCH, limit=None)
            return tuple(w for _, w in sorted((-score, w) for w, score, _ in found)[:5])
        if not self._may_reach_vocabulary(word):
            return ()
        hits = []
        for length, words in self._vocab_by_len.items():
            if 200 * min(length, len(word)) >= WORD_MATCH * (length + len(word)):
                near = self._could_reach(word, "vocabulary", words, WORD_MATCH)
                if near == []:
                    continue
                choices = words if near is None else [words[i] for i in near]
                found = process.extract(word, choices, scorer=fuzz.ratio, score_cutoff=WORD_MATCH, limit=5)
                hits += [(-score, w) for w, score, _ in found]
        return tuple(w for _, w in sorted(hits)[:5])

    # -- autocomplete ----------------------------------------------------------------------------
    def complete(self, prefix: str) -> list[Choice]:
        """Up to 25 choices for what has been typed so far: prefix matches on any key first, then fuzzy."""
        norm = normalize(prefix[:MAX_QUERY])
        picked: dict[int, None] = {}
        if not norm:
            picked.update(dict.fromkeys(self._alphabetical[:MAX_CHOICES]))
        else:
            for forms, owners in (self._starts, self._inner):
                self._collect_prefix(forms, owners, norm, picked)
                self._collect_prefix(forms, owners, compact(norm), picked)
            if len(picked) < MAX_CHOICES and len(compact(norm)) > 2:
                # Only the words already complete: the last one is usually still being typed.
                done = " ".join(norm.split()[:-1]) if prefix[-1:].isalnum() and " " in norm else norm
                ranked = self._rank(norm, self._word_candidates(done, limit=MAX_CHOICES * 4))
                for t_idx, _ in sorted(ranked.items(), key=lambda item: -item[1][0]):
                    if len(picked) >= MAX_CHOICES:
                        break
                    picked.setdefault(t_idx)
        return [self._choice(self._terms[i]) for i in list(picked)[:MAX_CHOICES]]

    @staticmethod
    def _collect_prefix(forms: list[str], owners: list[int], prefix: str, picked: dict[int, None]) -> None:
        i = bisect.bisect_left(forms, prefix)
        while i < len(forms) and len(picked) < MAX_CHOICES and forms[i].startswith(prefix):
            picked.setdefault(owners[i])
            i += 1

    @staticmethod
    def _choice(term: Term) -> Choice:
        label = f"{term.term} ({term.en})" if term.en else term.term
        return Choice(term.id, label if len(label) <= 100 else label[:99] + "…")

    # -- full text --------------------------------------------------------------------------------
    def search(self, text: str, limit: int = 25) -> list[SearchHit]:
        """Terms whose name or definition contains the words, best first (accent-insensitive)."""
        self.prepare_text_search()
        assert self._text is not None
        return self._text.search(normalize(text[:MAX_QUERY]), limit)


def _avoided_forms(terms: list[Term], exact: dict[str, int]) -> dict[str, tuple[int, str]]:
    """Forms to avoid (deprecated forms), exact match only: normalised and compact form → (term, the form). A real
    key of any term wins over them."""
    avoided: dict[str, tuple[int, str]] = {}
    for t_idx, term in enumerate(terms):
        for form in term.deprecated:
            norm = normalize(form)
            for key in (norm, compact(norm)):
                if key and key not in exact:
                    avoided.setdefault(key, (t_idx, form))
    return avoided


def _closest(distances: dict[int, int]) -> int | None:
    """The term whose typo distance is strictly smaller than every other's; None on a tie or when empty."""
    ordered = sorted(distances.values())
    if not ordered or (len(ordered) > 1 and ordered[0] == ordered[1]):
        return None
    return min(distances, key=distances.__getitem__)


def _bucket_starts(hashes: array) -> tuple[array, int, int]:
    """Buckets of sorted hashes by their top bits, about one hash to a bucket: where each bucket starts (and, last,
    where the hashes end), the shift and the offset that give a hash's bucket, `(h >> shift) + offset`. A hash is
    then found in two reads and a few comparisons, where a binary search over the array made a Python int of every
    entry it looked at (five times the cost). Made the first time a word is looked for (at 100,000 terms, 0.1 s)."""
    bits = max(1, len(hashes).bit_length())
    shift, offset = 64 - bits, 1 << (bits - 1)  # (hashes are signed: the top bits shifted down are too)
    sizes = [0] * ((1 << bits) + 1)
    for h in hashes:
        sizes[(h >> shift) + offset + 1] += 1
    return array("I", accumulate(sizes)), shift, offset


def _sorted_pairs(forms: list[str], owners: list[int]) -> tuple[list[str], list[int]]:
    """Both lists reordered by form (sorting plain strings beats sorting tuples several times over)."""
    order = sorted(range(len(forms)), key=forms.__getitem__)
    return [forms[i] for i in order], [owners[i] for i in order]


class _TextIndex:
    """Word → terms over names and definitions; words match whole or as a prefix (plurals, endings)."""

    def __init__(self, terms: list[Term]):
        self._terms = terms
        postings: dict[str, dict[int, float]] = {}
        for t_idx, term in enumerate(terms):
            weighted = [(normalize(" ".join(term.spellings())), 3.0), (normalize(term.definition), 1.0)]
            for text, weight in weighted:
                for word in text.split():
                    if word not in STOPWORDS:
                        slot = postings.setdefault(word, {})
                        slot[t_idx] = slot.get(t_idx, 0.0) + weight
        self._postings = postings
        self._vocab = sorted(postings)

    def _matching_words(self, word: str) -> list[str]:
        if len(word) < 4:
            return [word] if word in self._postings else []
        i = bisect.bisect_left(self._vocab, word)
        out = []
        while i < len(self._vocab) and self._vocab[i].startswith(word) and len(out) < 50:
            out.append(self._vocab[i])
            i += 1
        return out

    def search(self, norm: str, limit: int) -> list[SearchHit]:
        query_words = [w for w in dict.fromkeys(norm.split()) if w not in STOPWORDS]
        matched: Counter[int] = Counter()
        weight: Counter[int] = Counter()
        for word in query_words:
            hit_terms: dict[int, float] = {}
            for vocab_word in self._matching_words(word):
                for t_idx, w in self._postings[vocab_word].items():
                    hit_terms[t_idx] = hit_terms.get(t_idx, 0.0) + w
            for t_idx, w in hit_terms.items():
                matched[t_idx] += 1
                weight[t_idx] += w
        ranked = sorted(matched, key=lambda t: (-matched[t], -weight[t], self._terms[t].term))
        total = max(1, len(query_words))
        return [SearchHit(self._terms[t], _text_score(matched[t], weight[t], total)) for t in ranked[:limit]]


def _text_score(matched: int, weight: float, total: int) -> float:
    """0–100, in the order of the ranking: the share of the query's words found decides the band (all of two
    words: above 50), and how strongly they were found (in a name, several times) places the hit within it. Any
    two indexes score alike, so hits from a server's terms and the published ones can be merged by score."""
    strength = weight / matched  # per word: 1 for one mention in a definition, 3 in a name
    return round(100 * (matched - 1 + strength / (strength + 1)) / total, 1)
