"""The Audit page's referee codes: the organiser sees each code by its fingerprint and
revokes one with a reason, an event appended to the tournament's record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from analytics import records
from analytics.records import referee_access
from ingest.store import Store
from tests.dashboard.conftest import TOURNAMENT, log_in, page_text

Open = Callable[..., AppTest]
REVOKE = "FormSubmitter:revoke_code-Revoke the code"


def test_without_codes_the_audit_page_shows_none(open_page: Open, organiser: str) -> None:
    at = log_in(open_page("audit"), organiser)
    assert not [e for e in at.expander if e.label.startswith("Referee codes")]
    assert "Referee codes" not in page_text(at)


def test_the_organiser_revokes_a_tables_code_with_a_reason(open_page: Open, organiser: str, db: Path) -> None:
    store = Store(db)
    first, second, *_ = issued = records.issue_referee_codes(store, TOURNAMENT, 1)
    at = log_in(open_page("audit"), organiser)
    (expander,) = [e for e in at.expander if e.label.startswith("Referee codes")]
    assert expander.label == f"Referee codes ({len(issued)} live)"
    listed = at.dataframe[0].value
    assert list(listed["fingerprint"]) == [code.fingerprint for code in reversed(issued)]
    assert not any(code.code in page_text(at) for code in issued)

    at.selectbox(key="revoke_card").set_value("1:1")  # a form's fields go in with its button
    at.button(key=REVOKE).click().run()
    assert any("Give a reason" in e.value and "--" not in e.value for e in at.error), page_text(at)
    assert referee_access(store, first.code) is not None

    at.selectbox(key="revoke_card").set_value("1:1")
    at.text_input(key="revoke_reason").input("the card went home with a player")
    at.button(key=REVOKE).click().run()
    assert any("Recorded the revocation of the code of table 1 of round 1" in s.value for s in at.success), page_text(
        at
    )
    assert referee_access(store, first.code) is None
    assert referee_access(store, second.code) == second.access
    assert at.expander[0].label == f"Referee codes ({len(issued) - 1} live)"
    assert "the card went home with a player" in page_text(at)
    assert "1:1" not in at.selectbox(key="revoke_card").options
