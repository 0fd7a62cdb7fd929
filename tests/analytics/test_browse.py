"""The store's read side for the pages (:mod:`analytics.browse`)."""

from __future__ import annotations

import json
from pathlib import Path

from analytics.browse import games_people
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
