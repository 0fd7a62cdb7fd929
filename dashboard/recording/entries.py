"""The taps made entries: each one event of the observed log, with the time it was
recorded.

An observed log names what the table sees and nothing hidden (event-log.md, "Observed
recording"): a deal without roles, goals, hands or pile; a discard and a draw without
their card. The clock is :func:`now`, a function of this module, so a test that builds
the log it expects can fix the time the page writes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypeVar

from dashboard.recording.steps import Deal, Pick
from events.schema import (
    Discard,
    Draw,
    Event,
    GoalRevealed,
    NoteKind,
    PlayMap,
    PlayPath,
    PlayRockfall,
    PlayTool,
    RefereeNote,
    RoundStarted,
    Slot,
)

E = TypeVar("E", bound=Event)
CardEntry = PlayPath | PlayTool | PlayRockfall | PlayMap | Discard


def now() -> str:
    """This moment in UTC, to the second, as RFC 3339 with a ``Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamped(event: E, at: str) -> E:
    """``event`` (one the recorder proposes, say) with the time it is recorded."""
    return event.model_copy(update={"at": at})


def card_entry(pick: Pick, at: str) -> CardEntry:
    """The card event of a whole pick (:meth:`Pick.need` is ``done``)."""
    assert pick.need() == "done", pick
    player, card = pick.player, pick.card
    match pick.kind:
        case "discard":
            return Discard(type="discard", at=at, player=player, card=None)
        case "path":
            assert card is not None and pick.cell is not None
            x, y = pick.cell
            return PlayPath(type="play_path", at=at, player=player, card=card, x=x, y=y, rotated=pick.rotated)
        case "rockfall":
            assert card is not None and pick.cell is not None
            x, y = pick.cell
            return PlayRockfall(type="play_rockfall", at=at, player=player, card=card, x=x, y=y)
        case "map":
            assert card is not None and pick.slot is not None
            return PlayMap(type="play_map", at=at, player=player, card=card, goal=pick.slot)
    assert card is not None and pick.target is not None
    if pick.tool is not None:
        return PlayTool(type="play_tool", at=at, player=player, card=card, target=pick.target, tool=pick.tool)
    return PlayTool(type="play_tool", at=at, player=player, card=card, target=pick.target)


def deal_entry(deal: Deal, number: int, at: str) -> RoundStarted:
    """Round ``number``'s deal as the table sees it: who starts, and the setup card."""
    assert deal.start is not None
    return RoundStarted(
        type="round_started",
        at=at,
        round=number,
        start_player=deal.start,
        roles=None,
        set_aside_role=None,
        goals=None,
        setup_card=deal.setup_card(),
        hands=None,
        draw_pile=None,
    )


def draw_entry(player: str, at: str) -> Draw:
    """A draw: only its owner sees the card."""
    return Draw(type="draw", at=at, player=player, card=None)


def reveal_entry(slot: Slot, card: str, rotated: bool, at: str) -> GoalRevealed:
    """A goal turned up: the card it shows and how it lies."""
    return GoalRevealed.model_validate(
        {"type": "goal_revealed", "at": at, "goal": slot, "rotated": rotated, "card": card}
    )


def note_entry(player: str | None, error: NoteKind, note: str, at: str) -> RefereeNote:
    """A referee's note (R-C1): who, which of the common errors, and the referee's words."""
    return RefereeNote(type="referee_note", at=at, player=player, error=error, note=note)
