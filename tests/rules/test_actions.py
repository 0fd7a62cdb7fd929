"""Action cards (rules.md R-A1..R-A6, with R-P6): broken tools, repairs, rockfall, map.

Each rule has a legal case (no error findings) and illegal ones (exact code and line).
"""

from __future__ import annotations

from typing import Any

import pytest

from events.builder import LogBuilder
from tests.conftest import codes, errors

BREAKS = {"pick": "break_pick", "lamp": "break_lamp", "cart": "break_cart"}
REPAIRS = {"pick": "repair_pick", "lamp": "repair_lamp", "cart": "repair_cart"}
DOUBLES = {
    "repair_pick_lamp": ("pick", "lamp"),
    "repair_pick_cart": ("pick", "cart"),
    "repair_lamp_cart": ("lamp", "cart"),
}


def idle(log: LogBuilder, *players: str) -> None:
    """Each player in turn passes with the hand's last card: a filler or a card drawn,
    never one the test dealt (dealt cards come first in a hand)."""
    for player in players:
        log.discard(player, log.hand(player)[-1])


def three(start: str = "ann", options: dict[str, Any] | None = None, **deal: Any) -> LogBuilder:
    """A base game at a table of three (ann, bob, cem), round 1 dealt; dealt cards come
    first in each hand, the rest is filled in."""
    header: dict[str, Any] = {"options": options} if options else {}
    log = LogBuilder(players=3, ruleset="base", **header)
    log.deal(start=start, **deal)
    return log


def card_line(log: LogBuilder) -> int:
    """The line of the card just played by a builder call that also drew."""
    return log.line - 1


# -- R-A1 broken tools --------------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(BREAKS))
def test_r_a1_break_another_players_tool(tool: str) -> None:
    """R-A1: a broken tool is laid in front of another player."""
    log = three(hands={"ann": [BREAKS[tool]]})
    log.tool("ann", BREAKS[tool], "bob")
    assert codes(log) == []


def test_r_a1_one_of_each_kind_in_front_of_a_player() -> None:
    """R-A1: pick, lamp and cart may all lie broken in front of one player."""
    log = three(hands={"ann": ["break_pick", "break_cart"], "cem": ["break_lamp"]})
    log.tool("ann", "break_pick", "bob")
    idle(log, "bob")
    log.tool("cem", "break_lamp", "bob")
    log.tool("ann", "break_cart", "bob")
    assert codes(log) == []


def test_r_a1_same_kind_in_front_of_different_players() -> None:
    """R-A1: the limit is one of each kind per player."""
    log = three(hands={"ann": ["break_pick"], "bob": ["break_pick"]})
    log.tool("ann", "break_pick", "cem").tool("bob", "break_pick", "ann")
    assert codes(log) == []


@pytest.mark.parametrize("tool", sorted(BREAKS))
def test_r_a1_second_broken_tool_of_a_kind(tool: str) -> None:
    """R-A1: bob already has a broken tool of that kind; cem's is impossible_action."""
    log = three(hands={"ann": [BREAKS[tool]], "cem": [BREAKS[tool]]})
    log.tool("ann", BREAKS[tool], "bob")
    idle(log, "bob")
    log.tool("cem", BREAKS[tool], "bob")
    assert codes(log) == [("impossible_action", card_line(log))]


def test_r_a1_break_again_after_a_repair() -> None:
    """R-A1: once repaired, the tool may be broken again."""
    log = three(hands={"ann": ["break_pick"], "bob": ["repair_pick"], "cem": ["break_pick"]})
    log.tool("ann", "break_pick", "bob").tool("bob", "repair_pick", "bob").tool("cem", "break_pick", "bob")
    assert codes(log) == []


def test_r_a1_break_own_tool_is_impossible() -> None:
    """R-A1: the publisher's rules say "another player"."""
    log = three(hands={"ann": ["break_lamp"]})
    log.tool("ann", "break_lamp", "ann")
    assert codes(log) == [("impossible_action", card_line(log))]
    assert errors(log)[0].rule == "R-A1"


def test_r_a1_self_break_option_allows_it() -> None:
    """R-A1 ruling: options.self_break lets a player break their own tool."""
    log = three(options={"self_break": True}, hands={"ann": ["break_lamp"]})
    log.tool("ann", "break_lamp", "ann")
    assert codes(log) == []


