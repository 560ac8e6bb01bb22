"""Questions in a member's own words ("¿cómo se llama lo de Uber para entrenar con MPI?"): terms ranked by
meaning, and an answer that is honest about its certainty (confident, unsure, nothing).

Two sides, fused: a lexical one (BM25 over name, English name, aliases, definition and related names; the words
and their stems as bot/core/question_words.py reads them) and a dense one (the cosine between the question's
sentence embedding and each term's, computed outside the core and handed in as vectors). BM25 is kept as flat
arrays (`Lexical`), so that the application can cache them. The thresholds are tuned on the `tune` half of
tests/questions/questions.yaml and reported on the other half (README.md, bench/README.md).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from bot.core.mentions import MentionFinder
from bot.core.model import Glossary, Term
from bot.core.normalize import normalize
from bot.core.question_confidence import CONFIDENT_PROBABILITY, features, probability_of
from bot.core.question_texts import lexical_fields, related_names
from bot.core.question_words import MAX_QUESTION, english_words, word_groups, words
from bot.core.search import Ambiguous, Found, LookupResult, Suggestion
from bot.core.word_space import MAX_QUESTION_WORDS, WordSpace

MAX_CANDIDATES = 3  # terms offered when unsure
_POOL = 12  # candidates each index hands to the fusion

# -- tuned on the `tune` half (python -m tests.questions.tune prints the search); the suite checks the figures --
DENSE_WEIGHT = 0.5  # share of the dense side in the fused score (the lexical side has the rest)
LEXICAL_HALF = 5.0  # BM25 score that counts as half the lexical evidence (it saturates: bm25 / (bm25 + this))
UNSURE_SCORE = 0.22  # below this fused score nothing is offered: the question is a gap
NAMED_PENALTY = 0.75  # a term the question names, beside other words, is context rather than the answer
ABOUT_WORDS = 1  # at most this many other words beside a named term: the question is about that term…
# …unless one of them sets it against another ("la alternativa de Google a SageMaker", "besides Feast").
_CONTRAST = frozenset(
    normalize(
        "alternativa alternativas alternative parecido parecida similar equivalente equivalent vez instead besides "
        "ademas otra otro other reemplaza replace replaces no not pero but usa uses"
    ).split()
)

# BM25 (Robertson's defaults) with field weights: a word in a name counts three times one in the definition.
_K1, _B = 1.2, 0.75
_NAME_WEIGHT, _DEFINITION_WEIGHT, _RELATED_WEIGHT = 3.0, 1.0, 0.5


def text_key(text: str, model: str) -> str:
    """The cache key of one embedded text: a hash of the model's name and version and the text."""
    return hashlib.blake2b(f"{model}\0{text}".encode(), digest_size=16).hexdigest()


def reads_as_description(text: str) -> bool:
    """Whether a query reads as a description rather than a name: three words that carry meaning or more."""
    return len(words(text)) >= 3


class Verdict(StrEnum):
    CONFIDENT = "confident"  # one term, said as the closest term of the glossary
    UNSURE = "unsure"  # up to three terms to choose from
    NOTHING = "nothing"  # no term: the question is a gap


@dataclass(frozen=True, slots=True)
class Candidate:
    term: Term
    score: float  # fused, 0–1
    dense: float = 0.0  # cosine of the embeddings
    lexical: float = 0.0  # BM25, raw
    coverage: float = 0.0  # share of the question's words (by rarity) found in the term, 0–1
    names: float = 0.0  # share of the question's words (by rarity) found in the term's names, 0–1


@dataclass(frozen=True, slots=True)
class Answer:
    verdict: Verdict
    candidates: tuple[Candidate, ...]  # best first, at most MAX_CANDIDATES (some even when the verdict is nothing)
    probability: float = 0.0  # that the first candidate is the right answer (calibrated; 1.0 for a named term)

    @property
    def term(self) -> Term | None:
        """The term said with confidence, if any."""
        return self.candidates[0].term if self.verdict is Verdict.CONFIDENT else None


NO_ANSWER = Answer(Verdict.NOTHING, ())


@dataclass(frozen=True, slots=True)
class Question:
    """A question read once, asked of several indexes (the published glossary, then a server's own terms)."""

    text: str
    words: tuple[str, ...]  # the stems of its words that carry meaning
    groups: tuple[tuple[str, ...], ...]  # each of those stems with its English stem after it
    vector: np.ndarray | None  # the question's embedding (unit length), None without the dense side
    word_vectors: np.ndarray | None = None  # the embeddings of `question_words(text)`, one row per group from the first


