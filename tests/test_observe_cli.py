"""``saboteur observe FILE [-o OUT]``: a full log's observed log, or one line saying why not."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from events.audit import audit_file
from events.logfile import MAX_FILE_BYTES
from events.observe import observe
from tests.test_cli import GOOD, invoke

OBSERVED_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "observed-final-table.jsonl"


def test_the_observed_log_goes_to_stdout_line_for_line() -> None:
    result = invoke("observe", GOOD)
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == observe(GOOD.read_bytes())
    assert len(result.stdout_bytes.splitlines()) == len(GOOD.read_bytes().splitlines())
    assert b'"recording":"observed"' in result.stdout_bytes.splitlines()[0]


def test_the_observed_log_written_to_a_file_audits_as_the_full_one(tmp_path: Path) -> None:
    out = tmp_path / "seen.jsonl"
    result = invoke("observe", GOOD, "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    seen, full = audit_file(out), audit_file(GOOD)
    assert (seen.status, seen.outcomes, seen.findings) == (full.status, full.outcomes, full.findings)


def test_gzip_in_and_out(tmp_path: Path) -> None:
    packed = tmp_path / "full.jsonl.gz"
    packed.write_bytes(gzip.compress(GOOD.read_bytes()))
    out = tmp_path / "seen.jsonl.gz"
    assert invoke("observe", packed, "--output", out).exit_code == 0
    assert gzip.decompress(out.read_bytes()) == observe(GOOD.read_bytes())


def _unreadable(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / ("log.jsonl.gz" if kind == "not gzip" else "log.jsonl")
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "not gzip":
        path.write_bytes(GOOD.read_bytes())
    elif kind == "no game_started":
        path.write_bytes(b"".join(GOOD.read_bytes().splitlines(keepends=True)[1:]))
    elif kind == "over 16 MiB":
        with path.open("wb") as stream:
            stream.truncate(MAX_FILE_BYTES + 1)
    elif kind == "a folder":
        path.mkdir()
    return path  # "missing": never written


@pytest.mark.parametrize("kind", ["missing", "empty", "not gzip", "no game_started", "over 16 MiB", "a folder"])
def test_an_unreadable_file_is_one_line_and_exit_2(tmp_path: Path, kind: str) -> None:
    path = _unreadable(tmp_path, kind)
    out = tmp_path / "seen.jsonl"
    result = invoke("observe", path, "-o", out)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(path) in result.stderr
    assert not out.exists()


def test_an_observed_log_is_refused_with_exit_2() -> None:
    result = invoke("observe", OBSERVED_EXAMPLE)
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert "already an observed log" in line


def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = invoke("observe", GOOD, "-o", tmp_path / "no" / "such" / "folder.jsonl")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
