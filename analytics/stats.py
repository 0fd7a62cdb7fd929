"""Statistics over the store: role win rates, players, and how rounds go.

Each function takes a DuckDB connection (or a :class:`~ingest.store.Store`, opened
read-only for the one query) and :class:`~analytics.filters.Filters`, and returns a
Polars frame for the command line and the dashboard. The counting is done by DuckDB in
one parameterised query over the read models (``games``, ``rounds``, ``round_players``,
``cards_played``) — never row by row in Python — so a million rounds answer in well
under a second. The SQL text is fixed; only the filters that are set add their fixed
fragment (:func:`analytics.filters.where`), and their values are parameters.

Rates with a trial count carry a Wilson 95% interval (``rate``, ``low``, ``high``) and
``flagged`` = ``n < filters.min_n``: a cell too small to read.

Rounds of observed logs (``games.recording``: what a referee at a physical table saw)
count like full ones wherever the table sees what is counted: roles are turned up at
each round's end, cards are laid face up. A statistic that needs what the table never
sees (:data:`HIDDEN_CARDS`) leaves them out, and :func:`observed_rounds` says how many
it left out, to be shown beside its figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Final

import duckdb
import polars as pl

from analytics.filters import EVERYTHING, Filters, where
from analytics.intervals import wilson_sql
from analytics.standings import NAME_KEY
from events.simulate.ids import PREFIXES
from ingest.store import Store

Source = duckdb.DuckDBPyConnection | Store
"""Where statistics are read from: an open connection, or a store to open for the query."""

ROLES: Final = ("gold_digger", "saboteur", "selfish_dwarf")
SLOTS: Final = ("top", "middle", "bottom")
ENDINGS: Final = ("gold:gold_digger", "gold:selfish_dwarf", "gold:saboteur", "hands_empty", "early", "unknown")
"""How a round ends: the gold reached by a dwarf of that role, every hand played out
(the saboteurs' win, or nobody's in a base round without a saboteur), the log's round
ending before the rules say it is over, or not known (a score sheet that matches no
outcome the rules allow)."""


HIDDEN_CARDS: Final = frozenset({"gold_slots"})
"""The statistics that need cards the table does not see (where the gold lay face
down), so they leave the rounds of observed logs out."""
_SEEN: Final = "g.recording IS DISTINCT FROM 'observed'"
"""The rounds whose log shows every card: the filter of the :data:`HIDDEN_CARDS` statistics."""


@contextmanager
def connection(source: Source) -> Iterator[duckdb.DuckDBPyConnection]:
    """The connection given, or the store opened read-only for as long as it is used."""
    if isinstance(source, Store):
        with source.connect(read_only=True) as con:
            yield con
    else:
        yield source


def _query(source: Source, sql: str, params: list[Any]) -> pl.DataFrame:
    """Run one query and hand its whole result on as a Polars frame."""
    with connection(source) as con:
        frame: pl.DataFrame = con.sql(sql, params=params).pl()
        return frame


def _scope(filters: Filters, columns: str, extra: str = "TRUE") -> tuple[str, list[Any]]:
    """The ``scope`` CTE: the filtered rounds with the fixed ``columns`` of ``rounds r``.

    ``columns`` and ``extra`` are always literals of this module, never user input.
    """
    clause, params = where(filters)
    sql = (
        f"scope AS NOT MATERIALIZED (SELECT {columns} FROM rounds r JOIN games g ON g.game_id = r.game_id "
        f"WHERE {clause} AND {extra})"
    )
    return sql, params


# -- roles and players -----------------------------------------------------------------


def observed_rounds(source: Source, filters: Filters = EVERYTHING) -> int:
    """How many of the filtered rounds come from observed logs: those a statistic of
    :data:`HIDDEN_CARDS` leaves out, and those the others count by what the table saw."""
    return _rounds_where(source, filters, "g.recording = 'observed'")


def tournament_games(source: Source, tournament: str) -> int:
    """How many games of ``tournament`` the source holds (a tournament named by a
    filter that holds none is a typo, not a statistic of nothing)."""
    frame = _query(source, "SELECT count(*) AS n FROM games WHERE tournament = ?", [tournament])
    return int(frame["n"][0])


def sheet_rounds(source: Source, filters: Filters = EVERYTHING) -> int:
    """How many of the filtered rounds come from score sheets: those a statistic of
    :data:`NEEDS_A_LOG` leaves out (a sheet records no seats, cards nor turns)."""
    return _rounds_where(source, filters, "g.source = 'score_sheet'")


PLAYED_OUT: Final = "r.ended_by IS DISTINCT FROM 'early'"
"""The rounds not ended by their log before the rules had them over (R-E1, R-E2): what
a statistic of how rounds went counts (the gold was not reached in a round stopped
early, but nobody played it out)."""
DECIDED: Final = f"(r.winner IS NOT NULL AND {PLAYED_OUT})"
"""The rounds whose winner is known: what a win rate counts. A score sheet's round that
fits no outcome of the rules (a ``wrong_score`` finding) has none; counted, it would be
a round lost by every side, where R-W1 always has one win. Nor has a round a log ended
before it was over (R-E1, R-E2: the gold not reached, cards still in hand; a
``wrong_score`` finding, "stopped early" in the round endings): the rules' "the gold was
not reached" would make it the saboteurs' win, a win nobody played out."""

