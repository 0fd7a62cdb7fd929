"""An observed round in the dashboard (issue 11, points 5 and 6): the replay draws it as
the table saw it — hand counts, goals face down until turned up, roles unknown until
the round's end, the referee's notes at their step — and its ``table_incident``
findings reach the Audit page, where one action turns one into a penalty, and the
Rounds filter."""

from __future__ import annotations

import json

import pytest

from analytics.standings import standings
from dashboard import names as words
from dashboard.markup import escape
from dashboard.maze_svg import maze_svg
from dashboard.replay_view import Frame, GameView, game_view
from events import cards
from events.logfile import parse_data
from events.schema import GoalRevealed
from events.tables import hand_size
from ingest.store import Store
from tests.dashboard.conftest import OBSERVED_GAME, TOURNAMENT, Observed, log_in, maze, page_text, run_page
from tests.dashboard.test_organiser import events
from tests.ingest.observed_logs import NOTE, note_line, observed, simulated


def view_of(text: str) -> GameView:
    return game_view(list(parse_data(text.encode())))


def face_up_goals(frame: Frame) -> int:
    return sum(1 for cell in cards.GOAL_CELLS.values() if frame.cells[cell].face_up)


# -- the frames --------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "ruleset", "seed"), [(7, "tournament", 15), (5, "base", 8)])
def test_an_observed_rounds_frames_show_what_the_table_saw_and_nothing_hidden(
    players: int, ruleset: str, seed: int
) -> None:
    full = simulated(players, ruleset, seed)
    full_view, seen_view = view_of(full), view_of(observed(full))
    assert seen_view.observed and not full_view.observed
    assert list(seen_view.rounds) == list(full_view.rounds)
    for number, seen_round in seen_view.rounds.items():
        full_frames = full_view.rounds[number].frames
        assert len(seen_round.frames) == len(full_frames)
        ended = _ended_at(seen_round.frames)
        for step, (seen, whole) in enumerate(zip(seen_round.frames, full_frames, strict=True)):
            assert seen.public == whole.public
            # the hands and the pile counted, not seen
            assert {p: len(h) for p, h in seen.hands.items()} == {p: len(h) for p, h in whole.hands.items()}
            assert {card for hand in seen.hands.values() for card in hand} <= {cards.UNSEEN}
            assert (seen.pile, seen.discards) == (whole.pile, whole.discards)
            if seen.kind in ("discard", "draw", "play_map"):
                assert seen.referee == seen.public
            # the roles unknown until the round's end names them
            if step < ended:
                assert set(seen.roles.values()) == {None}
            else:
                assert seen.roles == whole.roles
            # a goal is unseen until the line that turns it up (where the full log's
            # view turns it up too, not at the card that reaches it), and then as dealt
            for cell in cards.GOAL_CELLS.values():
                shown, dealt = seen.cells[cell], whole.cells[cell]
                if shown.face_up:
                    assert dealt.face_up and shown.card == dealt.card
                else:
                    assert shown.card == cards.UNSEEN
                    assert not dealt.face_up or seen.kind == "goal_revealed"
            # even the referee's picture draws no card the log does not know
            svg = maze_svg(seen.cells, setup_cell=seen.setup_cell, show_goals=True)
            assert 'data-card="?"' not in svg
            assert svg.count('data-card="goal') == face_up_goals(seen)
    assert any(face_up_goals(f) for r in seen_view.rounds.values() for f in r.frames)


@pytest.mark.parametrize(("players", "ruleset", "seed"), [(7, "tournament", 15), (5, "base", 8)])
def test_a_goal_is_drawn_face_up_at_the_step_that_turns_it_up(players: int, ruleset: str, seed: int) -> None:
    """The card that reaches a goal is one step, the goal turned up the next: the card's
    picture showed the goal face up already, a step before the sentence that turns it
    up (in a full log; an observed one waited for the line)."""
    full = simulated(players, ruleset, seed)
    for log in (full, observed(full)):
        turned = 0
        for played in view_of(log).rounds.values():
            for before, frame in zip(played.frames, played.frames[1:], strict=False):
                up = {slot for slot, cell in cards.GOAL_CELLS.items() if frame.cells[cell].face_up}
                was = {slot for slot, cell in cards.GOAL_CELLS.items() if before.cells[cell].face_up}
                if isinstance(frame.event, GoalRevealed):
                    assert up - was == {frame.event.goal}, (frame.line, frame.public)
                    turned += 1
                else:
                    assert up == was, (frame.line, frame.public)
        assert turned


def _ended_at(frames: list[Frame]) -> int:
    """The step of the round's ``round_ended`` (past the last step if none)."""
    return next((step for step, f in enumerate(frames) if f.kind == "round_ended"), len(frames))


