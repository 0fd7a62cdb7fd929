"""How a simulated game is told apart from a played one: by its id.

The log format has no field that says who played a game, and a log must stay exactly
what the format allows. So every game id the simulator makes begins with ``sim:`` (one
game; a tournament given its own id) or ``sim-`` (a simulated tournament's default id,
``sim-open-7``; a simulated archive), and the
statistics count the rounds of such games as played by bots. A game given an id of
one's own (``simulate game --game-id``) is not marked.
"""

from __future__ import annotations

from typing import Final

PREFIXES: Final = ("sim:", "sim-")


def is_simulated(game_id: str) -> bool:
    """Whether ``game_id`` is one the simulator made."""
    return game_id.startswith(PREFIXES)


def simulated_id(game_id: str) -> str:
    """``game_id`` marked as the simulator's (unchanged when it already is)."""
    return game_id if is_simulated(game_id) else f"sim:{game_id}"