WON_OR_LOST: Final = frozenset({"role_win_rates", "player_stats"})
"""The statistics that count wins, and so only the :data:`DECIDED` rounds."""
PLAYED_OUT_ONLY: Final = frozenset(
    {"seat_advantage", "gold_slots", "turns_per_round", "action_cards_by_role", "rockfalls_and_maps"}
)
"""The per-round statistics that count a round's result (a seat's win, the gold reached)
or what was played in it to its end (turns, action cards, rockfalls and maps per round),
and so only the :data:`PLAYED_OUT` rounds: a round its log stopped early was not played
out (its ten turns are no round's length); their other rounds (score sheets, observed
logs) they leave out already."""


def undecided_rounds(source: Source, filters: Filters = EVERYTHING) -> int:
    """How many of the filtered rounds have no known winner: those the statistics of
    :data:`WON_OR_LOST` leave out."""
    return _rounds_where(source, filters, f"NOT {DECIDED}")


def stopped_early(source: Source, filters: Filters = EVERYTHING, name: str = "seat_advantage") -> int:
    """How many of the filtered rounds the statistic ``name`` (one of
    :data:`PLAYED_OUT_ONLY`) leaves out for having ended before they were over: of the
    rounds it reads at all (logs; for :data:`HIDDEN_CARDS`, full logs)."""
    seen = f" AND {_SEEN}" if name in HIDDEN_CARDS else ""
    return _rounds_where(source, filters, f"NOT {PLAYED_OUT} AND g.source = 'log'{seen}")


def undated_rounds(source: Source, filters: Filters = EVERYTHING) -> int:
    """How many rounds ``filters``' dates (``since``, ``until``) leave out only because
    their game has no time (every ``at`` of a log is optional): 0 with no date given."""
    if filters.since is None and filters.until is None:
        return 0
    return _rounds_where(source, replace(filters, since=None, until=None), "g.started_at IS NULL")


def _rounds_where(source: Source, filters: Filters, condition: str) -> int:
    """How many of the filtered rounds meet ``condition`` (a fixed SQL fragment over the
    round ``r`` and its game ``g``)."""
    scope, params = _scope(filters, "r.round", condition)
    counted = _query(source, f"WITH {scope} SELECT count(*) AS rounds FROM scope", params)
    return int(counted["rounds"][0])


def played_by_bots(source: Source, filters: Filters = EVERYTHING) -> tuple[int, int]:
    """How many of the filtered rounds a win rate counts (:data:`DECIDED`) the simulator's
    bots played, and how many such rounds there are: a win rate over bots' rounds says
    as much about the bots as about the game. The simulator marks its games by their ids
    (:mod:`events.simulate.ids`)."""
    marked = " OR ".join("starts_with(r.game_id, ?)" for _ in PREFIXES)
    scope, params = _scope(filters, f"r.round, ({marked}) AS by_bots", DECIDED)
    counted = _query(
        source,
        f"WITH {scope} SELECT count(*) FILTER (WHERE by_bots) AS bots, count(*) AS rounds FROM scope",
        [*PREFIXES, *params],
    )
    return int(counted["bots"][0]), int(counted["rounds"][0])


