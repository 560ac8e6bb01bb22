"""Texts of one length ruled out by the characters they share with a query, before any of them is scored: a
filter for the index's scans over keys and vocabulary words (bot.core.search), which keeps every text that could
reach the cutoff."""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


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
        # character → [each text's count of it capped at 1, capped at 2, …] (byte i of each number: text i's
        # count, capped), made for a character by `warm` or the first time a query has it
        self.capped: dict[str, list[int]] = {}
        # Once warm: every character's capped counts as rows of one matrix (a row per cap, a column per text), and
        # character → (its first row, how many)
        self.matrix: np.ndarray | None = None
        self.rows: dict[str, tuple[int, int]] = {}

    @classmethod
    def of(cls, texts: list[str]) -> LetterCounts | None:
        """None when a count may not fit in a byte (texts over 255 characters) or a code (over 255 characters).
        Texts of several lengths are counted as if padded to the longest (`could_reach` is then told the shortest
        length it is to answer for)."""
        length, joined = max(map(len, texts)), "".join(texts)
        alphabet = sorted(set(joined))
        if length > 255 or len(alphabet) > 255 or _PAD in alphabet:
            return None
        codes = {ch: i for i, ch in enumerate(alphabet)}
        if any(len(text) != length for text in texts):
            joined = "".join(text.ljust(length, _PAD) for text in texts)  # (the padding's code is counted for none)
        table = {**{ord(ch): i for ch, i in codes.items()}, ord(_PAD): len(alphabet)}
        coded = joined.translate(table).encode("latin-1")
        columns = [coded[p::length] for p in range(length)]
        return cls(len(texts), length, codes, columns)

    def capped_of(self, ch: str) -> list[int]:
        """Each text's count of `ch`, capped at 1, at 2, … up to the largest count (one number per cap, a byte per
        text); [] for a character no text has."""
        found = self.capped.get(ch)
        if found is None:
            code = self.codes.get(ch)
            if code is None:
                return []
            marking = _marking(code)
            counts = sum(int.from_bytes(column.translate(marking), "little") for column in self.columns)
            per_text = counts.to_bytes(self.size, "little")
            found = [int.from_bytes(per_text.translate(_capped(n)), "little") for n in range(1, max(per_text) + 1)]
            self.capped[ch] = found
        return found

    def warm(self) -> None:
        """Make every character's capped counts now, as one matrix (a serving index calls it before its first
        lookup, through `SearchIndex.warm`), so that no lookup pays for them: lookups otherwise made them a
        character at a time for hours, the misses most (a miss's characters are the rare ones). A query's counts
        are then added by numpy, a few times faster than Python's integers (numpy is imported here, as the question
        path imports it anyway; a cold index, as the command line's, never imports it)."""
        import numpy as np

        if self.matrix is not None:
            return
        rows: list[bytes] = []
        for ch in self.codes:
            self.rows[ch] = (len(rows), len(self.capped_of(ch)))
            rows += [capped.to_bytes(self.size, "little") for capped in self.capped[ch]]
        self.matrix = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(rows), self.size)
        self.columns, self.capped = [], {}  # (not read again: every character is in the matrix)

    def could_reach(self, query: str, cutoff: float, shortest: int | None = None) -> list[int] | None:
        """The places of the texts that share enough characters with `query` for a ratio of `cutoff` (with a
        text of `shortest` characters, for texts of several lengths: longer ones need more); None when more than
        a quarter do (listing them would cost more than scoring them all). No text has more of a character than
        its largest count, so when even those fall short, no text is looked at."""
        # Below this many, the ratio stays under the cutoff by a margin far above any rounding.
        length = self.length if shortest is None else shortest
        needed = max(min(int(cutoff * (len(query) + length) / 200), 256), 0)
        if self.matrix is not None:
            return self._could_reach_warm(query, needed)
        made, parts, most = self.capped, [], 0
        for ch, n in _letters_of(query):
            capped = made.get(ch) or self.capped_of(ch)
            if capped:
                n = min(n, len(capped))
                most += n
                parts.append(capped[n - 1])
        if most < needed:
            return []
        # byte i: how many characters text i shares with the query (at most `length`: no carry)
        shared = sum(parts)
        flags = shared.to_bytes(self.size, "little").translate(_at_least(needed))
        if 4 * (self.size - flags.count(0)) > self.size:
            return None
        return [match.start() for match in _SET.finditer(flags)]

    def _could_reach_warm(self, query: str, needed: int) -> list[int] | None:
        """`could_reach` once warm: the query's rows of the matrix, added."""
        rows, most, where = [], 0, self.rows
        for ch, n in _letters_of(query):
            found = where.get(ch)
            if found is not None:
                n = min(n, found[1])
                most += n
                rows.append(found[0] + n - 1)
        if most < needed:
            return []
        matrix = self.matrix
        assert matrix is not None
        # byte i: how many characters text i shares with the query (at most its length: no overflow)
        shared = matrix[rows].sum(axis=0, dtype=matrix.dtype)
        places = (shared >= needed).nonzero()[0]
        if 4 * len(places) > self.size:
            return None
        return places.tolist()


_SET = re.compile(b"\x01")
_PAD = "\x00"  # what texts shorter than the longest are padded with (normalised text never has it)


@functools.lru_cache(maxsize=256)
def _letters_of(text: str) -> tuple[tuple[str, int], ...]:
    return tuple(Counter(text).items())


@functools.cache
def _marking(code: int) -> bytes:
    return bytes(int(b == code) for b in range(256))


@functools.cache
def _capped(n: int) -> bytes:
    return bytes(min(b, n) for b in range(256))


@functools.cache
def _at_least(n: int) -> bytes:
    return bytes(int(b >= n) for b in range(256))
