"""Tournament standings (R-TS2..R-TS5): analytics/standings.py, analytics/records/ and
``saboteur tournament …`` / ``saboteur standings``.

The tournament "hand" is small enough to rank by hand: twelve players, one preliminary
round at two tables of six, each a game of three rounds on a score sheet whose rounds
are R-W1 outcomes. Every expected table below was worked out on paper from those
sheets, never taken from the code under test. Its preliminary standings go through
every tie-break path (points, stars, a shared rank, a tie across the cut line); a final
table written with :class:`events.builder.LogBuilder` goes through the final ones
(final points, final stars, preliminary points, preliminary stars). Records —
penalties, corrections, accepted replays, dismissals, a superseded game, a cut draw —
are added on top and the standings recomputed by hand again.

An independent fold over the ``events`` table (plain Python, the audit for the rules'
stars and the replays' points) agrees with the SQL on simulated tournaments.

Most tournaments here are made by ingesting a ``tournament.json``; the tests at the end
make one with ``saboteur tournament create`` and the commands after it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from random import Random
from typing import Any, Final
from zoneinfo import ZoneInfo

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner, Result

from analytics import browse, records
from analytics.records import RecordError
from analytics.standings import EVERY_FINDING, above_the_cut, misseated, seating_findings, standings
from cli.main import app
from events.audit import audit
from events.builder import LogBuilder
from events.said import read_stored
from events.schema import dump_event
from events.simulate.game import GameSpec, simulate_game
from events.simulate.mutate import mutate
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.rebuild import rebuild
from ingest.store import Store, StoreUnusable
from ingest.verify import verify

HEADER: Final = "tournament,tournament_round,table,game_id,round,player,role,points,star"
G: Final = "gold_digger"
S: Final = "saboteur"
D: Final = "selfish_dwarf"
TID: Final = "hand"
PLAYERS: Final = ("ann", "bob", "cem", "dia", "eve", "fay", "gus", "hal", "ida", "jan", "kim", "lea")
TABLE_1: Final = ("ann", "bob", "cem", "dia", "eve", "fay")

Entry = tuple[str, str, int, int]
"""One sheet row: player, role, points, star (1/0)."""
Game = dict[int, list[Entry]]

# Table 1 (hand:r1:t1):
#   round 1: ann, a gold digger, reaches the gold: ann 3*, the other diggers bob and dia 2.
#   round 2: the saboteurs ann and cem win: 3* each.
#   round 3: bob, the selfish dwarf, reaches the gold: bob 4*.
#   ann 3+3+0 = 6, 2 stars · bob 2+0+4 = 6, 1 · cem 3, 1 · dia 2, 0 · eve 0 · fay 0.
T1: Final[Game] = {
    1: [("ann", G, 3, 1), ("bob", G, 2, 0), ("dia", G, 2, 0), ("cem", D, 0, 0), ("eve", S, 0, 0), ("fay", S, 0, 0)],
    2: [("ann", S, 3, 1), ("cem", S, 3, 1), ("bob", G, 0, 0), ("dia", G, 0, 0), ("eve", G, 0, 0), ("fay", D, 0, 0)],
    3: [("bob", D, 4, 1), ("ann", G, 0, 0), ("eve", G, 0, 0), ("fay", G, 0, 0), ("cem", S, 0, 0), ("dia", S, 0, 0)],
}
# Table 2 (hand:r1:t2):
#   round 1: gus, a gold digger, reaches the gold: gus 3*, hal 2, kim 2.
#   round 2: the saboteurs gus and lea win: 3* each.
#   round 3: hal, a gold digger, reaches the gold: hal 3*, kim 2, ida 2.
#   gus 3+3+0 = 6, 2 · hal 2+0+3 = 5, 1 · kim 2+0+2 = 4, 0 · lea 3, 1 · ida 2, 0 · jan 0.
T2: Final[Game] = {
    1: [("gus", G, 3, 1), ("hal", G, 2, 0), ("kim", G, 2, 0), ("ida", D, 0, 0), ("jan", S, 0, 0), ("lea", S, 0, 0)],
    2: [("gus", S, 3, 1), ("lea", S, 3, 1), ("hal", G, 0, 0), ("ida", G, 0, 0), ("jan", G, 0, 0), ("kim", D, 0, 0)],
    3: [("hal", G, 3, 1), ("kim", G, 2, 0), ("ida", G, 2, 0), ("gus", D, 0, 0), ("jan", S, 0, 0), ("lea", S, 0, 0)],
}
# The same game as the table's scorekeeper sent it again: in round 3 it was kim who
# reached the gold (kim 3*, hal 2, ida 2). gus 6, 2 · kim 2+0+3 = 5, 1 · hal 2+0+2 = 4, 0.
T2_AGAIN: Final[Game] = {
    **T2,
    3: [("kim", G, 3, 1), ("hal", G, 2, 0), ("ida", G, 2, 0), ("gus", D, 0, 0), ("jan", S, 0, 0), ("lea", S, 0, 0)],
}

# Columns compared, and the hand-computed tables in a compact notation:
# place, rank ("=" when shared), player, points, stars, then flags: "in" (in the cut),
# "undrawn" (tied across the cut line, no draw), "drawn" (placed by the cut draw), and
# rounds=, games=, penalty=, open= where they differ from 3, 1, 0, 0.
KEYS: Final = (
    "place",
    "rank",
    "shared",
    "player",
    "points",
    "stars",
    "rounds",
    "games",
    "penalty",
    "open_findings",
    "in_cut",
    "cut_tie_undrawn",
    "cut_drawn",
)

# ann and gus share the top (6 points, 2 stars); bob has 6 points but one star; hal and
# kim follow on points; cem and lea (3, 1) tie on places 6 and 7, across the cut of 6.
BASE: Final = """
 1 1=  ann 6 2 in
 2 1=  gus 6 2 in
 3 3   bob 6 1 in
 4 4   hal 5 1 in
 5 5   kim 4 0 in
 6 6=  cem 3 1 in undrawn
 7 6=  lea 3 1 undrawn
 8 8=  dia 2 0
 9 8=  ida 2 0
10 10= eve 0 0
11 10= fay 0 0
12 10= jan 0 0
"""


def expected(text: str) -> list[dict[str, Any]]:
    table = []
    for line in text.strip().splitlines():
        place, rank, player, points, stars, *flags = line.split()
        counts = dict(flag.split("=") for flag in flags if "=" in flag)
        marks = {flag for flag in flags if "=" not in flag}
        table.append(
            {
                "place": int(place),
                "rank": int(rank.rstrip("=")),
                "shared": rank.endswith("="),
                "player": player,
                "points": int(points),
                "stars": int(stars),
                "rounds": int(counts.get("rounds", 3)),
                "games": int(counts.get("games", 1)),
                "penalty": int(counts.get("penalty", 0)),
                "open_findings": int(counts.get("open", 0)),
                "in_cut": None if "undrawn" in marks else "in" in marks,  # not known until drawn
                "cut_tie_undrawn": "undrawn" in marks,
                "cut_drawn": "drawn" in marks,
            }
        )
    return table


def shown(frame: pl.DataFrame) -> list[dict[str, Any]]:
    return frame.select(KEYS).to_dicts()


def why(frame: pl.DataFrame) -> dict[str, str]:
    return {str(r["player"]): str(r["why"]) for r in frame.iter_rows(named=True)}


def row(frame: pl.DataFrame, player: str) -> dict[str, Any]:
    found = frame.filter(pl.col("player") == player).to_dicts()
    assert len(found) == 1, found
    return found[0]


# -- building tournaments --------------------------------------------------------------


def sheet(game_id: str, game: Game, *, tournament: str = TID, number: int = 1, table: str = "1") -> str:
    lines = [HEADER]
    for round_number, results in game.items():
        for player, role, points, star in results:
            lines.append(f"{tournament},{number},{table},{game_id},{round_number},{player},{role},{points},{star}")
    return "\n".join(lines) + "\n"


def description(
    tournament: str, players: Sequence[str], *, name: str = "Hand Open", preliminary_rounds: int = 1
) -> dict[str, Any]:
    return {
        "format": "saboteur-tournament/1",
        "id": tournament,
        "name": name,
        "ruleset": "tournament",
        "preliminary_rounds": preliminary_rounds,
        "cut": 6,
        "final_rounds": 4,
        "players": [{"id": p, "name": p.title()} for p in players],
    }


def put(store: Store, path: Path, text: str, **options: Any) -> str:
    """Write one file and ingest it; its outcome."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    results = ingest([path], store, workers=1, **options)
    assert len(results) == 1
    return results[0].outcome


@dataclass
class Hand:
    root: Path
    db: Path
    store: Store

    def cli(self, *args: str, env: dict[str, str] | None = None) -> Result:
        result = CliRunner().invoke(app, [*args, "--db", str(self.db)], env=env)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    def table(self, **options: Any) -> pl.DataFrame:
        return standings(self.store, TID, **options)

    def position(self) -> int:
        with self.store.connect(read_only=True) as con:
            return int(con.execute("SELECT max(position) FROM events").fetchall()[0][0])

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.store.connect(read_only=True) as con:
            return con.execute(sql, list(params)).fetchall()


def _hand(tmp_path: Path, preliminary_rounds: int) -> Hand:
    """The tournament "hand" after its first preliminary round (BASE)."""
    store = Store(tmp_path / "hand.duckdb")
    root = tmp_path / "files"
    told = description(TID, PLAYERS, preliminary_rounds=preliminary_rounds)
    assert put(store, root / "tournament.json", json.dumps(told)) == "accepted"
    assert put(store, root / "r1-t1.csv", sheet("hand:r1:t1", T1, table="1")) == "accepted"
    assert put(store, root / "r1-t2.csv", sheet("hand:r1:t2", T2, table="2")) == "accepted"
    return Hand(root, tmp_path / "hand.duckdb", store)


@pytest.fixture(scope="session")
def hands(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, int], Hand]:
    """``_hand`` made once a worker for each number of preliminary rounds, then copied:
    its store file and its folder of files, as the ingest left them (the store closed
    after each job), into the test's own folder. Ingesting its three files cost some
    0.2 s of processor a test, most of this module's setup."""
    made: dict[int, Path] = {}

    def copy(tmp_path: Path, preliminary_rounds: int) -> Hand:
        if preliminary_rounds not in made:
            made[preliminary_rounds] = tmp_path_factory.mktemp(f"hand-{preliminary_rounds}")
            _hand(made[preliminary_rounds], preliminary_rounds)
        shutil.copyfile(made[preliminary_rounds] / "hand.duckdb", tmp_path / "hand.duckdb")
        shutil.copytree(made[preliminary_rounds] / "files", tmp_path / "files")
        return Hand(tmp_path / "files", tmp_path / "hand.duckdb", Store(tmp_path / "hand.duckdb"))

    return copy


@pytest.fixture
def hand(tmp_path: Path, hands: Callable[[Path, int], Hand]) -> Hand:
    """The tournament "hand", of one preliminary round, after it (BASE)."""
    return hands(tmp_path, 1)


@pytest.fixture
def hand_of_two(tmp_path: Path, hands: Callable[[Path, int], Hand]) -> Hand:
    """The tournament "hand" announced with two preliminary rounds, after its first:
    for the tests that store games of round 2, which a tournament of one round would
    count as played outside its rounds (a ``wrong_table`` finding for each player)."""
    return hands(tmp_path, 2)


ROW: Final = ((1, "EW"), (2, "EW"), (3, "EW"), (5, "NEW"), (6, "NEW"), (7, "NESW"))
"""A path along y=0 to the middle goal around the tournament setup card at (4,0)."""


def gold_round(log: LogBuilder, connector: str, roles: dict[str, str]) -> None:
    """A round in which ``connector`` lays the sixth card of ROW and reaches the gold:
    the player after them starts, each of the six lays one card."""
    seats = log.players
    start = seats.index(connector) + 1
    order = seats[start:] + seats[:start]
    log.deal(start=order[0], roles=roles, hands={p: [ROW[i][1]] for i, p in enumerate(order)})
    for k, (x, card) in enumerate(ROW):
        log.path(log.turn, card, x, 0, draw=k < len(ROW) - 1)
    log.reveal("middle", False)
    log.end_round()


