"""Tournament records: commands that append events to a tournament's stream.

Nothing is ever edited (R-TS5): a penalty, a correction, an accepted replay, a dismissed
finding, a seating or a cut draw is a new event with its reason, and the standings are
always computed from the whole record. Each command checks what it refers to (a player
registered, a game of this tournament, a finding that exists) and refuses with a clear
message otherwise; the tournament's read models are re-projected from its stream in
the same transaction as the append.

The referee codes are records too: a code opens the recording of one table of one
round's seating (:func:`issue_referee_codes`, :func:`referee_access`), and the record
keeps only its SHA-256.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from random import Random
from typing import Any, Final, TypeVar
from urllib.parse import urlencode

import duckdb
import polars as pl
from pydantic import TypeAdapter, ValidationError

from analytics.csvrows import spreadsheet_rows
from analytics.standings import (
    EVERY_FINDING,
    FINDING_STATUS,
    GAME_HEADERS,
    NAME_KEY,
    round_fits,
    standings_on,
    with_still_wrong,
)
from analytics.table_order import by_table, table_key
from events.logfile import said_of
from events.records import dump
from events.records.tournament import (
    CutDrawn,
    CutForced,
    FindingDismissed,
    PenaltyGiven,
    PenaltyWithdrawn,
    PlayerRegistered,
    PlayerReturned,
    PlayerWithdrawn,
    RefereeCodeIssued,
    RefereeCodeRevoked,
    ReplayAccepted,
    ScoreCorrected,
    SeatedTable,
    SeatingPublished,
    TournamentCreated,
    TournamentEvent,
)
from events.records.tournament_file import NAME_MOST, one_line, shows_nothing
from events.rules.tournament import (
    CUT,
    check_cut,
    check_final_rounds,
    check_final_table,
    check_preliminary_rounds,
    check_round_points,
    check_seating,
    check_semifinal_cut,
    check_tournament_round,
    draw_cut,
    stage_before,
    stage_rounds,
)
from events.said import Said, problem, say, sentence
from events.schema import GameId, PlayerId
from events.tables import Ruleset, Stage
from ingest.chain import StoredEvent
from ingest.revisions import current, marker_type, standing
from ingest.sources import project_tournament
from ingest.store import NewEvent, StaleAppend, Store

T = TypeVar("T", bound=str)
STAGES: Final[tuple[Stage, ...]] = ("preliminary", "semifinal", "final")
RULESETS: Final[tuple[Ruleset, ...]] = ("tournament", "base")
_TOURNAMENT_ID: TypeAdapter[str] = TypeAdapter(GameId)
_PLAYER_ID: TypeAdapter[str] = TypeAdapter(PlayerId)


class RecordError(ValueError):
    """A command that cannot be recorded, with the reason a person can act on: a
    sentence and its values (:mod:`events.said`), so the Audit page and ``--lang`` say
    it in the reader's language; ``str()`` is its English."""

    def __init__(self, message: str | Said) -> None:
        said = message if isinstance(message, Said) else problem(message)
        super().__init__(said.english())
        self.said = said

    def __reduce__(self) -> tuple[type[RecordError], tuple[object, ...]]:
        return type(self), (self.said,)


