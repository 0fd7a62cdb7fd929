"""No public page shows the roles, hands or goal positions of a round that has not
ended — its public replay is the observed log of its game, so the public never sees
more than the table; the organiser sees them."""

from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from dashboard import names, widgets
from dashboard.markup import escape
from dashboard.maze_svg import maze_svg
from dashboard.replay_view import game_view
from events.logfile import parse_data
from events.observe import observe
from tests.dashboard.conftest import UNFINISHED, Sample, log_in, maze, page_text, unfinished_log
from tests.dashboard.test_pages import metric

Open = Callable[..., AppTest]
ROLES = ("gold_digger", "gold digger", "saboteur", "selfish_dwarf", "selfish dwarf")


def hidden(text: str, sample: Sample) -> list[str]:
    """Private things that show in ``text``."""
    return [
        word
        for word in (*sample.unfinished_hand, *ROLES, "goal_gold", "goal_stone", "the gold", "treasure")
        if word in text
    ]


def unfinished(open_page: Open) -> AppTest:
    return open_page("replay", replay_tournament=widgets.NONE, replay_game=UNFINISHED)


def test_the_public_replay_of_an_unfinished_round_hides_hands_roles_and_goals(open_page: Open, sample: Sample) -> None:
    at = unfinished(open_page)
    assert at.selectbox(key="replay_game").value == UNFINISHED
    assert any("has not ended" in c.value for c in at.caption)
    steps = at.slider(key="replay_step")
    errors: dict[int, list[str]] = {}
    for step in range(int(steps.max) + 1):
        at.slider(key="replay_step").set_value(step).run()
        text = page_text(at)
        assert hidden(text, sample) == [], (step, text)
        svg = maze(at)
        assert svg.count('class="card goal-back"') == 3 and 'data-card="goal' not in svg
        assert {"role", "hand", "looked at"}.isdisjoint(at.dataframe[0].value.columns)
        if at.error:
            errors[step] = [e.value for e in at.error]
    # the public view is the observed log of the game: a card not in cem's hand (line 7)
    # is nothing the table could see, so it is no finding there (the organiser's view
    # shows it: test_the_organiser_sees_the_unfinished_round_as_the_referee)
    assert errors == {}
    assert any("as the table saw it" in c.value for c in at.caption)
    # asking for the referee's view changes nothing
    at.radio(key="replay_view").set_value("Referee").run()
    assert any("has not ended" in w.value for w in at.warning)
    assert hidden(page_text(at), sample) == []
    assert "role" not in at.dataframe[0].value.columns


def test_the_public_replay_of_a_round_in_play_is_its_observed_log_step_by_step(open_page: Open) -> None:
    """Exactly the observed projection of the full log (events.observe): what happened,
    who is to act, each hand's count, the pile, the maze — whoever asks, and whichever
    view they ask for."""
    lines, _ = unfinished_log()
    seen = game_view(list(parse_data(observe("".join(line + "\n" for line in lines).encode())))).rounds[1]
    at = unfinished(open_page)
    assert int(at.slider(key="replay_step").max) == len(seen.frames) - 1
    for view in ("Public", "Referee"):
        at.radio(key="replay_view").set_value(view).run()
        for step, frame in enumerate(seen.frames):
            at.slider(key="replay_step").set_value(step).run()
            assert [h.value for h in at.header] == [escape(frame.public)], step
            table = at.dataframe[0].value
            assert table["cards"].tolist() == [len(frame.hands[p]) for p in table["player"].str.removeprefix("▶ ")]
            assert (metric(at, "Draw pile"), metric(at, "Discards")) == (str(frame.pile), str(frame.discards))
            assert maze(at) == maze_svg(frame.cells, setup_cell=frame.setup_cell, highlight=frame.acted_on)


def test_the_organiser_sees_the_unfinished_round_as_the_referee(
    open_page: Open, organiser: str, sample: Sample
) -> None:
    at = log_in(open_page("audit"), organiser)
    at.query_params.clear()  # the Audit page's own address names its tournament
    at.query_params["game"] = UNFINISHED  # the round's shareable address
    at.switch_page("views/replay.py").run()
    at.radio(key="replay_view").set_value("Referee").run()
    at.slider(key="replay_step").set_value(2).run()
    table = at.dataframe[0].value
    assert {"role", "hand"} <= set(table.columns)
    cem = table[table["player"].str.endswith("cem")].iloc[0]
    assert cem["hand"] == "; ".join(names.card(card) for card in sample.unfinished_hand)  # plain words
    assert 'data-card="goal_gold"' in maze(at)
    at.slider(key="replay_step").set_value(5).run()
    (error,) = [e.value for e in at.error]
    assert error.startswith("line 7 · played a card that was not in hand (R-T4) · cem: ")


def test_other_public_pages_leave_the_unfinished_round_out(open_page: Open, sample: Sample) -> None:
    rounds = open_page("rounds")
    assert UNFINISHED not in page_text(rounds)
    players = open_page("players")
    assert not {"ann", "bob", "cem"} & set(players.selectbox(key="players_player").options)
    roles = open_page("roles")
    assert sum(roles.dataframe[0].value["dealt"]) == 13 * 6  # finished rounds only
