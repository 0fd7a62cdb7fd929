"""A lake the system will not let a command use says so in one line, exit 2: a file
where its folder should be, a path its readers take for a pattern, a file of it the
system refuses to read. Each gave a Python traceback (a probe of the archive's
commands); a compaction that meets a part gone writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.lake.layout import Lake
from tests.ingest.conftest import cli
from tests.ingest.dask_cluster import bare_main


def said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def simulated(lake: Path, games: int) -> None:
    """A lake of ``games`` simulated games, on a local cluster started whatever
    ``__main__`` an earlier test left (:func:`~tests.ingest.dask_cluster.bare_main`)."""
    with bare_main():
        result = cli("archive", "simulate", "--games", str(games), "--to", lake, "--workers", "1")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", [["build", "GAME"], ["simulate", "--games", "1"]])
def test_a_lake_that_is_a_file_is_refused_before_anything_is_read(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "game.jsonl").write_text("{}\n")
    where = tmp_path / "afile"
    where.write_text("not a lake")
    args = [str(tmp_path / "game.jsonl") if a == "GAME" else a for a in command]
    refused = cli("archive", *args, "--to", where)
    assert refused.exit_code == 2
    assert "a file, not a lake's folder" in said(refused.output)
    assert where.read_text() == "not a lake"


def test_a_lake_path_its_readers_take_for_a_pattern_is_refused(tmp_path: Path) -> None:
    """``lake[x]`` was made once and then read by nothing: fsspec and DuckDB took the
    brackets for a pattern and found no manifest."""
    refused = cli("archive", "simulate", "--games", "1", "--to", tmp_path / "lake[x]")
    assert refused.exit_code == 2
    assert "may not hold [ ] * or ?" in said(refused.output)
    assert not (tmp_path / "lake[x]").exists()


def test_a_file_of_the_lake_the_system_refuses_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A manifest entry no one may read (``chmod 000``, as another user): verify and the
    statistics said it with a traceback. (Root reads any file, so the refusal is made here.)"""
    lake = tmp_path / "lake"
    simulated(lake, 2)

    def refused_read(self: Lake, relative: str) -> bytes:
        raise PermissionError(13, "Permission denied", self.path(relative))

    def refused_many(self: Lake, relatives: list[str]) -> dict[str, bytes]:
        raise PermissionError(13, "Permission denied", self.path(relatives[0]))

    monkeypatch.setattr(Lake, "read", refused_read)
    monkeypatch.setattr(Lake, "read_many", refused_many)
    for command in (["archive", "verify", lake], ["stats", "roles", "--lake", lake]):
        result = cli(*command)
        assert result.exit_code == 2, result.output
        line = said(result.output)
        assert "_manifest/" in line and line.endswith("Permission denied"), line


def test_a_compaction_that_meets_a_part_gone_writes_nothing(tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    simulated(lake, 4)
    gone = sorted((lake / "games").glob("part-*.parquet"))[0]
    gone.unlink()
    result = cli("archive", "compact", lake)
    assert result.exit_code == 1
    assert f"games/{gone.name} is not the part its batch's entry names: nothing was compacted" in said(result.output)
    assert not list(lake.rglob("compacted-*")) and not (lake / "_compactions").exists()