class TournamentExists(RecordError):
    """A tournament created under an id already taken: the command line says what to do
    with it instead (another id, or carry on with the one there is)."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """What a command appended: the stream, its new version, the events, and how many
    penalties the tournament has been given now (withdrawn or not): a penalty just
    given has that number."""

    stream: str
    version: int
    events: tuple[TournamentEvent, ...]
    penalties: int = 0


def stream_of(tournament: str) -> str:
    return f"tournament:{tournament}"


def _stream_events(
    store: Store, con: duckdb.DuckDBPyConnection, stream: str
) -> tuple[list[dict[str, Any]], int, int | None]:
    """The events the stream stands on (:func:`ingest.revisions.standing`: its current
    revision, and the commands' records of those before), its version, and the upload
    that created it (``None`` when a command did)."""
    events = store.read(con, stream)
    revision = current(events)
    version = events[-1].version if events else 0
    return [json.loads(e.payload) for e in standing(events)], version, revision.upload_id


def append(
    store: Store,
    tournament: str,
    new: Sequence[TournamentEvent],
    *,
    creating: bool = False,
    seen: int | None = None,
) -> Recorded:
    """Append ``new`` events to the tournament's stream and re-project its read models,
    in one transaction, at the version read: an append that another made stale in the
    meantime is judged again on the record as it now stands (:func:`_one_decision`),
    never merged unseen. A record of a tournament that a file not yet made cannot
    hold is refused before the file is made (a mistyped ``--db`` made an empty store).
    ``seen``: for a decision on a round (a correction, a replay accepted), the
    :func:`decisions` on it that the form it was made in was laid out after; it is
    refused when the record holds more (:func:`_decided_meanwhile`)."""
    stream = stream_of(tournament)
    for event in new:
        _one_line_reason(event)
    if not creating and not store.path.exists():
        raise RecordError(_no_tournament(tournament))
    for attempt in range(_ATTEMPTS):
        try:
            with store.connect() as con:
                events, version, created_by = _stream_events(store, con, stream)
                if creating and events:
                    raise TournamentExists(say("tournament %(tournament)s already exists", tournament=tournament))
                if not creating and not events:
                    raise RecordError(_no_tournament(tournament))
                _one_decision(events, new)
                _one_state(events, new, tournament)
                _decided_meanwhile(events, new, seen)
                appended = [NewEvent(stream, e.type, dump(e)) for e in new]
                rows = project_tournament([*events, *new], created_by)
                store.append(con, stream, version, appended, rows=rows)
            return Recorded(stream, version + len(new), tuple(new), len(rows["penalties"]))
        except StaleAppend:
            if attempt == _ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


REASON_MOST: Final = 1_000
"""The longest reason a record keeps: a paragraph. One of 20 KB made the standings' PDF
six pages of it, and the penalties' table wider than the page."""


def _one_line_reason(event: TournamentEvent) -> None:
    """Refuse a record's reason that holds a control character, a line break or a mark
    that turns the text after it backwards (as a display name may not: a reason shows on
    the Standings page, the PDF and the command line), or that is over
    :data:`REASON_MOST` characters."""
    reason = getattr(event, "reason", None)
    if not isinstance(reason, str):
        return
    if not one_line(reason):
        raise RecordError(
            say("a reason is one line of text: no line break, control character or mark that turns the text")
        )
    if len(reason) > REASON_MOST:
        raise RecordError(
            say("a reason of %(length)s characters: at most %(most)s", length=len(reason), most=REASON_MOST)
        )


_ATTEMPTS: Final = 5
"""Tries of an append that others' appends keep making stale, before it gives up."""


def _one_decision(record: Sequence[Mapping[str, Any]], new: Sequence[TournamentEvent]) -> None:
    """A :class:`RecordError` if a penalty or a dismissal in ``new`` names a finding the
    ``record`` has decided already: one finding, one decision (R-TS5); or if a
    withdrawal in ``new`` names a penalty the record does not hold, or one withdrawn
    already. A second penalty counted twice, and a dismissal after a penalty showed the
    finding dismissed with its points still deducted; a penalty withdrawn leaves its
    finding open, to be decided again. Judged in the append's own transaction, so two
    organisers deciding the same finding at once cannot both pass."""
    given: list[str | None] = []  # each penalty's finding, by its number less one
    withdrawn: set[int] = set()
    decided: dict[str, str] = {}
    for index, event in enumerate([*record, *(e.model_dump() for e in new)]):
        kind, finding, number = str(event["type"]), event.get("finding"), event.get("penalty")
        if index >= len(record):
            _judge(kind, finding, number, decided, len(given), withdrawn)
        if kind in ("penalty_given", "finding_dismissed") and finding is not None:
            decided[str(finding)] = kind
        if kind == "penalty_given":
            given.append(None if finding is None else str(finding))
        elif kind == "penalty_withdrawn" and isinstance(number, int) and 1 <= number <= len(given):
            withdrawn.add(number)
            undone = given[number - 1]
            if undone is not None and decided.get(undone) == "penalty_given":
                del decided[undone]


def _judge(kind: str, finding: Any, number: Any, decided: Mapping[str, str], given: int, withdrawn: set[int]) -> None:
    """One new record judged on the record before it (:func:`_one_decision`)."""
    if kind in ("penalty_given", "finding_dismissed") and finding is not None:
        if decided.get(str(finding)) == "penalty_given":
            raise RecordError(say("finding %(finding)s has had its penalty already", finding=str(finding)))
        if decided.get(str(finding)) == "finding_dismissed":
            raise RecordError(say("finding %(finding)s was dismissed already", finding=str(finding)))
    if kind == "penalty_withdrawn" and isinstance(number, int):
        if number > given:
            raise RecordError(
                say("no penalty %(number)s: the tournament has been given %(count)s", number=number, count=given)
            )
        if number in withdrawn:
            raise RecordError(say("penalty %(number)s was withdrawn already", number=number))


def _one_state(record: Sequence[Mapping[str, Any]], new: Sequence[TournamentEvent], tournament: str) -> None:
    """A :class:`RecordError` if a record in ``new`` contradicts the state the ``record``
    left: a player withdrawn who has withdrawn already, or returned who has not; a
    seating that seats a withdrawn player; a replay accepted for a round whose newest
    decision is that replay already; a round seated again without the reason that
    replaces its seating (R-TS1); a tie at the cut line drawn again (R-TS2: the first
    draw places it). Judged in the append's own transaction, as :func:`_one_decision`
    is: two organisers withdrawing a player, accepting a replay, seating a round or
    drawing a tie at once record it once (the second told so, not its seating or draw
    printed and then replaced by the other's), and a seating made as a player withdraws
    cannot seat them."""
    gone: set[str] = set()
    newest: dict[tuple[str, int], str] = {}  # each round's newest decision: a correction or the replay
    seated: set[tuple[str, int]] = set()  # each seated round, by stage and number
    drawn: set[tuple[str, tuple[str, ...], int]] = set()  # each tie drawn: stage, players, places
    for index, event in enumerate([*record, *(e.model_dump() for e in new)]):
        kind, player = str(event["type"]), str(event.get("player"))
        round_of = (str(event.get("game_id")), int(event.get("round") or 0))
        if index >= len(record):
            _judge_state(event, gone, newest.get(round_of), tournament)
            _judge_again(event, seated, drawn, tournament)
        if kind == "player_withdrawn":
            gone.add(player)
        elif kind == "player_returned":
            gone.discard(player)
        elif kind in ("score_corrected", "replay_accepted"):
            newest[round_of] = kind
        elif kind == "seating_published":
            seated.add(_seated_round(event))
        elif kind == "cut_drawn":
            drawn.add(_drawn_tie(event))


def _decided_meanwhile(record: Sequence[Mapping[str, Any]], new: Sequence[TournamentEvent], seen: int | None) -> None:
    """A :class:`RecordError` if a decision on a round in ``new`` was made on a form laid
    out after ``seen`` decisions on it (:func:`decisions`), and the record now holds
    more: another organiser (a page, a command) decided it meanwhile. Two organisers
    correcting one player's round at once were both told "recorded", and the later
    correction stood, the earlier lost unsaid; a replay accepted over a correction made
    meanwhile replaced it unseen. Judged in the append's own transaction, as
    :func:`_one_decision` is: of two at one moment, one is recorded and the other told."""
    if seen is None:
        return
    for event in new:
        if isinstance(event, ScoreCorrected | ReplayAccepted):
            player = event.player if isinstance(event, ScoreCorrected) else None
            if _decisions_in(record, event.game_id, event.round, player) != seen:
                raise RecordError(
                    say(
                        "round %(round)s of %(game)s was decided meanwhile, after the form was shown (a correction, "
                        "or its replay accepted): nothing is recorded; look at the round as it is now, and decide "
                        "again",
                        round=event.round,
                        game=event.game_id,
                    )
                )


def _decisions_in(record: Sequence[Mapping[str, Any]], game: str, number: int, player: str | None) -> int:
    """:func:`decisions`, counted in the record's events (as the read models count them)."""
    return sum(
        1
        for event in record
        if event.get("game_id") == game
        and event.get("round") == number
        and (
            event["type"] == "replay_accepted"
            or (event["type"] == "score_corrected" and (player is None or event.get("player") == player))
        )
    )


_DECISIONS: Final = """
SELECT (SELECT count(*) FROM corrections
        WHERE tournament = $tournament AND game_id = $game AND round = $round
          AND ($player::VARCHAR IS NULL OR player = $player))
     + (SELECT count(*) FROM accepted_replays WHERE tournament = $tournament AND game_id = $game AND round = $round)
"""


def decisions(store: Store, tournament: str, game: str, number: int, player: str | None = None) -> int:
    """How many decisions the record holds on one round of a game: its replays accepted,
    and its corrections (of ``player`` alone, when one is named). Each is a new event, so
    the count only grows: a form that corrects the round (or accepts its replay) is laid
    out after so many, and records nothing if the record holds more when it is sent
    (``correct(seen=...)``, ``accept_replay(seen=...)``)."""
    params = {"tournament": tournament, "game": game, "round": number, "player": player}
    with store.connect(read_only=True) as con:
        (count,) = con.execute(_DECISIONS, params).fetchone() or (0,)
    return int(count)


def _seated_round(event: Mapping[str, Any]) -> tuple[str, int]:
    return str(event.get("stage") or "preliminary"), int(event["tournament_round"])


def _drawn_tie(event: Mapping[str, Any]) -> tuple[str, tuple[str, ...], int]:
    """A draw's tie as the standings match it to one: its players and places (the
    points and stars aside), in its stage."""
    return str(event.get("stage") or "preliminary"), tuple(sorted(str(p) for p in event["tied"])), int(event["places"])


def _judge_again(
    event: Mapping[str, Any],
    seated: set[tuple[str, int]],
    drawn: set[tuple[str, tuple[str, ...], int]],
    tournament: str,
) -> None:
    """A new seating or draw judged on those before it (:func:`_one_state`): a round
    seated anew says why (``seat --replace --reason``), and a tie the record has drawn
    is placed by that draw, never drawn again (the standings would take the newest)."""
    kind = str(event["type"])
    if kind == "seating_published" and _seated_round(event) in seated and event.get("reason") is None:
        raise RecordError(_seated_already(int(event["tournament_round"]), tournament))
    if kind == "cut_drawn" and _drawn_tie(event) in drawn:
        raise RecordError(
            say(
                "the tie at the cut line among %(tied)s is drawn already: the standings place it by that draw "
                "(saboteur tournament log shows it)",
                tied=tuple(sorted(str(p) for p in event["tied"])),
            )
        )


def _seated_already(number: int, tournament: str) -> Said:
    return say(
        "round %(round)s of %(tournament)s is already seated: to seat it anew, say why with "
        "--replace --reason (the published seating stays in the record)",
        round=number,
        tournament=tournament,
    )


def _judge_state(event: Mapping[str, Any], gone: set[str], newest: str | None, tournament: str) -> None:
    """One new record judged on the state before it (:func:`_one_state`)."""
    kind, player = str(event["type"]), str(event.get("player"))
    if kind == "player_withdrawn" and player in gone:
        raise RecordError(say("%(player)s has withdrawn already", player=player))
    if kind == "player_returned" and player not in gone:
        raise RecordError(say("%(player)s has not withdrawn from %(tournament)s", player=player, tournament=tournament))
    if kind == "replay_accepted" and newest == "replay_accepted":  # a second would record nothing new
        raise RecordError(
            say(
                "the replay of round %(round)s of %(game)s is accepted already",
                round=event["round"],
                game=event["game_id"],
            )
        )
    seated = (
        {p for table in event.get("tables") or () for p in table["players"]} if kind == "seating_published" else set()
    )
    if seated & gone:
        raise RecordError(
            say(
                "%(players)s withdrew from %(tournament)s: a seating leaves them out, unless their return is "
                "recorded first (saboteur tournament return-player)",
                players=tuple(sorted(seated & gone)),
                tournament=tournament,
            )
        )


def history(store: Store, tournament: str) -> list[StoredEvent]:
    """The tournament's record in the order it was made: every event of its stream, and
    the markers of its games stored anew (``ingest --supersede``): of a game in it now,
    or in it once (a version of its log named the tournament), so that a game stored
    anew out of the tournament (its log's header without ``tournament``, as a game put
    at the wrong table is taken out) says when and why it left."""
    with store.connect(read_only=True) as con:
        record = store.read(con, stream_of(tournament))
        markers = list(store.read_all(con, types=[marker_type("game")]))
        games = {
            str(stream)
            for (stream,) in con.execute(
                "SELECT 'game:' || game_id FROM games WHERE tournament = $t UNION "
                "SELECT DISTINCT stream FROM events WHERE type IN (SELECT unnest($headers::VARCHAR[])) "
                "AND stream IN (SELECT unnest($marked::VARCHAR[])) "
                "AND json_extract_string(payload, '$.tournament') = $t",
                {"t": tournament, "marked": sorted({e.stream for e in markers}), "headers": list(GAME_HEADERS)},
            ).fetchall()
        }
        markers = [e for e in markers if e.stream in games]
    return sorted([*record, *markers], key=lambda e: e.position)


@contextmanager
def _shaped() -> Iterator[None]:
    """Refuse, by field, what the event's model refuses (a stage that is none, a
    round out of range): a :class:`RecordError`, never a traceback."""
    try:
        yield
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RecordError(say("`%(field)s`: %(problem)s", field=where, problem=(said_of(first),))) from None


def _one_of(text: str, allowed: tuple[T, ...], refusal: Said) -> T:
    """``text`` as the one of ``allowed`` it names; a :class:`RecordError` otherwise."""
    for value in allowed:
        if value == text:
            return value
    raise RecordError(refusal)


def _stage(text: str) -> Stage:
    return _one_of(text, STAGES, say("%(given)s is no stage: preliminary, semifinal or final", given=repr(text)))


_NOT_VALID: Final = {
    "tournament": sentence("%(given)s is not a valid tournament id (1–128 of A-Z a-z 0-9 _ . : -)"),
    "player": sentence("%(given)s is not a valid player id (1–64 of A-Z a-z 0-9 _ . -)"),
}
"""What an id that is none says, by what it should have been."""


def _no_tournament(tournament: str) -> Said:
    return say("no tournament %(tournament)s: create it first (saboteur tournament create)", tournament=tournament)


def _valid(adapter: TypeAdapter[str], value: str, what: str) -> str:
    try:
        return adapter.validate_python(value)
    except ValidationError:
        raise RecordError(say(_NOT_VALID[what], given=repr(value))) from None


def create(
    store: Store,
    tournament: str,
    *,
    name: str,
    ruleset: str = "tournament",
    preliminary_rounds: int = 4,
    cut: int = CUT,
    final_rounds: int = 4,
    semifinal: bool = False,
    semifinal_cut: int | None = None,
) -> Recorded:
    """Create a tournament with the limits its organiser announces (R-TS1, R-TS3, R-TS4):
    with a semi-final, ``semifinal_cut`` players go on to it from the preliminaries
    (``None``: the cut), and its own top ``cut`` to the final."""
    _valid(_TOURNAMENT_ID, tournament, "tournament")
    known = _one_of(ruleset, RULESETS, say("%(given)s is no ruleset: tournament or base", given=repr(ruleset)))
    if semifinal_cut is not None and not semifinal:
        raise RecordError(say("a semi-final cut needs a semi-final (--semifinal)"))
    checks = [check_preliminary_rounds(preliminary_rounds), check_cut(cut), check_final_rounds(final_rounds)]
    if semifinal_cut is not None:
        checks.append(check_semifinal_cut(semifinal_cut, cut))
    for breach in checks:
        if breach is not None:
            raise RecordError(breach.said)
    if shows_nothing(name):
        raise RecordError(say("a tournament needs a name"))
    if len(name.strip()) > NAME_MOST or not one_line(name):  # as register refuses a player's (R-TS5)
        raise RecordError(
            say(
                "a tournament's name is one line of at most %(most)s characters, with no control or "
                "text-direction characters",
                most=NAME_MOST,
            )
        )
    with _shaped():
        event = TournamentCreated(
            type="tournament_created",
            tournament=tournament,
            name=name.strip(),
            ruleset=known,
            preliminary_rounds=preliminary_rounds,
            cut=cut,
            final_rounds=final_rounds,
            semifinal=semifinal,
            semifinal_cut=semifinal_cut,
        )
    return append(store, tournament, [event], creating=True)


def register(store: Store, tournament: str, players: Sequence[tuple[str, str]]) -> Recorded:
    """Register players (id, display name); a second registration renames."""
    events: list[TournamentEvent] = []
    for player, name in players:
        _valid(_PLAYER_ID, player, "player")
        if shows_nothing(name):
            raise RecordError(say("player %(player)s needs a name", player=player))
        if len(name.strip()) > NAME_MOST or not one_line(name):
            raise RecordError(
                say(
                    "player %(player)s: a name is one line of at most %(most)s characters, with no control or "
                    "text-direction characters",
                    player=player,
                    most=NAME_MOST,
                )
            )
        events.append(PlayerRegistered(type="player_registered", player=player, name=name.strip()))
    if not events:
        raise RecordError(say("no players to register"))
    return append(store, tournament, events)


def registered_before(store: Store, tournament: str, player: str) -> str | None:
    """The name ``player`` was registered under before their newest registration (a
    second registration renames), or ``None`` for a first one."""
    with store.connect(read_only=True) as con:
        events, _, _ = _stream_events(store, con, stream_of(tournament))
    names = [e["name"] for e in events if e["type"] == "player_registered" and e["player"] == player]
    return str(names[-2]) if len(names) > 1 else None


def withdraw_player(store: Store, tournament: str, player: str, reason: str) -> Recorded:
    """A player who leaves the tournament, with why (:class:`PlayerWithdrawn`): their
    rounds stand, no later round seats them, and a cut passes them over."""
    if not reason.strip():
        raise RecordError(say("a withdrawal needs a --reason"))
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        if player not in _registered(con, tournament):
            raise RecordError(
                say("%(player)s is not registered in %(tournament)s", player=player, tournament=tournament)
            )
    with _shaped():
        event = PlayerWithdrawn(type="player_withdrawn", player=player, reason=reason.strip())
    return append(store, tournament, [event])


def return_player(store: Store, tournament: str, player: str, reason: str) -> Recorded:
    """A withdrawn player back in the tournament, with why (:class:`PlayerReturned`)."""
    if not reason.strip():
        raise RecordError(say("a return needs a --reason"))
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        if player not in _registered(con, tournament):  # not "has not withdrawn", as if they might
            raise RecordError(
                say("%(player)s is not registered in %(tournament)s", player=player, tournament=tournament)
            )
    with _shaped():
        event = PlayerReturned(type="player_returned", player=player, reason=reason.strip())
    return append(store, tournament, [event])


def _withdrawn(con: duckdb.DuckDBPyConnection, tournament: str) -> dict[str, str]:
    """The players withdrawn from ``tournament``, each with why."""
    rows = con.execute(
        "SELECT player, withdrawn_reason FROM tournament_players WHERE tournament = ? AND withdrawn_seq IS NOT NULL",
        [tournament],
    ).fetchall()
    return {str(player): str(reason) for player, reason in rows}


def withdrawn(store: Store, tournament: str) -> dict[str, str]:
    """The players withdrawn from ``tournament`` (and not back), each with why."""
    with store.connect(read_only=True) as con:
        return _withdrawn(con, tournament)


def namesakes(store: Store, tournament: str, players: Collection[str]) -> list[tuple[str, list[str]]]:
    """Each name that ``players`` share with another registered player of
    ``tournament`` (as a person reads a name: :data:`analytics.standings.NAME_KEY`),
    with every player registered under it, by id. The standings tell such players apart
    by their ids; a name of their own is clearer to read out."""
    key = NAME_KEY.replace("{name}", "name")
    with store.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT any_value(name ORDER BY player), list(player ORDER BY player) FROM tournament_players "
            f"WHERE tournament = ? GROUP BY {key} HAVING count(*) > 1 ORDER BY 1",
            [tournament],
        ).fetchall()
    wanted = set(players)
    return [(str(name), [str(p) for p in ids]) for name, ids in rows if wanted & set(ids)]


