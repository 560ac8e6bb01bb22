"""Which glossary terms a piece of text mentions ("Explicar términos"): whole words, longest match wins."""

from __future__ import annotations

import re

from bot.core.model import Glossary, Term
from bot.core.normalize import normalize

MAX_TEXT = 10_000
_TOKEN = re.compile(r"\w+")


class MentionFinder:
    """Built once per glossary. Keys are names, English names and aliases, compared after normalisation;
    keys of three letters or fewer ("PS", "Ray") must appear exactly as written, so that "a ray of light"
    or "ps:" does not explain a term."""

    def __init__(self, glossary: Glossary):
        self.glossary = glossary
        self._terms = list(glossary.terms)
        phrases: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        self._short: dict[str, int] = {}
        for t_idx, term in enumerate(self._terms):
            for key in term.spellings():
                words = tuple(normalize(key).split())
                if not words:
                    continue
                if len("".join(words)) <= 3:
                    self._short.setdefault(key.strip(), t_idx)
                    continue
                phrases.setdefault(words[0], []).append((words, t_idx))
        for candidates in phrases.values():
            candidates.sort(key=lambda c: -len(c[0]))  # the longest key first: it wins an overlap
        self._phrases = phrases

    def find(self, text: str) -> list[Term]:
        """The terms mentioned, in order of first mention, each once."""
        words: list[str] = []
        raw: list[str | None] = []  # the original token where it maps to exactly one normalised word
        for token in _TOKEN.findall(text[:MAX_TEXT]):
            parts = normalize(token).split()
            words.extend(parts)
            raw.extend([token] if len(parts) == 1 else [None] * len(parts))
        found: dict[int, None] = {}
        i = 0
        while i < len(words):
            step = 1
            for key, t_idx in self._phrases.get(words[i], ()):
                if tuple(words[i : i + len(key)]) == key:
                    found.setdefault(t_idx)
                    step = len(key)
                    break
            else:
                t_idx = self._short.get(raw[i] or "")
                if t_idx is not None:
                    found.setdefault(t_idx)
            i += step
        return [self._terms[t] for t in found]


def first_sentence(text: str) -> str:
    """Up to the first full stop followed by a space (or all of it)."""
    cut = text.find(". ")
    return text if cut < 0 else text[: cut + 1]
