"""Every legal play of a hand on a table: the move generator the bots choose from.

This is the asking side of the rules (PokerKit's ``can_…``): it lists plays that the
checks of ``events.rules`` would accept, using the same maze questions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from events import cards
from events.maze import Cell, Maze, around, tunnel

SYMMETRIC = frozenset(code for code, c in cards.TUNNEL_CARDS.items() if cards.rotate(c.sides) == c.sides)
"""Cards that look the same turned 180° (``NESW``, ``NS``, ``EW``…): one way is enough."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card play: ``kind`` is path, tool, rockfall, map or discard."""

    kind: str
    card: str
    cell: Cell | None = None
    rotated: bool = False
    target: str | None = None
    tool: str | None = None
    goal: str | None = None


def open_cells(maze: Maze) -> set[Cell]:
    """Empty cells the path could enter: next to a connected passable card that opens
    toward them (R-P5)."""
    cells = maze.cells
    found: set[Cell] = set()
    for here in maze.connected():
        placed = cells[here]
        if not placed.passable:
            continue
        sides = placed.sides
        for side, there, _ in around(here):
            if sides & side and there not in cells and -50 <= there[0] <= 50 and -50 <= there[1] <= 50:
                found.add(there)
    return found


def path_plays(maze: Maze, card: str, frontier: set[Cell] | None = None) -> Iterator[Play]:
    """Every legal way to lay ``card`` (R-P1..R-P5)."""
    for cell in sorted(frontier if frontier is not None else open_cells(maze)):
        for rotated in (False,) if card in SYMMETRIC else (False, True):
            sides = tunnel(card, rotated).sides
            if maze.enters(cell, sides) and not maze.mismatches(cell, sides):
                yield Play("path", card, cell, rotated)


def tool_plays(
    card: str, player: str, players: list[str], broken: dict[str, set[str]], self_break: bool
) -> Iterator[Play]:
    """Every legal broken-tool or repair play of ``card`` (R-A1, R-A3, R-A4)."""
    if card in cards.BREAK_CARDS:
        tool = cards.BREAK_CARDS[card]
        for target in players:
            if (target != player or self_break) and tool not in broken.get(target, set()):
                yield Play("tool", card, target=target)
        return
    mends = cards.REPAIR_CARDS[card]
    for target in players:
        for tool in mends:
            if tool in broken.get(target, set()):
                yield Play("tool", card, target=target, tool=tool if len(mends) == 2 else None)


def rockfall_plays(maze: Maze) -> Iterator[Play]:
    """Every tunnel card a rockfall may remove (R-A5)."""
    for cell, placed in sorted(maze.cells.items()):
        if placed.kind == "tunnel":
            yield Play("rockfall", cards.ROCKFALL, cell)


def map_plays(maze: Maze) -> Iterator[Play]:
    """Every face-down goal a map may look at (R-A6)."""
    for slot in cards.SLOTS:
        if maze.face_down(slot):
            yield Play("map", cards.MAP, goal=slot)
