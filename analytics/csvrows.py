"""The records of a CSV file the organiser gives (a player list, a seating), or where
the ``csv`` module cannot read one."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from typing import Any

from events.said import Said, say
from ingest.scoresheet import line_of


def spreadsheet_text(raw: bytes) -> str:
    """A CSV file's bytes as text, as a spreadsheet saves them: UTF-8 (its byte-order
    mark dropped), or UTF-16 where a byte-order mark says so (Excel's "Unicode text").
    Anything else is refused (:class:`UnicodeError` with a sentence naming the line and
    how to save it), never read as another encoding's guess nor raised as a traceback."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise NotUtf8(say("not UTF-16 as its byte-order mark says: save it as CSV UTF-8")) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = line_of(raw, exc.start)
        said = say(
            "line %(line)s is not UTF-8 (byte 0x%(byte)s): save the file as CSV UTF-8",
            line=line,
            byte=f"{raw[exc.start]:02X}",
        )
        raise NotUtf8(said) from None


class NotUtf8(UnicodeError):
    """A CSV file in an encoding a spreadsheet's CSV is not saved in, with the sentence
    that says where and what to do."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.english())
        self.said = said


def spreadsheet_rows(text: str, refused: Callable[[int, Said], Exception]) -> tuple[Any, Iterator[list[str]]]:
    """A CSV as a spreadsheet saves it: Excel's byte-order mark dropped, and fields
    split at semicolons where the first line has them and no comma (Excel writes so in
    many countries), else at commas. The ``csv`` reader (for its ``line_num``) and its
    records (:func:`csv_rows`)."""
    text = text.removeprefix("\ufeff")
    first = re.split("\r\n|\r|\n", text, maxsplit=1)[0]
    reader = csv.reader(io.StringIO(text), delimiter=";" if ";" in first and "," not in first else ",")
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
