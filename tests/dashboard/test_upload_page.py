"""The Upload page: storing a game anew (supersede), it says which of the tournament's
corrections of it still count, which find their player no more, and which rounds as now
counted are not what the rules give, as ``saboteur ingest --supersede`` does; and on a
store not made yet, it opens without an error, and its first upload makes the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analytics import records
from dashboard.markup import escape
from ingest.store import Store
from tests.analytics.test_standings import PLAYERS, T1, T2, TID, description, put, sheet
from tests.dashboard.conftest import PASSWORD, log_in, run_page

GAME = "hand:r1:t2"


def test_the_upload_page_says_what_still_counts_on_a_game_stored_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "hand.duckdb")
    assert put(store, tmp_path / "tournament.json", json.dumps(description(TID, PLAYERS))) == "accepted"
    assert put(store, tmp_path / "r1-t1.csv", sheet("hand:r1:t1", T1)) == "accepted"
    assert put(store, tmp_path / "r1-t2.csv", sheet(GAME, T2, table="2")) == "accepted"
    records.correct(store, TID, GAME, 2, "hal", 3, "hal was *not* there")
    records.correct(store, TID, GAME, 3, "kim", 3, "kim found the gold", star=True)
    monkeypatch.setenv("SABOTEUR_DB", str(store.path))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    at = log_in(run_page("upload"), PASSWORD)
    # the sheet again, of its first two rounds: round 3 was another game's
    again = {number: T2[number] for number in (1, 2)}
    at.file_uploader[0].set_value([("again.csv", sheet(GAME, again, table="2").encode(), "text/csv")])
    at.checkbox[0].check()
    at.text_input[0].input("the scorekeeper's sheet")
    at.button[0].click().run()
    assert not at.exception and not at.error
    (said,) = [m.value for m in at.markdown if "still counts on" in m.value]
    assert said.startswith(":orange[:material/edit_note:] The tournament's record still counts on `hand:r1:t2`")
    lines = said.split("\n- ")[1:]
    assert lines == [  # the players by name, the reason as typed: every line escaped as Markdown
        escape("round 2: Hal's score corrected to 3 still counts (hal was *not* there)"),
        escape("round 2 as now counted is not what the rules give"),
        escape("round 3: Kim's score corrected to 3 counts for nothing: the new version has no Kim in round 3"),
    ]
    assert "hal was \\*not\\* there" in said


def test_the_upload_page_on_a_store_not_made_yet_opens_without_an_error_and_makes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said in red "The store cannot be read: no such file (saboteur ingest or
    tournament create makes a store)", on the page that makes it."""
    db = tmp_path / "first.duckdb"
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    at = log_in(run_page("upload"), PASSWORD)
    assert not at.error and not at.exception, [e.value for e in at.error]
    assert not db.exists()
    at.file_uploader[0].set_value([("tournament.json", json.dumps(description(TID, PLAYERS)).encode(), "text/json")])
    at.button[0].click().run()
    assert not at.error and not at.exception
    assert at.dataframe[0].value["outcome"].tolist() == ["accepted"]
    assert db.exists()


def test_the_upload_page_says_the_batch_in_one_line_a_screen_reader_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file's line under the results is text a screen reader reaches only by
    reading on: what became of the batch comes first, as an alert (WCAG 4.1.3), red
    where a file was refused."""
    db = tmp_path / "batch.duckdb"
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    at = log_in(run_page("upload"), PASSWORD)
    good = json.dumps(description(TID, PLAYERS)).encode()
    at.file_uploader[0].set_value(
        [("tournament.json", good, "text/json"), ("broken.jsonl", b"{not json\n", "text/plain")]
    )
    at.button[0].click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["2 files: 1 accepted, 1 rejected"]
    at.file_uploader[0].set_value([("tournament.json", good, "text/json")])
    at.button[0].click().run()
    assert not at.error and [s.value for s in at.success] == ["1 file: 1 duplicate"]
    at.button[0].click().run()  # Ingest pressed again with no file chosen
    assert [w.value.split(":")[0] for w in at.warning] == ["No file to ingest"]
    assert not at.success and "Results" not in [h.value for h in at.header]  # the batch before is not its answer
