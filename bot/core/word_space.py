"""What a member's word means in a glossary that never uses it ("workers" where the definitions say
"trabajadores", "computadoras" where they say "máquinas"): the glossary's own words, each embedded once by the
multilingual sentence encoder (cached by text hash with the terms' vectors), and a question's words embedded in the
same call as the question. A question word reads as a glossary word when their cosine is high. Nothing here is
written for one field: the words come from the glossary, their meaning from the encoder's cross-lingual space.

Pure: the vectors are computed outside the core and handed in."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.core.question_words import MAX_QUESTION, content_words, stem

# -- tuned on the `tune` half (python -m tests.questions.tune); the suite checks the figures -----------------------
WORD_COSINE = 0.75  # a question word reads as a glossary word from this cosine of their embeddings…
WORD_NEIGHBOURS = 3  # …at most this many glossary words for one question word
# Bounds on the work per question: the glossary words compared (the ones most terms use: a rare word is usually a
# name, typed as it is written) and the question words embedded with the question.
MAX_WORDS = 2048
MAX_QUESTION_WORDS = 12


def glossary_words(fields: Sequence[Sequence[str]]) -> list[str]:
    """The words of a glossary that a question's words are compared with: of each Spanish stem, its most frequent
    folded form, the stems most terms have first (ties in the glossary's order), at most MAX_WORDS. `fields` are
    the terms' lexical fields (bot/core/questions.py, `lexical_fields`)."""
    terms_with: Counter[str] = Counter()
    forms: dict[str, Counter[str]] = {}
    for term_fields in fields:
        seen = set()
        for w in content_words(" ".join(term_fields)):
            s = stem(w)
            forms.setdefault(s, Counter())[w] += 1
            if len(w) > 1:
                seen.add(s)
        terms_with.update(seen)
    ranked = sorted(terms_with, key=lambda s: -terms_with[s])[:MAX_WORDS]  # (stable: glossary order for ties)
    return [forms[s].most_common(1)[0][0] for s in ranked]


def question_words(text: str) -> list[str]:
    """The words of a question that are embedded with it: one folded form per Spanish stem, at most
    MAX_QUESTION_WORDS (the order of `word_groups`)."""
    by_stem: dict[str, str] = {}
    for w in content_words(text[:MAX_QUESTION]):
        by_stem.setdefault(stem(w), w)
    return list(by_stem.values())[:MAX_QUESTION_WORDS]


@dataclass(frozen=True, slots=True, eq=False)
class WordSpace:
    """A glossary's words (`glossary_words`) with their embeddings, one unit-length row per word."""

    words: tuple[str, ...]
    stems: tuple[str, ...]
    vectors: np.ndarray  # float32, (len(words), dimensions)

    @classmethod
    def of(cls, words: Sequence[str], vectors: np.ndarray) -> WordSpace:
        if len(words) != len(vectors):
            raise ValueError(f"{len(vectors)} vectors for {len(words)} words")
        rows = np.ascontiguousarray(vectors, dtype=np.float32)
        return cls(tuple(words), tuple(stem(w) for w in words), rows)

    def neighbours(self, vectors: np.ndarray) -> list[tuple[str, ...]]:
        """For each question word's vector, the stems of the glossary words it reads as (best first, its own
        stem included when the glossary has the word itself)."""
        if not len(self.words) or not len(vectors):
            return [() for _ in range(len(vectors))]
        cosines = np.asarray(vectors, dtype=np.float32) @ self.vectors.T
        k = min(WORD_NEIGHBOURS, cosines.shape[1])
        best = np.argpartition(-cosines, k - 1, axis=1)[:, :k]
        found = []
        for row, candidates in zip(cosines, best, strict=True):
            kept = sorted((c for c in candidates.tolist() if row[c] >= WORD_COSINE), key=lambda c: -row[c])
            found.append(tuple(dict.fromkeys(self.stems[c] for c in kept)))
        return found