def test_r_a1_self_break_option_still_one_of_a_kind() -> None:
    """R-A1: with self_break, ann still cannot have two broken lamps."""
    log = three(options={"self_break": True}, hands={"ann": ["break_lamp", "break_lamp"]})
    log.tool("ann", "break_lamp", "ann")
    idle(log, "bob", "cem")
    log.tool("ann", "break_lamp", "ann")
    assert codes(log) == [("impossible_action", card_line(log))]


def test_r_a1_self_break_option_false_is_the_default() -> None:
    """R-A1: options.self_break false keeps the publisher's rule."""
    log = three(options={"self_break": False}, hands={"ann": ["break_cart"]})
    log.tool("ann", "break_cart", "ann")
    assert codes(log) == [("impossible_action", card_line(log))]


# -- R-A2 / R-P6 no tunnel card with a broken tool ----------------------------------


@pytest.mark.parametrize("tool", sorted(BREAKS))
def test_r_a2_r_p6_path_with_broken_tool(tool: str) -> None:
    """R-A2, R-P6: bob lays a (well placed) tunnel card with a broken tool in front of him."""
    log = three(hands={"ann": [BREAKS[tool]], "bob": ["EW"]})
    log.tool("ann", BREAKS[tool], "bob")
    log.path("bob", "EW", 1, 0)
    assert codes(log) == [("path_with_broken_tool", card_line(log))]
    assert errors(log)[0].player == "bob"
    assert errors(log)[0].rule == "R-A2"


def test_r_a2_r_p6_path_with_broken_tool_in_tournament(six: LogBuilder) -> None:
    """R-A2, R-P6: the same at a tournament table of six."""
    six.deal(hands={"ann": ["break_pick"], "bob": ["EW"]})
    six.tool("ann", "break_pick", "bob")
    six.path("bob", "EW", 1, 0)
    assert codes(six) == [("path_with_broken_tool", card_line(six))]


def test_r_a2_r_p6_self_broken_tool_blocks_paths_too() -> None:
    """R-A2, R-P6: with self_break, ann's own broken pick stops her tunnels."""
    log = three(options={"self_break": True}, hands={"ann": ["break_pick", "EW"]})
    log.tool("ann", "break_pick", "ann")
    idle(log, "bob", "cem")
    log.path("ann", "EW", 1, 0)
    assert codes(log) == [("path_with_broken_tool", card_line(log))]


def test_r_a2_other_cards_with_a_broken_tool() -> None:
    """R-A2: with a broken pick bob may play any card but a tunnel card: map, broken tool,
    repair, rockfall, pass."""
    log = three(
        hands={
            "ann": ["break_pick", "map", "map", "EW"],
            "bob": ["map", "break_lamp", "repair_cart", "rockfall", "NS"],
            "cem": ["break_cart", "map", "map", "map"],
        }
    )
    log.tool("ann", "break_pick", "bob")
    log.map("bob", "top").tool("cem", "break_cart", "ann").discard("ann", "map")
    log.tool("bob", "break_lamp", "cem").discard("cem", "map").discard("ann", "map")
    log.tool("bob", "repair_cart", "ann").discard("cem", "map").path("ann", "EW", 1, 0)
    log.rockfall("bob", 1, 0).discard("cem", "map")
    idle(log, "ann")
    log.discard("bob", "NS")
    assert codes(log) == []


def test_r_a2_tunnel_card_after_the_repair() -> None:
    """R-A2: once the broken tool is repaired bob may lay tunnel cards again."""
    log = three(hands={"ann": ["break_pick"], "bob": ["repair_pick", "EW"]})
    log.tool("ann", "break_pick", "bob").tool("bob", "repair_pick", "bob")
    idle(log, "cem", "ann")
    log.path("bob", "EW", 1, 0)
    assert codes(log) == []


def test_r_a2_someone_elses_broken_tool_does_not_matter() -> None:
    """R-A2: a broken tool in front of bob does not stop cem."""
    log = three(hands={"ann": ["break_pick"], "cem": ["EW"]})
    log.tool("ann", "break_pick", "bob")
    idle(log, "bob")
    log.path("cem", "EW", 1, 0)
    assert codes(log) == []


