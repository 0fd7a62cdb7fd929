"""The Audit page's penalties: the organiser sees each penalty that counts, by its
number, and withdraws one given in error with a reason (R-TS5), an event appended to
the tournament's record; the penalty stays there and no longer counts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from analytics import records
from analytics.browse import penalties
from analytics.standings import standings
from ingest.store import Store
from tests.dashboard.conftest import TOURNAMENT, log_in, page_text

Open = Callable[..., AppTest]
WITHDRAW = "FormSubmitter:withdraw_penalty-Withdraw the penalty"


def test_without_penalties_the_audit_page_lists_none(open_page: Open, organiser: str) -> None:
    at = log_in(open_page("audit"), organiser)
    assert not any(e.label.startswith("Penalties") for e in at.expander)


def test_the_organiser_withdraws_a_penalty_given_in_error(open_page: Open, organiser: str, db: Path) -> None:
    store = Store(db)
    (first, first_name), (second, second_name) = standings(store, TOURNAMENT).select("player", "name").rows()[:2]
    records.penalty(store, TOURNAMENT, first, 3, "slow play")
    records.penalty(store, TOURNAMENT, second, 1, "*late* to the table")
    at = log_in(open_page("audit"), organiser)
    assert [e.label for e in at.expander if e.label.startswith("Penalties")] == ["Penalties (2)"]
    assert "\\*late\\* to the table" in page_text(at)  # the reason is text, not Markdown
    assert at.selectbox(key="withdraw_pick").options == [f"1 · {first_name} · 3", f"2 · {second_name} · 1"]

    at.selectbox(key="withdraw_pick").set_value(1)  # a form's fields go in with its button
    at.button(key=WITHDRAW).click().run()
    assert any("Give a reason" in e.value for e in at.error), page_text(at)
    assert penalties(store, TOURNAMENT)["number"].to_list() == [1, 2]

    at.selectbox(key="withdraw_pick").set_value(1)
    at.text_input(key="withdraw_reason").input("it was the other player")
    at.button(key=WITHDRAW).click().run()
    assert any("Recorded the withdrawal of penalty 1" in s.value for s in at.success), page_text(at)
    assert penalties(store, TOURNAMENT)["number"].to_list() == [2]
    counted = dict(standings(store, TOURNAMENT).select("player", "penalty").rows())
    assert (counted[first], counted[second]) == (0, 1)
    assert [e.label for e in at.expander if e.label.startswith("Penalties")] == ["Penalties (1)"]
    assert at.selectbox(key="withdraw_pick").options == [f"2 · {second_name} · 1"]


LEAVE = "FormSubmitter:withdraw_player-Withdraw the player"
BACK = "FormSubmitter:return_player-Record the return"


def test_the_organiser_withdraws_a_player_who_leaves_and_records_the_return(
    open_page: Open, organiser: str, db: Path
) -> None:
    """A player goes home: the organiser withdraws them with a reason on the Audit page
    (their rounds stand, the cut passes them over), and records their return the same
    way; each an event appended to the record."""
    store = Store(db)
    (player, name) = standings(store, TOURNAMENT).select("player", "name").row(2)
    at = log_in(open_page("audit"), organiser)
    assert [e.label for e in at.expander if e.label.startswith("Withdrawn")] == ["Withdrawn players (0)"]
    assert f"{name} ({player})" in at.selectbox(key="leave_pick").options  # as the box words them

    at.selectbox(key="leave_pick").set_value(player)
    at.button(key=LEAVE).click().run()
    assert any("Give a reason" in e.value for e in at.error), page_text(at)
    assert records.withdrawn(store, TOURNAMENT) == {}

    at.selectbox(key="leave_pick").set_value(player)
    at.text_input(key="leave_reason").input("went home *ill*")
    at.button(key=LEAVE).click().run()
    assert any(f"Recorded the withdrawal of {name}" in s.value for s in at.success), page_text(at)
    assert records.withdrawn(store, TOURNAMENT) == {player: "went home *ill*"}
    assert "went home \\*ill\\*" in page_text(at)  # the reason is text, not Markdown
    assert f"{name} ({player})" not in at.selectbox(key="leave_pick").options
    assert standings(store, TOURNAMENT).filter(standings(store, TOURNAMENT)["player"] == player)["withdrawn"].item()

    at.selectbox(key="back_pick").set_value(player)
    at.text_input(key="back_reason").input("back for the next round")
    at.button(key=BACK).click().run()
    assert any(f"Recorded the return of {name}" in s.value for s in at.success), page_text(at)
    assert records.withdrawn(store, TOURNAMENT) == {}
    assert [e.label for e in at.expander if e.label.startswith("Withdrawn")] == ["Withdrawn players (0)"]
