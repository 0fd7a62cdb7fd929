"""Role and hand tables of R-S1 and R-S4, by ruleset and table size.

Kept as data so a ruling (such as the 10-player tournament row) is one line to read
and one line to change.
"""

from __future__ import annotations

from typing import Final, Literal

Role = Literal["gold_digger", "saboteur", "selfish_dwarf"]
ROLES: Final[tuple[Role, ...]] = ("gold_digger", "saboteur", "selfish_dwarf")
Ruleset = Literal["tournament", "base"]
Stage = Literal["preliminary", "semifinal", "final"]
"""A tournament's stages (R-T): named here beside the rulesets, not with the log's models
in :mod:`events.schema`, so that what only names them (a sentence's words, ``saboteur
--help``) need not build every model of the log to do so."""

BASE_ROLE_DECK: Final[dict[int, tuple[int, int]]] = {
    3: (1, 3),
    4: (1, 4),
    5: (2, 4),
    6: (2, 5),
    7: (3, 5),
    8: (3, 6),
    9: (3, 7),
    10: (4, 7),
}
"""R-S1 ``base``: saboteurs / gold diggers in the role deck, one card more than players."""

TOURNAMENT_ROLES: Final[dict[int, tuple[int, int, int]]] = {
    5: (1, 3, 1),
    6: (2, 3, 1),
    7: (2, 3, 2),
    8: (2, 6, 0),
    9: (3, 6, 0),
    10: (3, 7, 0),  # Ruling (rules.md R-S1): the sources give no 10-player row.
}
"""R-S1 ``tournament``: saboteurs / gold diggers / selfish dwarfs dealt, no card aside."""

PLAYER_RANGE: Final[dict[str, tuple[int, int]]] = {"base": (3, 10), "tournament": (5, 10)}
ROUND_LIMIT: Final[dict[str, int]] = {"base": 3, "tournament": 4}
"""Most rounds a game may plan (R-W3): the 28 gold cards never run out in base."""


def hand_size(players: int) -> int:
    """Cards dealt to each player (R-S4): 6 with 3–5 players, 5 with 6–7, 4 with 8–10."""
    if players <= 5:
        return 6
    if players <= 7:
        return 5
    return 4


def gold_cards_drawn(players: int) -> int:
    """Gold cards the connector draws in base (R-W2): one per player, 9 with 10."""
    return min(players, 9)


def base_saboteur_share(saboteurs: int) -> int:
    """Nuggets each saboteur takes when the gold is not reached in base (R-W2)."""
    if saboteurs <= 1:
        return 4
    if saboteurs <= 3:
        return 3
    return 2


def tournament_saboteur_points(saboteurs: int) -> int:
    """Points each saboteur scores when the gold is not reached (R-W1).

    The sources give 4 for one saboteur and 3 each for two or three; a table with more
    (only possible through ``options.roles``) keeps 3 each.
    """
    return 4 if saboteurs == 1 else 3
