"""Which rounds a statistic looks at: the filters every statistic shares.

A filter becomes a WHERE clause over the rounds (alias ``r``) joined to their games
(alias ``g``). The clause is put together from fixed fragments, one per filter that is
set, and every value travels as a query parameter: nothing a user types ever becomes
SQL text. Leaving unset filters out of the SQL (rather than ``? IS NULL OR …``) lets
DuckDB push the filters that are set down into its scans.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

DEFAULT_MIN_N: Final = 30
"""Cells with fewer trials than this are flagged: their rates are too unsteady to read."""

_FRAGMENTS: Final = {
    "tournament": "g.tournament = ?",
    "stage": "coalesce(g.stage, 'preliminary') = ?",  # a game's stage is preliminary where its header leaves it out
    "ruleset": "g.ruleset = ?",
    "since": "g.started_at >= ?",
    "until": "g.started_at < ?",
}


@dataclass(frozen=True)
class Filters:
    """The rounds to count, and the smallest sample worth reading.

    ``since`` is inclusive and ``until`` exclusive, both compared with the time the
    game started (``games.started_at``); a game with no known start (a score sheet)
    is left out whenever either is set. Naive datetimes are taken as UTC.
    ``clean_only`` keeps the rounds the audit found no error in (``rounds.errors = 0``).
    """

    tournament: str | None = None
    stage: str | None = None
    ruleset: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    clean_only: bool = False
    min_n: int = DEFAULT_MIN_N


EVERYTHING: Final = Filters()
"""No filter: every round in the store (the functions' default)."""


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def where(filters: Filters) -> tuple[str, list[Any]]:
    """The WHERE clause (``TRUE`` when nothing is filtered) and its parameters.

    >>> where(Filters(tournament="nl-open", clean_only=True))
    ('g.tournament = ? AND r.errors = 0', ['nl-open'])
    >>> where(Filters())
    ('TRUE', [])
    """
    clauses: list[str] = []
    params: list[Any] = []
    values: dict[str, Any] = {
        "tournament": filters.tournament,
        "stage": filters.stage,
        "ruleset": filters.ruleset,
        "since": _utc(filters.since) if filters.since is not None else None,
        "until": _utc(filters.until) if filters.until is not None else None,
    }
    for name, fragment in _FRAGMENTS.items():
        if values[name] is not None:
            clauses.append(fragment)
            params.append(values[name])
    if filters.clean_only:
        clauses.append("r.errors = 0")
    return (" AND ".join(clauses) or "TRUE"), params