def final_log() -> LogBuilder:
    """The final table: four rounds, every one reaching the gold.

    1. gus (gold digger) connects: gus 3*, ann 2, bob 2.
    2. gus (gold digger) connects: gus 3*, hal 2, ann 2.
    3. kim (selfish dwarf) connects: kim 4*.
    4. kim (saboteur) connects: the diggers bob, hal, gus 2 each, no star.
    Final: gus 8, 2 stars · kim 4, 1 · ann 4, 0 · bob 4, 0 · hal 4, 0 · cem 0, 0.
    """
    log = LogBuilder(
        players=["ann", "bob", "cem", "gus", "hal", "kim"],
        rounds=4,
        game_id="hand:final",
        tournament=TID,
        tournament_round=2,
        stage="final",
        table="final",
    )
    gold_round(log, "gus", {"ann": G, "bob": G, "gus": G, "hal": D, "kim": S, "cem": S})
    gold_round(log, "gus", {"gus": G, "hal": G, "ann": G, "bob": D, "kim": S, "cem": S})
    gold_round(log, "kim", {"ann": G, "bob": G, "gus": G, "kim": D, "hal": S, "cem": S})
    gold_round(log, "kim", {"bob": G, "hal": G, "gus": G, "ann": D, "kim": S, "cem": S})
    log.end_game()
    return log


def slipped_log() -> LogBuilder:
    """Preliminary round 2 at table 1, one round: nobody reaches the gold, so the
    saboteurs eve and fay win 3* each; the scorekeeper wrote fay 0."""
    log = LogBuilder(
        players=list(TABLE_1), rounds=1, game_id="hand:r2:t1", tournament=TID, tournament_round=2, table="1"
    )
    log.deal()  # ann, bob, cem gold diggers; dia the selfish dwarf; eve, fay saboteurs
    log.pass_out()
    log.end_round(scores={"ann": 0, "bob": 0, "cem": 0, "dia": 0, "eve": 3, "fay": 0})
    log.end_game()
    return log


# -- preliminary standings by hand -------------------------------------------------------


def test_preliminary_standings_computed_by_hand(hand: Hand) -> None:
    table = hand.table()
    assert shown(table) == expected(BASE)
    assert table["name"].to_list()[:3] == ["Ann", "Gus", "Bob"]
    reasons = why(table)
    # a shared rank
    assert reasons["ann"] == "top of the table; level with Gus on points and stars"
    assert reasons["gus"] == (
        "level with Ann on points and stars: rank 1 shared; level with Bob on points (6), more stars (2 to 1)"
    )
    # a stars decision
    assert reasons["bob"] == "level with Gus on points (6), fewer stars (1 to 2); above Hal on points (6 to 5)"
    # a points decision
    assert reasons["hal"] == "below Bob on points (5 to 6); above Kim on points (5 to 4)"
    # the tie across the cut line
    assert reasons["cem"] == (
        "below Kim on points (3 to 4); level with Lea on points and stars; tied across the cut line: not yet drawn"
    )
    assert reasons["lea"] == (
        "level with Cem on points and stars: rank 6 shared; above Dia on points (3 to 2); "
        "tied across the cut line: not yet drawn"
    )
    assert reasons["jan"] == "level with Fay on points and stars: rank 10 shared"


