"""Times typed on the command line: one reading for every option that takes one.

An organiser types ``2026-11-29T14:00`` as often as ``2026-11-29T14:00:00+01:00``; both
are read, the first as UTC (the store keeps every time in UTC), so ``--as-of`` and
``--since`` never disagree about the same text. A bare date is the start of that day,
or its end for an option that reads "up to" (``--until``).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Final

import typer

ZONES: Final = "ISO 8601: 2026-11-29T14:00, 2026-11-29T14:00+01:00 (UTC when no zone is given)"
"""What every time option's ``--help`` says about the times it takes."""


def moment(text: str, option: str, *, end: bool = False) -> datetime:
    """``text`` as an aware time: an ISO date or date-time, UTC when it names no zone; a
    bare date is the start of that day, or with ``end`` the start of the next one.
    Anything else is refused as ``option``'s bad value (exit 2).

    >>> moment("2026-11-29T14:00", "--since").isoformat()
    '2026-11-29T14:00:00+00:00'
    >>> moment("2026-11-29T14:00:00+01:00", "--as-of").isoformat()
    '2026-11-29T14:00:00+01:00'
    >>> moment("2026-11-29", "--until", end=True).isoformat()
    '2026-11-30T00:00:00+00:00'
    >>> moment("2026-11-29T14:00:00z", "--as-of").isoformat()
    '2026-11-29T14:00:00+00:00'
    """
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            start = datetime(day.year, day.month, day.day, tzinfo=UTC)
            return start + timedelta(days=1) if end else start
        read = datetime.fromisoformat(text[:-1] + "Z" if text.endswith("z") else text)  # RFC 3339 allows z
    except ValueError:
        from cli.speech import told
        from events.said import say

        said = say("not a date or time: %(written)s (%(zones)s)", written=repr(text), zones=ZONES)
        raise typer.BadParameter(told(said), param_hint=option) from None
    return read if read.tzinfo is not None else read.replace(tzinfo=UTC)