def _refused_at(line: int, said: Said) -> RecordError:
    return RecordError(say("line %(line)s: %(problem)s", line=line, problem=(said,)))


def read_player_list(text: str) -> list[tuple[str, str]]:
    """A player list as CSV with the header ``player,name`` (commas, or semicolons as
    Excel writes them in many countries); each player once; errors name the line."""
    _, rows = spreadsheet_rows(text, _refused_at)
    header = [h.strip() for h in next(rows, [])]
    if header != ["player", "name"]:
        found = ",".join(header)
        raise RecordError(
            say("line 1: the columns must be player,name; found %(found)s", found=found)
            if found
            else say("line 1: the columns must be player,name; found nothing")
        )
    people = []
    listed: dict[str, int] = {}
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2:
            raise RecordError(
                say("line %(line)s: two values (player,name), found %(count)s", line=number, count=len(row))
            )
        player, name = (cell.strip() for cell in row)
        try:
            _PLAYER_ID.validate_python(player)
        except ValidationError:
            raise RecordError(
                say("line %(line)s: %(given)s is not a valid player id", line=number, given=repr(player))
            ) from None
        if shows_nothing(name):
            raise RecordError(say("line %(line)s: %(player)s needs a name", line=number, player=player))
        if player in listed:
            # the second name replaced the first person, and the count said two were registered
            raise RecordError(
                say(
                    "line %(line)s: %(player)s is listed already, on line %(first)s",
                    line=number,
                    player=player,
                    first=listed[player],
                )
            )
        listed[player] = number
        people.append((player, name))
    return people