def test_the_cut_draw_is_recorded_and_puts_the_drawn_player_in(hand: Hand) -> None:
    # Random(1) shuffles ["cem", "lea"] to ["lea", "cem"]: lea takes the one place left.
    order = ["cem", "lea"]
    Random(1).shuffle(order)
    assert order == ["lea", "cem"]
    result = hand.cli("tournament", "cut", TID, "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "a draw among cem, lea for 1 place: lea" in result.output
    assert "the cut: 1. Ann, 2. Gus, 3. Bob, 4. Hal, 5. Kim, 6. Lea" in result.output
    assert hand.query("SELECT tied, places, drawn, points, stars, seed FROM cut_draws") == [
        (["cem", "lea"], 1, ["lea"], 3, 1, 1)
    ]
    table = hand.table()
    lea = row(table, "lea")
    assert (lea["place"], lea["rank"], lea["in_cut"], lea["cut_drawn"], lea["cut_tie_undrawn"]) == (
        6,
        6,
        True,
        True,
        False,
    )
    assert lea["why"] == (
        "below Kim on points (3 to 4); level with Cem on points and stars; placed by the recorded cut draw (1)"
    )
    cem = row(table, "cem")
    assert (cem["place"], cem["rank"], cem["in_cut"]) == (7, 6, False)
    # the draw drew lea alone: cem was not "placed by the recorded cut draw (2)"
    assert cem["why"].endswith("not drawn at the recorded cut draw: below the players it drew"), cem["why"]
    assert table.filter(pl.col("in_cut"))["player"].to_list() == ["ann", "gus", "bob", "hal", "kim", "lea"]


def test_the_command_line_says_in_words_when_a_tie_across_the_cut_is_not_drawn(hand: Hand) -> None:
    """The table marks the tied rows in colour, which a pipe, a file or a printout
    loses: a line under it names them and the command that draws the tie."""
    said = " ".join(hand.cli("standings", TID).output.split())
    names = dict(hand.query(f"SELECT player, name FROM tournament_players WHERE tournament = '{TID}'"))
    assert (
        f"{names['cem']} and {names['lea']} are tied across the cut line: draw the tie first "
        "(saboteur tournament cut --stage preliminary)" in said
    ), said
    hand.cli("tournament", "cut", TID, "--seed", "7")
    assert "tied across the cut line" not in hand.cli("standings", TID).output


def test_a_tie_across_the_cut_not_yet_drawn_is_neither_in_nor_out_of_the_cut(hand: Hand) -> None:
    """R-TS2: a tie at the cut line is settled by the recorded draw alone. Until it is
    drawn, ``in_cut`` said the first of it by id was in (cem) and the others out, which
    a reader of the CSV or JSON took for the cut; it is not known (null), and the places
    the tie shares are said. The table's line stays where the cut's places end."""
    table = hand.table()
    tied = table.filter(pl.col("cut_tie_undrawn"))
    assert tied.select("player", "in_cut", "cut_tie_places").rows() == [("cem", None, 1), ("lea", None, 1)]
    assert table.filter(pl.col("in_cut"))["player"].to_list() == ["ann", "gus", "bob", "hal", "kim"]
    assert above_the_cut(table) == 6
    exported = json.loads(hand.cli("standings", TID, "--format", "json").stdout)
    rows = exported["standings"] if isinstance(exported, dict) else exported
    assert {r["player"]: r["in_cut"] for r in rows if r["player"] in ("cem", "lea", "kim")} == {
        "cem": None,
        "lea": None,
        "kim": True,
    }


def test_after_the_cut_draw_no_one_is_left_undrawn(hand: Hand) -> None:
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    table = hand.table()
    assert not table["cut_tie_undrawn"].any()
    assert table.filter(pl.col("cut_drawn"))["player"].to_list() == ["lea", "cem"]
    assert "not yet drawn" not in row(table, "cem")["why"]
    again = hand.cli("tournament", "cut", TID, "--seed", "2")
    assert again.exit_code == 0
    assert hand.query("SELECT count(*) FROM cut_draws") == [(1,)]


def test_a_tie_that_comes_back_is_placed_by_the_draw_made_for_it(hand: Hand) -> None:
    """R-TS2/R-TS5: the standings are computed from the whole record. The draw made for
    the tie of cem and lea for one place still places them when that tie comes back
    after another tie was drawn (only the newest draw was read: the tie showed undrawn,
    and a second draw could give the place to the other player)."""
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0  # lea (above)
    records.penalty(hand.store, TID, "hal", 2, "slow play")  # hal 3/1 joins them, for 2 places
    assert row(hand.table(), "hal")["cut_tie_undrawn"]
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    records.withdraw_penalty(hand.store, TID, 1, "it was someone else")
    table = hand.table()
    assert not table["cut_tie_undrawn"].any()
    assert table.filter(pl.col("in_cut"))["player"].to_list() == ["ann", "gus", "bob", "hal", "kim", "lea"]
    assert row(table, "lea")["why"].endswith("placed by the recorded cut draw (1)")
    again = hand.cli("tournament", "cut", TID, "--seed", "2")
    assert again.exit_code == 0 and "a draw" not in again.output, again.output
    assert hand.query("SELECT tied, places FROM cut_draws ORDER BY seq") == [
        (["cem", "lea"], 1),
        (["cem", "hal", "lea"], 2),
    ]


def test_a_draw_for_other_places_does_not_place_its_tie(hand: Hand) -> None:
    """R-TS2: a draw decides the places it was made for. The tie of cem, hal and lea was
    drawn for two places; once dia rises above them only one is left, which the draw
    did not decide: the tie is flagged until drawn again (the draw's order was read on,
    so the first player drawn took the place unflagged, and a player out of the cut read
    "placed by the recorded cut draw (2)")."""
    records.penalty(hand.store, TID, "hal", 2, "slow play")  # hal 3/1 beside cem and lea, for 2 places
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    records.correct(hand.store, TID, "hand:r1:t1", 1, "dia", 4, "misread the sheet")  # dia 4/0, above them
    table = hand.table()
    tied = table.filter(pl.col("player").is_in(["cem", "hal", "lea"]))
    assert tied["cut_tie_undrawn"].all() and not tied["cut_drawn"].any()
    assert tied["in_cut"].is_null().all() and tied["cut_tie_places"].to_list() == [1, 1, 1]  # who: not known
    for player in ("cem", "hal", "lea"):
        assert row(table, player)["why"].endswith("tied across the cut line: not yet drawn")
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    assert hand.query("SELECT tied, places FROM cut_draws ORDER BY seq") == [
        (["cem", "hal", "lea"], 2),
        (["cem", "hal", "lea"], 1),
    ]
    assert not hand.table()["cut_tie_undrawn"].any()


def test_final_table_tie_breakers_computed_by_hand(hand: Hand) -> None:
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    at = hand.position()
    records.penalty(hand.store, TID, "cem", 1, "late to the final table", stage="final")
    final = hand.table(stage="final")
    # as of the moment before the penalty, cem's final points were 0; nothing else differs
    earlier = hand.table(stage="final", as_of=at)
    assert (row(earlier, "cem")["final_points"], row(earlier, "cem")["penalty"]) == (0, 0)
    assert_frame_equal(earlier.drop("final_points", "penalty"), final.drop("final_points", "penalty"))
    columns = ["place", "rank", "player", "final_points", "final_stars", "preliminary_points", "preliminary_stars"]
    assert final.select(columns).rows() == [
        (1, 1, "gus", 8, 2, 6, 2),
        (2, 2, "kim", 4, 1, 4, 0),
        (3, 3, "ann", 4, 0, 6, 2),
        (4, 4, "bob", 4, 0, 6, 1),
        (5, 5, "hal", 4, 0, 5, 1),
        (6, 6, "cem", -1, 0, 3, 1),
    ]
    assert final["rounds"].to_list() == [4] * 6
    assert final["penalty"].to_list() == [0, 0, 0, 0, 0, 1]
    assert final["why"].to_list() == [
        "top of the final table",
        "below Gus on final points",
        "level on final points with Kim, fewer final stars",
        "level on the final and preliminary points with Ann, fewer preliminary stars",
        "level on the final with Bob, fewer preliminary points",
        "below Hal on final points",
    ]
    # the final game and the final penalty leave the preliminary standings alone
    assert shown(hand.table()) == expected(BASE)


FINAL_ON_PAPER: Final = {
    1: [("ann", G, 2, 0), ("bob", G, 2, 0), ("cem", S, 0, 0), ("gus", G, 3, 1), ("hal", D, 0, 0), ("kim", S, 0, 0)],
    2: [("ann", G, 2, 0), ("bob", D, 0, 0), ("cem", S, 0, 0), ("gus", G, 3, 1), ("hal", G, 2, 0), ("kim", S, 0, 0)],
    3: [("ann", G, 0, 0), ("bob", G, 0, 0), ("cem", S, 0, 0), ("gus", G, 0, 0), ("hal", S, 0, 0), ("kim", D, 4, 1)],
    4: [("ann", D, 0, 0), ("bob", G, 2, 0), ("cem", S, 0, 0), ("gus", G, 2, 0), ("hal", G, 2, 0), ("kim", S, 0, 0)],
}
"""The final table of :func:`final_log`, as its scorekeeper writes it on paper."""


def test_a_finalist_seated_who_does_not_play_is_ranked_at_the_final(hand: Hand) -> None:
    """R-TS4, R-TS3: the final ranks the players it seats or who played in it. A
    finalist seated who never sat down (lea, in kim's seat) was left out of the final's
    standings, though a semi-final ranks such a player; they are ranked as R-TS4 ranks
    everyone: on no final points and stars, then on their preliminary ones."""
    seated = ["ann", "bob", "cem", "gus", "hal", "lea"]
    records.publish_seating(hand.store, TID, 2, [seated], stage="final", method="by hand", seed=None)
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    final = hand.table(stage="final")
    assert final["player"].to_list() == ["gus", "kim", "ann", "bob", "hal", "cem", "lea"]
    lea = row(final, "lea")
    assert (lea["final_points"], lea["final_stars"], lea["rounds"]) == (0, 0, 0)
    assert lea["preliminary_points"] == row(hand.table(), "lea")["points"]


def test_a_final_seated_and_not_yet_played_shows_its_players_at_none(hand: Hand) -> None:
    """The final table seated, its first game not in: ``standings --stage final`` was
    refused ("no game of the final is in yet"), where ``--as-of`` the same moment,
    asked once the games were in, showed its players at 0 in their preliminary order
    (R-TS4's tie-breakers). Both show the seated final now; one not seated is refused."""
    refused = hand.cli("standings", TID, "--stage", "final")
    assert refused.exit_code == 1 and "no game of the final of hand is in yet" in refused.output
    seated = ["ann", "bob", "cem", "gus", "hal", "lea"]
    records.publish_seating(hand.store, TID, 2, [seated], stage="final", method="by hand", seed=None)
    at = hand.position()
    shown = hand.cli("standings", TID, "--stage", "final", "--format", "json")
    assert shown.exit_code == 0, shown.output
    players = [r["player"] for r in json.loads(shown.output)]
    preliminary = [p for p in hand.table()["player"].to_list() if p in seated]
    assert players == preliminary
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    then = hand.cli("standings", TID, "--stage", "final", "--format", "json", "--as-of", str(at))
    assert [r["player"] for r in json.loads(then.output)] == players


def test_a_game_of_the_other_ruleset_counts_in_no_standings_and_is_said(hand_of_two: Hand) -> None:
    """R-W1: a tournament of the tournament rules scores points and stars. A base game
    of one of its rounds (a phone left on the base rules) counted its gold nuggets as
    points, its winners without stars, and nothing said so. It counts nowhere, and a
    ``wrong_ruleset`` finding of the game stands beside each of its players' rows."""
    hand = hand_of_two
    before = hand.table()
    spec = GameSpec("hand:r2:t1", PLAYERS[:6], ruleset="base", seed=3, tournament=TID, tournament_round=2, table="1")
    text = "".join(dump_event(event) + "\n" for event in simulate_game(spec))
    assert put(hand.store, hand.root / "r2-t1.jsonl", text) in ("accepted", "accepted_with_findings")
    after = hand.table()
    assert_frame_equal(after.drop("open_findings", "why", "reasons"), before.drop("open_findings", "why", "reasons"))
    assert [row(after, p)["open_findings"] - row(before, p)["open_findings"] for p in PLAYERS[:6]] == [1] * 6
    found = hand.cli("findings", TID, "--open")
    assert "hand:r2:t1 is played by the base rules, but hand by the tournament rules" in " ".join(found.output.split())


def test_a_game_that_names_no_round_counts_in_no_standings_and_is_said(hand: Hand) -> None:
    """R-TS1, R-TS2: the ranking is over the rounds announced. A game naming its
    tournament but no round (a table's log stored again under another id, its round
    left out) counted beside the rounds: its players' points twice, and no seating
    check could see it. It counts nowhere, and a ``no_round`` finding of the game stands
    beside each of its players' rows."""
    before = hand.table()
    text = sheet("hand:again", T1).replace(f"{TID},1,1,", f"{TID},,1,")
    assert put(hand.store, hand.root / "again.csv", text) == "accepted"
    after = hand.table()
    assert_frame_equal(after.drop("open_findings", "why", "reasons"), before.drop("open_findings", "why", "reasons"))
    players = sorted({player for results in T1.values() for player, *_ in results})
    assert [row(after, p)["open_findings"] - row(before, p)["open_findings"] for p in players] == [1] * len(players)
    found = " ".join(hand.cli("findings", TID, "--open").output.split())
    assert "hand:again names no round of hand: it counts in no standings" in found


def test_a_final_numbered_as_another_round_is_said_to_count_in_no_standings(hand: Hand) -> None:
    """A final's game numbered as a round the final did not announce counts in no
    standings (R-TS1); the final's standings say so and name it. They said "no players
    are registered", with twelve registered."""
    text = sheet("hand:final", FINAL_ON_PAPER, number=1, table="final").splitlines()
    text = [text[0] + ",stage"] + [line + ",final" for line in text[1:]]
    put(hand.store, hand.root / "final.csv", "\n".join(text) + "\n")
    result = hand.cli("standings", TID, "--stage", "final")
    assert result.exit_code == 1
    assert " ".join(result.output.split()) == (
        "no game of the final of hand counts yet: hand:final is numbered as a round the final did not announce "
        "(the final is round 2), and counts in no standings until its header is put right (saboteur tournament "
        "check names it)"
    )


def test_a_final_table_on_a_score_sheet_counts_in_the_final(hand: Hand) -> None:
    """A sheet's optional ``stage`` column puts its game in the final, as a log's header
    does: without it a final played on paper was a preliminary game of round 2, its
    players unseated there, and no final was in."""
    text = sheet("hand:final", FINAL_ON_PAPER, number=2, table="final").splitlines()
    text = [text[0] + ",stage"] + [line + ",final" for line in text[1:]]
    assert put(hand.store, hand.root / "final.csv", "\n".join(text) + "\n") == "accepted"
    final = hand.table(stage="final")
    columns = ["place", "player", "final_points", "final_stars", "preliminary_points", "preliminary_stars"]
    assert final.select(columns).rows() == [
        (1, "gus", 8, 2, 6, 2),
        (2, "kim", 4, 1, 4, 0),
        (3, "ann", 4, 0, 6, 2),
        (4, "bob", 4, 0, 6, 1),
        (5, "hal", 4, 0, 5, 1),
        (6, "cem", 0, 0, 3, 1),
    ]
    assert final["open_findings"].sum() == 0
    assert hand.table()["rounds"].max() == 3  # nothing of it counted in the preliminaries


def test_a_final_that_names_no_round_is_of_the_final_s_round(hand: Hand) -> None:
    """event-log.md: ``tournament_round`` is optional. A final (or an announced
    semi-final) is one round, so a final's game naming none is of it, and counts; only a
    preliminary game naming none is a ``no_round`` finding."""
    text = sheet("hand:final", FINAL_ON_PAPER, number=2, table="final").replace(f"{TID},2,final,", f"{TID},,final,")
    lines = text.splitlines()
    lines = [lines[0] + ",stage"] + [line + ",final" for line in lines[1:]]
    assert put(hand.store, hand.root / "final.csv", "\n".join(lines) + "\n") == "accepted"
    final = hand.table(stage="final")
    assert final["player"].to_list() == ["gus", "kim", "ann", "bob", "hal", "cem"]
    assert final["open_findings"].sum() == 0


def test_a_shared_rank_and_a_withdrawal_at_the_final_table_are_said(hand: Hand) -> None:
    """R-TS4, R-TS3: at the final table a rank two players hold on every tie-breaker is
    shown ``1=`` and a player who withdrew is said to have, as in the preliminaries:
    the command line printed ``1`` twice (the PDF alone worked the sharing out) and the
    name alone."""
    paper = dict(FINAL_ON_PAPER)  # ann connects in round 1 and plays round 4 as gus does: level on all
    paper[1] = [
        ("ann", G, 3, 1),
        ("bob", G, 2, 0),
        ("cem", S, 0, 0),
        ("gus", G, 2, 0),
        ("hal", D, 0, 0),
        ("kim", S, 0, 0),
    ]
    paper[4] = [
        ("ann", G, 2, 0),
        ("bob", D, 0, 0),
        ("cem", S, 0, 0),
        ("gus", G, 2, 0),
        ("hal", G, 2, 0),
        ("kim", S, 0, 0),
    ]
    text = sheet("hand:final", paper, number=2, table="final").splitlines()
    text = [text[0] + ",stage"] + [line + ",final" for line in text[1:]]
    assert put(hand.store, hand.root / "final.csv", "\n".join(text) + "\n") == "accepted"
    records.withdraw_player(hand.store, TID, "cem", "went home after the final")
    final = hand.table(stage="final")
    top = final.filter(pl.col("player").is_in(["ann", "gus"]))
    assert top.select("rank", "shared", "final_points", "final_stars").rows() == [(1, True, 7, 1), (1, True, 7, 1)]
    assert final.filter(~pl.col("player").is_in(["ann", "gus"]))["shared"].to_list() == [False] * 4
    assert final.filter(pl.col("withdrawn"))["player"].to_list() == ["cem"]
    assert "withdrew from the tournament" in final.filter(pl.col("player") == "cem")["why"].item()
    printed = hand.cli("standings", TID, "--stage", "final").output
    lines = [" ".join(line.split()) for line in printed.splitlines()]
    assert sum(line.startswith(("1 1= ", "2 1= ")) for line in lines) == 2, printed
    assert any("(withdrew)" in line for line in lines), printed


# -- records -----------------------------------------------------------------------------


def test_penalties_deduct_points_and_change_the_rank(hand: Hand) -> None:
    records.penalty(hand.store, TID, "gus", 1, "slow play")
    records.penalty(hand.store, TID, "gus", 1, "slow play, again")
    records.penalty(hand.store, TID, "ann", 5, "counts in the final only", stage="final")
    # gus 6 - 2 = 4 (2 stars): below hal, above kim (4, 0) on stars; ann now tops alone.
    table = hand.table()
    assert shown(table) == expected(
        """
         1 1   ann 6 2 in
         2 2   bob 6 1 in
         3 3   hal 5 1 in
         4 4   gus 4 2 in penalty=2
         5 5   kim 4 0 in
         6 6=  cem 3 1 in undrawn
         7 6=  lea 3 1 undrawn
         8 8=  dia 2 0
         9 8=  ida 2 0
        10 10= eve 0 0
        11 10= fay 0 0
        12 10= jan 0 0
        """
    )
    reasons = why(table)
    assert reasons["ann"] == "top of the table; level with Bob on points (6), more stars (2 to 1)"
    assert reasons["gus"] == "below Hal on points (4 to 5); level with Kim on points (4), more stars (2 to 0)"
    assert reasons["kim"] == "level with Gus on points (4), fewer stars (0 to 2); above Cem on points (4 to 3)"
    assert hand.query("SELECT player, stage, points, reason FROM penalties ORDER BY seq") == [
        ("gus", "preliminary", 1, "slow play"),
        ("gus", "preliminary", 1, "slow play, again"),
        ("ann", "final", 5, "counts in the final only"),
    ]


def test_a_penalty_of_the_final_goes_to_a_player_at_the_final(hand: Hand) -> None:
    """The final's standings rank only whom it seats or who played in it (R-TS3): a final
    penalty of a player knocked out was recorded and deducted nowhere, unsaid. Before
    the final is seated or played nobody is known to be out of it."""
    records.penalty(hand.store, TID, "lea", 1, "before the final", stage="final")
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    result = hand.cli("tournament", "penalty", TID, "lea", "--points", "1", "--reason", "late", "--stage", "final")
    assert result.exit_code == 1
    assert " ".join(result.output.split()) == (
        "lea is not in the final (it seats ann, bob, cem, gus, hal, kim): a penalty of the final counts in its "
        "standings alone; give it in a stage lea plays"
    )
    assert (
        hand.cli("tournament", "penalty", TID, "cem", "--points", "1", "--reason", "late", "--stage", "final").exit_code
        == 0
    )
    assert hand.query("SELECT player FROM penalties WHERE stage = 'final' ORDER BY seq") == [("lea",), ("cem",)]


def test_a_star_on_the_wrong_player_is_put_right_by_a_correction(hand_of_two: Hand) -> None:
    """R-TS5 (a wrong score sheet put right by a correction) with R-W1 (the connector's
    star): the sheet gives ann's star to bob; corrections put it back on ann, one
    record each, and a later correction of points alone leaves the star as corrected."""
    hand = hand_of_two
    slipped = {1: [("ann", G, 3, 0), ("bob", G, 2, 1), *T1[1][2:]]}
    sheet_text = sheet("hand:r2:t1", slipped, number=2, table="1")
    assert put(hand.store, hand.root / "r2-t1.csv", sheet_text) == "accepted_with_findings"
    let_short_games_be(hand)
    before = hand.table()
    records.correct(hand.store, TID, "hand:r2:t1", 1, "ann", 3, "the star was ann's", star=True)
    result = hand.cli(
        "tournament",
        "correct",
        TID,
        "hand:r2:t1",
        "1",
        "--player",
        "bob",
        "--points",
        "2",
        "--no-star",
        "--reason",
        "the star was ann's",
    )
    assert result.exit_code == 0, result.output
    after = hand.table()
    assert (row(after, "ann")["stars"], row(after, "bob")["stars"]) == (
        row(before, "ann")["stars"] + 1,
        row(before, "bob")["stars"] - 1,
    )
    assert [row(after, p)["points"] for p in ("ann", "bob")] == [row(before, p)["points"] for p in ("ann", "bob")]
    assert row(after, "ann")["open_findings"] == row(after, "bob")["open_findings"] == 0
    records.correct(hand.store, TID, "hand:r2:t1", 1, "ann", 3, "checked again")
    assert row(hand.table(), "ann")["stars"] == row(after, "ann")["stars"]


def test_a_version_7_store_takes_the_corrections_star_at_its_first_write(hand: Hand) -> None:
    records.correct(hand.store, TID, "hand:r1:t2", 2, "lea", 2, "misread the sheet")
    before = hand.table()
    with hand.store.connect() as con:  # as version 7 left it
        con.execute("ALTER TABLE corrections DROP COLUMN star")
        con.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    with pytest.raises(StoreUnusable, match="schema version 7, older"), hand.store.connect(read_only=True):
        pass
    with hand.store.connect():  # a job that writes upgrades the store
        pass
    assert hand.query("SELECT star FROM corrections") == [(None,)]
    assert_frame_equal(hand.table(), before)
    assert verify(hand.store).ok


def test_the_newest_correction_wins(hand: Hand) -> None:
    records.correct(hand.store, TID, "hand:r1:t2", 2, "lea", 2, "misread the sheet")
    between = hand.table()
    # lea 0 + 2 + 0 = 2 with her star: below cem (3, 1), above dia and ida (2, 0).
    assert (row(between, "lea")["points"], row(between, "lea")["rank"], row(between, "lea")["shared"]) == (2, 7, False)
    result = hand.cli(
        "tournament", "correct", TID, "hand:r1:t2", "2", "--player", "lea", "--points", "4", "--reason", "the judge"
    )
    assert result.exit_code == 0, result.output
    # lea 0 + 4 + 0 = 4 with her star: above kim (4, 0); the tie at the cut is gone.
    table = hand.table()
    assert shown(table) == expected(
        """
         1 1=  ann 6 2 in
         2 1=  gus 6 2 in
         3 3   bob 6 1 in
         4 4   hal 5 1 in
         5 5   lea 4 1 in
         6 6   kim 4 0 in
         7 7   cem 3 1
         8 8=  dia 2 0
         9 8=  ida 2 0
        10 10= eve 0 0
        11 10= fay 0 0
        12 10= jan 0 0
        """
    )
    assert why(table)["lea"] == "below Hal on points (4 to 5); level with Kim on points (4), more stars (1 to 0)"
    assert hand.query("SELECT points, reason FROM corrections ORDER BY seq") == [
        (2, "misread the sheet"),
        (4, "the judge"),
    ]
    # no tie across the cut line any more: the cut draws nothing
    cut = hand.cli("tournament", "cut", TID, "--seed", "1")
    assert cut.exit_code == 0 and "a draw" not in cut.output
    assert "the cut: 1. Ann, 2. Gus, 3. Bob, 4. Hal, 5. Lea, 6. Kim" in cut.output
    assert hand.query("SELECT count(*) FROM cut_draws") == [(0,)]


def let_short_games_be(hand: Hand) -> None:
    """Dismiss the ``wrong_rounds`` findings of the games of fewer than 3 rounds (R-TS1)
    that the tests store to be short: each test then sees the finding it is about."""
    for (short,) in hand.query(f"SELECT finding_id FROM {EVERY_FINDING} f WHERE code = 'wrong_rounds'"):
        records.dismiss(hand.store, TID, short, "a one-round game, as the tests play it")


def _slip(hand: Hand) -> str:
    """Ingest the game with fay's 3 written as 0; the id of its wrong_score finding. The
    game is one round, short of R-TS1's three: its ``wrong_rounds`` finding is dismissed
    here, so that the slip is the one finding the tests settle."""
    assert put(hand.store, hand.root / "r2-t1.jsonl", slipped_log().text()) == "accepted_with_findings"
    let_short_games_be(hand)
    found = hand.query(
        "SELECT finding_id, round, player FROM findings WHERE game_id = 'hand:r2:t1' AND code = 'wrong_score'"
    )
    assert len(found) == 1 and found[0][1:] == (1, "fay"), found
    return str(found[0][0])


# eve 3*; fay's star counts (the rules' stars) but her points are the 0 written down.
SLIPPED: Final = """
 1 1=  ann 6 2 in rounds=4 games=2
 2 1=  gus 6 2 in
 3 3   bob 6 1 in rounds=4 games=2
 4 4   hal 5 1 in
 5 5   kim 4 0 in
 6 6=  cem 3 1 in undrawn rounds=4 games=2
 7 6=  eve 3 1 undrawn rounds=4 games=2
 8 6=  lea 3 1 undrawn
 9 9=  dia 2 0 rounds=4 games=2
10 9=  ida 2 0
11 11  fay 0 1 rounds=4 games=2 open=1
12 12  jan 0 0
"""


def test_a_game_of_a_round_the_tournament_did_not_announce_is_a_finding_for_each_player(hand: Hand) -> None:
    """R-TS1, R-TS2: the preliminaries are the rounds announced. A game of round 2 in
    a tournament of one is stored as played and counts in no stage's standings (points
    "over all preliminary rounds"): each of its players has an open ``wrong_table``
    finding (no seating can seat a round not announced), and ``tournament check``
    names the game. Dismissing a finding does not make the game count: its header is
    put right by ingesting it again (``--supersede``). Counted, a final whose log left
    out its ``stage`` added its points to the preliminaries, and a dismissal made that
    silent."""
    before = {r["player"]: (r["points"], r["rounds"]) for r in hand.table().iter_rows(named=True)}
    _slip(hand)  # hand:r2:t1, of tournament round 2
    after = {r["player"]: (r["points"], r["rounds"]) for r in hand.table().iter_rows(named=True)}
    assert after == before
    found = misseated(hand.store, tournament=TID)
    assert set(found["game_id"]) == {"hand:r2:t1"} and set(found["kind"]) == {"unseated"}
    assert sorted(found["player"]) == sorted(TABLE_1)
    table = hand.table()
    assert row(table, "ann")["open_findings"] == 1 and row(table, "gus")["open_findings"] == 0
    assert seating_findings(hand.store, TID)["game_id"].to_list() == ["hand:r2:t1"]
    (ann,) = found.filter(pl.col("player") == "ann")["finding_id"]
    records.dismiss(hand.store, TID, ann, "round 2 was added on the day")
    assert row(hand.table(), "ann")["open_findings"] == 0
    assert row(hand.table(), "ann")["points"] == before["ann"][0]


def test_a_preliminary_game_of_four_rounds_counts_three_and_is_a_finding(hand_of_two: Hand) -> None:
    """R-TS1: a preliminary game is 3 rounds. A sheet of four (a table played on, or a
    tool wrote its header so) counted its fourth round's points, unflagged: now the
    first three count, and a ``wrong_rounds`` finding of the game stands beside each of
    its players until its file is put right; a dismissal does not make the round count."""
    hand = hand_of_two
    before = {r["player"]: (r["points"], r["rounds"]) for r in hand.table().iter_rows(named=True)}
    four = {**T1, 4: T1[1]}  # round 1 again: ann 3*, bob 2, dia 2
    assert put(hand.store, hand.root / "r2-t1.csv", sheet("hand:r2:t1", four, number=2)) == "accepted"
    table = hand.table()
    for player in TABLE_1:  # T1's three rounds once more, not its fourth
        points, rounds = before[player]
        assert (row(table, player)["points"], row(table, player)["rounds"]) == (2 * points, rounds + 3), player
        assert row(table, player)["open_findings"] == 1, player
    assert row(table, "gus")["open_findings"] == 0
    found = hand.query(
        f"SELECT finding_id, code, rule, severity, player, message FROM {EVERY_FINDING} f WHERE code = 'wrong_rounds'"
    )
    assert [f[1:] for f in found] == [
        (
            "wrong_rounds",
            "R-TS1",
            "warning",
            None,
            "hand:r2:t1 has 4 rounds, but a game of the preliminaries has 3: its rounds after round 3 count in no "
            "standings until its file is put right and ingested again (--supersede)",
        )
    ]
    listed = hand.cli("findings", TID, "--open", "--format", "csv")
    assert listed.exit_code == 0 and found[0][0] in listed.output, listed.output
    records.dismiss(hand.store, TID, found[0][0], "the table played on by mistake")
    after = hand.table()
    assert row(after, "ann")["open_findings"] == 0
    assert row(after, "ann")["points"] == row(table, "ann")["points"]


def test_a_preliminary_game_of_two_rounds_counts_them_and_is_a_finding(hand_of_two: Hand) -> None:
    """R-TS1: a preliminary game is 3 rounds. A sheet (or a log's header) of two was
    stored and counted without a word: a round left unplayed, or left off the sheet,
    went unnoticed. Its two rounds count, as played, and a ``wrong_rounds`` finding of
    the game tells the organiser."""
    hand = hand_of_two
    before = {r["player"]: (r["points"], r["rounds"]) for r in hand.table().iter_rows(named=True)}
    two = {n: T1[n] for n in (1, 2)}
    assert put(hand.store, hand.root / "r2-t1.csv", sheet("hand:r2:t1", two, number=2)) == "accepted"
    table = hand.table()
    for player in TABLE_1:
        assert row(table, player)["rounds"] == before[player][1] + 2, player
        assert row(table, player)["open_findings"] == 1, player
    found = hand.query(f"SELECT code, rule, severity, message FROM {EVERY_FINDING} f WHERE code = 'wrong_rounds'")
    assert found == [
        (
            "wrong_rounds",
            "R-TS1",
            "warning",
            "hand:r2:t1 has 2 rounds, but a game of the preliminaries has 3: its rounds count as played; if a round "
            "is missing, put its file right and ingest it again (--supersede)",
        )
    ]


def test_a_final_counts_the_rounds_announced_for_it(tmp_path: Path) -> None:
    """R-TS4: the final is one game of the rounds the organiser announced (4 unless
    told): a final of four rounds where two were announced counts two, with a finding."""
    store = Store(tmp_path / "s.duckdb")
    told = {**description(TID, PLAYERS), "final_rounds": 2}
    assert put(store, tmp_path / "tournament.json", json.dumps(told)) == "accepted"
    assert put(store, tmp_path / "r1-t1.csv", sheet("hand:r1:t1", T1, table="1")) == "accepted"
    assert put(store, tmp_path / "r1-t2.csv", sheet("hand:r1:t2", T2, table="2")) == "accepted"
    assert put(store, tmp_path / "final.jsonl", final_log().text()) == "accepted"
    final = standings(store, TID, stage="final")
    assert final["rounds"].to_list() == [2] * 6
    with store.connect(read_only=True) as con:
        found = con.execute(f"SELECT code, rule, said FROM {EVERY_FINDING} f WHERE code = 'wrong_rounds'").fetchall()
    assert [(code, rule) for code, rule, _ in found] == [("wrong_rounds", "R-TS4")]
    assert read_stored(found[0][2]).named == {"game": "hand:final", "rounds": 4, "stage": "final", "expected": 2}


def test_a_semi_final_ranks_only_the_players_it_seats_or_who_play_in_it(tmp_path: Path) -> None:
    """R-TS3: the semi-final has its own top cut. Its standings listed every registered
    player, the six knocked out in the preliminaries among them with 0 points, level
    with a semi-finalist who scored 0: its cut then drew among them, and a player who
    never played the semi-final went to the final. Now its table holds its players."""
    store = Store(tmp_path / "semi.duckdb")
    records.create(store, TID, name="Hand Open", preliminary_rounds=1, semifinal=True)
    records.register(store, TID, [(player, player.title()) for player in PLAYERS])
    assert put(store, tmp_path / "r1-t1.csv", sheet("hand:r1:t1", T1, table="1")) == "accepted"
    assert put(store, tmp_path / "r1-t2.csv", sheet("hand:r1:t2", T2, table="2")) == "accepted"
    semi = final_log()
    text = semi.text().replace('"stage":"final"', '"stage":"semifinal"').replace("hand:final", "hand:semi")
    assert put(store, tmp_path / "semi.jsonl", text) == "accepted"
    table = standings(store, TID, stage="semifinal")
    assert sorted(table["player"]) == ["ann", "bob", "cem", "gus", "hal", "kim"]
    assert not table["cut_tie_undrawn"].any()  # cem's 0 ties with nobody knocked out before
    assert len(standings(store, TID)) == len(PLAYERS)  # the preliminaries rank everyone


def test_a_semi_final_takes_its_own_number_of_players_from_the_preliminaries(tmp_path: Path) -> None:
    """R-TS3: "a semi-final stage with its own top cut of 6". The preliminaries send the
    semi-final its announced number (here all twelve: two tables), and the semi-final's
    own top cut of 6 goes on to the final; one ``cut`` served both, so a semi-final was
    the same six as the final, or the final seated ten."""
    store = Store(tmp_path / "semi.duckdb")
    records.create(store, TID, name="Hand Open", preliminary_rounds=1, semifinal=True, semifinal_cut=12)
    records.register(store, TID, [(player, player.title()) for player in PLAYERS])
    assert put(store, tmp_path / "r1-t1.csv", sheet("hand:r1:t1", T1, table="1")) == "accepted"
    assert put(store, tmp_path / "r1-t2.csv", sheet("hand:r1:t2", T2, table="2")) == "accepted"
    assert standings(store, TID)["in_cut"].sum() == 12
    semi = final_log().text().replace('"stage":"final"', '"stage":"semifinal"').replace("hand:final", "hand:semi")
    assert put(store, tmp_path / "semi.jsonl", semi) == "accepted"
    assert standings(store, TID, stage="semifinal")["in_cut"].sum() == 6


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"semifinal_cut": 12}, "a semi-final cut needs a semi-final"),
        ({"semifinal": True, "semifinal_cut": 5}, "a semi-final takes 6 to 60 players"),
        ({"semifinal": True, "semifinal_cut": 61}, "a semi-final takes 6 to 60 players"),
    ],
)
def test_a_semi_final_cut_is_announced_with_a_semi_final_and_more_than_its_own_cut(
    tmp_path: Path, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError, match=message):
        records.create(Store(tmp_path / "s.duckdb"), TID, name="Hand Open", **options)