def read_question(text: str, vector: np.ndarray | None = None, word_vectors: np.ndarray | None = None) -> Question:
    """The question as the indexes read it; `vector` is the embedding of `text`, `word_vectors` those of
    `question_words(text)` (one encoder call: `[text, *question_words(text)]`)."""
    text = text[:MAX_QUESTION]
    groups = word_groups(text)
    if word_vectors is not None and len(word_vectors) != min(len(groups), MAX_QUESTION_WORDS):
        raise ValueError(f"{len(word_vectors)} word vectors for {len(groups)} words")
    return Question(text, tuple(g[0] for g in groups), groups, vector, word_vectors)


@dataclass(frozen=True, slots=True)
class _Evidence:
    term: Term
    dense: float
    lexical: float
    coverage: float
    names: float
    named: bool


@dataclass(frozen=True, slots=True, eq=False)
class Lexical:
    """BM25 over one glossary as flat arrays, one row per term in glossary order: the postings of the stem
    `vocab[w]` are `docs[starts[w]:starts[w + 1]]` (ascending) with their saturated term weights `scores`. Plain
    arrays, so that the application can keep them in a file and load them without work per term."""

    vocab: np.ndarray  # the stems, UTF-8, sorted (bytes order)
    idf: np.ndarray  # float64, one per stem
    starts: np.ndarray  # int64, len(vocab) + 1
    docs: np.ndarray  # int32
    scores: np.ndarray  # float32
    terms: np.ndarray  # int64, shape (1,): how many terms (documents)

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_arrays(cls, arrays) -> Lexical:
        """From `arrays()` (as saved); ValueError when they do not fit together."""
        found = cls(**{name: np.asarray(arrays[name]) for name in cls.__slots__})
        n_words = len(found.vocab)
        if (
            found.vocab.dtype.kind != "S"
            or found.idf.shape != (n_words,)
            or found.starts.shape != (n_words + 1,)
            or found.docs.shape != found.scores.shape
            or found.terms.shape != (1,)
            or (n_words and (found.starts[0] != 0 or found.starts[-1] != len(found.docs)))
        ):
            raise ValueError("the lexical arrays do not fit together")
        return found

    def rarity(self, terms_with_it: int) -> float:
        """BM25's idf of a word that this many terms have."""
        n = max(1, int(self.terms[0]))
        return float(np.log(1 + (n - terms_with_it + 0.5) / (terms_with_it + 0.5)))

    @property
    def unknown_idf(self) -> float:
        """The idf of a stem no term has: rarer than any."""
        n = max(1, int(self.terms[0]))
        return float(np.log(1 + (n + 0.5) / 0.5))

    def find(self, stems: Sequence[str]) -> list[int]:
        """The row of each stem in `vocab`, -1 for a stem no term has."""
        vocab = self.vocab
        if not stems or not len(vocab):
            return [-1] * len(stems)
        encoded = [s.encode() for s in stems]
        at = np.searchsorted(vocab, np.array(encoded, dtype=bytes)).tolist()
        return [a if a < len(vocab) and vocab[a] == e else -1 for a, e in zip(at, encoded, strict=True)]

    def postings(self, row: int) -> tuple[np.ndarray, np.ndarray]:
        start, end = int(self.starts[row]), int(self.starts[row + 1])
        return self.docs[start:end], self.scores[start:end]


