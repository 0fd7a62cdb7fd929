"""The records of a CSV file the organiser gives (a player list, a seating), or where
the ``csv`` module cannot read one."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from typing import Any

from events.said import Said, say
from ingest.spreadsheet import NotUtf8, separator, spreadsheet_text

__all__ = ["NotUtf8", "csv_rows", "spreadsheet_rows", "spreadsheet_text"]


def spreadsheet_rows(text: str, refused: Callable[[int, Said], Exception]) -> tuple[Any, Iterator[list[str]]]:
    """A CSV as a spreadsheet saves it: Excel's byte-order mark dropped, and fields
    split at semicolons where the first line has them and no comma (Excel writes so in
    many countries), else at commas. The ``csv`` reader (for its ``line_num``) and its
    records (:func:`csv_rows`)."""
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text), delimiter=separator(text))
    return reader, csv_rows(reader, refused)


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
