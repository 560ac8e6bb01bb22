"""Texts of one length ruled out by the characters they share with a query, before any of them is scored: a
filter for the index's scans over keys and vocabulary words (bot.core.search), which keeps every text that could
reach the cutoff."""

from __future__ import annotations

import functools
import re
from collections import Counter


class LetterCounts:
    """How often each character occurs in each of a list of texts of one length, one byte per text, so that the
    texts sharing too few characters with a query are ruled out in a few operations on whole lists (Python's
    big integers add every text's byte at once) instead of scoring each. `fuzz.ratio(a, b)` is
    200 · LCS / (len(a) + len(b)), and a longest common subsequence has no more of any character than either
    text: the characters two texts share bound their ratio from above, so no text that could reach is left out."""

    def __init__(self, size: int, length: int, codes: dict[str, int], columns: list[bytes]) -> None:
        self.size, self.length = size, length
        self.codes = codes  # character → its code in `columns`
        self.columns = columns  # column p: the code of each text's character p, one byte per text
        # character → [texts with it at least once, at least twice, …] (byte i of each number: 1 or 0 for text i),
        # made for a character the first time a query has it
        self.levels: dict[str, list[int]] = {}

    @classmethod
    def of(cls, texts: list[str]) -> LetterCounts | None:
        """None when a count may not fit in a byte (texts over 255 characters) or a code (over 256 characters)."""
        length, joined = len(texts[0]), "".join(texts)
        alphabet = sorted(set(joined))
        if length > 255 or len(alphabet) > 256:
            return None
        coded = joined.translate({ord(ch): i for i, ch in enumerate(alphabet)}).encode("latin-1")
        columns = [coded[p::length] for p in range(length)]
        return cls(len(texts), length, {ch: i for i, ch in enumerate(alphabet)}, columns)

    def levels_of(self, ch: str) -> list[int]:
        found = self.levels.get(ch)
        if found is None:
            code = self.codes.get(ch)
            if code is None:
                return []
            marking = _marking(code)
            counts = sum(int.from_bytes(column.translate(marking), "little") for column in self.columns)
            per_text = counts.to_bytes(self.size, "little")
            found = [int.from_bytes(per_text.translate(_at_least(n)), "little") for n in range(1, max(per_text) + 1)]
            self.levels[ch] = found
        return found

    def could_reach(self, query: str, cutoff: float) -> list[int] | None:
        """The places of the texts that share enough characters with `query` for a ratio of `cutoff`; None when
        more than a quarter do (listing them would cost more than scoring them all)."""
        shared = 0  # byte i: how many characters text i shares with the query (at most `length`: no carry)
        for ch, n in _letters_of(query):
            for level in self.levels_of(ch)[:n]:
                shared += level
        # Below this many, the ratio stays under the cutoff by a margin far above any rounding.
        needed = min(int(cutoff * (len(query) + self.length) / 200), 256)
        flags = shared.to_bytes(self.size, "little").translate(_at_least(max(needed, 0)))
        if 4 * (self.size - flags.count(0)) > self.size:
            return None
        return [match.start() for match in _SET.finditer(flags)]


_SET = re.compile(b"\x01")


@functools.lru_cache(maxsize=256)
def _letters_of(text: str) -> tuple[tuple[str, int], ...]:
    return tuple(Counter(text).items())


@functools.cache
def _marking(code: int) -> bytes:
    return bytes(int(b == code) for b in range(256))


@functools.cache
def _at_least(n: int) -> bytes:
    return bytes(int(b >= n) for b in range(256))
