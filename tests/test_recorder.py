"""The table-side recorder (events/recorder.py): what it predicts, previews and writes.

The strongest check is a whole game: every simulated game, observed, is fed to a
recorder line by line, and before each line the recorder's :meth:`~Recorder.due` must
name that line (its kind and its player), its preview must equal the findings the line
brings, and the ``round_ended``/``game_ended`` it proposes must be the ones written.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.logfile import parse_line
from events.observe import observe
from events.recorder import Due, NotObserved, Recorder
from events.schema import EVENT_ADAPTER, Event, GameStarted, RoundEnded, dump_event
from events.simulate.game import quick_game

DUE_OF = {
    "play_path": "turn",
    "play_tool": "turn",
    "play_rockfall": "turn",
    "play_map": "turn",
    "discard": "turn",
    "draw": "draw",
    "goal_revealed": "reveal",
    "round_started": "round",
    "round_ended": "round_end",
    "game_ended": "game_end",
}


def observed_game(players: int, ruleset: str, rounds: int, seed: int) -> list[str]:
    full = "".join(dump_event(e) + "\n" for e in quick_game(players, ruleset, rounds, seed))
    return observe(full.encode()).decode().splitlines()


def event_of(text: str) -> Event:
    event = parse_line(1, text).event
    assert event is not None
    return event


def _untimed(text: str) -> dict[str, object]:
    obj: dict[str, object] = json.loads(text)
    obj.pop("at", None)
    return obj


def follow(lines: list[str]) -> Recorder:
    """Feed every line, checking the recorder's prediction before each one."""
    recorder = Recorder(lines[:1])
    for number, text in enumerate(lines[1:], start=2):
        event = event_of(text)
        due = recorder.due()
        assert due.kind == DUE_OF[event.type], (number, due, text)
        if due.kind in ("turn", "draw"):
            assert due.player == event.player, (number, due, text)  # type: ignore[attr-defined]
        if due.kind == "reveal":
            assert due.slots[0] == event.goal, (number, due, text)  # type: ignore[attr-defined]
        if event.type == "round_ended":
            assert isinstance(event, RoundEnded) and event.roles is not None
            proposed = recorder.round_end(event.roles, event.gold_cards)
            assert _untimed(dump_event(proposed)) == _untimed(text)
        if event.type == "game_ended":
            assert _untimed(dump_event(recorder.game_end())) == _untimed(text)
        previewed = recorder.preview(event)
        assert recorder.record(event) == previewed
    assert recorder.due() == Due("over")
    return recorder


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["tournament", "base"]).flatmap(
        lambda ruleset: st.tuples(
            st.just(ruleset),
            st.integers(5, 10) if ruleset == "tournament" else st.integers(3, 10),
            st.integers(1, 4 if ruleset == "tournament" else 3),
            st.integers(0, 2**32 - 1),
        )
    )
)
def test_the_recorder_names_every_line_of_a_game_before_it_comes(table: tuple[str, int, int, int]) -> None:
    ruleset, players, rounds, seed = table
    lines = observed_game(players, ruleset, rounds, seed)
    recorder = follow(lines)
    assert recorder.lines == lines
    assert not [f for f in recorder.findings if f.severity == "error"]


def test_a_preview_records_nothing_and_names_the_rule_in_the_replays_words() -> None:
    lines = observed_game(6, "tournament", 1, 3)
    recorder = Recorder(lines[:2])  # the deal: the start player's turn is due
    due = recorder.due()
    assert due.kind == "turn" and due.player is not None
    wrong = next(p for p in recorder.game.players if p != due.player)
    event = EVENT_ADAPTER.validate_python({"type": "discard", "player": wrong, "card": None})
    (finding,) = recorder.preview(event)
    assert finding.code.value == "out_of_turn" and finding.rule == "R-T1"
    assert f"it is {due.player}'s turn" in finding.message
    assert recorder.lines == lines[:2]
    assert recorder.record(event) == [finding]  # recorded as it happened: now a finding
    assert len(recorder.lines) == 3


def test_undo_takes_back_the_last_line_only() -> None:
    lines = observed_game(5, "tournament", 1, 11)
    recorder = Recorder(lines[:6])
    back = recorder.undo()
    assert back.lines == lines[:5]
    assert back.hand_counts() == Recorder(lines[:5]).hand_counts()
    with pytest.raises(ValueError, match="nothing to undo"):
        Recorder(lines[:1]).undo()


