"""The records of a CSV file the organiser gives (a player list, a seating), or where
the ``csv`` module cannot read one."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from typing import Any

from events.said import Said, say


def csv_rows(reader: Any, refused: Callable[[int, Said], Exception]) -> Iterator[list[str]]:
    """The records of a ``csv`` reader. One it cannot read (an unclosed quote, a field
    over the module's 128 KiB limit) raises ``refused`` with the line it reached and
    why: it came out of ``tournament import-players`` and ``tournament seat
    --from-csv`` as a traceback."""
    while True:
        try:
            row = next(reader, None)
        except csv.Error as exc:
            raise refused(reader.line_num, say("not readable as CSV (%(problem)s)", problem=str(exc))) from None
        if row is None:
            return
        yield row
