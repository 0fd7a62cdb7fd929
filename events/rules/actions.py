"""Checks of action cards (R-A1..R-A6)."""

from __future__ import annotations

from events import cards
from events.findings import Breach, Code
from events.maze import Cell, Maze
from events.said import say


def check_no_broken_tool(broken: set[str], player: str) -> Breach | None:
    """R-A2 (and R-P6): no tunnel card while a broken tool lies in front of the player."""
    if broken:
        return Breach(
            Code.PATH_WITH_BROKEN_TOOL,
            "R-A2",
            say(
                "%(player)s laid a tunnel card with a broken %(tools)s in front of them",
                player=player,
                tools=tuple(sorted(broken)),
            ),
        )
    return None


def check_break(broken: set[str], player: str, target: str, tool: str, self_break: bool) -> Breach | None:
    """R-A1: a broken tool goes in front of another player, at most one of each kind."""
    if target == player and not self_break:
        return Breach(
            Code.IMPOSSIBLE_ACTION,
            "R-A1",
            say(
                "%(player)s laid a broken %(tool)s in front of themselves: it goes in front of another player",
                player=player,
                tool=tool,
            ),
        )
    if tool in broken:
        return Breach(
            Code.IMPOSSIBLE_ACTION, "R-A1", say("%(target)s already has a broken %(tool)s", target=target, tool=tool)
        )
    return None


def check_repair(broken: set[str], target: str, tool: str) -> Breach | None:
    """R-A3, R-A4: a repair mends a broken tool of its kind that lies in front of
    ``target``; a double repair mends the one kind named."""
    if tool not in broken and broken:
        said = say(
            "%(target)s has no broken %(tool)s to repair (broken: %(tools)s)",
            target=target,
            tool=tool,
            tools=tuple(sorted(broken)),
        )
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A3", said)
    if tool not in broken:
        return Breach(
            Code.IMPOSSIBLE_ACTION, "R-A3", say("%(target)s has no broken %(tool)s to repair", target=target, tool=tool)
        )
    return None


def check_rockfall(maze: Maze, cell: Cell) -> Breach | None:
    """R-A5: a rockfall removes a tunnel card, never the start card or a goal card."""
    placed = maze.cells.get(cell)
    if placed is None:
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A5", say("no card lies at %(cell)s to remove", cell=cell))
    if placed.kind == "start":
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A5", say("a rockfall never removes the start card"))
    if placed.kind == "goal":
        return Breach(
            Code.IMPOSSIBLE_ACTION,
            "R-A5",
            say("a rockfall never removes a goal card (%(slot)s)", slot=cards.SLOT_AT[cell]),
        )
    return None


def check_map(maze: Maze, slot: str) -> Breach | None:
    """R-A6: a map looks at a face-down goal; a revealed goal cannot be the target."""
    if not maze.face_down(slot):
        return Breach(Code.IMPOSSIBLE_ACTION, "R-A6", say("the %(slot)s goal is already face up", slot=slot))
    return None
