"""A game stored anew (``ingest --supersede``) is counted with the tournament's
corrections and accepted replays of it still applied: they name a game and a round, not
its file. The ingest says which still count, which find their round or player no more,
and which rounds as now counted are not what the rules give (``analytics.carried``)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from analytics import records
from analytics.carried import Carried, carried_over
from cli.main import app
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import FileResult, ingest
from ingest.store import Store
from tests.analytics.test_standings import PLAYERS, T1, T2, T2_AGAIN, TID, description, put, sheet

GAME = "hand:r1:t2"


def _hand(tmp_path: Path) -> Store:
    """The tournament "hand" with both tables' sheets of round 1 stored; in table 2's
    round 3 hal reached the gold (3, a star), kim and ida 2."""
    store = Store(tmp_path / "hand.duckdb")
    assert put(store, tmp_path / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    assert put(store, tmp_path / "r1-t1.csv", sheet("hand:r1:t1", T1)) == "accepted"
    assert put(store, tmp_path / "r1-t2.csv", sheet(GAME, T2, table="2")) == "accepted"
    return store


def _anew(store: Store, path: Path, text: str) -> FileResult:
    path.write_text(text, encoding="utf-8")
    (result,) = ingest([path], store, workers=1, supersede=True, reason="the scorekeeper's sheet")
    assert result.outcome in ("accepted", "accepted_with_findings"), result
    return result


def test_a_correction_the_new_sheet_agrees_with_still_counts_and_fits(tmp_path: Path) -> None:
    """The organiser put round 3 right by hand (kim found the gold: kim 3 and a star, hal
    2); the scorekeeper then sends the sheet put right the same way. The corrections
    still count, and the round as counted is what the rules give."""
    store = _hand(tmp_path)
    records.correct(store, TID, GAME, 3, "kim", 3, "kim found the gold", star=True)
    records.correct(store, TID, GAME, 3, "hal", 2, "kim found the gold", star=False)
    result = _anew(store, tmp_path / "again.csv", sheet(GAME, T2_AGAIN, table="2"))
    assert carried_over(store, [result.upload_id]) == [
        Carried(TID, GAME, 3, "kim", 3, "kim found the gold", applies=True, fits=True),
        Carried(TID, GAME, 3, "hal", 2, "kim found the gold", applies=True, fits=True),
    ]


def test_a_correction_the_new_sheet_contradicts_is_said_off_the_rules(tmp_path: Path) -> None:
    """A correction made on the first sheet (ida, not hal, was second: 2 for ida, 0 for
    hal) still counts on a new sheet that put round 3 right otherwise: the round as
    counted is no outcome of the rules, and the ingest says so."""
    store = _hand(tmp_path)
    records.correct(store, TID, GAME, 3, "hal", 0, "hal was not there")
    result = _anew(store, tmp_path / "again.csv", sheet(GAME, T2_AGAIN, table="2"))
    assert carried_over(store, [result.upload_id]) == [
        Carried(TID, GAME, 3, "hal", 0, "hal was not there", applies=True, fits=False)
    ]
    shown = CliRunner().invoke(
        app,
        ["ingest", str(tmp_path / "again.csv"), "--db", str(store.path), "--supersede", "--reason", "again"],
    )
    assert shown.exit_code == 0, shown.output
    # the same file again is a duplicate: nothing stored anew, nothing said of the record
    assert "records still counted" not in shown.output


def test_a_correction_of_a_round_the_new_sheet_has_not_counts_for_nothing(tmp_path: Path) -> None:
    """The new sheet holds two rounds: the correction of round 3 finds no round."""
    store = _hand(tmp_path)
    records.correct(store, TID, GAME, 3, "kim", 3, "kim found the gold", star=True)
    records.correct(store, TID, GAME, 1, "kim", 2, "as the sheet said")
    two_rounds = {number: T2[number] for number in (1, 2)}
    result = _anew(store, tmp_path / "again.csv", sheet(GAME, two_rounds, table="2"))
    assert carried_over(store, [result.upload_id]) == [
        Carried(TID, GAME, 1, "kim", 2, "as the sheet said", applies=True, fits=True),
        Carried(TID, GAME, 3, "kim", 3, "kim found the gold", applies=False, fits=True),
    ]


def test_the_ingest_says_what_still_counts_on_the_game_stored_anew(tmp_path: Path) -> None:
    store = _hand(tmp_path)
    records.correct(store, TID, GAME, 3, "hal", 0, "hal was not there")
    records.correct(store, TID, "hand:r1:t1", 1, "bob", 2, "as the sheet said")  # of a game not stored anew
    (tmp_path / "again.csv").write_text(sheet(GAME, T2_AGAIN, table="2"), encoding="utf-8")
    args = ["ingest", str(tmp_path / "again.csv"), "--db", str(store.path), "--supersede", "--reason", "kim"]
    shown = CliRunner().invoke(app, [*args, "--lang", "nl"])
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.output.split())
    assert "again.csv (hand:r1:t2)" in said
    assert "ronde 3: de score van hal gecorrigeerd tot 0 telt nog (hal was not there)" in said, said
    assert "ronde 3 zoals ze nu telt is niet wat de regels geven" in said
    assert "bob" not in said  # table 1's correction: its game was not stored anew


def test_a_replay_accepted_still_counts_and_a_correction_before_it_is_not_listed(tmp_path: Path) -> None:
    """A log's round whose replay was accepted: the new version's replay gives its points.
    A correction made before the acceptance counts no more, and is not listed."""
    logs = tmp_path / "logs"
    simulate_tournament(logs, players=12, preliminary_rounds=1, seed=3)
    store = Store(tmp_path / "sim.duckdb")
    ingest([logs], store, workers=1)
    game = "sim-open-3:r1:t1"
    tournament = "sim-open-3"
    player = json.loads((logs / "r1-t1.jsonl").read_text().splitlines()[0])["players"][0]
    records.correct(store, tournament, game, 1, player, 1, "a guess")
    records.accept_replay(store, tournament, game, 1, "the log is right")
    lines = (logs / "r1-t1.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    started = datetime.fromisoformat(first["at"]) - timedelta(seconds=1)  # the one change: its time
    first["at"] = started.strftime("%Y-%m-%dT%H:%M:%SZ")
    again = tmp_path / "again.jsonl"
    again.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    (result,) = ingest([again], store, workers=1, supersede=True, reason="the time put right")
    assert result.outcome in ("accepted", "accepted_with_findings"), result
    assert carried_over(store, [result.upload_id]) == [
        Carried(tournament, game, 1, None, None, "the log is right", applies=True, fits=True)
    ]


def test_nothing_is_carried_over_a_game_stored_for_the_first_time(tmp_path: Path) -> None:
    store = Store(tmp_path / "hand.duckdb")
    assert put(store, tmp_path / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    (result,) = ingest([_written(tmp_path / "r1-t2.csv", sheet(GAME, T2, table="2"))], store, workers=1)
    assert carried_over(store, [result.upload_id]) == []
    assert carried_over(store, []) == []


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
