"""A tournament's stream: where every command's events are appended, and what they are
judged against there.

A command builds its events and hands them to :func:`append`, which appends them at the
version it read and re-projects the tournament's read models in the same transaction.
What one command cannot see of another's is judged there, on the record as it stands
(an append another made stale is judged again, never merged unseen): one decision per
finding, no state recorded twice (a player withdrawn, a replay accepted, a round
seated, a tie at the cut line drawn), no decision on a round made after the form that
asked for it was laid out. Kept in one place, the guards hold for every command alike,
the command line's and the dashboard's.

What a command cannot record it refuses with a :class:`RecordError`, a sentence a
person can act on; :func:`shaped` turns what an event's model refuses into one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

import duckdb
from pydantic import ValidationError

from analytics.standings import GAME_HEADERS
from events.logfile import said_of
from events.records import dump
from events.records.tournament import ReplayAccepted, ScoreCorrected, TournamentEvent
from events.records.tournament_file import one_line
from events.said import Said, problem, say
from ingest.chain import StoredEvent
from ingest.revisions import current, marker_type, standing
from ingest.sources import project_tournament
from ingest.store import NewEvent, StaleAppend, Store


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


def no_tournament(tournament: str) -> Said:
    return say("no tournament %(tournament)s: create it first (saboteur tournament create)", tournament=tournament)


@contextmanager
def shaped() -> Iterator[None]:
    """Refuse, by field, what the event's model refuses (a stage that is none, a
    round out of range): a :class:`RecordError`, never a traceback."""
    try:
        yield
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RecordError(say("`%(field)s`: %(problem)s", field=where, problem=(said_of(first),))) from None


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


def stream_events(
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
        raise RecordError(no_tournament(tournament))
    for attempt in range(_ATTEMPTS):
        try:
            with store.connect() as con:
                events, version, created_by = stream_events(store, con, stream)
                if creating and events:
                    raise TournamentExists(say("tournament %(tournament)s already exists", tournament=tournament))
                if not creating and not events:
                    raise RecordError(no_tournament(tournament))
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
        raise RecordError(seated_already(int(event["tournament_round"]), tournament))
    if kind == "cut_drawn" and _drawn_tie(event) in drawn:
        raise RecordError(
            say(
                "the tie at the cut line among %(tied)s is drawn already: the standings place it by that draw "
                "(saboteur tournament log shows it)",
                tied=tuple(sorted(str(p) for p in event["tied"])),
            )
        )


def seated_already(number: int, tournament: str) -> Said:
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
