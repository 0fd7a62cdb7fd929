"""The recorder's draft in a real DuckDB store (ingest/drafts.py).

A game recorded at the table is a stream of its own, appended at the version a phone
read: a second phone that is behind is refused with the draft as it stands, an undo is
an event (nothing is edited), a reopened store gives the draft back where it was, and
a finished draft's log is taken in like an uploaded file, once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from events.audit import audit
from events.observe import observe
from events.schema import dump_event
from events.simulate.game import quick_game
from ingest.drafts import (
    DraftError,
    DraftMoved,
    drafts,
    finish_draft,
    read_draft,
    record_line,
    start_draft,
    undo_line,
)
from ingest.pipeline import Writer, write_all
from ingest.rebuild import rebuild
from ingest.sources import prepare_bytes
from ingest.store import Store
from tests.ingest.conftest import cli


def observed_lines(seed: int = 5) -> list[str]:
    full = "".join(dump_event(e) + "\n" for e in quick_game(5, "tournament", 1, seed))
    return observe(full.encode()).decode().splitlines()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "ledger.duckdb")


def test_a_draft_is_recorded_line_by_line_and_read_back_where_it_was(store: Store, tmp_path: Path) -> None:
    lines = observed_lines()
    game_id = "sim:game:5"
    draft = start_draft(store, game_id, lines[0])
    for line in lines[1:10]:
        draft = record_line(store, draft, line)
    again = read_draft(Store(tmp_path / "ledger.duckdb"), game_id)  # a restarted server
    assert again == draft
    assert again is not None and list(again.lines) == lines[:10] and again.version == 10


def test_a_phone_that_is_behind_is_refused_with_the_draft_as_it_stands(store: Store) -> None:
    lines = observed_lines()
    first = start_draft(store, "g1", lines[0])
    phone_a = record_line(store, first, lines[1])
    with pytest.raises(DraftMoved) as moved:
        record_line(store, first, lines[1])  # phone B read the draft before A's line
    assert moved.value.draft == phone_a
    assert "another phone recorded first" in str(moved.value)
    with pytest.raises(DraftMoved):
        start_draft(store, "g1", lines[0])
    current = read_draft(store, "g1")
    assert current is not None and list(current.lines) == lines[:2]


def test_undo_is_an_event_and_takes_back_the_last_line_only(store: Store) -> None:
    lines = observed_lines()
    draft = start_draft(store, "g2", lines[0])
    with pytest.raises(DraftError, match="nothing to undo"):
        undo_line(store, draft)
    draft = record_line(store, record_line(store, draft, lines[1]), lines[2])
    draft = undo_line(store, draft)
    assert list(draft.lines) == lines[:2]
    assert draft.version == 4  # three lines recorded, one taken back: four events
    with store.connect(read_only=True) as con:
        types = [e.type for e in store.read(con, "draft:g2")]
    assert types == ["entry_recorded"] * 3 + ["entry_undone"]


def test_a_finished_draft_is_taken_in_as_an_upload_once(store: Store) -> None:
    lines = observed_lines()
    game_id = audit(lines).game_id
    assert game_id is not None
    draft = start_draft(store, game_id, lines[0])
    for line in lines[1:]:
        draft = record_line(store, draft, line)
    assert [d.game_id for d in drafts(store)] == [game_id]
    finished, result = finish_draft(store, draft, "table-1.jsonl")
    assert result.outcome == "accepted" and finished.upload_id == result.upload_id
    assert drafts(store) == [] and [d.game_id for d in drafts(store, in_play=False)] == [game_id]
    with store.connect(read_only=True) as con:
        raw = con.execute("SELECT raw FROM uploads WHERE upload_id = ?", [result.upload_id]).fetchone()
        games = con.execute("SELECT count(*) FROM games WHERE game_id = ?", [game_id]).fetchone()
    assert raw is not None and bytes(raw[0]) == draft.text().encode()
    assert games == (1,)
    with pytest.raises(DraftError, match="is finished"):
        record_line(store, finished, lines[-1])


def test_finishing_again_after_a_crash_stores_the_game_once(store: Store) -> None:
    """A process that died after taking the log in and before marking the draft
    finishes again: the same bytes are found stored, and only the mark is added."""
    lines = observed_lines()
    draft = start_draft(store, "g4", lines[0])
    for line in lines[1:]:
        draft = record_line(store, draft, line)
    (stored,) = write_all([prepare_bytes("table-1.jsonl", draft.text().encode())], Writer(store))
    finished, result = finish_draft(store, draft, "table-1.jsonl")
    assert result.outcome == "duplicate"
    assert finished.upload_id == stored.upload_id == result.upload_id
    with store.connect(read_only=True) as con:
        assert con.execute("SELECT count(*) FROM uploads").fetchone() == (1,)


def test_drafts_are_verified_and_survive_a_rebuild(store: Store) -> None:
    lines = observed_lines()
    draft = start_draft(store, "g3", lines[0])
    record_line(store, draft, lines[1])
    rebuild(store)
    assert read_draft(store, "g3") is not None
    assert cli("verify", "--db", store.path).exit_code == 0


def test_an_entry_sent_twice_is_recorded_once(store: Store) -> None:
    """A phone on a dropping network sends an entry again when no answer came: the
    entry's id finds it taken, and the draft as it stands comes back — even when the
    draft moved on since (another phone recorded after it), and even when the entry
    was taken back meanwhile (an id is spent once)."""
    lines = observed_lines()
    first = start_draft(store, "g-entries", lines[0])
    taken = record_line(store, first, lines[1], entry="entry-0001")
    assert taken.entries == {"entry-0001"} and list(taken.lines) == lines[:2]
    again = record_line(store, first, lines[1], entry="entry-0001")  # the same send, at the version it was made
    assert again == taken
    other = record_line(store, taken, lines[2], entry="entry-0002")  # another phone moves on
    late = record_line(store, first, lines[1], entry="entry-0001")  # the first send's answer was lost
    assert late == other and list(late.lines) == lines[:3]
    with pytest.raises(DraftMoved):  # a new entry made against the old version is another matter
        record_line(store, first, lines[1], entry="entry-0003")
    undone = undo_line(store, other)
    assert record_line(store, first, lines[2], entry="entry-0002") == undone  # taken back stays taken back
    stored = read_draft(store, "g-entries")
    assert stored is not None and list(stored.lines) == lines[:2] and stored.version == 4


def test_an_entry_id_is_checked_as_the_draft_events_are(store: Store) -> None:
    from pydantic import ValidationError

    draft = start_draft(store, "g-ids", observed_lines()[0])
    for bad in ("short", "has a space in it", "x" * 65, "semi;colon;id"):
        with pytest.raises(ValidationError):
            record_line(store, draft, observed_lines()[1], entry=bad)
    assert read_draft(store, "g-ids") == draft
