"""A CSV file as spreadsheets save it: its encoding and its separator.

Excel and LibreOffice in the Netherlands, Germany and Norway save "CSV" with semicolons
(the comma is their decimal mark), UTF-8 with a byte-order mark, or UTF-16 ("Unicode
text"); an old Mac's ends its lines with a lone CR. Every CSV an organiser gives — a
score sheet, a player list, a seating — is read the same way here.
"""

from __future__ import annotations

import re
from typing import Final

from events.said import Said, say

LINE_END: Final = re.compile(rb"\r\n|\r|\n")
"""A line's end as spreadsheets write them, and as the ``csv`` reader counts lines:
Windows', Unix's, and the old Mac's lone CR (Excel for Mac's "CSV (Macintosh)")."""


def line_of(data: bytes, offset: int) -> int:
    r"""The line of a CSV file's bytes that byte ``offset`` stands on, counted as the
    ``csv`` reader counts them (its ``line_num``), so a byte that cannot be read and a
    value that is wrong are named at the same line.

    >>> line_of(b"a\rb\r\nc\nd", 7)
    4
    """
    return len(LINE_END.findall(data, 0, offset)) + 1


class NotUtf8(UnicodeError):
    """A CSV file in an encoding a spreadsheet's CSV is not saved in, with the sentence
    that says where and what to do, and the line it names."""

    def __init__(self, said: Said, line: int = 1) -> None:
        super().__init__(said.english())
        self.said = said
        self.line = line


def spreadsheet_text(raw: bytes) -> str:
    """A CSV file's bytes as text, as a spreadsheet saves them: UTF-8 (its byte-order
    mark dropped), or UTF-16 where a byte-order mark says so (Excel's "Unicode text").
    Anything else is refused (:class:`NotUtf8` with a sentence naming the line and how
    to save it), never read as another encoding's guess nor raised as a traceback.

    >>> spreadsheet_text("player;name|zed;Zed Ødegård".encode("utf-16"))
    'player;name|zed;Zed Ødegård'
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16").removeprefix("\ufeff")
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
        raise NotUtf8(said, line) from None


def separator(text: str) -> str:
    """The CSV's field separator: a semicolon where its first line has one and no comma
    (Excel writes so in many countries), a tab where it has one and neither (Excel's
    "Unicode text" is tab-separated), else a comma.

    >>> separator("player;name\\nann;Ann, the first"), separator("player,name"), separator("player\\tname")
    (';', ',', '\\t')
    """
    first = re.split("\r\n|\r|\n", text, maxsplit=1)[0]
    if "," in first:
        return ","
    return ";" if ";" in first else "\t" if "\t" in first else ","
