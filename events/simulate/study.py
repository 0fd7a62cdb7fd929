"""A balance study's unit: one dealt round played by a lineup of bots, and who won it.

Two lineups compared on the same deals are *paired*: a one-round game of a seed deals
the same roles, goals and cards whoever plays it (the deal is drawn before any bot
chooses), so the difference of the two lineups' results on one deal is the bots' alone,
and the interval on the mean difference is far narrower than two independent samples
would give.

A *trial* is what wins or loses as one, as ``stats roles`` counts it: gold diggers and
saboteurs win or lose as a team, one trial per round their role is in play; each selfish
dwarf wins alone, one trial per dwarf.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from events.schema import RoundStarted
from events.simulate.game import GameSpec, Table
from events.simulate.lineup import Lineup

Z95 = 1.959963984540054

TEAM_WIN = {"gold_digger": "gold_diggers", "saboteur": "saboteurs"}


def trials(ruleset: str, players: int, seed: int, lineup: Lineup) -> dict[str, list[bool]]:
    """Each role's trials in the one-round game of ``seed`` at a table of ``players``."""
    seats = tuple(f"p{i + 1}" for i in range(players))
    table = Table(GameSpec(f"study:{ruleset}:{players}:{seed}", seats, ruleset, 1, seed, bots=lineup))
    events = table.play()
    dealt = next(e for e in events if isinstance(e, RoundStarted))
    roles = dealt.roles or {}
    outcome = table.replay.state.outcomes[-1]
    found: dict[str, list[bool]] = {}
    for role, winner in TEAM_WIN.items():
        if role in roles.values():
            found[role] = [outcome.winner == winner]
    dwarfs = sorted(p for p, r in roles.items() if r == "selfish_dwarf")
    if dwarfs:
        found["selfish_dwarf"] = [outcome.winner == "selfish_dwarf" and outcome.connector == p for p in dwarfs]
    return found


@dataclass(frozen=True)
class Difference:
    """The mean of paired differences (second minus first) with its 95% interval."""

    first: float
    second: float
    mean: float
    low: float
    high: float
    n: int


def paired(first: Sequence[bool], second: Sequence[bool]) -> Difference:
    """How much more often ``second`` won than ``first`` on the same trials."""
    if len(first) != len(second):
        raise ValueError(f"{len(first)} trials against {len(second)}: not the same deals")
    n = len(first)
    if n == 0:
        raise ValueError("no trials")
    diffs = [int(b) - int(a) for a, b in zip(first, second, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return Difference(sum(first) / n, sum(second) / n, mean, mean - half, mean + half, n)
