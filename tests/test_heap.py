"""The cycle collector once the glossary is settled (bot/heap.py): its passes are rarer, and still free cycles."""

from __future__ import annotations

import gc
import weakref

import pytest

from bot import heap


@pytest.fixture
def collector():
    """The collector as it was before the test (settling freezes the heap and changes the thresholds)."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting alone never frees it


def test_after_settling_passes_are_rarer_and_a_cycle_is_still_freed_without_asking(collector):
    heap.settle()
    assert gc.get_threshold()[0] == heap.YOUNG_COLLECTION > 700
    assert gc.isenabled()
    gone = weakref.ref(Node())
    assert gone() is not None
    allocated = [[] for _ in range(2 * heap.YOUNG_COLLECTION)]  # enough for a pass of the youngest generation
    assert gone() is None
    assert len(allocated) == 2 * heap.YOUNG_COLLECTION


def test_what_was_frozen_is_freed_by_the_next_settling_once_let_go(collector):
    node = Node()
    gone = weakref.ref(node)
    heap.settle()
    del node
    gc.collect()
    assert gone() is not None  # frozen: out of the collector's way
    heap.settle()  # (as a reload does: what the replaced glossary held goes back to the collector first)
    assert gone() is None
    assert gc.get_threshold()[0] == heap.YOUNG_COLLECTION
