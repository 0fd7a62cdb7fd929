"""``saboteur archive compact`` (issue 34): a lake of many small parts rewritten into a
few large files with the same rows; ``archive verify`` and every statistic the same
before and after; the switch made by one record written whole, so a compaction cut
short at any point leaves a lake that reads and verifies as before; an altered
compacted file found.

The lake is simulated in this process, batch by batch (no cluster): six batches of
two games, each batch a part per dataset.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics import stats
from analytics.lake import connect
from ingest.lake import compact as compaction
from ingest.lake.compact import COMPACTIONS, compact, placement
from ingest.lake.layout import DATASETS, Lake
from ingest.lake.lock import holding
from ingest.lake.manifest import committed
from ingest.lake.simulate import run_simulation, simulations
from ingest.lake.verify import LakeVerdict, verify
from tests.ingest.conftest import cli


def _simulate(url: str, games: int, seed: int) -> None:
    lake = Lake.at(url)
    for job in simulations(games, seed=seed, ruleset="base", rounds=1, batch_games=2, entries=committed(lake)):
        run_simulation(url, job)


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("season") / "lake"
    _simulate(str(root), 12, seed=5)
    return root


@pytest.fixture
def lake(season: Path, tmp_path: Path) -> Path:
    """This test's copy of the season's lake."""
    return Path(shutil.copytree(season, tmp_path / "lake"))


def _parquet_files(root: Path) -> list[Path]:
    return sorted(p for dataset in DATASETS for p in (root / dataset).glob("*.parquet"))


def _figures(root: Path) -> dict[str, Any]:
    """What a reader of the lake gets: every dataset's rows, and the statistics."""
    with connect(str(root)) as con:
        rows = {d: con.sql(f"SELECT * FROM {d} ORDER BY ALL").pl() for d in DATASETS}
        figures: dict[str, pl.DataFrame] = {
            "roles": stats.role_win_rates(con),
            "players": stats.player_stats(con),
            **stats.round_tables(con),
        }
    return {"rows": rows, "stats": figures}


def _same(before: dict[str, Any], after: dict[str, Any]) -> None:
    for kind in ("rows", "stats"):
        assert before[kind].keys() == after[kind].keys()
        for name, frame in before[kind].items():
            assert_frame_equal(frame, after[kind][name], check_exact=True, check_row_order=True)


def _counts(verdict: LakeVerdict) -> tuple[int, int, int, bool]:
    return verdict.batches, verdict.games, verdict.events, verdict.ok


def test_a_compacted_lake_reads_and_verifies_as_before_in_few_files(lake: Path) -> None:
    before, verified = _figures(lake), verify(Lake.at(str(lake)))
    small = _parquet_files(lake)
    assert verified.ok and verified.batches == 6 and len(small) >= 6 * 5
    result = cli("archive", "compact", lake)
    assert result.exit_code == 0, result.output
    large = _parquet_files(lake)
    datasets = {p.parent.name for p in small}
    assert len(large) == len(datasets), "one file per dataset: every part of the season in it"
    assert not set(small) & set(large)
    said = " ".join(result.output.split())
    assert f"compacted into {len(large)} files; {len(small)} small parts removed" in said, said
    again = " ".join(cli("--lang", "nl", "archive", "compact", lake).output.split())
    assert "0 delen (0 rijen) samengevoegd in 0 bestanden; 0 kleine delen verwijderd" in again, again
    after = verify(Lake.at(str(lake)))
    assert _counts(after) == _counts(verified) and after.parts == verified.parts and not after.uncommitted
    _same(before, _figures(lake))
    assert cli("archive", "verify", lake).exit_code == 0


