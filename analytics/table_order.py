"""Tables in the order people number them: "2" before "10", "A2" before "A10".

A table's label is text (``"3"``, ``"A10"``, ``"Final"``). Sorted as text, "A10" came
before "A2"; sorted as a number where it is one and as text after, every label with a
letter was in text order. The key here cuts a label into its runs of digits and of
other characters, and compares the runs in turn: digits by their value, the rest
without regard to letter case, a run of digits before any other.
"""

from __future__ import annotations

import re
from typing import Final

_KEY: Final = (
    "list_transform(regexp_extract_all({label}, '[0-9]+|[^0-9]+'), "
    "lambda run: CASE WHEN regexp_full_match(run, '[0-9]+') THEN chr(1) || lpad(ltrim(run, '0'), 128, '0') "
    "ELSE chr(2) || lower(run) END)"
)


def by_table(label: str) -> str:
    """An ``ORDER BY`` term for the table labels in the SQL column ``label`` (a column
    name of this program's queries, never user input), then the label itself to settle
    what the key holds equal ("7" and "007")."""
    return f"{_KEY.format(label=label)}, {label}"


_RUNS: Final = re.compile(r"[0-9]+|[^0-9]+")


def table_key(label: str) -> tuple[tuple[tuple[int, int | str], ...], str]:
    """The same order in Python, for labels already read (:func:`by_table`): ``"2"``
    before ``"10"`` before ``"A2"`` before ``"A10"`` before ``"Final"``.

    >>> sorted(["A10", "Final", "10", "A2", "2"], key=table_key)
    ['2', '10', 'A2', 'A10', 'Final']
    """
    runs = tuple((0, int(run)) if run.isascii() and run.isdigit() else (1, run.lower()) for run in _RUNS.findall(label))
    return runs, label
