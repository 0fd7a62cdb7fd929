"""The maze: the cards on the table, how their sides meet, and what the start reaches.

A cell holds one card lying as printed or turned 180° (R-P3). Whether a path runs from
the start card to a cell (R-P5) and which face-down goals are *reached* (R-G1) are global
questions: a rockfall can cut a branch off and a later card can join it back, so the
connected set is recomputed from the start after every removal and extended from the
new card after every placement (adding a card never disconnects anything).

This module only answers questions and applies changes it is told to apply; the rules
decide what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from events import cards
from events.cards import ALL_SIDES, OPPOSITE, STEP, Side, rotate

Cell = tuple[int, int]
CardKind = Literal["start", "tunnel", "goal"]


@dataclass(slots=True)
class Placed:
    """A card lying in the maze.

    ``sides`` are the open sides as the card lies (rotation applied). A face-down goal
    has no known sides: its ``sides`` are 0 and it is never compared (R-P4) nor entered.
    """

    card: str
    kind: CardKind
    rotated: bool
    sides: int
    passable: bool
    face_up: bool = True

    @property
    def is_face_down_goal(self) -> bool:
        return self.kind == "goal" and not self.face_up


_LYING: Final = {
    (code, rotated): (rotate(spec.sides) if rotated else spec.sides, spec.passable)
    for code, spec in cards.TUNNEL_CARDS.items()
    for rotated in (False, True)
}
"""Each tunnel card's open sides and passability as it lies, as printed or turned."""


def lying_sides(code: str, rotated: bool) -> int:
    """The open sides of a tunnel card as it would lie (R-P3: as printed or turned 180°)."""
    return _LYING[(code, rotated)][0]


def tunnel(code: str, rotated: bool) -> Placed:
    """A tunnel card of the catalogue as it would lie."""
    sides, passable = _LYING[(code, rotated)]
    return Placed(code, "tunnel", rotated, sides, passable)


_DIRS: Final = tuple((int(side), STEP[side][0], STEP[side][1], int(OPPOSITE[side])) for side in ALL_SIDES)
"""(side, dx, dy, the facing side) as plain ints: the hot loops below avoid enum arithmetic."""

Around = tuple[tuple[int, Cell, int], ...]
_AROUND: dict[Cell, Around] = {}
"""Each cell's four neighbours as (side, cell, the facing side), made once per cell."""


def around(cell: Cell) -> Around:
    """The four neighbours of ``cell`` as (side of ``cell``, neighbour, facing side),
    plain ints: the hot loops here and the simulator's bots ask it many times a turn."""
    around = _AROUND.get(cell)
    if around is None:
        x, y = cell
        around = _AROUND[cell] = tuple((side, (x + dx, y + dy), facing) for side, dx, dy, facing in _DIRS)
    return around


_GOAL_APPROACHES: Final = tuple(
    (slot, cell, tuple(((cell[0] - dx, cell[1] - dy), side) for side, dx, dy, _ in _DIRS))
    for slot, cell in cards.GOAL_CELLS.items()
)
"""For each goal: the cells beside it and the side of each that faces the goal."""
_BESIDE_GOALS: Final = frozenset(there for _, _, approaches in _GOAL_APPROACHES for there, _ in approaches)
"""Every cell beside a goal: while the path enters none of them, no goal is reached."""


def neighbours(cell: Cell) -> list[tuple[Side, Cell]]:
    """The four cells around ``cell``, each with the side of ``cell`` that faces it."""
    x, y = cell
    return [(side, (x + STEP[side][0], y + STEP[side][1])) for side in ALL_SIDES]


