"""The end of a round (R-E1, R-E2): when it is over, and what may follow.

A round is over by the rules the moment the gold is turned up (R-E1) or every card is
played out (R-E2); from then on only its ``round_ended`` may follow, and after that only
the next ``round_started``. The predicates say when the replay marks the round over;
the checks judge a line against that.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from events import cards
from events.findings import Breach, Code
from events.maze import Maze
from events.said import say
from events.state import RoundState


def gold_turned_up(maze: Maze, turned: Iterable[str]) -> bool:
    """R-E1: one of the goals just turned up is the gold, which ends the round."""
    return any(maze.cells[cards.GOAL_CELLS[slot]].card == cards.GOLD for slot in turned)


def hands_played_out(rs: RoundState) -> bool:
    """R-E2: the pile is empty and so is every hand, which ends the round."""
    return not rs.pile and rs.hands_empty()


def check_round_open(rs: RoundState, kind: str) -> Breach | None:
    """R-E2: after a round's ``round_ended`` nothing follows but the next ``round_started``."""
    if not rs.ended:
        return None
    if kind == "round_ended":
        said = say("round %(round)s has already ended", round=rs.number)
    elif kind == "goal_revealed":
        said = say("goal_revealed after round %(round)s ended", round=rs.number)
    else:
        said = say("%(kind)s after round %(round)s ended and before the next round_started", kind=kind, round=rs.number)
    return Breach(Code.PLAY_AFTER_ROUND_END, "R-E2", said)


def check_round_not_over(rs: RoundState, kind: str) -> Breach | None:
    """R-E1, R-E2: once the round is over by the rules only its ``round_ended`` may follow."""
    if not rs.over:
        return None
    if rs.gold_found:
        return after_the_gold(rs.number, kind)
    said = say(
        "%(kind)s after round %(round)s was over (every hand is empty): only round_ended may follow",
        kind=kind,
        round=rs.number,
    )
    return Breach(Code.PLAY_AFTER_ROUND_END, "R-E2", said)


def after_the_gold(number: int, kind: str) -> Breach:
    """R-E1: a ``kind`` line after round ``number``'s gold was turned up, where only its
    ``round_ended`` may follow."""
    said = say(
        "%(kind)s after round %(round)s was over (the gold was revealed): only round_ended may follow",
        kind=kind,
        round=number,
    )
    return Breach(Code.PLAY_AFTER_ROUND_END, "R-E1", said)


def check_round_over(rs: RoundState, players: Sequence[str]) -> Breach | None:
    """R-E2: a ``round_ended`` comes once the round is over: the gold reached (R-E1) or
    every card played out."""
    if rs.over:
        return None
    holders = [p for p in players if rs.hands.get(p)]
    if not holders:
        said = say(
            "round %(round)s is not over: the gold is not reached and the pile still holds cards", round=rs.number
        )
    else:
        said = say(
            "round %(round)s is not over: the gold is not reached and %(players)s still holds cards",
            "round %(round)s is not over: the gold is not reached and %(players)s still hold cards",
            "count",
            round=rs.number,
            players=tuple(holders),
            count=len(holders),
        )
    return Breach(Code.WRONG_SCORE, "R-E2", said)
