"""Strong bots: each role played to win, from what its player could know.

The basic bots (:mod:`events.simulate.bots`) measure the maze in straight lines and
judge the other players by a rough tally. These bots count the maze as a player does —
cards still to lay, round every card already lying (:class:`~events.simulate.survey.Survey`)
— over every goal that may still hold the gold, and read the other players from
everything they have played this round (:func:`leaning`). Then:

- **Gold diggers** connect whenever they can, look at goals with a map early, dig the
  play that brings the believed gold closest, take a rockfall to a dead end that stands
  in the way, break the tools of the players who play against them (never of a player
  already held up) and mend their allies' tools, and pass dead ends rather than lay them.
- **Saboteurs** hide while the gold is far — passing the cards diggers want, looking at
  goals, keeping their tools whole — and block when it counts: a dead end where it
  lengthens the way most, a rockfall on the card that leads, broken tools for the
  diggers who play next.
- **Selfish dwarfs** race to make the connection themselves: they dig while the gold is
  far, stop opening the way when someone else could finish it, hold the tunnel cards
  that could, and break the tools of whoever is about to.

Every choice is one of :mod:`events.simulate.moves`'s legal plays, so a bot cannot
break a rule; the player's ``random.Random`` breaks ties only. A strong bot costs a few
searches of a small grid per turn: the simulator stays within a few times its speed
with basic bots.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from random import Random

from events import cards
from events.maze import Cell
from events.simulate.knowledge import View
from events.simulate.moves import Play, map_plays, open_cells, path_plays, rockfall_plays, tool_plays
from events.simulate.survey import FAR, Survey

Pick = Callable[[Play], float]

LOOK_FROM = 5
"""A gold digger looks at a goal once the path is this close: earlier, the turn is
better spent digging toward all three (measured against 2–7 with ``benchmarks/bots.py``)."""
HOLD_BACK = 3.5
"""A selfish dwarf does not bring the gold closer than this many cards: the rest of the
way is for the others to dig and for the dwarf's own card to finish (measured best of
1.5–4.5 with ``benchmarks/bots.py``)."""


# -- what the player believes -------------------------------------------------------


def gold_slots(view: View) -> list[str]:
    """The face-down goals that may hold the gold as far as this player knows."""
    known = view.gold_slot()
    if known is not None:
        return [known] if view.maze.face_down(known) else []
    return [s for s in cards.SLOTS if view.maze.face_down(s) and s not in view.seen_goals]


def _board_leaning(view: View) -> dict[str, float]:
    """Each player's leaning from what they did to the maze alone."""
    score: dict[str, float] = dict.fromkeys(view.players, 0.0)
    for deed in view.deeds:
        if deed.kind == "dead_end":
            score[deed.player] += 3.0
        elif deed.kind == "rockfall":
            score[deed.player] += -1.5 if deed.cleared else 2.0
        elif deed.kind == "path":
            score[deed.player] += -1.5 if deed.toward > 0 else 1.5 if deed.toward < 0 else 0.0
    return score


def leanings(view: View) -> dict[str, float]:
    """How each player has played this round, as ``view.player`` reads it: above zero
    against the gold diggers (dead ends, rockfalls on good tunnel, tools broken on
    players who dig or mended on players who block), below zero for them. This player's
    own entry says what they know: their role."""
    board = _board_leaning(view)
    score = dict(board)
    for deed in view.deeds:
        target = deed.target
        if target is None or deed.kind not in ("break", "repair"):
            continue
        if target == view.player:
            against = view.role == "saboteur"
        elif board.get(target, 0.0) >= 2.0:
            against = True
        elif board.get(target, 0.0) < 0.0:
            against = False
        else:
            continue
        if deed.kind == "break":
            score[deed.player] += -1.0 if against else 2.0
        elif target != deed.player:
            score[deed.player] += 1.5 if against else -1.0
    score[view.player] = 9.0 if view.role == "saboteur" else -9.0
    return score