@dataclass(frozen=True, slots=True)
class Announced:
    """What a tournament's organiser announced when creating it (R-TS1, R-TS3, R-TS4):
    the limits the commands hold its records to."""

    tournament: str
    ruleset: Ruleset
    preliminary_rounds: int
    cut: int
    final_rounds: int
    semifinal: bool


def _require(con: duckdb.DuckDBPyConnection, tournament: str) -> Announced:
    """The tournament as announced; a :class:`RecordError` naming the command that
    creates it when there is none."""
    rows = con.execute(
        "SELECT ruleset, preliminary_rounds, cut, final_rounds, coalesce(semifinal, false) "
        "FROM tournaments WHERE tournament = ?",
        [tournament],
    ).fetchall()
    if not rows:
        raise RecordError(_no_tournament(tournament))
    ruleset, preliminary_rounds, cut, final_rounds, semifinal = rows[0]
    unknown = say(
        "tournament %(tournament)s has an unknown ruleset %(given)s", tournament=tournament, given=repr(ruleset)
    )
    known = _one_of(str(ruleset), RULESETS, unknown)
    return Announced(tournament, known, int(preliminary_rounds), int(cut), int(final_rounds), bool(semifinal))


def announced(store: Store, tournament: str) -> Announced:
    """What ``tournament`` announced; a :class:`RecordError` if there is no such
    tournament (a read command's first question)."""
    with store.connect(read_only=True) as con:
        return _require(con, tournament)


def stage_refusal(store: Store, tournament: str, stage: str) -> Said | None:
    """Why the standings of ``stage`` cannot be shown, with what to do instead, or
    ``None``: a tournament that does not exist, a stage that is none or was not
    announced, a stage neither seated nor with a game in yet, or with games in none of
    the rounds the stage announced. A stage seated and not yet played is shown (its
    players at 0, as ``--as-of`` showed it of the moment before its first game, where
    the same moment asked now was refused)."""
    try:
        known = _stage(stage)
        with store.connect(read_only=True) as con:
            told = _require(con, tournament)
            if not stage_rounds(known, told.preliminary_rounds, told.semifinal):
                return say(
                    "%(tournament)s announced no semi-final: ask for the preliminary or the final standings",
                    tournament=tournament,
                )
            if known == "preliminary":
                return None
            rounds = stage_rounds(known, told.preliminary_rounds, told.semifinal)
            played = con.execute(  # a game naming no round is of the stage's one round (standings._announced)
                "SELECT game_id, coalesce(list_contains(?, tournament_round), true) FROM games "
                "WHERE tournament = ? AND stage = ? ORDER BY game_id",
                [list(rounds), tournament, known],
            ).fetchall()
            seated = con.execute(
                "SELECT 1 FROM seatings WHERE tournament = ? AND stage = ? LIMIT 1", [tournament, known]
            ).fetchall()
    except RecordError as exc:
        return exc.said
    if any(counted for _, counted in played):
        return None
    if seated and not played:  # seated, not yet played: who plays it, at 0, in the order its ties go by
        return None
    if played:  # in, but numbered as a round the stage did not announce: it counts in no standings (R-TS1)
        return say(
            "no game of the %(stage)s of %(tournament)s counts yet: %(games)s is numbered as a round the "
            "%(stage)s did not announce (the %(stage)s is round %(round)s), and counts in no standings until its "
            "header is put right (saboteur tournament check names it)",
            stage=known,
            tournament=tournament,
            games=", ".join(game for game, _ in played),
            round=rounds.start,
        )
    return say(
        "no game of the %(stage)s of %(tournament)s is in yet: ask for an earlier stage's standings",
        stage=known,
        tournament=tournament,
    )


def _registered(con: duckdb.DuckDBPyConnection, tournament: str) -> set[str]:
    rows = con.execute("SELECT player FROM tournament_players WHERE tournament = ?", [tournament]).fetchall()
    return {str(r[0]) for r in rows}


def penalty(
    store: Store,
    tournament: str,
    player: str,
    points: int,
    reason: str,
    stage: str = "preliminary",
    *,
    finding: str | None = None,
    found: _Found | None = None,
) -> Recorded:
    """Deduct points with a reason (R-TS5), for ``finding`` if one is named (see
    :func:`penalty_for`, which gives what it ``found`` of it)."""
    if not reason.strip():
        raise RecordError(say("a penalty needs a --reason"))
    if points <= 0:
        raise RecordError(say("a penalty deducts a positive number of points"))
    known = _stage(stage)
    with store.connect(read_only=True) as con:
        told = _require(con, tournament)
        if not stage_rounds(known, told.preliminary_rounds, told.semifinal):
            # deducted in no standings the tournament has, it would be recorded for nothing
            raise RecordError(
                say(
                    "%(tournament)s announced no semi-final: give the penalty in the preliminary or the final",
                    tournament=tournament,
                )
            )
        if player not in _registered(con, tournament):
            raise RecordError(
                say("%(player)s is not registered in %(tournament)s", player=player, tournament=tournament)
            )
        if found is not None and found.players and player not in found.players:
            raise RecordError(
                say(
                    "%(player)s did not play %(game)s, where finding %(finding)s was found: its penalty goes to one of "
                    "its players (%(players)s); a penalty for something else is given without --finding",
                    player=player,
                    game=found.game,
                    finding=finding,
                    players=", ".join(found.players),
                )
            )
        at_the_stage = _at_stage(con, tournament, known)
        if at_the_stage and player not in at_the_stage:
            # the stage's standings rank only whom it seats or who played in it: deducted nowhere
            raise RecordError(
                say(
                    "%(player)s is not in the %(stage)s (it seats %(players)s): a penalty of the %(stage)s counts "
                    "in its standings alone; give it in a stage %(player)s plays",
                    player=player,
                    stage=known,
                    players=", ".join(sorted(at_the_stage)),
                )
            )
    with _shaped():
        event = PenaltyGiven(
            type="penalty_given",
            player=player,
            points=points,
            stage=known,
            reason=reason.strip(),
            **({"finding": finding} if finding is not None else {}),
        )
    return append(store, tournament, [event])


