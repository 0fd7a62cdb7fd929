"""Goal cards: R-G1 (when goals are revealed), R-G2 (how they lie), R-G3 (stones stay).

Every rule has a legal case (no error findings) and illegal ones (exact code and line).
Logs are 3-player base games (ann, bob, cem; 6-card hands, no setup card): a corridor of
E-W cards at (1,0)…(7,0) reaches the middle goal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from events.builder import LogBuilder
from events.maze import Maze, tunnel
from events.observe import observe
from events.rules.goals import close_reveal_run
from events.state import RevealRun
from tests.conftest import codes, errors, rules_of, run
from tests.rules.maze_logs import ROW, STONE_MIDDLE, corridor, game, lay

GOLD_BOTTOM = {"top": "goal_stone_ne", "middle": "goal_stone_nw", "bottom": "goal_gold"}
GOLD_BELOW_STONE = {"top": "goal_stone_nw", "middle": "goal_stone_ne", "bottom": "goal_gold"}


# -- helpers ---------------------------------------------------------------------------


def reach(
    log: LogBuilder, card: str, x: int, y: int, rotated: bool = False, *, reveals: Sequence[tuple[str, bool]] = ()
) -> tuple[str, int]:
    """Lay a card with no draw yet and write ``reveals`` after it; returns the player
    and the line of the placement."""
    player = log.turn
    log.path(player, card, x, y, rotated, draw=False)
    line = log.line
    for slot, turned in reveals:
        log.reveal(slot, turned)
    return player, line


def double_reach(log: LogBuilder, reveals: Sequence[tuple[str, bool]]) -> str:
    """Corridor to (6,0), NW at (7,0), NES at (7,-1), then NESW at (8,-1): its north side
    faces the top goal and its south side the middle goal, both reached at once."""
    corridor(log, 6)
    lay(log, "NW", 7, 0)
    lay(log, "NES", 7, -1)
    player, _ = reach(log, "NESW", 8, -1, reveals=reveals)
    return player


DOUBLE = [*ROW[:6], "NW", "NES", "NESW"]


# -- R-G1: revealed right after the placement that reaches it ----------------------------


def test_r_g1_reveal_right_after_the_reaching_placement() -> None:
    """R-G1: Reveal right after the reaching placement."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", True)])
    log.draw(player)
    assert codes(log) == []
    assert not log.round.maze.face_down("middle")


@pytest.mark.parametrize("card", [None, "goal_silver", "NESW", 7], ids=["null", "no-such-card", "tunnel", "number"])
@pytest.mark.parametrize("recording", ["full", "observed"])
def test_r_g1_a_reveal_with_a_wrong_card_is_malformed_but_still_a_reveal(card: object, recording: str) -> None:
    """R-G1, event-log.md: the replay goes on "with the event as recorded wherever the
    event can still be applied". A full log's reveal needs no card (the deal has it):
    with a wrong one the line is malformed but the goal is turned up all the same; it
    was dropped, and the draw after it said the goal was never revealed. An observed
    log's reveal is its only word on what the goal showed: there it is not applied."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", True)])
    log.draw(player)
    lines = observe(log.text().encode()).decode().splitlines() if recording == "observed" else list(log.lines)
    at = next(i for i, line in enumerate(lines) if '"goal_revealed"' in line)
    shown = json.loads(lines[at])
    lines[at] = json.dumps({**shown, "card": card})
    expected = [("malformed", at + 1)] + ([("missing_reveal", at + 2)] if recording == "observed" else [])
    assert codes(lines) == expected
    if card in ("goal_silver", "NESW"):  # a code, of no goal card: said so, not "not a card of the deck"
        (said,) = [f.message for f in errors(lines) if f.code == "malformed"]
        assert said.endswith(f"{card!r} is not a goal card"), said
    if card is None:  # an observed reveal must name its card: "may be left out but not null" was wrong there
        (said,) = [f.message for f in errors(lines) if f.code == "malformed"]
        words = "an observed log names the goal card turned up" if recording == "observed" else "may be left out"
        assert words in said, said


def test_r_g1_gold_revealed_then_round_ended() -> None:
    """R-G1: Gold revealed then round ended."""
    log = game(ROW)
    corridor(log, 6)
    reach(log, "NESW", 7, 0, reveals=[("middle", False)])
    log.end_round()
    assert codes(log) == []


def test_r_g1_missing_reveal_at_the_draw_standing_where_it_was_due() -> None:
    """R-G1: Missing reveal at the draw standing where it was due."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    lay(log, "NESW", 7, 0)  # the draw follows at once
    assert codes(log) == [("missing_reveal", log.line)]