def build_lexical(fields: Sequence[tuple[str, str, str, str]], pause=None) -> Lexical:
    """BM25 (field-weighted) over the terms' `lexical_fields`. `pause`, if given, is called every few hundred
    terms (a worker thread lets the event loop in, or stops)."""
    word_id: dict[str, int] = {}
    ids, weights, counts = array("q"), array("d"), array("q")  # (flat machine numbers: no object per word)
    for i, (names, other_names, definition, related) in enumerate(fields):
        before = len(ids)
        for ws, weight in (
            (words(names), _NAME_WEIGHT),
            (english_words(other_names), _NAME_WEIGHT),
            (words(definition), _DEFINITION_WEIGHT),
            (words(related), _RELATED_WEIGHT),
        ):
            ids.extend([word_id.setdefault(w, len(word_id)) for w in ws])
            weights.extend([weight] * len(ws))
        counts.append(len(ids) - before)
        if pause is not None and i % 256 == 255:
            pause()
    n, n_words = len(counts), len(word_id)
    doc = np.repeat(np.arange(n, dtype=np.int64), np.frombuffer(counts, dtype=np.int64))
    weight = np.frombuffer(weights, dtype=np.float64)
    pairs, which = np.unique(doc * max(1, n_words) + np.frombuffer(ids, dtype=np.int64), return_inverse=True)
    tf = np.bincount(which, weights=weight, minlength=len(pairs)) if len(pairs) else np.zeros(0)
    pair_doc, pair_word = pairs // max(1, n_words), pairs % max(1, n_words)
    lengths = np.bincount(doc, weights=weight, minlength=n) if n else np.zeros(1)
    average = float(lengths.mean()) or 1.0
    norm = _K1 * (1 - _B + _B * lengths[pair_doc] / average)
    saturated = (tf * (_K1 + 1) / (tf + norm)).astype(np.float32)
    frequency = np.bincount(pair_word, minlength=n_words)
    idf = np.log(1 + (max(1, n) - frequency + 0.5) / (frequency + 0.5))
    vocab = np.array([w.encode() for w in word_id], dtype=bytes if n_words else "S1")
    by_bytes = np.argsort(vocab, kind="stable")
    rank = np.empty(n_words, dtype=np.int64)
    rank[by_bytes] = np.arange(n_words)
    order = np.lexsort((pair_doc, rank[pair_word]))
    starts = np.zeros(n_words + 1, dtype=np.int64)
    np.cumsum(np.bincount(rank[pair_word], minlength=n_words), out=starts[1:])
    return Lexical(
        vocab[by_bytes],
        idf[by_bytes],
        starts,
        pair_doc[order].astype(np.int32),
        saturated[order],
        np.array([n], dtype=np.int64),
    )


def glossary_fields(glossary: Glossary, context: Glossary | None = None) -> list[tuple[str, str, str, str]]:
    """`lexical_fields` of every term, related ids resolved in the glossary, then in `context`."""
    return [lexical_fields(t, related_names(t, glossary, context)) for t in glossary]