def _at_stage(con: duckdb.DuckDBPyConnection, tournament: str, stage: str) -> set[str]:
    """The players a semi-final or final seats or who played in it, as its standings rank
    them (none yet: nobody is known to be out of it); none for the preliminaries, which
    rank every registered player."""
    if stage == "preliminary":
        return set()
    rows = con.execute(
        "SELECT player FROM seatings WHERE tournament = $t AND stage = $s UNION "
        "SELECT unnest(player_ids) FROM games WHERE tournament = $t AND stage = $s",
        {"t": tournament, "s": stage},
    ).fetchall()
    return {str(r[0]) for r in rows}


@dataclass(frozen=True, slots=True)
class _Found:
    """A stored finding as a record needs it: its game's stage and its players, the
    player it names."""

    stage: str
    player: str | None
    game: str
    players: tuple[str, ...]


def _finding(con: duckdb.DuckDBPyConnection, tournament: str, finding: str) -> _Found:
    """The finding ``finding`` of a game of ``tournament``; a :class:`RecordError` if
    none is stored, or it belongs to another tournament."""
    _require(con, tournament)
    rows = con.execute(
        "SELECT g.tournament, coalesce(g.stage, 'preliminary'), f.player, g.game_id, g.player_ids "
        f"FROM {EVERY_FINDING} f JOIN games g USING (game_id) WHERE f.finding_id = ?",
        [finding],
    ).fetchall()
    if not rows:
        raise RecordError(say("no finding %(finding)s is stored", finding=finding))
    owner, stage, player, game, players = rows[0]
    if owner != tournament:
        raise RecordError(
            say(
                "finding %(finding)s belongs to %(owner)s, not %(tournament)s",
                finding=finding,
                owner=owner,
                tournament=tournament,
            )
            if owner
            else say(
                "finding %(finding)s belongs to no tournament, not %(tournament)s",
                finding=finding,
                tournament=tournament,
            )
        )
    return _Found(str(stage), player, str(game), tuple(str(p) for p in players or ()))


def penalty_for(
    store: Store,
    tournament: str,
    finding: str,
    points: int,
    reason: str,
    *,
    player: str | None = None,
    stage: str | None = None,
) -> Recorded:
    """Turn a finding (a ``table_incident`` a referee noted, R-C1) into a penalty that
    names it (R-TS5), in one record: the penalty goes to the player the finding names
    and counts in its game's stage, unless told otherwise; a finding that names nobody
    needs ``player``, one of its game's: a penalty for what happened at a table goes to
    a player who sat there (a mistyped id of another registered player was recorded,
    unsaid, and settled the finding). The finding is settled by it (no longer open)."""
    with store.connect(read_only=True) as con:
        found = _finding(con, tournament, finding)
    who = player or found.player
    if who is None:
        raise RecordError(
            say("finding %(finding)s names no player: name the player whose penalty it is", finding=finding)
        )
    return penalty(store, tournament, who, points, reason, stage or found.stage, finding=finding, found=found)


def named_by(store: Store, tournament: str, finding: str) -> str | None:
    """The player a finding of ``tournament`` names (``None``: it names nobody); a
    :class:`RecordError` for a finding that is not the tournament's."""
    with store.connect(read_only=True) as con:
        return _finding(con, tournament, finding).player


def _round_of(con: duckdb.DuckDBPyConnection, tournament: str, game: str, number: int) -> list[tuple[Any, ...]]:
    _require(con, tournament)
    game_rows = con.execute("SELECT tournament FROM games WHERE game_id = ?", [game]).fetchall()
    if not game_rows:
        raise RecordError(say("no game %(game)s is stored", game=game))
    owner = game_rows[0][0]
    if owner != tournament:
        raise RecordError(
            say("game %(game)s belongs to %(owner)s, not %(tournament)s", game=game, owner=owner, tournament=tournament)
            if owner
            else say("game %(game)s belongs to no tournament, not %(tournament)s", game=game, tournament=tournament)
        )
    rows = con.execute(
        "SELECT player, recorded_points, replay_points FROM round_players WHERE game_id = ? AND round = ?",
        [game, number],
    ).fetchall()
    if not rows:
        raise RecordError(say("game %(game)s has no round %(round)s", game=game, round=number))
    return rows


def correct(
    store: Store,
    tournament: str,
    game: str,
    number: int,
    player: str,
    points: int,
    reason: str,
    *,
    star: bool | None = None,
    seen: int | None = None,
) -> Recorded:
    """Put a wrong score right: names what it corrects and why (R-TS5), and the
    player's star for the round too when ``star`` is given (left as the round gave it
    otherwise). ``seen``: the :func:`decisions` on the player's round the correction was
    made after (a page's form): refused if another came meanwhile. The command line
    gives none: its organiser typed what the round is to be."""
    if not reason.strip():
        raise RecordError(say("a correction needs a --reason"))
    with store.connect(read_only=True) as con:
        breach = check_round_points(points, _require(con, tournament).ruleset)
        if breach is not None:
            raise RecordError(
                say("%(problem)s: enter the points the round gave (%(rule)s)", problem=(breach.said,), rule=breach.rule)
            )
        rows = _round_of(con, tournament, game, number)
        if player not in {str(r[0]) for r in rows}:
            raise RecordError(
                say("%(player)s did not play round %(round)s of %(game)s", player=player, round=number, game=game)
            )
    with _shaped():
        event = ScoreCorrected(
            type="score_corrected",
            game_id=game,
            round=number,
            player=player,
            points=points,
            reason=reason.strip(),
            **({"star": star} if star is not None else {}),
        )
    return append(store, tournament, [event], seen=seen)


_OPEN_WRONG_SCORES: Final = """
SELECT f.finding_id FROM findings f
WHERE f.game_id = $game AND f.round = $round AND f.code = 'wrong_score' AND {status} = 'open'
ORDER BY f.line""".replace("{status}", FINDING_STATUS.replace("{tournament}", "$tournament"))


def still_wrong_in(store: Store, tournament: str, game: str, number: int) -> list[str]:
    """The ``wrong_score`` findings of one round still open after a correction, as the
    findings list has them (:data:`analytics.standings.FINDING_STATUS`): those its
    corrections have not put right, a correction of another player leaving them as they
    were, and not one dismissed or penalised. The organiser who just corrected the round
    is told of them."""
    with store.connect(read_only=True) as con:
        sql = with_still_wrong(_OPEN_WRONG_SCORES, con, tournament)
        rows = con.execute(sql, {"tournament": tournament, "game": game, "round": number}).fetchall()
    return [str(r[0]) for r in rows]


def corrected_off_the_rules(store: Store, tournament: str, game: str, number: int) -> bool:
    """Whether one round as corrected is not what the rules give, though no finding of it
    says so (:func:`still_wrong_in` tells of those): a correction of a clean round to a
    score no outcome allows (a losing saboteur given 4) is the organiser's to make, and
    to be told of."""
    with store.connect(read_only=True) as con:
        return not round_fits(con, tournament, game, number)


