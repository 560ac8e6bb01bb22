"""The glossary and its index are most of the heap and live as long as they serve: keep them out of the way
of Python's cycle collector, whose full passes would otherwise walk all of them again and again."""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import Iterator

log = logging.getLogger(__name__)

# Net allocations between two passes over the youngest generation (Python's default is 700). What is allocated
# once the glossary is settled is mostly the state of interactions in flight (20 at a time, each a few hundred
# objects): at 700 a pass came every ten interactions or so and walked all of them while they were still alive;
# at 10,000 passes are rare enough that most of what they would walk is already freed by reference counting.
YOUNG_COLLECTION = 10_000


def settle() -> None:
    """Collect, then move every object alive now to the permanent generation (`gc.freeze`), and make the
    youngest generation's passes rarer (YOUNG_COLLECTION).

    Call it once the glossary in service is loaded, and again after it is replaced: what an earlier call
    froze goes back to the collector first, so a replaced glossary is freed rather than kept forever.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, old)
    log.debug("%d long-lived objects moved out of the collector's way", gc.get_freeze_count())


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cycle collection while a burst of short-lived, acyclic objects is built (an export of 100,000 gaps):
    each pass would walk the whole heap again for nothing. Collection resumes afterwards as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
