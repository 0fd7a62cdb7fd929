"""The maze picture, read back as XML: no Streamlit involved."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from dashboard import names
from dashboard.maze_svg import maze_svg
from dashboard.replay_view import game_view
from events import cards
from events.builder import LogBuilder
from events.logfile import parse_lines
from events.maze import Maze, Placed, tunnel

NS = {"svg": "http://www.w3.org/2000/svg"}
GOALS = {"top": "goal_stone_ne", "middle": "goal_gold", "bottom": "goal_stone_nw"}


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def card(root: ET.Element, x: int, y: int) -> ET.Element:
    (found,) = [g for g in root.iterfind(".//svg:g", NS) if g.get("data-x") == str(x) and g.get("data-y") == str(y)]
    return found


def sides(group: ET.Element) -> set[str]:
    return {str(line.get("data-side")) for line in group.iterfind("svg:line[@class='tunnel']", NS)}


def test_a_dealt_maze_is_the_start_and_three_card_backs() -> None:
    root = parsed(maze_svg(Maze.dealt(GOALS).cells))
    assert "card start" in str(card(root, 0, 0).get("class"))
    assert sides(card(root, 0, 0)) == {"N", "E", "S", "W"}
    for slot, (x, y) in cards.GOAL_CELLS.items():
        back = card(root, x, y)
        assert back.get("class") == "card goal-back"
        assert back.get("data-card") is None
        assert back.findtext("svg:title", namespaces=NS) == f"face-down {slot} goal at ({x}, {y})"
    assert "gold" not in ET.tostring(root, encoding="unicode").replace("goal-back", "")


def test_the_referee_sees_what_the_backs_hide() -> None:
    root = parsed(maze_svg(Maze.dealt(GOALS).cells, show_goals=True))
    assert card(root, 8, 0).get("data-card") == "goal_gold"
    assert card(root, 8, -2).get("data-card") == "goal_stone_ne"


def test_tunnels_run_from_the_centre_to_the_open_sides() -> None:
    maze = Maze.dealt(GOALS)
    maze.place((1, 0), tunnel("NES", rotated=False))
    maze.place((2, 0), tunnel("NES", rotated=True))  # turned: S, W, N
    root = parsed(maze_svg(maze.cells, highlight=(2, 0)))
    assert sides(card(root, 1, 0)) == {"N", "E", "S"}
    assert sides(card(root, 2, 0)) == {"N", "S", "W"}
    assert card(root, 1, 0).find("svg:rect[@class='junction']", NS) is not None
    title = f"{names.card('NES', rotated=True)} at (2, 0)"  # the card in plain words, as it lies
    assert card(root, 2, 0).findtext("svg:title", namespaces=NS) == title
    assert len(root.findall(".//svg:rect[@class='highlight']", NS)) == 1


def test_a_dead_end_blocks_its_centre() -> None:
    maze = Maze.dealt(GOALS)
    maze.place((1, 0), tunnel("EWx", rotated=False))
    group = card(root := parsed(maze_svg(maze.cells)), 1, 0)
    assert "dead-end-card" in str(group.get("class"))
    assert group.find("svg:circle[@class='dead-end']", NS) is not None
    assert group.find("svg:rect[@class='junction']", NS) is None
    assert sides(group) == {"E", "W"}
    centre_x = float(group.find("svg:circle", NS).get("cx"))  # type: ignore[union-attr]
    for line in group.iterfind("svg:line[@class='tunnel']", NS):  # the bands stop short of the rock
        assert abs(float(line.get("x1")) - centre_x) > 5  # type: ignore[arg-type]
    assert root.get("class") == "maze"


def test_revealed_goals_show_gold_or_stone_and_the_setup_card_is_marked() -> None:
    maze = Maze.dealt(GOALS)
    maze.place(cards.SETUP_CELL, tunnel("NESW", rotated=False))
    maze.reveal("middle", rotated=False)
    maze.reveal("top", rotated=True)
    root = parsed(maze_svg(maze.cells, setup_cell=cards.SETUP_CELL))
    gold, stone = card(root, 8, 0), card(root, 8, -2)
    assert gold.get("class") == "card goal-gold" and sides(gold) == {"N", "E", "S", "W"}
    assert stone.get("class") == "card goal-stone" and sides(stone) == {"S", "W"}  # NE turned
    assert "setup" in str(card(root, *cards.SETUP_CELL).get("class"))
    assert card(root, 8, 2).get("class") == "card goal-back"


def test_the_viewer_keeps_the_table_after_every_line() -> None:
    log = LogBuilder(players=5, ruleset="tournament", game_id="t:view")
    log.deal(start="ann", hands={"ann": ["NS", "EW"], "bob": ["NESW"]})
    log.path("ann", "EW", 1, 0)
    log.path("bob", "NESW", 2, 0)
    log.discard("cem")
    view = game_view(parse_lines(log.lines))
    frames = view.rounds[1].frames
    assert [f.kind for f in frames] == [
        "round_started",
        "play_path",
        "draw",
        "play_path",
        "draw",
        "discard",
        "draw",
        "end_of_log",
    ]
    assert frames[0].setup_cell == cards.SETUP_CELL and frames[0].turn == "ann"
    assert (1, 0) not in frames[0].cells and frames[1].cells[(1, 0)] == Placed("EW", "tunnel", False, 10, True)
    assert frames[2].turn == "bob" and frames[2].pile == frames[0].pile - 1
    assert frames[5].public == "cem passes, a card face down" and frames[5].discards == 1
    assert frames[6].public == "cem draws a card" and frames[6].referee.startswith("cem draws ")
    assert not view.rounds[1].ended
    assert [v.code for _, v in view.rounds[1].violations] == ["incomplete"]


def test_nobody_acts_once_the_game_has_ended_in_the_middle_of_a_round() -> None:
    """A log whose game ends while a round is in play (``wrong_score``, R-W3): the step
    of its end named the next player "to act", and a step "the log stops here" followed."""
    log = LogBuilder(players=5, ruleset="tournament", game_id="t:short")
    log.deal(start="ann", hands={"ann": ["EW"]})
    log.path("ann", "EW", 1, 0)
    log.end_game()
    frames = game_view(parse_lines(log.lines)).rounds[1].frames
    assert [f.kind for f in frames] == ["round_started", "play_path", "draw", "game_ended"]
    assert frames[-1].over and not frames[-2].over
    assert [v.code for v in frames[-1].findings] == ["wrong_score"]


def test_the_docstring_examples_run() -> None:
    import doctest

    from dashboard import access, maze_svg

    for module in (maze_svg, access):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__