def next_players(view: View) -> list[str]:
    """The others in the order they play after this player."""
    seats = view.players
    at = seats.index(view.player)
    return [seats[(at + k) % len(seats)] for k in range(1, len(seats))]


class Reading:
    """One turn's reading of the table: the maze counted toward every goal that may
    hold the gold, and how close the path is."""

    def __init__(self, view: View) -> None:
        self.slots = gold_slots(view) or [s for s in cards.SLOTS if view.maze.face_down(s)]
        self.survey = Survey(view.maze, self.slots)
        self.need = self.expected()
        self.nearest = min((self.survey.need(s) for s in self.slots), default=FAR)

    def expected(self, ends: Iterable[Cell] | None = None) -> float:
        """The cards still to lay, averaged over the goals that may hold the gold."""
        if not self.slots:
            return float(FAR)
        ends = self.survey.ends if ends is None else set(ends)
        return sum(self.survey.need(s, ends) for s in self.slots) / len(self.slots)

    def after(self, play: Play) -> float:
        """The count once ``play`` is laid, a little lower for every open end it leaves
        close to the gold: a wide front takes more than one dead end to stop."""
        assert play.cell is not None
        ends = self.survey.ends_after_path(play.cell, play.card, play.rotated)
        best = min((self.survey.need(s, ends) for s in self.slots), default=FAR)
        close = sum(1 for c in ends for s in self.slots if self.survey.steps[s].get(c, FAR) <= best + 1)
        return self.expected(ends) - 0.02 * min(close, 10)

    def connects(self, play: Play) -> bool:
        """Whether ``play`` opens onto a goal that may hold the gold."""
        assert play.cell is not None
        return any(s in self.slots for s in self.survey.opens_onto(play.cell, play.card, play.rotated))

    def opens_any(self, play: Play) -> bool:
        assert play.cell is not None
        return bool(self.survey.opens_onto(play.cell, play.card, play.rotated))


# -- the plays a hand offers --------------------------------------------------------


def _paths(view: View, *, dead_ends: bool) -> list[Play]:
    if view.broken.get(view.player):
        return []
    frontier = None
    plays: list[Play] = []
    for code in sorted(set(view.hand)):
        spec = cards.TUNNEL_CARDS.get(code)
        if spec is None or spec.dead_end != dead_ends:
            continue
        if frontier is None:
            frontier = open_cells(view.maze)
        plays.extend(path_plays(view.maze, code, frontier))
    return plays


def _tools(view: View, kinds: Collection[str]) -> list[Play]:
    plays: list[Play] = []
    for code in sorted(set(view.hand)):
        if code in kinds:
            plays.extend(tool_plays(code, view.player, view.players, view.broken, view.self_break))
    return plays


def _best(plays: Iterable[Play], score: Pick, rng: Random) -> tuple[float, Play] | None:
    best: tuple[float, Play] | None = None
    for play in plays:
        value = score(play) + rng.random() * 0.01
        if best is None or value > best[0]:
            best = (value, play)
    return best


def _repair_self(view: View) -> Play | None:
    for play in _tools(view, cards.REPAIR_CARDS):
        if play.target == view.player:
            return play
    return None


def _dig_first(view: View) -> tuple[Reading, list[Play], Play | None]:
    """What both roles that dig for themselves weigh before anything else: the maze as
    they read it, their tunnel plays, and the play that cannot wait
    (:func:`_connect_or_mend`), if any."""
    reading = Reading(view)
    paths = _paths(view, dead_ends=False)
    return reading, paths, _connect_or_mend(view, reading, paths)


def _connect_or_mend(view: View, reading: Reading, paths: list[Play]) -> Play | None:
    """What a player who digs does before anything else: open onto a goal that may hold
    the gold, else mend their own broken tool (without it, no tunnel card can be laid)."""
    for play in paths:
        if reading.connects(play):
            return play
    return _repair_self(view)


