"""Hostile files named to ``saboteur ingest`` (issue 10, points 2, 9 and 10).

Each case once aborted the whole run with a traceback, stored a wrong record or hung:
a score sheet with a field over 128 KiB, a file name that is not UTF-8, a FIFO or a
device on the command line, a file over the upload limit, a ``tournament.json`` with a
BOM, score-sheet ids of any length, and spreadsheet formulas in the CSV the product
writes. Every file here sits beside a valid log, which must be stored whatever its
neighbour does.
"""

from __future__ import annotations

import csv
import io
import json
import os
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import Result

from analytics.spreadsheet import csv_text
from cli import dashboard
from events.logfile import BOM
from events.simulate.tournament import simulate_tournament
from ingest.limits import MAX_SHEET_BYTES, MAX_SHEET_MIB, MAX_UPLOAD_BYTES, MAX_UPLOAD_MIB
from ingest.sources import Prepared, prepare, prepare_bytes, safe_name
from tests.ingest.test_ingest import (
    EXAMPLE_SHEET,
    HEADER,
    event_count,
    invoke,
    query,
    scalar,
    summary,
    uploads,
    write_game,
)

# -- helpers ---------------------------------------------------------------------------


def beside_a_log(tmp_path: Path) -> Path:
    """A valid log, the neighbour every hostile file is ingested with."""
    log = tmp_path / "good.jsonl"
    write_game(log, "hostile:neighbour", seed=3)
    return log


def ingest_cli(*paths: Path, db: Path) -> Result:
    """``saboteur ingest`` over ``paths``: no traceback, exit status 0 or 1."""
    result = invoke("ingest", *paths, "--db", db, "--workers", "1")
    assert result.exit_code in (0, 1), result.output
    return result


def outcome_of(db: Path, suffix: str) -> dict[str, object]:
    [upload] = [u for u in uploads(db) if str(u["name"]).endswith(suffix)]
    return upload


def only_finding(upload: dict[str, object]) -> dict[str, object]:
    [finding] = json.loads(str(upload["report"]))["violations"]
    assert isinstance(finding, dict)
    return finding


def assert_neighbour_stored(db: Path) -> None:
    assert query(db, "SELECT game_id FROM games WHERE game_id = 'hostile:neighbour'") == [("hostile:neighbour",)]


def sheet_row(tournament: str = "spring-cup", table: str = "4", player: str = "ana") -> str:
    return f"{tournament},1,{table},spring-cup:r1:t4,1,{player},gold_digger,2,0"


# -- point 2: one bad file does not sink the run ---------------------------------------


def test_a_refused_file_of_60_mib_fails_alone_and_the_store_takes_the_next_write(tmp_path: Path) -> None:
    """A 60 MiB file that is no log, beside a good one: it is refused and kept byte for
    byte, the good one stored, and the next ingest and ``verify`` work. DuckDB's
    streaming ceiling (128 MB) could not hold the value: the whole batch failed ("the
    database failed: cannot rollback - no transaction is active", nothing stored), and a
    file of it alone left a write-ahead log that failed every write after it."""
    folder = tmp_path / "in"
    folder.mkdir()
    big = folder / "big.jsonl"
    big.write_bytes(b"x" * (60 * 2**20))
    beside_a_log(folder)
    db = tmp_path / "s.duckdb"
    counted = summary(ingest_cli(folder, db=db))
    assert (counted["accepted"], counted["rejected"]) == (1, 1)
    assert_neighbour_stored(db)
    assert scalar(db, "SELECT octet_length(raw) FROM uploads WHERE name LIKE '%big.jsonl'") == 60 * 2**20
    assert not db.with_name(db.name + ".wal").exists()  # stored, not left to the next write
    other = tmp_path / "other.jsonl"
    write_game(other, "hostile:next", seed=4)
    assert summary(ingest_cli(other, db=db))["accepted"] == 1
    verified = invoke("verify", "--db", db)
    assert verified.exit_code == 0, verified.output


