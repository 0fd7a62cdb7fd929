"""The recording in words a referee reads at a glance: what is due, what a card is,
what an entry did, and what a rule says of it — in the replay's own words.

Every string here may carry a player id or a card code; the page escapes it
(:func:`dashboard.markup.escape`) where Markdown shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from dashboard.replay_view import describe
from events import cards
from events.findings import Finding
from events.recorder import Due
from events.schema import Event, NoteKind
from events.state import RoundState

ROLE_WORDS: Final = {"gold_digger": "Gold digger", "saboteur": "Saboteur", "selfish_dwarf": "Selfish dwarf"}
NOTE_WORDS: Final[dict[NoteKind, str]] = {
    "face_up_discard": "discarded face up",
    "drew_from_discard": "drew from the discard pile",
    "moved_path_card": "moved a path card",
    "moved_broken_tool": "moved a broken tool",
    "showed_hand_card": "showed a hand card",
    "showed_goal_card": "showed a goal card",
    "showed_role_card": "showed a role card",
    "looked_at_cards": "looked at cards",
    "other": "another error",
}
"""The kinds of a referee's note (R-C1), as the page offers them."""
GOAL_WORDS: Final = {cards.GOLD: "the gold", "goal_stone_ne": "stone (NE)", "goal_stone_nw": "stone (NW)"}


def card_words(card: str) -> str:
    """A card as a referee names it.

    >>> card_words("break_lamp"), card_words("repair_pick_cart"), card_words("NESx")
    ('broken lamp', 'repair pick or cart', 'NESx')
    """
    if card in cards.BREAK_CARDS:
        return f"broken {cards.BREAK_CARDS[card]}"
    if card in cards.REPAIR_CARDS:
        return "repair " + " or ".join(cards.REPAIR_CARDS[card])
    return GOAL_WORDS.get(card, card)


def who(player: str | None, names: Mapping[str, str]) -> str:
    """A player by the name the table knows them by."""
    if player is None:
        return "nobody"
    return names.get(player, player)


def due_words(due: Due, number: int, names: Mapping[str, str]) -> str:
    """What the table does next, as a heading.

    >>> due_words(Due("draw", "ann"), 1, {"ann": "Ann"})
    'Ann draws a card'
    """
    match due.kind:
        case "round":
            return f"Deal round {number}"
        case "turn":
            return f"{who(due.player, names)}'s turn"
        case "draw":
            return f"{who(due.player, names)} draws a card"
        case "reveal":
            return f"Turn up the {due.slots[0]} goal"
        case "round_end":
            return f"Round {number} is over: turn up the roles"
        case "game_end":
            return "The game is over"
    return "The game is recorded"


def entry_words(event: Event | None, rs: RoundState | None) -> str:
    """What an entry did, as the replay says it (the public words: a referee sees no
    hidden card)."""
    return describe(event, rs)[0]


def finding_words(finding: Finding) -> str:
    """A finding as the replay words it: ``R-T1 out_of_turn: it is ann's turn…``."""
    return f"{finding.rule} {finding.code.value}: {finding.message}"
