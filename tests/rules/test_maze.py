"""The maze (events.maze) and the placement rules R-P1, R-P2, R-P4, R-P5.

Unit tests of the maze's geometry first (R-P3 rotation, R-P4 side matching, R-P5
connectivity), then log tests: every rule with a legal case (no error findings) and an
illegal one (exact code and line). Logs are 3-player base games (6-card hands, no setup
card) unless a tournament setup card is the point.
"""

from __future__ import annotations

from collections.abc import Mapping

from events.builder import DEFAULT_GOALS, LogBuilder
from events.cards import Side, parse_sides
from events.maze import Cell, Maze, tunnel
from tests.conftest import codes, rules_of
from tests.rules.maze_logs import ROW, STONE_MIDDLE, corridor, game, lay

# -- helpers -------------------------------------------------------------------------


def maze(cards: Mapping[Cell, str] | None = None, goals: Mapping[str, str] = DEFAULT_GOALS) -> Maze:
    """A dealt maze with tunnel cards laid as given, ``{(1, 0): "EW"}``; a trailing
    ``_r`` (``"NE_r"``) turns a card 180°. No legality is checked."""
    m = Maze.dealt(dict(goals))
    for cell, code in (cards or {}).items():
        card, _, turned = code.partition("_")
        m.place(cell, tunnel(card, turned == "r"))
    return m


def row(upto: int, last: str | None = None) -> dict[Cell, str]:
    """Cards at (1,0)…(upto,0), the last one replaced by ``last`` if given."""
    cells = {(x, 0): ROW[x - 1] for x in range(1, upto + 1)}
    if last is not None:
        cells[(upto, 0)] = last
    return cells


# -- unit tests of the maze ------------------------------------------------------------


def test_rotation_turns_a_card_180_degrees_r_p3() -> None:
    """R-P3: turned, N<->S and E<->W swap; never crosswise."""
    assert tunnel("NES", False).sides == parse_sides("NES")
    assert tunnel("NES", True).sides == parse_sides("NSW")
    assert tunnel("NE", True).sides == Side.S | Side.W
    assert tunnel("NW", True).sides == Side.S | Side.E
    assert tunnel("NS", True).sides == parse_sides("NS")
    assert tunnel("EW", True).sides == parse_sides("EW")
    assert tunnel("Ex", True).sides == Side.W


def test_a_card_turned_crosswise_is_malformed_r_p3() -> None:
    """R-P3: ``rotated`` turns a card by 180° or not at all; a quarter turn cannot be
    written, and a line that tries is malformed."""
    log = game(["EW"])
    log.raw({"type": "play_path", "player": "ann", "card": "EW", "x": 1, "y": 0, "rotated": 90})
    assert codes(log) == [("malformed", log.line)]


def test_dead_end_keeps_its_sides_but_is_not_passable_r_p5() -> None:
    """R-P5, cards.md: a dead end's sides are open for matching, its centre is blocked."""
    dead = tunnel("NEx", True)
    assert dead.sides == Side.S | Side.W
    assert not dead.passable
    assert tunnel("NE", False).passable


def test_open_against_open_and_closed_against_closed_match_r_p4() -> None:
    """R-P4: both open or both closed is a match."""
    m = maze({(1, 0): "EW"})
    assert m.mismatches((2, 0), parse_sides("EW")) == []  # W open against EW's E open
    assert m.mismatches((1, 1), parse_sides("EW")) == []  # N closed against EW's S closed


def test_open_against_closed_and_closed_against_open_mismatch_r_p4() -> None:
    """R-P4: every touching side is compared, in both directions."""
    m = maze({(1, 0): "EW"})
    assert m.mismatches((2, 0), parse_sides("NS")) == [(Side.W, (1, 0))]  # closed against open
    assert m.mismatches((1, 1), parse_sides("NS")) == [(Side.N, (1, 0))]  # open against closed