def role_win_rates(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """Win rate of each role by ruleset × table size × saboteurs in play.

    Columns: ``ruleset``, ``players``, ``saboteurs``, ``role``, ``dealt`` (player-rounds
    dealt the role), ``n`` (trials), ``wins``, ``rate``, ``low``, ``high``, ``flagged``.

    A trial is what wins or loses as one. Gold diggers and saboteurs win or lose as a
    team, so each round the role is in play is one trial and a win is a round the team
    won (``rounds.winner``): counting every member would claim a certainty the data does
    not have. Each selfish dwarf wins alone, so each selfish dwarf dealt is one trial
    and a win is their own (``round_players.won``). Either way ``rate`` is the chance
    that a player dealt the role wins the round. Only the :data:`DECIDED` rounds count.
    """
    scope, params = _scope(
        filters, "r.game_id, r.round, r.ruleset, r.players, r.saboteurs, r.selfish_dwarfs, r.winner", DECIDED
    )
    sql = f"""
        WITH {scope},
        dealt AS (
            SELECT s.ruleset, s.players, s.saboteurs, p.role,
                   count(*) AS dealt, count(*) FILTER (WHERE p.won) AS won
            FROM scope s JOIN round_players p ON p.game_id = s.game_id AND p.round = s.round
            WHERE p.role IS NOT NULL
            GROUP BY s.ruleset, s.players, s.saboteurs, p.role
        ),
        teams AS (
            SELECT ruleset, players, saboteurs,
                   count(*) FILTER (WHERE players > saboteurs + selfish_dwarfs) AS digger_rounds,
                   count(*) FILTER (WHERE players > saboteurs + selfish_dwarfs AND winner = 'gold_diggers')
                       AS digger_wins,
                   count(*) FILTER (WHERE saboteurs > 0) AS saboteur_rounds,
                   count(*) FILTER (WHERE saboteurs > 0 AND winner = 'saboteurs') AS saboteur_wins
            FROM scope GROUP BY ruleset, players, saboteurs
        ),
        cells AS (
            SELECT d.ruleset, d.players, d.saboteurs, d.role, d.dealt,
                   CASE d.role WHEN 'gold_digger' THEN t.digger_rounds WHEN 'saboteur' THEN t.saboteur_rounds
                               ELSE d.dealt END AS n,
                   CASE d.role WHEN 'gold_digger' THEN t.digger_wins WHEN 'saboteur' THEN t.saboteur_wins
                               ELSE d.won END AS wins
            FROM dealt d JOIN teams t
                 ON t.ruleset = d.ruleset AND t.players = d.players AND t.saboteurs = d.saboteurs
        )
        SELECT ruleset, players, saboteurs, role, dealt, n, wins, {wilson_sql("wins", "n")}, n < ? AS flagged
        FROM cells
        ORDER BY ruleset, players, saboteurs, array_position(?, role), role
    """
    return _query(source, sql, [*params, filters.min_n, list(ROLES)])


def player_stats(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """Each player's rounds, wins and points, overall and per role, against expectation.

    Columns: ``player``, ``name`` (as the tournaments of the rounds counted registered
    them, with the id where two players' names read alike, as in the standings; the id
    where none did, or two did differently),
    ``rounds``, ``wins``, ``win_rate``; ``rounds_<role>``, ``wins_<role>``,
    ``win_rate_<role>`` for each role; ``points`` (round points of the ``tournament``
    rounds: the replayed score, else the one recorded, before corrections and
    penalties — not the standings' points), ``points_per_round`` (over those rounds
    with a known score), ``nuggets`` and ``nuggets_per_round`` (the gold of the
    ``base`` rounds, likewise: nuggets and points are not one unit, and are never
    added together; null where the player played no such round), ``stars``,
    ``expected_wins``, ``wins_over_expected``, ``flagged`` (rounds < min n).

    Roles are dealt, not chosen, so raw win rates mostly measure the luck of the deal.
    ``expected_wins`` sums, over the player's rounds, the win rate of the role they were
    dealt at that ruleset, table size and number of saboteurs in play (over every
    player in the same filtered rounds, as the roles' table splits them: at a base table
    of three with no saboteur in play, a gold digger loses only when nobody reaches the
    gold, R-W2's "nobody gets gold"); ``wins_over_expected`` =
    wins − expected_wins is what they made of it. Only the :data:`DECIDED` rounds count.
    """
    scope, params = _scope(filters, "r.game_id, r.round, r.ruleset, r.players, r.saboteurs, g.tournament", DECIDED)
    per_role = ",\n".join(
        f"count(*) FILTER (WHERE d.role = '{role}') AS rounds_{role}, "
        f"count(*) FILTER (WHERE d.won AND d.role = '{role}') AS wins_{role}"
        for role in ROLES
    )
    role_rates = ",\n".join(
        f"rounds_{role}, wins_{role}, wins_{role} / nullif(rounds_{role}, 0) AS win_rate_{role}" for role in ROLES
    )
    name_key = NAME_KEY.replace("{name}", "coalesce(n.name, t.player)")
    # The player-rounds are read twice (once for the chances, once for the totals)
    # rather than kept: re-reading is cheaper than holding millions of rows, and
    # grouping by player alone keeps the hash table small under the memory ceiling.
    sql = f"""
        WITH {scope},
        dealt AS NOT MATERIALIZED (
            SELECT p.player, p.role, p.won, p.star, coalesce(p.replay_points, p.recorded_points) AS points,
                   s.ruleset, s.players, s.saboteurs
            FROM scope s JOIN round_players p ON p.game_id = s.game_id AND p.round = s.round
        ),
        expected AS (
            SELECT ruleset, players, saboteurs, role, avg(won::INTEGER) AS chance
            FROM dealt WHERE role IS NOT NULL GROUP BY ruleset, players, saboteurs, role
        ),
        totals AS (
            SELECT d.player, count(*) AS rounds, count(*) FILTER (WHERE d.won) AS wins,
                   {per_role},
                   sum(d.points) FILTER (WHERE d.ruleset = 'tournament')::BIGINT AS points,
                   avg(d.points) FILTER (WHERE d.ruleset = 'tournament') AS points_per_round,
                   sum(d.points) FILTER (WHERE d.ruleset = 'base')::BIGINT AS nuggets,
                   avg(d.points) FILTER (WHERE d.ruleset = 'base') AS nuggets_per_round,
                   count(*) FILTER (WHERE d.star) AS stars,
                   -- to 1e-9: a sum of floats in another order (a rebuild, the lake) differed in
                   -- its last bits, and players level on wins over expected swapped places
                   round(sum(e.chance), 9) AS expected_wins
            FROM dealt d LEFT JOIN expected e
                ON e.ruleset = d.ruleset AND e.players = d.players AND e.role = d.role
               AND e.saboteurs IS NOT DISTINCT FROM d.saboteurs
            GROUP BY d.player
        ),
        -- the name the tournaments of these rounds registered; an id two of them name
        -- differently stays an id (either could be another person's name)
        names AS (
            SELECT n.player, any_value(n.name) AS name FROM tournament_players n
            WHERE n.tournament IN (SELECT DISTINCT tournament FROM scope) AND n.name IS NOT NULL AND n.name <> ''
            GROUP BY n.player HAVING count(DISTINCT n.name) = 1
        )
        SELECT t.player,
               -- players of one name (as a person reads it) told apart by their ids, as the
               -- standings tell them: two rows read "Émile Zola" alike on a terminal
               CASE WHEN n.name IS NOT NULL AND count(*) OVER (PARTITION BY {name_key}) > 1
                    THEN concat(n.name, ' (', t.player, ')') ELSE coalesce(n.name, t.player) END AS name,
               rounds, wins, wins / rounds AS win_rate,
               {role_rates},
               points, points_per_round, nuggets, nuggets_per_round, stars, expected_wins,
               round(wins - expected_wins, 9) AS wins_over_expected,
               rounds < ? AS flagged
        FROM totals t LEFT JOIN names n ON n.player = t.player
        ORDER BY wins_over_expected DESC NULLS LAST, t.player
    """
    return _query(source, sql, [*params, filters.min_n])


# -- rounds ----------------------------------------------------------------------------


def seat_advantage(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """Win rate by place in the turn order: does starting (or going last) pay?

    Columns: ``ruleset``, ``players``, ``position`` (1 = the starting player, 2 = the
    next clockwise…), ``n`` (player-rounds), ``wins``, ``rate``, ``low``, ``high``,
    ``points_per_round``, ``flagged``. Rounds without a known starting seat (score
    sheets) are left out, and rounds a log ended before they were over (:data:`PLAYED_OUT`:
    counted, "the gold was not reached" made them the saboteurs' seats' wins). Each
    position occurs once a round, so its trials are rounds.
    """
    scope, params = _scope(
        filters,
        "r.game_id, r.round, r.ruleset, r.players, r.start_seat",
        f"r.start_seat IS NOT NULL AND {DECIDED}",
    )
    sql = f"""
        WITH {scope},
        cells AS (
            SELECT s.ruleset, s.players, (p.seat - s.start_seat + s.players) % s.players + 1 AS position,
                   count(*) AS n, count(*) FILTER (WHERE p.won) AS wins,
                   avg(coalesce(p.replay_points, p.recorded_points)) AS points_per_round
            FROM scope s JOIN round_players p ON p.game_id = s.game_id AND p.round = s.round
            GROUP BY ALL
        )
        SELECT ruleset, players, position, n, wins, {wilson_sql("wins", "n")}, points_per_round, n < ? AS flagged
        FROM cells ORDER BY ruleset, players, position
    """
    return _query(source, sql, [*params, filters.min_n])


def gold_slots(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """Where the gold lay, and how often it was reached from each slot.

    Columns: ``gold_slot`` (top, middle, bottom), ``rounds``, ``share`` (of the rounds
    with a known slot), ``n`` (= rounds), ``reached`` (rounds the gold was reached, by
    anyone: a selfish dwarf's connection is no gold digger's win), ``reached_rate``,
    ``low``, ``high`` (its interval), ``flagged``.

    Observed rounds are left out (:data:`HIDDEN_CARDS`): their log shows the gold only
    where it was turned up, so they would count nearly every slot as reached. So are
    rounds a log ended before they were over (:data:`PLAYED_OUT`): their gold was not
    reached because nobody played on.
    """
    scope, params = _scope(filters, "r.gold_slot, r.connector", f"r.gold_slot IS NOT NULL AND {_SEEN} AND {PLAYED_OUT}")
    sql = f"""
        WITH {scope},
        cells AS (
            SELECT gold_slot, count(*) AS n, count(*) FILTER (WHERE connector IS NOT NULL) AS reached
            FROM scope GROUP BY gold_slot
        )
        SELECT gold_slot, n AS rounds, n / sum(n) OVER () AS share, n, reached,
               {wilson_sql("reached", "n", rate="reached_rate")},
               n < ? AS flagged
        FROM cells ORDER BY array_position(?, gold_slot), gold_slot
    """
    return _query(source, sql, [*params, filters.min_n, list(SLOTS)])


def round_endings(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """How rounds end, per ruleset: whose card reached the gold, or hands played out.

    Columns: ``ruleset``, ``ending`` (one of :data:`ENDINGS`), ``rounds``, ``share`` (of
    the ruleset's rounds). A score sheet says who won, not how: a round whose
    saboteurs (or nobody) won is counted as played out, since the gold was not reached.
    """
    scope, params = _scope(filters, "r.ruleset, r.winner, r.connector_role, r.ended_by")
    sql = f"""
        WITH {scope},
        ended AS (
            SELECT ruleset,
                   CASE WHEN connector_role IN ('gold_digger', 'selfish_dwarf', 'saboteur')
                             THEN 'gold:' || connector_role
                        WHEN ended_by = 'hands_empty' THEN 'hands_empty'
                        WHEN ended_by = 'score_sheet' AND winner IN ('saboteurs', 'nobody') THEN 'hands_empty'
                        WHEN ended_by = 'early' THEN 'early'
                        ELSE 'unknown' END AS ending
            FROM scope
        )
        SELECT ruleset, ending, count(*) AS rounds, rounds / sum(rounds) OVER (PARTITION BY ruleset) AS share
        FROM ended GROUP BY ruleset, ending
        ORDER BY ruleset, array_position(?, ending)
    """
    return _query(source, sql, [*params, list(ENDINGS)])


def turns_per_round(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """How long rounds last, in cards played, by ruleset and table size.

    Columns: ``ruleset``, ``players``, ``rounds``, ``mean``, ``median``, ``p90``,
    ``min``, ``max``. Score-sheet rounds (no turns recorded) are left out, and rounds a
    log ended before they were over (:data:`PLAYED_OUT`).
    """
    scope, params = _scope(filters, "r.ruleset, r.players, r.turns", f"r.turns IS NOT NULL AND {PLAYED_OUT}")
    sql = f"""
        WITH {scope}
        SELECT ruleset, players, count(*) AS rounds, avg(turns) AS mean,
               quantile_cont(turns, 0.5) AS median, quantile_cont(turns, 0.9) AS p90,
               min(turns) AS min, max(turns) AS max
        FROM scope GROUP BY ruleset, players ORDER BY ruleset, players
    """
    return _query(source, sql, params)


def action_cards_by_role(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """Who plays which action cards on whom: who breaks whose tools, who mends them.

    Columns: ``role`` (of the player), ``action`` (break, repair, rockfall, map),
    ``target_role`` (whose tools; null for rockfalls and maps), ``cards``, ``on_self``
    (cards aimed at the player's own tools), ``share`` (of the role's action cards),
    ``per_round`` (cards per round with a log in which the role was dealt, in the
    filtered rounds: over every round, a role dealt in some rounds only, as the
    selfish dwarf is, looked as if it played less). Rounds a log ended before they were
    over are left out (:data:`PLAYED_OUT`).
    """
    scope, params = _scope(filters, "r.game_id, r.round, r.turns", PLAYED_OUT)
    sql = f"""
        WITH {scope},
        played AS (
            SELECT c.role,
                   CASE c.type WHEN 'play_tool' THEN (CASE WHEN starts_with(c.card, 'break') THEN 'break'
                                                          ELSE 'repair' END)
                               WHEN 'play_rockfall' THEN 'rockfall' ELSE 'map' END AS action,
                   c.target_role, c.target = c.player AS on_self
            FROM scope s JOIN cards_played c ON c.game_id = s.game_id AND c.round = s.round
            WHERE c.type IN ('play_tool', 'play_rockfall', 'play_map')
        ),
        cells AS (
            SELECT role, action, target_role, count(*) AS cards, count(*) FILTER (WHERE on_self) AS on_self
            FROM played GROUP BY ALL
        ),
        in_play AS (
            -- the rounds with a log in which the role was dealt: a selfish dwarf's maps are
            -- counted over the rounds that had one, not over every round
            SELECT p.role, count(DISTINCT (p.game_id, p.round)) AS rounds
            FROM scope s JOIN round_players p ON p.game_id = s.game_id AND p.round = s.round
            WHERE s.turns IS NOT NULL GROUP BY p.role
        )
        SELECT c.role, action, target_role, cards, on_self,
               cards / sum(cards) OVER (PARTITION BY c.role) AS share,
               cards / nullif(i.rounds, 0) AS per_round
        FROM cells c LEFT JOIN in_play i ON i.role = c.role
        ORDER BY array_position(?, c.role), c.role, array_position(?, action), array_position(?, target_role),
                 target_role
    """
    actions = ["break", "repair", "rockfall", "map"]
    return _query(source, sql, [*params, list(ROLES), actions, list(ROLES)])


def rockfalls_and_maps(source: Source, filters: Filters = EVERYTHING) -> pl.DataFrame:
    """Rockfalls and maps played per round, by ruleset and table size.

    Columns: ``ruleset``, ``players``, ``rounds``, ``rockfalls``, ``rockfalls_per_round``,
    ``with_rockfall`` (share of rounds with at least one), ``maps``, ``maps_per_round``.
    Score-sheet rounds (no cards recorded) are left out, and rounds a log ended before
    they were over (:data:`PLAYED_OUT`).
    """
    scope, params = _scope(
        filters, "r.ruleset, r.players, r.rockfalls, r.maps", f"r.rockfalls IS NOT NULL AND {PLAYED_OUT}"
    )
    sql = f"""
        WITH {scope}
        SELECT ruleset, players, count(*) AS rounds,
               sum(rockfalls)::BIGINT AS rockfalls, avg(rockfalls) AS rockfalls_per_round,
               avg((rockfalls > 0)::INTEGER) AS with_rockfall,
               sum(maps)::BIGINT AS maps, avg(maps) AS maps_per_round
        FROM scope GROUP BY ruleset, players ORDER BY ruleset, players
    """
    return _query(source, sql, params)


ROUND_TABLES: Final[dict[str, Callable[[Source, Filters], pl.DataFrame]]] = {
    "seat_advantage": seat_advantage,
    "gold_slots": gold_slots,
    "round_endings": round_endings,
    "turns_per_round": turns_per_round,
    "action_cards_by_role": action_cards_by_role,
    "rockfalls_and_maps": rockfalls_and_maps,
}
"""The per-round statistics, by name, in the order ``saboteur stats games`` shows them."""

NEEDS_A_LOG: Final = frozenset(ROUND_TABLES) - {"round_endings"}
"""The per-round statistics a score sheet cannot feed (its rounds have no starting seat,
cards nor turns): they leave its rounds out, and :func:`sheet_rounds` says how many."""


def round_tables(
    source: Source, filters: Filters = EVERYTHING, names: Iterable[str] | None = None
) -> dict[str, pl.DataFrame]:
    """The per-round statistics (all, or those ``names``), read over one connection."""
    wanted = set(ROUND_TABLES if names is None else names)
    with connection(source) as con:
        return {name: table(con, filters) for name, table in ROUND_TABLES.items() if name in wanted}
