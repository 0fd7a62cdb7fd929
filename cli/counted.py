"""Counts said with their nouns, each in its own plural: "1 upload", "2 uploads".

A sentence of several counts ("%(events)s, chain head …; %(uploads)s, …") takes each
as a value of its own, so each noun follows its own number in every language ("1
rondes", "1 Uploads" when one plural served the sentence). A value is a 1-tuple of the
sentence, as :mod:`events.said` takes a sentence inside another.
"""

from __future__ import annotations

from events.said import Said, say


def events(count: int) -> tuple[Said]:
    return (say("%(count)s event", "%(count)s events", "count", count=count),)


def uploads(count: int) -> tuple[Said]:
    return (say("%(count)s upload", "%(count)s uploads", "count", count=count),)


def files(count: int) -> tuple[Said]:
    return (say("%(count)s file", "%(count)s files", "count", count=count),)


def games(count: int) -> tuple[Said]:
    return (say("%(count)s game", "%(count)s games", "count", count=count),)


def rounds(count: int) -> tuple[Said]:
    return (say("%(count)s round", "%(count)s rounds", "count", count=count),)


def batches(count: int) -> tuple[Said]:
    return (say("%(count)s batch", "%(count)s batches", "count", count=count),)


def parts(count: int) -> tuple[Said]:
    return (say("%(count)s part", "%(count)s parts", "count", count=count),)


def rows_of_data(count: int) -> tuple[Said]:
    """Rows of a table (a lake's Parquet rows), not a seating's."""
    return (say("%(count)s row", "%(count)s rows", "count", count=count),)
