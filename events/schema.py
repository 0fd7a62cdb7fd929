"""The game log format ``saboteur-log/1`` (event-log.md) as pydantic models.

One frozen model per event type, joined in a union discriminated on ``type``. The models
check the *shape* of one line: field names and types (strictly: ``"3"`` is not 3, ``1``
is not ``true``), the spec's limits, and that codes exist. What needs the rest of the log
(is this player at the table? is this field allowed in this ruleset?) is checked by
:func:`context_problems`, so that both kinds of problem become the same ``malformed``
finding naming the line and the field.

The JSON Schema of a log line (``saboteur schema``) is generated from these models.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from operator import attrgetter
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Final, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    WithJsonSchema,
)

from events import cards
from events.said import Refusal, Said, say, sentence
from events.tables import Role, Ruleset, Stage

FORMAT: Final = "saboteur-log/1"

PlayerId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]{1,64}$")]
GAME_ID_CHARACTERS: Final = r"[A-Za-z0-9_.:\-]{1,128}"
"""A game's (or a tournament's) id: 1 to 128 of these characters (event-log.md)."""
GameId = Annotated[str, StringConstraints(pattern=f"^{GAME_ID_CHARACTERS}$")]
TableLabel = Annotated[str, StringConstraints(min_length=1, max_length=64)]
"""A table's label in the records this program writes (a seating, a score sheet); a
log's ``table`` may be any string (event-log.md)."""
INT32_MAX: Final = 2**31 - 1
"""The largest integer the store's integer columns hold: the bound of a log's integers
the format leaves open (``tournament_round``)."""
RoundNumber = int
"""A ``round_started``'s or ``round_ended``'s number: any integer. Which round is due is
the replay's to say: a number out of order or beyond the game's ``rounds`` is
``malformed`` there, at its line, and the round is still dealt and played, as the
game's next round (a bound here dropped the whole deal of a round written 0, 5 or
2**31, and judged every card of it against a round that was never dealt; the round's
place, not its written number, is what the store keys it by)."""
Coordinate = Annotated[int, Field(ge=-50, le=50)]
Score = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Slot = Literal["top", "middle", "bottom"]
Winner = Literal["gold_diggers", "saboteurs", "selfish_dwarf", "nobody"]
Tool = Literal["pick", "lamp", "cart"]
Recording = Literal["full", "observed"]
NoteKind = Literal[
    "face_up_discard",
    "drew_from_discard",
    "moved_path_card",
    "moved_broken_tool",
    "showed_hand_card",
    "showed_goal_card",
    "showed_role_card",
    "looked_at_cards",
    "other",
]
"""The common errors of R-C1 that no card event shows, as a ``referee_note`` names them."""
MAX_NOTE: Final = 500
MAX_CARDS: Final = 67

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$")
"""RFC 3339's date-time (section 5.6); an offset's hour is 00–23 and its minute 00–59
there, as a time's (``datetime`` would take ``+01:60`` for 61 minutes)."""