def test_a_player_in_two_games_of_one_round_has_a_finding_in_each(hand: Hand) -> None:
    """R-TS1: one game a round. With no seating published for round 1, the players of
    a second game of it who played the first too have a ``wrong_table`` finding in each
    game, counted beside their rows; the other players none."""
    assert put(hand.store, hand.root / "r1-t3.csv", sheet("hand:r1:t3", T1, table="3")) == "accepted"
    found = misseated(hand.store, tournament=TID)
    assert set(found["kind"]) == {"twice"}
    games = ("hand:r1:t1", "hand:r1:t3")
    assert set(zip(found["game_id"], found["player"], strict=True)) == {(g, p) for g in games for p in TABLE_1}
    assert "Ann plays at table 3 in round 1 and in another game of that round" in found["message"].to_list()
    table = hand.table()
    assert row(table, "ann")["open_findings"] == 2 and row(table, "gus")["open_findings"] == 0
    output = hand.cli("findings", TID).output
    assert "in another game of that round" in " ".join(output.split())


def test_an_accepted_replay_makes_the_replays_points_count(hand_of_two: Hand) -> None:
    hand = hand_of_two
    _slip(hand)
    assert shown(hand.table()) == expected(SLIPPED)
    assert hand.query(
        "SELECT player, recorded_points, replay_points, star FROM round_players "
        "WHERE game_id = 'hand:r2:t1' AND player IN ('eve', 'fay') ORDER BY player"
    ) == [("eve", 3, 3, True), ("fay", 0, 3, True)]
    result = hand.cli("tournament", "accept-replay", TID, "hand:r2:t1", "1", "--reason", "the log is right")
    assert result.exit_code == 0, result.output
    assert shown(hand.table()) == expected(
        """
         1 1=  ann 6 2 in rounds=4 games=2
         2 1=  gus 6 2 in
         3 3   bob 6 1 in rounds=4 games=2
         4 4   hal 5 1 in
         5 5   kim 4 0 in
         6 6=  cem 3 1 in undrawn rounds=4 games=2
         7 6=  eve 3 1 undrawn rounds=4 games=2
         8 6=  fay 3 1 undrawn rounds=4 games=2
         9 6=  lea 3 1 undrawn
        10 10= dia 2 0 rounds=4 games=2
        11 10= ida 2 0
        12 12  jan 0 0
        """
    )


