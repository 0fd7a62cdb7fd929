"""A whole simulated tournament (R-TS): preliminary rounds, the top cut, the final table.

Every preliminary round is seated at random in tables of 5–10 (as many of 6 as
possible, R-TS1), each table plays a game of 3 rounds, the best 6 by points then stars
go to a final table of 4 rounds (R-TS2..R-TS4), a tie at the cut line that stars do
not break drawn with the seed and the draw recorded. The result is the game logs and a
``tournament.json`` describing the tournament for the ingest.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

from events.logfile import write_log
from events.records.tournament import CutDraw
from events.rules.tournament import CUT, Standing, cut_line, draw_cut, seat
from events.schema import Recording
from events.simulate.game import GameSpec, Table, simulate_game
from events.simulate.ids import simulated_id
from events.simulate.lineup import BASIC, Lineup
from events.state import Outcome

FIRST = (
    "Anna", "Bram", "Cees", "Daan", "Eva", "Fleur", "Gijs", "Hanna", "Ingrid", "Jonas", "Karin", "Lars",
    "Maja", "Nils", "Olga", "Pieter", "Quinn", "Rosa", "Sven", "Tess", "Ulrike", "Vera", "Wout", "Xenia",
    "Yara", "Zoe", "Ahmed", "Birgit", "Carlos", "Dirk", "Emma", "Frida", "Greta", "Hugo", "Ida", "Jan",
)  # fmt: skip
LAST = (
    "de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "Müller", "Schmidt", "Schneider", "Fischer",
    "Weber", "Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Brown", "Taylor", "Wilson", "Evans",
)  # fmt: skip


@dataclass
class TournamentRecord:
    """What a simulated tournament produced: its description and its game files."""

    id: str
    description: dict[str, Any]
    files: list[Path] = field(default_factory=list)


def _players(count: int, rng: Random) -> list[dict[str, str]]:
    """``count`` people with distinct display names and ids made from them."""
    pairs = [(first, last) for first in FIRST for last in LAST]
    rng.shuffle(pairs)
    people = []
    for index in range(count):
        first, last = pairs[index % len(pairs)]
        name = f"{first} {last}" if index < len(pairs) else f"{first} {last} {index // len(pairs) + 1}"
        slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower().replace("ü", "u"))
        people.append({"id": slug, "name": name})
    return people


def _tally(outcomes: list[Outcome], standings: dict[str, Standing]) -> None:
    for outcome in outcomes:
        for player, points in outcome.scores.items():
            standings[player].points += points or 0
        for player in outcome.stars:
            standings[player].stars += 1


def top_cut(standings: dict[str, Standing], cut: int, rng: Random) -> tuple[list[str], list[dict[str, Any]]]:
    """The best ``cut`` players (R-TS3), a tie across the cut line drawn with ``rng``
    (R-TS2), and the draws as ``tournament.json`` records them."""
    clear, tie = cut_line(standings, cut)
    if tie is None:
        return clear, []
    drawn = draw_cut(tie.tied, tie.places, rng)
    draw = CutDraw(tied=list(tie.tied), places=tie.places, drawn=drawn, points=tie.points, stars=tie.stars)
    return clear + drawn, [draw.model_dump(exclude_unset=True)]


def simulate_tournament(
    out: Path,
    *,
    players: int = 36,
    preliminary_rounds: int = 4,
    seed: int = 7,
    cut: int = CUT,
    final_rounds: int = 4,
    tournament_id: str | None = None,
    name: str | None = None,
    gzip: bool = False,
    recording: Recording = "full",
    referee_notes: float = 0.0,
    bots: Lineup = BASIC,
) -> TournamentRecord:
    """Play a whole tournament and write its logs and ``tournament.json`` to ``out``;
    every log in ``recording``, with ``referee_notes`` the chance of a note beside a turn,
    every table played by ``bots``. Its game ids are marked as simulated
    (:mod:`events.simulate.ids`)."""
    rng = Random(seed)
    tid = tournament_id or f"sim-open-{seed}"
    people = _players(players, rng)
    ids = [p["id"] for p in people]
    standings: dict[str, Standing] = defaultdict(Standing)
    for ident in ids:
        standings[ident] = Standing()
    out.mkdir(parents=True, exist_ok=True)
    suffix = ".jsonl.gz" if gzip else ".jsonl"
    record = TournamentRecord(tid, {})
    seatings: list[dict[str, Any]] = []
    day = datetime(2026, 11, 28, 9, 30, tzinfo=UTC)
    for number in range(1, preliminary_rounds + 1):
        tables = seat(ids, rng)
        start = day + timedelta(minutes=100 * (number - 1))
        seatings.append(
            {
                "tournament_round": number,
                "stage": "preliminary",
                "tables": [{"table": str(t + 1), "players": seated} for t, seated in enumerate(tables)],
            }
        )
        for t, seated in enumerate(tables, start=1):
            spec = GameSpec(
                game_id=simulated_id(f"{tid}:r{number}:t{t}"),
                players=tuple(seated),
                rounds=3,
                seed=rng.randrange(2**32),
                tournament=tid,
                tournament_round=number,
                stage="preliminary",
                table=str(t),
                start=start,
                recording=recording,
                referee_notes=referee_notes,
                bots=bots,
            )
            table = Table(spec)
            events = table.log()
            _tally(table.replay.state.outcomes, standings)
            path = out / f"r{number}-t{t}{suffix}"
            write_log(events, path)
            record.files.append(path)
    finalists, draws = top_cut(standings, cut, rng)
    final_round = preliminary_rounds + 1
    rng.shuffle(finalists)
    seatings.append(
        {"tournament_round": final_round, "stage": "final", "tables": [{"table": "final", "players": finalists}]}
    )
    spec = GameSpec(
        game_id=simulated_id(f"{tid}:final"),
        players=tuple(finalists),
        rounds=final_rounds,
        seed=rng.randrange(2**32),
        tournament=tid,
        tournament_round=final_round,
        stage="final",
        table="final",
        start=day + timedelta(minutes=100 * preliminary_rounds + 30),
        recording=recording,
        referee_notes=referee_notes,
        bots=bots,
    )
    path = out / f"final{suffix}"
    write_log(simulate_game(spec), path)
    record.files.append(path)
    record.description = {
        "format": "saboteur-tournament/1",
        "id": tid,
        "name": name or f"Simulated Open {seed}",
        "ruleset": "tournament",
        "preliminary_rounds": preliminary_rounds,
        "cut": cut,
        "final_rounds": final_rounds,
        "players": people,
        "seatings": seatings,
        "cut_draws": draws,
        "games": [p.name for p in record.files],
    }
    (out / "tournament.json").write_text(json.dumps(record.description, indent=2, ensure_ascii=False) + "\n")
    return record