def example_sheet_of(size: int) -> bytes:
    """The example score sheet made ``size`` bytes long by lines of spaces after it
    (blank rows, which a sheet may have)."""
    sheet = EXAMPLE_SHEET.read_bytes()
    gap = size - len(sheet)
    return sheet + (b" " * 1023 + b"\n") * (gap // 1024) + b" " * (gap % 1024)


def test_score_sheet_over_its_limit_is_refused_with_its_bytes_kept(tmp_path: Path) -> None:
    """A score sheet is held whole while its games are made: past its own limit (far
    under an upload's) it is refused, unread, saying what to do, and kept as any
    refused upload is. 8 MiB of short rows took an ingest to 519 MiB; 64 MiB failed
    the whole batch in DuckDB ("could not allocate block")."""
    at_the_limit = prepare_bytes("full.csv", example_sheet_of(MAX_SHEET_BYTES))
    assert at_the_limit.status == "clean" and at_the_limit.game_ids == ["example-open:r1:t2"]

    over = example_sheet_of(MAX_SHEET_BYTES + 1)
    refused = prepare_bytes("over.csv", over)
    assert (refused.status, refused.size, refused.raw, refused.game_ids) == ("unreadable", len(over), over, [])
    assert f"{MAX_SHEET_BYTES + 1:,} bytes" in refused.message and f"{MAX_SHEET_MIB} MiB" in refused.message
    assert "a sheet of its own" in refused.message

    (tmp_path / "over.csv").write_bytes(over)
    db = tmp_path / "s.duckdb"
    assert ingest_cli(tmp_path / "over.csv", beside_a_log(tmp_path), db=db).exit_code == 1
    upload = outcome_of(db, "over.csv")
    assert (upload["outcome"], upload["size"]) == ("rejected", len(over))
    assert only_finding(upload)["code"] == "malformed"
    assert_neighbour_stored(db)


def test_score_sheet_field_over_128_kib_is_malformed_at_its_line(tmp_path: Path) -> None:
    sheet = tmp_path / "wide.csv"
    sheet.write_text("\n".join([HEADER, sheet_row(), sheet_row(player="x" * (200 * 1024))]) + "\n")
    db = tmp_path / "s.duckdb"
    result = ingest_cli(sheet, beside_a_log(tmp_path), db=db)
    assert result.exit_code == 1
    assert summary(result) == {"accepted": 1, "accepted_with_findings": 0, "rejected": 1, "duplicate": 0}
    upload = outcome_of(db, "wide.csv")
    assert (upload["outcome"], upload["status"]) == ("rejected", "unreadable")
    finding = only_finding(upload)
    assert (finding["code"], finding["line"]) == ("malformed", 3)
    assert str(finding["message"]).startswith("line 3: ")
    assert_neighbour_stored(db)


WIDE = "x" * (200 * 1024)
QUOTED_WIDE = f'"a\n\n{WIDE}"'


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (f"{HEADER},{WIDE}\n{sheet_row()}\n", 1),  # in the header
        (f"{HEADER}\n{sheet_row()}\n{sheet_row(player=QUOTED_WIDE)}\n", 5),  # a quoted field over three lines
    ],
)
def test_score_sheet_csv_error_names_the_line_it_reached(tmp_path: Path, text: str, line: int) -> None:
    sheet = tmp_path / "odd.csv"
    sheet.write_text(text)
    db = tmp_path / "s.duckdb"
    ingest_cli(sheet, beside_a_log(tmp_path), db=db)
    upload = outcome_of(db, "odd.csv")
    assert (upload["outcome"], upload["status"]) == ("rejected", "unreadable")
    finding = only_finding(upload)
    assert (finding["line"], finding["message"]) == (
        line,
        f"line {line}: not readable as CSV (field larger than field limit (131072))",
    )
    assert_neighbour_stored(db)