def test_legal_cells_are_the_cells_a_path_card_may_go() -> None:
    lines = observed_game(5, "tournament", 1, 11)
    recorder = Recorder(lines[:2])
    cells = recorder.legal_cells("EW")
    assert ((1, 0), False) in cells
    assert all(cell != (0, 0) for cell, _ in cells)
    assert recorder.legal_cells("map") == []


def test_counts_at_the_deal() -> None:
    recorder = Recorder(observed_game(5, "tournament", 1, 11)[:2])
    assert recorder.hand_counts() == dict.fromkeys(recorder.game.players, 6)
    assert recorder.pile_count() == 67 - 30 - 1


def test_a_recorder_writes_observed_logs_only() -> None:
    full = [dump_event(e) for e in quick_game(5, "tournament", 1, 1)]
    with pytest.raises(NotObserved):
        Recorder(full[:1])
    game = GameStarted.model_validate_json(full[0])
    with pytest.raises(NotObserved):
        Recorder.begin(game)
    begun = Recorder.begin(game.model_copy(update={"recording": "observed"}))
    assert json.loads(begun.lines[0])["recording"] == "observed"
    assert begun.due() == Due("round")


def _tap(recorder: Recorder, **fields: object) -> list[object]:
    """Record one entry as it happened; the findings it brought."""
    return list(recorder.record(EVENT_ADAPTER.validate_python(fields)))


def _to_the_middle_goal() -> Recorder:
    """An observed round in which seven turns lay a path from (1,0) to (7,0) (the three
    EW, then NEW), each drawn after: the path reaches the middle goal, due to be turned
    up (a base round: no setup card lies at (4,0))."""
    recorder = Recorder(observed_game(6, "base", 1, 3)[:2])
    for x in range(1, 8):
        player = recorder.due().player
        card = "EW" if x <= 3 else "NEW"
        assert _tap(recorder, type="play_path", player=player, card=card, x=x, y=0, rotated=False) == []
        if x < 7:
            assert _tap(recorder, type="draw", player=player, card=None) == []
    assert recorder.due().kind == "reveal" and recorder.due().slots == ("middle",)
    return recorder


def test_a_goal_turned_up_the_wrong_way_is_said_at_once_and_not_at_the_next_entry() -> None:
    """R-G2: a stone reached from the west lies the way its sides join the path. The
    replay judges a placement's reveals when the next line shows the run is over; the
    preview judges the reveal as the run's last, so the referee hears of it while the
    card is still in hand, and the draw after it, legal, is not held up by it."""
    recorder = _to_the_middle_goal()
    placer = recorder.due().player
    (way,) = recorder.goal_ways("middle", "goal_stone_ne")  # one way joins the path
    wrong = EVENT_ADAPTER.validate_python(
        {"type": "goal_revealed", "goal": "middle", "rotated": not way, "card": "goal_stone_ne"}
    )
    right = EVENT_ADAPTER.validate_python(
        {"type": "goal_revealed", "goal": "middle", "rotated": way, "card": "goal_stone_ne"}
    )
    (finding,) = recorder.preview(wrong)
    assert (finding.code.value, finding.rule, finding.line) == ("illegal_placement", "R-G2", len(recorder.lines) + 1)
    assert recorder.preview(right) == []
    recorder.record(wrong)  # recorded as it happened
    draw = EVENT_ADAPTER.validate_python({"type": "draw", "player": placer, "card": None})
    assert recorder.preview(draw) == []
    assert [f.code.value for f in recorder.record(draw)] == ["illegal_placement"]  # the replay's, at the reveal


def test_a_gold_turned_up_that_no_path_reaches_ends_nothing() -> None:
    """R-G1: a goal no path reaches is never turned up; the gold "turned up" so is a
    ``false_reveal`` at its line, said before it is recorded, and the round goes on
    (the page offered the round's end, and the end recorded was a wrong score)."""
    recorder = Recorder(observed_game(6, "tournament", 1, 3)[:2])
    player = recorder.due().player
    _tap(recorder, type="play_path", player=player, card="EW", x=1, y=0, rotated=False)
    gold = EVENT_ADAPTER.validate_python(
        {"type": "goal_revealed", "goal": "middle", "rotated": False, "card": "goal_gold"}
    )
    assert [(f.code.value, f.line) for f in recorder.preview(gold)] == [("false_reveal", len(recorder.lines) + 1)]
    recorder.record(gold)
    assert recorder.due() == Due("draw", player)