def _look(view: View, reading: Reading) -> Play | None:
    """A map on the face-down goal nearest the path, while the gold is not known."""
    if cards.MAP not in view.hand or view.gold_slot() is not None:
        return None
    unseen = [p for p in map_plays(view.maze) if p.goal in reading.slots]
    if len(unseen) <= 1:
        return None
    return min(unseen, key=lambda p: (reading.survey.need(p.goal or "middle"), p.goal != "middle", p.goal))


def _break(view: View, rng: Random, worth: Callable[[str], float], least: float) -> Play | None:
    """Break a tool of the player ``worth`` rates highest (at least ``least``); a player
    already held up by a broken tool is not worth a second."""
    options = [
        p for p in _tools(view, cards.BREAK_CARDS) if p.target != view.player and not view.broken.get(p.target or "")
    ]
    chosen = _best(options, lambda p: worth(p.target or ""), rng)
    if chosen is None or chosen[0] < least:
        return None
    return chosen[1]


def _repair_ally(view: View, rng: Random, ally: Callable[[str], float]) -> Play | None:
    options = [p for p in _tools(view, cards.REPAIR_CARDS) if p.target != view.player and ally(p.target or "") > 0]
    chosen = _best(options, lambda p: ally(p.target or ""), rng)
    return chosen[1] if chosen else None


def _soon(view: View) -> dict[str, int]:
    """How soon each other player plays: 0 next, 1 after that…"""
    return {p: k for k, p in enumerate(next_players(view))}


def _rockfall(view: View, reading: Reading, *, clear: bool) -> tuple[float, Play] | None:
    """The rockfall that changes the count most: lowers it (``clear``, a dead end in
    the way) or raises it (the card that leads)."""
    if cards.ROCKFALL not in view.hand or not reading.slots:
        return None
    best: tuple[float, Play] | None = None
    connected = view.maze.connected()
    for play in rockfall_plays(view.maze):
        assert play.cell is not None
        placed = view.maze.cells[play.cell]
        if play.cell not in connected or placed.passable == clear:
            continue
        maze = view.maze.copy()
        maze.remove(play.cell)
        after = Survey(maze, reading.slots)
        need = sum(after.need(s) for s in reading.slots) / len(reading.slots)
        change = reading.need - need if clear else need - reading.need
        if best is None or change > best[0]:
            best = (change, play)
    return best


def _discard(view: View, keep: Callable[[str], float]) -> Play:
    card = min(sorted(view.hand), key=keep)
    return Play("discard", card)


# -- gold digger --------------------------------------------------------------------


def gold_digger(view: View, rng: Random) -> Play:
    """Dig the shortest way to the believed gold; look, clear, mend and punish."""
    reading, paths, urgent = _dig_first(view)
    if urgent is not None:
        return urgent
    look = _look(view, reading)
    if look is not None and 2 <= reading.nearest <= LOOK_FROM:
        return look

    def dig(play: Play) -> float:
        if reading.opens_any(play):
            return -1.0  # a stone already known: no card spent on it
        # Of two plays that gain alike, the plainer card goes: crossings are kept for
        # the cells that need them.
        return reading.need - reading.after(play) - 0.03 * cards.TUNNEL_CARDS[play.card].sides.bit_count()

    best = _best(paths, dig, rng)
    if best is not None and best[0] > 0.1:
        return best[1]
    cleared = _rockfall(view, reading, clear=True)
    if cleared is not None and cleared[0] >= 0.3:
        return cleared[1]
    soon = _soon(view)
    lean = leanings(view)
    hit = _break(view, rng, lambda p: lean[p] - 0.1 * soon.get(p, 0), least=2.0)
    if hit is not None:
        return hit
    friend = _repair_ally(view, rng, lambda p: 1.0 - lean[p] - 0.1 * soon.get(p, 0))
    if friend is not None:
        return friend

    def keep(card: str) -> float:
        tunnel = cards.TUNNEL_CARDS.get(card)
        if tunnel is not None:
            return 0.0 if tunnel.dead_end else 6.0 + tunnel.sides.bit_count()
        if card in cards.REPAIR_CARDS:
            return 4.0
        if card == cards.MAP:
            return 3.0 if view.gold_slot() is None else 0.5
        if card == cards.ROCKFALL:
            return 2.5
        return 2.0

    return _discard(view, keep)