def test_file_name_that_is_not_utf8_is_stored_under_a_safe_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # short relative names: the table does not wrap them
    folder = Path("in")
    folder.mkdir()
    good = Path(os.fsdecode(b"in/sheet-\xff.csv"))
    good.write_bytes(EXAMPLE_SHEET.read_bytes())
    broken = Path(os.fsdecode(b"in/broken-\xfe.jsonl"))
    broken.write_bytes(b"not a log\n")
    write_game(folder / "good.jsonl", "hostile:neighbour", seed=3)
    db = Path("s.duckdb")
    result = ingest_cli(folder, db=db)
    assert result.exit_code == 1
    assert summary(result) == {"accepted": 2, "accepted_with_findings": 0, "rejected": 1, "duplicate": 0}
    names = {str(u["name"]): u["outcome"] for u in uploads(db)}
    assert names == {
        "in/good.jsonl": "accepted",
        "in/sheet-\\xff.csv": "accepted",
        "in/broken-\\xfe.jsonl": "rejected",
    }
    assert json.loads(str(outcome_of(db, "broken-\\xfe.jsonl")["report"]))["file"] == "in/broken-\\xfe.jsonl"
    assert "in/broken-\\xfe.jsonl" in result.stdout
    assert_neighbour_stored(db)


def test_control_characters_in_a_file_name_do_not_reach_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    evil = Path("evil\x1b[2J\nred.jsonl")
    evil.write_bytes(b"not a log\n")
    db = Path("s.duckdb")
    result = ingest_cli(evil, beside_a_log(Path(".")), db=db)
    assert "\x1b" not in result.output
    assert "evil\\x1b[2J\\x0ared.jsonl" in result.stdout
    assert outcome_of(db, "red.jsonl")["name"] == "evil\\x1b[2J\\x0ared.jsonl"
    assert_neighbour_stored(db)


def test_safe_name_leaves_ordinary_names_alone() -> None:
    for name in ("r1-t3.jsonl", "/tmp/Zürich 2026/tournament.json", "日本語.csv", "a\\xff.csv"):
        assert safe_name(name) == name
    assert safe_name(os.fsdecode(b"caf\xe9.csv")) == "caf\\xe9.csv"
    assert safe_name("lone-\ud800.csv") == "lone-\\ud800.csv"
    assert safe_name(safe_name("tab\there.csv")) == "tab\\x09here.csv"
    assert safe_name("rtl-\u202egnp.jsonl") == "rtl-\\u202egnp.jsonl"  # shown as "rtl-lnosj.png"
    assert safe_name("line\u2028break.csv") == "line\\u2028break.csv"
    assert safe_name("no\u00a0break.csv") == "no\u00a0break.csv"


# -- point 9: score-sheet ids, formulas in CSV, seat and penalty limits ----------------


@pytest.mark.parametrize(
    ("row", "column"),
    [
        (sheet_row(tournament="spring cup!"), "tournament"),
        (sheet_row(tournament="t" * 129), "tournament"),
        (sheet_row(table="t" * 65), "table"),
    ],
)
def test_score_sheet_ids_must_fit_the_log_format(tmp_path: Path, row: str, column: str) -> None:
    sheet = tmp_path / "ids.csv"
    sheet.write_text("\n".join([HEADER, sheet_row(), row]) + "\n")
    db = tmp_path / "s.duckdb"
    result = ingest_cli(sheet, beside_a_log(tmp_path), db=db)
    assert result.exit_code == 1
    finding = only_finding(outcome_of(db, "ids.csv"))
    assert (finding["code"], finding["line"]) == ("malformed", 3)
    assert f"`{column}`" in str(finding["message"])
    assert len(str(finding["message"])) < 300  # the value is quoted, shortened
    assert_neighbour_stored(db)


def test_score_sheet_ids_at_the_limits_are_accepted(tmp_path: Path) -> None:
    text = EXAMPLE_SHEET.read_text().replace("example-open,1,2,", f"{'t' * 128},1,{'x' * 64},")
    sheet = tmp_path / "long.csv"
    sheet.write_text(text)
    db = tmp_path / "s.duckdb"
    assert ingest_cli(sheet, db=db).exit_code == 0
    assert query(db, "SELECT DISTINCT tournament, table_label FROM games") == [("t" * 128, "x" * 64)]


