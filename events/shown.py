"""What a terminal or a report may show of a text that came from outside: a file name,
a player's name, a table's label.

Such text can hold characters that are not there to be read: a terminal's escape
sequences (``ESC [2J`` clears the screen; an OSC sequence retitles the window), a
right-to-left override that shows a name backwards, a line break that splits a report's
line, or bytes of a file name that are not UTF-8 (which ``os.fsdecode`` keeps as lone
surrogates, and which no JSON, DuckDB or terminal takes). Each is shown as a backslash
escape instead, and any other text as it is.
"""

from __future__ import annotations

import os
import unicodedata
from typing import Final

_UNSHOWN: Final = frozenset({"Cc", "Cf", "Zl", "Zp"})
"""Unicode categories a name must not carry into a terminal or a report: controls,
format characters (right-to-left overrides, zero-width ones) and line breaks."""
_LAYOUT: Final = frozenset("\n\t")
"""The controls a program's own text lays itself out with (:func:`shown`)."""
_JOINERS: Final = frozenset("\u200c\u200d")
"""The format characters a name may hold and is read with: the zero-width non-joiner and
joiner that Persian and the Indic scripts write words with and that join an emoji family
(👩‍👩‍👧). A name allows them (:data:`events.records.tournament_file.NOT_IN_A_NAME`),
and escaped they showed as ``Lea 👩\\u200d👩\\u200d👧``."""


def safe_name(name: str) -> str:
    r"""A file name as text that can be stored, printed and shown: bytes that are not
    UTF-8 (which ``os.fsdecode`` keeps as lone surrogates, and which no JSON, DuckDB or
    terminal takes) and control, format and line-break characters (which would move a
    terminal's cursor, reverse the text shown or break a report's line) written as
    backslash escapes; any other name as it is.

    >>> safe_name(os.fsdecode(b"r1-t3\xff.jsonl"))
    'r1-t3\\xff.jsonl'
    >>> safe_name("two\nlines.csv")
    'two\\x0alines.csv'
    >>> safe_name("Zürich/tournament.json")
    'Zürich/tournament.json'
    """
    try:
        data = os.fsencode(name)
    except UnicodeEncodeError:  # a lone surrogate that no file name decoded to
        data = name.encode("utf-8", "backslashreplace")
    return one_line(data.decode("utf-8", "backslashreplace"))


def one_line(text: str) -> str:
    r"""``text`` as one line of a report (a name, a finding that quotes a referee's note):
    control, format and line-break characters written as backslash escapes, so that no
    text from outside can start a line that reads as the report's own.

    >>> one_line("x\n  line 9 · out_of_turn")
    'x\\x0a  line 9 · out_of_turn'
    >>> one_line("Lea \u200f👩\u200d👧")  # a mark that turns the text, and a joiner
    'Lea \\u200f👩\u200d👧'
    """
    if text.isprintable():
        return text
    return "".join(escaped(char) if _unshown(char) else char for char in text)


def _unshown(char: str) -> bool:
    return unicodedata.category(char) in _UNSHOWN and char not in _JOINERS


def escaped(char: str) -> str:
    r"""One character as a backslash escape, as a terminal or a page shows one that is
    not there to be read (the dashboard's :func:`dashboard.markup.visible` too).

    >>> print(escaped("\x1b"), escaped("\u202e"))
    \x1b \u202e
    """
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: str) -> str:
    r"""``text`` as a terminal may print it: like :func:`safe_name`, but the line breaks
    and tabs a program's own messages lay themselves out with are kept.

    >>> shown("\x1b[2Jann\nbob")
    '\\x1b[2Jann\nbob'
    """
    if text.isprintable():
        return text
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(escaped(char) if char not in _LAYOUT and _unshown(char) else char for char in text)
