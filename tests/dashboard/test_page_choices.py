"""The choices made on a page stay made for the session: a reader who picks a player,
goes to the standings with the sidebar and comes back finds their player again, not the
first of the list (Streamlit forgets a widget's value once a run does not draw it;
``dashboard.widgets`` keeps the choices apart). A shared address still opens on what it
names. Each page names only its own choices in its address."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from analytics.standings import standings
from ingest.store import Store
from tests.dashboard.conftest import APP, TOURNAMENT, run_page
from tests.dashboard.test_replay_address import GAME, step_shown


def go(at: AppTest, page: str) -> AppTest:
    """``at`` on ``page``, as the sidebar's link opens it: the browser leaves the last
    page's address behind."""
    at.query_params.clear()
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_every_pages_choices_outlast_a_visit_to_another_page(db: Path) -> None:
    player = standings(Store(db), TOURNAMENT)["player"][-1]
    at = run_page("players")
    at.selectbox(key="players_player").set_value(player).run()
    go(at, "standings").radio(key="standings_stage").set_value("final").run()
    go(at, "round").selectbox(key="round_number").set_value((1, "preliminary")).run()
    go(at, "roles").number_input(key="roles_min_n").set_value(7).run()
    go(at, "replay").selectbox(key="replay_game").set_value(GAME).run()
    at.selectbox(key="replay_round").set_value(2).run()
    at.slider(key="replay_step").set_value(5).run()

    assert go(at, "players").selectbox(key="players_player").value == player
    assert at.query_params["player"] == player  # the address names it again
    assert go(at, "standings").radio(key="standings_stage").value == "final"
    assert dict(at.query_params) == {"tournament": TOURNAMENT, "stage": "final"}
    assert go(at, "round").selectbox(key="round_number").value == (1, "preliminary")
    assert go(at, "roles").number_input(key="roles_min_n").value == 7
    go(at, "replay")
    assert (at.selectbox(key="replay_game").value, at.selectbox(key="replay_round").value) == (GAME, 2)
    assert step_shown(at) == 5 and at.query_params["step"] == "5"
    assert not at.warning


def test_a_shared_address_still_opens_on_what_it_names(db: Path) -> None:
    first, second = standings(Store(db), TOURNAMENT)["player"][:2]
    at = run_page("players", players_player=first)
    fresh = AppTest.from_file(str(APP), default_timeout=60)  # another browser, the link pasted
    fresh.query_params.update({"player": second, "tournament": TOURNAMENT})
    fresh.switch_page("views/players.py").run()
    assert fresh.selectbox(key="players_player").value == second
    assert at.selectbox(key="players_player").value == first


def test_a_page_names_only_its_own_choices_in_its_address(db: Path) -> None:
    """After a page switch the browser's new entry still holds the last page's
    parameters (Back lands on it): the page there writes its own in their place."""
    at = run_page("players")
    left = dict(at.query_params)
    at.query_params.update(left)  # what the entry the browser added for the standings holds
    at.switch_page("views/standings.py").run()
    assert set(at.query_params) == {"tournament", "stage", "lang"}