def test_r_a2_r_p6_each_tunnel_card_reported() -> None:
    """R-A2, R-P6: every tunnel card laid while the tool is broken is a finding of its own."""
    log = three(hands={"ann": ["break_cart"], "bob": ["EW", "EW"]})
    log.tool("ann", "break_cart", "bob")
    log.path("bob", "EW", 1, 0)
    first = card_line(log)
    idle(log, "cem", "ann")
    log.path("bob", "EW", 2, 0)
    assert codes(log) == [("path_with_broken_tool", first), ("path_with_broken_tool", card_line(log))]


# -- R-A3 repair --------------------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(REPAIRS))
def test_r_a3_repair_another_players_tool(tool: str) -> None:
    """R-A3: cem repairs bob's broken tool of the same kind."""
    log = three(hands={"ann": [BREAKS[tool]], "cem": [REPAIRS[tool]]})
    log.tool("ann", BREAKS[tool], "bob")
    idle(log, "bob")
    log.tool("cem", REPAIRS[tool], "bob")
    assert codes(log) == []


def test_r_a3_repair_own_tool() -> None:
    """R-A3: a repair may be played in front of oneself."""
    log = three(hands={"ann": ["break_lamp"], "bob": ["repair_lamp"]})
    log.tool("ann", "break_lamp", "bob").tool("bob", "repair_lamp", "bob")
    assert codes(log) == []


def test_r_a3_repair_with_nothing_broken() -> None:
    """R-A3: no broken tool lies in front of bob."""
    log = three(hands={"ann": ["repair_pick"]})
    log.tool("ann", "repair_pick", "bob")
    assert codes(log) == [("impossible_action", card_line(log))]
    assert errors(log)[0].rule == "R-A3"


def test_r_a3_repair_of_the_wrong_kind() -> None:
    """R-A3: bob's lamp is broken, not his pick; the lamp stays broken."""
    log = three(hands={"ann": ["break_lamp"], "cem": ["repair_pick"], "bob": ["EW"]})
    log.tool("ann", "break_lamp", "bob")
    idle(log, "bob")
    log.tool("cem", "repair_pick", "bob")
    bad = card_line(log)
    idle(log, "ann")
    log.path("bob", "EW", 1, 0)
    assert codes(log) == [("impossible_action", bad), ("path_with_broken_tool", card_line(log))]


def test_r_a3_repair_in_front_of_the_wrong_player() -> None:
    """R-A3: the broken pick lies in front of bob; a repair for cem is impossible."""
    log = three(hands={"ann": ["break_pick"], "bob": ["repair_pick"]})
    log.tool("ann", "break_pick", "bob")
    log.tool("bob", "repair_pick", "cem")
    assert codes(log) == [("impossible_action", card_line(log))]


def test_r_a3_second_repair_of_the_same_tool() -> None:
    """R-A3: after the repair nothing of that kind is left to repair."""
    log = three(hands={"ann": ["break_cart"], "bob": ["repair_cart"], "cem": ["repair_cart"]})
    log.tool("ann", "break_cart", "bob").tool("bob", "repair_cart", "bob")
    log.tool("cem", "repair_cart", "bob")
    assert codes(log) == [("impossible_action", card_line(log))]


# -- R-A4 double repair -------------------------------------------------------------


@pytest.mark.parametrize(("card", "tool"), [(card, tool) for card, tools in DOUBLES.items() for tool in tools])
def test_r_a4_double_repair_names_the_tool(card: str, tool: str) -> None:
    """R-A4: a double repair mends one of its two kinds, named in `tool`."""
    log = three(hands={"ann": [BREAKS[tool]], "cem": [card]})
    log.tool("ann", BREAKS[tool], "bob")
    idle(log, "bob")
    log.tool("cem", card, "bob", tool=tool)
    assert codes(log) == []


@pytest.mark.parametrize(("card", "tool"), [(card, tool) for card, tools in DOUBLES.items() for tool in tools])
def test_r_a4_double_repair_of_a_tool_not_broken(card: str, tool: str) -> None:
    """R-A4: the other kind of the card is broken, but `tool` names one that is not."""
    other = next(t for t in DOUBLES[card] if t != tool)
    log = three(hands={"ann": [BREAKS[other]], "cem": [card]})
    log.tool("ann", BREAKS[other], "bob")
    idle(log, "bob")
    log.tool("cem", card, "bob", tool=tool)
    assert codes(log) == [("impossible_action", card_line(log))]
    assert errors(log)[0].rule == "R-A4"


