"""``saboteur archive simulate``: the simulator as Dask tasks, for balance studies.

The games are cut into batches; each batch draws its games from a generator seeded by
the command's seed and the batch's number alone, so a batch is the same whichever
worker runs it and whenever, and the same command writes the same lake (its events are
recorded at a fixed moment, :data:`SIMULATED_AT`). Table sizes take turns over the
ruleset's range, so every size gets its share of games. Each game's log goes through
:func:`ingest.sources.prepare_bytes`, as an uploaded file would.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from random import Random
from typing import Final

from events.logfile import write_log
from events.simulate.game import GameSpec, simulate_game
from events.simulate.lineup import BASIC, Lineup
from events.tables import PLAYER_RANGE
from ingest.lake.batch import batch_key, write_batch
from ingest.lake.build import Done, first_upload
from ingest.lake.layout import Lake
from ingest.lake.manifest import Entry, is_committed
from ingest.sources import Prepared, prepare_bytes

SIMULATED_AT: Final = datetime(2026, 1, 1, tzinfo=UTC)
"""When a simulated archive's events are recorded: a fixed moment, so the same command
writes the same bytes."""
BATCH_GAMES: Final = 64


@dataclass(frozen=True)
class Simulation:
    """One batch of simulated games: games ``first`` to ``first + size - 1`` of the run."""

    key: str
    seed: int
    first: int
    size: int
    ruleset: str
    rounds: int
    bots: Lineup = BASIC
    first_upload: int = 0
    """The upload id of the batch's first game: numbered on from the lake's uploads."""


def simulations(
    games: int,
    *,
    seed: int,
    ruleset: str,
    rounds: int,
    batch_games: int = BATCH_GAMES,
    bots: Lineup = BASIC,
    entries: Mapping[str, Entry] | None = None,
) -> list[Simulation]:
    """The run's batches. Games played by other bots than the basic ones are other
    batches with other game ids (the lineup's tag in both), so a study can hold both.
    Their uploads are numbered on from the lake's committed ``entries``, as ``archive
    build`` numbers its files (:func:`ingest.lake.build.first_upload`): a second run on
    a lake takes numbers no run before took, and the same run again keeps its own."""
    marks = () if bots == BASIC else (bots.tag,)
    keys = [
        (batch_key("simulate", seed, ruleset, rounds, first, min(batch_games, games - first), *marks), first)
        for first in range(0, games, batch_games)
    ]
    numbered = first_upload(entries or {}, keys)
    return [
        Simulation(key, seed, first, min(batch_games, games - first), ruleset, rounds, bots, numbered + first)
        for key, first in keys
    ]


def simulated(batch: Simulation) -> list[Prepared]:
    """The batch's games, audited as uploads: the same for the same batch, anywhere."""
    rng = Random(f"{batch.seed}:{batch.first}")
    low, high = PLAYER_RANGE[batch.ruleset]
    found = []
    for number in range(batch.first, batch.first + batch.size):
        players = low + number % (high - low + 1)
        tag = "" if batch.bots == BASIC else f"{batch.bots.tag}-"
        game_id = f"sim-{batch.seed}-{tag}{number:09d}"
        seats = tuple(f"p{i + 1}" for i in range(players))
        spec = GameSpec(game_id, seats, batch.ruleset, batch.rounds, rng.randrange(2**62), bots=batch.bots)
        found.append(prepare_bytes(f"{game_id}.jsonl", write_log(simulate_game(spec)).encode("utf-8")))
    return found


def run_simulation(lake_url: str, batch: Simulation) -> Done:
    """A task: simulate the batch's games and write them into the lake (unless a run
    before committed it)."""
    lake = Lake.at(lake_url)
    if is_committed(lake, batch.key):
        return Done(batch.key, batch.size, 0, 0, skipped=True)
    first = batch.first_upload or batch.first + 1
    entry = write_batch(lake, batch.key, simulated(batch), first_upload=first, at=SIMULATED_AT)
    return Done.of(entry)