def accept_replay(
    store: Store, tournament: str, game: str, number: int, reason: str | None = None, *, seen: int | None = None
) -> Recorded:
    """The replay's outcome replaces what the score sheet said, for one round, and
    any correction of it made before (the newest decision on a round counts); refused
    when the replay is the round's newest decision already, and for a round its log
    stopped before it was over (R-E2): the replay scores it as "the gold was not
    reached", the saboteurs' points without their star, a win nobody played out.
    ``seen``: the :func:`decisions` on the round the acceptance was made after (a page's
    form): refused if another came meanwhile, which it would replace unseen."""
    with store.connect(read_only=True) as con:
        rows = _round_of(con, tournament, game, number)
        (source,) = con.execute("SELECT source FROM games WHERE game_id = ?", [game]).fetchone() or ("log",)
        if source == "score_sheet":
            raise RecordError(
                say(
                    "%(game)s was entered from a score sheet: it has no replay to accept; correct its scores instead",
                    game=game,
                )
            )
        if any(r[2] is None for r in rows):
            raise RecordError(
                say("the replay of round %(round)s of %(game)s does not settle every score", round=number, game=game)
            )
        (ended_by,) = con.execute(
            "SELECT ended_by FROM rounds WHERE game_id = ? AND round = ?", [game, number]
        ).fetchone() or (None,)
        if ended_by == "early":  # the replay's scores are "the gold was not reached", which nobody played out
            raise RecordError(
                say(
                    "round %(round)s of %(game)s was stopped before it was over (R-E2): the rules give it no "
                    "winner, and its replay no score to accept; correct its scores instead",
                    round=number,
                    game=game,
                )
            )
    with _shaped():
        event = ReplayAccepted(
            type="replay_accepted", game_id=game, round=number, reason=(reason or "").strip() or None
        )
    return append(store, tournament, [event], seen=seen)


def withdraw_penalty(store: Store, tournament: str, number: int, reason: str) -> Recorded:
    """Take back penalty ``number`` (given in error), with a reason (R-TS5): it stays in
    the record and no longer counts; a finding it was given for is open again."""
    if not reason.strip():
        raise RecordError(say("a withdrawal needs a --reason"))
    with _shaped():
        event = PenaltyWithdrawn(type="penalty_withdrawn", penalty=number, reason=reason.strip())
    return append(store, tournament, [event])


def dismiss(store: Store, tournament: str, finding: str, reason: str) -> Recorded:
    """Set a finding aside with a reason (it stays in the record)."""
    if not reason.strip():
        raise RecordError(say("a dismissal needs a --reason"))
    with store.connect(read_only=True) as con:
        _finding(con, tournament, finding)
    event = FindingDismissed(type="finding_dismissed", finding=finding, reason=reason.strip())
    return append(store, tournament, [event])


def publish_seating(
    store: Store,
    tournament: str,
    number: int,
    tables: Sequence[Sequence[str]],
    *,
    stage: str,
    method: str,
    seed: int | None,
    reason: str | None = None,
    labels: Sequence[str] | None = None,
) -> Recorded:
    """Record a seating of one tournament round (tables of player ids, seat order
    kept): tables of 5–10 registered players, nobody twice (R-TS1); ``reason`` says
    why it replaces the round's seating; ``labels`` are the tables' labels, one each
    and none twice (by default 1, 2, 3 …). Who may be seated in which round is the
    organiser's command's question first (:func:`seating_players`)."""
    named = [str(i) for i in range(1, len(tables) + 1)] if labels is None else list(labels)
    if len(named) != len(tables) or len(set(named)) != len(named):
        raise RecordError(say("a seating names each of its tables once"))
    known = _stage(stage)
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        breach = check_final_table(known, len(tables)) or check_seating(
            tables, _registered(con, tournament), labels=named
        )
    if breach is not None:
        raise RecordError(breach.said)
    with _shaped():
        event = SeatingPublished(
            type="seating_published",
            tournament_round=number,
            stage=known,
            tables=[SeatedTable(table=label, players=list(table)) for label, table in zip(named, tables, strict=True)],
            method=method,
            seed=seed,
            **({"reason": reason.strip()} if reason is not None else {}),
        )
    return append(store, tournament, [event])


def _unfinished(con: duckdb.DuckDBPyConnection, told: Announced, stage: Stage) -> list[Said]:
    """What of ``stage`` is not in yet, a line each: a round neither seated nor
    played, the seated tables of a round without their game. A round played without
    a published seating counts as in (a ``tournament.json`` need not seat)."""
    seated = con.execute(
        "SELECT DISTINCT tournament_round, table_label FROM seatings WHERE tournament = ? AND stage = ?",
        [told.tournament, stage],
    ).fetchall()
    played = con.execute(
        "SELECT DISTINCT tournament_round, table_label FROM games "
        "WHERE tournament = ? AND coalesce(stage, 'preliminary') = ?",
        [told.tournament, stage],
    ).fetchall()
    tables: dict[int, list[str]] = {}
    for number, table in seated:
        tables.setdefault(int(number), []).append(str(table))
    rounds_played = {int(number) for number, _ in played if number is not None}
    missing = []
    for number in stage_rounds(stage, told.preliminary_rounds, told.semifinal):
        if number not in tables and number not in rounds_played:
            missing.append(say("round %(round)s is not played", round=number))
            continue
        absent = sorted(set(tables.get(number, ())) - {str(t) for n, t in played if n == number}, key=table_key)
        if absent:
            missing.append(
                say("round %(round)s has no game in from table %(tables)s", round=number, tables=", ".join(absent))
            )
    return missing


def _in_turn(parts: list[Said]) -> Said:
    """``parts`` as one sentence, each after the other with a semicolon (each is
    translated on its own: one part may hold a list of its own, "table 1, 2")."""
    whole = parts[0]
    for part in parts[1:]:
        whole = say("%(before)s; %(after)s", before=(whole,), after=(part,))
    return whole


def _forced(store: Store, con: duckdb.DuckDBPyConnection, tournament: str, stage: Stage) -> bool:
    """Whether the cut of ``stage`` was forced (:func:`begin_cut`)."""
    events, _, _ = _stream_events(store, con, stream_of(tournament))
    return any(e["type"] == "cut_forced" and e["stage"] == stage for e in events)


def _cut_stage(told: Announced, stage: str) -> Stage:
    """``stage`` as a stage with a top cut this tournament plays: the preliminaries, or
    a semi-final it announced."""
    known = _stage(stage)
    if known == "final":
        raise RecordError(say("the final has no cut: cut the stage before it (--stage preliminary or semifinal)"))
    if not stage_rounds(known, told.preliminary_rounds, told.semifinal):
        raise RecordError(
            say(
                "%(tournament)s announced no semi-final: cut the preliminaries (--stage preliminary)",
                tournament=told.tournament,
            )
        )
    return known


def begin_cut(store: Store, tournament: str, stage: str, *, forced: str | None = None) -> Recorded | None:
    """Check that the top cut of ``stage`` may be made (R-TS3): every game of the stage
    is in. Before then it is refused, naming what is missing, unless ``forced`` gives
    the reason to cut now, which is recorded (:class:`CutForced`); ``None`` when
    nothing needed recording."""
    with store.connect(read_only=True) as con:
        told = _require(con, tournament)
        known = _cut_stage(told, stage)
        missing = _unfinished(con, told, known)
    if not missing:
        return None
    if forced is None:
        raise RecordError(
            say(
                "not every game of the %(stage)s of %(tournament)s is in: %(missing)s. The cut is made once every "
                "game is in, since a draw at the cut line made earlier stops applying when later results change "
                "the tie; ingest the missing games, or cut now with --force --reason",
                stage=known,
                tournament=tournament,
                missing=(_in_turn(missing),),
            )
        )
    if not forced.strip():
        raise RecordError(say("a forced cut needs a --reason"))
    with _shaped():
        # the record keeps what was missing in English, as every record's text is kept
        event = CutForced(type="cut_forced", stage=known, missing=[m.english() for m in missing], reason=forced.strip())
    return append(store, tournament, [event])


