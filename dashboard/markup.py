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

A table or a list of thousands of rows is laid out as HTML instead (:func:`html_table`,
:func:`html_list`), handed to ``st.markdown`` whole: the browser parses one block of
HTML in a moment, where Streamlit's Markdown parser took some 15 s over the Markdown of
2,000 rows. It is the same ``<table>`` (header cells in ``<thead>``) or ``<ol>`` the
Markdown made, in the same Markdown container, so it looks and reads the same. User
text in it goes through :func:`html_text`: escaped as HTML and on one line. The Markdown
parser leaves a block of raw HTML as it is, so the backslashes above are not needed
there; but Streamlit finds its icons in the text all the same (a name with
``:material/warning:`` in it showed ``:material_warning:`` in the standings), so the
word joiners are, as :func:`escape` puts them. A blank line would end the block and hand
the rest back to Markdown, so the block is written on one line.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

JOINER: Final = "\u2060"
"""Invisible and not a word character: it parts ``http:`` from ``//``."""

INERT: Final = "-.,;?'\"/%()@"
"""Punctuation that opens nothing inside a line of Markdown: left unescaped."""

BREAKS: Final = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Characters that end a line somewhere (CommonMark, Python's ``splitlines``): spaces in user text."""
_ESCAPES: Final = str.maketrans(
    {
        **{mark: "\\" + mark for mark in string.punctuation if mark not in INERT},
        **{brk: " " for brk in BREAKS},
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


@dataclass(frozen=True, slots=True)
class Bold:
    """Text shown in bold in :func:`html_table` or :func:`html_list` (escaped all the same)."""

    text: object


_BREAKS: Final = str.maketrans(dict.fromkeys(BREAKS, " "))


def html_text(value: object) -> str:
    """``value`` as HTML that shows its text as it is, on one line, the ends trimmed
    (``None``: nothing; :class:`Bold`: in ``<strong>``; a list or tuple: its parts one
    after the other, as they are between the ends).

    >>> print(html_text(" Ann <b>x</b> & *y*\\n\\nz "))
    Ann &lt;b&gt;x&lt;/b&gt; &amp; *y*  z
    >>> print(html_text([Bold(" Ann "), ": ", "top of the table"]))
    <strong>Ann</strong>: top of the table
    >>> print(html_text("Ann :material/warning: www.x").replace(JOINER, "<WJ>"))
    Ann :<WJ>material/warning: www<WJ>.x
    """
    if isinstance(value, list | tuple):
        return "".join(_html(part) for part in value).strip()
    return _html(value).strip()


def _html(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, Bold):
        return f"<strong>{html_text(value.text)}</strong>"
    if isinstance(value, list | tuple):
        return html_text(value)
    return html.escape(_REWRITTEN.sub(JOINER, str(value).translate(_BREAKS)), quote=False)


def html_table(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table of ``rows`` under ``columns``, as the Markdown of :func:`table` shows it
    (``<th>`` in ``<thead>``, ``<td>`` in ``<tbody>``), each cell through
    :func:`html_text`; one line, for ``st.markdown(..., unsafe_allow_html=True)``.

    >>> print(html_table(["n", "who"], [[1, "<i>A</i>"]]))
    <table><thead><tr><th>n</th><th>who</th></tr></thead><tbody><tr><td>1</td><td>&lt;i&gt;A&lt;/i&gt;</td></tr></tbody></table>
    """
    head = "".join(f"<th>{html_text(column)}</th>" for column in columns)
    body = "".join("<tr>" + "".join(f"<td>{html_text(cell)}</td>" for cell in cells) + "</tr>" for cells in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_list(items: Iterable[object]) -> str:
    """An ordered list of ``items``, numbered from 1, as Markdown's ``1. …`` lines show
    it, each through :func:`html_text`; one line, for ``st.markdown(...,
    unsafe_allow_html=True)``.

    >>> print(html_list([[Bold("Ann"), ": first"], "*Bob*: second"]))
    <ol><li><strong>Ann</strong>: first</li><li>*Bob*: second</li></ol>
    """
    return "<ol>" + "".join(f"<li>{html_text(item)}</li>" for item in items) + "</ol>"
