"""What a file is, by its name: a game log, a score sheet, a tournament description.

Kept apart from :mod:`ingest.sources` (which reads each kind, and imports the store) so
that ``saboteur audit`` can tell a log from the rest without loading any of it.
"""

from __future__ import annotations


def kind_of(name: str) -> str:
    """``log`` (``.jsonl``, ``.jsonl.gz``), ``score_sheet`` (``.csv``), ``tournament``
    (``.json``) or ``unknown``, whatever the letters' case.

    >>> kind_of("table-3.JSONL.gz"), kind_of("sheet.csv"), kind_of("notes.txt")
    ('log', 'score_sheet', 'unknown')
    """
    lowered = name.lower()
    if lowered.endswith((".jsonl", ".jsonl.gz")):
        return "log"
    if lowered.endswith(".csv"):
        return "score_sheet"
    if lowered.endswith(".json"):
        return "tournament"
    return "unknown"