@pytest.mark.parametrize(("closing", "fay_points"), [("accept", 3), ("correct", 3), ("dismiss", 0)])
def test_an_open_wrong_score_shows_until_it_is_settled(hand_of_two: Hand, closing: str, fay_points: int) -> None:
    hand = hand_of_two
    finding = _slip(hand)
    assert row(hand.table(), "fay")["open_findings"] == 1
    assert row(hand.table(), "eve")["open_findings"] == 0
    if closing == "accept":
        records.accept_replay(hand.store, TID, "hand:r2:t1", 1)
    elif closing == "correct":
        records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 3, "fay won with eve")
    else:
        result = hand.cli("tournament", "dismiss", TID, finding, "--reason", "fay gave her points up")
        assert result.exit_code == 0, result.output
    fay = row(hand.table(), "fay")
    assert (fay["points"], fay["stars"], fay["open_findings"]) == (fay_points, 1, 0)


def test_a_correction_to_a_score_the_replay_does_not_give_leaves_the_finding_open(hand_of_two: Hand) -> None:
    """R-TS5: a log's round is held to its replay: fay, written 0 where the rules give 3,
    corrected to 2 is still wrong, and her finding stays open (any correction of her
    settled it); corrected again to 3, it is settled."""
    hand = hand_of_two
    finding = _slip(hand)
    fay = ["--player", "fay", "--points", "2", "--reason", "misread"]
    said = hand.cli("tournament", "correct", TID, "hand:r2:t1", "1", *fay)
    assert said.exit_code == 0, said.output
    assert f"still not what the rules give: finding {finding} stays open" in " ".join(said.stdout.split())
    assert row(hand.table(), "fay")["open_findings"] == 1
    assert finding in browse.open_findings(hand.store, TID)["finding_id"].to_list()
    at = hand.position()
    records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 3, "fay won with eve")
    assert row(hand.table(), "fay")["open_findings"] == 0
    assert row(hand.table(as_of=at), "fay")["open_findings"] == 1  # as it stood before


def test_a_correction_that_takes_the_rules_star_leaves_the_finding_open(hand_of_two: Hand) -> None:
    """R-W1: a saboteur of the winning side gets a star. fay, written 0 where the rules
    give 3 and a star, corrected to 3 with no star is still not what the rules give:
    her finding stays open, and the command says so. A log's round was held to its
    replay's points alone, and the star taken settled the finding, unsaid."""
    hand = hand_of_two
    finding = _slip(hand)
    fay = ["--player", "fay", "--points", "3", "--no-star", "--reason", "misread"]
    said = hand.cli("tournament", "correct", TID, "hand:r2:t1", "1", *fay)
    assert said.exit_code == 0, said.output
    assert f"still not what the rules give: finding {finding} stays open" in " ".join(said.stdout.split())
    assert row(hand.table(), "fay")["open_findings"] == 1
    records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 3, "with her star", star=True)
    assert row(hand.table(), "fay")["open_findings"] == 0


def test_the_replay_of_a_round_stopped_early_is_not_accepted(hand_of_two: Hand) -> None:
    """R-E2: a round stopped before it was over has no winner. Its replay scores it as
    "the gold was not reached": accepted, the saboteurs had a win's points, no star, and
    the finding was settled. It is refused, naming what to do instead."""
    hand = hand_of_two
    log = LogBuilder(
        players=list(TABLE_1), rounds=1, game_id="hand:r2:t1", tournament=TID, tournament_round=2, table="1"
    )
    log.deal()
    log.discard(log.turn)
    log.end_round(scores=dict.fromkeys(TABLE_1, 0))  # stopped: cards in every hand, the pile not out
    log.end_game()
    assert put(hand.store, hand.root / "r2-t1.jsonl", log.text()) == "accepted_with_findings"
    refused = hand.cli("tournament", "accept-replay", TID, "hand:r2:t1", "1", "--reason", "time ran out")
    said = " ".join(refused.output.split())
    assert refused.exit_code != 0 and "stopped before it was over (R-E2)" in said, said
    assert "correct its scores instead" in said
    assert hand.query("SELECT count(*) FROM accepted_replays") == [(0,)]


def test_a_correction_that_makes_a_clean_round_break_the_rules_is_said(hand: Hand) -> None:
    """A correction is the organiser's to make, and stands; but one that takes a round no
    finding named to a score no outcome of R-W1 gives (dia, a gold digger of the winning
    side in round 1 of table 1, given 4 and a star beside ann's 3 and star) is said, as
    one that leaves a finding's round wrong is. It was recorded without a word."""
    wrong = ["--player", "dia", "--points", "4", "--star", "--reason", "misread"]
    said = hand.cli("tournament", "correct", TID, "hand:r1:t1", "1", *wrong)
    assert said.exit_code == 0, said.output
    assert "round 1 of hand:r1:t1 as corrected is not what the rules give (R-W1)" in " ".join(said.stdout.split())
    assert row(hand.table(), "dia")["points"] == 4  # it stands
    right = ["--player", "dia", "--points", "2", "--no-star", "--reason", "read again"]
    again = hand.cli("tournament", "correct", TID, "hand:r1:t1", "1", *right)
    assert again.exit_code == 0 and "not what the rules give" not in again.stdout, again.stdout