@pytest.mark.parametrize("recording", ["full", "observed"])
def test_r_g1_a_reveal_come_late_is_the_missing_one_not_a_false_one(recording: str) -> None:
    """R-G1: the stone turned up a line late, after the draw: one slip, one finding. The
    late reveal was a second finding, ``false_reveal`` ("already face up"), though a
    path reaches the goal (the replay had turned it up where its reveal was due)."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    lay(log, "NESW", 7, 0)  # the draw follows at once
    due = log.line
    log.reveal("middle", False)
    lines = observe(log.text().encode()).decode().splitlines() if recording == "observed" else list(log.lines)
    assert codes(lines) == [("missing_reveal", due)]


@pytest.mark.parametrize("recording", ["full", "observed"])
def test_r_g1_the_gold_revealed_late_after_the_connector_s_draw_is_one_slip(recording: str) -> None:
    """R-G1, R-E1: the gold reached, the connector draws, then turns the gold up: the
    reveal is missing at the draw, which stood where it was due, and that is all (the
    draw was also "after the round was over", and the reveal "already face up")."""
    log = game(ROW)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0)
    log.raw({"type": "draw", "player": player, "card": log.round.pile[-1] if recording == "full" else None})
    due = log.line
    log.reveal("middle", False)
    log.end_round()
    lines = observe(log.text().encode()).decode().splitlines() if recording == "observed" else list(log.lines)
    result = run(lines)
    assert [(f.code.value, f.line) for f in result.findings if f.severity == "error"] == [("missing_reveal", due)]
    outcome = result.outcomes[0]
    assert (outcome.winner, outcome.connector) == ("gold_diggers", player)


def test_r_g1_missing_reveal_at_the_next_card() -> None:
    """R-G1: whatever event stands where the reveal was due carries the finding; here
    the next player's card, where the connector's draw was due as well (R-T2)."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    reach(log, "NESW", 7, 0)
    nxt = log.turn
    log.discard(nxt, log.hand(nxt)[-1])
    line = log.line - 1
    assert sorted(codes(log)) == [("missed_draw", line), ("missing_reveal", line)]


def test_r_g1_forgotten_gold_reveal_still_ends_the_round() -> None:
    """R-G1/R-E1: the forgotten reveal is applied by the state, so ``round_ended`` is in
    place and scored on the gold: one finding, no cascade."""
    log = game(ROW)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0)
    log.end_round()
    assert codes(log) == [("missing_reveal", log.line)]
    outcome = run(log).outcomes[0]
    assert (outcome.winner, outcome.connector) == ("gold_diggers", player)


