"""The example logs of ``examples/``: current with their maker, and clean."""

from __future__ import annotations

from pathlib import Path

from events.audit import audit_file
from events.logfile import read_log
from events.schema import GameStarted
from examples.make_examples import write_examples

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOGS = sorted(EXAMPLES.glob("*.jsonl"))


def test_the_examples_are_current_and_clean(tmp_path: Path) -> None:
    written = write_examples(tmp_path)
    assert {p.name for p in written} == {p.name for p in LOGS}, "run python examples/make_examples.py"
    for path in written:
        assert (EXAMPLES / path.name).read_bytes() == path.read_bytes(), f"{path.name} is out of date"
        result = audit_file(path)
        assert (result.status, result.findings) == ("clean", []), path.name


def test_the_observed_example_is_a_final_table_of_four_rounds() -> None:
    path = EXAMPLES / "observed-final-table.jsonl"
    header = next(read_log(path)).event
    assert isinstance(header, GameStarted)
    assert header.observed and header.stage == "final" and header.ruleset == "tournament"
    assert (header.rounds, len(header.players)) == (4, 6)
    assert [o.round for o in audit_file(path).outcomes] == [1, 2, 3, 4]
