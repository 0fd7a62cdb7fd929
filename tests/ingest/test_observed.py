"""Observed logs in the store (issue 11, point 5): taken like full ones, with the roles
as the round's end turns them up, the gold slot as the reveals show it, each game's
recording, and the referee's notes stored as ``table_incident`` findings. Every test
works on a real DuckDB file, through the ingest as ``saboteur ingest`` runs it."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics import browse
from events.audit import audit
from events.cards import GOLD
from ingest.pipeline import ingest
from ingest.rebuild import rebuild
from ingest.schema import SCHEMA_VERSION
from ingest.store import Store
from ingest.verify import verify
from tests.ingest.conftest import cli, one_line, sql
from tests.ingest.observed_logs import NOTE, NOTED_LINE, noted_round, observed, simulated
from tests.ingest.test_ingest import frame, sort_frame

READING = (("stats", "roles"), ("standings", "sim-open-3"), ("verify",))


def stored(tmp_path: Path, name: str, files: dict[str, str]) -> Path:
    """A new store holding ``files`` (name → text), each accepted."""
    folder = tmp_path / f"{name}-files"
    folder.mkdir()
    for file, text in files.items():
        (folder / file).write_text(text)
    db = tmp_path / f"{name}.duckdb"
    results = ingest([folder], Store(db), workers=1)
    assert {r.outcome for r in results} <= {"accepted", "accepted_with_findings"}, results
    return db


def table(db: Path, name: str) -> pl.DataFrame:
    return sort_frame(frame(db, f"SELECT * FROM {name}"))


def stones_turned_up(log: str) -> dict[int, int]:
    """How many stone goals each round of an observed log turned up."""
    counts: dict[int, int] = {}
    number = 0
    for line in log.splitlines():
        event = json.loads(line)
        if event["type"] == "round_started":
            number = event["round"]
        elif event["type"] == "goal_revealed" and event["card"] != GOLD:
            counts[number] = counts.get(number, 0) + 1
    return counts


@pytest.mark.parametrize(("players", "ruleset", "seed"), [(6, "tournament", 3), (5, "base", 8), (7, "tournament", 15)])
def test_an_observed_log_is_stored_as_its_full_log_is_but_for_what_the_table_cannot_see(
    tmp_path: Path, players: int, ruleset: str, seed: int
) -> None:
    full = simulated(players, ruleset, seed)  # seed 15: a round whose two stones, not its gold, were turned up
    seen = observed(full)
    full_db = stored(tmp_path, "full", {"game.jsonl": full})
    seen_db = stored(tmp_path, "observed", {"game.jsonl": seen})

    games = table(seen_db, "games")
    assert games["recording"].to_list() == ["observed"]
    assert table(full_db, "games")["recording"].to_list() == ["full"]
    assert_frame_equal(games.drop("recording"), table(full_db, "games").drop("recording"))
    # the roles are those the round's end turned up: the same player-rounds, wins and points
    assert_frame_equal(table(seen_db, "round_players"), table(full_db, "round_players"))
    assert_frame_equal(table(seen_db, "findings"), table(full_db, "findings"))

    # the gold slot is known where the gold or both stones were turned up, and only there
    rounds = table(seen_db, "rounds").join(
        table(full_db, "rounds").select("round", dealt="gold_slot"), on="round", how="left"
    )
    stones = stones_turned_up(seen)
    for row in rounds.iter_rows(named=True):
        shown = row["connector"] is not None or stones.get(row["round"], 0) == 2
        assert row["gold_slot"] == (row["dealt"] if shown else None), row
    assert_frame_equal(rounds.drop("gold_slot", "dealt"), table(full_db, "rounds").drop("gold_slot"))

    # every card as the full log has it, the card of a face-down discard unseen
    cards = table(seen_db, "cards_played")
    full_cards = table(full_db, "cards_played")
    assert (
        cards.filter(pl.col("type") == "discard")["card"].null_count()
        == cards.filter(pl.col("type") == "discard").height
    )
    assert cards["role"].null_count() == 0
    assert_frame_equal(
        cards.sort("line").drop("card"),
        full_cards.sort("line").drop("card"),
    )
    played = pl.col("type") != "discard"
    assert_frame_equal(cards.filter(played).sort("line"), full_cards.filter(played).sort("line"))


def test_the_roles_of_a_round_that_has_not_ended_are_unknown(tmp_path: Path) -> None:
    """An observed log turns the roles up at the round's end: a round the log stops in
    has its cards stored without roles (a full log knows them from the deal)."""
    full = simulated(6, "tournament", 4)
    lines = full.splitlines()
    stop = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "round_started" and i > 1)
    cut = "".join(line + "\n" for line in lines[: stop + 12])
    seen_db = stored(tmp_path, "observed", {"game.jsonl": observed(cut)})
    full_db = stored(tmp_path, "full", {"game.jsonl": cut})
    second = "SELECT count(*) FROM cards_played WHERE round = 2 AND role IS NULL"
    first = "SELECT count(*) FROM cards_played WHERE round = 1 AND role IS NULL"
    assert sql(seen_db, second)[0][0] == sql(seen_db, "SELECT count(*) FROM cards_played WHERE round = 2")[0][0] > 0
    assert sql(seen_db, first) == sql(full_db, first) == sql(full_db, second) == [(0,)]
    assert sql(seen_db, "SELECT max(round) FROM round_players") == [(1,)]


def test_a_referee_note_is_stored_as_a_table_incident_finding_at_its_line(tmp_path: Path) -> None:
    log = noted_round()
    db = stored(tmp_path, "noted", {"noted.jsonl": log})
    assert audit(log).status == "violations"
    unnoted = "".join(line + "\n" for line in log.splitlines() if '"referee_note"' not in line)
    assert audit(unnoted).status == "clean"  # R-C1: the note is all the audit finds
    rows = sql(db, "SELECT code, rule, severity, line, round, player, message FROM findings")
    assert rows == [
        (
            "table_incident",
            "R-C1",
            "error",
            NOTED_LINE,
            1,
            "bob",
            f"referee's note: bob showed a hand card: {NOTE}",
        )
    ]  # and no missed draw: the note between ann's pass and her draw changes nothing
    store = Store(db)
    assert "table_incident" in browse.choices(store, None)["codes"]
    listed = browse.rounds(store, browse.RoundQuery(code="table_incident"), 10)
    assert listed.select("game_id", "round", "codes").rows() == [("test:noted", 1, ["table_incident"])]


def test_observed_logs_rebuild_to_the_same_read_models(tmp_path: Path) -> None:
    db = stored(
        tmp_path,
        "mixed",
        {
            "a.jsonl": observed(simulated(7, "tournament", 5)),
            "b.jsonl": simulated(6, "tournament", 6),
            "noted.jsonl": noted_round(),
        },
    )
    assert verify(Store(db)).ok
    names = ("games", "rounds", "round_players", "findings", "cards_played")
    before = {name: table(db, name) for name in names}
    rebuild(Store(db))
    for name in names:
        assert_frame_equal(table(db, name), before[name])
    assert verify(Store(db)).ok


# -- a store written before the observed recording (schema version 2) --------------------


def as_written_by_version_2(db: Path) -> None:
    """Make ``db`` what ``main`` wrote at schema version 2: no recording in ``games``,
    no finding in ``penalties``, every card of ``cards_played`` named (where they all are)."""
    sql(db, "ALTER TABLE games DROP COLUMN recording")
    sql(db, "ALTER TABLE penalties DROP COLUMN finding")
    if sql(db, "SELECT count(*) FROM cards_played WHERE card IS NULL") == [(0,)]:
        sql(db, "ALTER TABLE cards_played ALTER COLUMN card SET NOT NULL")
    sql(db, "UPDATE meta SET value = '2' WHERE key = 'schema_version'")


def test_a_store_of_version_2_is_refused_by_readers_and_upgraded_by_the_next_ingest(
    store_file: Path, tmp_path: Path
) -> None:
    (player,) = sql(store_file, "SELECT min(player) FROM tournament_players")[0]
    penalised = cli(
        "tournament", "penalty", "sim-open-3", player, "--points", "1", "--reason", "late", "--db", store_file
    )
    assert penalised.exit_code == 0, penalised.output
    as_written_by_version_2(store_file)
    for args in READING:
        result = cli(*args, "--db", store_file)
        assert result.exit_code == 2, result.output
        line = one_line(result)
        assert "schema version 2" in line and "older" in line and "saboteur rebuild" in line, line

    new = tmp_path / "observed.jsonl"
    new.write_text(observed(simulated(6, "tournament", 9)))
    result = cli("ingest", new, "--db", store_file, "--workers", "1")
    assert result.exit_code == 0, result.output
    assert sql(store_file, "SELECT value FROM meta WHERE key = 'schema_version'") == [(str(SCHEMA_VERSION),)]
    assert sql(store_file, "SELECT recording, count(*) FROM games GROUP BY ALL ORDER BY ALL") == [
        ("full", 3),
        ("observed", 1),
    ]
    assert sql(store_file, "SELECT finding FROM penalties") == [(None,)]
    assert sql(store_file, "SELECT count(*) > 0 FROM cards_played WHERE card IS NULL") == [(True,)]
    result = cli("verify", "--db", store_file)
    assert result.exit_code == 0, result.output


def test_the_upgrade_reads_each_games_recording_from_its_log(store_file: Path, tmp_path: Path) -> None:
    """A store of version 2 may hold an observed log (one stored between the recording
    and this schema): the upgrade reads its ``game_started``, as a rebuild would."""
    new = tmp_path / "observed.jsonl"
    new.write_text(observed(simulated(6, "tournament", 10)))
    assert cli("ingest", new, "--db", store_file, "--workers", "1").exit_code == 0
    as_written_by_version_2(store_file)
    other = tmp_path / "full.jsonl"
    other.write_text(simulated(5, "tournament", 11))
    assert cli("ingest", other, "--db", store_file, "--workers", "1").exit_code == 0
    assert sql(store_file, "SELECT recording, count(*) FROM games GROUP BY ALL ORDER BY ALL") == [
        ("full", 4),
        ("observed", 1),
    ]
    result = cli("verify", "--db", store_file)
    assert result.exit_code == 0, result.output
