"""User text inside Markdown: shown exactly as typed, never as Markdown or HTML.

Display names, player and game ids, tournament names, file names, reasons and the log
text that findings quote all come from outside. Every Streamlit element that shows a
string (``st.markdown``, ``st.caption``, ``st.error`` and its kin, headers, metric
labels and values, expander labels) reads it as Markdown, so such text goes in through
:func:`escape` and nowhere else; tables (``st.dataframe``) and select boxes show their
cells as text already. A page a player searches with the browser (a grid drawn on a
canvas is not searchable) lays its table out as a Markdown table (:func:`table`), each
cell through :func:`escape`.

Streamlit's Markdown changes text in two places, so escaping takes two steps:

* The parser obeys a backslash before ASCII punctuation (CommonMark). Every character
  that opens something in the middle of a line is escaped: links and images (``[ ] !``),
  emphasis and code (``* _ ~ `` ` ``), HTML and entities (``< > &``), math (``$``),
  directives and shortcodes (``:``), tables (``|``), and ``# + = \\ ^ { }`` for good
  measure. The marks that are inert inside a line (``- . , ; ? ' " / % ( ) @``) are
  left as they are, so the text stays readable, except where they would open a list at
  its start (``- ``, ``1. ``, ``1) ``). Line breaks become spaces and the ends are
  trimmed, so no text starts a heading, a list, a quote or a code block of its own.
* After parsing, plugins rewrite the *text*, where escapes are gone: GFM turns
  ``http://…``, ``www.…`` and ``name@host.tld`` into links, and ``:smile:`` or
  ``:material/home:`` into an emoji, an image or an icon. An invisible U+2060 WORD
  JOINER after the ``:``, ``@`` or ``www`` that would start one breaks the pattern;
  ordinary prose (``line 3: the pile``) gets none.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from typing import Final

JOINER: Final = "\u2060"
"""Invisible and not a word character: it parts ``http:`` from ``//``."""

INERT: Final = "-.,;?'\"/%()@"
"""Punctuation that opens nothing inside a line of Markdown: left unescaped."""

_ESCAPES: Final = str.maketrans(
    {
        **{mark: "\\" + mark for mark in string.punctuation if mark not in INERT},
        **{brk: " " for brk in "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"},
    }
)
_REWRITTEN: Final = re.compile(r"(?<=:)(?=[\w/+-])|(?<=@)(?=[\w-])|(?<=www)(?=\.)", re.IGNORECASE)
"""Where a plugin would find a link, an emoji or an icon in the parsed text."""
_LIST_START: Final = re.compile(r"^(\d*)([-.)])")
"""``-``, ``1.`` or ``1)`` at the start: a list item."""


def escape(value: object) -> str:
    """``value`` as Markdown that shows its text as it is, on one line.

    >>> print(escape("Ann *the* dwarf_1: 3 stars"))
    Ann \\*the\\* dwarf\\_1\\: 3 stars
    >>> print(escape("![px](http://example.invalid/x.png)").replace(JOINER, "<WJ>"))
    \\!\\[px\\](http\\:<WJ>//example.invalid/x.png)
    >>> print(escape("- 1. not a list"))
    \\- 1. not a list
    """
    text = _REWRITTEN.sub(JOINER, str(value)).translate(_ESCAPES).strip()
    return _LIST_START.sub(r"\1\\\2", text, count=1)


_ID: Final = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
"""The characters of a game, tournament or player id (the log's ``GameId``, ``PlayerId``)."""


def ident(value: object) -> str:
    """An id (a game's, a tournament's, a player's) as code: shown as typed, and copied
    as typed into a command. :func:`escape` parts ``sim-open:r1:t2`` with invisible word
    joiners after its colons, and a command given the copy knew no such game. Text that
    is no id goes through :func:`escape`.

    >>> print(ident("sim-open-5:r1:t2"), ident("Ann *x*"))
    `sim-open-5:r1:t2` Ann \\*x\\*
    """
    text = str(value)
    return f"`{text}`" if _ID.fullmatch(text) else escape(text)


def row(cells: Sequence[object]) -> str:
    """One row of a Markdown table, each cell shown as it is (``None``: an empty cell).

    >>> print(row([1, "Ann | Bob", None]))
    | 1 | Ann \\| Bob |  |
    """
    return "| " + " | ".join("" if cell is None else escape(cell) for cell in cells) + " |"


def table(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table (GFM) of ``rows`` under ``columns``: text on the page, found by
    the browser's search, each cell through :func:`escape`.

    >>> print(table(["seat", "player"], [[1, "*Ann*"]]))
    | seat | player |
    | --- | --- |
    | 1 | \\*Ann\\* |
    """
    lines = [row(columns), "|" + "|".join(" --- " for _ in columns) + "|", *(row(cells) for cells in rows)]
    return "\n".join(lines)
