"""``saboteur archive simulate``: the simulator as Dask tasks, for balance studies.

The games are cut into batches; each game is drawn from a generator seeded by the
command's seed and the game's number alone, so a game is the same whichever batch holds
it, whichever worker runs it and whenever, and the same command writes the same lake
(its events are recorded at a fixed moment, :data:`SIMULATED_AT`). A game the lake holds
already (a smaller run before) is that same game, rejected as stored before. Table sizes take turns over the
ruleset's range, so every size gets its share of games. Each game's log goes through
:func:`ingest.sources.prepare_bytes`, as an uploaded file would.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
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
from ingest.lake.ledger import Held, Ledger
from ingest.lake.lock import LakeLost
from ingest.lake.manifest import Entry, entry_of
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
    held: Held = field(default_factory=Held)
    """The batch's games the lake holds already (a run of fewer games, or cut into
    other batches, before): each is rejected as a game stored before, as ``saboteur
    ingest`` rejects it, never stored twice."""
    lock: str | None = None
    """The run's lock token: the batch is committed only while the run holds the lock."""

    def game_ids(self) -> list[str]:
        """The ids of the batch's games, in order."""
        tag = "" if self.bots == BASIC else f"{self.bots.tag}-"
        return [f"sim-{self.seed}-{tag}{number:09d}" for number in range(self.first, self.first + self.size)]


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
    batches = [
        Simulation(key, seed, first, min(batch_games, games - first), ruleset, rounds, bots, numbered + first)
        for key, first in keys
    ]
    if not entries:
        return batches
    with Ledger(entries.values()) as ledger:
        return [
            replace(batch, held=ledger.before(batch.first_upload, [f"game:{g}" for g in batch.game_ids()]))
            for batch in batches
        ]


def simulated(batch: Simulation) -> list[Prepared]:
    """The batch's games, audited as uploads: the same for the same batch, anywhere."""
    low, high = PLAYER_RANGE[batch.ruleset]
    found = []
    for number, game_id in zip(range(batch.first, batch.first + batch.size), batch.game_ids(), strict=True):
        players = low + number % (high - low + 1)
        seats = tuple(f"p{i + 1}" for i in range(players))
        drawn = Random(f"{batch.seed}:{number}").randrange(2**62)
        spec = GameSpec(game_id, seats, batch.ruleset, batch.rounds, drawn, bots=batch.bots)
        found.append(prepare_bytes(f"{game_id}.jsonl", write_log(simulate_game(spec)).encode("utf-8")))
    return found


def run_simulation(lake_url: str, batch: Simulation) -> Done:
    """A task: simulate the batch's games and write them into the lake. The run sends
    no batch the lake held as it began (:func:`~ingest.lake.build.run`): an entry found
    here was committed by this task, run before on a worker that died before it
    reported, and counts as written by this run (it counted as "already committed")."""
    lake = Lake.at(lake_url)
    entry = entry_of(lake, batch.key)
    if entry is not None:
        return Done.of(entry)
    first = batch.first_upload or batch.first + 1
    try:
        entry = write_batch(
            lake, batch.key, simulated(batch), first_upload=first, at=SIMULATED_AT, held=batch.held, lock=batch.lock
        )
    except LakeLost as lost:
        return Done(batch.key, batch.size, 0, 0, lost=lost.said)
    return Done.of(entry)
