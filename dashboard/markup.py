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

Text from outside can also carry characters that are not there to be read: a control
(a terminal's ``ESC [31m``, shown as a box), and the marks that turn the direction of
the text after them (a table labelled ``\u202e1t-elbat`` showed as "table-t1", and the
game id beside it backwards). :func:`escape` and :func:`html_text` write each as the
command line does (``\u202e``: :mod:`events.shown`). And a name in a right-to-left
script reorders the text around it, though it holds no such mark: in "with محمد 12,
שלום, Zoë" the two names and the comma between them are one right-to-left run, shown
the other way round. :func:`isolated` sets such a piece of user text apart (U+2068 FIRST
STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE): it is laid out in its own direction,
and the line around it in its own. Every piece of user text a page places into a line
of other text (a select box's option, a heading, a sentence, a list of names) goes
through it; the names of :func:`dashboard.data.player_names` come through it already.
The two escapers keep an isolate they find whole (an isolated name inside a sentence
escaped as one), and write one left open, which would turn the rest of the line, as
any other mark.

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
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from events.shown import escaped

JOINER: Final = "\u2060"
"""Invisible and not a word character: it parts ``http:`` from ``//``."""

INERT: Final = "-.,;?'\"/%()@"
"""Punctuation that opens nothing inside a line of Markdown: left unescaped."""

BREAKS: Final = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Characters that end a line somewhere (CommonMark, Python's ``splitlines``): spaces in user text."""
FSI: Final = "\u2068"
"""FIRST STRONG ISOLATE: opens a piece of text laid out in its own direction (its first
letter's), apart from the line around it."""
PDI: Final = "\u2069"
"""POP DIRECTIONAL ISOLATE: closes the piece :data:`FSI` opened."""
UNSHOWN: Final = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""The controls (a tab aside, and the line breaks, which become spaces) and the marks that
set the direction of the text after them (the Arabic letter, left-to-right and
right-to-left marks, the embeddings, overrides and isolates): written as escapes."""
_RIGHT_TO_LEFT: Final = frozenset({"R", "AL", "AN"})
"""The bidirectional classes of right-to-left letters (Hebrew's, Arabic's…) and Arabic digits."""
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


def visible(text: str, *, isolates: bool = True) -> str:
    r"""``text`` with its controls and direction marks written as the command line writes
    them (:func:`events.shown.one_line`): ``\x1b``, ``\u202e``. ``isolates``: an
    isolate found whole (:data:`FSI` … :data:`PDI`, as :func:`isolated` puts one) is
    kept, as it turns nothing outside itself.

    >>> print(visible("\u202e1t-elbat \x1b[31mRED"))
    \u202e1t-elbat \x1b[31mRED
    >>> visible("with \u2068x\u2069 and \u2068y") == "with \u2068x\u2069 and \\u2068y"
    True
    """
    if UNSHOWN.search(text) is None:
        return text
    kept = _whole_isolates(text) if isolates else set()
    return "".join(
        char if index in kept or UNSHOWN.fullmatch(char) is None else escaped(char) for index, char in enumerate(text)
    )


def _whole_isolates(text: str) -> set[int]:
    """The places of the :data:`FSI` and :data:`PDI` in ``text`` that close over each other."""
    opened: list[int] = []
    whole: set[int] = set()
    for index, char in enumerate(text):
        if char == FSI:
            opened.append(index)
        elif char == PDI and opened:
            whole.update((opened.pop(), index))
    return whole


def isolated(value: object) -> str:
    r"""A piece of user text (a name, a table's label, a tournament's name) as a line of
    other text holds it: its controls and direction marks written out (:func:`visible`),
    and, when it holds right-to-left letters, set apart in an isolate (:data:`FSI` …
    :data:`PDI`), so that it reorders nothing around it and is laid out in its own
    direction. Text of left-to-right letters alone is left as it is: in the pages'
    left-to-right lines it turns nothing (and a name copied from a page is the name).
    Text isolated already is left as it is.

    >>> print(isolated("Zoë"), isolated("\u202e1t-elbat"))
    Zoë \u202e1t-elbat
    >>> isolated("\u0645\u062d\u0645\u062f 12") == FSI + "\u0645\u062d\u0645\u062f 12" + PDI
    True
    >>> isolated(isolated("\u05e9\u05dc\u05d5\u05dd")) == isolated("\u05e9\u05dc\u05d5\u05dd")
    True
    """
    text = str(value)
    if len(text) > 1 and text[0] == FSI and text[-1] == PDI and UNSHOWN.search(text, 1, len(text) - 1) is None:
        return text  # set apart already (a name of dashboard.data.player_names)
    text = visible(text, isolates=False)
    if text.isascii() or not any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in text):
        return text
    return FSI + text + PDI


def shortened(text: str, most: int) -> str:
    """The first ``most`` characters of ``text`` (a line of a select box's option), an
    isolate they leave open closed: cut open, it would set the rest of the line apart.

    >>> shortened("Ann: " + FSI + "abc" + PDI, 6) == "Ann: " + FSI + PDI
    True
    """
    cut = text[:most]
    return cut + PDI * (cut.count(FSI) - cut.count(PDI))


def escape(value: object) -> str:
    """``value`` as Markdown that shows its text as it is, on one line.

    >>> print(escape("Ann *the* dwarf_1: 3 stars"))
    Ann \\*the\\* dwarf\\_1\\: 3 stars
    >>> print(escape("![px](http://example.invalid/x.png)").replace(JOINER, "<WJ>"))
    \\!\\[px\\](http\\:<WJ>//example.invalid/x.png)
    >>> print(escape("- 1. not a list"))
    \\- 1. not a list
    """
    text = _REWRITTEN.sub(JOINER, visible(str(value).translate(_BREAKS))).translate(_ESCAPES).strip()
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
    return html.escape(_REWRITTEN.sub(JOINER, visible(str(value).translate(_BREAKS))), quote=False)


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