def test_csv_text_neutralises_formulas_in_text_cells() -> None:
    names = ['=HYPERLINK("http://evil","x")', "+1", "-2", "@SUM(A1)", "\tx", "\rx", "ann", "a=b", "", None]
    frame = pl.DataFrame({"name": names, "points": [-1, 2, 3, 4, 5, 6, 7, 8, 9, 10]})
    text = csv_text(frame)
    header, *rows = csv.reader(io.StringIO(text, newline=""))
    assert header == ["name", "points"]
    assert [name for name, _ in rows] == [
        '\'=HYPERLINK("http://evil","x")',
        "'+1",
        "'-2",
        "'@SUM(A1)",
        "\\x09x",  # a tab or a carriage return is escaped, so no formula starts with it
        "\\x0dx",
        "ann",
        "a=b",
        "",
        "",
    ]
    assert rows[0][1] == "-1"  # a number stays a number
    assert csv_text(pl.DataFrame({"=1+1": [1]})).splitlines()[0] == "'=1+1"


def test_csv_text_writes_each_cell_as_one_line_of_text() -> None:
    """A referee's note (free text) that holds a terminal's escape sequence cleared the
    screen of whoever printed ``saboteur findings --format csv``, where the table the
    same command prints escapes it: each cell is one line of text, its controls, marks
    that turn the text and line breaks written as backslash escapes; a joiner stays."""
    notes = ["\x1b[2J\x1b[Hcleared", "abc\u202edef", "two\nlines", "Lea 👩\u200d👧", "plain"]
    header, *rows = csv.reader(io.StringIO(csv_text(pl.DataFrame({"no\x1bte": notes})), newline=""))
    assert header == ["no\\x1bte"]
    assert [row[0] for row in rows] == [
        "\\x1b[2J\\x1b[Hcleared",
        "abc\\u202edef",
        "two\\x0alines",
        "Lea 👩\u200d👧",
        "plain",
    ]


