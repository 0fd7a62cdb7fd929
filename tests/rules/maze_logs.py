"""Log helpers shared by the maze and goal tests (R-P, R-G): games whose hands hold the
cards played turn by turn, and a corridor east along y=0 toward the middle goal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.builder import LogBuilder

ROW = ("EW", "EW", "EW", "NEW", "NEW", "NESW", "NESW")
"""E-W passable cards for (1,0)…(7,0)."""
STONE_MIDDLE = {"top": "goal_gold", "middle": "goal_stone_ne", "bottom": "goal_stone_nw"}
"""The middle stone (open N, E as printed) must lie turned (open S, W) when reached from the west."""


def game(
    turns: Sequence[str], *, start: str = "ann", players: int = 3, ruleset: str = "base", **deal: Any
) -> LogBuilder:
    """A game whose hands hold ``turns``: the cards played turn by turn from ``start``."""
    log = LogBuilder(players=players, ruleset=ruleset)
    at = log.players.index(start)
    order = log.players[at:] + log.players[:at]
    hands = {p: list(turns[i :: len(order)]) for i, p in enumerate(order)}
    log.deal(start=start, hands=hands, **deal)
    return log


def lay(log: LogBuilder, card: str, x: int, y: int, rotated: bool = False, *, draw: bool = True) -> LogBuilder:
    """The player whose turn it is lays ``card`` (and draws)."""
    return log.path(log.turn, card, x, y, rotated, draw=draw)


def corridor(log: LogBuilder, upto: int) -> LogBuilder:
    """Lay :data:`ROW` from (1,0) to (upto,0), one card a turn."""
    for x in range(1, upto + 1):
        lay(log, ROW[x - 1], x, 0)
    return log
