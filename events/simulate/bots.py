"""The basic bots: plausible, legal Saboteur from what one player could know; and
:func:`choose`, which asks the bot a :class:`~events.simulate.lineup.Lineup` names for
the role (the strong bots are :mod:`events.simulate.strong`).

Gold diggers dig toward the goal they believe holds the gold, look at goals with maps,
mend their own and their friends' tools and break the tools of players who played like
saboteurs. Saboteurs block the leading tunnel with dead ends, bring it down with
rockfalls, break the tools of the busiest diggers and pass off the rest. Selfish dwarfs
dig like diggers but hold back the card that would let someone else connect. Everyone
passes the card they need least. Every choice is one of :mod:`events.simulate.moves`'s
legal plays, so a bot cannot break a rule; a seeded ``random.Random`` breaks ties.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from events import cards
from events.maze import Cell, neighbours, tunnel
from events.simulate.knowledge import View, distance
from events.simulate.lineup import BASIC, Lineup
from events.simulate.moves import Play, map_plays, open_cells, path_plays, rockfall_plays, tool_plays
from events.simulate.strong import STRONG_BOTS

Scorer = Callable[[Play], float]


def reach(view: View, cell: Cell) -> int:
    """How far the maze is from ``cell``: the fewest cards still to lay (0 = reached)."""
    frontier = open_cells(view.maze)
    if not frontier:
        return 99
    return min(distance(c, cell) for c in frontier)


def _exit_distance(view: View, play: Play, goal: Cell) -> tuple[int, bool]:
    """After laying ``play``: the nearest open exit's distance to ``goal``, and whether
    the card opens straight onto a face-down goal."""
    assert play.cell is not None
    placed = tunnel(play.card, play.rotated)
    best, reaches = 99, False
    if not placed.passable:
        return best, reaches
    for side, there in neighbours(play.cell):
        if not placed.sides & side:
            continue
        other = view.maze.cells.get(there)
        if other is None:
            best = min(best, distance(there, goal))
        elif other.is_face_down_goal:
            reaches = True
    return best, reaches


def _reached_slot(play: Play) -> str | None:
    assert play.cell is not None
    placed = tunnel(play.card, play.rotated)
    if not placed.passable:
        return None
    for side, there in neighbours(play.cell):
        if placed.sides & side and there in cards.SLOT_AT:
            return cards.SLOT_AT[there]
    return None


def _best(plays: list[Play], score: Scorer, rng: Random) -> tuple[float, Play] | None:
    if not plays:
        return None
    scored = [(score(p) + rng.random() * 0.5, p) for p in plays]
    return max(scored, key=lambda pair: pair[0])


def _path_options(view: View) -> list[Play]:
    if view.broken.get(view.player):
        return []
    frontier = open_cells(view.maze)
    plays: list[Play] = []
    for code in sorted(set(view.hand)):
        if code in cards.TUNNEL_CARDS:
            plays.extend(path_plays(view.maze, code, frontier))
    return plays


def _tool_options(view: View) -> list[Play]:
    plays: list[Play] = []
    for code in sorted(set(view.hand)):
        if code in cards.TOOL_CARDS:
            plays.extend(tool_plays(code, view.player, view.players, view.broken, view.self_break))
    return plays


def _digger_path_score(view: View, goal: Cell, now: int, selfish: bool) -> Scorer:
    gold = view.gold_slot()

    def score(play: Play) -> float:
        placed = tunnel(play.card, play.rotated)
        if not placed.passable:
            return -50.0
        slot = _reached_slot(play)
        if slot is not None:
            if view.seen_goals.get(slot, "") not in ("", cards.GOLD) or (gold is not None and slot != gold):
                return -5.0  # a stone: no need to spend a card on it
            return 100.0
        after, _ = _exit_distance(view, play, goal)
        gain = now - after
        value = 10.0 * gain
        if selfish and after <= 1:
            value -= 40.0  # do not open the last step for someone else
        return value

    return score


def _discard(view: View, rng: Random, keep: Callable[[str], float]) -> Play:
    """Pass with the card worth least to this player."""
    card = min(sorted(view.hand), key=lambda c: keep(c) + rng.random() * 0.1)
    return Play("discard", card)


def _digger_keep(card: str) -> float:
    if card in cards.TUNNEL_CARDS:
        return 1.0 if cards.TUNNEL_CARDS[card].dead_end else 5.0 + len(card)
    if card in cards.REPAIR_CARDS:
        return 4.0
    if card == cards.MAP:
        return 3.0
    return 2.0


def _saboteur_keep(card: str) -> float:
    if card in cards.TUNNEL_CARDS:
        return 5.0 if cards.TUNNEL_CARDS[card].dead_end else 1.0
    if card in cards.REPAIR_CARDS:
        return 2.0
    if card == cards.ROCKFALL:
        return 6.0
    return 4.0


def _repair_self(view: View) -> Play | None:
    for play in _tool_options(view):
        if play.card in cards.REPAIR_CARDS and play.target == view.player:
            return play
    return None


def _map(view: View) -> Play | None:
    if cards.MAP not in view.hand or view.gold_slot() is not None:
        return None
    unseen = [p for p in map_plays(view.maze) if p.goal not in view.seen_goals]
    if len(unseen) <= 1:
        return None
    order = {"middle": 0, "top": 1, "bottom": 2}
    return min(unseen, key=lambda p: order[p.goal or "middle"])


def _break(view: View, rng: Random, pick: Callable[[str], float], threshold: float) -> Play | None:
    options = [p for p in _tool_options(view) if p.card in cards.BREAK_CARDS and p.target != view.player]
    chosen = _best(options, lambda p: pick(p.target or ""), rng)
    if chosen is None or chosen[0] < threshold:
        return None
    return chosen[1]


def _repair_friend(view: View, rng: Random) -> Play | None:
    options = [
        p
        for p in _tool_options(view)
        if p.card in cards.REPAIR_CARDS and p.target != view.player and view.suspicion(p.target or "") <= 0
    ]
    chosen = _best(options, lambda p: -view.suspicion(p.target or ""), rng)
    return chosen[1] if chosen else None


def _dig(view: View, rng: Random, *, selfish: bool) -> tuple[Cell, int, tuple[float, Play] | None, Play | None]:
    """What every digger weighs first: the goal, how far the maze is from it, the best
    tunnel card; and the play that cannot wait (connecting, or mending one's own tool)."""
    goal = view.target()
    now = reach(view, goal)
    best = _best(_path_options(view), _digger_path_score(view, goal, now, selfish=selfish), rng)
    if best is not None and best[0] >= 100:
        return goal, now, best, best[1]
    return goal, now, best, _repair_self(view)


def gold_digger(view: View, rng: Random) -> Play:
    """Dig toward the believed gold; mend, look, and punish saboteur-like play."""
    goal, now, best, urgent = _dig(view, rng, selfish=False)
    if urgent is not None:
        return urgent
    look = _map(view)
    if look is not None and now > 2:
        return look
    if best is not None and best[0] > 5:
        return best[1]
    blocker = _clear_dead_end(view, goal, now)
    if blocker is not None:
        return blocker
    hit = _break(view, rng, view.suspicion, threshold=2)
    if hit is not None:
        return hit
    friend = _repair_friend(view, rng)
    if friend is not None:
        return friend
    if best is not None and best[0] > 0:
        return best[1]
    return _discard(view, rng, _digger_keep)


def selfish_dwarf(view: View, rng: Random) -> Play:
    """Race for the gold alone: connect when possible, never leave the last step open."""
    _, now, best, urgent = _dig(view, rng, selfish=True)
    if urgent is not None:
        return urgent
    look = _map(view)
    if look is not None:
        return look
    if now <= 2:
        hit = _break(view, rng, lambda p: 1.0 - view.suspicion(p), threshold=0)
        if hit is not None:
            return hit
    if best is not None and best[0] > 5:
        return best[1]
    return _discard(view, rng, _digger_keep)


def _clear_dead_end(view: View, goal: Cell, now: int) -> Play | None:
    if cards.ROCKFALL not in view.hand:
        return None
    connected = view.maze.connected()
    for play in rockfall_plays(view.maze):
        assert play.cell is not None
        placed = view.maze.cells[play.cell]
        if not placed.passable and play.cell in connected and distance(play.cell, goal) <= now:
            return play
    return None


def _leading_card(view: View, goal: Cell) -> Play | None:
    connected = view.maze.connected()
    options = [
        p
        for p in rockfall_plays(view.maze)
        if p.cell in connected and view.maze.cells[p.cell].passable  # type: ignore[index]
    ]
    if not options:
        return None
    return min(options, key=lambda p: (distance(p.cell, goal), p.cell))  # type: ignore[arg-type]


def saboteur(view: View, rng: Random) -> Play:
    """Keep the diggers from the gold without showing one's hand too early."""
    goal = view.target()
    now = reach(view, goal)
    if now <= 2 and cards.ROCKFALL in view.hand:
        leading = _leading_card(view, goal)
        if leading is not None:
            return leading
    paths = _path_options(view)
    gold = view.gold_slot()

    def block(play: Play) -> float:
        placed = tunnel(play.card, play.rotated)
        assert play.cell is not None
        slot = _reached_slot(play)
        if slot is not None and (gold is None or slot == gold):
            return -100.0
        if not placed.passable:
            return 20.0 - 3.0 * distance(play.cell, goal) if now <= 4 else -1.0
        after, _ = _exit_distance(view, play, goal)
        return -5.0 * (now - after)  # misdirect: a tunnel that leads nowhere useful

    best = _best(paths, block, rng)
    if best is not None and best[0] > 5:
        return best[1]
    hit = _break(view, rng, lambda p: -view.suspicion(p), threshold=-1)
    if hit is not None and (now <= 4 or rng.random() < 0.5):
        return hit
    look = _map(view)
    if look is not None:
        return look
    if best is not None and best[0] >= 0 and rng.random() < 0.5:
        return best[1]
    return _discard(view, rng, _saboteur_keep)


BOTS: dict[str, Callable[[View, Random], Play]] = {
    "gold_digger": gold_digger,
    "saboteur": saboteur,
    "selfish_dwarf": selfish_dwarf,
}


def choose(view: View, rng: Random, lineup: Lineup = BASIC) -> Play:
    """The play of the bot ``lineup`` names for ``view.role``."""
    if not view.hand:
        raise ValueError(f"{view.player} holds no cards")
    bots = STRONG_BOTS if lineup.of(view.role) == "strong" else BOTS
    return bots.get(view.role, bots["gold_digger"])(view, rng)