@pytest.fixture(scope="module")
def hostile_tournament(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A simulated tournament whose players are named like formulas, ingested."""
    out = tmp_path_factory.mktemp("formulas") / "cup"
    simulate_tournament(out, players=12, preliminary_rounds=1, seed=5, cut=6, final_rounds=1, tournament_id="cup")
    description = json.loads((out / "tournament.json").read_text())
    formulas = ['=HYPERLINK("http://evil","win")', "@SUM(1+1)", "+1", "-1"]
    for person, name in zip(description["players"][: len(formulas)], formulas, strict=True):
        person["name"] = name
    (out / "tournament.json").write_text(json.dumps(description))
    db = out.parent / "s.duckdb"
    assert ingest_cli(out, db=db).exit_code == 0
    return db, "cup"


def test_standings_csv_neutralises_formulas(hostile_tournament: tuple[Path, str]) -> None:
    db, tid = hostile_tournament
    result = invoke("standings", tid, "--format", "csv", "--db", db)
    assert result.exit_code == 0, result.output
    cells = [cell for line in result.stdout.splitlines() for cell in line.split(",")]
    assert not [cell for cell in cells if cell.lstrip('"').startswith(("=", "+", "@"))]
    assert '"\'=HYPERLINK(""http://evil""' in result.stdout
    assert "'@SUM(1+1)" in result.stdout and "'+1" in result.stdout and "'-1" in result.stdout
    json_out = invoke("standings", tid, "--format", "json", "--db", db)
    assert '"=HYPERLINK' in json_out.stdout  # JSON is data, not a spreadsheet: left as it is


def test_stats_csv_neutralises_formulas(tmp_path: Path) -> None:
    log = tmp_path / "dash.jsonl"
    write_game(log, "formula:game", players=("-ann", "bob", "cem", "dia", "eve", "fay"), seed=2)
    db = tmp_path / "s.duckdb"
    ingest_cli(log, db=db)
    result = invoke("stats", "players", "--format", "csv", "--db", db)
    assert result.exit_code == 0, result.output
    assert "'-ann" in result.stdout
    assert not [line for line in result.stdout.splitlines() if line.startswith("-ann")]


@pytest.mark.parametrize(
    "args",
    [
        ("tournament", "seat", "cup", "--round", "0"),
        ("tournament", "seat", "cup", "--round", "99999"),
        ("tournament", "penalty", "cup", "{player}", "--points", "9999999999", "--reason", "x"),
        ("tournament", "penalty", "cup", "{player}", "--points", "-5", "--reason", "x"),
    ],
)
def test_seat_and_penalty_out_of_range_are_refused(hostile_tournament: tuple[Path, str], args: tuple[str, ...]) -> None:
    db, _ = hostile_tournament
    player = str(scalar(db, "SELECT min(player) FROM tournament_players"))
    before = event_count(db)
    result = invoke(*(a.format(player=player) for a in args), "--db", db)
    assert result.exit_code not in (0, None), result.output
    assert "Traceback" not in result.output
    assert event_count(db) == before


# -- point 10: FIFOs, devices, files over the limit, the dashboard's limit, BOMs ------


def run_with_deadline(seconds: float, *args: str | Path) -> Result:
    """``invoke`` in a thread: a run that blocks (on a FIFO) fails the test instead of hanging it."""
    done: list[Result] = []
    worker = threading.Thread(target=lambda: done.append(invoke(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert done, f"saboteur {' '.join(map(str, args))} still running after {seconds} s"
    return done[0]


def prepared_with_peak(path: Path) -> tuple[Prepared, int]:
    """``prepare(path)`` and the most memory Python held meanwhile."""
    tracemalloc.start()
    try:
        return prepare(path), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_named_to_ingest_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    db = tmp_path / "s.duckdb"
    result = run_with_deadline(60, "ingest", fifo, beside_a_log(tmp_path), "--db", db, "--workers", "1")
    assert result.exit_code == 1
    upload = outcome_of(db, "pipe.jsonl")
    assert (upload["outcome"], upload["status"]) == ("rejected", "unreadable")
    assert "not a regular file" in str(only_finding(upload)["message"])
    assert_neighbour_stored(db)


def test_a_folder_walked_rejects_what_it_cannot_read_instead_of_passing_it_over(tmp_path: Path) -> None:
    """Named, a FIFO, a dangling link or a loop of links is rejected with its reason;
    under a folder they were passed over, neither listed nor counted."""
    folder = tmp_path / "day"
    folder.mkdir()
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "dangling.jsonl").symlink_to("nowhere.jsonl")
    (folder / "loop-a.jsonl").symlink_to("loop-b.jsonl")
    (folder / "loop-b.jsonl").symlink_to("loop-a.jsonl")
    beside_a_log(folder)
    db = tmp_path / "s.duckdb"
    result = run_with_deadline(60, "ingest", folder, "--db", db, "--workers", "1")
    assert result.exit_code == 1, result.output
    links = "a symbolic link: not followed"
    for name, why in [("pipe.jsonl", "not a regular file"), ("dangling.jsonl", links), ("loop-a.jsonl", links)]:
        upload = outcome_of(db, name)
        assert (upload["outcome"], upload["status"]) == ("rejected", "unreadable"), name
        assert why in str(only_finding(upload)["message"]), name
    assert_neighbour_stored(db)


def test_a_link_is_not_followed_so_no_file_from_elsewhere_is_kept(tmp_path: Path) -> None:
    """A link in a folder (or named) to a file outside it: refused unread. It was
    followed, and the store, which keeps every file received for good, kept what it
    pointed to: a link to /etc/shadow put the password hashes in ``uploads.raw``."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$hash:19000:0:99999:7:::\n", encoding="utf-8")
    folder = tmp_path / "day"
    folder.mkdir()
    (folder / "shadow.jsonl").symlink_to(secret)
    log = beside_a_log(folder)
    (tmp_path / "named.jsonl").symlink_to(log)
    db = tmp_path / "s.duckdb"
    result = ingest_cli(folder, tmp_path / "named.jsonl", db=db)
    assert result.exit_code == 1, result.output
    for name in ("shadow.jsonl", "named.jsonl"):
        upload = outcome_of(db, name)
        assert (upload["outcome"], upload["status"]) == ("rejected", "unreadable"), name
        assert "a symbolic link: not followed" in str(only_finding(upload)["message"]), name
        assert not upload["raw"], name
    assert_neighbour_stored(db)
    assert not query(db, "SELECT 1 FROM uploads WHERE contains(decode(raw), '$6$')")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_device_named_to_ingest_is_refused_unread() -> None:
    prepared, peak = prepared_with_peak(Path("/dev/zero"))
    assert prepared.status == "unreadable"
    assert "not a regular file" in prepared.message
    assert peak < 1024 * 1024