def test_r_a4_double_repair_mends_one_never_both() -> None:
    """R-A4: bob's pick and lamp are broken; repair_pick_lamp mends the pick only, so his
    tunnel card is still path_with_broken_tool."""
    log = three(hands={"ann": ["break_pick"], "cem": ["break_lamp"], "bob": ["repair_pick_lamp", "EW"]})
    log.tool("ann", "break_pick", "bob")
    idle(log, "bob")
    log.tool("cem", "break_lamp", "bob")
    idle(log, "ann")
    log.tool("bob", "repair_pick_lamp", "bob", tool="pick")
    idle(log, "cem", "ann")
    log.path("bob", "EW", 1, 0)
    assert codes(log) == [("path_with_broken_tool", card_line(log))]


def test_r_a4_two_double_repairs_mend_both() -> None:
    """R-A4: a second double repair mends the other tool; then bob may lay tunnels."""
    log = three(
        hands={"ann": ["break_pick", "repair_lamp_cart"], "cem": ["break_lamp"], "bob": ["repair_pick_lamp", "EW"]}
    )
    log.tool("ann", "break_pick", "bob")
    idle(log, "bob")
    log.tool("cem", "break_lamp", "bob")
    log.tool("ann", "repair_lamp_cart", "bob", tool="lamp")
    log.tool("bob", "repair_pick_lamp", "bob", tool="pick")
    idle(log, "cem", "ann")
    log.path("bob", "EW", 1, 0)
    assert codes(log) == []


def test_r_a4_double_repair_after_its_tool_was_mended() -> None:
    """R-A4: the lamp was repaired already; a double repair of the lamp has nothing to mend
    though bob's pick (the card's other kind) is still broken."""
    log = three(hands={"ann": ["break_pick", "break_lamp"], "bob": ["repair_lamp"], "cem": ["repair_pick_lamp"]})
    log.tool("ann", "break_pick", "bob")
    idle(log, "bob", "cem")
    log.tool("ann", "break_lamp", "bob").tool("bob", "repair_lamp", "bob")
    log.tool("cem", "repair_pick_lamp", "bob", tool="lamp")
    assert codes(log) == [("impossible_action", card_line(log))]


def test_r_a4_double_repair_without_tool_is_malformed() -> None:
    """R-A4 / event-log.md: the log names which tool a double repair mends."""
    log = three(hands={"ann": ["break_pick"], "bob": ["repair_pick_cart"]})
    log.tool("ann", "break_pick", "bob")
    log.tool("bob", "repair_pick_cart", "bob", draw=False)
    assert codes(log) == [("malformed", log.line)]


def test_r_a4_double_repair_tool_not_on_the_card_is_malformed() -> None:
    """R-A4 / event-log.md: repair_pick_cart cannot repair the lamp."""
    log = three(hands={"ann": ["break_lamp"], "bob": ["repair_pick_cart"]})
    log.tool("ann", "break_lamp", "bob")
    log.tool("bob", "repair_pick_cart", "bob", tool="lamp", draw=False)
    assert codes(log) == [("malformed", log.line)]


@pytest.mark.parametrize("card", ["repair_pick", "break_pick"])
def test_r_a4_tool_on_a_single_card_is_malformed(card: str) -> None:
    """R-A4 / event-log.md: `tool` is only for a double repair."""
    log = three(hands={"ann": ["break_pick"], "bob": [card]})
    log.tool("ann", "break_pick", "bob")
    target = "bob" if card.startswith("repair") else "cem"
    log.tool("bob", card, target, tool="pick", draw=False)
    assert codes(log) == [("malformed", log.line)]


# -- R-A5 rockfall ------------------------------------------------------------------


def test_r_a5_rockfall_removes_a_tunnel_card_and_the_cell_is_free_again() -> None:
    """R-A5: a rockfall removes a tunnel card; the cell may be filled again later."""
    log = three(hands={"ann": ["EW"], "bob": ["rockfall"], "cem": ["NESW"]})
    log.path("ann", "EW", 1, 0).rockfall("bob", 1, 0).path("cem", "NESW", 1, 0)
    assert codes(log) == []


