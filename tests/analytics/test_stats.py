"""``analytics.stats`` and ``saboteur stats``: role, player and round statistics.

Two kinds of store, both real DuckDB files in a temporary folder:

- a hand-made one (rows written straight into the read models) small enough that every
  figure below is counted by hand from the rounds in :func:`hand_store`;
- one filled by ingesting simulated logs (a tournament and base games), where the
  figures are checked against what must hold whatever the dice did (totals add up,
  expected wins sum to the wins, intervals hold their rate).
"""

from __future__ import annotations

import doctest
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner, Result

from analytics import browse, intervals, stats
from analytics import filters as filters_module
from analytics.filters import Filters, where
from analytics.intervals import wilson
from cli.main import app
from events.logfile import write_log
from events.simulate.game import quick_game
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store

GD, SAB, SD = "gold_digger", "saboteur", "selfish_dwarf"
T1_START = datetime(2026, 1, 10, 10, 0, tzinfo=UTC)
T2_START = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
BASE_START = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)


# -- the hand-made store ---------------------------------------------------------------


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[dict[str, Any]]) -> None:
    frame = pl.DataFrame(rows)
    con.register("rows_frame", frame)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM rows_frame")
    finally:
        con.unregister("rows_frame")


def _game(game_id: str, ruleset: str, players: list[str], start: datetime | None, **extra: Any) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "upload_id": 1,
        "source": extra.pop("source", "log"),
        "ruleset": ruleset,
        "players": len(players),
        "player_ids": players,
        "rounds_played": 1,
        "status": "clean",
        "errors": 0,
        "warnings": 0,
        "started_at": start,
        "revision": 1,
        **extra,
    }