def seating_players(store: Store, tournament: str, number: int, stage: str, *, replace: str | None = None) -> list[str]:
    """The players the organiser's ``seat`` seats in round ``number`` of ``stage``,
    after the checks that guard it; a :class:`RecordError` naming what to do instead
    otherwise.

    - The round is one the tournament announced for the stage (R-TS1, R-TS3, R-TS4).
    - A round already seated is seated anew only with the ``replace`` reason (the
      seating it replaces stays in the record).
    - The preliminaries seat every registered player who has not withdrawn; a
      semi-final or the final seats the cut of the stage before it (R-TS3), made once
      that stage is over (or the cut forced, :func:`begin_cut`) and with no tie at the
      cut line left undrawn (a cut passes a withdrawn player over).
    """
    known = _stage(stage)
    with store.connect(read_only=True) as con:
        told = _require(con, tournament)
        breach = check_tournament_round(number, known, told.preliminary_rounds, told.semifinal)
        if breach is not None:
            raise RecordError(
                say(
                    "%(problem)s (%(rule)s): seat a round the tournament announced",
                    problem=(breach.said,),
                    rule=breach.rule,
                )
            )
        seated = con.execute(
            "SELECT 1 FROM seatings WHERE tournament = ? AND tournament_round = ? AND stage = ?",
            [tournament, number, known],
        ).fetchall()
        if seated and replace is None:
            raise RecordError(_seated_already(number, tournament))
        if replace is not None and not replace.strip():
            raise RecordError(say("a replaced seating needs a --reason"))
        before = stage_before(known, told.semifinal)
        if before is None:  # every registered player who has not withdrawn
            return sorted(_registered(con, tournament) - set(_withdrawn(con, tournament)))
        missing = _unfinished(con, told, before)
        if missing and not _forced(store, con, tournament, before):
            raise RecordError(
                say(
                    "the %(stage)s is seated from the cut of the %(earlier)s, not every game of which is in: "
                    "%(missing)s. Ingest the missing games and cut (%(command)s), or cut now with --force --reason",
                    stage=known,
                    earlier=before,
                    missing=(_in_turn(missing),),
                    command=f"saboteur tournament cut --stage {before}",
                )
            )
        table = standings_on(con, tournament, before)
    undrawn = sorted(table.filter(pl.col("cut_tie_undrawn"))["player"].to_list())
    if undrawn:
        raise RecordError(
            say(
                "%(players)s are tied across the cut line: draw the tie first (%(command)s)",
                players=tuple(undrawn),
                command=f"saboteur tournament cut --stage {before}",
            )
        )
    return [str(p) for p in table.filter(pl.col("in_cut"))["player"].to_list()]


@dataclass(frozen=True, slots=True)
class CutMoved:
    """A later stage seated from a cut that the standings no longer give (R-TS3): a
    cut forced before every game was in, or a penalty or correction after it."""

    stage: str
    tournament_round: int
    seated_outside: tuple[str, ...]
    """Seated, but no longer in the cut."""
    left_out: tuple[str, ...]
    """In the cut now, but not seated."""
    undrawn: tuple[str, ...] = ()
    """Tied across the cut line and not drawn: the cut is not settled until the tie is
    drawn (R-TS2), and who it gives is not known (in the cut, none of them, meanwhile)."""
    stage_before: str = "preliminary"


def cuts_moved(store: Store, tournament: str) -> list[CutMoved]:
    """Each semi-final or final whose newest seating seats other players than the cut
    of the stage before now gives (R-TS3: the best go on): nothing said it, and the
    final was ranked with a player the cut had since left out."""
    moved = []
    with store.connect(read_only=True) as con:
        told = _require(con, tournament)
        for stage in ("semifinal", "final"):
            before = stage_before(stage, told.semifinal)
            if before is None:
                continue
            rows = con.execute(
                "SELECT tournament_round, list(player) FROM seatings WHERE tournament = ? AND stage = ? "
                "GROUP BY tournament_round ORDER BY tournament_round",
                [tournament, stage],
            ).fetchall()
            if not rows:
                continue
            table = standings_on(con, tournament, before)
            cut = {str(p) for p in table.filter(pl.col("in_cut"))["player"].to_list()}
            undrawn = tuple(sorted(str(p) for p in table.filter(pl.col("cut_tie_undrawn"))["player"].to_list()))
            for number, players in rows:
                seated = {str(p) for p in players}
                if seated != cut:
                    outside, left_out = tuple(sorted(seated - cut)), tuple(sorted(cut - seated))
                    moved.append(CutMoved(stage, int(number), outside, left_out, undrawn, before))
    return moved


def cut_draw(
    store: Store, tournament: str, *, stage: str, tied: Sequence[str], places: int, points: int, stars: int, seed: int
) -> Recorded:
    """Draw the tie across the cut line with ``seed`` and record the draw (R-TS2, R-TS3):
    the standings place the drawn players by it from then on."""
    known = _stage(stage)
    with _shaped():
        event = CutDrawn(
            type="cut_drawn",
            stage=known,
            tied=sorted(tied),
            places=places,
            drawn=draw_cut(tied, places, Random(seed)),
            points=points,
            stars=stars,
            seed=seed,
        )
    return append(store, tournament, [event])


# -- referee codes -------------------------------------------------------------------------

RECORD_PAGE: Final = "referee"
"""The referee's page on the dashboard's server (``dashboard/referee``, which keeps a
table's entries on the phone while the network is away): a table's card opens
``BASE/referee?code=CODE`` (:func:`record_url`). The Streamlit Record page takes the
same code too (``BASE/record?code=CODE``), for cards printed before."""
CODE_PARAMETER: Final = "code"
"""The query parameter of :data:`RECORD_PAGE` that carries the referee code."""
CODE_BYTES: Final = 24
"""Random bytes in a referee code: 192 bits, beyond guessing, written as 32 characters
of URL-safe base64 (a QR code a phone reads at a glance)."""
CODE_LENGTH: Final = CODE_BYTES * 4 // 3
"""Characters in a referee code: base64 writes 3 bytes as 4 characters."""
_CODE: Final = re.compile(rf"[A-Za-z0-9_-]{{{CODE_LENGTH}}}")
"""What a referee code looks like (:func:`secrets.token_urlsafe` of :data:`CODE_BYTES`)."""


def record_url(base: str, code: str) -> str:
    """The address a table's card opens: the referee's page with the table's code.

    >>> record_url("http://localhost:8501/", "abc")
    'http://localhost:8501/referee?code=abc'
    """
    return f"{base.rstrip('/')}/{RECORD_PAGE}?{urlencode({CODE_PARAMETER: code})}"


def code_sha256(code: str) -> str:
    """What the record keeps of a referee code: the hex SHA-256 of its text."""
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def code_digest(code: str) -> str | None:
    """The SHA-256 of ``code`` if it looks like a referee code, else ``None``: a string
    that could never have been drawn is not worth a hash, nor a look in the store."""
    return code_sha256(code) if _CODE.fullmatch(code) else None


