"""A tournament's file stored anew keeps what the organiser recorded (issue 34): a
supersede that fixes the tournament's name undoes no penalty, correction, dismissal or
code; the ingest, a rebuild and ``verify`` agree; ``tournament log`` lists the
supersede with when and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analytics import records
from analytics.standings import standings
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.rebuild import rebuild
from ingest.store import Store
from tests.ingest.conftest import cli, sql

TID = "sim-open-3"


@pytest.fixture
def penalised(tmp_path: Path) -> tuple[Store, Path, str]:
    """A simulated 12-player tournament stored, one player given a penalty of 1."""
    logs = tmp_path / "logs"
    simulate_tournament(logs, players=12, preliminary_rounds=1, seed=3)
    store = Store(tmp_path / "ledger.duckdb")
    ingest([logs], store, workers=1)
    someone = json.loads((logs / "tournament.json").read_text())["players"][0]["id"]
    records.penalty(store, TID, someone, 1, "arrived late")
    return store, logs, someone


def _renamed(logs: Path, tmp_path: Path) -> Path:
    description = json.loads((logs / "tournament.json").read_text())
    description["name"] += " (name fixed)"
    fixed = tmp_path / "fixed" / "tournament.json"
    fixed.parent.mkdir()
    fixed.write_text(json.dumps(description))
    return fixed


def test_a_supersede_that_fixes_the_name_keeps_the_penalty(penalised: tuple[Store, Path, str], tmp_path: Path) -> None:
    store, logs, someone = penalised
    before = standings(store, TID).filter(standings(store, TID)["player"] == someone).row(0, named=True)
    assert before["penalty"] == 1
    (result,) = ingest([_renamed(logs, tmp_path)], store, supersede=True, reason="name fixed", workers=1)
    assert result.outcome == "accepted", result
    after = standings(store, TID)
    row = after.filter(after["player"] == someone).row(0, named=True)
    assert (row["penalty"], row["points"]) == (1, before["points"])
    assert sql(store.path, "SELECT name FROM tournaments") == [("Simulated Open 3 (name fixed)",)]
    assert sql(store.path, "SELECT count(*) FROM penalties") == [(1,)]
    # the same after a rebuild from the events alone, and verify finds the read models as they are
    rebuild(store)
    again = standings(store, TID)
    assert again.filter(again["player"] == someone).row(0, named=True)["penalty"] == 1
    checked = cli("verify", "--db", store.path)
    assert checked.exit_code == 0, checked.output
    # a command after the supersede builds on what stands: the penalty is still there
    records.penalty(store, TID, someone, 2, "again late")
    assert sql(store.path, "SELECT sum(points) FROM penalties") == [(3,)]


def test_the_record_shows_what_superseded_what_and_why(penalised: tuple[Store, Path, str], tmp_path: Path) -> None:
    store, logs, _ = penalised
    ingest([_renamed(logs, tmp_path)], store, supersede=True, reason="name fixed", workers=1)
    shown = " ".join(cli("tournament", "log", TID, "--db", store.path).output.split())
    assert "tournament_superseded" in shown and "name fixed" in shown and "penalty_given" in shown


def test_a_penalty_the_new_file_leaves_without_a_player_is_said_not_counted(tmp_path: Path) -> None:
    """Where the new file contradicts a record — it no longer registers a player who was
    penalised and played no round — the standings say the penalty is not counted."""
    logs = tmp_path / "logs"
    simulate_tournament(logs, players=12, preliminary_rounds=1, seed=3)
    original = json.loads((logs / "tournament.json").read_text())
    with_ghost = {**original, "players": [*original["players"], {"id": "ghost", "name": "Gus Host"}]}
    (logs / "tournament.json").write_text(json.dumps(with_ghost))
    store = Store(tmp_path / "ledger.duckdb")
    ingest([logs], store, workers=1)
    records.penalty(store, TID, "ghost", 2, "no-show")
    assert "ghost" in standings(store, TID)["player"].to_list()
    fixed = tmp_path / "fixed" / "tournament.json"
    fixed.parent.mkdir()
    fixed.write_text(json.dumps(original))  # the player registered by mistake taken out
    ingest([fixed], store, supersede=True, reason="ghost was never here", workers=1)
    assert "ghost" not in standings(store, TID)["player"].to_list()
    said = " ".join(cli("standings", TID, "--db", store.path).output.split())
    assert "a penalty of 2 for ghost is not counted" in said and "no-show" in said
    dutch = " ".join(cli("standings", TID, "--db", store.path, "--lang", "nl").output.split())
    assert "een straf van 2 voor ghost telt niet mee" in dutch


def test_a_supersede_keeps_a_players_withdrawal(penalised: tuple[Store, Path, str], tmp_path: Path) -> None:
    """A withdrawal recorded by command came, in the order the records stand on, before
    the new file registered the player again, and was dropped: the player was seated and
    cut as if never withdrawn, with nothing said. It stands, after a rebuild too."""
    store, logs, someone = penalised
    records.withdraw_player(store, TID, someone, "went home ill")
    withdrawn = "SELECT player, withdrawn_reason FROM tournament_players WHERE withdrawn_seq IS NOT NULL"
    assert sql(store.path, withdrawn) == [(someone, "went home ill")]
    ingest([_renamed(logs, tmp_path)], store, supersede=True, reason="name fixed", workers=1)
    assert sql(store.path, withdrawn) == [(someone, "went home ill")]
    rebuild(store)
    assert sql(store.path, withdrawn) == [(someone, "went home ill")]
    assert cli("verify", "--db", store.path).exit_code == 0
    records.return_player(store, TID, someone, "back for the final")  # and a return after it counts
    assert sql(store.path, withdrawn) == []