def test_a_referee_note_shows_at_its_step_its_words_for_the_referee() -> None:
    full = simulated(6, "tournament", 3)
    view = view_of(observed(full, notes={5: note_line("p2")}))
    frames = view.rounds[1].frames
    (step,) = [i for i, f in enumerate(frames) if f.kind == "referee_note"]
    frame = frames[step]
    assert frame.line == 6
    assert frame.public == "referee's note: p2 showed a hand card"
    assert frame.referee == f"referee's note: p2 showed a hand card: {NOTE}"
    (found,) = frame.findings
    assert (found.code, found.rule, found.player, found.line) == ("table_incident", "R-C1", "p2", 6)
    # the note changes nothing on the table
    assert (frame.hands, frame.pile, frame.turn) == (
        frames[step - 1].hands,
        frames[step - 1].pile,
        frames[step - 1].turn,
    )


# -- the pages -----------------------------------------------------------------------------


def test_the_replay_draws_an_observed_round_as_the_table_saw_it(observed_db: Observed) -> None:
    at = run_page("replay", replay_tournament=TOURNAMENT, replay_game=OBSERVED_GAME)
    at.radio(key="replay_view").set_value("Referee").run()  # a finished round: open to all
    assert any("An observed log" in c.value for c in at.caption)
    table = at.dataframe[0].value
    assert "hand" not in table.columns
    assert set(table["role"]) == {"unknown"}
    assert table["cards"].tolist() == [hand_size(len(table))] * len(table)  # R-S4, counted
    svg = maze(at)
    assert svg.count('class="card goal-back"') == 3 and 'data-card="goal' not in svg and 'data-card="?"' not in svg

    log = observed(observed_db.full_log.read_text(), notes={observed_db.note_line - 1: note_line(observed_db.noted)})
    frames = view_of(log).rounds[1].frames
    (step,) = [i for i, f in enumerate(frames) if f.line == observed_db.note_line]
    at.slider(key="replay_step").set_value(step).run()
    (error,) = [e.value for e in at.error]
    description = json.loads((observed_db.full_log.parent / "tournament.json").read_text())
    names = {person["id"]: person["name"] for person in description["players"]}  # the players by name
    incident = words.finding("table_incident")  # the finding's code in plain words
    assert error.startswith(f"line {observed_db.note_line} · {incident} (R-C1) · {escape(names[observed_db.noted])}: ")
    assert escape(NOTE) in error
    assert [h.value for h in at.header] == [escape(frames[step].told(names, referee=True))]

    at.slider(key="replay_step").set_value(_ended_at(frames)).run()
    roles = at.dataframe[0].value["role"]
    dealt = json.loads(observed_db.full_log.read_text().splitlines()[1])["roles"]
    assert "unknown" not in set(roles) and sorted(roles) == sorted(words.role(r) for r in dealt.values())

    at.radio(key="replay_view").set_value("Public").run()
    at.slider(key="replay_step").set_value(step).run()
    assert [h.value for h in at.header] == [escape(frames[step].told(names))]


def test_audit_turns_a_table_incident_into_a_penalty_in_one_action(observed_db: Observed, organiser: str) -> None:
    at = log_in(run_page("audit"), organiser)
    found = at.dataframe[0].value
    incident = found[found["code"] == words.finding("table_incident")].iloc[0]  # the code in plain words
    description = json.loads((observed_db.full_log.parent / "tournament.json").read_text())
    names = {person["id"]: person["name"] for person in description["players"]}
    assert incident["player"] == names[observed_db.noted]  # by name, as the table knows them
    assert incident["line"] == observed_db.note_line
    before = standings(Store(observed_db.db), TOURNAMENT)
    at.selectbox(key="audit_finding").set_value(incident["finding_id"]).run()
    assert at.selectbox(key="penalty_player").value == observed_db.noted
    at.number_input(key="penalty_points").set_value(2)
    at.button(key="FormSubmitter:penalty-Give the penalty for this finding").click().run()
    assert any("Recorded a penalty of 2" in s.value for s in at.success), page_text(at)
    assert events(observed_db.db)[-1] == (f"tournament:{TOURNAMENT}", "penalty_given")
    with Store(observed_db.db).connect(read_only=True) as con:
        payload = json.loads(con.execute("SELECT payload FROM events ORDER BY position DESC LIMIT 1").fetchall()[0][0])
    assert payload["finding"] == incident["finding_id"] and payload["player"] == observed_db.noted
    reason = f"{words.finding('table_incident')} at line {observed_db.note_line}: referee's note"  # in plain words
    assert payload["reason"].startswith(reason)
    assert any("No open findings" in s.value for s in at.success)  # the penalty settled the only one
    after = standings(Store(observed_db.db), TOURNAMENT)
    penalised = after.filter(after["player"] == observed_db.noted)
    assert penalised["penalty"].to_list() == [2]
    assert after["points"].sum() == before["points"].sum() - 2


def test_the_rounds_filter_finds_the_table_incidents(observed_db: Observed) -> None:
    at = run_page("rounds")
    assert "the referee noted an incident at the table" in at.selectbox(key="rounds_code").options  # table_incident
    at.selectbox(key="rounds_code").set_value("table_incident").run()
    listed = at.dataframe[0].value
    assert list(zip(listed["game_id"], listed["round"], strict=True)) == [(OBSERVED_GAME, 1)]


def test_the_roles_page_says_it_counts_observed_rounds(observed_db: Observed) -> None:
    at = run_page("roles")
    assert any("Observed rounds included: 3" in c.value for c in at.caption), [c.value for c in at.caption]
