"""From a full log to the observed log of the same game: what the table could see.

This is the one contract between the two recordings (event-log.md, "Observed
recording"): the hidden fields blanked (the deal's roles, goals, hands, pile and the
role set aside; the card of each discard and draw), and what the table sees when it is
turned up named (each revealed goal's card, the roles at each round's end). Every line
keeps its number, so a finding the table can see stands at the same line in both logs.

A line that is not a valid event is malformed in both logs, and still never shows what
the table cannot see: its hidden fields are blanked by its ``type`` as a valid one's
are, a field the format does not know keeps its name with its value blanked (it could
hold anything), and a line that is not a JSON object at all (a line cut off, say,
which may end inside a hand), or one nested past :data:`events.logfile.MAX_DEPTH`, is
written as ``null``.

The dashboard's public view of a round in play is this projection too, so the public
never sees more than the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any, Final, get_args

from pydantic import ValidationError

from events.logfile import nested_too_deeply, parse_line, split_lines
from events.schema import (
    EVENT_ADAPTER,
    EVENT_MODELS,
    HIDDEN_IN_A_DEAL,
    Discard,
    Draw,
    Event,
    GameStarted,
    GoalRevealed,
    RoundEnded,
    RoundStarted,
    dump_event,
)

_HIDDEN: Final[dict[str, tuple[str, ...]]] = {
    "round_started": HIDDEN_IN_A_DEAL,
    "discard": ("card",),
    "draw": ("card",),
}
"""The hidden fields of each event type (event-log.md, "Observed recording")."""
_FIELDS: Final[dict[str, frozenset[str]]] = {
    get_args(model.model_fields["type"].annotation)[0]: frozenset(model.model_fields) for model in EVENT_MODELS
}
"""The fields the format knows, by event type."""
_NOT_AN_EVENT: Final = b"null"


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
        # a card play past applying stands as the turn it took, a face-down discard
        # (events.logfile._turn_taken): the table saw a card laid face up, and the line
        # stays what it is, malformed (written over, it was a valid discard, unsaid)
        took = parsed.error is not None and parsed.error.turn_taken
        seen = blanker.seen(event) if event is not None and not took else None
        if parsed.error is not None and number > 1:
            # malformed, and still so in the observed log; the event it states, if any
            # (a stray field, a bad time), with its hidden cards blanked
            yield blank_line(raw, dump_event(seen) if seen is not None else None)
        elif seen is None:
            yield raw
        else:
            yield dump_event(seen).encode()


def blank_line(raw: bytes, seen: str | None = None) -> bytes:
    """A malformed line as the observed log shows it: its hidden fields blanked by its
    ``type``, the fields the format does not know kept by name with their values
    blanked, and ``seen`` (the line's event as the table sees it, where the line still
    states one) written over the rest; ``null`` for a line that is not a JSON object.
    A blank line stays blank."""
    if not raw.strip():
        return raw
    if nested_too_deeply(raw):  # malformed as it is, never decoded: nothing of it is told seen
        return _NOT_AN_EVENT
    try:
        found: Any = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past reading
        return _NOT_AN_EVENT
    if not isinstance(found, dict):
        return _NOT_AN_EVENT
    kind = found.get("type")
    known = _FIELDS.get(kind, frozenset({"type"})) if isinstance(kind, str) else frozenset({"type"})
    hidden = _HIDDEN.get(kind, ()) if isinstance(kind, str) else ()
    wrong = _fields_in_error(found)
    blanked = {
        key: _blank(value, key in wrong) if key in hidden or key not in known else value for key, value in found.items()
    }
    if seen is not None:
        blanked |= json.loads(seen)
    return _escaped_halves(json.dumps(blanked, separators=(",", ":"), ensure_ascii=False)).encode()


_HALF: Final = re.compile(f"[{chr(0xD800)}-{chr(0xDFFF)}]")
"""A UTF-16 surrogate: in a decoded text, half a character (a lone ``\\ud800`` escape);
the range written by number, as mypyc takes no surrogate in a string literal."""


def _escaped_halves(text: str) -> str:
    """JSON text with each half character written back as the ``\\u`` escape it was
    read from: no UTF-8 holds one (encoding the line failed, and observe ended in a
    traceback), and the escape keeps the line as malformed as it was. A half character
    stands only inside a string, where its escape means the same."""
    return _HALF.sub(lambda half: f"\\u{ord(half.group()):04x}", text)


def _fields_in_error(found: dict[str, Any]) -> frozenset[str]:
    """The top-level fields the format refuses in a decoded line."""
    try:
        EVENT_ADAPTER.validate_python(found)
    except ValidationError as exc:
        return frozenset(str(error["loc"][1]) for error in exc.errors() if len(error["loc"]) > 1)
    except RecursionError:
        return frozenset(found)
    return frozenset()


def _blank(value: Any, wrong: bool) -> Any:
    """A hidden value blanked: ``null``, which an observed log writes there; but a value
    that is itself what makes the line malformed is blanked to an empty one of its own
    kind (a list, an object, a number), so the line stays malformed for it — ``null``
    there could make the line a valid event that the full log's is not."""
    if not wrong or value is None:
        return None
    match value:
        case bool():
            return False
        case int() | float():
            return 0
        case str():
            return ""
        case list():
            return []
        case dict():
            return {}
    return None


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
                return event.model_copy(update=dict.fromkeys(HIDDEN_IN_A_DEAL))
            case Discard() | Draw():
                return event.model_copy(update={"card": None})
            # what the table sees turned up is what was dealt, whatever a full log wrote
            # there (a reveal of another card, roles a full log has no business naming:
            # malformed there; copied, they changed the observed round's outcome)
            case GoalRevealed() if event.goal in self.goals and event.card != self.goals[event.goal]:
                return event.model_copy(update={"card": self.goals[event.goal]})
            case RoundEnded() if self.roles is not None and event.roles != self.roles:
                return event.model_copy(update={"roles": self.roles})
        return None