# -- saboteur -----------------------------------------------------------------------


def saboteur(view: View, rng: Random) -> Play:
    """Keep the gold unreached: hide while it is far, block when it counts."""
    reading = Reading(view)
    near = reading.nearest
    if near <= 2:
        fallen = _rockfall(view, reading, clear=False)
        if fallen is not None and fallen[0] >= 1:
            return fallen[1]
    if near <= 4:
        blocks = _paths(view, dead_ends=True)

        def block(play: Play) -> float:
            assert play.cell is not None
            ends = set(reading.survey.ends)
            ends.discard(play.cell)
            return (
                sum(reading.survey.need_blocked(s, play.cell, ends) for s in reading.slots) / len(reading.slots)
                - reading.need
            )

        best = _best(blocks, block, rng)
        if best is not None and best[0] >= 1:
            return best[1]
    soon = _soon(view)
    lean = leanings(view)
    if near <= 4:
        hit = _break(view, rng, lambda p: 1.0 - lean[p] - 0.3 * soon.get(p, 0), least=-2.0)
        if hit is not None:
            return hit
    look = _look(view, reading)
    if look is not None:
        return look
    friend = _repair_ally(view, rng, lambda p: lean[p] - 2.5)
    if friend is not None:
        return friend
    mend = _repair_self(view)
    if mend is not None and near <= 6:
        return mend

    def keep(card: str) -> float:
        tunnel = cards.TUNNEL_CARDS.get(card)
        if tunnel is not None:
            return 6.0 if tunnel.dead_end else 0.0 + tunnel.sides.bit_count() * 0.1
        if card == cards.ROCKFALL:
            return 7.0
        if card in cards.BREAK_CARDS:
            return 5.0
        if card in cards.REPAIR_CARDS:
            return 2.0
        return 3.0 if view.gold_slot() is None else 0.5

    return _discard(view, keep)


# -- selfish dwarf ------------------------------------------------------------------


def selfish_dwarf(view: View, rng: Random) -> Play:
    """Make the connection oneself: dig while the gold is far, hold the last steps back,
    and stop whoever could finish the way first."""
    reading, paths, urgent = _dig_first(view)
    if urgent is not None:
        return urgent
    look = _look(view, reading)
    if look is not None:
        return look
    if reading.nearest <= 2:
        soon = _soon(view)
        lean = leanings(view)
        hit = _break(view, rng, lambda p: 2.0 - lean[p] - 0.5 * soon.get(p, 0), least=-3.0)
        if hit is not None:
            return hit

    def dig(play: Play) -> float:
        if reading.opens_any(play):
            return -1.0
        after = reading.after(play)
        if after < HOLD_BACK:
            return -5.0  # the last steps are left for this player's own card
        return reading.need - after

    best = _best(paths, dig, rng)
    if best is not None and best[0] >= 0.5:
        return best[1]
    cleared = _rockfall(view, reading, clear=True)
    if cleared is not None and cleared[0] >= 1 and reading.nearest > 3:
        return cleared[1]

    def keep(card: str) -> float:
        tunnel = cards.TUNNEL_CARDS.get(card)
        if tunnel is not None:
            return 1.0 if tunnel.dead_end else 6.0 + tunnel.sides.bit_count()
        if card == cards.ROCKFALL or card in cards.BREAK_CARDS:
            return 4.0
        if card in cards.REPAIR_CARDS:
            return 3.0
        return 2.0 if view.gold_slot() is None else 0.5

    return _discard(view, keep)


STRONG_BOTS: dict[str, Callable[[View, Random], Play]] = {
    "gold_digger": gold_digger,
    "saboteur": saboteur,
    "selfish_dwarf": selfish_dwarf,
}
