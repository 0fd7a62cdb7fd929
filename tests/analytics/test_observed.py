"""Observed rounds in the statistics and the standings, and a penalty given for a
finding (issue 11, point 5).

Three real stores of one simulated tournament: every game full; two of its games
observed (with a referee's note in each); and the games that stay full alone. The
statistics the table can see agree between the first two; a statistic that needs the
hidden cards agrees between the last two and says how many observed rounds it left out.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner, Result

from analytics import browse, records, stats
from analytics.headings import title
from analytics.records import RecordError
from analytics.standings import standings
from cli.main import app
from events.records import dump
from events.records.tournament import PenaltyGiven, tournament_event
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store
from tests.ingest.observed_logs import note_line, observed

TID = "sim-open-1"
OBSERVED = ("r1-t1.jsonl", "r2-t2.jsonl")
"""The games observed in the mixed store; the first notes a player, the second nobody."""
NOTE_AFTER = 5


@dataclass(frozen=True)
class Stores:
    full: Path
    mixed: Path
    kept_full: Path
    observed_rounds: int


def _store(folder: Path, db: Path) -> Path:
    results = ingest([folder], Store(db), workers=1)
    assert {r.outcome for r in results} <= {"accepted", "accepted_with_findings"}, results
    return db


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Stores:
    root = tmp_path_factory.mktemp("observed-stats")
    simulate_tournament(root / "full", players=12, preliminary_rounds=2, seed=1)
    shutil.copytree(root / "full", root / "mixed")
    shutil.copytree(root / "full", root / "kept")
    rounds = 0
    for name, noted in zip(OBSERVED, (True, False), strict=True):
        log = (root / "full" / name).read_text()
        who = json.loads(log.splitlines()[0])["players"][1] if noted else None
        (root / "mixed" / name).write_text(observed(log, notes={NOTE_AFTER: note_line(who)}))
        (root / "kept" / name).unlink()
        rounds += sum(json.loads(line)["type"] == "round_ended" for line in log.splitlines())
    return Stores(
        _store(root / "full", root / "full.duckdb"),
        _store(root / "mixed", root / "mixed.duckdb"),
        _store(root / "kept", root / "kept.duckdb"),
        rounds,
    )


def copy_of(db: Path, tmp_path: Path) -> Store:
    return Store(shutil.copyfile(db, tmp_path / "ledger.duckdb"))


def cli(*args: str | Path) -> Result:
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "300"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


# -- statistics ----------------------------------------------------------------------


def test_the_statistics_the_table_can_see_count_observed_rounds_like_full_ones(stores: Stores) -> None:
    full, mixed = Store(stores.full), Store(stores.mixed)
    assert stats.observed_rounds(mixed) == stores.observed_rounds > 0
    assert stats.observed_rounds(full) == 0
    assert_frame_equal(stats.role_win_rates(mixed), stats.role_win_rates(full))
    assert_frame_equal(stats.player_stats(mixed), stats.player_stats(full))
    seen = [name for name in stats.ROUND_TABLES if name not in stats.HIDDEN_CARDS]
    assert seen and set(stats.HIDDEN_CARDS) < set(stats.ROUND_TABLES)
    for name, frame in stats.round_tables(mixed, names=seen).items():
        assert_frame_equal(frame, stats.round_tables(full, names=[name])[name])


def test_a_statistic_of_hidden_cards_leaves_observed_rounds_out(stores: Stores) -> None:
    mixed, kept = Store(stores.mixed), Store(stores.kept_full)
    assert_frame_equal(stats.gold_slots(mixed), stats.gold_slots(kept))
    assert stats.gold_slots(mixed)["rounds"].sum() < stats.gold_slots(Store(stores.full))["rounds"].sum()


def test_the_command_line_says_how_many_observed_rounds_a_figure_left_out(stores: Stores) -> None:
    said = f"observed rounds left out: {stores.observed_rounds}"
    shown = cli("stats", "games", "--db", stores.mixed)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.count(said) == 1
    # beside the gold slots, the one statistic that needs a hidden card: under its table
    slots = shown.stdout.index(title("gold_slots"))
    assert slots < shown.stdout.index(said) < shown.stdout.index(title("round_endings"))
    assert said not in cli("stats", "games", "--only", "turns_per_round", "--db", stores.mixed).output
    assert said not in cli("stats", "roles", "--db", stores.mixed).output
    assert "left out" not in cli("stats", "games", "--db", stores.full).output
    # CSV and JSON stay data alone: the note goes to the standard error
    for form in ("json", "csv"):
        result = cli("stats", "games", "--only", "gold_slots", "--format", form, "--db", stores.mixed)
        assert result.exit_code == 0, result.output
        assert said not in result.stdout
        assert result.stderr.strip() == f"gold_slots: {said}"
    data = json.loads(cli("stats", "games", "--only", "gold_slots", "--format", "json", "--db", stores.mixed).stdout)
    assert data == stats.gold_slots(Store(stores.kept_full)).to_dicts()


def test_standings_take_observed_games_like_full_ones(stores: Stores) -> None:
    """The same points, stars and places; only the referee's notes of the observed games
    stand beside their players as open findings (table_incident), as the findings list
    has them, until the organiser gives a penalty or dismisses them."""
    mixed, full = standings(Store(stores.mixed), TID), standings(Store(stores.full), TID)
    assert_frame_equal(mixed.drop("open_findings"), full.drop("open_findings"))
    assert full["open_findings"].sum() == 0
    notes = browse.open_findings(Store(stores.mixed), TID)
    assert set(notes["code"]) == {"table_incident"}
    (noted,) = notes.filter(pl.col("player").is_not_null())["player"]
    beside = dict(zip(mixed["player"], mixed["open_findings"], strict=True))
    assert beside[noted] >= 1
    assert sum(beside.values()) > 1  # the note that names nobody stands beside its round's players


# -- a penalty for a finding ------------------------------------------------------------


def incidents(store: Store) -> dict[str | None, str]:
    """The table_incident findings: id by the player noted."""
    found = browse.query(store, "SELECT finding_id, player FROM findings WHERE code = 'table_incident'")
    return {r["player"]: r["finding_id"] for r in found.iter_rows(named=True)}


def penalties(store: Store) -> list[dict[str, Any]]:
    return browse.query(store, "SELECT player, stage, points, reason, finding FROM penalties").to_dicts()


def test_a_penalty_for_a_finding_names_it_and_settles_it(stores: Stores, tmp_path: Path) -> None:
    store = copy_of(stores.mixed, tmp_path)
    found = incidents(store)
    (player,) = [p for p in found if p is not None]
    finding = found[player]
    assert finding in browse.open_findings(store, TID)["finding_id"].to_list()
    before = standings(store, TID).filter(pl.col("player") == player).row(0, named=True)

    recorded = records.penalty_for(store, TID, finding, 2, "showed a card")
    (event,) = recorded.events
    assert event == PenaltyGiven(
        type="penalty_given", player=player, points=2, stage="preliminary", reason="showed a card", finding=finding
    )
    assert penalties(store) == [
        {"player": player, "stage": "preliminary", "points": 2, "reason": "showed a card", "finding": finding}
    ]
    assert finding not in browse.open_findings(store, TID)["finding_id"].to_list()
    after = standings(store, TID).filter(pl.col("player") == player).row(0, named=True)
    assert (after["penalty"], after["points"]) == (before["penalty"] + 2, before["points"] - 2)
    with store.connect(read_only=True) as con:
        (stored,) = [e for e in store.read(con, f"tournament:{TID}") if e.type == "penalty_given"]
    assert json.loads(stored.payload)["finding"] == finding


def test_a_finding_that_names_nobody_needs_the_player(stores: Stores, tmp_path: Path) -> None:
    store = copy_of(stores.mixed, tmp_path)
    nobody = incidents(store)[None]
    with pytest.raises(RecordError, match=f"^finding {nobody} names no player: name the player whose penalty it is"):
        records.penalty_for(store, TID, nobody, 1, "a card shown")
    with pytest.raises(RecordError, match=r"^no finding 000000000000 is stored$"):
        records.penalty_for(store, TID, "000000000000", 1, "no such finding")
    with pytest.raises(RecordError, match=r"^a penalty needs a --reason$"):
        records.penalty_for(store, TID, nobody, 1, " ", player="no-one")
    finalists = "SELECT unnest(player_ids) AS player FROM games WHERE stage = 'final'"
    at_the_table = (
        "SELECT unnest(g.player_ids) AS player FROM games g JOIN findings f USING (game_id) "
        f"WHERE f.finding_id = '{nobody}'"
    )
    elsewhere = str(browse.query(store, f"SELECT min(player) AS p FROM ({finalists} EXCEPT {at_the_table})")["p"][0])
    with pytest.raises(RecordError, match=f"^{elsewhere} did not play .*, where finding {nobody} was found: "):
        records.penalty_for(store, TID, nobody, 1, "a card shown", player=elsewhere, stage="final")
    both = f"SELECT min(player) AS p FROM ({finalists} INTERSECT {at_the_table})"
    player = str(browse.query(store, both)["p"][0])  # a final's penalty, for what they did in the preliminaries
    records.penalty_for(store, TID, nobody, 1, "a card shown", player=player, stage="final")
    assert penalties(store) == [
        {"player": player, "stage": "final", "points": 1, "reason": "a card shown", "finding": nobody}
    ]


def test_the_command_line_gives_a_penalty_for_a_finding_as_it_dismisses_one(stores: Stores, tmp_path: Path) -> None:
    store = copy_of(stores.mixed, tmp_path)
    found = incidents(store)
    (player,) = [p for p in found if p is not None]
    result = cli(
        "tournament", "penalty", TID, "--finding", found[player], "--points", "3", "--reason", "r", "--db", store.path
    )
    assert result.exit_code == 0, result.output
    assert f"recorded penalty 1 for {player} for finding {found[player]}" in result.stdout
    log = cli("tournament", "log", TID, "--db", store.path)
    assert f"finding={found[player]}" in log.stdout

    refused = cli(
        "tournament", "penalty", TID, "--finding", found[None], "--points", "1", "--reason", "r", "--db", store.path
    )
    assert refused.exit_code == 1 and "names no player" in refused.output
    nameless = cli("tournament", "penalty", TID, "--points", "1", "--reason", "r", "--db", store.path)
    assert nameless.exit_code == 1 and "name the player, or the finding" in nameless.output
    assert len(penalties(store)) == 1
    # another player than the finding names: as asked, and said (a typo gives another's points)
    other = next(p for p in browse.query(store, "SELECT player FROM tournament_players")["player"] if p != player)
    given = cli(
        "tournament", "penalty", TID, other, "--finding", found[None], "--points", "1", "--reason", "r",
        "--db", store.path,
    )  # fmt: skip
    assert given.exit_code == 0 and "names" not in given.output, given.output  # names nobody: nothing to say
    dismissed = cli("tournament", "withdraw-penalty", TID, "1", "--reason", "to give it again", "--db", store.path)
    assert dismissed.exit_code == 0, dismissed.output
    moved = cli(
        "tournament", "penalty", TID, other, "--finding", found[player], "--points", "1", "--reason", "r",
        "--db", store.path,
    )  # fmt: skip
    assert moved.exit_code == 0, moved.output
    said = " ".join(moved.output.split())
    assert f"finding {found[player]} names {player}: the penalty goes to {other}, as asked" in said, said


def test_penalties_recorded_before_the_finding_field_read_and_write_as_they_did() -> None:
    old = '{"type":"penalty_given","player":"ann","points":1,"reason":"late"}'
    event = tournament_event(json.loads(old))
    assert isinstance(event, PenaltyGiven) and event.finding is None
    assert dump(event) == old
    assert dump(PenaltyGiven(type="penalty_given", player="ann", points=1, reason="late")) == old
