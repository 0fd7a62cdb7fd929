"""The fixture logs of ``tests/data``: one bad log per violation code, clean games.

The bad logs sit beside the finding they must produce (``<code>.expected.json``), so a
reader sees each code of event-log.md's table in a file of its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.audit import audit_file
from events.findings import Code
from tests.data.make_fixtures import write_fixtures

DATA = Path(__file__).parent / "data"
BAD = sorted((DATA / "bad").glob("*.jsonl"))
GOOD = sorted((DATA / "good").glob("*.jsonl"))


def expected(log: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(log.with_name(log.name.removesuffix(".jsonl") + ".expected.json").read_text())
    return data


def test_every_code_has_a_fixture() -> None:
    assert {expected(log)["code"] for log in BAD} == {code.value for code in Code}
    assert {log.name.removesuffix(".jsonl") for log in BAD} == {code.value for code in Code}


@pytest.mark.parametrize("log", BAD, ids=lambda p: p.stem)
def test_bad_fixture_reports_its_code_at_its_line(log: Path) -> None:
    want = expected(log)
    result = audit_file(log)
    found = [(f.code.value, f.line) for f in result.findings]
    assert (want["code"], want["line"]) in found
    assert result.status == ("clean" if want["code"] == "incomplete" else "violations")
    # the log shows one thing: no other error beside it
    assert {f.code.value for f in result.findings if f.severity == "error"} <= {want["code"]}


@pytest.mark.parametrize("log", GOOD, ids=lambda p: p.stem)
def test_good_fixture_audits_clean(log: Path) -> None:
    result = audit_file(log)
    assert result.status == "clean"
    assert result.findings == []


def test_good_fixtures_cover_both_rulesets() -> None:
    tournament = audit_file(DATA / "good" / "tournament_3_rounds.jsonl")
    assert [o.round for o in tournament.outcomes] == [1, 2, 3]
    assert any(o.winner == "gold_diggers" and o.connector in o.stars for o in tournament.outcomes)
    base = audit_file(DATA / "good" / "base_3_players.jsonl")
    assert base.outcomes
    first = json.loads((DATA / "good" / "base_3_players.jsonl").read_text().splitlines()[0])
    assert first["ruleset"] == "base"
    assert len(first["players"]) == 3


def test_fixtures_are_current(tmp_path: Path) -> None:
    written = write_fixtures(tmp_path)
    for path in written:
        committed = DATA / path.relative_to(tmp_path)
        assert committed.exists(), f"{committed} is missing: run python tests/data/make_fixtures.py"
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} is out of date: run python tests/data/make_fixtures.py"
        )
    committed_files = {p.relative_to(DATA) for folder in ("bad", "good") for p in (DATA / folder).iterdir()}
    assert committed_files == {p.relative_to(tmp_path) for p in written}, "stale fixture files in tests/data"
