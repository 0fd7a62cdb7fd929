"""The card catalogue of ``cards.md`` as data.

Everything the rules need to know about a card is here and nowhere else: which sides of
a tunnel card are open, whether it is a dead end, what an action card does, and how many
copies the box holds. Rules read these tables; they never spell a card code themselves.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import IntFlag
from typing import Final, Literal


class Side(IntFlag):
    """One side of a cell; a card's open sides are a union of these."""

    N = 1
    E = 2
    S = 4
    W = 8


ALL_SIDES: Final = (Side.N, Side.E, Side.S, Side.W)
OPPOSITE: Final = {Side.N: Side.S, Side.E: Side.W, Side.S: Side.N, Side.W: Side.E}
STEP: Final = {Side.N: (0, -1), Side.E: (1, 0), Side.S: (0, 1), Side.W: (-1, 0)}
"""Where the neighbour on each side lies: ``y`` grows southward (event-log.md)."""


def rotate(sides: int) -> int:
    """Turn a set of open sides by 180°: N<->S and E<->W (R-P3: never crosswise)."""
    return ((sides << 2) | (sides >> 2)) & 0b1111


def parse_sides(code: str) -> int:
    """The open sides named by a code such as ``NES`` or ``NSx``."""
    mask = 0
    for letter in code.rstrip("x"):
        mask |= Side[letter].value
    return mask


@dataclass(frozen=True, slots=True)
class TunnelCard:
    """A path card: its open sides as printed, and whether its centre is blocked."""

    code: str
    sides: int
    dead_end: bool
    copies: int

    @property
    def passable(self) -> bool:
        """A dead end lets a path in but not through (R-P5)."""
        return not self.dead_end

    def __reduce__(self) -> tuple[type[TunnelCard], tuple[object, ...]]:
        """Rebuilt through ``__init__`` (see :meth:`events.state.Outcome.__reduce__`)."""
        return TunnelCard, (self.code, self.sides, self.dead_end, self.copies)


def _tunnel(code: str, copies: int) -> TunnelCard:
    return TunnelCard(code, parse_sides(code), code.endswith("x"), copies)


TUNNEL_CARDS: Final[dict[str, TunnelCard]] = {
    card.code: card
    for card in (
        _tunnel("NESW", 5),
        _tunnel("NES", 5),
        _tunnel("NEW", 5),
        _tunnel("NS", 4),
        _tunnel("EW", 3),
        _tunnel("NE", 5),
        _tunnel("NW", 4),
        _tunnel("NESWx", 1),
        _tunnel("NESx", 1),
        _tunnel("NEWx", 1),
        _tunnel("NSx", 1),
        _tunnel("EWx", 1),
        _tunnel("NEx", 1),
        _tunnel("NWx", 1),
        _tunnel("Nx", 1),
        _tunnel("Ex", 1),
    )
}

Tool = Literal["pick", "lamp", "cart"]
TOOLS: Final[tuple[Tool, ...]] = ("pick", "lamp", "cart")

BREAK_CARDS: Final[dict[str, Tool]] = {
    "break_pick": "pick",
    "break_lamp": "lamp",
    "break_cart": "cart",
}
"""Broken-tool cards and the tool each one breaks (R-A1)."""

REPAIR_CARDS: Final[dict[str, tuple[Tool, ...]]] = {
    "repair_pick": ("pick",),
    "repair_lamp": ("lamp",),
    "repair_cart": ("cart",),
    "repair_pick_lamp": ("pick", "lamp"),
    "repair_pick_cart": ("pick", "cart"),
    "repair_lamp_cart": ("lamp", "cart"),
}
"""Repair cards and the tools each can mend; two tools make a double repair (R-A4)."""

ACTION_COPIES: Final[dict[str, int]] = {
    "break_pick": 3,
    "break_lamp": 3,
    "break_cart": 3,
    "repair_pick": 2,
    "repair_lamp": 2,
    "repair_cart": 2,
    "repair_pick_lamp": 1,
    "repair_pick_cart": 1,
    "repair_lamp_cart": 1,
    "rockfall": 3,
    "map": 6,
}
ROCKFALL: Final = "rockfall"
MAP: Final = "map"
TOOL_CARDS: Final = frozenset(BREAK_CARDS) | frozenset(REPAIR_CARDS)
ACTION_CARDS: Final = frozenset(ACTION_COPIES)

DECK: Final[Counter[str]] = Counter({**{c.code: c.copies for c in TUNNEL_CARDS.values()}, **ACTION_COPIES})
"""The round's deck (R-S3): all 40 tunnel cards and all 27 action cards."""

DECK_CARDS: Final = frozenset(DECK)

GoalCode = Literal["goal_gold", "goal_stone_ne", "goal_stone_nw"]
GOAL_SIDES: Final[dict[str, int]] = {
    "goal_gold": parse_sides("NESW"),
    "goal_stone_ne": parse_sides("NE"),
    "goal_stone_nw": parse_sides("NW"),
}
"""Goal cards as printed; all three are passable once face up (R-G3)."""
GOLD: Final = "goal_gold"
UNSEEN: Final = "?"
"""A card the log does not show: in an observed log's hands and draw pile, and a goal
until it is turned up. Counting these is how an observed replay judges R-T5 and R-E2."""

START_SIDES: Final = parse_sides("NESW")
START_CELL: Final = (0, 0)
SETUP_CELL: Final = (4, 0)
"""Where the tournament's setup card lies (R-S7 ruling: the middle of the map)."""

Slot = Literal["top", "middle", "bottom"]
SLOTS: Final[tuple[str, ...]] = ("top", "middle", "bottom")
GOAL_CELLS: Final[dict[str, tuple[int, int]]] = {
    "top": (8, -2),
    "middle": (8, 0),
    "bottom": (8, 2),
}
SLOT_AT: Final[dict[tuple[int, int], str]] = {cell: slot for slot, cell in GOAL_CELLS.items()}

GOLD_SUPPLY: Final[Counter[int]] = Counter({1: 16, 2: 8, 3: 4})
"""The 28 gold nugget cards of the base game by value (R-S5): 44 nuggets."""


def is_tunnel(code: str) -> bool:
    """Whether ``code`` is a tunnel (path) card of the deck."""
    return code in TUNNEL_CARDS


assert sum(c.copies for c in TUNNEL_CARDS.values()) == 40
assert sum(ACTION_COPIES.values()) == 27
assert sum(GOLD_SUPPLY.values()) == 28
