"""The table a referee records: its players in seat order, the rules, and where the
game stands in a tournament — all that its ``game_started`` line says.

A seated table takes its players from the published seating of its tournament round
(names as the tournament registered them); an unseated game is begun by naming its
players. Either way the recording is an observed log (event-log.md, "Observed
recording"): a referee sees only what the table shows.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import polars as pl

from analytics.records import RefereeAccess, SeatedPlayer
from events.schema import FORMAT, GAME_ID_CHARACTERS, GameStarted

GAME_ROUNDS: Final = 3
"""The rounds of a tournament table's game (R-TS1); a final plays the tournament's
``final_rounds``."""


def seated_game_id(tournament: str, tournament_round: int, table: str) -> str:
    """The game id of a seated table, as the simulator names its games.

    A seating's table labels are the hall's ("Table 2", "Tisch Nord"): any text, where a
    game id takes letters, digits and ``_.:-`` alone (event-log.md). Such a label's
    other characters become ``-``, and a digest of the label keeps two labels that
    would read alike apart ("Table 2" and "Table-2"); the game's ``table`` keeps the
    label as it is. (The referee's page answered "Table 2" with a server error.)

    >>> seated_game_id("nl-open-2026", 2, "3")
    'nl-open-2026:r2:t3'
    >>> seated_game_id("nl-open-2026", 2, "Table 2")
    'nl-open-2026:r2:tTable-2-f7b6a62f'
    """
    game = f"{tournament}:r{tournament_round}:t{table}"
    if re.fullmatch(GAME_ID_CHARACTERS, game):
        return game
    label = re.sub(r"[^A-Za-z0-9_.\-]", "-", table)[:40]
    digest = hashlib.sha256(table.encode("utf-8")).hexdigest()[:8]
    return f"{tournament}:r{tournament_round}:t{label}-{digest}"


@dataclass(frozen=True, slots=True)
class Table:
    """One game to record: its id, rules, rounds, seats, and its tournament round."""

    game_id: str
    ruleset: str
    rounds: int
    seats: tuple[SeatedPlayer, ...]
    tournament: str | None = None
    tournament_round: int | None = None
    stage: str | None = None
    label: str | None = None

    @classmethod
    def seated(cls, access: RefereeAccess, final_rounds: int | None = None) -> Table:
        """The table a referee code opens (or the organiser picks from the seating): its
        game plays :data:`GAME_ROUNDS` rounds, a final the tournament's ``final_rounds``."""
        rounds = (final_rounds or GAME_ROUNDS) if access.stage == "final" else GAME_ROUNDS
        return cls(
            seated_game_id(access.tournament, access.tournament_round, access.table),
            access.ruleset,
            rounds,
            access.players,
            access.tournament,
            access.tournament_round,
            access.stage,
            access.table,
        )

    @property
    def names(self) -> dict[str, str]:
        """Each player as the page names them: the display name, with the id where
        another player of the tournament is registered under the same name (as the
        standings and the table's card tell them apart: the buttons "Who starts?" read
        "Jan Visser" twice), else the id."""
        return {
            seat.player: f"{seat.name} ({seat.player})" if seat.name and seat.namesake else seat.name or seat.player
            for seat in self.seats
        }

    def game_started(self, at: str) -> GameStarted:
        """The first line of the table's observed log (``ValidationError`` for ids the
        format refuses)."""
        fields: dict[str, object] = {
            "type": "game_started",
            "at": at,
            "format": FORMAT,
            "game_id": self.game_id,
            "ruleset": self.ruleset,
            "players": [seat.player for seat in self.seats],
            "rounds": self.rounds,
        }
        if self.tournament is not None:
            fields["tournament"] = self.tournament
        if self.tournament_round is not None:
            fields["tournament_round"] = self.tournament_round
        if self.stage is not None:
            fields["stage"] = self.stage
        if self.label is not None:
            fields["table"] = self.label
        fields["recording"] = "observed"
        return GameStarted.model_validate(fields)

    @classmethod
    def of_game(cls, game: GameStarted, names: Mapping[str, str | None]) -> Table:
        """The table a recording's ``game_started`` describes (a draft resumed)."""
        return cls(
            game.game_id,
            game.ruleset,
            game.rounds,
            tuple(SeatedPlayer(p, names.get(p)) for p in game.players),
            game.tournament,
            game.tournament_round,
            game.stage,
            game.table,
        )


def named_players(text: str) -> list[str]:
    """The players of an unseated game as typed: ids in seat order, one a line or
    parted by commas or spaces.

    >>> named_players("ann, bob\\ncem  dia")
    ['ann', 'bob', 'cem', 'dia']
    """
    return [part for part in text.replace(",", " ").split() if part]


def seated_tables(seats: pl.DataFrame, tournament: str, name: str) -> list[RefereeAccess]:
    """The tables of one round's seating (:func:`analytics.browse.seatings`' rows of it,
    seat by seat), each as its referee code would open it."""
    tables: list[RefereeAccess] = []
    for (stage, label), seated in seats.group_by(["stage", "table"], maintain_order=True):
        players = tuple(SeatedPlayer(str(p), n) for p, n in zip(seated["player"], seated["name"], strict=True))
        number = int(seated["tournament_round"][0])
        tables.append(
            RefereeAccess(tournament, name, str(seated["ruleset"][0]), number, str(stage), str(label), players)
        )
    return tables