def test_file_over_the_limit_is_refused_with_its_true_size_unread(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jsonl"
    with huge.open("wb") as stream:  # sparse: no disk, no time
        stream.truncate(MAX_UPLOAD_BYTES + 1)
    prepared, peak = prepared_with_peak(huge)
    assert peak < 1024 * 1024  # never read
    assert (prepared.status, prepared.size, prepared.raw) == ("unreadable", MAX_UPLOAD_BYTES + 1, b"")
    assert prepared.sha256 == ""  # nothing read, nothing hashed
    assert f"{MAX_UPLOAD_BYTES + 1:,} bytes" in prepared.message and f"{MAX_UPLOAD_MIB} MiB" in prepared.message
    db = tmp_path / "s.duckdb"
    result = ingest_cli(huge, beside_a_log(tmp_path), db=db)
    assert result.exit_code == 1
    upload = outcome_of(db, "huge.jsonl")
    assert (upload["outcome"], upload["size"]) == ("rejected", MAX_UPLOAD_BYTES + 1)
    assert_neighbour_stored(db)


def test_file_at_the_limit_is_read(tmp_path: Path) -> None:
    full = tmp_path / "full.csv"
    with full.open("wb") as stream:
        stream.truncate(MAX_UPLOAD_BYTES)
    prepared = prepare(full)
    assert (prepared.size, len(prepared.raw)) == (MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES)
    assert prepared.status == "unreadable"  # zeros are no score sheet, but they were read and kept


def test_upload_over_the_limit_is_refused_unkept() -> None:
    prepared = prepare_bytes("big.jsonl", bytes(MAX_UPLOAD_BYTES + 1))
    assert (prepared.status, prepared.size, prepared.raw) == ("unreadable", MAX_UPLOAD_BYTES + 1, b"")
    assert f"{MAX_UPLOAD_MIB} MiB" in prepared.message


def test_dashboard_takes_the_same_upload_limit(tmp_path: Path) -> None:
    line = dashboard.command(8501, tmp_path / "s.duckdb")
    assert line[line.index("--server.maxUploadSize") + 1] == str(MAX_UPLOAD_MIB)
    assert MAX_UPLOAD_MIB * 1024 * 1024 == MAX_UPLOAD_BYTES  # Streamlit's megabytes are mebibytes


@pytest.mark.parametrize(("field", "value"), [("points", 2**80), ("stars", 2**31), ("seed", 2**63)])
def test_cut_draw_numbers_past_the_store_are_refused(tmp_path: Path, field: str, value: int) -> None:
    """Found by the fuzzing suite: such a number passed the audit, then broke the
    store's write of the whole batch (an INTEGER or BIGINT column)."""
    out = tmp_path / "cup"
    simulate_tournament(out, players=10, preliminary_rounds=1, seed=0, cut=5, final_rounds=1, tournament_id="cup")
    description = json.loads((out / "tournament.json").read_text())
    description["cut_draws"][0][field] = value
    (out / "tournament.json").write_text(json.dumps(description))
    db = tmp_path / "s.duckdb"
    result = ingest_cli(out / "tournament.json", beside_a_log(tmp_path), db=db)
    assert result.exit_code == 1
    finding = only_finding(outcome_of(db, "tournament.json"))
    assert f"`cut_draws.0.{field}`" in str(finding["message"])
    assert_neighbour_stored(db)


def test_tournament_file_with_a_bom_is_accepted(tmp_path: Path) -> None:
    out = tmp_path / "bom"
    simulate_tournament(out, players=12, preliminary_rounds=1, seed=4, cut=6, final_rounds=1, tournament_id="bom-cup")
    description = out / "tournament.json"
    description.write_bytes(BOM + description.read_bytes())
    db = tmp_path / "s.duckdb"
    result = ingest_cli(description, db=db)
    assert result.exit_code == 0, result.output
    assert summary(result)["accepted"] == 1
    assert query(db, "SELECT tournament FROM tournaments") == [("bom-cup",)]


# -- point 2: whatever one file does, it is that file's own rejected upload -----------


def test_an_unforeseen_audit_failure_is_the_files_own_rejection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug met by one file's audit: that file is a rejected upload (bytes kept, the
    error's kind named, no traceback, no path); the log beside it is stored."""
    import ingest.sources

    def broken(name: str, raw: bytes, sha: str) -> Prepared:
        raise KeyError("/srv/secret/path")

    monkeypatch.setattr(ingest.sources, "prepare_sheet", broken)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(EXAMPLE_SHEET.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "s.duckdb"
    result = ingest_cli(beside_a_log(tmp_path), sheet, db=db)
    assert "Traceback" not in result.output and "/srv/secret" not in result.output
    upload = outcome_of(db, "sheet.csv")
    assert upload["outcome"] == "rejected"
    assert "KeyError" in str(only_finding(upload)["message"])
    assert_neighbour_stored(db)


def _decided_wrong(real: Any, fault: str) -> Any:
    """``Writer._decide`` with a fault for the file ``bad.jsonl``: a bug that raises, or
    rows that break a key (a round twice: a projection's bug, as a log whose
    round_started wrote round 1 again once was), which the database refuses."""
    from dataclasses import replace

    from ingest.tables import joined

    def decide(self: object, prepared: Prepared, batch: object) -> object:
        if not prepared.name.endswith("bad.jsonl") or not prepared.streams:
            return real(self, prepared, batch)
        if fault == "RuntimeError":
            raise RuntimeError("a bug in the writer")
        decision = real(self, prepared, batch)
        rounds = decision.rows["rounds"]
        return replace(decision, rows={**decision.rows, "rounds": joined([rounds, rounds])})

    return decide


@pytest.mark.parametrize("fault", ["RuntimeError", "RowsRefused"])
def test_an_unforeseen_write_failure_is_the_files_own_rejection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    """A file whose writing fails in a way nobody foresaw: its batch is written again
    file by file, the file at fault stored as a rejected upload, the others accepted.
    Rows the database refused (``RowsRefused``) ended the whole run ("the database
    failed", exit 2), the good file lost with it."""
    import ingest.pipeline

    monkeypatch.setattr(ingest.pipeline.Writer, "_decide", _decided_wrong(ingest.pipeline.Writer._decide, fault))
    bad = tmp_path / "bad.jsonl"
    write_game(bad, "hostile:bad", seed=5)
    db = tmp_path / "s.duckdb"
    result = ingest_cli(beside_a_log(tmp_path), bad, db=db)
    assert "Traceback" not in result.output
    upload = outcome_of(db, "bad.jsonl")
    assert upload["outcome"] == "rejected"
    assert fault in str(only_finding(upload)["message"])
    assert_neighbour_stored(db)
    assert query(db, "SELECT count(*) FROM games WHERE game_id = 'hostile:bad'") == [(0,)]
