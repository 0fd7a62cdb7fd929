"""One fuzz example end to end: a file written, ``saboteur ingest`` run on it, the
invariants checked.

Every example ingests the fuzzed file beside a valid score sheet of its own (a new game
id each time), through the command line (typer's ``CliRunner``), and checks:

- no traceback: the exit status is 0, 1 or 2 and the output holds no ``Traceback``;
- a clear verdict for the file: one upload under its (safe) name, with an outcome; a
  rejected file has a reason in its report and is named in the command's output;
- isolation: the neighbour is accepted, whatever the fuzzed file did;
- an unchanged store for a rejected file: no event of its upload, the chain up to the
  head before the run as it was, and every new event from an upload accepted in it.

The store is read with read-only DuckDB connections, only here in the fuzzing suite.
A store is used for :data:`ROTATE` examples, then verified (``saboteur verify``) and
replaced, so an hour's run does not slow down as the store grows.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import duckdb
from hypothesis import event
from typer.testing import CliRunner

from cli.main import app
from ingest.sources import safe_name

ROOT: Final = Path(__file__).resolve().parents[1]
EXAMPLE_SHEET: Final = (ROOT / "examples" / "score-sheet.csv").read_bytes()
EXAMPLE_GAME: Final = b"example-open:r1:t2"
TOKEN: Final = b"fuzz-00000000"
"""The id every seed file carries (a game's, a tournament's); :meth:`Bench.run` makes it
the example's own, of the same length, after the mutation (so the examples Hypothesis
draws do not depend on how many ran before)."""
ROTATE: Final = 150
OUTCOMES: Final = ("accepted", "accepted_with_findings", "rejected", "duplicate")
WIDE: Final = {"COLUMNS": "2000"}  # no file name is folded across lines of the table


@dataclass
class Bench:
    """A store and a scratch folder that examples run in, one after another."""

    root: Path
    examples: int = 0
    stores: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)

    @property
    def db(self) -> Path:
        return self.root / f"store-{self.stores}.duckdb"

    def run(self, name: bytes, content: bytes) -> str:
        """Ingest ``content`` under the file name ``name`` (bytes, as the file system
        has it) beside a valid sheet; check the invariants; the fuzzed file's outcome.
        The :data:`TOKEN` in ``content`` becomes this example's id."""
        self.examples += 1
        if self.examples % ROTATE == 0:
            self.close()
            self.stores += 1
        folder = self.root / f"example-{self.examples}"
        folder.mkdir()
        try:
            return self._run(folder, name, content)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _run(self, folder: Path, name: bytes, content: bytes) -> str:
        fuzzed = Path(os.fsdecode(os.fsencode(folder) + b"/" + name))
        fuzzed.write_bytes(content.replace(TOKEN, f"fuzz-{self.examples:08d}".encode()))
        neighbour = folder / "neighbour-sheet.csv"
        neighbour.write_bytes(EXAMPLE_SHEET.replace(EXAMPLE_GAME, f"neighbour-{self.examples:08d}".encode()))
        last, head = _chain(self.db)
        result = CliRunner().invoke(
            app, ["ingest", str(fuzzed), str(neighbour), "--db", str(self.db), "--workers", "1"], env=WIDE
        )
        output = result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1, 2), output
        assert "Traceback" not in output, output
        assert result.exit_code != 2, f"the store was refused: {output}"

        shown = safe_name(str(fuzzed))
        mine, theirs = _upload(self.db, shown), _upload(self.db, safe_name(str(neighbour)))
        assert theirs["outcome"] == "accepted", f"the valid neighbour was {theirs['outcome']}: {output}"
        outcome = str(mine["outcome"])
        assert outcome in OUTCOMES, mine
        if outcome in ("rejected", "accepted_with_findings"):
            assert shown in output, f"{shown!r} is not named in the output:\n{output}"
        if outcome == "rejected":
            assert _reason(mine), f"no reason for rejecting {shown!r}: {mine['report']}"
        accepted = [u["upload_id"] for u in (mine, theirs) if u["outcome"] in ("accepted", "accepted_with_findings")]
        _assert_appended_only(self.db, last, head, accepted)
        self.outcomes[outcome] += 1
        event(f"outcome: {outcome}")
        return outcome

    def close(self) -> None:
        """Verify the store as it stands: hash chain and read models."""
        if not self.db.exists():
            return
        result = CliRunner().invoke(app, ["verify", "--db", str(self.db)], env=WIDE)
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output


def _read(db: Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def _chain(db: Path) -> tuple[int, str | None]:
    """The newest event's position and hash: the chain's head (0 and none when empty)."""
    if not db.exists():
        return 0, None
    [(last, head)] = _read(db, "SELECT coalesce(max(position), 0), arg_max(hash, position) FROM events")
    return int(last), head


def _upload(db: Path, name: str) -> dict[str, Any]:
    """The newest upload stored under ``name``."""
    rows = _read(
        db, "SELECT upload_id, outcome, report FROM uploads WHERE name = ? ORDER BY upload_id DESC LIMIT 1", [name]
    )
    assert rows, f"no upload named {name!r}"
    upload_id, outcome, report = rows[0]
    return {"upload_id": upload_id, "outcome": outcome, "report": report}


def _reason(upload: dict[str, Any]) -> str:
    """Why a file was rejected, as its report says: the reason given, or the first
    finding's message."""
    report = json.loads(upload["report"])
    found = report.get("violations") or [{}]
    return str(report.get("rejected") or found[0].get("message") or "")


def _assert_appended_only(db: Path, last: int, head: str | None, accepted: list[int]) -> None:
    """The chain up to the head before the run is as it was, and every event after it
    comes from an upload accepted in this run."""
    [(before, foreign)] = _read(
        db,
        "SELECT count(*) FILTER (WHERE position <= ?), "
        "count(*) FILTER (WHERE position > ? AND (upload_id IS NULL OR NOT list_contains(?::BIGINT[], upload_id))) "
        "FROM events",
        [last, last, accepted],
    )
    assert foreign == 0, f"{foreign} new events from an upload that was not accepted"
    assert before == last, "events before this run were removed"
    if head is not None:
        [(kept,)] = _read(db, "SELECT hash FROM events WHERE position = ?", [last])
        assert kept == head, "the chain before this run changed"
