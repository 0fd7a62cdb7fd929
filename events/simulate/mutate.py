"""Mutations: break one rule in a legal log, and say where the audit must catch it.

Given a legal log and the name of a violation, :func:`mutate` returns the mutated lines
and the ``(code, line)`` the audit must report, or ``None`` when the log offers no
place for that mutation (no rockfall to misplace, say). Tests check the finding is
there; later findings a mutation drags along (a card left in a hand) are allowed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from events import cards
from events.logfile import parse_line
from events.maze import tunnel
from events.replay import Replay
from events.state import GameState, RoundState

Line = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Mutation:
    """A mutated log and the finding that must be reported for it."""

    name: str
    lines: list[str]
    code: str
    line: int


def _dump(obj: Line) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _replace(objs: list[Line], index: int, new: Line) -> list[Line]:
    return [*objs[:index], new, *objs[index + 1 :]]


def _insert(objs: list[Line], index: int, new: Line) -> list[Line]:
    return [*objs[:index], new, *objs[index:]]


def state_before(lines: Sequence[str], index: int) -> GameState:
    """The table just before line ``index`` (0-based) is applied."""
    engine = Replay()
    for number, text in enumerate(lines[:index], start=1):
        engine.feed(parse_line(number, text))
    return engine.state


def _in_random_order(
    spots: list[int], lines: Sequence[str], rng: Random, *, most: int | None = None, after: int = 0
) -> Iterator[tuple[int, RoundState]]:
    """Each of ``spots`` (at most ``most``) in a random order, with its round as it stands
    just before line ``spot + after``: a mutation takes the first where it can be made.
    Each state is replayed only when asked for, so a mutation that succeeds early pays little."""
    rng.shuffle(spots)
    for i in spots[:most]:
        rs = state_before(lines, i + after).round
        assert rs is not None
        yield i, rs


def _followed_by(objs: list[Line], index: int, kind: str) -> bool:
    return index + 1 < len(objs) and objs[index + 1]["type"] == kind


CARD_TYPES = ("play_path", "play_tool", "play_rockfall", "play_map", "discard")


def _skip_draw(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    """A player forgets to draw (seed 000's first common error).

    Best, as a faithful log of that game: the draw line goes, and the card it took goes
    to the bottom of the deal's pile, where the round never reaches it, so every later
    line of the log stays true — the next player draws what lay under it, as they
    would have — and the one finding is the missed draw. Where no draw allows that,
    the line only goes: nothing is implied (event-log.md), so the card it took stays on
    top and the later draws name the cards under it, each reported too, as when a
    referee forgets to write a draw the player made."""
    spots = [
        i for i, o in enumerate(objs) if o["type"] == "draw" and i + 1 < len(objs) and objs[i + 1]["type"] in CARD_TYPES
    ]
    if not spots:
        return None
    forgettable = {i: kept for i in spots if (kept := _forgotten(objs, i)) is not None}
    i = rng.choice(list(forgettable) or spots)
    changed = forgettable.get(i, objs)
    return changed[:i] + changed[i + 1 :], "missed_draw", i + 1


def _forgotten(objs: list[Line], draw: int) -> list[Line] | None:
    """The lines with the card drawn at ``draw`` moved to the bottom of its round's
    pile, if the round ends before the pile does (so the card is never drawn) and its
    player never plays the card in the round; else ``None``."""
    deal = max(k for k in range(draw) if objs[k]["type"] == "round_started")
    end = next((k for k in range(draw, len(objs)) if objs[k]["type"] in ("round_ended", "round_started")), len(objs))
    pile = objs[deal]["draw_pile"]
    card, player = objs[draw]["card"], objs[draw]["player"]
    draws = [k for k in range(deal, end) if objs[k]["type"] == "draw"]
    if pile is None or card is None or len(draws) >= len(pile) or pile[draws.index(draw)] != card:
        return None
    if any(o["type"] in CARD_TYPES and o["player"] == player and o["card"] == card for o in objs[draw + 1 : end]):
        return None
    taken = draws.index(draw)
    return _replace(objs, deal, dict(objs[deal], draw_pile=[*pile[:taken], *pile[taken + 1 :], card]))


def _out_of_turn(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [
        i
        for i in range(len(objs) - 3)
        if objs[i]["type"] == "discard"
        and objs[i + 1]["type"] == "draw"
        and objs[i + 2]["type"] == "discard"
        and objs[i + 3]["type"] == "draw"
        and objs[i]["player"] != objs[i + 2]["player"]
    ]
    if not spots:
        return None
    i = rng.choice(spots)
    swapped = [*objs[:i], objs[i + 2], objs[i + 3], objs[i], objs[i + 1], *objs[i + 4 :]]
    return swapped, "out_of_turn", i + 1


def _card_not_in_hand(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "discard"]
    if not spots:
        return None
    i = rng.choice(spots)
    rs = state_before(lines, i).round
    assert rs is not None
    held = set(rs.hands.get(objs[i]["player"], []))
    absent = sorted(cards.DECK_CARDS - held)
    changed = dict(objs[i], card=rng.choice(absent))
    return _replace(objs, i, changed), "card_not_in_hand", i + 1


def _off_maze(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "play_path" and not _followed_by(objs, i, "goal_revealed")]
    if not spots:
        return None
    i = rng.choice(spots)
    changed = dict(objs[i], x=-40, y=40)
    return _replace(objs, i, changed), "illegal_placement", i + 1


def _mismatched_sides(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [
        i
        for i, o in enumerate(objs)
        if o["type"] == "play_path"
        and not _followed_by(objs, i, "goal_revealed")
        and tunnel(o["card"], True).sides != tunnel(o["card"], False).sides
    ]
    for i, rs in _in_random_order(spots, lines, rng, most=12):
        cell = (objs[i]["x"], objs[i]["y"])
        sides = tunnel(objs[i]["card"], not objs[i]["rotated"]).sides
        if rs.maze.mismatches(cell, sides) or not rs.maze.enters(cell, sides):
            changed = dict(objs[i], rotated=not objs[i]["rotated"])
            return _replace(objs, i, changed), "illegal_placement", i + 1
    return None


def _break_twice(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "play_tool" and o["card"] in cards.BREAK_CARDS]
    for i, rs in _in_random_order(spots, lines, rng):
        tool = cards.BREAK_CARDS[objs[i]["card"]]
        already = sorted(p for p, tools in rs.broken.items() if tool in tools and p != objs[i]["player"])
        if already:
            changed = dict(objs[i], target=rng.choice(already))
            return _replace(objs, i, changed), "impossible_action", i + 1
    return None


def _repair_nothing(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "play_tool" and o["card"] in cards.REPAIR_CARDS]
    for i, rs in _in_random_order(spots, lines, rng):
        mends = cards.REPAIR_CARDS[objs[i]["card"]]
        tool = objs[i].get("tool") or mends[0]
        whole = sorted(p for p, tools in rs.broken.items() if tool not in tools)
        if whole:
            changed = dict(objs[i], target=rng.choice(whole))
            return _replace(objs, i, changed), "impossible_action", i + 1
    return None


def _rockfall_goal(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "play_rockfall"]
    if not spots:
        return None
    i = rng.choice(spots)
    x, y = cards.GOAL_CELLS[rng.choice(cards.SLOTS)]
    changed = dict(objs[i], x=x, y=y)
    return _replace(objs, i, changed), "impossible_action", i + 1


def _reveal_too_early(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "play_path" and _followed_by(objs, i, "draw")]
    for i, rs in _in_random_order(spots, lines, rng):
        hidden = [s for s in cards.SLOTS if rs.maze.face_down(s)]
        if hidden:
            reveal = {"type": "goal_revealed", "goal": rng.choice(hidden), "rotated": False}
            return _insert(objs, i + 1, reveal), "false_reveal", i + 2
    return None


def _miss_reveal(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "goal_revealed"]
    if not spots:
        return None
    i = rng.choice(spots)
    return objs[:i] + objs[i + 1 :], "missing_reveal", i + 1


def _mis_score(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "round_ended"]
    if not spots:
        return None
    i = rng.choice(spots)
    scores = dict(objs[i]["scores"])
    player = rng.choice(sorted(scores))
    scores[player] += 1
    changed = dict(objs[i], scores=scores)
    return _replace(objs, i, changed), "wrong_score", i + 1


def _wrong_draw(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "draw"]
    if not spots:
        return None
    i = rng.choice(spots)
    other = sorted(cards.DECK_CARDS - {objs[i]["card"]})
    changed = dict(objs[i], card=rng.choice(other))
    return _replace(objs, i, changed), "wrong_draw", i + 1


def _extra_play(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] in CARD_TYPES and _followed_by(objs, i, "draw")]
    for i, rs in _in_random_order(spots, lines, rng, after=1):
        hand = rs.hands.get(objs[i]["player"], [])
        if hand:
            extra = {"type": "discard", "player": objs[i]["player"], "card": rng.choice(sorted(hand))}
            return _insert(objs, i + 1, extra), "extra_play", i + 2
    return None


def _play_after_end(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i, o in enumerate(objs) if o["type"] == "round_ended"]
    if not spots:
        return None
    i = rng.choice(spots)
    player = objs[0]["players"][0]
    extra = {"type": "discard", "player": player, "card": "map"}
    return _insert(objs, i + 1, extra), "play_after_round_end", i + 2


def _deals(objs: list[Line]) -> list[int]:
    return [i for i, o in enumerate(objs) if o["type"] == "round_started"]


def _bad_hand_size(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i in _deals(objs) if objs[i]["hands"] is not None]
    if not spots:
        return None
    i = rng.choice(spots)
    hands = {player: list(hand) for player, hand in objs[i]["hands"].items()}
    giver, taker = rng.sample(sorted(hands), 2)
    hands[taker].append(hands[giver].pop())  # one hand a card short, another a card over
    return _replace(objs, i, dict(objs[i], hands=hands)), "bad_hand_size", i + 1


def _bad_deck(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i in _deals(objs) if objs[i]["draw_pile"]]
    if not spots:
        return None
    i = rng.choice(spots)
    pile = list(objs[i]["draw_pile"])
    pile[-1] = rng.choice(sorted(cards.DECK_CARDS - {pile[-1]}))  # the bottom card: drawn last, if ever
    return _replace(objs, i, dict(objs[i], draw_pile=pile)), "bad_deck", i + 1


def _bad_roles(objs: list[Line], lines: list[str], rng: Random) -> tuple[list[Line], str, int] | None:
    spots = [i for i in _deals(objs) if objs[i]["roles"] is not None]
    if not spots:
        return None
    i = rng.choice(spots)
    everyone_a_saboteur = dict.fromkeys(objs[i]["roles"], "saboteur")  # more than any role deck holds
    return _replace(objs, i, dict(objs[i], roles=everyone_a_saboteur)), "bad_roles", i + 1


Mutator = Callable[[list[Line], list[str], Random], tuple[list[Line], str, int] | None]

MUTATIONS: dict[str, Mutator] = {
    "skip_draw": _skip_draw,
    "out_of_turn": _out_of_turn,
    "card_not_in_hand": _card_not_in_hand,
    "off_maze": _off_maze,
    "mismatched_sides": _mismatched_sides,
    "break_twice": _break_twice,
    "repair_nothing": _repair_nothing,
    "rockfall_goal": _rockfall_goal,
    "reveal_too_early": _reveal_too_early,
    "miss_reveal": _miss_reveal,
    "mis_score": _mis_score,
    "wrong_draw": _wrong_draw,
    "extra_play": _extra_play,
    "play_after_end": _play_after_end,
    "bad_hand_size": _bad_hand_size,
    "bad_deck": _bad_deck,
    "bad_roles": _bad_roles,
}
"""Every mutation by name; the audit code each must produce is returned with it."""


def mutate(lines: Sequence[str], name: str, seed: int = 0) -> Mutation | None:
    """Break the rule ``name`` names once in a legal log (see :data:`MUTATIONS`)."""
    if name not in MUTATIONS:
        raise KeyError(f"no mutation {name!r}; known: {', '.join(MUTATIONS)}")
    text = list(lines)
    objs: list[Line] = [json.loads(line) for line in text]
    result = MUTATIONS[name](objs, text, Random(seed))
    if result is None:
        return None
    mutated, code, line = result
    return Mutation(name, [_dump(o) for o in mutated], code, line)
