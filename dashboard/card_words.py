"""The game in the words a table uses: players by name, cards by what they are, a place
on the maze by the column and row the picture labels — never a log's codes.

The replay's steps (:mod:`dashboard.replay_view`) and the recording page
(:mod:`dashboard.recording.words`) both name things through here, so one place holds
the English; a translated catalogue can take its place later. Nothing here escapes:
a name comes from outside, so a page shows these words through
:func:`dashboard.markup.escape` (or in a table's cell, which is text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from events import cards

Cell = tuple[int, int]

ROLE_WORDS: Final = {"gold_digger": "Gold digger", "saboteur": "Saboteur", "selfish_dwarf": "Selfish dwarf"}
TOOL_WORDS: Final = {"pick": "pickaxe", "lamp": "lamp", "cart": "cart"}
SIDE_WORDS: Final = {"N": "north", "E": "east", "S": "south", "W": "west"}
GOAL_WORDS: Final = {
    cards.GOLD: "the gold",
    "goal_stone_ne": "stone (north–east)",
    "goal_stone_nw": "stone (north–west)",
}
_SHAPES: Final = {4: "crossroads", 3: "T-junction", 1: "dead end"}
_TURNED: Final = str.maketrans("NESW", "SWNE")


def who(player: str | None, names: Mapping[str, str]) -> str:
    """A player by the name the table knows them by: the registered name, else the
    log's id.

    >>> who("dirk-evans", {"dirk-evans": "Dirk Evans"}), who("ann", {}), who(None, {})
    ('Dirk Evans', 'ann', 'nobody')
    """
    if player is None:
        return "nobody"
    return names.get(player, player)


def role_words(role: str | None) -> str:
    """A role card by its name (``""`` for a role not known)."""
    return "" if role is None else ROLE_WORDS.get(role, role)


def tool_words(tool: str) -> str:
    """A tool by its name: ``pick`` is a pickaxe."""
    return TOOL_WORDS.get(tool, tool)


def _open_sides(code: str, rotated: bool) -> list[str]:
    laid = code.rstrip("x").translate(_TURNED) if rotated else code.rstrip("x")
    return [SIDE_WORDS[side] for side in "NESW" if side in laid]


def path_words(code: str, rotated: bool = False) -> str:
    """A tunnel card by its shape and the sides it opens as it lies, and ``turned``
    when it lies turned round.

    >>> path_words("EW"), path_words("NE", rotated=True), path_words("NESx")
    ('straight path (east–west)', 'curve (south–west), turned', 'dead-end T-junction (north, east, south)')
    >>> path_words("NESW"), path_words("Nx")
    ('crossroads', 'dead end (north)')
    """
    sides = _open_sides(code, rotated)
    dead = code.endswith("x")
    if len(sides) == 2:
        straight = set(sides) in ({"north", "south"}, {"east", "west"})
        shape = f"{'straight path' if straight else 'curve'} ({'–'.join(sides)})"
    elif len(sides) == 4:
        shape = "crossroads"
    else:
        shape = f"{_SHAPES[len(sides)]} ({', '.join(sides)})"
    if dead and len(sides) > 1:
        shape = f"dead-end {shape}"
    return f"{shape}, turned" if rotated else shape


def card_words(card: str, rotated: bool = False) -> str:
    """Any card by its plain name (a code the rules do not know stays as it is).

    >>> card_words("break_lamp"), card_words("repair_pick_cart"), card_words("rockfall")
    ('broken lamp', 'repair pickaxe or cart', 'rockfall')
    >>> card_words("EW"), card_words("goal_gold"), card_words("?")
    ('straight path (east–west)', 'the gold', 'a card not seen')
    """
    if card in cards.TUNNEL_CARDS:
        return path_words(card, rotated)
    if card in cards.BREAK_CARDS:
        return f"broken {tool_words(cards.BREAK_CARDS[card])}"
    if card in cards.REPAIR_CARDS:
        return "repair " + " or ".join(tool_words(t) for t in cards.REPAIR_CARDS[card])
    if card == cards.UNSEEN:
        return "a card not seen"
    return GOAL_WORDS.get(card, card)


def a_card(card: str, rotated: bool = False) -> str:
    """A card with its article, as a sentence names it.

    >>> a_card("EW"), a_card("map"), a_card("break_pick")
    ('a straight path (east–west)', 'a map', 'a broken pickaxe')
    """
    name = card_words(card, rotated)
    if card == cards.UNSEEN or name.startswith("the "):
        return name
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def place_words(cell: Cell) -> str:
    """A cell of the maze by the column and row the maze's picture labels it with.

    >>> place_words((5, -2))
    'column 5, row -2'
    """
    return f"column {cell[0]}, row {cell[1]}"
