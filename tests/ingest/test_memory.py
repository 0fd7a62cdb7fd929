"""Memory bounded by design: what holds a log of 16 MiB, or a store of millions of
events, to a few hundred megabytes.

- A log's findings: the first :data:`~events.findings.MAX_LISTED` of each code are
  listed, the rest counted (the verdict and the counts of errors stay exact).
- The store is read in chunks: by position ranges (over gaps too), and a long stream a
  chunk at a time; a rebuild and a verify that read it so give the same tables.
- A 16 MiB log audits and ingests under 512 MiB (``benchmarks/memory.py`` measures
  more: four such logs, verify and rebuild, a store of ten million events).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import ingest.store
import ingest.store.chunks
from benchmarks.memory import draw_log
from events.audit import audit
from events.builder import LogBuilder
from events.findings import MAX_LISTED, Code
from ingest.pipeline import ingest as ingest_files
from ingest.store import Append, NewEvent, Store, StreamEvents

ROOT = Path(__file__).resolve().parents[2]
DRAW = '{"type":"draw","player":"ann","card":"map"}'


def draws(count: int, *, after: tuple[str, ...] = ()) -> list[str]:
    """A base game dealt, then ``count`` draws by ann and the lines ``after``: a
    ``wrong_draw`` at every draw, two at the first (before a card, and not the top of
    the pile)."""
    log = LogBuilder(players=3, ruleset="base", game_id="memory:draws").deal(start="ann")
    return [*log.lines, *[DRAW] * count, *after]


# -- findings ------------------------------------------------------------------------------


def test_a_log_lists_the_first_findings_of_a_kind_and_counts_the_rest() -> None:
    result = audit(draws(MAX_LISTED + 4), name="draws.jsonl")
    assert [f.code for f in result.findings].count(Code.WRONG_DRAW) == MAX_LISTED
    assert result.errors == MAX_LISTED + 5 and result.status == "violations"
    assert result.unlisted is not None
    assert result.unlisted.counts == {Code.WRONG_DRAW: 5}
    assert result.unlisted.line == 2 + MAX_LISTED  # the first draw whose finding is not listed
    violations = result.report().violations
    [last] = [v for v in violations if v["code"] == "more_findings"]
    assert (last["line"], last["severity"]) == (result.unlisted.line, "error")
    lines = [v["line"] for v in violations]
    assert lines == sorted(lines)  # in line order: more_findings at its line, not after the incomplete below it
    assert violations[-1]["code"] == "incomplete"
    assert last["round"] == 1  # the round of its line, as every finding there names it
    assert "5 more findings not listed (wrong_draw 5)" in str(last["message"])
    report = result.report()  # the full counts beside the list (issue 34)
    assert (report.errors, report.warnings) == (MAX_LISTED + 5, 1)
    assert report.counts == {"incomplete": 1, "wrong_draw": MAX_LISTED + 5}
    assert len(report.violations) == MAX_LISTED + 2  # the first 1,000, more_findings, the incomplete


def test_a_flood_of_warnings_is_reported_as_an_error_line_that_changes_no_count() -> None:
    """``more_findings`` is an error (event-log.md, "Violations") whatever it counts;
    the counts, the verdict and the exit status are those of the findings themselves."""
    from events.findings import Finding, Tally

    tally = Tally()
    for line in range(1, MAX_LISTED + 3):
        tally.append(Finding(Code.INCOMPLETE, line, "warned"))
    assert tally.unlisted is not None and tally.unlisted.severity == "error"
    assert (tally.errors.total(), tally.warnings) == (0, MAX_LISTED + 2)
    assert tally.counts == {"incomplete": MAX_LISTED + 2}


def test_a_flood_of_one_kind_hides_no_finding_of_another() -> None:
    result = audit(draws(MAX_LISTED + 4, after=("{}",)), name="draws.jsonl")
    malformed = [f for f in result.findings if f.code == Code.MALFORMED]
    assert [f.line for f in malformed] == [2 + MAX_LISTED + 4 + 1]
    assert [f.code for f in result.findings][-2:] == [Code.MALFORMED, Code.INCOMPLETE]


def test_a_log_with_few_findings_lists_them_all() -> None:
    result = audit(draws(3), name="draws.jsonl")
    assert result.unlisted is None
    assert [f.code for f in result.findings] == [Code.WRONG_DRAW] * 4 + [Code.INCOMPLETE]
    assert all(v["code"] != "more_findings" for v in result.report().violations)


def test_the_store_keeps_the_findings_listed_and_the_exact_counts(tmp_path: Path) -> None:
    log = tmp_path / "draws.jsonl"
    log.write_text("\n".join(draws(MAX_LISTED + 4)) + "\n")
    [result] = ingest_files([log], Store(tmp_path / "s.duckdb"))
    assert result.outcome == "accepted_with_findings" and result.errors == MAX_LISTED + 5
    with duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True) as con:
        codes = dict(con.execute("SELECT code, count(*) FROM findings GROUP BY code").fetchall())
        errors, warnings = con.execute("SELECT errors, warnings FROM games").fetchall()[0]
        report = json.loads(con.execute("SELECT report FROM uploads").fetchall()[0][0])
    assert codes == {"wrong_draw": MAX_LISTED, "incomplete": 1, "more_findings": 1}
    assert (errors, warnings) == (MAX_LISTED + 5, 1)
    lines = [v["line"] for v in report["violations"]]
    assert "more_findings" in [v["code"] for v in report["violations"]] and lines == sorted(lines)


def test_a_log_of_many_blank_lines_is_stored_within_the_writers_memory_ceiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The format allows a 16 MiB log of blank lines: sixteen million events, each a
    ``malformed`` finding. DuckDB kept the index of the events' key on ``position`` in
    memory until the commit, which then failed past the writer's ceiling (128 MB; an
    8 MiB log after 89 s), and the good file of the same run was lost with it. The table
    has no key now (:class:`ingest.chain.StoredEvent`). The same, scaled down: half a
    million blank lines under a ceiling of 8 MB (the key failed there too)."""
    monkeypatch.setenv("SABOTEUR_DB_MEMORY", "8MB")
    header = LogBuilder(players=3, ruleset="base", game_id="memory:blank").deal(start="ann").lines
    blank, good = tmp_path / "blank.jsonl", tmp_path / "good.jsonl"
    blank.write_bytes(("\n".join(header) + "\n").encode() + b"\n" * 500_000)
    lines = LogBuilder(players=3, ruleset="base").deal(start="ann").lines
    good.write_text("\n".join(lines) + "\n")
    results = ingest_files([blank, good], Store(tmp_path / "s.duckdb"), workers=1)
    assert [r.outcome for r in results] == ["accepted_with_findings", "accepted"]
    with duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True) as con:
        stored = con.execute("SELECT count(*) FROM events").fetchall()
    assert stored == [(len(header) + 500_000 + len(lines),)]


