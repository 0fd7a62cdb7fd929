"""Times typed on the command line: one reading for every option that takes one.

An organiser types ``2026-11-29T14:00`` as often as ``2026-11-29T14:00:00+01:00``; both
are read, the first as UTC (the store keeps every time in UTC), so ``--as-of`` and
``--since`` never disagree about the same text. A bare date is the start of that day,
or its end for an option that reads "up to" (``--until``). ``--as-of`` reads a time as
the whole of what it names (:func:`through`): the standings as of a day are those at its
end, and as of ``14:03:11`` — a time as ``tournament log`` shows it, cut to the second —
they hold what was recorded in that second.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Final

import typer

from events.said import say

ZONES: Final = (say("ISO 8601: 2026-11-29T14:00, 2026-11-29T14:00+01:00 (UTC when no zone is given)"),)
"""What a refused time says about the times taken, in the reader's language (a value of
a sentence: it was English inside a Dutch one)."""


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
    >>> moment("2026-11-29T14:00:00z", "--as-of").isoformat()  # RFC 3339 allows z
    '2026-11-29T14:00:00+00:00'
    >>> moment("2016-12-31T23:59:60Z", "--since").isoformat()  # a leap second, copied from a log
    '2016-12-31T23:59:59.999999+00:00'
    >>> moment("2016-12-31T23:59:60", "--since").isoformat()  # typed with no zone: UTC
    '2016-12-31T23:59:59.999999+00:00'
    """
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            start = datetime(day.year, day.month, day.day, tzinfo=UTC)
            return _later(start, timedelta(days=1)) if end else start
        read = _leap_second(text) or datetime.fromisoformat(text[:-1] + "Z" if text.endswith("z") else text)
    except ValueError:
        from cli.speech import told

        said = say("not a date or time: %(written)s (%(zones)s)", written=repr(text), zones=ZONES)
        raise typer.BadParameter(told(said), param_hint=option) from None
    read = read if read.tzinfo is not None else read.replace(tzinfo=UTC)
    try:
        read.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:00-01:00 lies past the last moment a store can name
        return (datetime.min if read.year == 1 else datetime.max).replace(tzinfo=UTC)
    return read


def zoned(text: str) -> str:
    """A time as typed, with the zone it was read in where it names none, for a heading
    or a printed sheet to say: the reader's clock is not UTC.

    >>> zoned("2026-11-29T14:00"), zoned("2026-11-29"), zoned("2026-11-29T14:00+01:00"), zoned("2026-11-29T14:00Z")
    ('2026-11-29T14:00 UTC', '2026-11-29 UTC', '2026-11-29T14:00+01:00', '2026-11-29T14:00Z')
    >>> zoned("2016-12-31T23:59:60"), zoned("2016-12-31T23:59:60Z")
    ('2016-12-31T23:59:60 UTC', '2016-12-31T23:59:60Z')
    """
    if len(text) == 10:
        return f"{text} UTC"
    typed = text[:-1] + "Z" if text.endswith("z") else text
    if typed[17:19] == "60":  # a leap second: its zone is what counts here
        typed = typed[:17] + "59" + typed[19:]
    try:
        named = datetime.fromisoformat(typed)
    except ValueError:
        return text
    return text if named.tzinfo is not None else f"{text} UTC"


def _leap_second(text: str) -> datetime | None:
    """A leap second as a log may hold it (``23:59:60``, UTC; :func:`events.schema.parse_timestamp`:
    the last moment of its day a datetime can hold), ``None`` for any other text; a
    ``ValueError`` for a ``:60`` that is no leap second."""
    if text[17:19] != "60":
        return None
    from events.schema import parse_timestamp

    try:
        return parse_timestamp(text)
    except ValueError:  # one typed with no zone is UTC, as every other time here
        return parse_timestamp(text + "Z")


_TIME_OF_DAY: Final = re.compile(r"\d{4}-?\d{2}-?\d{2}[Tt ](\d{2})(:?\d{2})?(:?\d{2})?(?:[.,](\d+))?")
"""The time of day a date-time names, in the forms :meth:`datetime.fromisoformat` reads:
its hour, minutes, seconds and fraction, each there or not."""


def through(text: str, option: str) -> datetime:
    """The last microsecond of what ``text`` names (:func:`moment`): of the day for a
    bare date, of the minute for ``14:03``, of the second for ``14:03:11``, of its last
    digit for a fraction. Read inclusively, "as of" a time covers everything recorded
    within it, however finely the store kept the time.

    >>> through("2026-11-29", "--as-of").isoformat()
    '2026-11-29T23:59:59.999999+00:00'
    >>> through("2026-11-29 14:03", "--as-of").isoformat()
    '2026-11-29T14:03:59.999999+00:00'
    >>> through("2026-11-29T14:03:11+01:00", "--as-of").isoformat()
    '2026-11-29T14:03:11.999999+01:00'
    >>> through("2026-11-29T14:03:11.25Z", "--as-of").isoformat()
    '2026-11-29T14:03:11.259999+00:00'
    >>> through("2016-12-31T23:59:60.5Z", "--as-of").isoformat()
    '2016-12-31T23:59:59.999999+00:00'
    """
    start = moment(text, option)
    if _leap_second(text) is not None:  # read as its day's last moment already
        return start
    named = _TIME_OF_DAY.match(text)
    if named is None:
        unit = timedelta(days=1)
    elif named[4] is not None:
        unit = timedelta(microseconds=10 ** max(0, 6 - len(named[4])))
    elif named[3] is not None:
        unit = timedelta(seconds=1)
    elif named[2] is not None:
        unit = timedelta(minutes=1)
    else:
        unit = timedelta(hours=1)
    return _later(start, unit - timedelta(microseconds=1))


def _later(start: datetime, step: timedelta) -> datetime:
    """``start`` and ``step`` on, or the last moment a datetime holds past it (the end of
    9999-12-31: "until" or "as of" that day names everything)."""
    try:
        return start + step
    except OverflowError:
        return datetime.max.replace(tzinfo=start.tzinfo)