def test_rotation_decides_the_match_r_p4() -> None:
    """R-P3/R-P4: NE as printed closes its west side against the start; turned it opens it."""
    m = maze()
    assert m.mismatches((1, 0), tunnel("NE", False).sides) == [(Side.W, (0, 0))]
    assert m.mismatches((1, 0), tunnel("NE", True).sides) == []


def test_face_down_goal_is_not_compared_r_p4() -> None:
    """R-P4: a face-down goal's sides are unknown: a closed side next to the (crossroads)
    gold lying face down is no mismatch."""
    m = maze()
    assert m.mismatches((7, 0), parse_sides("NS")) == []
    assert m.mismatches((7, 0), parse_sides("EW")) == []


def test_revealed_goal_is_compared_as_it_lies_r_p4() -> None:
    """R-P4: a revealed stone is compared with its rotation applied."""
    turned = maze(goals=STONE_MIDDLE)
    turned.reveal("middle", True)  # goal_stone_ne turned: open S and W
    assert turned.mismatches((7, 0), parse_sides("EW")) == []
    assert turned.mismatches((8, 1), parse_sides("NE")) == []
    assert turned.mismatches((8, 1), parse_sides("EW")) == [(Side.N, (8, 0))]
    printed = maze(goals=STONE_MIDDLE)
    printed.reveal("middle", False)  # as printed: open N and E
    assert printed.mismatches((7, 0), parse_sides("EW")) == [(Side.E, (8, 0))]
    assert printed.mismatches((8, 1), parse_sides("NE")) == [(Side.N, (8, 0))]


def test_path_enters_a_dead_end_but_does_not_go_through_r_p5() -> None:
    """R-P5: a dead end is connected (the path enters it) but nothing beyond it is."""
    m = maze({(1, 0): "EWx"})
    assert (1, 0) in m.connected()
    assert not m.enters((2, 0), parse_sides("EW"))
    m.place((2, 0), tunnel("EW", False))
    assert (2, 0) not in m.connected()


def test_dead_end_does_not_reach_a_goal_r_p5() -> None:
    """R-G1 via R-P5: a dead end facing a goal with an open side does not reach it."""
    assert maze(row(7, "EWx")).reached_goals() == []
    assert maze(row(7)).reached_goals() == ["middle"]


def test_enters_needs_an_open_side_toward_the_path_r_p5() -> None:
    """R-P5: the path enters the new card through one of its own open sides."""
    m = maze()
    assert m.enters((1, 0), parse_sides("EW"))
    assert not m.enters((1, 0), parse_sides("NS"))  # west side closed
    assert not m.enters((2, 0), parse_sides("EW"))  # nothing connected next to it


def test_rockfall_cuts_off_a_branch_r_p5() -> None:
    """R-P5/R-A5: connectivity is recomputed after a removal; cut-off cards stay."""
    m = maze(row(5))
    assert {(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)} <= m.connected()
    m.remove((2, 0))
    assert (1, 0) in m.connected()
    assert not {(3, 0), (4, 0), (5, 0)} & m.connected()
    assert (5, 0) in m.cells
    assert not m.enters((6, 0), parse_sides("EW"))


def test_refill_reconnects_a_cut_off_branch_r_p5() -> None:
    """R-P5: a card laid in the gap joins the whole cut-off branch back."""
    m = maze(row(5))
    m.remove((2, 0))
    m.place((2, 0), tunnel("NESW", False))
    assert {(2, 0), (3, 0), (4, 0), (5, 0)} <= m.connected()
    assert m.enters((6, 0), parse_sides("EW"))


def test_refill_reconnecting_a_branch_reaches_a_goal_r_g1() -> None:
    """R-G1: which goals are reached is a global question: a refill far from the goal
    joins back a branch whose last card faces it."""
    m = maze(row(7))
    m.remove((3, 0))
    assert m.reached_goals() == []
    m.place((3, 0), tunnel("NESW", False))
    assert m.reached_goals() == ["middle"]


