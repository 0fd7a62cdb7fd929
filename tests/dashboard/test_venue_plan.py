"""The referee's plan of the venue benchmark and fault tests (``tests/venue/plan.py``),
tapped on the Record page in process: every step finds its button, the next screen
shows the button the plan waits for, the page warns exactly where the plan says, and
the log the game leaves holds exactly the entries the plan counts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from events.audit import audit
from ingest.drafts import read_draft
from ingest.store import Store
from tests.venue.morning import morning
from tests.venue.plan import game_plan

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def test_the_plan_records_a_whole_game_with_every_kind_of_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "venue.duckdb"
    (table, *_) = morning(db, 1)
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.delenv("SABOTEUR_ADMIN_PASSWORD", raising=False)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("views/record.py")
    at.query_params["code"] = table.code
    at.run()
    plan = game_plan(table.players)
    warned = 0
    for n, step in enumerate(plan.steps):
        if step.kind == "tap":
            at.button(key=step.key).click().run()
        elif step.kind == "fill":
            at.number_input(key=step.key).set_value(int(step.value)).run()
        assert not at.exception, (n, step, [e.value for e in at.exception])
        errors = [e.value for e in at.error]
        assert bool(errors) == step.warned, (n, step, errors)
        warned += step.warned
        if step.then is not None:
            assert step.then in [b.key for b in at.button] + [d.key for d in at.get("download_button")], (n, step)
    draft = read_draft(Store(db), table.game_id)
    assert draft is not None and draft.finished
    kinds = Counter(json.loads(line)["type"] for line in draft.lines)
    assert kinds == plan.expected()
    assert kinds["play_path"] == 3 * 7 and kinds["draw"] == 3 * 10
    findings = Counter(f.code.value for f in audit(list(draft.lines)).findings)
    assert findings == {"illegal_placement": warned} and warned == 3
