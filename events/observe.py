"""From a full log to the observed log of the same game: what the table could see.

This is the one contract between the two recordings (event-log.md, "Observed
recording"): the hidden fields blanked (the deal's roles, goals, hands, pile and the
role set aside; the card of each discard and draw), and what the table sees when it is
turned up named (each revealed goal's card, the roles at each round's end). Every line
keeps its number, so a finding the table can see stands at the same line in both logs.

A line that is not a valid event is malformed in both logs, states the same event or
none, and still never shows what the table cannot see: its hidden fields are blanked
by its ``type`` as a valid one's are, a field the format does not know keeps its name
with its value blanked (it could hold anything), the rest is written as it was read
(a key written twice, twice), and a line that is not a JSON object at all (a line cut
off, say, which may end inside a hand), or one nested past
:data:`events.logfile.MAX_DEPTH`, is written as ``null``.

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
    """A malformed line as the observed log shows it, as malformed as it was.

    Its hidden fields are blanked by its ``type``, the fields the format does not know
    kept by name with their values blanked, and where ``seen`` (the line's event as the
    table sees it, where the line still states one) names a field otherwise than the
    line (a goal turned up, the roles at a round's end), that field written over; where
    what the line wrote there is itself wrong (a card that is no goal), it is written
    twice over, so the line stays malformed and states what the table saw. Everything
    else is written as it was read: a key written twice, still twice (read into one,
    the last value kept, the line became valid), each number as written, each half
    character as its escape. A line that is not UTF-8, not JSON (a byte-order mark
    before it too: only the file's first line may have one) or not a JSON object is
    ``null``; a blank line stays blank.
    """
    if not raw.strip():
        return raw
    if nested_too_deeply(raw):  # malformed as it is, never decoded: nothing of it is told seen
        return _NOT_AN_EVENT
    try:
        # strict, as the log is read: half a character in bytes is no UTF-8, a BOM no JSON
        found: Any = _READER.decode(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or a number past reading
        return _NOT_AN_EVENT
    if not isinstance(found, _Object):
        return _NOT_AN_EVENT
    read = _plain(found)
    kind = read.get("type")
    known = _FIELDS.get(kind, frozenset({"type"})) if isinstance(kind, str) else frozenset({"type"})
    hidden = _HIDDEN.get(kind, ()) if isinstance(kind, str) else ()
    wrong = _fields_in_error(read) | {key for key, value in read.items() if _halved(key) or _halved(value)}
    table_sees: dict[str, Any] = json.loads(seen) if seen is not None else {}
    pairs: list[tuple[str, Any]] = []
    changed: list[tuple[int, Any]] = []  # where a value was blanked or written over, and what it was
    for key, value in found.pairs:
        if key in hidden or key not in known:
            pairs.append((key, _blank(value, key in wrong, hidden=key in hidden)))
        elif key in table_sees and _canonical(table_sees[key]) != _canonical(_plain(value)):
            # what the table saw turned up, written twice where what the full log wrote
            # there is wrong: malformed for it, and the event what the table saw
            pairs += [(key, table_sees[key])] * (2 if key in wrong else 1)
        else:
            pairs.append((key, value))
            continue
        changed.append((len(pairs) - 1, value))
    pairs += [(key, value) for key, value in table_sees.items() if key not in read]
    _keep_twice(found, pairs, changed)
    return _written(_Object(pairs)).encode()


class _Object:
    """A JSON object as written: its keys and values in order, a key written twice kept
    twice (the standard decoder keeps the last)."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


class _Number:
    """A JSON number with a fraction or an exponent, as written (``1e0`` stays ``1e0``;
    ``1e400`` read as a float was written back as ``Infinity``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_READER: Final = json.JSONDecoder(object_pairs_hook=_Object, parse_float=_Number, parse_constant=_no_constant)


def _plain(value: Any) -> Any:
    """A value read by :data:`_READER` as the log's reading has it: an object a ``dict``
    (of a key written twice, the last value), a number a ``float``."""
    if isinstance(value, _Object):
        return {key: _plain(item) for key, item in value.pairs}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, _Number):
        return float(value.text)
    return value


def _canonical(value: Any) -> str:
    """A plain value as one text, keys sorted, as :func:`events.logfile._as_written`."""
    return json.dumps(value, sort_keys=True)


def _twice(value: Any) -> int:
    """Whether a value holds a key written twice in one object: 0 no, 1 each such key
    with one value every time (the log's reading still applies the line's event), 2 a
    key with two values (the line states nothing sure)."""
    if isinstance(value, list):
        return max(map(_twice, value), default=0)
    if not isinstance(value, _Object):
        return 0
    worst = max((_twice(item) for _, item in value.pairs), default=0)
    held: dict[str, str] = {}
    for key, item in value.pairs:
        text = _canonical(_plain(item))
        if key in held:
            worst = max(worst, 1 if held[key] == text else 2)
        held[key] = text
    return worst


def _keep_twice(found: _Object, pairs: list[tuple[str, Any]], changed: list[tuple[int, Any]]) -> None:
    """Where a key written twice lay in what was blanked or written over (a card drawn
    twice over, a hand dealt twice), the field that held it written twice in its place:
    with its one value where the line's keys written twice each had one, with another
    where one had two. The line stays malformed for it, and states an event, or none,
    as the full log's line does."""
    wanted = _twice(found)
    if not wanted or not changed or _twice(_Object(pairs)) == wanted:
        return
    written = [key for key, _ in found.pairs]
    at = next(
        (index for index, was in changed if _twice(was) or written.count(pairs[index][0]) > 1),
        changed[0][0],
    )
    key, value = pairs[at]
    other = value if wanted == 1 else ("" if value is None else None)
    later = next((index for index, _ in changed if index > at and pairs[index][0] == key), None)
    if later is not None:  # the key is written twice: its later value made another
        pairs[later] = (key, other)
    else:
        pairs.insert(at + 1, (key, other))


def _written(value: Any) -> str:
    """A value as compact JSON: objects with their keys as read, numbers as written."""
    if isinstance(value, _Object):
        return "{" + ",".join(f"{_written(key)}:{_written(item)}" for key, item in value.pairs) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_written(key)}:{_written(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(map(_written, value)) + "]"
    if isinstance(value, _Number):
        return value.text
    return _escaped_halves(json.dumps(value, ensure_ascii=False))


_HALF: Final = re.compile(f"[{chr(0xD800)}-{chr(0xDFFF)}]")
"""A UTF-16 surrogate: in a decoded text, half a character (a lone ``\\ud800`` escape);
the range written by number, as mypyc takes no surrogate in a string literal."""


def _escaped_halves(text: str) -> str:
    """JSON text with each half character written back as the ``\\u`` escape it was
    read from: no UTF-8 holds one (encoding the line failed, and observe ended in a
    traceback), and the escape keeps the line as malformed as it was. A half character
    stands only inside a string, where its escape means the same."""
    return _HALF.sub(lambda half: f"\\u{ord(half.group()):04x}", text)


def _halved(value: Any) -> bool:
    """Whether a plain value holds half a character anywhere (a key included): the line
    is malformed there, whatever the field takes."""
    if isinstance(value, str):
        return _HALF.search(value) is not None
    if isinstance(value, list):
        return any(map(_halved, value))
    if isinstance(value, dict):
        return any(_halved(key) or _halved(item) for key, item in value.items())
    return False


def _fields_in_error(found: dict[str, Any]) -> frozenset[str]:
    """The top-level fields the format refuses in a decoded line."""
    try:
        EVENT_ADAPTER.validate_python(found)
    except ValidationError as exc:
        return frozenset(str(error["loc"][1]) for error in exc.errors() if len(error["loc"]) > 1)
    except RecursionError:
        return frozenset(found)
    return frozenset()


def _blank(value: Any, wrong: bool, *, hidden: bool) -> Any:
    """A value blanked: ``null``, which an observed log writes in a hidden field; but a
    value that is itself what makes the line malformed is emptied, so the line stays
    malformed for it — ``null`` there could make the line a valid event that the full
    log's is not. A hidden one keeps its shape with every text in it empty, every number
    0 (a hand with a card that is no card is still a hand of cards unread, as in the
    full log: its deal stands); a field the format does not know is an empty one of its
    own kind (a list, an object, a number)."""
    if not wrong or value is None:
        return None
    if hidden:
        return _emptied(value)
    match value:
        case list():
            return []
        case _Object():
            return _Object([])
    return _emptied(value)  # a text, a number, true or false: as a hidden one


def _emptied(value: Any) -> Any:
    """A value with its shape and keys kept, every text in it ``""``, number 0, ``true`` false."""
    match value:
        case bool():
            return False
        case int() | _Number():
            return 0
        case str():
            return ""
        case list():
            return [_emptied(item) for item in value]
        case _Object():
            return _Object([(key, _emptied(item)) for key, item in value.pairs])
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
