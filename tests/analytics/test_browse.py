"""The store's read side for the pages (:mod:`analytics.browse`)."""

from __future__ import annotations

import json
from pathlib import Path

from analytics.browse import findings, games_people
from ingest.store import Store
from tests.analytics.test_standings import T1, TABLE_1, description, put, sheet


def test_a_files_players_are_named_by_their_tournament_and_an_id_two_name_apart_stays_an_id(tmp_path: Path) -> None:
    """The Upload page names a file's players by the names their tournaments registered.
    Where two tournaments of the file's games name one id differently, either name could
    be the wrong person: the id stays."""
    store = Store(tmp_path / "s.duckdb")
    for tournament, ann in (("one", "Ann One"), ("two", "Ann Two")):
        told = description(tournament, TABLE_1)
        told["players"] = [{**p, "name": ann} if p["id"] == "ann" else p for p in told["players"]]
        assert put(store, tmp_path / tournament / "tournament.json", json.dumps(told)) == "accepted"
        assert put(
            store, tmp_path / tournament / "t1.csv", sheet(f"{tournament}:r1:t1", T1, tournament=tournament)
        ) in (
            "accepted",
            "accepted_with_findings",
        )
    assert games_people(store, ["one:r1:t1"]) == {p: p.title() for p in TABLE_1} | {"ann": "Ann One"}
    both = games_people(store, ["one:r1:t1", "two:r1:t1"])
    assert "ann" not in both and both["bob"] == "Bob"
    assert games_people(store, ["no:such:game"]) == {}


def test_findings_on_one_line_of_one_player_come_in_one_order(tmp_path: Path) -> None:
    """Two findings of one line and one player (or two with no line) tied on the order
    the findings list is sorted by, and DuckDB may give ties in any order: the list
    (and ``findings --format json``) came out differently before and after a rebuild.
    Ties are broken by the finding's code and id."""
    store = Store(tmp_path / "s.duckdb")
    assert put(store, tmp_path / "tournament.json", json.dumps(description("hand", TABLE_1))) == "accepted"
    wrong = {**T1, 1: [("ann", "gold_digger", 2, 1), *T1[1][1:]]}  # ann's 3 written 2: one wrong_score
    assert put(store, tmp_path / "t1.csv", sheet("hand:r1:t1", wrong)) == "accepted_with_findings"
    with store.connect() as con:
        for code in ("zz_second", "aa_first"):  # stored in the other order
            con.execute(
                "INSERT INTO findings SELECT finding_id || ?, game_id, upload_id, ?, line, round, player, rule, "
                "severity, message, said FROM findings WHERE code = 'wrong_score'",
                [code, code],
            )
    listed = findings(store, "hand")
    assert listed["code"].to_list() == ["aa_first", "wrong_score", "zz_second"]