class QuestionIndex:
    """Built once per glossary (the published one, or a server's terms) from the terms, their embeddings (one
    row per term in glossary order) and their BM25 arrays (built here unless given). `context` resolves related
    ids that name terms of another glossary; `mentions`, the glossary's own MentionFinder if one is at hand;
    `words`, the glossary's words with their embeddings (`glossary_words`), so that a question's words the
    glossary never uses find the ones it does; `key`, the `index_key` of what it was built from
    (bot/core/question_texts.py), when its builder kept one."""

    def __init__(
        self,
        glossary: Glossary,
        vectors: np.ndarray | None,
        context: Glossary | None = None,
        *,
        lexical: Lexical | None = None,
        mentions: MentionFinder | None = None,
        words: WordSpace | None = None,
        key: str = "",
    ) -> None:
        if vectors is not None and len(vectors) != len(glossary):
            raise ValueError(f"{len(vectors)} vectors for {len(glossary)} terms")
        self.glossary = glossary
        self._terms = glossary.terms
        self.vectors = None if vectors is None else np.ascontiguousarray(vectors, dtype=np.float32)
        if mentions is None or mentions.glossary is not glossary:
            mentions = MentionFinder(glossary)
        self.mentions = mentions
        self.lexical = lexical if lexical is not None else build_lexical(glossary_fields(glossary, context))
        if int(self.lexical.terms[0]) != len(glossary):
            raise ValueError(f"lexical arrays of {int(self.lexical.terms[0])} terms for {len(glossary)}")
        self.words = words
        self.key = key
        self._names: dict[int, frozenset[str]] = {}  # a pooled term's name stems, made on first use

    def __len__(self) -> int:
        return len(self._terms)

    def rebound(self, glossary: Glossary) -> QuestionIndex:
        """This index for `glossary`, whose terms it reads alike (the same `key`): its arrays shared, no work per
        term, the terms it hands back `glossary`'s. (Its MentionFinder stays: it is read for ids and spellings.)"""
        if len(glossary) != len(self._terms):
            raise ValueError(f"an index of {len(self._terms)} terms for {len(glossary)}")
        twin = QuestionIndex.__new__(QuestionIndex)
        twin.__dict__.update(self.__dict__, glossary=glossary, _terms=glossary.terms, _names={})
        return twin

    def cosines(self, vectors: np.ndarray) -> np.ndarray | None:
        """Each term's cosine with each of these question vectors (one row per question), in one product: the
        terms' vectors are read once for them all. None without the dense side."""
        if self.vectors is None:
            return None
        return np.asarray(vectors, dtype=np.float32) @ self.vectors.T

    def groups(self, question: Question) -> tuple[tuple[str, ...], ...]:
        """The question's word groups, each followed by the stems of the glossary words it reads as."""
        if self.words is None or question.word_vectors is None or not len(question.word_vectors):
            return question.groups
        near = self.words.neighbours(question.word_vectors)
        return tuple(
            tuple(dict.fromkeys((*group, *(near[i] if i < len(near) else ()))))
            for i, group in enumerate(question.groups)
        )

    def _lexical_scores(self, groups, rows) -> tuple[np.ndarray, list]:
        """BM25 of every term for these word groups (each word once: through itself or its best reading), and
        what each group found."""
        n, lexical_index = len(self._terms), self.lexical
        idf = lexical_index.idf
        lexical = np.zeros(n, dtype=np.float32)
        found_groups = []
        for group in groups:
            found = [(lexical_index.postings(rows[w]), float(idf[rows[w]])) for w in group if rows[w] >= 0]
            if len(found) > 1:  # as rare as the word is, whatever its form: the terms that have any of them
                weight = lexical_index.rarity(len(np.unique(np.concatenate([docs for (docs, _), _ in found]))))
                found = [(postings, weight) for postings, _ in found]
            found_groups.append(found)
            if len(found) == 1:  # the usual case: add the postings, no array the size of the glossary
                (docs, scores), weight = found[0]
                lexical[docs] += weight * scores
            elif found:
                best = np.zeros(n, dtype=np.float32)
                for (docs, scores), weight in found:
                    np.maximum.at(best, docs, weight * scores)
                lexical += best
        return lexical, found_groups

    def evidence(self, question: Question, named: set[str], dense: np.ndarray | None = None) -> list[_Evidence]:
        """The few terms this index finds most likely, with what each side says of them (`dense`: the question's
        `cosines` with this index's terms, if computed already)."""
        n = len(self._terms)
        if not n:
            return []
        groups = self.groups(question)
        flat = [w for g in groups for w in g]
        rows = dict(zip(flat, self.lexical.find(flat), strict=True))
        lexical, found_groups = self._lexical_scores(groups, rows)
        if dense is None:
            dense = np.zeros(n, dtype=np.float32)
            if self.vectors is not None and question.vector is not None:
                dense = self.vectors @ question.vector.astype(np.float32, copy=False)
        rough = fused(dense, lexical)
        pool = min(_POOL, n)
        best = np.argpartition(-rough, pool - 1)[:pool] if n > pool else np.arange(n)
        unknown, idf = self.lexical.unknown_idf, self.lexical.idf
        weights = [float(idf[rows[g[0]]]) if rows[g[0]] >= 0 else unknown for g in groups]
        total = sum(weights) or 1.0
        covered = np.zeros(len(best), dtype=np.float64)
        for found, weight in zip(found_groups, weights, strict=True):
            if found:
                has = np.zeros(len(best), dtype=bool)
                for (docs, _), _ in found:
                    has |= _among(best, docs)
                covered += weight * has
        return [
            _Evidence(
                self._terms[i],
                float(dense[i]),
                float(lexical[i]),
                c / total,
                self._in_name(i, groups, weights) / total,
                self._terms[i].id in named,
            )
            for i, c in zip(best.tolist(), covered.tolist(), strict=True)
        ]

    def _in_name(self, i: int, groups, weights: list[float]) -> float:
        """The weight of the question's words that term `i`'s names (or their English stems) have."""
        names = self._names.get(i)
        if names is None:
            spellings = self._terms[i].spellings()
            names = self._names[i] = frozenset(words(" ".join(spellings)) + english_words(" ".join(spellings)))
        return sum(w for g, w in zip(groups, weights, strict=True) if not names.isdisjoint(g))

    def named_in(self, question: Question) -> tuple[set[str], int]:
        """Ids of the terms the question names, and how many of its words are not part of those names."""
        named = self.mentions.find(question.text)
        if not named:
            return set(), len(question.words)
        inside = set().union(*(words(" ".join(t.spellings())) for t in named))
        return {t.id for t in named}, sum(1 for w in question.words if w not in inside)


