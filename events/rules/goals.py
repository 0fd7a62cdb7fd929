"""Goal cards (R-G1, R-G2): which goals a placement turns up, and how they lie.

The ``goal_revealed`` lines after one ``play_path`` are judged together once the next
event shows the run is over, because one placement may reveal several goals (in slot
order) and a stone revealed by it may carry the path on to another goal.
"""

from __future__ import annotations

from typing import Final

from events import cards
from events.findings import Breach, Code
from events.maze import Maze
from events.state import RevealRun

SLOT_ORDER: Final = {slot: index for index, slot in enumerate(cards.SLOTS)}


def close_reveal_run(maze: Maze, run: RevealRun, next_line: int | None) -> tuple[list[tuple[int, Breach]], list[str]]:
    """Turn up every goal the placement leaves reached and judge the recorded reveals.

    Returns the breaches with their lines and the slots turned up, in the order they
    were turned. A goal the rules turn up is turned up in the maze even if the log
    forgot it (one missing line gives one finding, not a cascade); a reveal the rules
    do not allow is not applied. ``next_line`` is the line standing where a missing
    reveal was due, ``None`` at the end of the file (nothing is due past it).
    """
    breaches: list[tuple[int, Breach]] = []
    recorded: dict[str, tuple[bool, int]] = {}
    for slot, rotated, line in run.entries:
        if slot in recorded or not maze.face_down(slot):
            breaches.append(
                (line, Breach(Code.FALSE_REVEAL, "R-G1", f"the {slot} goal is already face up", run.player))
            )
            continue
        recorded[slot] = (rotated, line)

    turned: list[str] = []
    while True:
        wave = maze.reached_goals()
        if not wave:
            break
        for slot in wave:
            ways = maze.goal_ways(slot)
            if slot in recorded:
                rotated, line = recorded[slot]
                if rotated not in ways:
                    breaches.append(
                        (
                            line,
                            Breach(
                                Code.ILLEGAL_PLACEMENT,
                                "R-G2",
                                f"the {slot} goal must lie {'turned' if ways[0] else 'as printed'} "
                                "to match the cards around it",
                                run.player,
                            ),
                        )
                    )
            else:
                rotated = ways[0]
            maze.reveal(slot, rotated)
            turned.append(slot)

    for slot, (_, line) in recorded.items():
        if slot not in turned:
            breaches.append(
                (
                    line,
                    Breach(
                        Code.FALSE_REVEAL,
                        "R-G1",
                        f"no uninterrupted path from the start reaches the {slot} goal",
                        run.player,
                    ),
                )
            )

    reported: set[str] = set()
    seen: set[str] = set()
    for slot, _, line in run.entries:
        if slot not in turned or slot in seen:
            continue
        for earlier in sorted(turned, key=SLOT_ORDER.__getitem__):
            if SLOT_ORDER[earlier] < SLOT_ORDER[slot] and earlier not in seen and earlier not in reported:
                reported.add(earlier)
                breaches.append((line, _missing(earlier, run.player, f"before the {slot} goal")))
        seen.add(slot)
    if next_line is not None:
        for slot in sorted(turned, key=SLOT_ORDER.__getitem__):
            if slot not in seen and slot not in reported:
                breaches.append((next_line, _missing(slot, run.player, "right after the placement")))
    return breaches, turned


def _missing(slot: str, player: str, when: str) -> Breach:
    return Breach(
        Code.MISSING_REVEAL,
        "R-G1",
        f"{player}'s card reached the face-down {slot} goal; it must be revealed {when}",
        player,
    )
