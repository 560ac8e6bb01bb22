"""The one rule that turns what a member asked into its gap: the text kept, the form gaps are aggregated by, and
the short handle its suggestion buttons carry. (Asker hashes too: distinct askers are counted, never stored.)"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.core.normalize import normalize
from bot.core.search import MAX_QUERY


@dataclass(frozen=True, slots=True)
class GapKey:
    sample: str  # the text kept (cut to the longest query the bot reads)
    normalized: str  # what gaps are aggregated by
    qhash: str  # a short stable handle (fits in a button's custom_id)


def gap_key(query: str) -> GapKey:
    sample = query[:MAX_QUERY]
    normalized = normalize(sample)
    return GapKey(sample, normalized, query_hash(normalized))


def query_hash(normalized: str) -> str:
    """A short stable handle for a normalised query."""
    return hashlib.blake2b(normalized.encode(), digest_size=4).hexdigest()


def asker_hash(salt: str, user_id: int) -> str:
    """Distinct askers are counted through this salted hash; raw user ids are never stored."""
    return hashlib.blake2b(f"{salt}:{user_id}".encode(), digest_size=12).hexdigest()
