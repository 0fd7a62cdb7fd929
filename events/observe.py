"""From a full log to the observed log of the same game: what the table could see.

This is the one contract between the two recordings (event-log.md, "Observed
recording"): the hidden fields blanked (the deal's roles, goals, hands, pile and the
role set aside; the card of each discard and draw), and what the table sees when it is
turned up named (each revealed goal's card, the roles at each round's end). Every line
keeps its number: a line that is not a valid event is copied as it is, so a finding
the table can see stands at the same line in both logs.

The dashboard's public view of a round in play is this projection too, so the public
never sees more than the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from events.logfile import parse_line, split_lines
from events.schema import (
    Discard,
    Draw,
    Event,
    GameStarted,
    GoalRevealed,
    RoundEnded,
    RoundStarted,
    dump_event,
)


class AlreadyObserved(ValueError):
    """The log is an observed one: there is nothing hidden left to blank."""


def observe(data: bytes) -> bytes:
    """The observed log of the game a full log records, line for line.

    Raises :class:`AlreadyObserved` for a log whose ``game_started`` already says
    ``"recording": "observed"``.
    """
    lines = observe_lines(raw for _, raw in split_lines(data))
    return b"".join(line + b"\n" for line in lines)


def observe_lines(raws: Iterable[bytes]) -> Iterator[bytes]:
    """Each raw line of a full log as the observed log has it (see :func:`observe`)."""
    blanker = _Blanker()
    for number, raw in enumerate(raws, start=1):
        parsed = parse_line(number, raw)
        event = parsed.event
        seen = blanker.seen(event) if event is not None else None
        if seen is None:
            yield raw
        elif parsed.error is not None:
            # a malformed line that still states its event (a stray field, a bad time):
            # its hidden cards blanked, and malformed as it was, so both logs say so
            kept = json.loads(raw) | json.loads(dump_event(seen))
            yield json.dumps(kept, separators=(",", ":"), ensure_ascii=False).encode()
        else:
            yield dump_event(seen).encode()


class _Blanker:
    """Remembers what the deal hid, to name it when the table sees it turned up."""

    def __init__(self) -> None:
        self.goals: dict[str, str] = {}
        self.roles: dict[str, str] | None = None

    def seen(self, event: Event) -> Event | None:
        """The event as the table sees it, or ``None`` where it is seen as written."""
        match event:
            case GameStarted():
                if event.observed:
                    raise AlreadyObserved(f"{event.game_id} is already an observed log")
                return event.model_copy(update={"recording": "observed"})
            case RoundStarted():
                self.goals = event.goals.model_dump() if event.goals is not None else {}
                self.roles = dict(event.roles) if event.roles is not None else None
                hidden = dict.fromkeys(("roles", "set_aside_role", "goals", "hands", "draw_pile"))
                return event.model_copy(update=hidden)
            case Discard() | Draw():
                return event.model_copy(update={"card": None})
            case GoalRevealed() if event.card is None and event.goal in self.goals:
                return event.model_copy(update={"card": self.goals[event.goal]})
            case RoundEnded() if event.roles is None and self.roles is not None:
                return event.model_copy(update={"roles": self.roles})
        return None