def _round(
    game_id: str,
    number: int,
    ruleset: str,
    roles: dict[str, str],
    winner: str,
    *,
    connector: str | None = None,
    points: dict[str, int] | None = None,
    stars: tuple[str, ...] = (),
    errors: int = 0,
    **extra: Any,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A ``rounds`` row and its ``round_players`` rows, ``won`` as the projection sets it."""
    seats = list(roles)
    row = {
        "game_id": game_id,
        "round": number,
        "ruleset": ruleset,
        "players": len(roles),
        "saboteurs": sum(r == SAB for r in roles.values()),
        "selfish_dwarfs": sum(r == SD for r in roles.values()),
        "winner": winner,
        "connector": connector,
        "connector_role": roles[connector] if connector else None,
        "errors": errors,
        **extra,
    }
    players = []
    for seat, (player, role) in enumerate(roles.items(), start=1):
        won = {"gold_diggers": role == GD, "saboteurs": role == SAB, "selfish_dwarf": player == connector}[winner]
        score = (points or {}).get(player, 0)
        players.append(
            {
                "game_id": game_id,
                "round": number,
                "player": player,
                "seat": seats.index(player) + 1 if player in seats else seat,
                "role": role,
                "recorded_points": score,
                "replay_points": score,
                "star": player in stars,
                "won": won,
                "connector": player == connector,
            }
        )
    return row, players


def _card(game_id: str, number: int, player: str, role: str, kind: str, card: str, **extra: Any) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "round": number,
        "line": 1,
        "turn": 1,
        "player": player,
        "role": role,
        "type": kind,
        "card": card,
        **extra,
    }


def fill_hand_store(path: Path) -> None:
    """Five rounds of tournament Saboteur at a table of five and one base round.

    ``g1`` (t1, preliminary, 2026-01-10), three rounds:
      1. a saboteur; b, c, d gold diggers; e selfish dwarf. b reaches the gold (top):
         b 3 and a star, c 2, d 2. Starts at seat 1. 30 turns, 1 rockfall, 2 maps.
      2. b saboteur; a, c, e diggers; d selfish. Hands run out: b 4 and a star. Gold
         middle. Starts at seat 2. 50 turns, 0 rockfalls, 4 maps.
      3. c saboteur; a, b, d diggers; e selfish, who reaches the gold (bottom): 4 and a
         star. Starts at seat 3. 40 turns, 2 rockfalls, 1 map. One error: not clean.
    ``g2`` (t2, final, 2026-03-01): d saboteur; a, b, c diggers; e selfish. Hands run
      out: d 4 and a star. Gold top. Starts at seat 5. 55 turns, 0 rockfalls, 3 maps.
    ``s1`` (t1 score sheet, no start time): a saboteur; b, c, d diggers; e selfish; the
      saboteur wins: a 4 and a star.
    ``g3`` (base, no tournament, 2025-06-01): f saboteur; a, b diggers; a reaches the
      gold (middle): a 3, b 2 nuggets. Starts at seat 3. 20 turns.
    """
    games = [
        _game("g1", "tournament", list("abcde"), T1_START, tournament="t1", stage="preliminary", rounds_played=3),
        _game("g2", "tournament", list("abcde"), T2_START, tournament="t2", stage="final"),
        _game("s1", "tournament", list("abcde"), None, tournament="t1", stage="preliminary", source="score_sheet"),
        _game("g3", "base", ["a", "b", "f"], BASE_START),
    ]
    played = [
        _round(
            "g1", 1, "tournament", {"a": SAB, "b": GD, "c": GD, "d": GD, "e": SD}, "gold_diggers",
            connector="b", points={"b": 3, "c": 2, "d": 2}, stars=("b",),
            start_seat=1, gold_slot="top", turns=30, rockfalls=1, maps=2, ended_by="gold",
        ),
        _round(
            "g1", 2, "tournament", {"a": GD, "b": SAB, "c": GD, "d": SD, "e": GD}, "saboteurs",
            points={"b": 4}, stars=("b",),
            start_seat=2, gold_slot="middle", ended_by="hands_empty", turns=50, rockfalls=0, maps=4,
        ),
        _round(
            "g1", 3, "tournament", {"a": GD, "b": GD, "c": SAB, "d": GD, "e": SD}, "selfish_dwarf",
            connector="e", points={"e": 4}, stars=("e",), errors=1,
            start_seat=3, gold_slot="bottom", turns=40, rockfalls=2, maps=1, ended_by="gold",
        ),
        _round(
            "g2", 1, "tournament", {"a": GD, "b": GD, "c": GD, "d": SAB, "e": SD}, "saboteurs",
            points={"d": 4}, stars=("d",),
            start_seat=5, gold_slot="top", ended_by="hands_empty", turns=55, rockfalls=0, maps=3,
        ),
        _round(
            "s1", 1, "tournament", {"a": SAB, "b": GD, "c": GD, "d": GD, "e": SD}, "saboteurs",
            points={"a": 4}, stars=("a",), ended_by="score_sheet",
        ),
        _round(
            "g3", 1, "base", {"a": GD, "b": GD, "f": SAB}, "gold_diggers",
            connector="a", points={"a": 3, "b": 2},
            start_seat=3, gold_slot="middle", turns=20, rockfalls=0, maps=0, ended_by="gold",
        ),
    ]  # fmt: skip
    cards = [
        _card("g1", 1, "a", SAB, "play_tool", "break_pick", target="b", target_role=GD, tool="pick"),
        _card("g1", 1, "b", GD, "play_tool", "repair_pick", target="b", target_role=GD, tool="pick"),
        _card("g1", 1, "c", GD, "play_map", "map", goal="top"),
        _card("g1", 1, "a", SAB, "play_rockfall", "rockfall", x=2, y=0),
        _card("g1", 1, "d", GD, "play_path", "NES", x=1, y=0),
        _card("g1", 2, "b", SAB, "play_tool", "break_lamp", target="e", target_role=GD, tool="lamp"),
        _card("g1", 2, "e", GD, "discard", "EW"),
        _card("g1", 3, "e", SD, "play_map", "map", goal="middle"),
    ]
    with Store(path).connect() as con:
        _insert(con, "games", games)
        _insert(con, "rounds", [r for r, _ in played])
        _insert(con, "round_players", [p for _, ps in played for p in ps])
        _insert(con, "cards_played", cards)
        _insert(
            con,
            "tournament_players",
            [{"tournament": "t1", "player": p, "name": f"Player {p.upper()}"} for p in "abcde"],
        )


@pytest.fixture(scope="module")
def hand_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hand") / "hand.duckdb"
    fill_hand_store(path)
    return path


@pytest.fixture
def hand(hand_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with Store(hand_db).connect(read_only=True) as con:
        yield con


def rows(frame: pl.DataFrame, *columns: str) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in frame.select(columns).iter_rows()]


def cell(frame: pl.DataFrame, **keys: Any) -> dict[str, Any]:
    found = frame.filter(*(pl.col(k) == v for k, v in keys.items()))
    assert found.height == 1, (keys, found)
    return found.row(0, named=True)


# -- the Wilson interval ---------------------------------------------------------------


def test_wilson_matches_published_values() -> None:
    low, high = wilson(3, 5)  # type: ignore[misc]
    assert (round(low, 4), round(high, 4)) == (0.2307, 0.8824)
    low, high = wilson(0, 5)  # type: ignore[misc]
    assert (low, round(high, 4)) == (0.0, 0.4345)
    assert wilson(0, 0) is None


def test_wilson_is_exactly_0_below_at_no_wins_and_1_above_at_every_win() -> None:
    """At 0 of n the lower bound is 0 and at n of n the upper is 1, exactly: the floats
    of ``centre ± half`` left 2.8e-17 (0 of 9) and 0.9999999999999999 (10 of 10), which
    a reader testing ``high == 1`` trips on. The SQL gives what the reference gives."""
    con = duckdb.connect()
    cells = [(wins, n) for n in range(0, 200) for wins in sorted({0, n // 2, n})]
    con.execute("CREATE TABLE cells (wins INTEGER, n INTEGER)")
    con.executemany("INSERT INTO cells VALUES (?, ?)", cells)
    sql = con.execute(f"SELECT wins, n, {intervals.wilson_sql('wins', 'n')} FROM cells ORDER BY n, wins").fetchall()
    for wins, n, _rate, low, high in sql:
        reference = wilson(wins, n)
        if n == 0:
            assert reference is None and (low, high) == (None, None)
            continue
        assert (low, high) == pytest.approx(reference, abs=1e-12)
        assert reference is not None and (low == 0.0) == (wins == 0) == (reference[0] == 0.0)
        assert (high == 1.0) == (wins == n) == (reference[1] == 1.0)


def test_docstring_examples_run() -> None:
    for module in (intervals, filters_module):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


# -- role win rates ---------------------------------------------------------------------


def test_role_win_rates_count_teams_by_round_and_selfish_dwarfs_alone(hand: duckdb.DuckDBPyConnection) -> None:
    frame = stats.role_win_rates(hand, Filters(min_n=5))
    assert frame.columns == [
        "ruleset", "players", "saboteurs", "role", "dealt", "n", "wins", "rate", "low", "high", "flagged",
    ]  # fmt: skip
    assert rows(frame, "ruleset", "players", "saboteurs", "role", "dealt", "n", "wins", "flagged") == [
        ("base", 3, 1, GD, 2, 1, 1, True),
        ("base", 3, 1, SAB, 1, 1, 0, True),
        ("tournament", 5, 1, GD, 15, 5, 1, False),
        ("tournament", 5, 1, SAB, 5, 5, 3, False),
        ("tournament", 5, 1, SD, 5, 5, 1, False),
    ]
    saboteurs = cell(frame, ruleset="tournament", role=SAB)
    assert saboteurs["rate"] == pytest.approx(0.6)
    assert (saboteurs["low"], saboteurs["high"]) == pytest.approx((0.2307243, 0.8823792))
    for row in frame.iter_rows(named=True):
        assert (row["low"], row["high"]) == pytest.approx(wilson(row["wins"], row["n"]))


def test_min_n_flags_small_cells(hand: duckdb.DuckDBPyConnection) -> None:
    assert stats.role_win_rates(hand, Filters())["flagged"].all()  # default 30
    assert not stats.role_win_rates(hand, Filters(min_n=1))["flagged"].any()
    flagged = stats.role_win_rates(hand, Filters(min_n=2))
    assert rows(flagged.filter("flagged"), "ruleset", "role") == [("base", GD), ("base", SAB)]


@pytest.mark.parametrize(
    ("filters", "saboteur_cell"),
    [
        (Filters(tournament="t1"), (4, 2)),  # g1 and the score sheet
        (Filters(tournament="t2"), (1, 1)),
        (Filters(stage="final"), (1, 1)),
        (Filters(ruleset="tournament", clean_only=True), (4, 3)),  # g1 round 3 had an error
        (Filters(since=datetime(2026, 1, 1)), (4, 2)),  # naive: UTC; the sheet has no time
        (Filters(until=datetime(2026, 2, 1, tzinfo=UTC)), (3, 1)),
        (Filters(since=T1_START, until=T2_START), (3, 1)),  # since inclusive, until exclusive
        (Filters(tournament="t1", stage="final"), None),
        (Filters(tournament="t1' OR 1=1 --"), None),  # a value, never SQL
    ],
)
def test_filters_choose_the_rounds(
    hand: duckdb.DuckDBPyConnection, filters: Filters, saboteur_cell: tuple[int, int] | None
) -> None:
    frame = stats.role_win_rates(hand, filters).filter(ruleset="tournament", role=SAB)
    assert rows(frame, "n", "wins") == ([saboteur_cell] if saboteur_cell else [])


def test_a_game_whose_header_names_no_stage_is_a_preliminary_game(hand: duckdb.DuckDBPyConnection) -> None:
    """The log format: ``stage`` is ``preliminary`` when left out, in a tournament or not
    (g3, a base game of no tournament, is stored with none)."""
    preliminary = stats.role_win_rates(hand, Filters(stage="preliminary"))
    assert rows(preliminary.filter(ruleset="base"), "role", "n", "wins") == [(GD, 1, 1), (SAB, 1, 0)]
    assert rows(preliminary.filter(ruleset="tournament", role=SAB), "n", "wins") == [(4, 2)]
    assert stats.role_win_rates(hand, Filters(stage="final")).filter(ruleset="base").is_empty()


def test_ruleset_filter_and_clean_only(hand: duckdb.DuckDBPyConnection) -> None:
    base = stats.role_win_rates(hand, Filters(ruleset="base"))
    assert base["ruleset"].unique().to_list() == ["base"]
    clean = stats.role_win_rates(hand, Filters(clean_only=True)).filter(ruleset="tournament", role=SD)
    assert rows(clean, "n", "wins") == [(4, 0)]


def test_where_composes_fixed_fragments_only() -> None:
    clause, params = where(Filters(tournament="x'; DROP TABLE games; --", stage="final", since=datetime(2026, 1, 1)))
    assert clause == "g.tournament = ? AND coalesce(g.stage, 'preliminary') = ? AND g.started_at >= ?"
    assert params == ["x'; DROP TABLE games; --", "final", datetime(2026, 1, 1, tzinfo=UTC)]


# -- players ----------------------------------------------------------------------------


def test_wins_over_expected_by_hand(hand: duckdb.DuckDBPyConnection) -> None:
    """Chances at a tournament table of five (player-rounds): gold digger 3/15 = 0.2,
    saboteur 3/5 = 0.6, selfish dwarf 1/5 = 0.2. Player a was dealt sab, gd, gd, gd, sab
    and won once (the sheet): expected 0.6 + 0.2 + 0.2 + 0.2 + 0.6 = 1.8."""
    frame = stats.player_stats(hand, Filters(ruleset="tournament", min_n=5))
    expected = {"a": (1, 1.8), "b": (2, 1.4), "c": (1, 1.4), "d": (2, 1.4), "e": (1, 1.0)}
    for player, (wins, chance) in expected.items():
        row = cell(frame, player=player)
        assert row["rounds"] == 5
        assert row["wins"] == wins
        assert row["expected_wins"] == pytest.approx(chance)
        assert row["wins_over_expected"] == pytest.approx(wins - chance)
        assert not row["flagged"]
    assert frame["player"].to_list()[:2] == ["b", "d"]  # best over expected first, ties by id
    assert frame["wins_over_expected"].sum() == pytest.approx(0.0)


def test_a_players_running_totals_keep_points_and_nuggets_apart(hand: duckdb.DuckDBPyConnection) -> None:
    """The Players page's running total: b's tournament points (3, 4, 0, 0, 0) and his
    base nuggets (2) each on their own; one line added them up, 9 for 7 points and 2
    nuggets."""
    played = browse.player_rounds(hand, "b")  # type: ignore[arg-type]  # an open connection is a source too
    by_ruleset = {
        ruleset: (group["number"].to_list(), group["cumulative"].to_list())
        for (ruleset,), group in played.group_by("ruleset", maintain_order=True)
    }
    assert by_ruleset["base"] == ([1], [2])
    assert by_ruleset["tournament"][1][-1] == 7
    assert by_ruleset["tournament"][0] == [1, 2, 3, 4, 5]


def test_expected_wins_count_the_saboteurs_in_play(tmp_path: Path) -> None:
    """Base, three players: the diggers won the round with the saboteur set aside, and
    lost the one with a saboteur. Over both, a digger's chance is 3/5; but a digger with
    no saboteur at the table was bound to win, and one beside a saboteur here was not:
    a's expected wins are 1 + 0, not 0.6 + 0.6."""
    path = tmp_path / "s.duckdb"
    start = datetime(2026, 2, 1, tzinfo=UTC)
    played = [
        _round("b1", 1, "base", {"a": GD, "b": GD, "c": GD}, "gold_diggers", connector="a"),
        _round("b1", 2, "base", {"a": GD, "b": GD, "c": SAB}, "saboteurs"),
    ]
    with Store(path).connect() as con:
        _insert(con, "games", [_game("b1", "base", ["a", "b", "c"], start, rounds_played=2)])
        _insert(con, "rounds", [r for r, _ in played])
        _insert(con, "round_players", [p for _, ps in played for p in ps])
    frame = stats.player_stats(Store(path), Filters())
    assert cell(frame, player="a")["expected_wins"] == pytest.approx(1.0)
    assert cell(frame, player="c")["expected_wins"] == pytest.approx(1.0 + 1.0)
    assert frame["wins_over_expected"].sum() == pytest.approx(0.0)


def test_a_player_is_named_by_the_tournaments_of_their_rounds(tmp_path: Path) -> None:
    """``a`` plays in ``ta`` as "Real A" and is registered in ``tb`` as "Aaron Else":
    the statistics of ``ta`` (and of everything, while ``a`` played in ``ta`` alone) name
    them "Real A"; once they play in ``tb`` too, the two names disagree and the id
    stands. The name was the first of every tournament's names, in any tournament."""
    path = tmp_path / "s.duckdb"
    start = datetime(2026, 2, 1, tzinfo=UTC)
    seats = {"a": GD, "b": GD, "c": SAB}
    played = [_round("g1", 1, "base", seats, "gold_diggers", connector="a")]
    names = [("ta", "a", "Real A"), ("tb", "a", "Aaron Else"), ("ta", "b", "Bea"), ("tb", "b", "Bea")]
    with Store(path).connect() as con:
        _insert(con, "games", [_game("g1", "base", list(seats), start, tournament="ta")])
        _insert(con, "rounds", [r for r, _ in played])
        _insert(con, "round_players", [p for _, ps in played for p in ps])
        _insert(con, "tournament_players", [{"tournament": t, "player": p, "name": n} for t, p, n in names])
    for filters in (Filters(tournament="ta"), Filters()):
        frame = stats.player_stats(Store(path), filters)
        assert (cell(frame, player="a")["name"], cell(frame, player="b")["name"]) == ("Real A", "Bea")
    played = [_round("g2", 1, "base", seats, "saboteurs")]
    with Store(path).connect() as con:
        _insert(con, "games", [_game("g2", "base", list(seats), start, tournament="tb")])
        _insert(con, "rounds", [r for r, _ in played])
        _insert(con, "round_players", [p for _, ps in played for p in ps])
    frame = stats.player_stats(Store(path), Filters())
    assert (cell(frame, player="a")["name"], cell(frame, player="b")["name"]) == ("a", "Bea")
    assert cell(stats.player_stats(Store(path), Filters(tournament="tb")), player="a")["name"] == "Aaron Else"


def test_players_of_one_name_are_told_apart_by_their_ids_as_in_the_standings(tmp_path: Path) -> None:
    """Two players registered as "Émile Zola" (one written with a combining accent,
    one in capitals) read alike on a terminal's table of ``stats players``, which leaves
    the ids out: their names carry their ids, as the standings' do."""
    path = tmp_path / "s.duckdb"
    start = datetime(2026, 2, 1, tzinfo=UTC)
    seats = {"a": GD, "b": GD, "c": SAB}
    played = [_round("g1", 1, "base", seats, "gold_diggers", connector="a")]
    names = [("ta", "a", "\u00c9mile Zola"), ("ta", "b", "E\u0301MILE ZOLA"), ("ta", "c", "Zola")]
    with Store(path).connect() as con:
        _insert(con, "games", [_game("g1", "base", list(seats), start, tournament="ta")])
        _insert(con, "rounds", [r for r, _ in played])
        _insert(con, "round_players", [p for _, ps in played for p in ps])
        _insert(con, "tournament_players", [{"tournament": t, "player": p, "name": n} for t, p, n in names])
    frame = stats.player_stats(Store(path), Filters())
    assert sorted(frame["name"].to_list()) == ["E\u0301MILE ZOLA (b)", "Zola", "\u00c9mile Zola (a)"]


def test_player_rounds_roles_points_and_stars(hand: duckdb.DuckDBPyConnection) -> None:
    frame = stats.player_stats(hand, Filters())
    b = cell(frame, player="b")
    assert b["name"] == "Player B"
    # points of the tournament rounds, nuggets of the base one: never added together (it said 9)
    assert (b["rounds"], b["wins"], b["points"], b["nuggets"], b["stars"]) == (6, 3, 7, 2, 2)
    assert (b["points_per_round"], b["nuggets_per_round"]) == (pytest.approx(1.4), pytest.approx(2.0))
    assert (b["rounds_gold_digger"], b["wins_gold_digger"], b["win_rate_gold_digger"]) == (5, 2, pytest.approx(0.4))
    assert (b["rounds_saboteur"], b["wins_saboteur"], b["win_rate_saboteur"]) == (1, 1, 1.0)
    assert (b["rounds_selfish_dwarf"], b["wins_selfish_dwarf"], b["win_rate_selfish_dwarf"]) == (0, 0, None)
    f = cell(frame, player="f")
    assert (f["name"], f["rounds"], f["wins"], f["expected_wins"]) == ("f", 1, 0, 0.0)
    assert (f["points"], f["points_per_round"], f["nuggets"]) == (None, None, 0)  # base alone
    assert f["flagged"]


# -- rounds -----------------------------------------------------------------------------


def test_seat_advantage_counts_from_the_starting_player(hand: duckdb.DuckDBPyConnection) -> None:
    frame = stats.seat_advantage(hand, Filters(ruleset="tournament"))
    # Starting players: a (round 1, lost), b (round 2, won), c (round 3, lost), e (g2, lost).
    assert rows(frame, "players", "position", "n", "wins") == [
        (5, 1, 4, 1),
        (5, 2, 4, 1),  # b won, c, d, a lost
        (5, 3, 4, 2),  # c won, d lost, e won, b lost
        (5, 4, 4, 1),  # d won, e, a lost, c lost
        (5, 5, 4, 1),  # e, a, b lost, d won
    ]


def test_gold_slots(hand: duckdb.DuckDBPyConnection) -> None:
    frame = stats.gold_slots(hand, Filters())
    assert rows(frame, "gold_slot", "rounds", "reached") == [("top", 2, 1), ("middle", 2, 1), ("bottom", 1, 1)]
    assert frame["share"].to_list() == pytest.approx([0.4, 0.4, 0.2])
    assert frame["reached_rate"].to_list() == pytest.approx([0.5, 0.5, 1.0])


def test_round_endings(hand: duckdb.DuckDBPyConnection) -> None:
    frame = stats.round_endings(hand, Filters())
    assert rows(frame, "ruleset", "ending", "rounds") == [
        ("base", "gold:gold_digger", 1),
        ("tournament", "gold:gold_digger", 1),
        ("tournament", "gold:selfish_dwarf", 1),
        ("tournament", "hands_empty", 3),  # g1 round 2, g2, and the sheet the saboteurs won
    ]
    assert frame["share"].to_list() == pytest.approx([1.0, 0.2, 0.2, 0.6])


def test_turns_rockfalls_and_maps(hand: duckdb.DuckDBPyConnection) -> None:
    turns = cell(stats.turns_per_round(hand, Filters()), ruleset="tournament", players=5)
    assert (turns["rounds"], turns["min"], turns["max"]) == (4, 30, 55)
    assert (turns["mean"], turns["median"], turns["p90"]) == pytest.approx((43.75, 45.0, 53.5))
    falls = cell(stats.rockfalls_and_maps(hand, Filters()), ruleset="tournament", players=5)
    assert (falls["rounds"], falls["rockfalls"], falls["maps"]) == (4, 3, 10)
    assert (falls["rockfalls_per_round"], falls["with_rockfall"], falls["maps_per_round"]) == pytest.approx(
        (0.75, 0.5, 2.5)
    )


def test_action_cards_by_role(hand: duckdb.DuckDBPyConnection) -> None:
    frame = stats.action_cards_by_role(hand, Filters())
    assert rows(frame, "role", "action", "target_role", "cards", "on_self") == [
        (GD, "repair", GD, 1, 1),
        (GD, "map", None, 1, 0),
        (SAB, "break", GD, 2, 0),
        (SAB, "rockfall", None, 1, 0),
        (SD, "map", None, 1, 0),
    ]
    assert frame["share"].to_list() == pytest.approx([0.5, 0.5, 2 / 3, 1 / 3, 1.0])
    # per round with a log in which the role was dealt: 5 for the diggers and the
    # saboteurs, 4 for the selfish dwarf (none in the base round; over every round: 0.2)
    assert frame["per_round"].to_list() == pytest.approx([0.2, 0.2, 0.4, 0.2, 0.25])


def test_round_tables_share_one_connection_and_accept_a_store(hand_db: Path) -> None:
    tables = stats.round_tables(Store(hand_db), Filters(tournament="t2"))
    assert list(tables) == list(stats.ROUND_TABLES)
    assert tables["turns_per_round"]["rounds"].to_list() == [1]
    assert list(stats.round_tables(Store(hand_db), names=["gold_slots"])) == ["gold_slots"]


def test_analytics_never_imports_streamlit() -> None:
    code = "import sys, analytics.stats, cli.stats; print('streamlit' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# -- the command line -------------------------------------------------------------------


def invoke(*args: str | Path) -> Result:
    # a table as wide as it needs, whatever width the session's environment says
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": None})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_cli_roles_csv_is_the_frame(hand_db: Path, hand: duckdb.DuckDBPyConnection) -> None:
    result = invoke("stats", "roles", "--db", hand_db, "--format", "csv", "--min-n", "5")
    assert result.exit_code == 0, result.output
    printed = pl.read_csv(io.StringIO(result.stdout))
    frame = stats.role_win_rates(hand, Filters(min_n=5))
    assert printed.columns == frame.columns
    assert rows(printed, "ruleset", "role", "n", "wins", "flagged") == rows(
        frame, "ruleset", "role", "n", "wins", "flagged"
    )


def test_cli_players_json_with_filters(hand_db: Path) -> None:
    result = invoke("stats", "players", "--db", hand_db, "--format", "json", "--ruleset", "tournament", "--min-n", "5")
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert [r["player"] for r in records] == ["b", "d", "e", "c", "a"]
    assert records[0]["expected_wins"] == pytest.approx(1.4)


def test_cli_games_table_and_json(hand_db: Path) -> None:
    table = invoke("stats", "games", "--db", hand_db)
    assert table.exit_code == 0, table.output
    # a table for people: each statistic's title, and the codes in words
    for title in ("seat advantage", "where the gold lies", "how rounds end", "turns per round", "action cards by role"):
        assert title in table.stdout
    assert "a selfish dwarf reached the gold" in table.stdout and "gold:selfish_dwarf" not in table.stdout
    # the score sheet's round (s1) is in how rounds end, and said to be left out of the
    # five tables that need a log
    assert table.stdout.count("score-sheet rounds left out: 1") == len(stats.NEEDS_A_LOG) == 5
    only_endings = invoke("stats", "games", "--db", hand_db, "--only", "round_endings")
    assert "left out" not in only_endings.output
    printed = json.loads(invoke("stats", "games", "--db", hand_db, "--format", "json", "--clean-only").stdout)
    assert list(printed) == list(stats.ROUND_TABLES)
    assert sum(r["rounds"] for r in printed["round_endings"]) == 5
    only = invoke("stats", "games", "--db", hand_db, "--format", "csv", "--only", "gold_slots")
    assert only.stdout.splitlines()[0].startswith("gold_slot,rounds,share")


def test_cli_dates_a_bare_until_date_takes_the_whole_day(hand_db: Path) -> None:
    result = invoke(
        "stats", "roles", "--db", hand_db, "--format", "json", "--since", "2026-01-10", "--until", "2026-01-10"
    )
    cells = {(r["ruleset"], r["role"]): (r["n"], r["wins"]) for r in json.loads(result.stdout)}
    assert cells == {("tournament", GD): (3, 1), ("tournament", SAB): (3, 1), ("tournament", SD): (3, 1)}
    before = invoke("stats", "roles", "--db", hand_db, "--until", "2026-01-09T23:59:59", "--format", "json")
    assert {r["ruleset"] for r in json.loads(before.stdout)} == {"base"}
    assert invoke("stats", "roles", "--db", hand_db, "--since", "last week").exit_code == 2
    # the score sheet s1 has no time: a date leaves its round out, and says so
    dated = invoke("stats", "roles", "--db", hand_db, "--until", "2026-12-31")
    assert "rounds with no time left out by --since/--until: 1" in dated.stdout
    assert "no time" not in invoke("stats", "roles", "--db", hand_db).stdout
    on_the_side = invoke("stats", "players", "--db", hand_db, "--since", "2026-01-01", "--format", "json")
    assert "player_stats: rounds with no time left out by --since/--until: 1" in on_the_side.stderr
    json.loads(on_the_side.stdout)  # the data alone on the standard output
    # a stage or ruleset mistyped is refused as a bad date is, not answered with nothing
    for option, typo in (("--stage", "prelim"), ("--ruleset", "Base")):
        refused = invoke("stats", "roles", "--db", hand_db, option, typo)
        assert refused.exit_code == 2 and typo in refused.output, refused.output
    chosen = invoke("stats", "roles", "--db", hand_db, "--ruleset", "base", "--format", "json")
    assert {r["ruleset"] for r in json.loads(chosen.stdout)} == {"base"}
    # a tournament mistyped too: it answered with tables of nothing, exit 0
    for command in (("roles",), ("players",), ("games",)):
        typo = invoke("stats", *command, "--db", hand_db, "--tournament", "t22")
        assert typo.exit_code == 1 and "no game of tournament t22 in" in typo.output, typo.output


def test_cli_table_dims_flagged_rows_and_refuses_a_missing_store(hand_db: Path, tmp_path: Path) -> None:
    result = invoke("stats", "roles", "--db", hand_db, "--tournament", "t2")
    assert result.exit_code == 0
    assert "role win rates" in result.stdout and "selfish dwarf" in result.stdout
    missing = invoke("stats", "roles", "--db", tmp_path / "none.duckdb")
    assert missing.exit_code == 2
    assert not (tmp_path / "none.duckdb").exists()
    assert invoke("stats", "games", "--db", hand_db, "--only", "nonsense").exit_code == 2


@pytest.mark.parametrize("width", ["60", "80"])
def test_a_narrow_terminal_breaks_no_number(sim_db: Path, width: str) -> None:
    """At 80 columns ``stats players`` squeezed its table until rates broke across
    lines ("0.53" over "3", a different number); a table too wide for the terminal is
    shown a row a paragraph, each number whole beside its head."""
    rates = json.loads(invoke("stats", "players", "--db", sim_db, "--format", "json").stdout)
    narrow = CliRunner().invoke(app, ["stats", "players", "--db", str(sim_db)], env={"COLUMNS": width})
    assert narrow.exit_code == 0, narrow.output
    assert max(len(line) for line in narrow.output.splitlines()) <= int(width)
    for row in rates:
        assert f"win rate\u00a0{row['win_rate']:.3f}" in narrow.output, (row["name"], narrow.output)
    wide = CliRunner().invoke(app, ["stats", "players", "--db", str(sim_db)], env={"COLUMNS": "300"})
    assert "win rate" in wide.output and "\u00a0" not in wide.output  # a table where it fits


# -- a store of simulated games ---------------------------------------------------------


@pytest.fixture(scope="module")
def sim_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sim")
    simulate_tournament(folder / "open", players=14, preliminary_rounds=2, seed=11)
    for index, players in enumerate((3, 4, 7)):
        write_log(quick_game(players, "base", 2, seed=index), folder / f"base-{players}.jsonl")
    path = folder / "sim.duckdb"
    ingest([folder / "open", *sorted(folder.glob("base-*.jsonl"))], Store(path), workers=1)
    return path


@pytest.fixture
def sim(sim_db: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with Store(sim_db).connect(read_only=True) as con:
        yield con


def scalar(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    return con.execute(sql).fetchall()[0][0]


def test_simulated_role_rates_add_up(sim: duckdb.DuckDBPyConnection) -> None:
    frame = stats.role_win_rates(sim, Filters())
    assert set(frame["ruleset"]) == {"tournament", "base"}
    assert frame["dealt"].sum() == scalar(sim, "SELECT count(*) FROM round_players WHERE role IS NOT NULL")
    team_wins = frame.filter(pl.col("role") != SD).group_by("role").agg(pl.col("wins").sum())
    assert dict(team_wins.iter_rows()) == {
        GD: scalar(sim, "SELECT count(*) FROM rounds WHERE winner = 'gold_diggers'"),
        SAB: scalar(sim, "SELECT count(*) FROM rounds WHERE winner = 'saboteurs'"),
    }
    assert frame.filter(role=SD)["wins"].sum() == scalar(
        sim, "SELECT count(*) FROM rounds WHERE winner = 'selfish_dwarf'"
    )
    assert ((frame["low"] <= frame["rate"]) & (frame["rate"] <= frame["high"])).all()
    assert frame.filter(role=GD)["n"].sum() == scalar(sim, "SELECT count(*) FROM rounds")


def test_simulated_players_expected_wins_sum_to_wins(sim: duckdb.DuckDBPyConnection) -> None:
    frame = stats.player_stats(sim, Filters())
    assert frame["rounds"].sum() == scalar(sim, "SELECT count(*) FROM round_players")
    assert frame["expected_wins"].sum() == pytest.approx(frame["wins"].sum())
    assert frame["wins_over_expected"].sum() == pytest.approx(0.0, abs=1e-9)
    per_role = sum(frame[f"rounds_{role}"].sum() for role in stats.ROLES)
    assert per_role == frame["rounds"].sum()
    named = frame.filter(pl.col("name") != pl.col("player"))
    assert named.height >= 14  # the tournament's players carry their display names
    tournament = stats.player_stats(sim, Filters(tournament="sim-open-11"))
    assert tournament.height == 14


def test_simulated_round_tables_add_up(sim: duckdb.DuckDBPyConnection) -> None:
    rounds = scalar(sim, "SELECT count(*) FROM rounds")
    tables = stats.round_tables(sim, Filters())
    assert tables["round_endings"]["rounds"].sum() == rounds
    assert tables["gold_slots"]["rounds"].sum() == rounds
    assert tables["turns_per_round"]["rounds"].sum() == rounds
    assert tables["seat_advantage"]["n"].sum() == scalar(sim, "SELECT count(*) FROM round_players")
    actions = scalar(sim, "SELECT count(*) FROM cards_played WHERE type IN ('play_tool', 'play_rockfall', 'play_map')")
    assert tables["action_cards_by_role"]["cards"].sum() == actions
    assert tables["rockfalls_and_maps"]["rockfalls"].sum() == scalar(sim, "SELECT sum(rockfalls) FROM rounds")
    shares = tables["round_endings"].group_by("ruleset").agg(pl.col("share").sum())
    assert shares["share"].to_list() == pytest.approx([1.0, 1.0])
    final = stats.round_tables(sim, Filters(stage="final"))
    assert final["turns_per_round"]["rounds"].sum() == 4  # the final table plays 4 rounds


def test_rounds_played_by_bots_are_counted_and_said(hand_db: Path, sim_db: Path) -> None:
    """The simulator marks its games' ids; ``stats roles`` says when bots played the
    rounds it counts, and says nothing of the kind about games people played."""
    with Store(hand_db).connect(read_only=True) as con:
        bots, rounds = stats.played_by_bots(con, Filters())
        assert (bots, rounds) == (0, scalar(con, "SELECT count(*) FROM rounds"))
    with Store(sim_db).connect(read_only=True) as con:
        rounds = scalar(con, "SELECT count(*) FROM rounds")
        assert stats.played_by_bots(con, Filters()) == (rounds, rounds)
        base = scalar(con, "SELECT count(*) FROM rounds WHERE ruleset = 'base'")
        assert stats.played_by_bots(con, Filters(ruleset="base")) == (base, base)
    said = invoke("stats", "roles", "--db", sim_db)
    assert said.exit_code == 0, said.output
    assert f"all {rounds:,} rounds were played by the simulator's bots" in " ".join(said.output.split())
    assert "bots" not in invoke("stats", "roles", "--db", hand_db).output
    as_json = invoke("stats", "roles", "--db", sim_db, "--format", "json")
    json.loads(as_json.stdout)  # the note goes to the standard error; the output stays data


def test_a_round_ended_before_it_was_over_is_won_by_nobody_in_the_statistics(tmp_path: Path) -> None:
    """A ``round_ended`` logged while the gold is not reached and every hand holds cards
    (a ``wrong_score``, "stopped early" in the round endings): R-W1's "the gold was not
    reached" would make it the saboteurs' win, with their points and stars, though
    nobody played it out. The statistics of wins leave it out and say so; the round
    endings count it; the player's rounds show no winner, and no star (the standings
    counted the saboteurs' stars of it)."""
    from events.builder import LogBuilder

    log = LogBuilder(players=5, ruleset="tournament", game_id="early:1")
    log.deal(start="ann")
    log.end_round(winner="gold_diggers")  # claimed at once, every hand full
    (tmp_path / "early.jsonl").write_text("".join(line + "\n" for line in log.lines), encoding="utf-8")
    store = Store(tmp_path / "early.duckdb")
    ingest([tmp_path / "early.jsonl"], store, workers=1)
    with store.connect(read_only=True) as con:
        assert scalar(con, "SELECT ended_by FROM rounds") == "early"
        assert scalar(con, "SELECT winner FROM rounds") == "saboteurs"  # what R-W1 alone would say
        assert scalar(con, "SELECT count(*) FROM round_players WHERE star") == 0  # nor its stars: no winner
        assert stats.role_win_rates(con).is_empty()
        assert stats.player_stats(con).filter(pl.col("rounds") > 0).is_empty()
        assert stats.undecided_rounds(con, Filters()) == 1
        endings = stats.round_tables(con, Filters(), ["round_endings"])["round_endings"]
        assert endings.filter(pl.col("ending") == "early")["rounds"].to_list() == [1]
    played = browse.player_rounds(store, "ann")
    assert played["won"].to_list() == [None] and played["winner"].to_list() == [None]
    said = " ".join(invoke("stats", "roles", "--db", store.path).output.split())
    assert "rounds with no known winner left out (a round ended before it was over" in said, said


def test_a_store_of_version_11_loses_the_stars_of_a_round_stopped_early(tmp_path: Path) -> None:
    """Schema version 12: a round its log ended before it was over (R-E2) gives no star
    (its winner unknown, R-W1). A store written before holds the saboteurs' stars of it; the next
    command that writes takes them away, and ``verify`` finds the read models as the
    events give them."""
    from events.builder import LogBuilder

    log = LogBuilder(players=5, ruleset="tournament", game_id="early:1")
    log.deal(start="ann")
    log.end_round(winner="gold_diggers")
    (tmp_path / "early.jsonl").write_text("".join(line + "\n" for line in log.lines), encoding="utf-8")
    db = tmp_path / "early.duckdb"
    ingest([tmp_path / "early.jsonl"], Store(db), workers=1)
    with duckdb.connect(str(db)) as con:
        con.execute(
            "UPDATE round_players SET star = true WHERE role = 'saboteur'"  # as version 11 projected it
        )
        con.execute("UPDATE meta SET value = '11' WHERE key = 'schema_version'")
    assert invoke("ingest", tmp_path / "early.jsonl", "--db", db, "--workers", "1").exit_code == 0  # a duplicate
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM round_players WHERE star").fetchall() == [(0,)]
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall() == [("12",)]
    assert invoke("verify", "--db", db).exit_code == 0


def test_a_round_ended_before_it_was_over_is_no_seat_s_win_and_no_gold_slot_s_miss(tmp_path: Path) -> None:
    """The same round in the seats' win rates and the gold's slots: counted, "the gold was
    not reached" made each saboteur's seat a win and the gold's slot a miss, though
    nobody played the round out. Both leave it out and say so under the table. The
    note that bots played the rounds of the roles' rates counts theirs alone (it said
    "all 2 rounds" under a table of 1)."""
    from events.builder import LogBuilder

    log = LogBuilder(players=5, ruleset="tournament", game_id="sim:early:2", rounds=2)
    log.deal(start="ann")
    log.end_round(winner="saboteurs")  # claimed at once, every hand full
    log.deal(start="bob")
    log.pass_out().end_round().end_game()  # round 2 played out: the saboteurs' win
    (tmp_path / "early.jsonl").write_text("".join(line + "\n" for line in log.lines), encoding="utf-8")
    store = Store(tmp_path / "early.duckdb")
    ingest([tmp_path / "early.jsonl"], store, workers=1)
    with store.connect(read_only=True) as con:
        seats = stats.seat_advantage(con)
        assert seats["n"].to_list() == [1] * 5  # round 2 alone
        saboteurs = scalar(con, "SELECT saboteurs FROM rounds WHERE round = 2")
        assert saboteurs >= 1 and seats["wins"].sum() == saboteurs  # its saboteurs' seats won
        assert stats.gold_slots(con)["rounds"].sum() == 1
        assert stats.stopped_early(con, Filters(), "seat_advantage") == 1
        assert stats.stopped_early(con, Filters(), "gold_slots") == 1
        assert stats.played_by_bots(con, Filters()) == (1, 1)  # of the rounds the roles' rates count
        # nor is a round nobody played out a round's length, nor its cards a round's cards
        played_out = scalar(con, "SELECT turns FROM rounds WHERE round = 2")
        turns = stats.turns_per_round(con)
        assert turns["rounds"].to_list() == [1] and turns["min"].to_list() == [played_out]
        assert stats.rockfalls_and_maps(con)["rounds"].to_list() == [1]
        assert stats.stopped_early(con, Filters(), "turns_per_round") == 1
    said = " ".join(invoke("stats", "games", "--db", store.path, "--only", "seat_advantage").output.split())
    assert "rounds a log ended before they were over left out: 1" in said, said
    assert "turn order" in said  # a seat counted from the round's starting player, not the seat at the table
    slots = " ".join(invoke("stats", "games", "--db", store.path, "--only", "gold_slots").output.split())
    assert "gold reached" in slots and "rate reached" in slots and "win rate" not in slots, slots
    for name in ("turns_per_round", "action_cards_by_role", "rockfalls_and_maps"):
        said = " ".join(invoke("stats", "games", "--db", store.path, "--only", name).output.split())
        assert "rounds a log ended before they were over left out: 1" in said, (name, said)


def test_a_round_played_out_whose_round_ended_is_lost_counts_as_the_cards_ran_out(tmp_path: Path) -> None:
    """R-E2, R-W3: a round whose hands are played out and whose ``round_ended`` line is
    lost still counts, with the outcome the rules give (the audit's ``rounds`` have
    it). Its ending is the cards running out, not "stopped early": taken as early, the
    saboteurs' win left the statistics of wins and the player's round showed no winner."""
    from events.builder import LogBuilder

    log = LogBuilder(players=5, ruleset="tournament", game_id="lost:1", rounds=2)
    log.deal(start="ann")
    log.pass_out()  # every hand played out: the saboteurs win (R-W1)
    log.deal(start="bob")  # round 1's round_ended never written
    log.pass_out().end_round().end_game()
    (tmp_path / "lost.jsonl").write_text("".join(line + "\n" for line in log.lines), encoding="utf-8")
    store = Store(tmp_path / "lost.duckdb")
    ingest([tmp_path / "lost.jsonl"], store, workers=1)
    with store.connect(read_only=True) as con:
        assert con.execute("SELECT round, winner, ended_by FROM rounds ORDER BY round").fetchall() == [
            (1, "saboteurs", "hands_empty"),
            (2, "saboteurs", "hands_empty"),
        ]
        assert stats.undecided_rounds(con, Filters()) == 0
    played = browse.player_rounds(store, "ann")
    assert played["winner"].to_list() == ["saboteurs", "saboteurs"]


def test_a_since_after_the_until_is_refused(hand_db: Path) -> None:
    """``--since 2026-03-01 --until 2026-01-01`` matched no round and printed empty
    tables, exit 0: a typo taken for a statistic of nothing."""
    result = invoke("stats", "roles", "--db", hand_db, "--since", "2026-03-01", "--until", "2026-01-01")
    assert result.exit_code == 2
    assert "--since 2026-03-01 is after --until 2026-01-01" in " ".join(result.output.split()), result.output
    assert invoke("stats", "roles", "--db", hand_db, "--since", "2026-01-01", "--until", "2026-01-01").exit_code == 0
