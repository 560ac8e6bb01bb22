"""The embeddings of members' words (bot/core/word_space.py), remembered: a question's words are embedded in the
same encoder call as the question, and only the ones not embedded before. Words repeat from one question to the
next far more than questions do, so after a while most questions cost one short text's encoding."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from bot.app.questions.sentence_model import Encoder


class WordVectors:
    """At most `limit` words' vectors (float32, 2 KB each), the least recently used dropped first."""

    def __init__(self, limit: int = 5_000) -> None:
        self.limit = limit
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, encoder: Encoder, text: str, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The vector of `text` and one row per word, in one encoder call for the text and the new words."""
        with self._lock:
            new = [w for w in dict.fromkeys(words) if w not in self._vectors]
        encoded = encoder.encode([text, *new])
        with self._lock:
            self._vectors.update(zip(new, encoded[1:], strict=True))
            rows = []
            for w in words:
                vector = self._vectors.get(w)
                if vector is not None:
                    self._vectors.move_to_end(w)
                    rows.append(vector)
            while len(self._vectors) > self.limit:
                self._vectors.popitem(last=False)
        if len(rows) != len(words):  # (dropped meanwhile by another thread: rare, encode them again)
            return encoded[0], encoder.encode(list(words))
        return encoded[0], np.stack(rows) if rows else np.zeros((0, encoded.shape[1]), dtype=np.float32)
