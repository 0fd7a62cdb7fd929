"""What one player can know at the table, and what they make of it.

A :class:`View` is everything a bot may look at: its own hand and role, the public
maze, the broken tools in play, the goals it has seen (its own map peeks and the goals
turned up) and the public record of who played what. The face-down goal cards lie in
the maze's cells, but the questions bots ask of the maze (connectivity, open cells,
side matching) never read them; a test permutes unseen goals and checks no bot's
choice changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from events import cards
from events.maze import Cell, Maze

GOAL_COORDS: Final = cards.GOAL_CELLS


@dataclass(frozen=True, slots=True)
class Deed:
    """One public play, as everybody at the table saw it."""

    player: str
    kind: str
    """``path``, ``dead_end``, ``break``, ``repair``, ``rockfall``, ``map`` or ``discard``."""
    target: str | None = None
    gain: int = 0
    """For tunnel cards: how much closer to the goal the player aimed at the maze came
    (the basic bots' tally, which knows the player's own peeks)."""
    card: str = ""
    """The card played (a discard's card is face down: empty)."""
    cell: Cell | None = None
    """Where a tunnel card was laid or a rockfall fell."""
    cleared: bool = False
    """For a rockfall: the card it took away was a dead end."""
    toward: int = 0
    """For tunnel cards: how much closer to :func:`public_target` the maze came, as
    anyone at the table can judge it."""


@dataclass
class View:
    """The table through one player's eyes."""

    player: str
    role: str
    hand: list[str]
    maze: Maze
    broken: dict[str, set[str]]
    players: list[str]
    seen_goals: dict[str, str]
    pile_count: int
    deeds: list[Deed] = field(default_factory=list)
    self_break: bool = False

    def gold_slot(self) -> str | None:
        """The slot this player knows holds the gold, if any."""
        for slot, code in self.seen_goals.items():
            if code == cards.GOLD:
                return slot
        return None

    def candidate_slots(self) -> list[str]:
        """Face-down slots that may still hold the gold, as far as this player knows."""
        known = self.gold_slot()
        if known is not None:
            return [known]
        return [s for s in cards.SLOTS if self.maze.face_down(s) and s not in self.seen_goals]

    def target(self) -> Cell:
        """The goal cell to dig toward (or to block): the known gold, else the likeliest
        unknown slot; the middle first, as it is closest to the start."""
        slots = self.candidate_slots() or [s for s in cards.SLOTS if self.maze.face_down(s)] or ["middle"]
        order = {"middle": 0, "top": 1, "bottom": 1}
        slot = min(slots, key=lambda s: (order[s], s))
        return GOAL_COORDS[slot]

    def suspicion(self, other: str) -> int:
        """How saboteur-like ``other`` has played so far this round (higher: more)."""
        score = 0
        for deed in self.deeds:
            if deed.player != other:
                continue
            if deed.kind == "dead_end":
                score += 2
            elif deed.kind == "rockfall":
                score += 1
            elif deed.kind == "path":
                score += 1 if deed.gain < 0 else -1 if deed.gain > 0 else 0
            elif deed.kind == "break" and deed.target == self.player and self.role != "saboteur":
                score += 2
            elif deed.kind == "break" and deed.target is not None and self._trusted(deed.target):
                score += 1
            elif deed.kind == "repair" and deed.target is not None and deed.target != other:
                score -= 1
        return score

    def _trusted(self, other: str) -> bool:
        return sum(1 if d.kind == "path" and d.gain > 0 else 0 for d in self.deeds if d.player == other) >= 2


def public_target(maze: Maze) -> Cell:
    """The goal the whole table would say a tunnel heads for, knowing no peek: the middle
    while it is face down, else another face-down goal."""
    slots = [s for s in cards.SLOTS if maze.face_down(s)] or ["middle"]
    return GOAL_COORDS[min(slots, key=lambda s: (s != "middle", s))]


def distance(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
