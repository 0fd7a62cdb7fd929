"""The paths a command is told to write to or read from (cli/paths.py), as a careless
hand types them: an output never replaces a store, an output that cannot be written is
refused before anything is done, and an empty path is never the current folder."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner, Result

from analytics import records
from cli.main import app
from cli.paths import is_database
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store

TID = "sim-open-3"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of a small simulated tournament, made once (copied by each test)."""
    folder = tmp_path_factory.mktemp("paths")
    simulate_tournament(folder / "logs", players=12, preliminary_rounds=1, seed=3)
    ingest([folder / "logs"], Store(folder / "s.duckdb"), workers=1)
    return folder


@pytest.fixture
def here(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's folder, the current one, holding a copy of the store and the logs."""
    shutil.copy(built / "s.duckdb", tmp_path / "s.duckdb")
    shutil.copytree(built / "logs", tmp_path / "logs")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def events(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize(
    "command",
    [
        ("standings", TID, "--format", "csv", "--db", "s.duckdb", "-o", "s.duckdb"),
        ("simulate", "game", "-o", "s.duckdb"),
        ("observe", "logs/r1-t1.jsonl", "-o", "s.duckdb"),
    ],
    ids=["standings", "simulate-game", "observe"],
)
def test_an_output_never_replaces_a_store(here: Path, command: tuple[str, ...]) -> None:
    """A CSV written over the store took every event, upload and byte it held, and the
    command said it was done."""
    before = events(here / "s.duckdb")
    result = run(*command)
    assert result.exit_code == 2, result.output
    assert "s.duckdb is a DuckDB database (a store): an output never replaces one" in result.output
    assert events(here / "s.duckdb") == before
    assert run("verify", "--db", "s.duckdb").exit_code == 0


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("logs", "logs is a folder: name a file to write"),
        ("nowhere/standings.csv", "cannot write nowhere/standings.csv: the folder nowhere does not exist"),
        ("/dev/full", "cannot write /dev/full: No space left on device"),
    ],
    ids=["a-folder", "a-missing-folder", "a-full-disk"],
)
def test_an_output_that_cannot_be_written_is_one_line(here: Path, target: str, said: str) -> None:
    if target == "/dev/full" and not Path(target).exists():
        pytest.skip("no /dev/full here")
    result = run("standings", TID, "--format", "csv", "--db", "s.duckdb", "-o", target)
    assert result.exit_code == 2 and said in result.output, result.output
    assert "Traceback" not in result.output


def test_referee_cards_that_cannot_be_written_issue_no_code(here: Path) -> None:
    """The codes were issued, replacing every table's card, and then the sheet could
    not be written: no card held the new codes."""
    before = events(here / "s.duckdb")
    result = run("tournament", "referee-codes", TID, "--round", "1", "-o", "logs", "--db", "s.duckdb")
    assert result.exit_code == 2 and "logs is a folder" in result.output, result.output
    assert events(here / "s.duckdb") == before


@pytest.mark.parametrize(
    "command",
    [
        ("ingest", "", "--db", "s.duckdb"),
        ("audit", ""),
        ("stats", "roles", "--lake", ""),
        ("archive", "build", "", "--to", "lake"),
        ("archive", "verify", ""),
    ],
    ids=["ingest", "audit", "stats-lake", "archive-build", "archive-verify"],
)
def test_an_empty_path_is_refused_not_read_as_the_current_folder(here: Path, command: tuple[str, ...]) -> None:
    """``saboteur ingest "$DIR"`` with ``DIR`` unset stored every log under the current
    folder, for good."""
    before = events(here / "s.duckdb")
    result = run(*command)
    assert result.exit_code == 2, result.output
    assert "empty" in result.output
    assert events(here / "s.duckdb") == before
    assert not (here / "lake").exists()


def test_a_record_for_a_mistyped_store_makes_no_store(here: Path) -> None:
    result = run("tournament", "register", TID, "ann", "--name", "Ann", "--db", "s.duckbd")
    assert result.exit_code == 1 and f"no tournament {TID}" in result.output, result.output
    assert not (here / "s.duckbd").exists()
    with pytest.raises(records.RecordError):
        records.withdraw_penalty(Store(here / "typo.duckdb"), TID, 1, "x")
    assert not (here / "typo.duckdb").exists()


def test_an_output_that_is_not_a_regular_file_is_not_read_to_judge_it(tmp_path: Path) -> None:
    """Whether an output is a store is judged by its first bytes, of a regular file
    alone: ``-o /dev/stdout`` or a FIFO was opened for reading, and waited for input."""
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    judged: list[bool] = []
    worker = threading.Thread(target=lambda: judged.append(is_database(fifo)), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert judged == [False], "is_database waited on a FIFO"
    assert not is_database(Path("/dev/null"))


@pytest.mark.parametrize(
    ("command", "env", "said"),
    [
        (("--lang", "nl", "archive", "build", "game.jsonl", "--to", "notalake.txt"), {}, "een bestand, geen map"),
        (("archive", "verify", "notalake.txt"), {"SABOTEUR_LANG": "de"}, "eine Datei, kein Ordner eines Lakes"),
        (("--lang", "nb", "stats", "roles", "--lake", ""), {}, "en tom lake"),
        (("--lang", "de", "ingest", ""), {}, "ein leerer Pfad"),
        (("observe", "game.jsonl", "-o", ""), {"SABOTEUR_LANG": "nl"}, "het uitvoerpad is leeg"),
        (("archive", "verify", "notalake.txt", "--lang", "de"), {}, "eine Datei, kein Ordner eines Lakes"),
        (("stats", "roles", "--lake", "", "--lang", "nb"), {"SABOTEUR_LANG": "nl"}, "en tom lake"),
    ],
    ids=["lake-root-lang", "lake-env", "empty-lake", "empty-input", "empty-output", "lang-after", "lang-over-env"],
)
def test_a_path_refused_as_it_is_parsed_is_said_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...], env: dict[str, str], said: str
) -> None:
    """The parsers of cli/paths.py judge a path before the command runs, and so before
    it set its language: "notalake.txt: a file, not a lake's folder" was English under
    ``--lang nl`` and ``$SABOTEUR_LANG``, though the catalogue says it in each; and
    under the command's own ``--lang``, written after the path (read first now)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notalake.txt").write_text("hi\n")
    (tmp_path / "game.jsonl").write_text("{}\n")
    result = CliRunner().invoke(app, list(command), env={"COLUMNS": "200", "SABOTEUR_LANG": "", **env})
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.replace("│", " ").split()), result.output


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("lake\x1b[31mX\nY", "lake\\x1b[31mX\\x0aY: a lake's path may not hold"),
        ("lake\x1b]0;owned\x07", "lake\\x1b]0;owned\\x07: a lake's path may not hold"),
        ("file\x1bZ", "file\\x1bZ: a file, not a lake's folder"),
    ],
    ids=["colour", "title", "a-file"],
)
def test_a_lake_path_refused_is_shown_with_its_controls_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str, said: str
) -> None:
    """A usage error printed the lake as typed: ESC and a line break reached the terminal."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file\x1bZ").write_text("not a lake\n")
    result = CliRunner().invoke(app, ["archive", "verify", typed], env={"COLUMNS": "300", "SABOTEUR_LANG": ""})
    assert result.exit_code == 2, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output, repr(result.output)
    assert said in result.output, result.output