def live_code_digests(store: Store) -> frozenset[str]:
    """The SHA-256 of every referee code not revoked: what a server holds in memory to
    answer a code guessed without reading the store (:func:`referee_access` then finds
    the table of a code among them, as the seating stands)."""
    with store.connect(read_only=True) as con:
        rows = con.execute("SELECT code_sha256 FROM referee_codes WHERE revoked_seq IS NULL").fetchall()
    return frozenset(str(row[0]) for row in rows)


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player at a table, with the display name the tournament registered (``None``
    where it registered none), and whether another player of the tournament is
    registered under that name (:data:`analytics.standings.NAME_KEY`): such players are
    shown with their ids, as the standings show them."""

    player: str
    name: str | None
    namesake: bool = False


@dataclass(frozen=True, slots=True)
class RefereeAccess:
    """What a referee code opens: one table of one round's seating, as the seating
    stands now — the tournament (its name and ruleset), the round and its stage, the
    table's label and its players in seat order."""

    tournament: str
    tournament_name: str
    ruleset: str
    tournament_round: int
    stage: str
    table: str
    players: tuple[SeatedPlayer, ...]


@dataclass(frozen=True, slots=True)
class RefereeCode:
    """A code just issued and the table it opens: what a table's card prints. The code
    stays out of the ``repr``, which may end up in a log."""

    code: str = field(repr=False)
    access: RefereeAccess

    @property
    def fingerprint(self) -> str:
        """The start of the code's SHA-256, as ``tournament log`` shows it: names the
        card without giving its code away."""
        return code_sha256(self.code)[:8]


def _seated(
    con: duckdb.DuckDBPyConnection, tournament: str, number: int, *, stage: str | None = None, table: str | None = None
) -> list[RefereeAccess]:
    """The tables of the round's seating (of one stage, or one table, if given), in
    table order, each with its players in seat order and their names."""
    key = NAME_KEY.replace("{name}", "name")
    rows = con.execute(
        "SELECT t.name, t.ruleset, s.stage, s.table_label, s.player, p.name, coalesce(p.same > 1, false) "
        "FROM seatings s JOIN tournaments t USING (tournament) "
        f"LEFT JOIN (SELECT player, name, count(*) OVER (PARTITION BY {key}) AS same "
        "FROM tournament_players WHERE tournament = ? AND name IS NOT NULL) p ON p.player = s.player "
        "WHERE s.tournament = ? AND s.tournament_round = ? "
        "AND (s.stage = ? OR ? IS NULL) AND (s.table_label = ? OR ? IS NULL) "
        f"ORDER BY s.stage, {by_table('s.table_label')}, s.seat",
        [tournament, tournament, number, stage, stage, table, table],
    ).fetchall()
    tables: dict[tuple[str, str], list[SeatedPlayer]] = {}
    names: tuple[str, str] = ("", "")
    for name, ruleset, at_stage, label, player, player_name, namesake in rows:
        names = (str(name), str(ruleset))
        seated = SeatedPlayer(str(player), player_name, bool(namesake))
        tables.setdefault((str(at_stage), str(label)), []).append(seated)
    return [
        RefereeAccess(tournament, names[0], names[1], number, at_stage, label, tuple(players))
        for (at_stage, label), players in tables.items()
    ]


def issue_referee_codes(
    store: Store,
    tournament: str,
    tournament_round: int,
    tables: Sequence[str] | None = None,
    *,
    printed: Callable[[list[RefereeCode]], object] | None = None,
) -> list[RefereeCode]:
    """A new referee code for each table of the round's seating (``None``) or for each
    of ``tables``, recorded by its SHA-256 alone: the codes returned are the only copy
    there is, for the tables' cards. A table that had a code gets a new one, which
    revokes the old (:class:`~events.records.tournament.RefereeCodeIssued`).

    ``printed`` is given the codes before they are recorded, to write their cards: if
    it raises, no code is recorded (a code recorded and printed nowhere is lost, and it
    has revoked the table's card that worked)."""
    if tables is not None and not tables:
        raise RecordError(say("name a table, or none for every table of the round"))
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        seated = _seated(con, tournament, tournament_round)
    if not seated:
        raise RecordError(
            say(
                "round %(round)s of %(tournament)s is not seated: seat it first (saboteur tournament seat)",
                round=tournament_round,
                tournament=tournament,
            )
        )
    stages = sorted({table.stage for table in seated})
    if len(stages) > 1:
        raise RecordError(
            say(
                "round %(round)s of %(tournament)s is seated in more than one stage (%(stages)s): a code could "
                "not tell its tables apart",
                round=tournament_round,
                tournament=tournament,
                stages=", ".join(stages),
            )
        )
    by_label = {table.table: table for table in seated}
    wanted = list(dict.fromkeys(tables)) if tables is not None else list(by_label)
    unknown = [label for label in wanted if label not in by_label]
    if unknown:
        raise RecordError(
            say(
                "round %(round)s of %(tournament)s has no table %(tables)s (its tables: %(known)s)",
                round=tournament_round,
                tournament=tournament,
                tables=", ".join(unknown),
                known=", ".join(by_label),
            )
        )
    issued = [RefereeCode(secrets.token_urlsafe(CODE_BYTES), by_label[label]) for label in wanted]
    events = [
        RefereeCodeIssued(
            type="referee_code_issued",
            tournament_round=tournament_round,
            stage=_stage(stages[0]),
            table=code.access.table,
            code_sha256=code_sha256(code.code),
        )
        for code in issued
    ]
    if printed is not None:
        printed(issued)
    append(store, tournament, events)
    return issued


def revoke_referee_code(store: Store, tournament: str, tournament_round: int, table: str, reason: str) -> Recorded:
    """Revoke the code of one table of a round, with a reason: from then on it opens
    nothing (a new one may be issued)."""
    if not reason.strip():
        raise RecordError(say("a revocation needs a --reason"))
    with store.connect(read_only=True) as con:
        _require(con, tournament)
        rows = con.execute(
            "SELECT code_sha256 FROM referee_codes WHERE tournament = ? AND tournament_round = ? "
            "AND table_label = ? AND revoked_seq IS NULL",
            [tournament, tournament_round, table],
        ).fetchall()
    if not rows:
        raise RecordError(
            say(
                "table %(table)s of round %(round)s of %(tournament)s has no code to revoke",
                table=table,
                round=tournament_round,
                tournament=tournament,
            )
        )
    with _shaped():
        event = RefereeCodeRevoked(
            type="referee_code_revoked",
            tournament_round=tournament_round,
            table=table,
            code_sha256=str(rows[0][0]),
            reason=reason.strip(),
        )
    return append(store, tournament, [event])


def referee_access(store: Store, code: str) -> RefereeAccess | None:
    """The table ``code`` opens, as the seating stands now; ``None`` for anything else —
    a code malformed, unknown, revoked, or for a table the round's seating no longer
    has — all alike, so that trying codes tells nothing of which exist.

    The code is found by its SHA-256, and only the hash is compared: the record shows
    every hash anyway, so a lookup by hash tells nothing of a code, and the hash found
    is checked once more in constant time (:func:`hmac.compare_digest`)."""
    digest = code_digest(code)
    if digest is None:
        return None
    with store.connect(read_only=True) as con:
        rows = con.execute(
            "SELECT tournament, tournament_round, stage, table_label, code_sha256 FROM referee_codes "
            "WHERE code_sha256 = ? AND revoked_seq IS NULL",
            [digest],
        ).fetchall()
        for tournament, number, stage, table, stored in rows:
            if hmac.compare_digest(str(stored), digest):
                seated = _seated(con, str(tournament), int(number), stage=str(stage), table=str(table))
                return seated[0] if seated else None
    return None


def referee_codes(store: Store, tournament: str) -> pl.DataFrame:
    """Every referee code of the tournament, newest first: its round, stage and table,
    its fingerprint (the start of its SHA-256, as the card and ``tournament log`` show
    it), and whether it still opens its table or why not."""
    with store.connect(read_only=True) as con:
        frame: pl.DataFrame = con.sql(
            "SELECT tournament_round, stage, table_label AS table, left(code_sha256, 8) AS fingerprint, "
            "revoked_seq IS NULL AS live, revoked_reason FROM referee_codes WHERE tournament = ? "
            "ORDER BY seq DESC",
            params=[tournament],
        ).pl()
    return frame