# -- reading the store in chunks -----------------------------------------------------------


def _stream(store: Store, con: duckdb.DuckDBPyConnection, stream: str, count: int) -> None:
    kinds = [f"e{n}" for n in range(1, count + 1)]
    payloads = [NewEvent(stream, kind, json.dumps({"n": n}), n) for n, kind in enumerate(kinds, start=1)]
    store.append_batch(con, [Append(stream, 0, payloads)], rows={})


def test_read_all_moves_over_a_gap_wider_than_a_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest.store.chunks, "READ_CHUNK", 4)
    store = Store(tmp_path / "s.duckdb")
    with store.connect() as con:
        _stream(store, con, "game:a", 30)
        con.execute("DELETE FROM events WHERE position BETWEEN 5 AND 20")  # a store tampered with
        assert [e.position for e in store.read_all(con)] == [*range(1, 5), *range(21, 31)]
        assert [e.position for e in store.read_all(con, after=2, until=23)] == [3, 4, 21, 22, 23]
        assert [e.position for e in store.read_all(con, after=30)] == []


def test_a_long_stream_is_read_a_chunk_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest.store.chunks, "READ_CHUNK", 3)
    monkeypatch.setattr(ingest.store.chunks, "LONG_STREAM", 5)
    store = Store(tmp_path / "s.duckdb")
    with store.connect() as con:
        _stream(store, con, "game:long", 11)
        _stream(store, con, "game:short", 2)
        long, short = list(store.read_streams(con))
        whole = store.read(con, "game:long")
        assert isinstance(long, StreamEvents) and isinstance(short, list)
        assert len(long) == 11 and list(long) == whole and list(long) == whole  # read again, the same
        assert long[0] == whole[0] and long[-1] == whole[-1] and long[4] == whole[4]
        assert isinstance(long[7:], StreamEvents) and list(long[7:]) == whole[7:] and len(long[7:]) == 4
        assert long[2:5] == whole[2:5]
        assert [e.version for e in short] == [1, 2]


# -- bounded memory ------------------------------------------------------------------------


def _peak(*args: str) -> tuple[int, int]:
    """Run ``saboteur ARGS…`` in a process of its own; its exit status and its peak
    resident memory in bytes (its process and any it waited for)."""
    script = (
        "import resource, subprocess, sys\n"
        "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
        "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    command = [sys.executable, "-c", script, sys.executable, "-m", "cli.main", *args]
    code, kib = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return int(code), int(kib) * 1024


def test_a_16_mib_log_audits_and_ingests_under_512_mib(tmp_path: Path) -> None:
    log = tmp_path / "draws.jsonl"
    lines = draw_log(log)
    assert log.stat().st_size > 16 * 1024 * 1024 - 64
    code, audited = _peak("audit", str(log))
    assert code == 1 and audited < 512 * 2**20, audited
    db = tmp_path / "s.duckdb"
    code, ingested = _peak("ingest", str(log), "--db", str(db))
    assert code == 0 and ingested < 512 * 2**20, ingested
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM events").fetchall() == [(lines,)]
        assert con.execute("SELECT errors FROM games").fetchall() == [(lines - 1,)]  # 2 at the first draw


# -- what the writer holds ------------------------------------------------------------------


def test_an_upload_s_bytes_become_arrow_without_a_copy_and_are_stored_byte_for_byte(tmp_path: Path) -> None:
    import pyarrow as pa

    from ingest.tables import blob

    raw = bytes(range(256)) * 64
    array = blob(raw)
    assert array.to_pylist() == [raw] and blob(b"").to_pylist() == [b""]
    assert array.buffers()[2].address == pa.py_buffer(raw).address  # the bytes object's own memory
    log = tmp_path / "draws.jsonl"
    log.write_text("\n".join(draws(3)) + "\n")
    ingest_files([log], Store(tmp_path / "s.duckdb"))
    with duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True) as con:
        assert con.execute("SELECT raw FROM uploads").fetchall() == [(log.read_bytes(),)]
