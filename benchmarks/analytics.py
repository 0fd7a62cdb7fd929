"""Statistics benchmark: a store of a million synthesised rounds, each statistic timed.

    python benchmarks/analytics.py [--rounds 1000000] [--db FILE]

Synthesises the read models of N rounds (default 1,000,000) in bulk, in DuckDB SQL
(``range`` and seeded hashes; no Python loop over rows), straight into a store created
by :class:`ingest.store.Store` so every table has the schema's exact DDL; then opens
the store read-only as the command line does (with its memory ceiling) and times each
statistic, best of 3. Goal: role statistics (and standings) under 1 s for a million
rounds. Run on demand, never in the tests.

The rounds are plausible rather than played: tournament and base tables of every size
with the R-S1 role counts (base: the set-aside card drawn), winners and connectors by
fixed odds, R-W1 points and stars, a starting seat, a gold slot, turns, rockfalls and
maps, a small share of rounds with errors, 3 rounds a game, 250 games a tournament.
``cards_played`` holds the action cards only (tools, rockfalls, maps, about 12 a round):
the path cards and discards no statistic reads are left out to keep synthesis short.

Randomness is ``hash(i, salt)`` rather than ``random()`` after ``setseed``: DuckDB's
``random()`` is only reproducible on one thread, a hash of the row number on any number.

Other timings (standings) hook in through :data:`EXTRA`: add ``name → function(con,
filters)`` before calling :func:`main`, or pass ``extra=`` to :func:`run`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import duckdb
import polars as pl
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analytics import stats
from analytics.filters import Filters
from analytics.standings import standings_on
from ingest.store import Store

StatFunction = Callable[[duckdb.DuckDBPyConnection, Filters], pl.DataFrame]

GAMES_PER_TOURNAMENT = 250
PLAYER_POOL = 20_000

EXTRA: dict[str, StatFunction] = {
    "standings (one tournament, preliminary)": lambda con, f: standings_on(con, "bench-7"),
    "standings (one tournament, final table)": lambda con, f: standings_on(con, "bench-7", "final"),
}
"""Further functions to time, ``name → function(con, filters)``: the standings."""


def timed_functions() -> dict[str, StatFunction]:
    """The statistics timed, by name: each one unfiltered, role win rates also filtered."""
    functions: dict[str, StatFunction] = {
        "role_win_rates": stats.role_win_rates,
        "role_win_rates (tournament, clean only)": lambda con, f: stats.role_win_rates(
            con, Filters(ruleset="tournament", clean_only=True, min_n=f.min_n)
        ),
        "role_win_rates (one tournament)": lambda con, f: stats.role_win_rates(
            con, Filters(tournament="bench-7", min_n=f.min_n)
        ),
        "player_stats": stats.player_stats,
    }
    functions.update(stats.ROUND_TABLES)
    return functions


# -- synthesis -------------------------------------------------------------------------

_SETUP = """
SET memory_limit = '6GB';
SET preserve_insertion_order = false;
CREATE OR REPLACE TEMP MACRO u(i, salt) AS (hash(i, salt) % 1000000007) / 1000000007.0;
CREATE OR REPLACE TEMP MACRO pick(i, salt, k) AS (hash(i, salt) % k)::INTEGER;
CREATE OR REPLACE TEMP TABLE role_table AS
SELECT * FROM (VALUES
    ('tournament', 5, 1, 1), ('tournament', 6, 2, 1), ('tournament', 7, 2, 2),
    ('tournament', 8, 2, 0), ('tournament', 9, 3, 0), ('tournament', 10, 3, 0),
    ('base', 3, 1, 0), ('base', 4, 1, 0), ('base', 5, 2, 0), ('base', 6, 2, 0),
    ('base', 7, 3, 0), ('base', 8, 3, 0), ('base', 9, 3, 0), ('base', 10, 4, 0)
) AS t(ruleset, players, saboteurs, selfish_dwarfs);
"""

_GAMES = """
CREATE OR REPLACE TEMP TABLE g0 AS
SELECT i, 'bench:' || i AS game_id,
       CASE WHEN (i // $per) % 5 = 4 THEN 'base' ELSE 'tournament' END AS ruleset,
       i // $per AS t, i % $per AS k,
       least(3, $rounds - 3 * i)::INTEGER AS rounds_played,
       pick(i, 11, $pool) AS player_base,
       TIMESTAMPTZ '2020-01-04 09:00:00+00' + to_days((i // $per)::INTEGER) + to_minutes((i % $per)::INTEGER)
           AS started_at
FROM range(($rounds + 2) // 3) r(i);

CREATE OR REPLACE TEMP TABLE g1 AS
SELECT *, (CASE WHEN ruleset = 'base' THEN 3 + pick(i, 12, 8) ELSE 5 + pick(i, 12, 6) END)::INTEGER AS players
FROM g0;

INSERT INTO games BY NAME
SELECT game_id, 1::BIGINT AS upload_id, 'log' AS source, ruleset,
       CASE WHEN ruleset = 'tournament' THEN 'bench-' || t END AS tournament,
       CASE WHEN ruleset = 'tournament' THEN (k // 50 + 1)::INTEGER END AS tournament_round,
       CASE WHEN ruleset = 'tournament' THEN (CASE WHEN k = $per - 1 THEN 'final' ELSE 'preliminary' END) END
           AS stage,
       CASE WHEN ruleset = 'tournament' THEN (k % 50 + 1)::VARCHAR END AS table_label,
       players,
       list_transform(range(players), lambda s: 'p' || ((player_base + s) % $pool)) AS player_ids,
       3 AS rounds_planned, rounds_played,
       'clean' AS status, 0 AS errors, 0 AS warnings,
       started_at, started_at + INTERVAL 2 HOUR AS ended_at, 1 AS revision
FROM g1;
"""

_ROUNDS = """
CREATE OR REPLACE TEMP TABLE r0 AS
SELECT g.game_id, g.i * 4 + n AS h, n::INTEGER AS round, g.ruleset, g.players, g.player_base, g.started_at,
       rt.saboteurs - (CASE WHEN g.ruleset = 'base' AND u(g.i * 4 + n, 21) < rt.saboteurs / (g.players + 1.0)
                            THEN 1 ELSE 0 END) AS saboteurs,
       rt.selfish_dwarfs
FROM g1 g JOIN role_table rt ON rt.ruleset = g.ruleset AND rt.players = g.players,
     unnest(range(1, g.rounds_played + 1)) AS s(n);

CREATE OR REPLACE TEMP TABLE r1 AS
SELECT *, players - saboteurs - selfish_dwarfs AS diggers, pick(h, 22, players) AS offset_,
       CASE WHEN ruleset = 'tournament' AND selfish_dwarfs > 0 THEN
                (CASE WHEN u(h, 23) < 0.30 THEN 'gold_diggers' WHEN u(h, 23) < 0.50 THEN 'selfish_dwarf'
                      ELSE 'saboteurs' END)
            WHEN saboteurs = 0 THEN (CASE WHEN u(h, 23) < 0.80 THEN 'gold_diggers' ELSE 'nobody' END)
            ELSE (CASE WHEN u(h, 23) < 0.45 THEN 'gold_diggers' ELSE 'saboteurs' END) END AS winner
FROM r0;

CREATE OR REPLACE TEMP TABLE r2 AS
SELECT *,
       CASE WHEN winner = 'gold_diggers' AND saboteurs > 0 AND u(h, 24) < 0.02 THEN pick(h, 25, saboteurs)
            WHEN winner = 'gold_diggers' THEN saboteurs + selfish_dwarfs + pick(h, 25, diggers)
            WHEN winner = 'selfish_dwarf' THEN saboteurs + pick(h, 25, selfish_dwarfs) END AS connector_slot,
       pick(h, 26, players) + 1 AS start_seat,
       u(h, 27) < 0.02 AS faulty
FROM r1;

CREATE OR REPLACE TEMP TABLE r3 AS
SELECT *, CASE WHEN connector_slot IS NOT NULL THEN (connector_slot - offset_ + players) % players + 1 END
              AS connector_seat,
       CASE WHEN connector_slot IS NULL THEN NULL WHEN connector_slot < saboteurs THEN 'saboteur'
            WHEN connector_slot < saboteurs + selfish_dwarfs THEN 'selfish_dwarf' ELSE 'gold_digger' END
              AS connector_role
FROM r2;

INSERT INTO rounds BY NAME
SELECT game_id, round, ruleset, players, saboteurs::INTEGER AS saboteurs, selfish_dwarfs::INTEGER AS selfish_dwarfs,
       winner, winner AS claimed_winner,
       CASE WHEN connector_seat IS NOT NULL THEN 'p' || ((player_base + connector_seat - 1) % $pool) END AS connector,
       connector_role,
       ['top', 'middle', 'bottom'][pick(h, 28, 3) + 1] AS gold_slot,
       CASE WHEN connector_seat IS NOT NULL THEN 'gold' ELSE 'hands_empty' END AS ended_by,
       (CASE WHEN connector_seat IS NOT NULL THEN 20 + pick(h, 29, 40) ELSE 55 + pick(h, 29, 15) END)::INTEGER
           AS turns,
       'p' || ((player_base + start_seat - 1) % $pool) AS start_player, start_seat::INTEGER AS start_seat,
       (pick(h, 30, 4) // 2)::INTEGER AS rockfalls, pick(h, 31, 8)::INTEGER AS maps,
       (CASE WHEN faulty THEN 1 ELSE 0 END)::INTEGER AS errors,
       started_at + to_minutes((round * 40)::INTEGER) AS started_at,
       started_at + to_minutes((round * 40 + 35)::INTEGER) AS ended_at
FROM r3;
"""

_PLAYERS = """
INSERT INTO round_players BY NAME
WITH seated AS (
    SELECT r.*, s.seat::INTEGER AS seat, (s.seat - 1 + r.offset_) % r.players AS slot
    FROM r3 r, unnest(range(1, r.players + 1)) AS s(seat)
),
roled AS (
    SELECT *, CASE WHEN slot < saboteurs THEN 'saboteur' WHEN slot < saboteurs + selfish_dwarfs THEN 'selfish_dwarf'
                   ELSE 'gold_digger' END AS role,
           seat = connector_seat AS is_connector
    FROM seated
),
scored AS (
    SELECT *,
           CASE WHEN winner = 'gold_diggers' THEN role = 'gold_digger'
                WHEN winner = 'saboteurs' THEN role = 'saboteur'
                WHEN winner = 'selfish_dwarf' THEN coalesce(is_connector, false) ELSE false END AS won
    FROM roled
)
SELECT game_id, round, 'p' || ((player_base + seat - 1) % $pool) AS player, seat, role,
       points AS recorded_points, points AS replay_points, star, won, coalesce(is_connector, false) AS connector
FROM (
    SELECT *,
           (CASE WHEN NOT won THEN 0
                 WHEN ruleset = 'base' THEN 1 + pick(h * 16 + seat, 32, 3)
                 WHEN role = 'selfish_dwarf' THEN 4
                 WHEN role = 'saboteur' THEN (CASE WHEN saboteurs = 1 THEN 4 ELSE 3 END)
                 WHEN coalesce(is_connector, false) THEN 3 ELSE 2 END)::INTEGER AS points,
           ruleset = 'tournament' AND won AND (role = 'saboteur' OR coalesce(is_connector, false)) AS star
    FROM scored
);
"""

_CARDS = """
INSERT INTO cards_played BY NAME
WITH cards AS (
    SELECT r.game_id, r.round, r.h, r.players, r.offset_, r.saboteurs, r.selfish_dwarfs, r.player_base,
           c.j, pick(r.h * 32 + c.j, 41, r.players) + 1 AS seat, pick(r.h * 32 + c.j, 42, r.players) + 1 AS on_seat,
           u(r.h * 32 + c.j, 43) AS kind
    FROM r3 r, unnest(range(8 + pick(r.h, 40, 9))) AS c(j)
),
typed AS (
    SELECT *,
           CASE WHEN kind < 0.35 THEN 'break' WHEN kind < 0.55 THEN 'repair' WHEN kind < 0.60 THEN 'rockfall'
                ELSE 'map' END AS action,
           ['pick', 'lamp', 'cart'][pick(h * 32 + j, 44, 3) + 1] AS tool,
           (seat - 1 + offset_) % players AS slot, (on_seat - 1 + offset_) % players AS on_slot
    FROM cards
)
SELECT game_id, round, (j * 4 + 10)::INTEGER AS line, (j * 4 + 1)::INTEGER AS turn,
       'p' || ((player_base + seat - 1) % $pool) AS player,
       CASE WHEN slot < saboteurs THEN 'saboteur' WHEN slot < saboteurs + selfish_dwarfs THEN 'selfish_dwarf'
            ELSE 'gold_digger' END AS role,
       CASE action WHEN 'rockfall' THEN 'play_rockfall' WHEN 'map' THEN 'play_map' ELSE 'play_tool' END AS type,
       CASE action WHEN 'break' THEN 'break_' || tool WHEN 'repair' THEN 'repair_' || tool
                   WHEN 'rockfall' THEN 'rockfall' ELSE 'map' END AS card,
       CASE WHEN action IN ('break', 'repair') THEN 'p' || ((player_base + on_seat - 1) % $pool) END AS target,
       CASE WHEN action NOT IN ('break', 'repair') THEN NULL
            WHEN on_slot < saboteurs THEN 'saboteur' WHEN on_slot < saboteurs + selfish_dwarfs THEN 'selfish_dwarf'
            ELSE 'gold_digger' END AS target_role,
       CASE WHEN action IN ('break', 'repair') THEN tool END AS tool,
       CASE WHEN action = 'rockfall' THEN 1 + pick(h * 32 + j, 45, 7) END::INTEGER AS x,
       CASE WHEN action = 'rockfall' THEN pick(h * 32 + j, 46, 5) - 2 END::INTEGER AS y,
       CASE WHEN action = 'map' THEN ['top', 'middle', 'bottom'][pick(h * 32 + j, 47, 3) + 1] END AS goal
FROM typed;
"""

_FINISH = """
UPDATE games SET errors = e.errors, status = CASE WHEN e.errors > 0 THEN 'violations' ELSE 'clean' END
FROM (SELECT game_id, sum(errors)::INTEGER AS errors FROM rounds GROUP BY game_id HAVING sum(errors) > 0) e
WHERE games.game_id = e.game_id;

INSERT INTO tournaments BY NAME
SELECT DISTINCT tournament, 'Bench Open ' || tournament AS name, 'tournament' AS ruleset, 4 AS preliminary_rounds,
       6 AS cut, 3 AS final_rounds, false AS semifinal, 1::BIGINT AS upload_id
FROM games WHERE tournament IS NOT NULL;

INSERT INTO tournament_players BY NAME
SELECT DISTINCT g.tournament, p.player, 'Player ' || p.player AS name
FROM games g, unnest(g.player_ids) AS p(player) WHERE g.tournament IS NOT NULL;
"""


def _script(template: str, rounds: int) -> str:
    """A synthesis step with its sizes filled in (integers of this script, not input)."""
    return (
        template.replace("$rounds", str(int(rounds)))
        .replace("$per", str(GAMES_PER_TOURNAMENT))
        .replace("$pool", str(PLAYER_POOL))
    )


def synthesise(path: Path, rounds: int, console: Console) -> dict[str, float]:
    """Fill a new store at ``path`` with ``rounds`` synthesised rounds; seconds per step."""
    with Store(path).connect() as con:
        pass  # created with the schema's DDL
    steps: dict[str, float] = {}
    con = duckdb.connect(str(path))
    try:
        con.execute(_SETUP)
        con.execute("BEGIN")
        for name, template in (
            ("games", _GAMES),
            ("rounds", _ROUNDS),
            ("round_players", _PLAYERS),
            ("cards_played", _CARDS),
            ("finish", _FINISH),
        ):
            started = time.perf_counter()
            con.execute(_script(template, rounds))
            steps[name] = time.perf_counter() - started
            console.print(f"  {name}: {steps[name]:.1f} s")
        con.execute("COMMIT")
        started = time.perf_counter()
        con.execute("CHECKPOINT")
        steps["checkpoint"] = time.perf_counter() - started
        console.print(f"  checkpoint: {steps['checkpoint']:.1f} s")
    finally:
        con.close()
    return steps


# -- timing ----------------------------------------------------------------------------


def best_of(function: StatFunction, con: duckdb.DuckDBPyConnection, filters: Filters, repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs, in seconds (the others pay for cold caches)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        function(con, filters)
        best = min(best, time.perf_counter() - started)
    return best


def run(path: Path, extra: Mapping[str, StatFunction] | None = None, repeat: int = 3) -> dict[str, float]:
    """Time every statistic (and ``extra``) on the store at ``path``, read-only as the
    command line opens it."""
    functions = {**timed_functions(), **EXTRA, **(extra or {})}
    with Store(path).connect(read_only=True) as con:
        return {name: best_of(function, con, Filters(), repeat) for name, function in functions.items()}


def counts(path: Path) -> dict[str, int]:
    with Store(path).connect(read_only=True) as con:
        return {
            table: int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
            for table in ("games", "rounds", "round_players", "cards_played")
        }


def report(path: Path, rounds: int, extra: Mapping[str, StatFunction] | None, console: Console) -> None:
    """Synthesise the store at ``path`` if it does not exist, then time and print."""
    if not path.exists():
        console.print(f"synthesising {rounds:,} rounds into {path}")
        started = time.perf_counter()
        synthesise(path, rounds, console)
        console.print(f"synthesis: {time.perf_counter() - started:.1f} s")
    sizes = counts(path)
    console.print(", ".join(f"{table} {n:,}" for table, n in sizes.items()))
    timings = run(path, extra)
    table = Table(title=f"statistics over {sizes['rounds']:,} rounds (best of 3)")
    table.add_column("function")
    table.add_column("seconds", justify="right")
    for name, seconds in timings.items():
        table.add_row(name, f"{seconds:.3f}")
    console.print(table)


def main(argv: list[str] | None = None, extra: Mapping[str, StatFunction] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds to synthesise")
    parser.add_argument("--db", type=Path, help="use (and keep) this store; synthesised when it does not exist")
    args = parser.parse_args(argv)
    console = Console(highlight=False, soft_wrap=True)
    if args.db is not None:
        report(args.db, args.rounds, extra, console)
        return
    with tempfile.TemporaryDirectory(prefix="saboteur-bench-") as scratch:
        report(Path(scratch) / "bench.duckdb", args.rounds, extra, console)


if __name__ == "__main__":
    main()
