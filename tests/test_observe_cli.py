"""``saboteur observe FILE [-o OUT]``: a full log's observed log, or one line saying why not."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Final

import pytest

from events.audit import audit_file
from events.logfile import MAX_FILE_BYTES
from events.observe import observe
from tests.test_cli import GOOD, invoke, reports

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


SPOILED_DRAWS: Final = {
    "nested-1000-deep": lambda line: line.replace(b'"card":', b'"card":' + b"[" * 1_000 + b"]" * 1_000 + b',"x":', 1),
    "half-in-a-key": lambda line: line.replace(b'"card"', b'"ca\\ud800rd"', 1),
    "half-in-bytes": lambda line: line.replace(b'"card"', b'"ca\xed\xa0\x80rd"', 1),
    "player-twice-apart": lambda line: line.replace(b"{", b'{"player":"zz",', 1),
    "byte-order-mark": lambda line: b"\xef\xbb\xbf" + line,
}
"""A draw of the good log written as a probe of the reading wrote it."""


@pytest.mark.parametrize("how", sorted(SPOILED_DRAWS))
def test_audit_json_and_observe_agree_on_a_line_written_badly(tmp_path: Path, how: str) -> None:
    """``audit --json`` reports the line malformed, ``observe`` writes the observed log,
    and its ``audit --json`` reports that line malformed too: the audit of a line nested
    a thousand deep ended in a traceback (the finding's words ran out of recursion),
    observe did on half a character, and observed, a key written twice or a line after
    a stray byte-order mark was a valid event."""
    lines = GOOD.read_bytes().splitlines()
    at = next(i for i, line in enumerate(lines) if b'"type":"draw"' in line)
    lines[at] = SPOILED_DRAWS[how](lines[at])
    full, seen = tmp_path / "full.jsonl", tmp_path / "seen.jsonl"
    full.write_bytes(b"\n".join(lines) + b"\n")
    assert invoke("observe", full, "-o", seen).exit_code == 0
    malformed = []
    for path in (full, seen):
        result = invoke("audit", path, "--json")
        assert result.exit_code == 1, result.output
        [report] = reports(result)
        malformed.append({finding["line"] for finding in report["violations"] if finding["code"] == "malformed"})
    assert at + 1 in malformed[0]
    assert malformed[0] == malformed[1]