def test_a_compaction_run_again_does_nothing_and_new_batches_are_compacted_next_time(lake: Path) -> None:
    first = compact(Lake.at(str(lake)))
    assert first.parts > 0 and first.removed == first.parts
    again = compact(Lake.at(str(lake)))
    assert (again.parts, again.files, again.removed, again.record) == (0, 0, 0, None)
    _simulate(str(lake), 16, seed=5)  # two batches more of the same run: games 13–16
    grown = _figures(lake)
    assert verify(Lake.at(str(lake))).batches == 8
    later = compact(Lake.at(str(lake)))
    assert later.parts > 0 and later.parts < first.parts
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok and verdict.batches == 8 and not verdict.uncommitted
    _same(grown, _figures(lake))
    assert len(list((lake / COMPACTIONS).glob("*.json"))) == 2


def test_a_compaction_cut_short_before_its_record_leaves_the_lake_as_it_was(
    lake: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _figures(lake)
    real: Callable[[Lake, str, bytes], None] = Lake.write

    def killed(self: Lake, relative: str, data: bytes) -> None:
        if relative.startswith(COMPACTIONS):
            raise KeyboardInterrupt  # the run stopped after its files, before its record
        real(self, relative, data)

    monkeypatch.setattr(Lake, "write", killed)
    with pytest.raises(KeyboardInterrupt):
        compact(Lake.at(str(lake)))
    monkeypatch.undo()
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok and verdict.uncommitted, "the files written are there, and no reader uses them"
    assert all("/compacted-" in path for path in verdict.uncommitted)
    _same(before, _figures(lake))
    done = compact(Lake.at(str(lake)))  # run again: the same files, then the record
    assert done.record is not None
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok and not verdict.uncommitted
    _same(before, _figures(lake))


def test_a_compaction_killed_while_removing_the_small_parts_is_finished_by_the_next(
    lake: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _figures(lake)
    gone: list[str] = []

    def killed_after_three(lake: Lake, *args: Any, **kwargs: Any) -> int:
        for path in sorted(placement(lake).at)[:3]:
            lake.fs.rm(lake.path(path))
            gone.append(path)
        raise KeyboardInterrupt

    monkeypatch.setattr(compaction, "_remove_copied", killed_after_three)
    with pytest.raises(KeyboardInterrupt):
        compact(Lake.at(str(lake)))
    monkeypatch.undo()
    verdict = verify(Lake.at(str(lake)))
    assert verdict.ok, verdict.problems
    assert verdict.uncommitted and not set(gone) & set(verdict.uncommitted), "the parts left are unread"
    _same(before, _figures(lake))
    finished = compact(Lake.at(str(lake)))
    assert finished.parts == 0 and finished.removed == len(verdict.uncommitted)
    assert not verify(Lake.at(str(lake))).uncommitted


def test_a_compacted_file_altered_or_missing_fails_verify(lake: Path) -> None:
    compact(Lake.at(str(lake)))
    where = placement(Lake.at(str(lake)))
    games = next(file for file, _ in where.at.values() if file.dataset == "games")
    target = lake / games.path
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    verdict = verify(Lake.at(str(lake)))
    assert not verdict.ok and any(games.path in problem for problem in verdict.problems), verdict.problems
    assert cli("archive", "verify", lake).exit_code == 1
    target.unlink()
    assert any(games.path in problem for problem in verify(Lake.at(str(lake))).problems)


def test_compact_waits_for_no_build_it_refuses_a_lake_another_run_holds(lake: Path) -> None:
    with holding(Lake.at(str(lake)), "archive build"):
        result = cli("archive", "compact", lake)
    assert result.exit_code == 2 and "archive build" in result.output, result.output  # busy, as a store is
    assert not (lake / COMPACTIONS).exists()


def test_a_damaged_compaction_record_is_refused_in_one_line(lake: Path) -> None:
    compact(Lake.at(str(lake)))
    (record,) = (lake / COMPACTIONS).glob("*.json")
    record.write_text('{"compaction": "x"}')
    for command in (("archive", "verify", lake), ("stats", "roles", "--lake", lake), ("archive", "compact", lake)):
        result = cli(*command)
        assert result.exit_code == 2, result.output
        assert "not a record of the lake this program wrote" in " ".join(result.output.split()), result.output
