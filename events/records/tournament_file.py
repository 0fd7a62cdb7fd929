"""``tournament.json`` (``saboteur-tournament/1``): a tournament described in one file,
as ``saboteur simulate tournament`` writes it, and the events it becomes.

The file is parsed into these models (closed: an unknown field is refused), checked
against the tournament rules (:meth:`TournamentFile.problems`), and only then turned
into the events of the tournament's stream (:meth:`TournamentFile.events`), each built
field by field: nothing in the file can choose an event's ``type``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from events.findings import Breach
from events.records import Record
from events.records.tournament import (
    CutDraw,
    CutDrawn,
    PlayerRegistered,
    Seating,
    SeatingPublished,
    TournamentCreated,
    TournamentEvent,
)
from events.rules.tournament import (
    check_cut,
    check_cut_draw,
    check_final_rounds,
    check_preliminary_rounds,
    check_seating,
)
from events.schema import FieldProblem, GameId, PlayerId
from events.tables import Ruleset

Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class Person(Record):
    """A registered player: the id the logs use and the name the standings show."""

    id: PlayerId
    name: Name


class TournamentFile(Record):
    """``tournament.json``: the tournament, its players, the seatings and cut draws
    made so far, and the names of its game files."""

    format: Literal["saboteur-tournament/1"]
    id: GameId
    name: Name
    ruleset: Ruleset = "tournament"
    preliminary_rounds: int
    cut: int
    final_rounds: int
    players: list[Person]
    seatings: list[Seating] = Field(default_factory=list)
    cut_draws: list[CutDraw] = Field(default_factory=list)
    games: list[str] = Field(default_factory=list)

    def problems(self) -> list[FieldProblem]:
        """What breaks the tournament rules (R-TS1..R-TS4), by field: the limits
        announced, tables of 5–10 registered players, draws that fit their tie."""
        found: list[tuple[str, Breach | None]] = [
            ("preliminary_rounds", check_preliminary_rounds(self.preliminary_rounds)),
            ("cut", check_cut(self.cut)),
            ("final_rounds", check_final_rounds(self.final_rounds)),
        ]
        registered = [person.id for person in self.players]
        for number, seating in enumerate(self.seatings):
            tables = [table.players for table in seating.tables]
            found.append((f"seatings.{number}", check_seating(tables, registered)))
        for number, draw in enumerate(self.cut_draws):
            found.append((f"cut_draws.{number}", check_cut_draw(draw.tied, draw.places, draw.drawn)))
        return [(field, f"{breach.message} ({breach.rule})") for field, breach in found if breach is not None]

    def events(self) -> list[TournamentEvent]:
        """The tournament's stream: created, players registered, seatings, cut draws."""
        events: list[TournamentEvent] = [
            TournamentCreated(
                type="tournament_created",
                tournament=self.id,
                name=self.name,
                ruleset=self.ruleset,
                preliminary_rounds=self.preliminary_rounds,
                cut=self.cut,
                final_rounds=self.final_rounds,
            )
        ]
        events += [PlayerRegistered(type="player_registered", player=p.id, name=p.name) for p in self.players]
        events += [
            SeatingPublished(
                type="seating_published", tournament_round=s.tournament_round, stage=s.stage, tables=s.tables
            )
            for s in self.seatings
        ]
        events += [CutDrawn.of(draw) for draw in self.cut_draws]
        return events