def parse_timestamp(text: str) -> datetime:
    """An RFC 3339 timestamp as an aware datetime; ``ValueError`` if it is not one.

    The shape is checked where the line is parsed (``Timestamp``'s pattern); whether it
    is a real moment (no 13th month) is checked here, by the replay, which needs the
    moment anyway to see that times never go backwards.
    """
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    if not _RFC3339.match(text):
        raise Refusal(say("%(given)s is not an RFC 3339 timestamp such as 2026-11-29T14:03:11Z", given=repr(text)))
    leap = text[17:19] == "60"  # RFC 3339 allows a leap second, which datetime cannot hold
    try:
        moment = datetime.fromisoformat((text[:17] + "59" + text[19:] if leap else text).upper())
    except ValueError:
        raise Refusal(say("%(given)s is not a real date and time", given=repr(text))) from None
    if leap:
        # the minute in UTC by the clock's arithmetic, not by moving the moment there: a
        # day's last minute at an offset that leaves the years 1 to 9999 in UTC
        # (0001-01-01T00:59:60+01:00) has no datetime, and astimezone raised OverflowError
        offset = moment.utcoffset() or timedelta(0)
        if (moment.hour * 60 + moment.minute - int(offset.total_seconds()) // 60) % (24 * 60) != 23 * 60 + 59:
            raise Refusal(say("%(given)s is not a real date and time (a leap second ends a UTC day)", given=repr(text)))
        # the last moment a datetime can hold before the next day: a leap second (and
        # its fractions) lies after 23:59:59 and before 00:00:00 (:func:`timestamp_order`)
        return moment.replace(microsecond=999_999)
    return moment


def timestamp_order(text: str) -> tuple[datetime, str]:
    """Where an RFC 3339 timestamp falls among others, to its last digit; ``ValueError``
    as :func:`parse_timestamp`.

    A datetime holds microseconds and drops the digits past the sixth, so two times a
    tenth of a microsecond apart compared equal, one going backwards too; those digits
    break the tie here. A leap second (``:60``, with any fraction) falls after every
    time of its day's last second and before the next day's first: as the next day's
    first second, 23:59:60.5 came after 00:00:00 and a log that went on at midnight
    was said to go backwards."""
    moment = parse_timestamp(text)
    leap = text[17:19] == "60"
    # every line with a time comes here: the digits are read only where they matter, a
    # leap second's or a fraction of seven digits or more
    if not (leap or (text[19:20] == "." and text[26:27].isdigit())):
        return moment, ""
    end = 20
    while end < len(text) and text[end].isdigit():
        end += 1
    fraction = text[20:end] if text[19:20] == "." else ""
    # "~" sorts after every digit; trailing zeros name the same instant (60.10 is 60.1)
    return (moment, "~" + fraction.rstrip("0")) if leap else (moment, fraction[6:].rstrip("0"))


def _codes(allowed: frozenset[str]) -> Any:
    """A ``Literal`` of the codes, checked by pydantic-core without a Python call."""
    return Literal[tuple(sorted(allowed))]


Timestamp = Annotated[
    str,
    StringConstraints(pattern=_RFC3339.pattern),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
if TYPE_CHECKING:
    DeckCard = str
    TunnelCardCode = str
    ToolCardCode = str
    RockfallCard = str
    MapCard = str
else:
    DeckCard = _codes(cards.DECK_CARDS)
    TunnelCardCode = _codes(frozenset(cards.TUNNEL_CARDS))
    ToolCardCode = _codes(cards.TOOL_CARDS)
    RockfallCard = Literal["rockfall"]
    MapCard = Literal["map"]
CARD_KINDS: Final = {
    "play_path": sentence("a tunnel card"),
    "play_tool": sentence("a broken-tool or repair card"),
    "play_rockfall": sentence("a rockfall card"),
    "play_map": sentence("a map card"),
    "goal_revealed": sentence("a goal card"),
}
"""What each event's ``card`` must be, for messages ("'map' is not a tunnel card")."""
GoalCardCode = Literal["goal_gold", "goal_stone_ne", "goal_stone_nw"]
CardList = Annotated[list[DeckCard], Field(max_length=MAX_CARDS)]


class _Model(BaseModel):
    """Strict, closed and frozen, as a public interchange format must be.

    ``_optional`` names fields the spec marks optional: they may be left out, but a
    ``null`` there is a wrong type (only fields the spec says may be null take null).
    """

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        frozen=True,
        json_schema_extra=lambda schema, model: _drop_null_from_optional(schema, model),
    )
    _optional: ClassVar[tuple[str, ...]] = ()


def null_fields(model: BaseModel, prefix: str = "") -> list[str]:
    """Optional fields given as ``null``: they may be left out, but null is a wrong type.

    Checked after validation (a field set to ``None`` was written as ``null``), which
    costs far less than a Python validator on every line.
    """
    found = []
    for name in getattr(model, "_optional", ()):
        value = getattr(model, name)
        if value is None and name in model.model_fields_set:
            found.append(prefix + name)
        elif isinstance(value, BaseModel):
            found.extend(null_fields(value, f"{prefix}{name}."))
    return found


def _drop_null_from_optional(schema: dict[str, Any], model: Any) -> None:
    properties = schema.get("properties", {})
    for name in getattr(model, "_optional", ()):
        prop = properties.get(name)
        if prop is None:
            continue
        prop.pop("default", None)
        branches = [b for b in prop.pop("anyOf", []) if b.get("type") != "null"]
        if len(branches) == 1:
            prop.update(branches[0])
        elif branches:
            prop["anyOf"] = branches


class Event(_Model):
    """Fields every event may carry."""

    _optional: ClassVar[tuple[str, ...]] = ("at",)
    type: str
    at: Timestamp | None = None


class RoleCounts(_Model):
    """``options.roles``: the role row for this game's table size (R-S1)."""

    saboteur: Annotated[int, Field(ge=0, le=10)]
    gold_digger: Annotated[int, Field(ge=0, le=10)]
    selfish_dwarf: Annotated[int, Field(ge=0, le=10)]


class Options(_Model):
    """Rule variants where the sources disagree (rules.md rulings)."""

    _optional: ClassVar[tuple[str, ...]] = (
        "roles",
        "next_round_starter",
        "self_break",
        "gold_cards_drawn",
    )
    roles: RoleCounts | None = None
    next_round_starter: Literal["any"] | None = None
    self_break: bool | None = None
    gold_cards_drawn: Literal["gold_diggers"] | None = None


def _unique(players: list[str]) -> list[str]:
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise Refusal(say("player id %(player)s appears twice", player=repr(player)))
        seen.add(player)
    return players


class GameStarted(Event):
    """The first line: who sits where, which rules, how many rounds."""

    _optional: ClassVar[tuple[str, ...]] = (
        "at",
        "tournament",
        "tournament_round",
        "stage",
        "table",
        "options",
        "recording",
    )
    type: Literal["game_started"]
    format: Literal["saboteur-log/1"]
    game_id: GameId
    ruleset: Ruleset
    players: Annotated[list[PlayerId], Field(min_length=3, max_length=10), AfterValidator(_unique)]
    rounds: Annotated[int, Field(ge=1, le=4)]
    tournament: GameId | None = None
    tournament_round: Annotated[int, Field(ge=1, le=INT32_MAX)] | None = None
    stage: Stage | None = None
    table: str | None = None  # "a table label": any string, as written (a seating's labels are 1–64 characters)
    options: Options | None = None
    recording: Recording | None = None

    @property
    def observed(self) -> bool:
        """An observed log (event-log.md): what a referee sees, nothing hidden."""
        return self.recording == "observed"


class SetupCard(_Model):
    """R-S7: the tunnel card laid at (4,0) and every card turned over to find it."""

    card: DeckCard
    rotated: bool
    turned_over: CardList


class Goals(_Model):
    """The three goal cards as dealt face down, by slot (R-S2)."""

    top: GoalCardCode
    middle: GoalCardCode
    bottom: GoalCardCode


class RoundStarted(Event):
    """The deal. In an observed log the hidden parts (roles, goals, hands, pile, the
    role set aside) are ``null``; in a full log they are required."""

    type: Literal["round_started"]
    round: RoundNumber
    start_player: PlayerId
    roles: dict[PlayerId, Role] | None
    set_aside_role: Role | None
    goals: Goals | None
    setup_card: SetupCard | None
    hands: dict[PlayerId, CardList] | None
    draw_pile: CardList | None


class PlayPath(Event):
    type: Literal["play_path"]
    player: PlayerId
    card: TunnelCardCode
    x: Coordinate
    y: Coordinate
    rotated: bool


class PlayTool(Event):
    _optional: ClassVar[tuple[str, ...]] = ("at", "tool")
    type: Literal["play_tool"]
    player: PlayerId
    card: ToolCardCode
    target: PlayerId
    tool: Tool | None = None


class PlayRockfall(Event):
    type: Literal["play_rockfall"]
    player: PlayerId
    card: RockfallCard
    x: Coordinate
    y: Coordinate


class PlayMap(Event):
    type: Literal["play_map"]
    player: PlayerId
    card: MapCard
    goal: Slot


class Discard(Event):
    """A pass (R-T3): ``card`` is ``null`` in an observed log, since it lies face down."""

    type: Literal["discard"]
    player: PlayerId
    card: DeckCard | None


class Draw(Event):
    """The turn's draw (R-T2): ``card`` is ``null`` in an observed log, since only its
    owner sees it."""

    type: Literal["draw"]
    player: PlayerId
    card: DeckCard | None


class GoalRevealed(Event):
    """A goal turned up (R-G1); ``card`` is what it showed (required when observed)."""

    _optional: ClassVar[tuple[str, ...]] = ("at", "card")
    type: Literal["goal_revealed"]
    goal: Slot
    rotated: bool
    card: GoalCardCode | None = None


GoldCard = Annotated[int, Field(ge=1, le=3)]
"""A nugget card of the base game's supply: 1, 2 or 3. Not ``Literal[1, 2, 3]``: pydantic
matches a literal by equality even in strict mode, so ``true`` and ``1.0`` passed for the
card 1, where every other integer field refuses both."""


class RoundEnded(Event):
    """The scorekeeper's claim; in an observed log also the roles turned up."""

    _optional: ClassVar[tuple[str, ...]] = ("at", "gold_cards", "roles")
    type: Literal["round_ended"]
    round: RoundNumber
    winner: Winner
    connector: PlayerId | None
    scores: dict[PlayerId, Score]
    gold_cards: dict[PlayerId, Annotated[list[GoldCard], Field(max_length=28)]] | None = None
    roles: dict[PlayerId, Role] | None = None


class GameEnded(Event):
    type: Literal["game_ended"]
    totals: dict[PlayerId, Score]


class RefereeNote(Event):
    """R-C1: a common error seen at the table that no card event shows. It changes no
    state; the replay reports it as a ``table_incident`` for the organiser to weigh."""

    type: Literal["referee_note"]
    player: PlayerId | None
    error: NoteKind
    note: Annotated[str, StringConstraints(max_length=MAX_NOTE)]


AnyEvent = Annotated[
    GameStarted
    | RoundStarted
    | PlayPath
    | PlayTool
    | PlayRockfall
    | PlayMap
    | Discard
    | Draw
    | GoalRevealed
    | RoundEnded
    | GameEnded
    | RefereeNote,
    Field(discriminator="type"),
]
CardEvent = PlayPath | PlayTool | PlayRockfall | PlayMap | Discard

EVENT_ADAPTER: Final[TypeAdapter[AnyEvent]] = TypeAdapter(AnyEvent)
EVENTS_ADAPTER: Final[TypeAdapter[list[AnyEvent]]] = TypeAdapter(list[AnyEvent])
EVENT_MODELS: Final = (
    GameStarted,
    RoundStarted,
    PlayPath,
    PlayTool,
    PlayRockfall,
    PlayMap,
    Discard,
    Draw,
    GoalRevealed,
    RoundEnded,
    GameEnded,
    RefereeNote,
)
EVENT_TYPES: Final = frozenset(
    m.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in EVENT_MODELS
)
NULL_IF_LEFT_OUT: Final[dict[str, frozenset[str]]] = {
    m.model_fields["type"].annotation.__args__[0]: frozenset(  # type: ignore[union-attr]
        name
        for name, field in m.model_fields.items()
        if field.is_required() and type(None) in get_args(field.annotation) and name != "setup_card"
    )
    for m in EVENT_MODELS
}
"""The fields of each event type that a line must hold and that may be ``null`` (a deal's
hidden parts, which an observed log writes ``null``; a note's player, a round's
connector): one left out is ``malformed`` (event-log.md: "a field that may be null is
present, with null") and read as ``null`` (:func:`events.logfile._as_recorded`): a tool
that leaves out what is null (an observed log's roles, hands, pile and goals; a
tournament's set-aside role) lost every round of every game it wrote. A deal's
``setup_card`` is not among them: in a tournament round its ``null`` is a breach of R-S7
of its own, and the deck counted without it put an observed log's pile a card out (a
missed draw reported at each pass of the round's end)."""


def key_count(event: Event) -> int:
    """How many keys the JSON object of a validated event holds, nested ones included.

    The line parser compares this with the keys written on the line: a difference means
    a key was written twice (event-log.md: duplicate keys are malformed), which a JSON
    parser silently merges. A test holds it exact for every event type.
    """
    nested = NESTED_KEYS.get(type(event))
    count = len(event.__pydantic_fields_set__)
    return count if nested is None else count + nested(event)


def keys_in(events: Sequence[Event]) -> int:
    """The sum of :func:`key_count` over ``events``, counted a block at a time: the
    flat events' keys are their fields given, summed without a Python call each."""
    flat = sum(map(len, map(_FIELDS_SET, events)))
    return flat + sum(NESTED_KEYS[type(event)](event) for event in events if type(event) in NESTED_KEYS)


_FIELDS_SET: Final = attrgetter("__pydantic_fields_set__")


def _round_started_keys(event: RoundStarted) -> int:
    return (
        (len(event.roles) if event.roles is not None else 0)
        + (3 if event.goals is not None else 0)
        + (len(event.hands) if event.hands is not None else 0)
        + (3 if event.setup_card is not None else 0)
    )


def _round_ended_keys(event: RoundEnded) -> int:
    return (
        len(event.scores)
        + (len(event.gold_cards) if event.gold_cards is not None else 0)
        + (len(event.roles) if event.roles is not None else 0)
    )


def _game_ended_keys(event: GameEnded) -> int:
    return len(event.totals)


def _game_started_keys(event: GameStarted) -> int:
    options = event.options
    if options is None:
        return 0
    return len(options.__pydantic_fields_set__) + (3 if options.roles is not None else 0)


NESTED_KEYS: Final[dict[type[Event], Callable[[Any], int]]] = {
    RoundStarted: _round_started_keys,
    RoundEnded: _round_ended_keys,
    GameEnded: _game_ended_keys,
    GameStarted: _game_started_keys,
}
"""The keys inside an event's nested objects, for the types that have any: the other
events are flat, and their keys are their fields given."""


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one log line, as published with the format."""
    schema = EVENT_ADAPTER.json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "saboteur-log-1.schema.json",
        "title": "Saboteur game log line (saboteur-log/1)",
        "description": (
            "One line of a Saboteur referee log (JSON Lines). Cross-line rules "
            "(players at the table, ruleset-only fields, the order of events) are "
            "in event-log.md and checked by the replay."
        ),
        **schema,
    }


def dump_event(event: Event) -> str:
    """One event as a compact log line, with only the fields it was given."""
    return event.model_dump_json(exclude_unset=True)


FieldProblem = tuple[str, Said]
"""A field path (``roles.ann``) and what is wrong with it, as a sentence of the
catalogue (a reader of another language reads it in theirs)."""


def _every_player(field: str, mapping: dict[str, Any], players: list[str]) -> list[FieldProblem]:
    problems: list[FieldProblem] = []
    seated = set(players)
    for key in mapping:
        if key not in seated:
            problems.append((f"{field}.{key}", say("%(player)s is not a player of this game", player=repr(key))))
    missing = [p for p in players if p not in mapping]
    if missing:
        problems.append((field, say("%(players)s missing: every player must be listed", players=", ".join(missing))))
    return problems


def _listed_only_when(
    field: str, mapping: dict[str, Any] | None, wanted: bool, players: list[str], *, needed: Said, refused: Said
) -> list[FieldProblem]:
    """A map of every player that this game must give (``wanted``) or must not."""
    if not wanted:
        return [] if mapping is None else [(field, refused)]
    return [(field, needed)] if mapping is None else _every_player(field, mapping, players)


def _seated(field: str, player: str | None, players: list[str]) -> list[FieldProblem]:
    if player is not None and player not in players:
        return [(field, say("%(player)s is not a player of this game", player=repr(player)))]
    return []


_HIDDEN_DEAL: Final = {
    "roles": sentence("the roles"),
    "set_aside_role": sentence("the role set aside"),
    "goals": sentence("the goal cards"),
    "hands": sentence("the hands"),
    "draw_pile": sentence("the draw pile"),
}
"""What a ``round_started`` holds that nobody at a physical table sees."""
HIDDEN_IN_A_DEAL: Final = tuple(_HIDDEN_DEAL)
"""The fields of a deal an observed log leaves ``null``: blanked by :mod:`events.observe`,
and not read by the replay of an observed log."""


def deal_problems(deal: RoundStarted, game: GameStarted) -> list[FieldProblem]:
    """The hidden parts of a deal in the wrong recording: ``null`` in an observed log,
    given in a full one (``set_aside_role`` is ``null`` in a full tournament deal too,
    which R-S1 judges)."""
    problems: list[FieldProblem] = []
    for name, what in _HIDDEN_DEAL.items():
        value = getattr(deal, name)
        if game.observed and value is not None:
            problems.append((name, say("an observed log does not know %(what)s: null", what=(say(what),))))
        elif not game.observed and value is None and name != "set_aside_role":
            problems.append((name, say("a full log lists %(what)s; null is for an observed log", what=(say(what),))))
    return problems


def hidden_card_problems(event: Discard | Draw, game: GameStarted) -> list[FieldProblem]:
    """A discard (face down) or a draw (seen by its owner) names its card in a full log
    and leaves it ``null`` in an observed one."""
    discard = event.type == "discard"
    if game.observed and event.card is not None:
        if discard:
            return [("card", say("an observed log does not see the card discarded face down: null"))]
        return [("card", say("an observed log does not see the card drawn: null"))]
    if not game.observed and event.card is None:
        if discard:
            return [("card", say("a full log names the card discarded face down; null is for an observed log"))]
        return [("card", say("a full log names the card drawn; null is for an observed log"))]
    return []


def revealed_card_problems(event: GoalRevealed, game: GameStarted) -> list[FieldProblem]:
    """A goal turned up is named in an observed log (a full log knows it from the deal;
    that it is the card dealt there is judged by the replay, which holds the deal)."""
    if game.observed and event.card is None:
        return [("card", say("an observed log names the goal card turned up"))]
    return []


def header_problems(game: GameStarted) -> list[FieldProblem]:
    """What is wrong with a ``game_started`` beyond its shape: limits by ruleset."""
    problems: list[FieldProblem] = []
    low, high = (5, 10) if game.ruleset == "tournament" else (3, 10)
    if not low <= len(game.players) <= high:
        seats = say(
            "a %(ruleset)s game seats %(low)s–%(high)s players, not %(count)s",
            ruleset=game.ruleset,
            low=low,
            high=high,
            count=len(game.players),
        )
        problems.append(("players", seats))
    most = 4 if game.ruleset == "tournament" else 3
    if game.rounds > most:
        rounds = say(
            "a %(ruleset)s game has at most %(most)s rounds, not %(count)s",
            ruleset=game.ruleset,
            most=most,
            count=game.rounds,
        )
        problems.append(("rounds", rounds))
    options = game.options
    if options is not None:
        if game.ruleset == "base" and options.roles is not None:
            problems.append(("options.roles", say("role rows are a tournament option, not base")))
        elif options.roles is not None:  # R-S1: exactly as many role cards as players, whatever the rows
            rows = options.roles
            dealt, seated = rows.saboteur + rows.gold_digger + rows.selfish_dwarf, len(game.players)
            if dealt != seated:
                problem = say(
                    "the rows deal %(dealt)s role cards to %(count)s players (R-S1: one each)",
                    dealt=dealt,
                    count=seated,
                )
                problems.append(("options.roles", problem))
        if game.ruleset == "tournament":
            for name in ("next_round_starter", "gold_cards_drawn"):
                if getattr(options, name) is not None:
                    problems.append((f"options.{name}", say("a base option, not tournament")))
    return problems


def _deal_context(event: RoundStarted, game: GameStarted) -> list[FieldProblem]:
    players = game.players
    return [
        *_seated("start_player", event.start_player, players),
        *(_every_player("roles", event.roles, players) if event.roles is not None else ()),
        *(_every_player("hands", event.hands, players) if event.hands is not None else ()),
        *deal_problems(event, game),
    ]


def _tool_context(event: PlayTool, game: GameStarted) -> list[FieldProblem]:
    problems = [*_seated("player", event.player, game.players), *_seated("target", event.target, game.players)]
    mends = cards.REPAIR_CARDS.get(event.card, ())
    if len(mends) == 2:
        if event.tool is None:
            which = say(
                "%(card)s repairs one of %(tools)s: say which in `tool`", card=event.card, tools=" / ".join(mends)
            )
            problems.append(("tool", which))
        elif event.tool not in mends:
            problems.append(("tool", say("%(card)s cannot repair the %(tool)s", card=event.card, tool=event.tool)))
    elif event.tool is not None:
        problems.append(("tool", say("`tool` is only for a double repair, not %(card)s", card=event.card)))
    return problems


def _hidden_card_context(event: Discard | Draw, game: GameStarted) -> list[FieldProblem]:
    return [*_seated("player", event.player, game.players), *hidden_card_problems(event, game)]


def _player_context(event: PlayPath | PlayRockfall | PlayMap | RefereeNote, game: GameStarted) -> list[FieldProblem]:
    return _seated("player", event.player, game.players)


def _claim_context(event: RoundEnded, game: GameStarted) -> list[FieldProblem]:
    players = game.players
    return [
        *_seated("connector", event.connector, players),
        *_every_player("scores", event.scores, players),
        *_listed_only_when(
            "gold_cards",
            event.gold_cards,
            game.ruleset == "base",
            players,
            needed=say("a base round lists the gold cards each player took"),
            refused=say("gold cards are a base field, not tournament"),
        ),
        *_listed_only_when(
            "roles",
            event.roles,
            game.observed,
            players,
            needed=say("an observed log names every role as turned up at the round's end"),
            refused=say("the roles turned up are for an observed log; a full log has them dealt"),
        ),
    ]


def _totals_context(event: GameEnded, game: GameStarted) -> list[FieldProblem]:
    return _every_player("totals", event.totals, game.players)


_CONTEXT: Final[dict[str, Callable[[Any, GameStarted], list[FieldProblem]]]] = {
    "round_started": _deal_context,
    "play_tool": _tool_context,
    "discard": _hidden_card_context,
    "draw": _hidden_card_context,
    "play_path": _player_context,
    "play_rockfall": _player_context,
    "play_map": _player_context,
    "referee_note": _player_context,
    "goal_revealed": revealed_card_problems,
    "round_ended": _claim_context,
    "game_ended": _totals_context,
}
"""The check of each event type against its game, found by the line's ``type``: a line
read as a model or as a Struct (``events.structs``) is judged alike."""


def context_problems(event: Event, game: GameStarted) -> list[FieldProblem]:
    """What is wrong with a line given the game it belongs to (event-log.md).

    Players must sit at the table, maps that list every player must list each exactly
    once, ``tool`` names one of a double repair's two tools and only there, and fields
    outside their ruleset are refused.
    """
    check = _CONTEXT.get(event.type)
    return check(event, game) if check is not None else []
