"""Goal cards (R-G1, R-G2): which goals a placement turns up, and how they lie.

The ``goal_revealed`` lines after one ``play_path`` are judged together once the next
event shows the run is over, because one placement may reveal several goals (in slot
order) and a stone revealed by it may carry the path on to another goal.

An observed log does not know the goals until they are turned up: each reveal names
its card, and the maze learns it then (a goal turned up without its line is deduced
where the other two are known, and otherwise stays unknown: :func:`unseen_goal`).
"""

from __future__ import annotations

from typing import Final

from events import cards
from events.findings import Breach, Code
from events.maze import Maze
from events.rules import ending
from events.said import Said, say
from events.state import RevealRun

SLOT_ORDER: Final = {slot: index for index, slot in enumerate(cards.SLOTS)}


def close_reveal_run(
    maze: Maze, run: RevealRun, next_line: int | None, *, round_number: int
) -> tuple[list[tuple[int, Breach]], list[str]]:
    """Turn up every goal the placement leaves reached and judge the recorded reveals.

    Returns the breaches with their lines and the slots turned up, in the order they
    were turned. A goal the rules turn up is turned up in the maze even if the log
    forgot it (one missing line gives one finding, not a cascade); a reveal the rules
    do not allow is not applied, and one after the gold's own line is a line after the
    round was over (round ``round_number``, R-E1). ``next_line`` is the line standing
    where a missing reveal was due, ``None`` at the end of the file (nothing is due
    past it).
    """
    breaches: list[tuple[int, Breach]] = []
    false: list[tuple[int, Said]] = []  # reveals the rules do not allow: judged once the gold's line is known
    recorded: dict[str, tuple[bool, int, str | None]] = {}
    for slot, rotated, line, card in run.entries:
        if slot in recorded or not maze.face_down(slot):
            false.append((line, say("the %(slot)s goal is already face up", slot=slot)))
            continue
        recorded[slot] = (rotated, line, card)

    turned: list[str] = []
    while True:
        wave = maze.reached_goals()
        if not wave:
            break
        for slot in wave:
            if maze.goal_card(slot) == cards.UNSEEN:
                shown = recorded[slot][2] if slot in recorded else None
                if shown is not None:
                    twice = check_goal_seen(maze, slot, shown, run.player)
                    if twice is not None:
                        breaches.append((recorded[slot][1], twice))
                maze.learn_goal(slot, shown or unseen_goal(maze) or cards.UNSEEN)
            ways = maze.goal_ways(slot)
            if slot in recorded:
                rotated, line, _ = recorded[slot]
                if rotated not in ways:
                    breaches.append(
                        (
                            line,
                            Breach(
                                Code.ILLEGAL_PLACEMENT,
                                "R-G2",
                                say(
                                    "the %(slot)s goal must lie turned to match the cards around it"
                                    if ways[0]
                                    else "the %(slot)s goal must lie as printed to match the cards around it",
                                    slot=slot,
                                ),
                                run.player,
                            ),
                        )
                    )
            else:
                rotated = ways[0]
            maze.reveal(slot, rotated)
            turned.append(slot)

    for slot, (_, line, _) in recorded.items():
        if slot not in turned:
            false.append((line, say("no uninterrupted path from the start reaches the %(slot)s goal", slot=slot)))
    gold = next((recorded[slot][1] for slot in turned if slot in recorded and maze.goal_card(slot) == cards.GOLD), None)
    for line, said in sorted(false, key=lambda entry: entry[0]):
        if gold is not None and line > gold:
            breaches.append((line, ending.after_the_gold(round_number, "goal_revealed")))
        else:
            breaches.append((line, Breach(Code.FALSE_REVEAL, "R-G1", said, run.player)))

    reported: set[str] = set()
    seen: set[str] = set()
    for slot, _, line, _ in run.entries:
        if slot not in turned or slot in seen:
            continue
        for earlier in sorted(turned, key=SLOT_ORDER.__getitem__):
            if SLOT_ORDER[earlier] < SLOT_ORDER[slot] and earlier not in seen and earlier not in reported:
                reported.add(earlier)
                breaches.append((line, _missing(earlier, run.player, slot)))
        seen.add(slot)
    if next_line is not None:
        for slot in sorted(turned, key=SLOT_ORDER.__getitem__):
            if slot not in seen and slot not in reported:
                breaches.append((next_line, _missing(slot, run.player, None)))
    return breaches, turned


def check_goal_seen(maze: Maze, slot: str, card: str, player: str) -> Breach | None:
    """R-S2 in an observed log: the goals turned up can be one gold and two stones, so no
    card shows twice (a full log's deal is checked whole, by ``check_goals``)."""
    for other in cards.SLOTS:
        if other != slot and maze.goal_card(other) == card:
            return Breach(
                Code.BAD_DECK,
                "R-S2",
                say(
                    "the %(slot)s goal turned up %(card)s, which the %(other)s goal already showed: "
                    "the goals are one gold and two stones",
                    slot=slot,
                    card=card,
                    other=other,
                ),
                player,
            )
    return None


def unseen_goal(maze: Maze) -> str | None:
    """The card of a goal turned up without its ``goal_revealed`` in an observed log:
    the one goal card not yet seen when the other two are known; otherwise ``None``,
    unknown. A guess (a stone, say) judged the rest of the round against a card nobody
    saw: the cards laid beside it, a later reveal through it, the goals' deck."""
    known = {maze.goal_card(slot) for slot in cards.SLOTS}
    remaining = [card for card in cards.GOAL_SIDES if card not in known]
    return remaining[0] if len(remaining) == 1 else None


def _missing(slot: str, player: str, before: str | None) -> Breach:
    """``slot`` was not revealed: right after the placement, or (``before``) before the
    goal whose reveal came first although it lies later in slot order."""
    if before is None:
        said = say(
            "%(player)s's card reached the face-down %(slot)s goal; it must be revealed right after the placement",
            player=player,
            slot=slot,
        )
    else:
        said = say(
            "%(player)s's card reached the face-down %(slot)s goal; it must be revealed before the %(before)s goal",
            player=player,
            slot=slot,
            before=before,
        )
    return Breach(Code.MISSING_REVEAL, "R-G1", said, player)
