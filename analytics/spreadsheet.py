"""CSV for spreadsheets, which run what looks like a formula.

Display names, player ids and reasons come from uploaded files and typed forms, so a
cell such as ``=HYPERLINK("http://…","win")`` would become a live link, or worse, in the
organiser's spreadsheet. Every CSV the product hands out — the command line's and the
dashboard's downloads alike — goes through :func:`csv_text`, which follows OWASP's
advice on CSV injection: a text cell that starts like a formula gets a leading ``'``,
which spreadsheets show as text and do not display. Numbers stay numbers.

A cell is one line of text, too, written as :func:`events.shown.one_line` writes a
report's line: a referee's note may hold a terminal's escape sequences (``ESC [2J``
clears the screen of whoever prints the CSV to their terminal), a mark that turns the
text after it backwards, or a line break; each is a backslash escape, as the table the
same command prints shows it. The JSON outputs keep the text exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from events.shown import one_line

if TYPE_CHECKING:  # loaded by the caller that has a frame: the command line starts without Polars
    import polars as pl

FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP)."""
UNSHOWN: Final = r"[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]"
"""The characters :func:`events.shown.one_line` escapes, as a Polars pattern: a column
without any is written as it is, unlooked at row by row."""


def neutralised(text: str) -> str:
    """``text`` as a cell no spreadsheet runs.

    >>> neutralised('=HYPERLINK("http://evil.example","win")')
    '\\'=HYPERLINK("http://evil.example","win")'
    >>> neutralised("ann")
    'ann'
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(frame: pl.DataFrame) -> str:
    """``frame`` as CSV, its column names and every text cell :func:`neutralised`, and
    each one line (:func:`events.shown.one_line`)."""
    import polars as pl

    texts = [name for name, kind in frame.schema.items() if kind == pl.String]
    frame = frame.with_columns(
        pl.col(name).map_elements(one_line, return_dtype=pl.String)
        for name in texts
        if frame[name].str.contains(UNSHOWN).any()
    )
    safe = frame.with_columns(
        pl.when(pl.any_horizontal(pl.col(name).str.starts_with(start) for start in FORMULA_STARTS))
        .then(pl.lit("'") + pl.col(name))
        .otherwise(pl.col(name))
        .alias(name)
        for name in texts
    )
    return safe.rename(lambda name: neutralised(one_line(name))).write_csv()
