"""How far the maze is from a goal, counted the way a player counts: cards still to lay,
around the cards already lying.

The basic bots measure straight-line distance from the open ends to a goal, so a dead
end laid across the way costs nothing in their eyes. A :class:`Survey` counts the empty
cells a path would have to fill, going round every card on the table (a breadth-first
search from the goal over empty cells), once per goal per turn; a play is then judged by
how the count changes. Everything here reads only what the whole table sees: the cards
lying face up, the face-down goals as cells that cannot be entered.

Sides are plain ints in these loops (:func:`events.maze.around`): the questions are
asked hundreds of times a turn, and :class:`~events.cards.Side` arithmetic costs several
times more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from events import cards
from events.maze import Cell, Maze, around, lying_sides
from events.simulate.moves import open_cells

FAR: Final = 99
"""The count for a goal no path can reach any more."""
X_RANGE: Final = range(-3, 13)
Y_RANGE: Final = range(-8, 9)
"""The part of the table a path toward the goals can use; a path beyond it only wanders,
and keeping the search inside it keeps each turn's counting small."""


def on_table(cell: Cell) -> bool:
    return cell[0] in X_RANGE and cell[1] in Y_RANGE


def steps_to(goal: Cell, taken: Iterable[Cell]) -> dict[Cell, int]:
    """For each empty cell of the table: how many cards, that cell's included, a path
    through it needs to open onto ``goal``, going round the ``taken`` cells."""
    blocked = set(taken)
    counts: dict[Cell, int] = {}
    wave = [there for _, there, _ in around(goal) if there not in blocked and on_table(there)]
    for cell in wave:
        counts[cell] = 1
    step = 1
    while wave:
        step += 1
        nxt = []
        for here in wave:
            for _, there, _ in around(here):
                if there not in counts and there not in blocked and on_table(there):
                    counts[there] = step
                    nxt.append(there)
        wave = nxt
    return counts


class Survey:
    """One turn's count of the maze: its open ends and, for each goal still face down,
    the cards a path needs from each empty cell."""

    def __init__(self, maze: Maze, slots: Iterable[str]) -> None:
        self.maze = maze
        self.ends = open_cells(maze)
        self.steps = {slot: steps_to(cards.GOAL_CELLS[slot], maze.cells) for slot in slots}

    def need(self, slot: str, ends: Iterable[Cell] | None = None) -> int:
        """The fewest cards still to lay before the path reaches ``slot``."""
        counts = self.steps[slot]
        return min((counts.get(c, FAR) for c in (self.ends if ends is None else ends)), default=FAR)

    def ends_after_path(self, cell: Cell, card: str, rotated: bool) -> set[Cell]:
        """The open ends once ``card`` lies at ``cell`` (one of the open ends)."""
        ends = set(self.ends)
        ends.discard(cell)
        if card in cards.TUNNEL_CARDS and not cards.TUNNEL_CARDS[card].dead_end:
            sides = lying_sides(card, rotated)
            cells = self.maze.cells
            for side, there, _ in around(cell):
                if sides & side and there not in cells:
                    ends.add(there)
        return ends

    def opens_onto(self, cell: Cell, card: str, rotated: bool) -> list[str]:
        """The face-down goals a passable ``card`` at ``cell`` would open onto."""
        if cards.TUNNEL_CARDS[card].dead_end:
            return []
        sides = lying_sides(card, rotated)
        cells = self.maze.cells
        found = []
        for side, there, _ in around(cell):
            if sides & side and there in cards.SLOT_AT:
                other = cells.get(there)
                if other is not None and other.is_face_down_goal:
                    found.append(cards.SLOT_AT[there])
        return found

    def need_blocked(self, slot: str, cell: Cell, ends: Iterable[Cell]) -> int:
        """The count for ``slot`` with ``cell`` taken by a card no path goes through."""
        counts = steps_to(cards.GOAL_CELLS[slot], [*self.maze.cells, cell])
        return min((counts.get(c, FAR) for c in ends), default=FAR)