def test_setup_card_not_connected_until_a_path_reaches_it_r_p5() -> None:
    """R-S7/R-P5: the tournament setup card lies at (4,0) unconnected until joined."""
    m = maze({(4, 0): "NESW"})
    assert (4, 0) not in m.connected()
    assert not m.enters((5, 0), parse_sides("EW"))
    m.place((1, 0), tunnel("EW", False))
    m.place((2, 0), tunnel("EW", False))
    assert (4, 0) not in m.connected()
    m.place((3, 0), tunnel("EW", False))
    assert (4, 0) in m.connected()
    assert m.enters((5, 0), parse_sides("EW"))


def test_face_down_goal_is_never_entered_r_g1() -> None:
    """R-G1: a reached face-down goal is not part of the path until revealed."""
    m = maze(row(7), STONE_MIDDLE)
    assert (8, 0) not in m.connected()
    m.reveal("middle", True)
    assert (8, 0) in m.connected()


# -- R-P1: an empty cell, not the start, not a goal -------------------------------------


def test_r_p1_legal_on_an_empty_cell() -> None:
    """R-P1: Legal on an empty cell."""
    log = game(["EW", "EW"])
    lay(log, "EW", 1, 0)
    lay(log, "EW", 2, 0)
    assert codes(log) == []


def test_r_p1_occupied_cell_is_illegal() -> None:
    """R-P1: Occupied cell is illegal."""
    log = game(["EW", "NESW"])
    lay(log, "EW", 1, 0)
    lay(log, "NESW", 1, 0, draw=False)
    line = log.line
    log.draw("bob")
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P1"]


def test_r_p1_start_cell_is_illegal() -> None:
    """R-P1: Start cell is illegal."""
    log = game(["NESW"])
    lay(log, "NESW", 0, 0, draw=False)
    line = log.line
    log.draw("ann")
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P1"]


def test_r_p1_goal_cell_is_illegal() -> None:
    """R-P1: a goal's cell is never a tunnel card's, face down or not."""
    log = game([*ROW[:6], "NESW"])
    corridor(log, 6)
    assert codes(log) == []
    lay(log, "NESW", 8, 0, draw=False)
    line = log.line
    log.draw(log.round.turn)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P1"]


# -- R-P2: touches a card -------------------------------------------------------------------


def test_r_p2_legal_next_to_the_start() -> None:
    """R-P2: Legal next to the start."""
    log = game(["NESW"])
    lay(log, "NESW", 0, 1)
    assert codes(log) == []


def test_r_p2_no_neighbour_is_illegal() -> None:
    """R-P2: No neighbour is illegal."""
    log = game(["EW"])
    lay(log, "EW", 3, 3, draw=False)
    line = log.line
    log.draw("ann")
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P2"]


# -- R-P4: sides match ------------------------------------------------------------------------


def test_r_p4_legal_turned_card_opens_toward_the_start() -> None:
    """R-P4: NE turned (open S and W) matches the start's east side."""
    log = game(["NE"])
    lay(log, "NE", 1, 0, rotated=True)
    assert codes(log) == []


def test_r_p4_closed_side_against_the_start_is_illegal() -> None:
    """R-P4: NE as printed closes its west side against the start's open east side."""
    log = game(["NE"])
    lay(log, "NE", 1, 0, draw=False)
    line = log.line
    log.draw("ann")
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P4"]


def test_r_p4_open_side_against_a_closed_side_is_illegal() -> None:
    """R-P4: NS's open north side against EW's closed south side."""
    log = game(["EW", "NS"])
    lay(log, "EW", 1, 0)
    lay(log, "NS", 1, 1, draw=False)
    line = log.line
    log.draw("bob")
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P4"]


def test_r_p4_face_down_goal_is_not_compared() -> None:
    """R-P4: NW's closed east side next to the face-down gold (a crossroads) is legal;
    it does not reach the goal, so nothing is revealed either."""
    log = game([*ROW[:6], "NW"])
    corridor(log, 6)
    lay(log, "NW", 7, 0)
    assert codes(log) == []
    assert log.round.maze.face_down("middle")


