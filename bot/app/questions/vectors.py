"""The questions' vectors, kept by the text as the model reads it, so that a question asked again (by another member,
or spelt with other spaces) is not encoded again. Bounded: the least recently used are dropped."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from bot.app.questions.sentence_model import Encoder


class QuestionVectors:
    """Vectors of question texts by `key(text)` (the model's own normalisation: the same key, the same pieces),
    at most `limit` of them (2 KB each)."""

    def __init__(self, encoder: Encoder, limit: int = 2048) -> None:
        self.encoder, self.limit = encoder, limit
        self._key: Callable[[str], str] = getattr(encoder, "key", lambda text: text)
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.encoded = 0  # texts encoded so far (not found here), for logs and tests

    def __len__(self) -> int:
        return len(self._kept)

    def vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        """One vector per text: kept ones as they are, the others encoded in one call (each text once)."""
        keys = [self._key(t) for t in texts]
        with self._lock:
            found = {k: self._kept[k] for k in keys if k in self._kept}
            for k in found:
                self._kept.move_to_end(k)
        missing: dict[str, str] = {}  # key → the first text with it
        for text, key in zip(texts, keys, strict=True):
            if key not in found:
                missing.setdefault(key, text)
        if missing:
            encoded = self.encoder.encode(list(missing.values()))
            self.encoded += len(missing)
            fresh = dict(zip(missing, encoded, strict=True))
            found |= fresh
            with self._lock:
                self._kept.update(fresh)
                while len(self._kept) > self.limit:
                    self._kept.popitem(last=False)
        return [found[k] for k in keys]