def test_as_of_a_position_inside_a_transaction_is_as_of_its_start(tmp_path: Path) -> None:
    """R-TS5: the standings as of any moment are the standings someone could have seen
    then. Both tables of round 1 are stored by one ingest, in one transaction: a
    position inside it showed one table and half the other, which nobody ever saw."""
    store = Store(tmp_path / "s.duckdb")
    root = tmp_path / "files"
    assert put(store, root / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    with store.connect(read_only=True) as con:
        (before,) = con.execute("SELECT max(position) FROM events").fetchone() or (0,)
    (root / "r1-t1.csv").write_text(sheet("hand:r1:t1", T1, table="1"), encoding="utf-8")
    (root / "r1-t2.csv").write_text(sheet("hand:r1:t2", T2, table="2"), encoding="utf-8")
    assert [r.outcome for r in ingest([root / "r1-t1.csv", root / "r1-t2.csv"], store, workers=1)] == [
        "accepted",
        "accepted",
    ]
    with store.connect(read_only=True) as con:
        (after,) = con.execute("SELECT max(position) FROM events").fetchone() or (0,)
    empty = standings(store, TID, as_of=before)
    assert empty["rounds"].sum() == 0
    for inside in range(before + 1, after):
        assert_frame_equal(standings(store, TID, as_of=inside), empty)
    assert_frame_equal(standings(store, TID, as_of=after), standings(store, TID))
    assert shown(standings(store, TID, as_of=after)) == expected(BASE)


def test_a_final_seated_from_a_cut_the_standings_no_longer_give_is_said(hand: Hand) -> None:
    """R-TS3: the best six go to the final. A penalty after the final was seated drops
    ann out of the cut and brings lea in: `tournament check` says the final's seating
    no longer matches the cut (nothing did, and the final ranked ann)."""
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    assert hand.cli("tournament", "seat", TID, "--round", "2", "--stage", "final", "--seed", "1").exit_code == 0
    assert records.cuts_moved(hand.store, TID) == []
    assert hand.cli("tournament", "check", TID).exit_code == 0
    finalists = set(hand.table().filter(pl.col("in_cut"))["player"])
    records.penalty(hand.store, TID, "ann", 5, "the scorekeeper's sheet was false")
    now = set(hand.table().filter(pl.col("in_cut"))["player"])
    assert "ann" in finalists - now
    (moved,) = records.cuts_moved(hand.store, TID)
    assert (moved.stage, moved.tournament_round) == ("final", 2)
    assert set(moved.seated_outside) == finalists - now and set(moved.left_out) == now - finalists
    checked = hand.cli("tournament", "check", TID)
    assert checked.exit_code == 1
    assert "whom the cut no longer gives" in " ".join(checked.output.split())


def test_a_stage_seated_off_an_undrawn_tie_is_told_to_draw_it(hand: Hand) -> None:
    """A final seated while the tie across the cut line was not drawn (by hand, or a
    seating the file gave): which of the tied the cut gives is not known until the
    draw, so `tournament check` says to draw it. It named the tied player first in name
    order as "whom the cut gives now", and an organiser re-seated instead of drawing."""
    final = ["ann", "gus", "bob", "hal", "kim", "lea"]  # lea, not cem: cem and lea are tied, undrawn
    records.publish_seating(hand.store, TID, 2, [final], stage="final", method="by hand", seed=None)
    (moved,) = records.cuts_moved(hand.store, TID)
    assert moved.undrawn == ("cem", "lea") and moved.stage_before == "preliminary"
    checked = " ".join(hand.cli("tournament", "check", TID).output.split())
    assert "cem, lea are tied across the cut line and not drawn (R-TS2): draw the tie" in checked, checked
    assert "saboteur tournament cut --stage preliminary" in checked and "whom the cut" not in checked
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    drawn = records.cuts_moved(hand.store, TID)
    assert all(not m.undrawn for m in drawn)  # drawn: the cut is settled, and said as it is


def test_a_superseded_game_counts_in_its_newest_version(hand: Hand) -> None:
    before = hand.table()
    at = hand.position()
    again = sheet("hand:r1:t2", T2_AGAIN, table="2")
    assert put(hand.store, hand.root / "again" / "r1-t2.csv", again) == "rejected"
    assert_frame_equal(hand.table(), before)
    outcome = put(hand.store, hand.root / "fixed" / "r1-t2.csv", again, supersede=True, reason="round 3 was kim's")
    assert outcome == "accepted"
    # as BASE with hal and kim swapped: kim 5, 1 and hal 4, 0
    assert shown(hand.table()) == expected(
        """
         1 1=  ann 6 2 in
         2 1=  gus 6 2 in
         3 3   bob 6 1 in
         4 4   kim 5 1 in
         5 5   hal 4 0 in
         6 6=  cem 3 1 in undrawn
         7 6=  lea 3 1 undrawn
         8 8=  dia 2 0
         9 8=  ida 2 0
        10 10= eve 0 0
        11 10= fay 0 0
        12 10= jan 0 0
        """
    )
    assert hand.query("SELECT revision FROM games WHERE game_id = 'hand:r1:t2'") == [(2,)]
    # as of the moment before the new version, the old one counts
    assert_frame_equal(hand.table(as_of=at), before)
    log = hand.cli("tournament", "log", TID, env={"COLUMNS": "400"})
    assert log.exit_code == 0
    assert "game_superseded" in log.output and "round 3 was kim's" in log.output


def test_the_log_says_when_and_why_a_game_was_stored_anew_out_of_the_tournament(hand: Hand) -> None:
    """A game stored at the wrong tournament is taken out by storing it anew, its header
    naming another tournament or none: its points left the standings, and the log kept
    no line of when or why (it listed the markers of the games in the tournament now)."""
    again = sheet("hand:r1:t2", T2_AGAIN, tournament="casual", table="2")
    outcome = put(hand.store, hand.root / "out" / "r1-t2.csv", again, supersede=True, reason="a casual game")
    assert outcome.startswith("accepted"), outcome
    assert hand.query("SELECT tournament FROM games WHERE game_id = 'hand:r1:t2'") == [("casual",)]
    log = hand.cli("tournament", "log", TID, env={"COLUMNS": "400"})
    assert log.exit_code == 0
    assert "game_superseded" in log.output and "a casual game" in log.output


# -- as of -------------------------------------------------------------------------------


def test_standings_as_of_a_position_or_a_time(hand: Hand) -> None:
    before = hand.table()
    at = hand.position()
    recorded = hand.query("SELECT recorded_at FROM events WHERE position = ?", [at])[0][0]
    assert isinstance(recorded, datetime) and recorded.tzinfo is not None
    records.penalty(hand.store, TID, "ann", 3, "abuse of the referee")
    now = hand.table()
    assert row(now, "ann")["points"] == 3
    assert_frame_equal(hand.table(as_of=at), before)
    assert_frame_equal(hand.table(as_of=recorded), before)
    assert_frame_equal(hand.table(as_of=at + 1), now)
    # before the second sheet: only table 1 has played
    early = hand.table(as_of=at - 4)  # the second sheet is a header and three rounds: 4 events
    assert row(early, "gus")["rounds"] == 0 and row(early, "ann")["points"] == 6

    def cli_json(*args: str) -> list[dict[str, Any]]:
        result = hand.cli("standings", TID, "--format", "json", *args)
        assert result.exit_code == 0, result.output
        data: list[dict[str, Any]] = json.loads(result.stdout)
        return [
            {**row, "reasons": json.dumps(row["reasons"], ensure_ascii=False, separators=(",", ":"))} for row in data
        ]

    assert cli_json("--as-of", str(at)) == before.to_dicts()
    stamp = recorded.astimezone(UTC).isoformat().replace("+00:00", "Z")
    assert cli_json("--as-of", stamp) == before.to_dicts()
    assert cli_json("--as-of", "2099-01-01T00:00:00Z") == now.to_dicts()
    assert cli_json() == now.to_dicts()
    assert cli_json("--as-of", stamp.removesuffix("Z")) == before.to_dicts()  # no zone: UTC
    penalised = hand.query("SELECT max(recorded_at) FROM events")[0][0].astimezone(UTC)
    shown = f"{penalised:%Y-%m-%dT%H:%M:%S}Z"  # as `tournament log` shows the penalty's time, to the second
    assert cli_json("--as-of", shown) == now.to_dicts()  # as of that second: the penalty is in
    assert cli_json("--as-of", shown[:16]) == now.to_dicts()  # as of that minute
    assert cli_json("--as-of", shown[:10]) == now.to_dicts()  # as of that day: as it ended
    nonsense = hand.cli("standings", TID, "--as-of", "yesterday")
    assert nonsense.exit_code == 2 and "event position" in nonsense.output


def test_as_of_the_last_day_a_date_can_name_and_odd_digits_are_answered_not_crashed_on(hand: Hand) -> None:
    """9999-12-31 (and a time of it, or past it in UTC) ran the day's end past the last
    moment a datetime holds: a traceback; "²" passed for a position and int() refused it."""
    now = hand.table().to_dicts()
    for moment in ("9999-12-31", "9999-12-31T23:59:59", "9999-12-31T23:59-01:00"):
        result = hand.cli("standings", TID, "--format", "json", "--as-of", moment)
        assert result.exit_code == 0, result.output
        assert [r["points"] for r in json.loads(result.stdout)] == [r["points"] for r in now]
    odd = hand.cli("standings", TID, "--as-of", "²")
    assert odd.exit_code == 2 and "event position" in odd.output and "Traceback" not in odd.output
    until = hand.cli("stats", "roles", "--until", "9999-12-31")
    assert until.exit_code == 0, until.output


def test_a_time_named_without_a_zone_is_said_in_utc_where_the_standings_show_it(hand: Hand) -> None:
    """The heading said "as of 2026-12-07T14:22:54", read as UTC and shown to a reader
    whose clock says CET."""
    shown = hand.cli("standings", TID, "--as-of", "2099-01-01T10:00")
    assert shown.exit_code == 0 and "as of 2099-01-01T10:00 UTC" in shown.output, shown.output
    zoned = hand.cli("standings", TID, "--as-of", "2099-01-01T10:00+01:00")
    assert "as of 2099-01-01T10:00+01:00" in zoned.output and "+01:00 UTC" not in zoned.output


def test_standings_as_of_before_the_tournament_was_created_are_none(tmp_path: Path) -> None:
    """Games that name a tournament may come before its file: as of then there were no
    standings (it ranked the players by id, under a cut the tournament had not announced)."""
    store = Store(tmp_path / "s.duckdb")
    assert put(store, tmp_path / "r1-t1.csv", sheet("late:r1:t1", T1, tournament="late")) == "accepted"
    with store.connect(read_only=True) as con:
        (before,) = con.execute("SELECT max(position) FROM events").fetchone() or (0,)
    assert put(store, tmp_path / "late.json", json.dumps(description("late", TABLE_1))) == "accepted"
    assert standings(store, "late", as_of=before).is_empty()
    assert not standings(store, "late").is_empty()
    said = CliRunner().invoke(app, ["standings", "late", "--as-of", str(before), "--db", str(store.path)])
    assert said.exit_code == 1 and f"no standings for late (preliminaries) as of {before}" in said.output, said.output


# -- refusals ----------------------------------------------------------------------------


@pytest.fixture
def other(hand: Hand) -> Hand:
    """A second tournament in the same store, with one game."""
    assert put(hand.store, hand.root / "other.json", json.dumps(description("other", TABLE_1))) == "accepted"
    assert put(hand.store, hand.root / "other.csv", sheet("other:r1:t1", T1, tournament="other")) == "accepted"
    return hand


def refused(message: str) -> Any:
    return pytest.raises(RecordError, match=message)


def test_records_refuse_with_clear_messages(other: Hand) -> None:
    store = other.store
    with refused("^zed is not registered in hand$"):
        records.penalty(store, TID, "zed", 1, "why not")
    with refused("^a penalty needs a --reason$"):
        records.penalty(store, TID, "ann", 1, "  ")
    with refused("^a penalty deducts a positive number of points$"):
        records.penalty(store, TID, "ann", 0, "nothing")
    with refused("^game other:r1:t1 belongs to other, not hand$"):
        records.correct(store, TID, "other:r1:t1", 1, "ann", 1, "wrong tournament")
    with refused("^no game hand:r9:t9 is stored$"):
        records.correct(store, TID, "hand:r9:t9", 1, "ann", 1, "no such game")
    with refused("^game hand:r1:t1 has no round 4$"):
        records.correct(store, TID, "hand:r1:t1", 4, "ann", 1, "no such round")
    with refused("^gus did not play round 1 of hand:r1:t1$"):
        records.correct(store, TID, "hand:r1:t1", 1, "gus", 1, "another table")
    with refused("^no finding 0123456789ab is stored$"):
        records.dismiss(store, TID, "0123456789ab", "nothing to dismiss")
    with refused("^tournament hand already exists$"):
        records.create(store, TID, name="Hand Open again")
    with refused("^no tournament nope: create it first"):
        records.register(store, "nope", [("ann", "Ann")])
    with refused("^no tournament nope: create it first"):
        records.publish_seating(store, "nope", 1, [list(TABLE_1)], stage="preliminary", method="by hand", seed=None)
    with refused("^no tournament nope: create it first"):
        records.penalty(store, "nope", "ann", 1, "no such tournament")
    with refused("^no tournament nope: create it first"):
        records.accept_replay(store, "nope", "hand:r1:t1", 1)
    # nothing refused was written
    assert other.query("SELECT count(*) FROM events WHERE stream = 'tournament:nope'") == [(0,)]
    assert other.query("SELECT count(*) FROM penalties") == [(0,)]


def test_a_sheet_round_outside_r_w1_has_no_replay_to_accept(hand_of_two: Hand) -> None:
    hand = hand_of_two
    # gus is written 3 points without his star: no R-W1 outcome gives that
    slipped = {1: [("gus", G, 3, 0), *T2[1][1:]]}
    assert put(hand.store, hand.root / "r2-t2.csv", sheet("hand:r2:t2", slipped, number=2, table="2")) == (
        "accepted_with_findings"
    )
    let_short_games_be(hand)
    table = hand.table()
    assert {p: row(table, p)["open_findings"] for p in PLAYERS[6:]} == dict.fromkeys(PLAYERS[6:], 1)
    assert row(table, "gus")["points"] == 9
    with refused("^hand:r2:t2 was entered from a score sheet: it has no replay to accept; correct its scores instead$"):
        records.accept_replay(hand.store, TID, "hand:r2:t2", 1)
    finding = hand.query("SELECT finding_id FROM findings WHERE game_id = 'hand:r2:t2' AND code = 'wrong_score'")
    records.dismiss(hand.store, TID, str(finding[0][0]), "the star was forgotten, the points are right")
    assert hand.table()["open_findings"].sum() == 0


def test_a_finding_of_another_tournament_cannot_be_dismissed(other: Hand) -> None:
    _slip(other)
    finding = other.query("SELECT finding_id FROM findings WHERE game_id = 'hand:r2:t1'")[0][0]
    with refused(f"^finding {finding} belongs to hand, not other$"):
        records.dismiss(other.store, "other", str(finding), "wrong tournament")


def test_cli_refusals_exit_1_with_the_message(hand: Hand) -> None:
    result = hand.cli("tournament", "penalty", TID, "zed", "--points", "2", "--reason", "x")
    assert result.exit_code == 1 and "zed is not registered in hand" in result.output
    result = hand.cli(
        "tournament", "correct", TID, "hand:r1:t1", "4", "--player", "ann", "--points", "1", "--reason", "x"
    )
    assert result.exit_code == 1 and "game hand:r1:t1 has no round 4" in result.output
    result = hand.cli("tournament", "dismiss", TID, "0123456789ab", "--reason", "x")
    assert result.exit_code == 1 and "no finding 0123456789ab is stored" in result.output
    result = hand.cli("tournament", "create", TID, "--name", "Again")
    assert result.exit_code == 1 and "tournament hand already exists" in result.output
    result = hand.cli("tournament", "register", "nope", "ann", "--name", "Ann")
    assert result.exit_code == 1 and "no tournament nope" in result.output
    result = hand.cli("tournament", "log", "nope")
    assert result.exit_code == 1 and "no tournament nope" in result.output
    result = hand.cli("standings", "nope")
    assert result.exit_code == 1 and "no tournament nope" in result.output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,name\nann,Ann\n", "line 1: the columns must be player,name; found id,name"),
        ("", "line 1: the columns must be player,name; found nothing"),
        ("player,name\nann,Ann\nbad id!,Bad\n", "line 3: 'bad id!' is not a valid player id"),
        ("player,name\nann,Ann\n\nbob,Bob,extra\n", "line 4: two values (player,name), found 3"),
        ("player,name\nann,Ann\ncem,  \n", "line 3: cem needs a name"),
        ("player,name\nann,Ann\nbob,Bob\nann,Anna\n", "line 4: ann is listed already, on line 2"),
        ("player;name\nann;Ann\nbad id!;Bad\n", "line 3: 'bad id!' is not a valid player id"),  # Excel's semicolons
        (
            "player,name\nann," + "M" * 200_000 + "\n",
            "line 2: not readable as CSV (field larger than field limit (131072))",
        ),
    ],
)
def test_player_list_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        records.read_player_list(text)
    assert str(caught.value) == message