def test_r_g1_nothing_due_past_the_end_of_the_file() -> None:
    """R-G1, event-log.md: a file that stops right after the reaching placement gets only
    ``incomplete``."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    reach(log, "NESW", 7, 0)
    assert codes(log) == []
    assert [f.code.value for f in run(log).findings] == ["incomplete"]


def test_r_e1_a_file_that_stops_after_the_gold_is_revealed_still_counts_the_round() -> None:
    """R-E1, event-log.md: the gold revealed, the round is over ("ends at once"); a file
    that stops there, before its round_ended, is ``incomplete`` and "the finished
    rounds still count": the report's ``rounds`` give this one as the rules score it,
    as they do when the next deal follows a lost round_ended (it said "0 finished
    rounds" and left the round out)."""
    log = game(ROW)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", False)])
    result = run(log)
    assert [(f.code.value, f.line) for f in result.findings] == [("incomplete", log.line)]
    assert "1 finished round still counts" in result.findings[0].message
    [outcome] = result.outcomes
    assert (outcome.round, outcome.winner, outcome.connector) == (1, "gold_diggers", player)


def test_r_g1_two_goals_reached_by_one_placement_reveal_both_in_slot_order() -> None:
    """R-G1: Two goals reached by one placement reveal both in slot order."""
    log = game(DOUBLE, goals=GOLD_BOTTOM)
    player = double_reach(log, [("top", True), ("middle", False)])
    log.draw(player)
    assert codes(log) == []
    assert not log.round.maze.face_down("top")
    assert not log.round.maze.face_down("middle")


def test_r_g1_second_goal_of_one_placement_missing() -> None:
    """R-G1: Second goal of one placement missing."""
    log = game(DOUBLE, goals=GOLD_BOTTOM)
    player = double_reach(log, [("top", True)])
    log.draw(player)
    assert codes(log) == [("missing_reveal", log.line)]


def test_r_g1_first_goal_of_one_placement_missing() -> None:
    """R-G1: the top goal was due before the middle one: the middle reveal stands where it
    was due."""
    log = game(DOUBLE, goals=GOLD_BOTTOM)
    player = double_reach(log, [("middle", False)])
    line = log.line
    log.draw(player)
    assert codes(log) == [("missing_reveal", line)]


def test_r_g1_reveals_out_of_slot_order() -> None:
    """R-G1: middle before top: the top reveal was due where the middle one stands."""
    log = game(DOUBLE, goals=GOLD_BOTTOM)
    player = double_reach(log, [("middle", False), ("top", True)])
    log.draw(player)
    assert codes(log) == [("missing_reveal", log.line - 2)]


def test_r_g1_false_reveal_with_no_path() -> None:
    """R-G1: False reveal with no path."""
    log = game(["EW"])
    reach(log, "EW", 1, 0, reveals=[("middle", False)])
    line = log.line
    log.draw("ann")
    assert codes(log) == [("false_reveal", line)]
    assert log.round.maze.face_down("middle")


def test_r_g1_false_reveal_of_a_goal_already_face_up() -> None:
    """R-G1: the middle stone was revealed; building on it does not reveal it again."""
    log = game([*ROW, "NE"], goals=STONE_MIDDLE)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", True)])
    log.draw(player)
    player, _ = reach(log, "NE", 8, 1, reveals=[("middle", True)])
    line = log.line
    log.draw(player)
    assert codes(log) == [("false_reveal", line)]


def test_r_g1_false_reveal_twice_after_one_placement() -> None:
    """R-G1: False reveal twice after one placement."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", True), ("middle", True)])
    line = log.line
    log.draw(player)
    assert codes(log) == [("false_reveal", line)]


def test_r_g1_false_reveal_not_after_a_placement() -> None:
    """R-G1: goals are never turned up otherwise than right after a placement."""
    log = game(["EW", "map"])
    lay(log, "EW", 1, 0)
    log.discard("bob", "map")
    log.reveal("middle", False)
    assert codes(log) == [("false_reveal", log.line)]


def test_r_g1_false_reveal_after_a_rockfall() -> None:
    """R-G1: a rockfall reaches nothing; a reveal after it is false even where a path
    runs next to the goal."""
    log = game([*ROW[:6], "NW", "rockfall"])
    corridor(log, 6)
    lay(log, "NW", 7, 0)
    log.rockfall(log.turn, 7, 0, draw=False)
    log.reveal("middle", False)
    assert codes(log) == [("false_reveal", log.line)]


def test_r_g1_goal_reached_through_a_stone_revealed_by_the_same_placement_unit() -> None:
    """R-G1: NS lies at (8,-1) between the top and middle goals, not connected; the card
    reaching the middle stone (which must lie as printed, open N and W) carries the path
    through it into NS, whose north side faces the top goal: both are revealed, in slot
    order, the top stone turned (its south side open toward NS)."""
    m = Maze.dealt(dict(GOLD_BOTTOM))
    m.place((8, -1), tunnel("NS", False))
    for x, card in enumerate(ROW, start=1):
        m.place((x, 0), tunnel(card, False))
    assert m.reached_goals() == ["middle"]
    run_ = RevealRun("ann", 10, [("top", True, 11, None), ("middle", False, 12, None)])
    breaches, turned = close_reveal_run(m, run_, 13, round_number=1)
    assert breaches == []
    assert turned == ["middle", "top"]
    assert (8, -2) in m.connected()


def test_r_g1_goal_reached_through_a_stone_revealed_by_the_same_placement() -> None:
    """R-G1 in a log. NS at (8,-1) can only lie there unconnected after an illegal
    placement (any card laid legally next to a goal with an open side reaches it at once);
    that one finding aside, the reveals of both goals are legal."""
    log = game(["NS", *ROW], goals=GOLD_BOTTOM)
    lay(log, "NS", 8, -1)
    illegal = log.line - 1
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("top", True), ("middle", False)])
    log.draw(player)
    assert codes(log) == [("illegal_placement", illegal)]
    assert rules_of(log) == ["R-P5"]


def test_r_g1_goal_through_a_stone_missing_reveal() -> None:
    """R-G1: the top goal, reached through the stone, is due first: not revealed, it is
    missing at the middle reveal's line."""
    log = game(["NS", *ROW], goals=GOLD_BOTTOM)
    lay(log, "NS", 8, -1)
    illegal = log.line - 1
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", False)])
    line = log.line
    log.draw(player)
    assert codes(log) == [("illegal_placement", illegal), ("missing_reveal", line)]


def rockfall_then_refill(log: LogBuilder) -> tuple[int, str, int]:
    """Corridor to (6,0); a rockfall takes (3,0); a card laid at (7,0) cannot be
    connected (illegal, R-P5, but it lies there); the refill of (3,0) joins the branch
    back and so reaches the middle goal. Returns the illegal line, the refiller and the
    refill's line."""
    corridor(log, 6)
    log.rockfall(log.turn, 3, 0)
    lay(log, "NESW", 7, 0)
    illegal = log.line - 1
    player, line = reach(log, "NESW", 3, 0)
    return illegal, player, line


def test_r_g1_refill_reconnecting_a_branch_reaches_a_goal() -> None:
    """R-G1: reached is a global question after every placement: the refill, far from
    the goal, reveals it; the refiller is the connector."""
    log = game([*ROW[:6], "rockfall", "NESW", "NESW"])
    illegal, player, _ = rockfall_then_refill(log)
    log.reveal("middle", False)
    log.end_round()
    assert codes(log) == [("illegal_placement", illegal)]
    outcome = run(log).outcomes[0]
    assert (outcome.winner, outcome.connector) == ("gold_diggers", player)


def test_r_g1_refill_reconnecting_a_branch_missing_reveal() -> None:
    """R-G1: Refill reconnecting a branch missing reveal."""
    log = game([*ROW[:6], "rockfall", "NESW", "NESW"], goals=STONE_MIDDLE)
    illegal, player, _ = rockfall_then_refill(log)
    log.draw(player)
    assert codes(log) == [("illegal_placement", illegal), ("missing_reveal", log.line)]


# -- R-G2: how a revealed goal lies --------------------------------------------------------


def test_r_g2_forced_way_legal() -> None:
    """R-G2: reached from the west, the NE stone matches only turned (open S, W)."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", True)])
    log.draw(player)
    assert codes(log) == []


def test_r_g2_wrong_way_is_illegal_placement() -> None:
    """R-G2: Wrong way is illegal placement."""
    log = game(ROW, goals=STONE_MIDDLE)
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", False)])
    line = log.line
    log.draw(player)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-G2"]


STONE_BOTTOM = {"top": "goal_gold", "middle": "goal_stone_nw", "bottom": "goal_stone_ne"}


def reach_bottom_from_the_north(log: LogBuilder, turned: bool) -> str:
    """Corridor to (6,0), NES turned (open N, S, W) at (7,0), NE at (7,1), NE turned
    (open S, W) at (8,1): its south side reaches the bottom goal."""
    corridor(log, 6)
    lay(log, "NES", 7, 0, rotated=True)
    lay(log, "NE", 7, 1)
    player, _ = reach(log, "NE", 8, 1, rotated=True, reveals=[("bottom", turned)])
    return player


def test_r_g2_forced_way_as_printed_legal() -> None:
    """R-G2: reached from the north, the NE stone matches only as printed (open N, E)."""
    log = game([*ROW[:6], "NES", "NE", "NE"], goals=STONE_BOTTOM)
    player = reach_bottom_from_the_north(log, turned=False)
    log.draw(player)
    assert codes(log) == []


def test_r_g2_forced_way_as_printed_turned_is_illegal() -> None:
    """R-G2: Forced way as printed turned is illegal."""
    log = game([*ROW[:6], "NES", "NE", "NE"], goals=STONE_BOTTOM)
    player = reach_bottom_from_the_north(log, turned=True)
    line = log.line
    log.draw(player)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-G2"]


@pytest.mark.parametrize("turned", [False, True])
def test_r_g2_either_way_when_both_match(turned: bool) -> None:
    """R-G2: the gold is a crossroads: both ways match."""
    log = game(ROW)
    corridor(log, 6)
    reach(log, "NESW", 7, 0, reveals=[("middle", turned)])
    log.end_round()
    assert codes(log) == []


@pytest.mark.parametrize("turned", [False, True])
def test_r_g2_either_way_when_neither_matches(turned: bool) -> None:
    """R-G2: the middle NW stone between NESW to the north (open) and NW to the west
    (closed east side) matches neither way: either is accepted, lying mismatched."""
    log = game(DOUBLE, goals=GOLD_BOTTOM)
    player = double_reach(log, [("top", True), ("middle", turned)])
    log.draw(player)
    assert codes(log) == []


def test_r_g2_top_goal_forced_in_the_double_reach() -> None:
    """R-G2: the top NE stone with NESW south of it matches only turned."""
    log = game(DOUBLE, goals=GOLD_BOTTOM)
    player = double_reach(log, [("top", False), ("middle", False)])
    line = log.line - 1
    log.draw(player)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-G2"]


# -- R-G3: a revealed stone stays and can be built on ------------------------------------------


def stone_then(log: LogBuilder) -> LogBuilder:
    corridor(log, 6)
    player, _ = reach(log, "NESW", 7, 0, reveals=[("middle", True)])
    return log.draw(player)


def test_r_g3_build_through_a_revealed_stone_to_the_gold() -> None:
    """R-G3: NS south of the turned middle stone is entered through it and reaches the
    bottom gold."""
    log = game([*ROW, "NS"], goals=GOLD_BELOW_STONE)
    stone_then(log)
    player, _ = reach(log, "NS", 8, 1, reveals=[("bottom", False)])
    log.end_round()
    assert codes(log) == []
    outcome = run(log).outcomes[0]
    assert (outcome.winner, outcome.connector) == ("gold_diggers", player)


def test_r_g3_building_against_the_stones_closed_side_is_illegal() -> None:
    """R-G3/R-P4: the turned NE stone is closed to the east."""
    log = game([*ROW, "NEW"], goals=GOLD_BELOW_STONE)
    stone_then(log)
    lay(log, "NEW", 9, 0, draw=False)
    line = log.line
    log.draw(log.round.turn)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P4"]


def test_r_g3_revealed_stone_cannot_be_removed() -> None:
    """R-G3/R-A5: the stone stays in the maze: a rockfall on it is impossible."""
    log = game([*ROW, "rockfall"], goals=GOLD_BELOW_STONE)
    stone_then(log)
    log.rockfall(log.turn, 8, 0, draw=False)
    line = log.line
    log.draw(log.round.turn)
    assert codes(log) == [("impossible_action", line)]
    assert not log.round.maze.face_down("middle")