def reveal_stone_middle(log: LogBuilder) -> LogBuilder:
    """Corridor to (7,0) reaching the middle stone (goal_stone_ne), turned to open S, W."""
    corridor(log, 6)
    player = log.turn
    lay(log, ROW[6], 7, 0, draw=False)
    log.reveal("middle", rotated=True)
    return log.draw(player)


def test_r_p4_legal_against_a_revealed_goal_as_it_lies() -> None:
    """R-P4: the middle stone lies turned, open to the south: NE's open north matches it
    (as printed the stone would be closed there)."""
    log = game([*ROW, "NE"], goals=STONE_MIDDLE)
    reveal_stone_middle(log)
    lay(log, "NE", 8, 1)
    assert codes(log) == []


def test_r_p4_mismatch_against_a_revealed_goal_is_illegal() -> None:
    """R-P4: NE turned closes its north side against the turned stone's open south."""
    log = game([*ROW, "NE"], goals=STONE_MIDDLE)
    reveal_stone_middle(log)
    lay(log, "NE", 8, 1, rotated=True, draw=False)
    line = log.line
    log.draw(log.round.turn)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P4"]


# -- R-P5: an uninterrupted path from the start -------------------------------------------------


def test_r_p5_legal_into_a_dead_end() -> None:
    """R-P5: a dead end lets the path in."""
    log = game(["EW", "EWx"])
    lay(log, "EW", 1, 0)
    lay(log, "EWx", 2, 0)
    assert codes(log) == []


def test_r_p5_through_a_dead_end_is_illegal() -> None:
    """R-P5: ... but not through: nothing connects beyond a dead end."""
    log = game(["EWx", "EW"])
    lay(log, "EWx", 1, 0)
    lay(log, "EW", 2, 0, draw=False)
    line = log.line
    log.draw("bob")
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P5"]


def test_r_p5_beyond_a_rockfall_is_illegal() -> None:
    """R-P5: cards cut off by a rockfall stay, but do not count as connected."""
    log = game(["EW", "EW", "EW", "rockfall", "NESW"])
    corridor(log, 3)
    log.rockfall(log.turn, 2, 0)
    assert codes(log) == []
    lay(log, "NESW", 4, 0, draw=False)
    line = log.line
    log.draw(log.round.turn)
    assert codes(log) == [("illegal_placement", line)]
    assert rules_of(log) == ["R-P5"]


def test_r_p5_legal_after_a_refill_reconnects_the_branch() -> None:
    """R-P5: a card laid in the gap of a rockfall joins the cut-off branch back."""
    log = game(["EW", "EW", "EW", "rockfall", "NESW", "NESW"])
    corridor(log, 3)
    log.rockfall(log.turn, 2, 0)
    lay(log, "NESW", 2, 0)
    lay(log, "NESW", 4, 0)
    assert codes(log) == []


def test_r_p5_next_to_the_unjoined_setup_card_is_illegal(six: LogBuilder) -> None:
    """R-P5/R-S7: the tournament setup card at (4,0) is not connected to the start."""
    six.deal(start="ann", hands={"ann": ["EW"]})
    six.path("ann", "EW", 5, 0, draw=False)
    line = six.line
    six.draw("ann")
    assert codes(six) == [("illegal_placement", line)]
    assert rules_of(six) == ["R-P5"]


def test_r_p5_legal_beyond_the_setup_card_once_joined(six: LogBuilder) -> None:
    """R-P5/R-S7: a path reaching the setup card carries on through it."""
    six.deal(start="ann", hands={"ann": ["EW"], "bob": ["EW"], "cem": ["EW"], "dia": ["NEW"]})
    for player, x in (("ann", 1), ("bob", 2), ("cem", 3), ("dia", 5)):
        six.path(player, six.hand(player)[0], x, 0)
    assert codes(six) == []
