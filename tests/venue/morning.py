"""What an organiser has on a tournament morning: a store with a tournament, its players
registered, round 1 seated at tables of six, and a referee code for each table.

The tournament is made with the organiser's own commands (``saboteur tournament
create``, ``import-players``, ``seat --from-csv``), run in process; the codes are issued
as ``tournament referee-codes`` issues them, but kept here rather than printed on cards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from typer.testing import CliRunner

from analytics.records import issue_referee_codes
from cli.main import app
from dashboard.recording.table import seated_game_id
from events.logfile import write_log
from events.simulate.game import quick_game
from ingest.store import Store

TOURNAMENT: Final = "venue-open"
ROUND: Final = 1
SEATS: Final = 6


@dataclass(frozen=True)
class Table:
    """A seated table of round 1: its label, its players in seat order, its code."""

    label: str
    players: tuple[str, ...]
    code: str
    game_id: str


def organiser(*args: str | Path) -> str:
    """A ``saboteur`` command as the organiser types it; its output (it must succeed)."""
    result = CliRunner().invoke(app, [str(arg) for arg in args], env={"COLUMNS": "200"})
    if result.exit_code != 0:
        raise RuntimeError(f"saboteur {' '.join(map(str, args))} failed: {result.output}")
    return result.output


def morning(db: Path, tables: int) -> list[Table]:
    """The store at ``db`` with round 1 of :data:`TOURNAMENT` seated at ``tables``
    tables of six (at least six tables: the 36–60 players of a tournament), and each
    table's code."""
    seated = max(tables, 6)
    folder = db.parent
    players = [f"p{n:02d}" for n in range(1, seated * SEATS + 1)]
    (folder / "players.csv").write_text(
        "player,name\n" + "".join(f"{p},Player {p[1:]}\n" for p in players), encoding="utf-8"
    )
    (folder / "seating.csv").write_text(
        "table,player\n" + "".join(f"{i // SEATS + 1},{p}\n" for i, p in enumerate(players)), encoding="utf-8"
    )
    organiser("tournament", "create", TOURNAMENT, "--name", "Venue Open", "--db", db)
    organiser("tournament", "import-players", TOURNAMENT, folder / "players.csv", "--db", db)
    organiser("tournament", "seat", TOURNAMENT, "--round", str(ROUND), "--from-csv", folder / "seating.csv", "--db", db)
    wanted = [str(n) for n in range(1, tables + 1)]
    issued = issue_referee_codes(Store(db), TOURNAMENT, ROUND, wanted)
    return [
        Table(
            label=code.access.table,
            players=tuple(p.player for p in code.access.players),
            code=code.code,
            game_id=seated_game_id(TOURNAMENT, ROUND, code.access.table),
        )
        for code in issued
    ]


def organisers_logs(folder: Path, count: int) -> Path:
    """A folder of ``count`` small simulated games (no tournament's), for the organiser
    to ingest while the tables record: ``folder/logs``."""
    logs = folder / "logs"
    logs.mkdir()
    for seed in range(count):
        text = write_log(quick_game(players=5 + seed % 4, rounds=2, seed=seed))
        first, rest = text.split("\n", 1)
        header = json.loads(first)
        header["game_id"] = f"organiser-{seed:02d}"
        (logs / f"g{seed:02d}.jsonl").write_text(json.dumps(header) + "\n" + rest, encoding="utf-8")
    return logs
