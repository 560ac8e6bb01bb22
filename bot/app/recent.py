"""What is kept in memory for the most recently used keys only (servers' overlays, editor roles, question
indexes): one way to keep an entry as the newest and drop the oldest past a bound."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep_recent(kept: OrderedDict[K, V], key: K, value: V, most: int) -> V:
    """Keep `value` under `key` as the most recently used, dropping the least recently used past `most`."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)
    return value