def test_r_a5_rockfall_with_a_broken_tool() -> None:
    """R-A5, R-A2: a rockfall is no tunnel card; a player with a broken tool may play it."""
    log = three(hands={"ann": ["EW", "break_pick"], "bob": ["NS"], "cem": ["rockfall"]})
    log.path("ann", "EW", 1, 0).discard("bob", "NS")
    idle(log, "cem")
    log.tool("ann", "break_pick", "cem")
    idle(log, "bob")
    log.rockfall("cem", 1, 0)
    assert codes(log) == []


@pytest.mark.parametrize(("x", "y"), [(0, 0), (8, -2), (8, 0), (8, 2), (1, 0), (3, 3)])
def test_r_a5_rockfall_on_start_goal_or_empty_cell(x: int, y: int) -> None:
    """R-A5: never the start card nor a goal card, and there must be a card to remove."""
    log = three(hands={"ann": ["rockfall"]})
    log.rockfall("ann", x, y)
    assert codes(log) == [("impossible_action", card_line(log))]
    assert errors(log)[0].rule == "R-A5"


def test_r_a5_rockfall_twice_on_the_same_cell() -> None:
    """R-A5: the second rockfall finds the cell empty."""
    log = three(hands={"ann": ["EW"], "bob": ["rockfall"], "cem": ["rockfall"]})
    log.path("ann", "EW", 1, 0).rockfall("bob", 1, 0)
    log.rockfall("cem", 1, 0)
    assert codes(log) == [("impossible_action", card_line(log))]


# -- R-A6 map and goals revealed ----------------------------------------------------


@pytest.mark.parametrize("slot", ["top", "middle", "bottom"])
def test_r_a6_map_on_a_face_down_goal(slot: str) -> None:
    """R-A6: a map looks at any face-down goal, as often as wished."""
    log = three(hands={"ann": ["map"], "bob": ["map"]})
    log.map("ann", slot).map("bob", slot)
    assert codes(log) == []


def reach_the_middle_stone() -> LogBuilder:
    """A tournament table of five whose path (through the setup card at (4,0)) reaches the
    middle goal, a stone, revealed turned; bob is next and holds a map and a rockfall."""
    log = LogBuilder(players=5, ruleset="tournament")
    log.deal(
        start="ann",
        goals={"top": "goal_gold", "middle": "goal_stone_ne", "bottom": "goal_stone_nw"},
        hands={
            "ann": ["EW", "NESW"],
            "bob": ["EW", "map", "rockfall"],
            "cem": ["EW", "map", "rockfall"],
            "dia": ["NESW"],
            "eve": ["NESW"],
        },
    )
    log.path("ann", "EW", 1, 0).path("bob", "EW", 2, 0).path("cem", "EW", 3, 0)
    log.path("dia", "NESW", 5, 0).path("eve", "NESW", 6, 0)
    log.path("ann", "NESW", 7, 0, draw=False).reveal("middle", rotated=True).draw("ann")
    assert codes(log) == []
    assert log.turn == "bob"
    return log


def test_r_a6_map_on_a_revealed_goal() -> None:
    """R-A6: a revealed goal cannot be the target of a map."""
    log = reach_the_middle_stone()
    log.map("bob", "middle")
    assert codes(log) == [("impossible_action", card_line(log))]
    assert errors(log)[0].rule == "R-A6"


def test_r_a6_map_on_the_goals_still_face_down() -> None:
    """R-A6: the other two goals are still face down and may be looked at."""
    log = reach_the_middle_stone()
    log.map("bob", "top").map("cem", "bottom")
    assert codes(log) == []


def test_r_a5_rockfall_on_a_revealed_goal() -> None:
    """R-A5: a revealed goal card is still a goal card: no rockfall removes it."""
    log = reach_the_middle_stone()
    log.rockfall("bob", 8, 0)
    assert codes(log) == [("impossible_action", card_line(log))]


def test_r_a5_rockfall_in_the_path_to_a_revealed_goal() -> None:
    """R-A5: any tunnel card of the maze may go, the setup card included."""
    log = reach_the_middle_stone()
    log.rockfall("bob", 7, 0).rockfall("cem", 4, 0)
    assert codes(log) == []