def test_a_player_list_with_semicolons_is_read_as_excel_writes_it() -> None:
    assert records.read_player_list("player;name\nann;Ann Müller\nbob;Bob, Jr.\n") == [
        ("ann", "Ann Müller"),
        ("bob", "Bob, Jr."),
    ]


def test_import_players_registers_a_list_or_names_the_bad_line(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.duckdb")
    assert put(store, tmp_path / "club.json", json.dumps(description("club", [], name="Club Night"))) == "accepted"
    hand = Hand(tmp_path, tmp_path / "club.duckdb", store)
    bad = tmp_path / "bad.csv"
    bad.write_text("player,name\nann,Ann\nbad id!,Bad\n", encoding="utf-8")
    result = hand.cli("tournament", "import-players", "club", str(bad))
    assert result.exit_code == 1
    assert "line 3: 'bad id!' is not a valid player id" in result.output and "bad.csv" in result.output
    good = tmp_path / "good.csv"
    good.write_text("\ufeffplayer,name\nann,Ann de Vries\nbob, Bob Jansen \n", encoding="utf-8")
    result = hand.cli("tournament", "import-players", "club", str(good))
    assert result.exit_code == 0, result.output
    assert hand.query("SELECT player, name FROM tournament_players ORDER BY player") == [
        ("ann", "Ann de Vries"),
        ("bob", "Bob Jansen"),
    ]
    table = standings(store, "club")
    assert table.select("place", "rank", "shared", "player", "points", "rounds").rows() == [
        (1, 1, True, "ann", 0, 0),
        (2, 1, True, "bob", 0, 0),
    ]


# -- the log and the seating check -----------------------------------------------------------


def test_the_log_lists_every_record_with_its_reason(hand_of_two: Hand) -> None:
    hand = hand_of_two
    finding = _slip(hand)
    records.penalty(hand.store, TID, "gus", 2, "slow play")
    records.correct(hand.store, TID, "hand:r1:t2", 3, "ida", 1, "misread the sheet")
    records.accept_replay(hand.store, TID, "hand:r2:t1", 1, "the log is right")
    records.dismiss(hand.store, TID, finding, "settled at the table")
    records.publish_seating(hand.store, TID, 2, [list(TABLE_1)], stage="preliminary", method="mixed", seed=3)
    # cem, eve, fay and lea (3, 1) tie for the last place in the cut
    assert "a draw among cem, eve, fay, lea for 1 place:" in hand.cli("tournament", "cut", TID).output
    result = hand.cli("tournament", "log", TID, env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    text = result.output
    for kind in (
        "tournament_created",
        "player_registered",
        "penalty_given",
        "score_corrected",
        "replay_accepted",
        "finding_dismissed",
        "seating_published",
        "cut_drawn",
    ):
        assert kind in text, kind
    for reason in ("slow play", "misread the sheet", "the log is right", "settled at the table"):
        assert reason in text, reason
    count = hand.query("SELECT count(*) FROM events WHERE stream = 'tournament:hand'")[0][0]
    listed = [line for line in text.splitlines() if line.startswith("│") and line.split("│")[1].strip().isdigit()]
    assert len(listed) == count


def test_the_log_gives_each_record_its_time_in_utc_as_as_of_reads_it(hand: Hand) -> None:
    """On a machine in Tokyo the log showed a record's time in Tokyo's zone, unmarked,
    and ``--as-of`` read that text as UTC: 9 hours off. Now the time is UTC, marked Z,
    and as of it the record is in."""
    env = {**os.environ, "TZ": "Asia/Tokyo", "COLUMNS": "200"}
    shown = subprocess.run(
        [sys.executable, "-m", "cli.main", "tournament", "log", TID, "--db", str(hand.db)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    (created,) = hand.query("SELECT recorded_at FROM events WHERE stream = 'tournament:hand' AND version = 1")[0]
    stamp = created.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    tokyo = created.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%Y-%m-%d %H:%M:%S")
    assert stamp in shown and tokyo not in shown, shown
    assert created.replace(microsecond=0) == datetime.fromisoformat(stamp)  # what --as-of reads back


def test_check_reports_games_that_differ_from_the_published_seating(hand: Hand) -> None:
    assert seating_findings(hand.store, TID).is_empty()  # no seating published: nothing judged
    wrong = [["ann", "bob", "cem", "dia", "eve", "gus"], ["fay", "hal", "ida", "jan", "kim", "lea"]]
    records.publish_seating(hand.store, TID, 1, wrong, stage="preliminary", method="by hand", seed=None)
    found = seating_findings(hand.store, TID)
    assert found.select("game_id", "tournament_round", "stage", "table_label", "finding").rows() == [
        ("hand:r1:t1", 1, "preliminary", "1", "the game seats fay but the seating lists gus"),
        ("hand:r1:t2", 1, "preliminary", "2", "the game seats gus but the seating lists fay"),
    ]
    result = hand.cli("tournament", "check", TID)
    assert result.exit_code == 1
    assert "hand:r1:t1 (round 1, table 1): the game seats fay but the seating lists gus" in result.output
    right = [list(TABLE_1), ["gus", "hal", "ida", "jan", "kim", "lea"]]
    records.publish_seating(
        hand.store, TID, 1, right, stage="preliminary", method="by hand", seed=None, reason="fay and gus swapped"
    )
    result = hand.cli("tournament", "check", TID)
    assert result.exit_code == 0 and "every game matches its published seating" in result.output


# -- output formats ----------------------------------------------------------------------


def test_standings_formats(hand: Hand, tmp_path: Path) -> None:
    frame = hand.table()
    result = hand.cli("standings", TID, "--format", "csv")
    assert result.exit_code == 0
    assert result.stdout == frame.write_csv()
    out = tmp_path / "standings.csv"
    assert hand.cli("standings", TID, "--format", "csv", "-o", str(out)).exit_code == 0
    assert_frame_equal(pl.read_csv(out, schema=frame.schema), frame)
    result = hand.cli("standings", TID, "--format", "json")
    assert result.exit_code == 0
    # the reasons as JSON of their own, not a string of JSON
    assert json.loads(result.stdout) == [{**row, "reasons": json.loads(row["reasons"])} for row in frame.to_dicts()]
    assert all(isinstance(row["reasons"], list) for row in json.loads(result.stdout))
    result = hand.cli("standings", TID, "--format", "parquet")
    assert result.exit_code == 2 and "-o" in result.output
    out = tmp_path / "standings.parquet"
    assert hand.cli("standings", TID, "--format", "parquet", "-o", str(out)).exit_code == 0
    assert_frame_equal(pl.read_parquet(out), frame)
    result = hand.cli("standings", TID, "--why", env={"COLUMNS": "250"})
    assert result.exit_code == 0
    assert "Ann" in result.output and "tied across the cut line" in result.output
    assert hand.cli("standings", TID, "--format", "xml").exit_code == 2
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    result = hand.cli("standings", TID, "--stage", "final", "--why", env={"COLUMNS": "250"})
    assert result.exit_code == 0 and "fewer preliminary stars" in result.output
    result = hand.cli("standings", TID, "--stage", "final", "--format", "json")
    assert [r["player"] for r in json.loads(result.stdout)] == ["gus", "kim", "ann", "bob", "hal", "cem"]


# -- the record survives a rebuild ---------------------------------------------------------


def test_rebuild_and_verify_hold_after_records(hand: Hand) -> None:
    finding = _slip(hand)
    records.penalty(hand.store, TID, "gus", 2, "slow play")
    records.correct(hand.store, TID, "hand:r1:t2", 2, "lea", 2, "misread the sheet")
    records.correct(hand.store, TID, "hand:r1:t2", 2, "lea", 4, "the judge")
    records.dismiss(hand.store, TID, finding, "settled at the table")
    records.accept_replay(hand.store, TID, "hand:r2:t1", 1, "the log is right")
    records.publish_seating(
        hand.store, TID, 1, [list(TABLE_1), list(PLAYERS[6:])], stage="preliminary", method="x", seed=1
    )
    again = sheet("hand:r1:t2", T2_AGAIN, table="2")
    assert put(hand.store, hand.root / "fixed" / "r1-t2.csv", again, supersede=True, reason="kim's round") == "accepted"
    assert hand.cli("tournament", "cut", TID, "--seed", "1").exit_code == 0
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    preliminary, final = hand.table(), hand.table(stage="final")
    verdict = verify(hand.store)
    assert verdict.ok, verdict.problems
    rebuild(hand.store)
    verdict = verify(hand.store)
    assert verdict.ok, verdict.problems
    assert_frame_equal(hand.table(), preliminary)
    assert_frame_equal(hand.table(stage="final"), final)
    assert hand.cli("verify").exit_code == 0


# -- an independent fold over the events ---------------------------------------------------


@dataclass
class Tally:
    points: int = 0
    stars: int = 0
    rounds: int = 0


def _game_rounds(
    events: list[tuple[str, str]],
) -> Iterator[tuple[int, dict[str, int | None], dict[str, int | None], set[str]]]:
    """Each round of one stored game: the recorded points, the replay's points and the
    players with a star. A log is replayed by the audit from its stored lines; a score
    sheet's points and stars are as written."""
    if events[0][0] == "score_sheet_game":
        for kind, payload in events[1:]:
            assert kind == "round_recorded"
            data = json.loads(payload)
            points: dict[str, int | None] = {r["player"]: r["points"] for r in data["results"]}
            yield data["round"], points, dict(points), {r["player"] for r in data["results"] if r["star"]}
        return
    assert all(kind != "unparsed_line" for kind, _ in events)
    players: list[str] = json.loads(events[0][1])["players"]
    claims: dict[int, dict[str, int]] = {}
    for kind, payload in events:
        if kind == "round_ended":
            data = json.loads(payload)
            claims.setdefault(data["round"], data["scores"])
    for outcome in audit([payload for _, payload in events], name="fold").outcomes:
        claim = claims.get(outcome.round)
        recorded = {p: (claim.get(p) if claim is not None else None) for p in players}
        yield outcome.round, recorded, {p: outcome.scores.get(p) for p in players}, set(outcome.stars)


def fold(store: Store, tournament: str) -> dict[str, tuple[int, int, int, int]]:
    """Points, stars, rank and rounds of every player, from the ``events`` table alone."""
    with store.connect(read_only=True) as con:
        rows = con.execute("SELECT stream, type, payload FROM events ORDER BY position").fetchall()
    streams: dict[str, list[tuple[str, str]]] = {}
    for stream, kind, payload in rows:
        if str(kind).endswith("_superseded"):
            streams[stream] = []  # the newest version of a game starts after its marker
        else:
            streams.setdefault(stream, []).append((str(kind), str(payload)))
    tally: dict[str, Tally] = {}
    penalties: Counter[str] = Counter()
    corrections: dict[tuple[str, int, str], int] = {}
    accepted: set[tuple[str, int]] = set()
    for kind, payload in streams[f"tournament:{tournament}"]:
        data = json.loads(payload)
        if kind == "player_registered":
            tally.setdefault(data["player"], Tally())
        elif kind == "penalty_given" and data.get("stage", "preliminary") == "preliminary":
            penalties[data["player"]] += data["points"]
        elif kind == "score_corrected":
            corrections[(data["game_id"], data["round"], data["player"])] = data["points"]  # the newest wins
        elif kind == "replay_accepted":  # the newest decision on a round counts: it replaces the corrections
            accepted.add((data["game_id"], data["round"]))
            for key in [k for k in corrections if k[:2] == (data["game_id"], data["round"])]:
                del corrections[key]
    for stream, events in streams.items():
        if not stream.startswith("game:") or not events:
            continue
        head = json.loads(events[0][1])
        if head.get("tournament") != tournament or (head.get("stage") or "preliminary") != "preliminary":
            continue
        game = head["game_id"]
        for number, recorded, replayed, starred in _game_rounds(events):
            for player, written in recorded.items():
                if (game, number, player) in corrections:
                    points = corrections[(game, number, player)]
                elif (game, number) in accepted and replayed[player] is not None:
                    points = replayed[player] or 0
                else:
                    points = written or 0
                mine = tally.setdefault(player, Tally())
                mine.points += points
                mine.stars += player in starred
                mine.rounds += 1
    for player, deducted in penalties.items():
        tally[player].points -= deducted
    keys = {p: (t.points, t.stars) for p, t in tally.items()}
    return {
        p: (t.points, t.stars, 1 + sum(other > keys[p] for other in keys.values()), t.rounds) for p, t in tally.items()
    }


def sql(store: Store, tournament: str) -> dict[str, tuple[int, int, int, int]]:
    table = standings(store, tournament)
    return {str(r["player"]): (r["points"], r["stars"], r["rank"], r["rounds"]) for r in table.iter_rows(named=True)}


def _mis_score(path: Path, seed: int) -> int:
    """Write one round's score wrong in a log file; the round."""
    slip = mutate(path.read_text(encoding="utf-8").splitlines(), "mis_score", seed)
    assert slip is not None
    path.write_text("\n".join(slip.lines) + "\n", encoding="utf-8")
    number = json.loads(slip.lines[slip.line - 1])["round"]
    assert isinstance(number, int)
    return number


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_independent_fold_agrees_with_the_sql_standings(tmp_path: Path, seed: int) -> None:
    folder = tmp_path / "t"
    made = simulate_tournament(folder, players=13, preliminary_rounds=3, seed=seed)
    tid = made.id
    accepted_round = _mis_score(folder / "r1-t1.jsonl", seed)  # its replay will be accepted
    _mis_score(folder / "r2-t1.jsonl", seed + 1)  # left as written
    store = Store(tmp_path / "sim.duckdb")
    results = ingest([folder], store, workers=1)
    assert {r.outcome for r in results} <= {"accepted", "accepted_with_findings"}
    fixed = tmp_path / "fixed" / "r3-t1.jsonl"
    fixed.parent.mkdir()
    fixed.write_text((folder / "r3-t1.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    _mis_score(fixed, seed + 2)
    assert ingest([fixed], store, workers=1, supersede=True, reason="the table's copy")[0].outcome.startswith(
        "accepted"
    )
    people = [p["id"] for p in made.description["players"]]
    records.penalty(store, tid, people[0], 2, "slow play")
    records.penalty(store, tid, people[1], 1, "phone at the table")
    seated = made.description["seatings"][1]["tables"][1]["players"]
    records.correct(store, tid, f"{tid}:r2:t2", 2, seated[0], 4, "first try")
    records.correct(store, tid, f"{tid}:r2:t2", 2, seated[0], 1, "the newest counts")
    records.accept_replay(store, tid, f"{tid}:r1:t1", accepted_round, "the log is right")
    expected_table = fold(store, tid)
    assert len(expected_table) == 13
    assert sql(store, tid) == expected_table
    assert row(standings(store, tid), people[0])["penalty"] == 2


def test_the_newest_decision_on_a_round_counts_a_correction_or_the_replay(hand_of_two: Hand) -> None:
    """R-TS5 ("the newest correction counts"): the organiser who corrects fay's round and
    then accepts its replay means the replay; a correction after the acceptance counts
    over it. Accepting the replay that is the round's newest decision already records
    nothing (it is refused: the record would say it twice)."""
    hand = hand_of_two
    slip = _slip(hand)

    def fay() -> tuple[int, int]:
        found = row(hand.table(), "fay")
        return found["points"], found["stars"]

    def slip_is() -> tuple[str, int, list[str]]:
        """The slip's status in the findings list, fay's open findings in the standings,
        and what a correction just recorded is told stays open."""
        status = browse.findings(hand.store, TID).filter(pl.col("finding_id") == slip)["status"].item()
        return (
            status,
            row(hand.table(), "fay")["open_findings"],
            records.still_wrong_in(hand.store, TID, "hand:r2:t1", 1),
        )

    records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 1, "a guess")
    assert fay() == (1, 1)
    assert slip_is() == ("open", 1, [slip])  # 1 is not the replay's 3
    records.accept_replay(hand.store, TID, "hand:r2:t1", 1, "the log is right after all")
    assert fay() == (3, 1)  # the replay's 3, the correction before it replaced
    assert slip_is() == ("settled", 0, [])
    scores = browse.round_scores(hand.store, TID, "hand:r2:t1", 1)
    assert scores.filter(pl.col("player") == "fay")[["corrected", "replay_accepted"]].row(0) == (None, True)
    # what counts, as the standings count it: the replay's 3 (the Audit page's form starts there)
    assert scores.filter(pl.col("player") == "fay")[["recorded", "counted"]].row(0) == (0, 3)
    with pytest.raises(records.RecordError, match=r"^the replay of round 1 of hand:r2:t1 is accepted already$"):
        records.accept_replay(hand.store, TID, "hand:r2:t1", 1)
    again = hand.cli("tournament", "accept-replay", TID, "hand:r2:t1", "1")
    assert again.exit_code == 1 and "is accepted already" in again.output, again.output
    records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 2, "the judge's ruling")
    assert fay() == (2, 1)  # a correction after the acceptance counts
    counted = browse.round_scores(hand.store, TID, "hand:r2:t1", 1).filter(pl.col("player") == "fay")
    assert counted[["corrected", "counted"]].row(0) == (2, 2)
    assert slip_is() == ("open", 1, [slip])  # …and puts the round off the rules again: the slip is open
    records.correct(hand.store, TID, "hand:r2:t1", 1, "bob", 2, "bob's points")  # another player's: fay's stays
    assert slip_is() == ("open", 1, [slip])
    records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 3, "the replay's after all")
    assert slip_is() == ("settled", 0, [])
    records.accept_replay(hand.store, TID, "hand:r2:t1", 1, "the ruling was withdrawn")  # newest again: taken
    assert fay() == (3, 1)
    assert slip_is() == ("settled", 0, [])
    assert sql(hand.store, TID) == fold(hand.store, TID)


def test_a_correction_is_told_of_the_rounds_findings_still_open_and_of_no_other(hand_of_two: Hand) -> None:
    """After a correction the organiser is told which of the round's ``wrong_score``
    findings stay open, as the findings list has them: one whose player another
    correction left as it was, and not one dismissed (it is not open)."""
    hand = hand_of_two
    slip = _slip(hand)
    records.correct(hand.store, TID, "hand:r2:t1", 1, "bob", 0, "bob's points")
    assert records.still_wrong_in(hand.store, TID, "hand:r2:t1", 1) == [slip]  # fay's 0 is still wrong
    records.dismiss(hand.store, TID, slip, "the table agreed on 0")
    records.correct(hand.store, TID, "hand:r2:t1", 1, "fay", 1, "a guess")
    assert records.still_wrong_in(hand.store, TID, "hand:r2:t1", 1) == []  # dismissed: not open, not said to be


def test_the_fold_agrees_on_the_hand_tournament_with_every_record(hand_of_two: Hand) -> None:
    hand = hand_of_two
    _slip(hand)
    records.penalty(hand.store, TID, "gus", 2, "slow play")
    records.correct(hand.store, TID, "hand:r1:t2", 2, "lea", 2, "misread the sheet")
    records.correct(hand.store, TID, "hand:r1:t2", 2, "lea", 4, "the judge")
    records.accept_replay(hand.store, TID, "hand:r2:t1", 1)
    again = sheet("hand:r1:t2", T2_AGAIN, table="2")
    assert put(hand.store, hand.root / "fixed" / "r1-t2.csv", again, supersede=True, reason="kim's round") == "accepted"
    assert put(hand.store, hand.root / "final.jsonl", final_log().text()) == "accepted"
    assert sql(hand.store, TID) == fold(hand.store, TID)


# -- tournaments made by commands -------------------------------------------------------------


def test_a_created_tournament_takes_further_records(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.duckdb")
    records.create(store, "club", name="Club Night", preliminary_rounds=1)
    records.register(store, "club", [("ann", "Ann"), ("bob", "Bob")])
    assert standings(store, "club")["player"].to_list() == ["ann", "bob"]


def test_cli_create_then_register(tmp_path: Path) -> None:
    db = str(tmp_path / "new.duckdb")
    runner = CliRunner()
    created = runner.invoke(app, ["tournament", "create", "club", "--name", "Club Night", "--db", db])
    assert created.exit_code == 0, created.output
    registered = runner.invoke(app, ["tournament", "register", "club", "ann", "--name", "Ann", "--db", db])
    assert registered.exit_code == 0, registered.output
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT player, name FROM tournament_players").fetchall() == [("ann", "Ann")]


def test_standings_of_thousands_of_players_level_on_nothing_stay_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every registered player who has not played yet is one group of equal points and
    stars (0, 0): the tie at the cut was found with a list of the group for each of its
    players, memory growing with the square of it, and 4,000 registered players ran
    the standings out of DuckDB's memory. Here 3,000 of them under a 64 MB ceiling."""
    monkeypatch.setenv("SABOTEUR_DB_MEMORY", "64MB")
    store = Store(tmp_path / "s.duckdb")
    records.create(store, "big", name="Big")
    records.register(store, "big", [(f"p{i:04}", f"Player {i}") for i in range(3000)])
    table = standings(store, "big")
    assert table.height == 3000 and set(table["rank"]) == {1}
    assert table["cut_tie_undrawn"].sum() == 3000  # all tied across the cut line, none drawn


# -- a player who withdraws ---------------------------------------------------------------


def test_a_player_who_withdraws_keeps_their_rounds_and_the_cut_passes_them_over(tmp_path: Path) -> None:
    """The rules are silent on a player who goes home after round 2; a tournament keeps
    their rounds and their place, seats them no more, and sends the next player on in
    their place. A withdrawal is a record with a reason, and a return takes it back."""
    from analytics.standings import above_the_cut

    made = simulate_tournament(tmp_path / "t", players=13, preliminary_rounds=3, seed=4)
    tid = made.id
    store = Store(tmp_path / "s.duckdb")
    ingest([tmp_path / "t"], store, workers=1)
    before = standings(store, tid)
    third = before.row(2, named=True)
    cut_before = before.filter(pl.col("in_cut"))["player"].to_list()
    assert third["player"] in cut_before and len(cut_before) == 6
    with store.connect(read_only=True) as con:
        (moment,) = con.execute("SELECT max(position) FROM events").fetchone() or (None,)

    said = CliRunner().invoke(
        app, ["tournament", "withdraw-player", tid, third["player"], "--reason", "gone home", "--db", str(store.path)]
    )
    assert said.exit_code == 0 and f"recorded the withdrawal of {third['player']}" in said.output, said.output
    after = standings(store, tid)
    gone = row(after, third["player"])
    assert (gone["place"], gone["points"], gone["rounds"]) == (third["place"], third["points"], third["rounds"])
    assert gone["withdrawn"] and not gone["in_cut"]
    assert "withdrew from the tournament: the cut passes over them" in gone["why"]
    seventh = before.row(6, named=True)["player"]
    assert after.filter(pl.col("in_cut"))["player"].to_list() == [p for p in cut_before if p != third["player"]] + [
        seventh
    ]
    assert above_the_cut(after) == 7  # the line falls under the seventh row: the sixth player going on
    assert not row(standings(store, tid, as_of=moment), third["player"])["withdrawn"]  # as it stood before

    # no later seating takes them: the organiser's seat leaves them out, a seating by hand is refused
    seated = records.seating_players(store, tid, 2, "preliminary", replace="a player went home")
    assert third["player"] not in seated and len(seated) == 12
    final = records.seating_players(store, tid, 4, "final", replace="a finalist went home")
    assert sorted(final) == sorted(after.filter(pl.col("in_cut"))["player"].to_list())
    with pytest.raises(RecordError, match=rf"^{third['player']} withdrew from {tid}: a seating leaves them out"):
        records.publish_seating(
            store, tid, 2, [before["player"].to_list()[:7], before["player"].to_list()[7:]],
            stage="preliminary", method="by hand", seed=None, reason="a try",
        )  # fmt: skip
    moved = records.cuts_moved(store, tid)  # the final was seated with them: check says so
    assert [(m.stage, m.seated_outside, m.left_out) for m in moved] == [("final", (third["player"],), (seventh,))]

    with pytest.raises(RecordError, match=rf"^{third['player']} has withdrawn already$"):
        records.withdraw_player(store, tid, third["player"], "again")
    with pytest.raises(RecordError, match=r"^a withdrawal needs a --reason$"):
        records.withdraw_player(store, tid, seventh, " ")
    with pytest.raises(RecordError, match=rf"^nobody is not registered in {tid}$"):
        records.withdraw_player(store, tid, "nobody", "gone")
    with pytest.raises(RecordError, match=rf"^{seventh} has not withdrawn from {tid}$"):
        records.return_player(store, tid, seventh, "never left")
    with pytest.raises(RecordError, match=rf"^nobody is not registered in {tid}$"):  # not "has not withdrawn"
        records.return_player(store, tid, "nobody", "back")
    assert CliRunner().invoke(app, ["verify", "--db", str(store.path)]).exit_code == 0  # read models as events give

    table = CliRunner().invoke(app, ["standings", tid, "--db", str(store.path)], env={"COLUMNS": "200"})
    assert f"{third['name']} (withdrew)" in table.output, table.output
    records.return_player(store, tid, third["player"], "back from the doctor's")
    assert_frame_equal(standings(store, tid).drop("why", "reasons"), before.drop("why", "reasons"))
