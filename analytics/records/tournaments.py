"""A tournament as its organiser announced it: created with its ruleset and limits
(R-TS1, R-TS3, R-TS4), which the other commands read back (:func:`require`) to hold
their records to them.

Here too are the checks of what a command is given for a tournament's parts: a stage
(:func:`as_stage`), a ruleset, an id (:func:`valid_id`); and whether a stage's standings
can be shown yet (:func:`stage_refusal`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeVar

import duckdb
from pydantic import TypeAdapter, ValidationError

from analytics.records.stream import Recorded, RecordError, append, no_tournament, shaped
from events.records.tournament import TournamentCreated
from events.records.tournament_file import NAME_MOST, one_line, shows_nothing
from events.rules.tournament import (
    CUT,
    check_cut,
    check_final_rounds,
    check_preliminary_rounds,
    check_semifinal_cut,
    stage_rounds,
)
from events.said import Said, say, sentence
from events.schema import GameId
from events.tables import Ruleset, Stage
from ingest.store import Store

T = TypeVar("T", bound=str)
STAGES: Final[tuple[Stage, ...]] = ("preliminary", "semifinal", "final")
RULESETS: Final[tuple[Ruleset, ...]] = ("tournament", "base")
_TOURNAMENT_ID: TypeAdapter[str] = TypeAdapter(GameId)


def _one_of(text: str, allowed: tuple[T, ...], refusal: Said) -> T:
    """``text`` as the one of ``allowed`` it names; a :class:`RecordError` otherwise."""
    for value in allowed:
        if value == text:
            return value
    raise RecordError(refusal)


def as_stage(text: str) -> Stage:
    return _one_of(text, STAGES, say("%(given)s is no stage: preliminary, semifinal or final", given=repr(text)))


_NOT_VALID: Final = {
    "tournament": sentence("%(given)s is not a valid tournament id (1–128 of A-Z a-z 0-9 _ . : -)"),
    "player": sentence("%(given)s is not a valid player id (1–64 of A-Z a-z 0-9 _ . -)"),
}
"""What an id that is none says, by what it should have been."""


def valid_id(adapter: TypeAdapter[str], value: str, what: str) -> str:
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
    valid_id(_TOURNAMENT_ID, tournament, "tournament")
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
    with shaped():
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


def require(con: duckdb.DuckDBPyConnection, tournament: str) -> Announced:
    """The tournament as announced; a :class:`RecordError` naming the command that
    creates it when there is none."""
    rows = con.execute(
        "SELECT ruleset, preliminary_rounds, cut, final_rounds, coalesce(semifinal, false) "
        "FROM tournaments WHERE tournament = ?",
        [tournament],
    ).fetchall()
    if not rows:
        raise RecordError(no_tournament(tournament))
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
        return require(con, tournament)


def stage_refusal(store: Store, tournament: str, stage: str) -> Said | None:
    """Why the standings of ``stage`` cannot be shown, with what to do instead, or
    ``None``: a tournament that does not exist, a stage that is none or was not
    announced, a stage neither seated nor with a game in yet, or with games in none of
    the rounds the stage announced. A stage seated and not yet played is shown (its
    players at 0, as ``--as-of`` showed it of the moment before its first game, where
    the same moment asked now was refused)."""
    try:
        known = as_stage(stage)
        with store.connect(read_only=True) as con:
            told = require(con, tournament)
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
