"""``ingest.store.writing.ahead``: items made in a thread one ahead of the reader, errors
raised to the reader where they happened, and no thread left behind by a reader that
stops early."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from ingest.store.writing import ahead


def _threads() -> set[str]:
    return {t.name for t in threading.enumerate()}


def test_the_items_come_in_order() -> None:
    assert list(ahead(iter(range(1000)))) == list(range(1000))
    assert list(ahead(iter([]))) == []


def test_an_error_making_an_item_reaches_the_reader_at_that_item() -> None:
    def failing() -> Iterator[int]:
        yield 1
        yield 2
        raise ValueError("the third")

    got: list[int] = []
    with pytest.raises(ValueError, match="the third"):
        for item in ahead(failing()):
            got.append(item)
    assert got == [1, 2]
    assert "chain ahead" not in _threads()


def test_a_reader_that_stops_early_stops_the_thread() -> None:
    made: list[int] = []

    def counting() -> Iterator[int]:
        for n in range(1_000_000):
            made.append(n)
            yield n

    items = ahead(counting())
    assert next(items) == 0
    items.close()  # the reader's insert failed: the generator is closed
    assert "chain ahead" not in _threads()
    assert len(made) <= 3  # one handed over, one waiting, at most one more made
