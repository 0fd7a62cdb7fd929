"""Checks of a tunnel card laid on the maze (R-P1..R-P6)."""

from __future__ import annotations

from events import cards
from events.findings import Breach, Code
from events.maze import SIDE_NAMES, Cell, Maze, lying_sides
from events.said import say


def check_empty_cell(maze: Maze, cell: Cell) -> Breach | None:
    """R-P1: a tunnel card goes on an empty cell, never the start or a goal cell."""
    if cell == cards.START_CELL:
        return Breach(Code.ILLEGAL_PLACEMENT, "R-P1", say("%(cell)s is the start card's cell", cell=cell))
    if cell in cards.SLOT_AT:
        return Breach(
            Code.ILLEGAL_PLACEMENT,
            "R-P1",
            say("%(cell)s is the %(slot)s goal's cell", cell=cell, slot=cards.SLOT_AT[cell]),
        )
    if cell in maze.cells:
        return Breach(
            Code.ILLEGAL_PLACEMENT,
            "R-P1",
            say("%(cell)s already holds %(card)s", cell=cell, card=maze.cells[cell].card),
        )
    return None


def check_touches(maze: Maze, cell: Cell) -> Breach | None:
    """R-P2: the card touches at least one card already on the board, side to side."""
    if not maze.has_neighbour(cell):
        return Breach(Code.ILLEGAL_PLACEMENT, "R-P2", say("no card lies next to %(cell)s", cell=cell))
    return None


def check_sides_match(maze: Maze, cell: Cell, card: str, rotated: bool) -> Breach | None:
    """R-P4: every side touching a card matches it, open to open, closed to closed."""
    wrong = maze.mismatches(cell, lying_sides(card, rotated))
    if wrong:
        side, there = wrong[0]
        return Breach(
            Code.ILLEGAL_PLACEMENT,
            "R-P4",
            say(
                "%(card)s turned at %(cell)s does not match %(other)s on its %(side)s side"
                if rotated
                else "%(card)s at %(cell)s does not match %(other)s on its %(side)s side",
                card=card,
                cell=cell,
                other=maze.cells[there].card,
                side=SIDE_NAMES[side],
            ),
        )
    return None


def check_path_to_start(maze: Maze, cell: Cell, card: str, rotated: bool) -> Breach | None:
    """R-P5: an uninterrupted path from the start enters the new card through one of
    its open sides (cards cut off by a rockfall and the unjoined setup card do not count)."""
    if not maze.enters(cell, lying_sides(card, rotated)):
        return Breach(
            Code.ILLEGAL_PLACEMENT,
            "R-P5",
            say("no uninterrupted path from the start reaches %(card)s at %(cell)s", card=card, cell=cell),
        )
    return None


def check_placement(maze: Maze, cell: Cell, card: str, rotated: bool) -> Breach | None:
    """The first of R-P1, R-P2, R-P4, R-P5 that a placement breaks, if any.

    R-P3 (never crosswise) cannot be broken in the log format: ``rotated`` only turns
    a card by 180°. R-P6 is R-A2's broken-tool check (``rules.actions``).
    """
    return (
        check_empty_cell(maze, cell)
        or check_touches(maze, cell)
        or check_sides_match(maze, cell, card, rotated)
        or check_path_to_start(maze, cell, card, rotated)
    )