@dataclass
class Maze:
    """The cards on the table of one round, and the cells connected to the start."""

    cells: dict[Cell, Placed] = field(default_factory=dict)
    _connected: set[Cell] | None = None

    @classmethod
    def dealt(cls, goals: dict[str, str]) -> Maze:
        """The start card face up and the three goal cards face down (R-S2)."""
        maze = cls()
        maze.cells[cards.START_CELL] = Placed("start", "start", False, cards.START_SIDES, True)
        for slot, cell in cards.GOAL_CELLS.items():
            maze.cells[cell] = Placed(goals[slot], "goal", False, 0, True, face_up=False)
        return maze

    def copy(self) -> Maze:
        clone = Maze(
            {cell: Placed(p.card, p.kind, p.rotated, p.sides, p.passable, p.face_up) for cell, p in self.cells.items()}
        )
        clone._connected = None if self._connected is None else set(self._connected)
        return clone

    # -- questions ---------------------------------------------------------------

    def connected(self) -> frozenset[Cell] | set[Cell]:
        """Cells an uninterrupted path from the start enters (R-P5).

        A step from A to its neighbour B goes through an open side of A and the facing
        open side of B; only passable cards (not dead ends) are left again. Face-down
        goals are never entered: their sides are unknown until revealed (R-G1).
        """
        if self._connected is None:
            self._connected = set()
            self._spread(cards.START_CELL)
        return self._connected

    def _spread(self, start: Cell) -> None:
        """Add ``start``, a cell the path enters, and every cell the path goes on to."""
        connected = self._connected
        assert connected is not None
        connected.add(start)
        stack = [start]
        cells = self.cells
        while stack:
            here = stack.pop()
            placed = cells[here]
            if not placed.passable:
                continue
            sides = placed.sides
            for side, there, facing in around(here):
                if not sides & side:
                    continue
                if there in connected:
                    continue
                other = cells.get(there)
                if other is None or not other.face_up or not other.sides & facing:
                    continue
                connected.add(there)
                stack.append(there)

    def enters(self, cell: Cell, sides: int) -> bool:
        """Whether a card with open ``sides`` at empty ``cell`` would be entered by the
        path: a connected passable neighbour opens toward it through one of its own open
        sides (R-P5)."""
        connected = self.connected()
        cells = self.cells
        for side, there, facing in around(cell):
            if sides & side and there in connected:
                other = cells[there]
                if other.passable and other.sides & facing:
                    return True
        return False

    def mismatches(self, cell: Cell, sides: int) -> list[tuple[Side, Cell]]:
        """Sides of a card at ``cell`` that do not match their neighbour (R-P4): open
        against closed or closed against open. Face-down goals are not compared, nor a
        goal turned up that an observed log never named (its sides are unknown)."""
        wrong = []
        cells = self.cells
        for side, there, facing in around(cell):
            other = cells.get(there)
            if other is None or not other.face_up or other.card == cards.UNSEEN:
                continue
            if (not sides & side) != (not other.sides & facing):
                wrong.append((Side(side), there))
        return wrong

    def has_neighbour(self, cell: Cell) -> bool:
        """Whether any card lies side to side with ``cell`` (R-P2)."""
        cells = self.cells
        return any(there in cells for _, there, _ in around(cell))

    def reached_goals(self) -> list[str]:
        """Face-down goal slots, in slot order, that a passable card connected to the
        start opens toward (R-G1)."""
        connected = self.connected()
        if connected.isdisjoint(_BESIDE_GOALS):
            return []
        cells = self.cells
        reached = []
        for slot, cell, approaches in _GOAL_APPROACHES:
            if cells[cell].face_up:
                continue
            for there, side in approaches:
                if there in connected:
                    other = cells[there]
                    if other.passable and other.sides & side:
                        reached.append(slot)
                        break
        return reached

    def goal_ways(self, slot: str) -> tuple[bool, ...]:
        """How a goal may lie when revealed (R-G2): the one way its sides match the
        cards around it, or either way when both or neither do."""
        cell = cards.GOAL_CELLS[slot]
        printed = cards.GOAL_SIDES.get(self.cells[cell].card, cards.START_SIDES)  # one nobody saw: any way
        fits = [way for way in (False, True) if not self.mismatches(cell, rotate(printed) if way else printed)]
        return (fits[0],) if len(fits) == 1 else (False, True)

    # -- changes -----------------------------------------------------------------

    def place(self, cell: Cell, placed: Placed) -> None:
        """Lay a card on an empty cell and extend the connected set from it."""
        self.cells[cell] = placed
        if self._connected is not None and self.enters(cell, placed.sides):
            self._spread(cell)

    def remove(self, cell: Cell) -> Placed:
        """Take a tunnel card away (R-A5); connectivity is recomputed from the start."""
        placed = self.cells.pop(cell)
        self._connected = None
        return placed

    def reveal(self, slot: str, rotated: bool) -> None:
        """Turn a goal face up, lying as given (R-G2); the path may now run through it.
        A goal an observed log turned up without naming it (:data:`~events.cards.UNSEEN`)
        is taken as open on every side: what the path does through it is not seen, and
        a later reveal the path could only reach through it is not judged false."""
        cell = cards.GOAL_CELLS[slot]
        goal = self.cells[cell]
        printed = cards.GOAL_SIDES.get(goal.card, cards.START_SIDES)
        goal.face_up = True
        goal.rotated = rotated
        goal.sides = rotate(printed) if rotated else printed
        if self._connected is not None and self.enters(cell, goal.sides):
            self._spread(cell)

    def goal_card(self, slot: str) -> str:
        """The goal card at ``slot``: :data:`~events.cards.UNSEEN` while an observed log
        has not shown it."""
        return self.cells[cards.GOAL_CELLS[slot]].card

    def learn_goal(self, slot: str, card: str) -> None:
        """Name a face-down goal that an observed log only shows when it is turned up."""
        self.cells[cards.GOAL_CELLS[slot]].card = card

    def face_down(self, slot: str) -> bool:
        return self.cells[cards.GOAL_CELLS[slot]].is_face_down_goal


SIDE_NAMES: Final = {Side.N: "north", Side.E: "east", Side.S: "south", Side.W: "west"}
