"""The recording in words a referee reads at a glance: what is due, what a card is,
what an entry did, and what a rule says of it — in the replay's own words.

Players, cards, roles and places are named in :mod:`dashboard.card_words`, as the
replay names them. Every string here may carry a player's name; the page escapes it
(:func:`dashboard.markup.escape`) where Markdown shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from dashboard.card_words import who
from dashboard.replay_view import describe
from events.findings import Finding
from events.recorder import Due
from events.schema import Event, NoteKind
from events.state import RoundState

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


def entry_words(event: Event | None, rs: RoundState | None, names: Mapping[str, str]) -> str:
    """What an entry did, as the replay says it, the players by ``names`` (the public
    words: a referee sees no hidden card)."""
    return describe(event, rs.maze.cells if rs is not None else {}, names)[0]


def finding_words(finding: Finding) -> str:
    """A finding as the replay words it: ``R-T1 out_of_turn: it is ann's turn…``."""
    return f"{finding.rule} {finding.code.value}: {finding.message}"
