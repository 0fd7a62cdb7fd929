"""Output as the command line writes it: CSV for spreadsheets, which run what looks like
a formula (:func:`analytics.spreadsheet.csv_text`, shared with the dashboard's
downloads), and tables for terminals, which are often narrower than the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from rich.console import Console
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table

from events.shown import one_line, shown

if TYPE_CHECKING:  # a frame comes from the analytics, which load Polars
    from rich.progress import Progress, ProgressColumn


class Terminal(Console):
    """A rich console that shows the text it prints through :func:`events.shown.shown`:
    a player's name, a table's label or a file name holding a terminal's escape
    sequence (``ESC [2J`` clears the screen, an OSC sequence retitles the window) is
    printed with the sequence escaped, never run. Every command prints through one.

    Each plain string is shown so before it is laid out (:meth:`render_str`), and every
    segment of text once more as it is written (a :class:`rich.text.Text` made of a
    name reaches the terminal without the first); rich's own control segments (the
    cursor's moves) and the styles it renders as escape sequences are left alone.

    Rich's emoji codes are off: a player named ``:smile:`` is printed as typed, not as
    😄 (markup is escaped where names are printed; the codes are not markup)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def render_str(self, text: str, **options: Any) -> Any:  # rich's Text
        return super().render_str(shown(text), **options)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control or segment.text.isprintable() else Segment(shown(segment.text), segment.style)
            for segment in buffer
        )


LINE_BREAKERS: Final = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}
"""Characters JSON may hold raw in a string that some readers take for a line's end:
Python's ``str.splitlines``, a JavaScript before ES2019 (``JSON.parse`` of a line)."""


def json_text(value: Any, **options: Any) -> str:
    """``value`` as JSON for ``--json`` (``json.dumps`` ``options`` passed on): its text as
    written (``ensure_ascii`` off: a name in Greek stays Greek), but with the characters
    of :data:`LINE_BREAKERS` escaped, so that a report is one line for every reader (a
    referee's note holding a raw U+2028 split a JSON Lines report in two for
    ``splitlines``). Outside its strings JSON holds none of them.

    >>> print(json_text({"note": "a" + chr(0x2028) + "b", "name": "Ζωή"}))
    {"note": "a\\u2028b", "name": "Ζωή"}
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    for raw, escaped in LINE_BREAKERS.items():
        text = text.replace(raw, escaped)
    return text


def fits(console: Console, table: Table) -> bool:
    """Whether ``table`` fits ``console`` with no word broken: each ``no_wrap`` column
    (codes, ids, statuses) whole, each other column at least its ``min_width`` and its
    longest word. Rich otherwise squeezes a table into any width by breaking words
    ("wrong_tabl / e"), so a command shows rows that do not fit some other way, a few
    lines each. Pins each ``no_wrap`` column's ``min_width`` to its widest cell."""
    unbounded = console.options.update_width(UNBOUNDED)
    for column in table.columns:
        if column.no_wrap:
            cells = [column.header, *column.cells]
            column.min_width = max(Measurement.get(console, unbounded, cell).maximum for cell in cells)
    return Measurement.get(console, unbounded, table).minimum <= console.width


UNBOUNDED: Final = 100_000
"""A width no terminal has: a table measured in it says how wide it needs to be."""


def finding_words(row: dict[str, Any], lang: str = "en") -> str:
    """Where a finding is and what it says, as one sentence in ``lang``: line, round and
    player (those it names), code (rule): message (from its stored sentence, ``said``)."""
    from events.language import stored_words, words
    from events.said import say

    where = [
        *([words(say("line %(line)s", line=row["line"]), lang)] if row["line"] is not None else []),
        *([words(say("round %(round)s", round=row["round"]), lang)] if row["round"] is not None else []),
        *([row["player"]] if row["player"] is not None else []),
    ]
    message = stored_words(row.get("said"), row["message"], lang)
    # one line whatever it quotes: a referee's note with a line break printed a line that
    # read as the tool's own
    return one_line(" · ".join([*where, f"{row['code']} ({row['rule']}): {message}"]))


def file_progress(title: str, console: Console, *counts: ProgressColumn) -> Progress:
    """A bar of files done out of all, titled ``title`` (already in the reader's
    language), with ``counts`` beside the files and the time gone by. It shows only on a
    terminal and leaves nothing behind when done, so a script's output and a log stay
    clean. (Rich's progress is imported here, by the commands that show one.)"""
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn(f"[bold]{escape(title)}"),
        BarColumn(),
        MofNCompleteColumn(),
        *counts,
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