def _among(wanted: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """Which of `wanted` are in `docs` (a posting list, ascending): np.isin's answer, by binary search."""
    if not len(docs):
        return np.zeros(len(wanted), dtype=bool)
    return docs[np.minimum(np.searchsorted(docs, wanted), len(docs) - 1)] == wanted


def fused(dense, lexical):
    """The fused score (0–1) from the cosine and the raw BM25 score (numbers or arrays alike)."""
    return DENSE_WEIGHT * dense + (1 - DENSE_WEIGHT) * (lexical / (lexical + LEXICAL_HALF))


def ask(question: Question, indexes: list[QuestionIndex], dense: Sequence[np.ndarray | None] | None = None) -> Answer:
    """Rank the terms of every index (the published glossary first: a term there wins over a server term of the
    same id) and decide how certain the best one is (`dense`: the question's cosines per index, if computed)."""
    named: set[str] = set()
    other_words = len(question.words)
    for index in indexes:
        ids, rest = index.named_in(question)
        if ids:
            named |= ids
            other_words = min(other_words, rest)
    pooled: dict[str, _Evidence] = {}
    for i, index in enumerate(indexes):
        for found in index.evidence(question, named, None if dense is None else dense[i]):
            pooled.setdefault(found.term.id, found)
    if not pooled:
        return NO_ANSWER
    contrast = not _CONTRAST.isdisjoint(normalize(question.text).split())
    about_named = bool(named) and other_words <= ABOUT_WORDS and not contrast
    ranked = []
    for e in pooled.values():
        score = float(fused(max(e.dense, 0.0), e.lexical))
        if e.named:
            score = 1.0 if about_named else score * NAMED_PENALTY
        ranked.append(Candidate(e.term, round(score, 4), round(e.dense, 4), round(e.lexical, 4), e.coverage, e.names))
    ranked.sort(key=lambda c: (-c.score, c.term.id))
    p = 1.0 if about_named else probability(ranked, len(question.words))
    return Answer(decide(ranked, p, about_named), tuple(ranked[:MAX_CANDIDATES]), round(p, 4))


def calibration_features(ranked: Sequence[Candidate], words: int) -> tuple[float, ...]:
    """The calibration's features of the best candidate (bot/core/question_confidence.py); `words`: how many of the
    question's words carry meaning."""
    best = ranked[0]
    second = ranked[1].score if len(ranked) > 1 else 0.0
    saturated = best.lexical / (best.lexical + LEXICAL_HALF)
    return features(best.score, second, best.dense, saturated, best.coverage, best.names, words)


def probability(ranked: Sequence[Candidate], words: int) -> float:
    """The calibrated probability that the best candidate is the right answer."""
    return probability_of(calibration_features(ranked, words)) if ranked else 0.0


def decide(ranked: Sequence[Candidate], p: float, about_named: bool = False) -> Verdict:
    """Confident, unsure or nothing, from the ranked candidates (best first) and `p`, the probability that the best
    is the right answer (`probability`). A question about a named term is answered with that term."""
    if not ranked:
        return Verdict.NOTHING
    if about_named or p >= CONFIDENT_PROBABILITY:
        return Verdict.CONFIDENT
    return Verdict.UNSURE if ranked[0].score >= UNSURE_SCORE else Verdict.NOTHING


# -- beside the name matcher (/termino) ------------------------------------------------------------------------
NAME_CLOSE = 85.0  # a name suggestion this alike is a misspelling: the name path's answer is kept in full


def should_ask(result: LookupResult, query: str) -> bool:
    """Whether /termino should also run the question path: the name matched nothing with certainty and the text
    reads as a description (several words). A name that matches behaves exactly as before."""
    return not isinstance(result, Found) and reads_as_description(query)


def names_alone(result: LookupResult, answer: Answer) -> bool:
    """Whether the name matcher's suggestions are the whole answer: it offered some, and the question path has
    nothing to say (NOTHING) beside them, however many low candidates it ranked."""
    return isinstance(result, Ambiguous) and answer.verdict is Verdict.NOTHING


def combine(result: LookupResult, answer: Answer) -> Answer:
    """One answer from the name matcher's result and the question path's, never worse for a misspelt name than
    the name matcher alone: its suggestions are all kept, first when one of them is close to the query. When the
    question path has nothing to say (NOTHING), only the name matcher's suggestions are offered: the candidates
    it ranked below what it would offer are not."""
    if isinstance(result, Found):
        return Answer(Verdict.CONFIDENT, (Candidate(result.term, 1.0),))
    suggestions: tuple[Suggestion, ...] = result.candidates if isinstance(result, Ambiguous) else ()
    named = tuple(Candidate(s.term, round(s.score / 100, 4)) for s in suggestions)
    close = bool(suggestions) and suggestions[0].score >= NAME_CLOSE
    if answer.verdict is Verdict.CONFIDENT and (not close or answer.candidates[0].term.id == named[0].term.id):
        return answer
    if not named:
        return answer
    if names_alone(result, answer):
        return Answer(Verdict.UNSURE, named)
    ids = {c.term.id for c in named}
    meant = tuple(c for c in answer.candidates if c.term.id not in ids)[: max(1, MAX_CANDIDATES - len(named))]
    return Answer(Verdict.UNSURE, (*named, *meant) if close else (*meant, *named))
