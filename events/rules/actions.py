"""Checks of action cards (R-A1..R-A6)."""

from __future__ import annotations

from events import cards
from events.findings import Breach, Code
from events.maze import Cell, Maze


def check_no_broken_tool(broken: set[str], player: str) -> Breach | None:
    """R-A2 (and R-P6): no tunnel card while a broken tool lies in front of the player."""
    if broken:
        return Breach(
            Code.PATH_WITH_BROKEN_TOOL,
            "R-A2",
            f"{player} laid a tunnel card with a broken {', '.join(sorted(broken))} in front of them",
        )
    return None


def check_break(broken: set[str], player: str, target: str, tool: str, self_break: bool) -> Breach | None:
    """R-A1: a broken tool goes in front of another player, at most one of each kind."""
    if target == player and not self_break:
        return Breach(
            Code.IMPOSSIBLE_ACTION,
            "R-A1",
            f"{player} laid a broken {tool} in front of themselves: it goes in front of another player",
        )
    if tool in broken:
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A1", f"{target} already has a broken {tool}")
    return None


def check_repair(broken: set[str], target: str, tool: str) -> Breach | None:
    """R-A3, R-A4: a repair mends a broken tool of its kind that lies in front of
    ``target``; a double repair mends the one kind named."""
    if tool not in broken:
        held = f" (broken: {', '.join(sorted(broken))})" if broken else ""
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A3", f"{target} has no broken {tool} to repair{held}")
    return None


def check_rockfall(maze: Maze, cell: Cell) -> Breach | None:
    """R-A5: a rockfall removes a tunnel card, never the start card or a goal card."""
    placed = maze.cells.get(cell)
    if placed is None:
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A5", f"no card lies at {cell} to remove")
    if placed.kind == "start":
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A5", "a rockfall never removes the start card")
    if placed.kind == "goal":
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A5", f"a rockfall never removes a goal card ({cards.SLOT_AT[cell]})")
    return None


def check_map(maze: Maze, slot: str) -> Breach | None:
    """R-A6: a map looks at a face-down goal; a revealed goal cannot be the target."""
    if not maze.face_down(slot):
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A6", f"the {slot} goal is already face up")
    return None
