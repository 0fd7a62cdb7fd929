"""The Wilson score interval: how far a win rate from few rounds can be trusted.

The statistics compute it in SQL (:func:`wilson_sql`) so a frame arrives complete; the
Python :func:`wilson` is the same formula, the reference the tests hold the SQL to. The
Wilson interval rather than the textbook ``p ± z·√(p(1−p)/n)`` because it stays inside
[0, 1] and does not collapse to a point at 0 or n wins, which small cells often have.
"""

from __future__ import annotations

import math
from typing import Final

Z95: Final = 1.959963984540054
"""The 97.5th percentile of the standard normal: a two-sided 95% interval."""


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson interval of ``wins`` successes in ``n`` trials (``None`` when n = 0),
    exactly 0 below at no wins and 1 above at n wins, as the formula gives.

    >>> low, high = wilson(8, 10)
    >>> round(low, 4), round(high, 4)
    (0.4902, 0.9433)
    """
    if n <= 0:
        return None
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, where the
    high = 1.0 if wins >= n else min(1.0, centre + half)  # floats would leave 3e-17 or 0.99999…
    return low, high


def wilson_sql(wins: str, n: str, rate: str = "rate") -> str:
    """SQL select items ``rate, low, high`` for the column names ``wins`` and ``n`` (the
    first named ``rate``: a share that is no win rate says what it is).

    Only ever called with column names written in this package (never user input);
    the names are checked to be plain identifiers all the same. Null when n = 0.
    """
    if not (wins.isidentifier() and n.isidentifier() and rate.isidentifier()):
        raise ValueError(f"not column names: {wins!r}, {n!r}, {rate!r}")
    z2 = Z95 * Z95
    p = f"({wins}::DOUBLE / nullif({n}, 0))"
    centre = f"(({p} + {z2!r} / (2.0 * {n})) / (1.0 + {z2!r} / {n}))"
    half = f"({Z95!r} / (1.0 + {z2!r} / {n}) * sqrt({p} * (1.0 - {p}) / {n} + {z2!r} / (4.0 * {n} * {n})))"
    low = f"CASE WHEN {wins} <= 0 THEN 0.0 ELSE greatest(0.0, {centre} - {half}) END"
    high = f"CASE WHEN {wins} >= {n} THEN 1.0 ELSE least(1.0, {centre} + {half}) END"
    return f"{p} AS {rate}, CASE WHEN {n} > 0 THEN {low} END AS low, CASE WHEN {n} > 0 THEN {high} END AS high"
