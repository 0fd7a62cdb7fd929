"""The lake (issue 15): the same files through ``saboteur ingest`` and ``saboteur
archive build`` give the same read-model rows and the same statistics; a build run
again writes nothing twice; ``archive verify`` finds what was altered; a store exported
and a simulation written are lakes like any other.

One local Dask cluster (two worker processes) serves the whole module.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics import stats
from analytics.lake import connect
from events.logfile import write_log
from events.simulate.game import quick_game
from events.simulate.mutate import mutate
from events.simulate.tournament import simulate_tournament
from ingest.lake.batch import BatchStore
from ingest.lake.layout import MANIFEST, Lake
from ingest.lake.ledger import Held, Ledger
from ingest.lake.manifest import Entry, SourceFile, committed
from ingest.lake.verify import verify
from ingest.pipeline import ingest
from ingest.readmodels import GAME_TABLES, TOURNAMENT_TABLES
from ingest.store import Append, Store
from tests.ingest.conftest import cli
from tests.ingest.dask_cluster import bare_main, local_cluster
from tests.ingest.test_store_contract import events, upload

COMPARED = (*GAME_TABLES, *TOURNAMENT_TABLES)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The module's cluster: a scheduler and two worker processes, on loopback."""
    with local_cluster() as address:
        yield address


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated tournament (its description, five games) and a file that is no log."""
    root = tmp_path_factory.mktemp("lake-files")
    simulate_tournament(root, players=10, preliminary_rounds=2, seed=3)
    (root / "broken.jsonl").write_bytes(b"not a log\n")
    return root


@pytest.fixture(scope="module")
def store(files: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lake-store") / "ledger.duckdb"
    ingest([files], Store(db), workers=1)
    return db


@pytest.fixture(scope="module")
def lake(files: Path, scheduler: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lake") / "lake"
    result = cli("archive", "build", files, "--to", root, "--scheduler", scheduler, "--batch-files", "2")
    assert result.exit_code == 1, result.output  # broken.jsonl was rejected, as `saboteur ingest` says with 1
    assert "6 accepted, 0 accepted with findings, 1 rejected, 0 duplicate" in result.output, result.output
    assert "4 batches written (7 files, 5 games" in result.output, result.output
    assert "Dask dashboard: http" in result.output
    return root


def _table(con: duckdb.DuckDBPyConnection, table: str, drop: tuple[str, ...] = ()) -> pl.DataFrame:
    return con.sql(f"SELECT * FROM {table} ORDER BY ALL").pl().drop(drop)


def _same_rows(store: Path, lake: Path) -> None:
    """The lake's rows are the store's: every read model, and the uploads (but their
    bytes and the moment each was received)."""
    with Store(store).connect(read_only=True) as stored, connect(str(lake)) as lake_con:
        for table in COMPARED:
            expected = _table(stored, table)
            assert _table(lake_con, table).equals(expected), table
        uploads = ("raw", "received_at")
        assert _table(lake_con, "uploads").drop("received_at").equals(_table(stored, "uploads", uploads))


def test_the_lake_holds_the_rows_the_store_holds(store: Path, lake: Path) -> None:
    _same_rows(store, lake)
    with connect(str(lake)) as lake_con:
        assert lake_con.execute("SELECT count(*) FROM games").fetchone() == (5,)


def test_the_lake_answers_the_statistics_the_store_answers(store: Path, lake: Path) -> None:
    _same_statistics(store, lake)


def _same_statistics(store: Path, lake: Path) -> None:
    """The same figures (a mean may differ in its last bit, DuckDB adding the same
    numbers in another order over the parts than over the table), the same rows (those
    that tie in a statistic's order may come either way, over a store as over a lake)."""
    with Store(store).connect(read_only=True) as stored, connect(str(lake)) as lake_con:
        assert_frame_equal(
            stats.role_win_rates(lake_con), stats.role_win_rates(stored), rel_tol=1e-12, check_row_order=False
        )
        # exactly, in the same order: players level on wins over expected kept their order
        # by id (a float sum in another order differed in its last bits, and they swapped)
        assert_frame_equal(stats.player_stats(lake_con), stats.player_stats(stored), check_exact=True)
        assert stats.observed_rounds(lake_con) == stats.observed_rounds(stored)
        from_lake, from_store = stats.round_tables(lake_con), stats.round_tables(stored)
        assert from_lake.keys() == from_store.keys()
        for name, frame in from_store.items():
            assert_frame_equal(from_lake[name], frame, rel_tol=1e-12, check_row_order=False)


@pytest.mark.parametrize("command", [["roles"], ["players"], ["games"]])
def test_stats_over_a_lake_print_the_tables_of_the_store(store: Path, lake: Path, command: list[str]) -> None:
    over_store = cli("stats", *command, "--db", store)
    over_lake = cli("stats", *command, "--lake", lake)
    assert over_store.exit_code == over_lake.exit_code == 0, over_lake.output
    assert _lines(over_lake.output) == _lines(over_store.output)


def _lines(output: str) -> list[str]:
    """A command's lines in order: rows that tie in a table's order may come either way."""
    return sorted(output.splitlines())


def test_a_build_run_again_writes_nothing(files: Path, lake: Path, scheduler: str) -> None:
    before = sorted(p.relative_to(lake) for p in lake.rglob("*"))
    result = cli("archive", "build", files, "--to", lake, "--scheduler", scheduler, "--batch-files", "2")
    assert result.exit_code == 0, result.output
    assert "0 batches written" in result.output and "4 already committed" in result.output
    assert sorted(p.relative_to(lake) for p in lake.rglob("*")) == before


def test_a_build_counts_each_outcome_and_exits_1_on_a_file_rejected(
    files: Path, scheduler: str, tmp_path: Path
) -> None:
    """One batch: a game, the same game again, a game with a finding, a file that is no
    log (named, with why)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    game = (files / "r1-t1.jsonl").read_text()
    (logs / "a.jsonl").write_text(game)
    (logs / "b.jsonl").write_text(game)
    wrong = mutate((files / "r1-t2.jsonl").read_text().splitlines(), "mis_score", seed=1)
    assert wrong is not None
    (logs / "c.jsonl").write_text("".join(line + "\n" for line in wrong.lines))
    shutil.copy(files / "broken.jsonl", logs / "d.jsonl")
    result = cli("archive", "build", logs, "--to", tmp_path / "lake", "--scheduler", scheduler)
    assert result.exit_code == 1, result.output
    assert "1 accepted, 1 accepted with findings, 1 rejected, 1 duplicate" in result.output, result.output
    # the file rejected named with why, as ingest names it (a count alone said neither)
    said = " ".join(result.output.split())
    assert f"rejected {logs / 'd.jsonl'}: the first line is not a valid game_started" in said, result.output
    (logs / "d.jsonl").unlink()
    clean = cli("archive", "build", logs, "--to", tmp_path / "clean", "--scheduler", scheduler)
    assert clean.exit_code == 0, clean.output
    assert "1 accepted, 1 accepted with findings, 0 rejected, 1 duplicate" in clean.output, clean.output


@pytest.fixture(scope="module")
def twice(files: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's files, and files that meet them again in other batches: the same
    contents under other names in another folder (a game, the tournament's description,
    the file that is no log), other files for a game and for the tournament stored
    already (a log scored otherwise, the description written anew), and one such file
    listed before the game's own (it is stored; the game's own file is not)."""
    root = Path(shutil.copytree(files, tmp_path_factory.mktemp("lake-twice") / "logs"))
    later = root / "zz-later"
    later.mkdir()
    for name in ("r1-t1.jsonl", "tournament.json", "broken.jsonl"):
        shutil.copy(files / name, later / f"again-{name}")
    for name, where in (("r2-t1.jsonl", later / "other-r2-t1.jsonl"), ("r1-t2.jsonl", root / "a-first-r1-t2.jsonl")):
        wrong = mutate((files / name).read_text().splitlines(), "mis_score", seed=1)
        assert wrong is not None
        where.write_text("".join(line + "\n" for line in wrong.lines))
    description = json.loads((files / "tournament.json").read_text())
    (later / "other-tournament.json").write_text(json.dumps(description, indent=4))
    return root


ALREADY_STORED = "is already stored; to replace it, ingest again with --supersede"


def test_files_met_again_in_other_batches_are_decided_as_ingest_decides_them(
    twice: Path, scheduler: str, tmp_path: Path
) -> None:
    """Each file its own batch, the batches run side by side on two workers: the
    lake's rows are the store's, every game once."""
    db = tmp_path / "ledger.duckdb"
    results = ingest([twice], Store(db), workers=1)
    lake = tmp_path / "lake"
    built = cli("archive", "build", twice, "--to", lake, "--scheduler", scheduler, "--batch-files", "1")
    assert built.exit_code == 1, built.output
    # the build has no --supersede to offer: it says why the lake keeps what it took
    told = " ".join(built.output.split())
    assert "is already in the lake, which keeps the first version of a game it took" in told, built.output
    assert "--supersede" not in told
    # the file that is no log, met again, is rejected again (a content rejected is never a duplicate)
    assert "5 accepted, 1 accepted with findings, 5 rejected, 2 duplicate" in built.output, built.output
    assert Counter(r.outcome for r in results) == {
        "accepted": 5,
        "accepted_with_findings": 1,
        "rejected": 5,
        "duplicate": 2,
    }
    _same_rows(db, lake)
    _same_statistics(db, lake)
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok and verdict.games == 5 and verdict.batches == 13, verdict.problems
    with connect(str(lake)) as con, Store(db).connect(read_only=True) as stored:
        events = "SELECT count(*), count(DISTINCT (stream, version)) FROM events"
        ((count, distinct),) = con.execute(events).fetchall()
        assert stored.execute(events).fetchall() == [(count, distinct)] and count == distinct
        rejected = con.execute(
            "SELECT name, reason FROM uploads WHERE outcome = 'rejected' AND reason LIKE '%already stored%' ORDER BY 1"
        ).fetchall()
        duplicates = con.execute(
            "SELECT d.name, o.name FROM uploads d JOIN uploads o ON d.duplicate_of = o.upload_id ORDER BY 1"
        ).fetchall()
    assert sorted(name.rsplit("/", 1)[-1] for name, _ in rejected) == [
        "other-r2-t1.jsonl",
        "other-tournament.json",
        "r1-t2.jsonl",
    ]
    assert all(ALREADY_STORED in reason for _, reason in rejected)
    assert sorted((d.rsplit("/", 1)[-1], o.rsplit("/", 1)[-1]) for d, o in duplicates) == [
        ("again-r1-t1.jsonl", "r1-t1.jsonl"),
        ("again-tournament.json", "tournament.json"),
    ]


def test_the_ledger_tells_a_batch_what_came_before_it_and_nothing_after() -> None:
    """Each content's first upload (a duplicate is none), each stream's version and
    newest upload; of the keys asked, those of uploads numbered below the batch's."""

    def file(upload_id: int, sha: str, outcome: str, **streams: int) -> SourceFile:
        return SourceFile(
            name=f"{upload_id}.jsonl", sha256=sha, size=1, upload_id=upload_id, outcome=outcome, streams=streams
        )

    ledger = Ledger()
    ledger.record(
        [
            file(1, "s1", "rejected"),
            file(2, "s2", "accepted", g=9),
            file(3, "s2", "duplicate"),
            file(7, "s3", "accepted_with_findings", h=4),
        ]
    )
    held = ledger.before(5, ["s1", "s2", "s3", "g", "h", "s9"])
    assert held == Held({"s1": (1, "rejected"), "s2": (2, "accepted")}, {"g": (9, 2)})
    assert ledger.before(8, ["s3", "h"]) == Held({"s3": (7, "accepted_with_findings")}, {"h": (4, 7)})


def test_a_folder_built_again_under_another_name_is_all_duplicate_but_the_file_rejected(
    files: Path, store: Path, lake: Path, scheduler: str, tmp_path: Path
) -> None:
    """A second build into the lake, of the module's files copied: numbered on from the
    first build's uploads, every file stored a duplicate of the one that stored it, and
    the file that is no log rejected again, as a second ingest into the store says."""
    copy = Path(shutil.copytree(files, tmp_path / "copy"))
    target = Path(shutil.copytree(lake, tmp_path / "lake"))
    result = cli("archive", "build", copy, "--to", target, "--scheduler", scheduler, "--batch-files", "2")
    assert result.exit_code == 1, result.output
    assert "0 accepted, 0 accepted with findings, 1 rejected, 6 duplicate" in result.output, result.output
    assert "4 batches written (7 files, 0 games, 0 events), 0 already committed" in result.output, result.output
    again = Path(shutil.copy(store, tmp_path / "ledger.duckdb"))
    assert {r.outcome for r in ingest([copy], Store(again), workers=1)} == {"duplicate", "rejected"}
    _same_rows(again, target)
    _same_statistics(again, target)
    verdict = verify(Lake.at(str(target)))
    assert verdict.ok and verdict.games == 5 and verdict.batches == 8, verdict.problems


def test_verify_passes_a_whole_lake(lake: Path) -> None:
    result = cli("archive", "verify", lake)
    assert result.exit_code == 0, result.output
    assert "4 batches" in result.output and "5 games" in result.output and "ok" in result.output


def _with_games(lake: Path) -> list[Entry]:
    """The lake's batches that hold games, in key order."""
    entries = sorted(committed(Lake.at(str(lake))).values(), key=lambda e: e.batch)
    return [e for e in entries if any(p.dataset == "games" for p in e.parts)]


def test_verify_finds_a_part_altered_missing_or_a_game_twice(lake: Path, tmp_path: Path) -> None:
    copy = Path(shutil.copytree(lake, tmp_path / "lake"))
    first, second = _with_games(copy)[:2]
    altered = copy / first.parts[0].path
    altered.write_bytes(altered.read_bytes()[:-1] + b"\0")
    (copy / second.parts[0].path).unlink()
    twice = json.loads((copy / MANIFEST / f"{first.batch}.json").read_text())
    twice["batch"] = "a-copy"
    (copy / MANIFEST / "a-copy.json").write_text(json.dumps(twice))
    problems = verify(Lake.at(str(copy))).problems
    assert any("altered" in p and first.parts[0].path in p for p in problems), problems
    assert any(p.endswith(f"{second.parts[0].path}: missing") for p in problems), problems
    assert any("in the lake 2 times" in p for p in problems), problems
    assert cli("archive", "verify", copy).exit_code == 1


def test_a_part_no_entry_names_is_not_read(lake: Path, tmp_path: Path) -> None:
    """A batch cut short after its parts and before its entry: as if it never ran."""
    copy = Path(shutil.copytree(lake, tmp_path / "lake"))
    entry = _with_games(copy)[0]
    (copy / MANIFEST / f"{entry.batch}.json").unlink()
    verdict = verify(Lake.at(str(copy)))
    assert verdict.ok and verdict.batches == 3
    assert set(verdict.uncommitted) == {p.path for p in entry.parts}
    with connect(str(copy)) as con, connect(str(lake)) as whole:
        games = "SELECT count(*) FROM games"
        assert con.execute(games).fetchone()[0] < whole.execute(games).fetchone()[0]  # type: ignore[index]


def test_a_store_exported_is_a_lake_with_its_head(store: Path, tmp_path: Path) -> None:
    target = tmp_path / "exported"
    result = cli("archive", "export", "--db", store, "--to", target)
    assert result.exit_code == 0, result.output
    with Store(store).connect(read_only=True) as con:
        position, head = Store(store).head(con)
    (entry,) = committed(Lake.at(str(target))).values()
    assert (entry.head_position, entry.head_hash) == (position, head)
    assert cli("archive", "verify", target).exit_code == 0
    over_store = cli("stats", "players", "--db", store)
    assert _lines(cli("stats", "players", "--lake", target).output) == _lines(over_store.output)
    assert cli("archive", "export", "--db", store, "--to", target).exit_code == 0
    assert len(committed(Lake.at(str(target)))) == 1, "the same store exported again is the same batch"


def test_a_store_is_never_exported_into_a_lake_holding_other_batches(store: Path, lake: Path, tmp_path: Path) -> None:
    """A store is exported whole: into a lake a build filled with some of its games,
    every game both held stood in it twice (and the rates with them), exit 0."""
    target = tmp_path / "built"
    shutil.copytree(lake, target)
    before = committed(Lake.at(str(target)))
    result = cli("archive", "export", "--db", store, "--to", target)
    assert result.exit_code == 1, result.output
    assert f"the lake holds {len(before)} batches already" in result.output
    assert committed(Lake.at(str(target))).keys() == before.keys()
    assert cli("archive", "verify", target).exit_code == 0


def test_a_listing_grown_since_its_build_adds_its_new_files_after_the_lake_s(
    files: Path, lake: Path, scheduler: str, tmp_path: Path
) -> None:
    """The module's files and a new game after them: the batches built before are
    skipped, the last one is a new batch (the last file again, now a duplicate, and the
    new game), numbered after every upload of the lake."""
    target = Path(shutil.copytree(lake, tmp_path / "lake"))
    write_log(quick_game(6, "tournament", 2, 99), tmp_path / "new.jsonl")
    built = cli(
        "archive",
        "build",
        files,
        tmp_path / "new.jsonl",
        "--to",
        target,
        "--scheduler",
        scheduler,
        "--batch-files",
        "2",
    )
    assert built.exit_code == 0, built.output
    assert "1 batch written (2 files, 1 game," in built.output and "3 already committed" in built.output, built.output
    assert "1 accepted, 0 accepted with findings, 0 rejected, 1 duplicate" in built.output, built.output
    verdict = verify(Lake.at(str(target)))
    assert verdict.ok and verdict.games == 6, verdict.problems
    with connect(str(target)) as con:
        uploads = con.execute("SELECT upload_id, outcome, duplicate_of FROM uploads ORDER BY upload_id").fetchall()
    assert [u for u, _, _ in uploads] == [*range(1, 8), 14, 15]
    assert uploads[-2:] == [(14, "duplicate", 7), (15, "accepted", None)]


def test_a_file_written_anew_at_the_same_size_is_built_again_not_skipped(
    files: Path, lake: Path, scheduler: str, tmp_path: Path
) -> None:
    """A log corrected in place (a game id fixed, one letter for another): batches were
    keyed by their files' names and sizes, so its batch counted as committed and the
    new game was never stored, where ``saboteur ingest`` stores it. The time each file
    was last written is in the key now: its batch is built again, as ingest would."""
    target = Path(shutil.copytree(lake, tmp_path / "lake"))
    log = next(p for p in sorted(files.glob("r*.jsonl")))
    text = log.read_text(encoding="utf-8")
    game = json.loads(text.splitlines()[0])["game_id"]
    fixed = game[:-1] + ("x" if game[-1] != "x" else "y")
    changed = files / log.name
    original = changed.read_bytes(), changed.stat()
    try:
        changed.write_text(text.replace(game, fixed), encoding="utf-8")
        os.utime(changed, ns=(original[1].st_atime_ns, original[1].st_mtime_ns + 10**9))
        assert changed.stat().st_size == original[1].st_size
        built = cli("archive", "build", files, "--to", target, "--scheduler", scheduler, "--batch-files", "2")
    finally:
        changed.write_bytes(original[0])
        os.utime(changed, ns=(original[1].st_atime_ns, original[1].st_mtime_ns))
    assert "1 batch written" in built.output and "3 already committed" in built.output, built.output
    assert "1 accepted, 0 accepted with findings" in built.output, built.output  # the corrected game, stored
    with connect(str(target)) as con:
        stored = {g for (g,) in con.execute("SELECT game_id FROM games").fetchall()}
    assert fixed in stored and game in stored
    assert verify(Lake.at(str(target))).ok


def test_files_built_into_a_store_s_export_are_what_the_store_holds_already(
    files: Path, store: Path, scheduler: str, tmp_path: Path
) -> None:
    target = tmp_path / "exported"
    assert cli("archive", "export", "--db", store, "--to", target).exit_code == 0
    built = cli("archive", "build", files, "--to", target, "--scheduler", scheduler, "--batch-files", "3")
    assert built.exit_code == 1, built.output  # the file that is no log is rejected again
    assert "0 accepted, 0 accepted with findings, 1 rejected, 6 duplicate" in built.output, built.output
    again = Path(shutil.copy(store, tmp_path / "ledger.duckdb"))
    ingest([files], Store(again), workers=1)
    _same_rows(again, target)
    assert verify(Lake.at(str(target))).ok


def test_files_built_into_the_export_of_a_store_with_a_tournament_created_by_command(
    files: Path, scheduler: str, tmp_path: Path
) -> None:
    """The tournament's stream came in no file: the lake knows it from the export's
    entry, and rejects the tournament's description as the store does."""
    db = tmp_path / "ledger.duckdb"
    tournament = json.loads((files / "tournament.json").read_text())["id"]
    assert cli("tournament", "create", tournament, "--name", "Open", "--db", db).exit_code == 0
    target = tmp_path / "exported"
    assert cli("archive", "export", "--db", db, "--to", target).exit_code == 0
    built = cli("archive", "build", files, "--to", target, "--scheduler", scheduler, "--batch-files", "3")
    assert built.exit_code == 1, built.output
    assert "5 accepted, 0 accepted with findings, 2 rejected, 0 duplicate" in built.output, built.output
    results = ingest([files], Store(db), workers=1)
    assert [r.outcome for r in results].count("rejected") == 2
    _same_rows(db, target)
    with connect(str(target)) as con:
        (reason,) = con.execute("SELECT reason FROM uploads WHERE name LIKE '%tournament.json'").fetchone()  # type: ignore[misc]
    assert reason.startswith(f"{tournament} {ALREADY_STORED}"), reason


def test_a_builds_seconds_are_written_as_its_language_writes_them(scheduler: str, tmp_path: Path) -> None:
    """The seconds a build took had an English decimal point in every language ("1
    Stapel geschrieben … 1.0 s"), beside counts and rates each language writes its way."""
    for lang, seconds in (("en", r"\d\.\d s"), ("de", r"\d,\d s")):
        target = tmp_path / lang
        with bare_main():
            result = cli(
                "archive", "simulate", "--games", "2", "--to", target, "--scheduler", scheduler, f"--lang={lang}"
            )
        assert result.exit_code == 0, result.output
        assert re.search(f"; {seconds}", result.output), result.output


def test_the_same_simulation_writes_the_same_lake(scheduler: str, tmp_path: Path) -> None:
    """On the module's cluster, then on a local one the command starts itself."""
    written = []
    for name, cluster in (("one", ["--scheduler", scheduler]), ("two", ["--workers", "1"])):
        target = tmp_path / name
        with bare_main():
            result = cli("archive", "simulate", "--games", "6", "--batch-games", "4", "--to", target, *cluster)
        assert result.exit_code == 0, result.output
        assert "2 batches written (6 files, 6 games" in result.output, result.output
        written.append({p.relative_to(target): p.read_bytes() for p in target.rglob("*") if p.is_file()})
    assert written[0] == written[1]
    assert cli("archive", "verify", tmp_path / "one").exit_code == 0
    with connect(str(tmp_path / "one")) as con:
        sizes = con.execute("SELECT DISTINCT players FROM games ORDER BY players").fetchall()
    assert [n for (n,) in sizes] == [5, 6, 7, 8, 9, 10]


def test_a_batch_store_in_memory_makes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch's store lives in memory (``:memory:batch…``): the hold other processes see
    on a store file (``ingest.gate.FileHold``) made a ``:memory:batch….lock`` file in the
    working folder for every batch of a build."""
    monkeypatch.chdir(tmp_path)
    store = BatchStore(first_upload=1)
    with store.connect() as con:
        store.append(con, "game:b", 0, events("game:b", "game_started"), rows={})
    assert list(tmp_path.iterdir()) == []


def test_a_batch_store_reads_the_versions_of_a_stream_held_from_before_it() -> None:
    """A batch's store holds no first event of a stream an earlier batch began: its
    versions come from what is held until the batch appends to it, then from the store."""
    store = BatchStore(first_upload=5, held=Held(streams={"game:a": (3, 2)}))
    with store.connect() as con:
        assert store.stream_versions(con, ["game:a", "game:b"]) == {"game:a": (3, 2)}
        store.append_batch(
            con,
            [Append("game:a", 3, events("game:a", "game_superseded"), upload_id=5)],
            rows={},
            uploads=[upload(5, "a.jsonl")],
        )
        store.append(con, "game:b", 0, events("game:b", "game_started"), rows={})
        assert store.stream_versions(con, ["game:a", "game:b", "game:c"]) == {"game:a": (4, 5), "game:b": (1, 0)}


def test_a_batch_of_many_events_is_written_as_several_parts_of_one_chain(
    files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch's events are made and written a part at a time (a batch of four 16 MiB
    logs took a Dask worker past 2 GiB as one table): the parts hold, in order, the
    rows and the one chain that one part would, and the lake verifies."""
    import pyarrow.parquet as pq

    import ingest.lake.batch
    from ingest.lake.batch import write_batch
    from ingest.sources import prepare

    at = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    sources = sorted(files.glob("*.jsonl"))

    def built(name: str) -> tuple[Entry, pl.DataFrame]:
        lake = Lake.at(str(tmp_path / name))
        entry = write_batch(lake, "batch", [prepare(p) for p in sources], first_upload=1, at=at)
        assert verify(lake).problems == []
        parts = [pq.read_table(tmp_path / name / p.path) for p in entry.parts if p.dataset == "events"]
        return entry, pl.concat([pl.from_arrow(t) for t in parts])  # type: ignore[misc]

    whole, one = built("one-part")
    monkeypatch.setattr(ingest.lake.batch, "PART_EVENTS", 100)
    split, many = built("parts")
    assert len([p for p in whole.parts if p.dataset == "events"]) == 1
    assert len([p for p in split.parts if p.dataset == "events"]) == -(-whole.events // 100) > 1
    assert_frame_equal(many, one)
    assert (split.events, split.head_position, split.head_hash) == (whole.events, whole.head_position, whole.head_hash)


def test_a_listing_is_cut_by_bytes_as_well_as_by_files_and_small_files_keep_their_batches() -> None:
    """A batch is written through a store in its worker's memory: four 16 MiB logs in one
    batch took that worker to 669 MiB. A batch stops before the file that would take it
    past :data:`~ingest.lake.build.BATCH_BYTES`; a listing of small games is cut every
    64 files as before, so a lake built from it keeps its batches' keys."""
    from ingest.lake.batch import batch_key
    from ingest.lake.build import BATCH_BYTES, BATCH_FILES, plan

    at = datetime(2026, 12, 4, tzinfo=UTC)
    small = [(f"g{i:03}.jsonl", 30_000) for i in range(130)]
    batches = plan(small, at)
    assert [len(b.sources) for b in batches] == [64, 64, 2]
    chunks = [small[start : start + BATCH_FILES] for start in range(0, len(small), BATCH_FILES)]
    old_keys = [batch_key("files", i * BATCH_FILES, *(f"{n}|{s}" for n, s in c)) for i, c in enumerate(chunks)]
    assert [b.key for b in batches] == old_keys
    big = BATCH_BYTES * 5 // 8
    large = [("a.jsonl", big), ("b.jsonl", big), ("c.jsonl", 10), ("d.jsonl", -1), ("e.jsonl", BATCH_BYTES + 1)]
    cut = plan(large, at)
    assert [b.sources for b in cut] == [("a.jsonl",), ("b.jsonl", "c.jsonl", "d.jsonl"), ("e.jsonl",)]
    assert [b.first_upload for b in cut] == [1, 2, 5]
    assert [b.bytes for b in cut] == [big, big + 10, BATCH_BYTES + 1]  # a size unknown (-1) counts 0


def test_archive_build_cuts_batches_at_batch_mib(scheduler: str, tmp_path: Path) -> None:
    """Two logs of 0.7 MiB each, with ``--batch-mib 1``: a batch each, though 64 files fit."""
    from events.builder import LogBuilder

    logs = tmp_path / "logs"
    logs.mkdir()
    for index in range(2):
        log = LogBuilder(players=3, ruleset="base", game_id=f"mib:{index}").deal(start="ann")
        head = "".join(line + "\n" for line in log.lines)
        (logs / f"draws-{index}.jsonl").write_text(head + '{"type":"draw","player":"ann","card":"map"}\n' * 16_000)
    result = cli("archive", "build", logs, "--to", tmp_path / "lake", "--scheduler", scheduler, "--batch-mib", "1")
    assert "2 batches written (2 files" in result.output, result.output


def test_a_simulation_by_strong_bots_is_other_batches_and_other_games(scheduler: str, tmp_path: Path) -> None:
    """A study keeps basic and strong games side by side: the lineup is in the batches'
    keys and the games' ids, so a second run with other bots adds, and overwrites nothing."""
    target = tmp_path / "study"
    for bots in ("basic", "strong", "strong"):
        with bare_main():
            result = cli(
                "archive", "simulate", "--games", "3", "--to", target, "--bots", bots, "--scheduler", scheduler
            )
        assert result.exit_code == 0, result.output
    assert "0 batches written" in result.output and "1 already committed" in result.output, result.output
    with connect(str(target)) as con:
        ids = [i for (i,) in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
    assert ids == [f"sim-1-{number:09d}" for number in range(3)] + [f"sim-1-strong-{number:09d}" for number in range(3)]
    assert cli("archive", "verify", target).exit_code == 0


def test_a_second_simulation_on_a_lake_takes_upload_numbers_no_run_took(scheduler: str, tmp_path: Path) -> None:
    """Issue 34: upload numbers are unique within a lake: a second ``archive simulate``
    (another seed) numbers its games after the first's, and the first run again keeps
    its own numbers (it writes nothing: its batches are committed)."""
    target = tmp_path / "lake"
    for seed in ("1", "2", "1"):
        with bare_main():
            result = cli(
                "archive",
                "simulate",
                "--games",
                "5",
                "--batch-games",
                "3",
                "--seed",
                seed,
                "--to",
                target,
                "--scheduler",
                scheduler,
            )
        assert result.exit_code == 0, result.output
    assert "0 batches written" in result.output, result.output
    with connect(str(target)) as con:
        uploads = con.execute("SELECT upload_id FROM uploads ORDER BY upload_id").fetchall()
        games = con.execute("SELECT game_id, upload_id FROM games ORDER BY upload_id").fetchall()
    assert [u for (u,) in uploads] == list(range(1, 11))  # ten games, ten numbers, none twice
    assert [g for g, _ in games[:5]] == [f"sim-1-{n:09d}" for n in range(5)]
    assert [g for g, _ in games[5:]] == [f"sim-2-{n:09d}" for n in range(5)]
    assert cli("archive", "verify", target).exit_code == 0


def test_a_simulation_grown_on_a_lake_stores_each_game_once(scheduler: str, tmp_path: Path) -> None:
    """A balance study grown by a second, larger run (or the same games cut into other
    batches) met its first games again under their ids: they were stored twice and
    every rate skewed. A game is the same whatever batch draws it, so they are the same
    games, rejected as stored before (as ``ingest`` rejects them), and the grown lake
    holds the games a lake of the larger run alone holds."""
    grown, alone = tmp_path / "grown", tmp_path / "alone"
    for games, batch, target in (("3", "3", grown), ("6", "2", grown), ("6", "2", alone)):
        with bare_main():
            result = cli(
                "archive",
                "simulate",
                "--games",
                games,
                "--batch-games",
                batch,
                "--to",
                target,
                "--scheduler",
                scheduler,
            )
        assert result.exit_code == 0, result.output
    with connect(str(grown)) as con:
        ids = [i for (i,) in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
        outcomes = con.execute("SELECT outcome, count(*) FROM uploads GROUP BY ALL ORDER BY ALL").fetchall()
    assert ids == [f"sim-1-{n:09d}" for n in range(6)]
    assert outcomes == [("accepted", 6), ("rejected", 3)]
    assert cli("archive", "verify", grown).exit_code == 0
    held = []
    for target in (grown, alone):
        with connect(str(target)) as con:
            held.append(con.execute("SELECT game_id, round, winner, connector FROM rounds ORDER BY ALL").fetchall())
    assert held[0] == held[1]


def test_a_lake_made_before_streams_is_brought_up_to_date_by_the_next_build(
    files: Path, scheduler: str, tmp_path: Path
) -> None:
    """Issue 34: a lake whose entries name no file's streams (written before they existed)
    would let a game in twice; the next ``archive build`` reads them again from the
    batches' own events, writes the entries anew, and refuses the game met again."""
    target = tmp_path / "lake"
    first = cli("archive", "build", files, "--to", target, "--scheduler", scheduler, "--batch-files", "2")
    assert first.exit_code == 1, first.output
    entries = sorted((target / "_manifest").glob("*.json"))
    before = {p.name: json.loads(p.read_text()) for p in entries}
    for path in entries:  # as a lake of before: no streams anywhere
        data = json.loads(path.read_text())
        data.pop("streams", None)
        for file in data["files"]:
            file.pop("streams", None)
        path.write_text(json.dumps(data))
    again = tmp_path / "again"
    again.mkdir()
    game = next(p for p in sorted(files.glob("*.jsonl")) if p.name != "broken.jsonl")
    (again / game.name).write_bytes(game.read_bytes() + b"\n")  # the same game, other bytes: not a duplicate
    result = cli("archive", "build", again, "--to", target, "--scheduler", scheduler)
    said = " ".join(result.output.split())
    assert "batches written before the manifest named each file's streams: brought up to date" in said, said
    assert "0 accepted, 0 accepted with findings, 1 rejected, 0 duplicate" in said, said
    after = {p.name: json.loads(p.read_text()) for p in sorted((target / "_manifest").glob("*.json"))}
    assert {name: after[name] for name in before} == before  # read again, the same as they were written
    assert cli("archive", "verify", target).exit_code == 0


def test_a_mistyped_lake_is_refused_not_read_as_an_empty_one(tmp_path: Path) -> None:
    """A path with no lake at it said "ok" to ``archive verify``, "nothing to show" to
    every statistic, and ``archive compact`` made the folder."""
    missing = tmp_path / "lakee"
    for command in (
        ("archive", "verify", missing),
        ("archive", "compact", missing),
        ("stats", "roles", "--lake", missing),
    ):
        result = cli(*command)
        assert result.exit_code == 2, (command, result.output)
        assert "no lake here (no _manifest folder)" in result.output, result.output
    assert not missing.exists()


def test_a_part_gone_since_its_batch_is_one_line_for_the_statistics(lake: Path, tmp_path: Path) -> None:
    """A part its batch names, deleted or cut short since: the statistics over the lake
    came out as an 84-line traceback, and the dashboard's page as an error with the
    server's paths. One line now, pointing at ``archive verify``; so is a part whose
    Parquet metadata no longer decodes (DuckDB's bare ``Error``: an 87-line traceback)."""
    for damage in ("deleted", "cut short", "garbled"):
        target = tmp_path / damage.replace(" ", "-")
        shutil.copytree(lake, target)
        part = sorted((target / "rounds").glob("*.parquet"))[0]
        if damage == "deleted":
            part.unlink()
        elif damage == "cut short":
            part.write_bytes(part.read_bytes()[:100])
        else:
            part.write_bytes(_garbled(part.read_bytes()))
        result = cli("stats", "roles", "--lake", target)
        assert result.exit_code == 2, result.output
        assert "a part of the lake cannot be read" in result.output and "archive verify" in result.output
        assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("lang", "strays", "said"),
    [
        ("en", 1, "1 part no batch commits"),
        ("en", 2, "2 parts no batch commits"),
        ("nl", 1, "1 deel dat geen batch vastlegt"),
        ("de", 1, "1 Teil, den kein Stapel festschreibt"),
        ("nb", 2, "2 deler som ingen parti lagrer"),
    ],
)
def test_verify_counts_the_parts_no_batch_commits_in_the_count_s_form(
    lake: Path, tmp_path: Path, lang: str, strays: int, said: str
) -> None:
    """Verify said "1 parts no batch commits": its one count said in the plural
    whatever it was."""
    target = tmp_path / "lake"
    shutil.copytree(lake, target)
    part = sorted((target / "games").glob("*.parquet"))[0]
    for stray in range(strays):
        (target / "games" / f"part-{stray:064x}.parquet").write_bytes(part.read_bytes())
    result = cli("--lang", lang, "archive", "verify", target)
    assert result.exit_code == 0, result.output
    assert said in " ".join(result.output.split()), result.output


def _garbled(data: bytes) -> bytes:
    """A Parquet file's bytes with the first half of its footer's metadata overwritten
    (the footer's length, then ``PAR1``, end the file): DuckDB's Thrift reader cannot
    decode it ("don't know what type")."""
    length = int.from_bytes(data[-8:-4], "little")
    start = len(data) - 8 - length
    return data[:start] + b"\xff" * (length // 2) + data[start + length // 2 :]


def test_a_dangling_link_or_a_fifo_in_a_folder_is_rejected_as_ingest_rejects_it(
    files: Path, scheduler: str, tmp_path: Path
) -> None:
    """``ingest`` rejects every entry of a folder but a folder, with its reason; the
    build passed a dangling link and a FIFO over unsaid, and its uploads' numbers then
    no longer matched the store's."""
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(files / "r1-t1.jsonl", logs / "good.jsonl")
    (logs / "broken.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    os.mkfifo(logs / "pipe.jsonl")
    result = cli("archive", "build", logs, "--to", tmp_path / "lake", "--scheduler", scheduler)
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "1 accepted, 0 accepted with findings, 2 rejected, 0 duplicate" in said, result.output
    assert f"rejected {logs / 'pipe.jsonl'}: cannot read the file: not a regular file" in said, result.output
    assert f"rejected {logs / 'broken.jsonl'}: cannot read the file" in said, result.output
    store = tmp_path / "s.duckdb"
    assert cli("ingest", logs, "--db", store, "--workers", "1").exit_code == 1
    with connect(str(tmp_path / "lake")) as con:
        lake_rows = con.execute("SELECT upload_id, name, outcome FROM uploads ORDER BY upload_id").fetchall()
    with duckdb.connect(str(store), read_only=True) as con:
        store_rows = con.execute("SELECT upload_id, name, outcome FROM uploads ORDER BY upload_id").fetchall()
    assert lake_rows == store_rows


def test_a_scheduler_that_cannot_be_reached_is_one_line(tmp_path: Path) -> None:
    """An address that is none (or a scheduler that is down) came out as a 232-line
    traceback after 30 s."""
    result = cli("archive", "simulate", "--games", "2", "--to", tmp_path / "lake", "--scheduler", "nonsense")
    assert result.exit_code == 2, result.output
    assert "cannot reach the Dask scheduler at nonsense: missing port number" in result.output
    assert "Traceback" not in result.output
