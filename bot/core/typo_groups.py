"""Group texts that are typos of each other, in linear time, for exports of 100,000 gaps.

Two texts one edit apart (a letter changed, added, dropped or two swapped) always share a one-deletion variant of
their compact forms, and many two edits apart do too; texts that share none are never compared. The variants are
not built as strings: each is a polynomial hash computed with numpy over all texts of one length at once
(`hash(s without s[i]) = H(s) + (H(s[:i]) - H(s[:i+1])) · B^(len-1-i)`, arithmetic modulo 2⁶⁴). A shared hash only
makes two texts candidates; `typo_distance` decides, so a collision can cost a comparison but never merge two
different texts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from bot.core.search import typo_distance

MAX_CANDIDATES = 32  # earlier groups a text is compared with, at most (the first ones: most asked)
_BASE = np.uint64(0x9E3779B97F4A7C15)  # odd, so that the hash is a bijection of the last letter
_BITMAP_SIZE = 1 << 22  # 4 MB of flags
_BITMAP_MASK = np.uint64(_BITMAP_SIZE - 1)
_MIN_LENGTH = 4  # compact forms of 3 letters or fewer are never typos (no budget for them)


def group_typos(texts: Sequence[str]) -> list[int]:
    """For each normalised text, in the given order (most important first), the index of the first earlier text
    that leads its group: itself when it is a typo of none of the groups before it."""
    leader = list(range(len(texts)))
    members = _shared_variants(texts)
    group_heads: dict[int, list[int]] = defaultdict(list)  # variant → the groups (their leader) that have it
    for index in sorted(members):
        variants = members[index]
        found = sorted({head for v in variants for head in group_heads.get(v, ())})[:MAX_CANDIDATES]
        home = next((h for h in found if typo_distance(texts[index], texts[h]) is not None), None)
        if home is not None:
            leader[index] = home
            continue
        for v in variants:
            heads = group_heads[v]
            if len(heads) < MAX_CANDIDATES:
                heads.append(index)
    return leader


def _shared_variants(texts: Sequence[str]) -> dict[int, list[int]]:
    """Text index → the variants (numbered) it shares with at least one other text; texts sharing none are left
    out (they lead their own group without a comparison)."""
    hashes, owners = _variant_hashes(texts)
    if not hashes.size:
        return {}
    ordered = np.sort(hashes)
    repeated = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])  # the variants of two texts or more: few
    if not repeated.size:
        return {}
    # A bitmap of the repeated hashes' low bits first (one array read per variant), then the exact search for the
    # few variants it lets through: a binary search for each of 1.6 million variants costs twice the whole sort.
    bitmap = np.zeros(_BITMAP_SIZE, dtype=bool)
    bitmap[repeated & _BITMAP_MASK] = True
    maybe = np.flatnonzero(bitmap[hashes & _BITMAP_MASK])
    hashes, owners = hashes[maybe], owners[maybe]
    numbers = np.minimum(np.searchsorted(repeated, hashes), repeated.size - 1)
    shared = repeated[numbers] == hashes
    members: dict[int, list[int]] = defaultdict(list)
    for owner, number in zip(owners[shared].tolist(), numbers[shared].tolist(), strict=True):
        members[owner].append(number)
    return members


def _variant_hashes(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Every one-deletion variant of every compact text (and the text itself), as (hash, text index) arrays."""
    by_length: dict[int, list[int]] = defaultdict(list)
    packed = [text.replace(" ", "") for text in texts]
    for index, text in enumerate(packed):
        if len(text) >= _MIN_LENGTH:
            by_length[len(text)].append(index)
    hashes: list[np.ndarray] = []
    owners: list[np.ndarray] = []
    with np.errstate(over="ignore"):
        for length, indices in by_length.items():
            letters = np.array([packed[i] for i in indices], dtype=f"<U{length}").view(np.uint32)
            letters = letters.reshape(len(indices), length).astype(np.uint64)
            prefix = np.zeros((len(indices), length + 1), dtype=np.uint64)  # prefix[:, k] = H(s[:k])
            for k in range(length):
                prefix[:, k + 1] = prefix[:, k] * _BASE + letters[:, k]
            powers = _BASE ** np.arange(length - 1, -1, -1, dtype=np.uint64)  # B^(len-1-i)
            whole = prefix[:, length]
            deletions = whole[:, None] + (prefix[:, :length] - prefix[:, 1:]) * powers[None, :]
            distinct = np.ones((len(indices), length), dtype=bool)  # "aab" loses either "a" the same way: once
            distinct[:, 1:] = letters[:, 1:] != letters[:, :-1]
            owner = np.asarray(indices, dtype=np.int64)
            hashes += [deletions[distinct], whole]
            owners += [np.broadcast_to(owner[:, None], distinct.shape)[distinct], owner]
    if not hashes:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.int64)
    return np.concatenate(hashes), np.concatenate(owners)
