"""Seating a tournament round (R-TS1): who sits at which table, and in which seat.

``saboteur tournament seat`` draws round 1 at random and seats the later rounds by one
of two methods:

* ``mixed`` spreads the players so that as few pairs as possible meet again: a
  preliminary is fairest when everyone plays against as many others as possible.
* ``swiss`` seats players of similar standing together (points, then stars, R-TS2),
  as national championships have played their preliminaries, and only then avoids
  repeat meetings, by swaps between neighbouring tables of players of close rank.

Either way the tables are those of :func:`events.rules.tournament.table_sizes`
(5–10 players, as many of 6 as possible), and the seat order within a table is drawn.
A seating made by hand comes in as a CSV (:func:`labelled_seating_csv`) and meets the same
checks (:func:`check_tables`).

Everything here is a pure function of its arguments and the seed: the same players,
history, standings and seed give the same seating, in any process (no ``hash()`` of
strings, no iteration over sets), so a seating can be redrawn from the record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import combinations
from random import Random
from typing import Literal

from analytics.csvrows import spreadsheet_rows
from events.rules.tournament import MAX_TABLE, MIN_TABLE, check_players, check_seating, seat, table_sizes
from events.said import Refusal, Said, say

Method = Literal["random", "mixed", "swiss"]
Tables = Sequence[Sequence[str]]
History = Sequence[Tables]

SWISS_WINDOW = 3
"""How far apart in rank two players of different standing may be for ``swiss`` to
swap them between neighbouring tables to avoid a repeat meeting. Half a table of six:
the lower half of one table may trade with the upper half of the next, never more, so
standing stays the first concern."""

MAX_PASSES = 60
"""Bound on the improvement passes of the local search, so that a seating always comes
back quickly; in practice the search stops far earlier, when no swap helps."""

KICKS = 200
"""How many times ``mixed`` shakes a locally optimal seating (one random swap of a
player still meeting someone again) and searches on, keeping the best seating seen."""


def meetings(history: History) -> Counter[frozenset[str]]:
    """How often each pair of players has shared a table in ``history`` (earlier rounds,
    each a list of tables).

    >>> sorted(map(sorted, meetings([[["a", "b", "c"]], [["a", "b"]]]).elements()))
    [['a', 'b'], ['a', 'b'], ['a', 'c'], ['b', 'c']]
    """
    met: Counter[frozenset[str]] = Counter()
    for tables in history:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def repeat_meetings(tables: Tables, history: History) -> int:
    """The repeat meetings a seating makes: for every pair at one of ``tables``, how
    often they already met in ``history``. This is the count ``mixed`` minimises; a
    pair meeting for the third time counts 2.

    >>> repeat_meetings([["a", "b", "c"]], [[["a", "b"]], [["a", "b", "d"]]])
    2
    """
    met = meetings(history)
    return sum(met[frozenset(pair)] for table in tables for pair in combinations(table, 2))


class SeatingError(Refusal):
    """A seating that cannot be made or read: why, as a sentence (:attr:`said`) that a
    page or a command puts into its reader's language; ``str()`` is its English."""


def _at(line: int, said: Said) -> SeatingError:
    """A seating file's fault at ``line``."""
    return SeatingError(say("line %(line)s: %(problem)s", line=line, problem=(said,)))


def _sizes(players: int) -> tuple[int, ...]:
    """The tables' sizes for ``players`` (R-TS1), refused as a :class:`SeatingError`."""
    breach = check_players(players)
    if breach is not None:
        raise SeatingError(breach.said)
    return table_sizes(players)


def check_tables(tables: Tables, players: Collection[str]) -> None:
    """Raise ValueError unless ``tables`` seat every one of ``players`` exactly once,
    nobody else, at tables of 5–10 (R-TS1, :func:`events.rules.tournament.check_seating`).
    Tables are named by their 1-based number.
    """
    breach = check_seating(tables, players, everyone=True)
    if breach is not None:
        raise SeatingError(breach.said)


def seat_round(
    players: Sequence[str],
    *,
    method: Method,
    history: History = (),
    standing: Mapping[str, tuple[int, int]] | None = None,
    seed: int = 0,
) -> list[list[str]]:
    """Seat one tournament round: tables (in order) of players (in seat order).

    ``history`` holds the earlier rounds' tables; the round seated is the next one, and
    with no history it is round 1, drawn at random whatever the method (nobody has met
    and nobody has a standing yet). ``standing`` maps each player to (points, stars)
    and is needed by ``swiss`` only.

    The random generator is seeded with the seed *and the round number*, so one seed
    for a whole tournament still draws every round afresh, and the players are sorted
    first, so their order in the call does not matter: the seating can be redrawn
    from the record.
    """
    if method not in ("random", "mixed", "swiss"):
        raise SeatingError(say("unknown seating method %(method)s: random, mixed or swiss", method=repr(method)))
    order = sorted(players)
    if len(set(order)) != len(order):
        doubled = sorted(p for p, count in Counter(order).items() if count > 1)
        raise SeatingError(say("players listed twice: %(players)s", players=tuple(doubled)))
    sizes = _sizes(len(order))
    rng = Random(f"saboteur-seating:{seed}:{len(history) + 1}")
    if method == "random" or not history:
        return seat(order, rng)
    if method == "mixed":
        groups = _mixed(order, sizes, history, rng)
    else:
        if standing is None:
            raise SeatingError(say("swiss seating needs the players' standings (points, stars)"))
        absent = [p for p in order if p not in standing]
        if absent:
            raise SeatingError(say("no standing for: %(players)s", players=tuple(absent)))
        groups = _swiss(order, sizes, history, standing, rng)
    tables = [[order[i] for i in group] for group in groups]
    for table in tables:
        rng.shuffle(table)
    return tables


def seat_final(players: Sequence[str], *, seed: int = 0) -> list[list[str]]:
    """The final table (R-TS4): the players of the cut at one table, in a seat order
    drawn with ``seed`` (the players sorted first, so the draw can be redone from the
    record).

    >>> seat_final(["a", "b", "c", "d", "e", "f"], seed=1) == seat_final(list("fedcba"), seed=1)
    True
    """
    order = sorted(players)
    check_tables([order], order)
    Random(f"saboteur-final:{seed}").shuffle(order)
    return [order]


class _Search:
    """A seating under local search, by player index: ``cost[p][t]`` is how often
    player ``p`` has met the players now at table ``t``, kept up to date on every swap,
    so that the change a swap makes is read off in constant time."""

    def __init__(self, order: Sequence[str], tables: int, history: History) -> None:
        index = {player: i for i, player in enumerate(order)}
        n = len(order)
        self.weight = [[0] * n for _ in range(n)]
        for pair, count in meetings(history).items():
            a, b = pair
            if a in index and b in index:
                self.weight[index[a]][index[b]] = self.weight[index[b]][index[a]] = count
        self.cost = [[0] * tables for _ in range(n)]
        self.where = [-1] * n
        self.tables: list[list[int]] = [[] for _ in range(tables)]

    def place(self, player: int, table: int) -> None:
        self.where[player] = table
        self.tables[table].append(player)
        row = self.weight[player]
        for other, cost in enumerate(self.cost):
            cost[table] += row[other]

    def total(self) -> int:
        """The repeat meetings of the seating (every pair counted once)."""
        return sum(self.cost[p][t] for p, t in enumerate(self.where)) // 2

    def delta(self, a: int, b: int) -> int:
        """How the repeat meetings change if ``a`` and ``b`` trade tables."""
        ta, tb, wab = self.where[a], self.where[b], self.weight[a][b]
        ca, cb = self.cost[a], self.cost[b]
        return ca[tb] - wab + cb[ta] - wab - ca[ta] - cb[tb]

    def swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        self.tables[ta][self.tables[ta].index(a)] = b
        self.tables[tb][self.tables[tb].index(b)] = a
        self.where[a], self.where[b] = tb, ta
        wa, wb = self.weight[a], self.weight[b]
        for other, cost in enumerate(self.cost):
            change = wb[other] - wa[other]
            if change:
                cost[ta] += change
                cost[tb] -= change

    def improve(
        self, rng: Random, allowed: Callable[[int, int], bool], rank: Callable[[int, int], int] | None = None
    ) -> None:
        """Swap players between tables while a swap lowers the repeat meetings.

        Only a player who meets someone again can be part of an improving swap, so the
        search starts from those, in a drawn order, and for each takes the best allowed
        partner (fewest repeats, then lowest ``rank`` of the swap, then index).
        """
        for _ in range(MAX_PASSES):
            movers = [p for p, t in enumerate(self.where) if self.cost[p][t] > 0]
            rng.shuffle(movers)
            improved = False
            for a in movers:
                if self.cost[a][self.where[a]] == 0:
                    continue
                best: tuple[int, int, int] | None = None
                for b in range(len(self.where)):
                    if self.where[b] == self.where[a] or not allowed(a, b):
                        continue
                    change = self.delta(a, b)
                    if change < 0:
                        key = (change, rank(a, b) if rank else 0, b)
                        if best is None or key < best:
                            best = key
                if best is not None:
                    self.swap(a, best[2])
                    improved = True
            if not improved:
                return


def _everyone(a: int, b: int) -> bool:
    return True


def _mixed(order: Sequence[str], sizes: Sequence[int], history: History, rng: Random) -> list[list[int]]:
    """Seat for the fewest repeat meetings: greedy, then local search with kicks.

    The greedy seats the most-travelled players first (they have the fewest tables left
    without an old acquaintance), each at the table where they meet the fewest again,
    the emptiest one on a tie so the tables fill evenly. Swaps between tables then
    lower the count to a local minimum; a few random kicks (a swap involving a player
    who still meets someone again) and renewed searches escape shallow minima, and the
    best seating seen is kept. Good rather than optimal, and fast: a few milliseconds
    for 36 players, well under a second for 200.
    """
    n = len(order)
    if len(sizes) == 1:
        return [list(range(n))]  # one table: nothing to choose
    search = _Search(order, len(sizes), history)
    seen = [sum(row) for row in search.weight]
    players = list(range(n))
    rng.shuffle(players)
    players.sort(key=lambda p: -seen[p])  # stable: the draw breaks ties
    for p in players:
        open_tables = [t for t in range(len(sizes)) if len(search.tables[t]) < sizes[t]]
        table = min(open_tables, key=lambda t: (search.cost[p][t], len(search.tables[t]) / sizes[t], t))
        search.place(p, table)
    search.improve(rng, _everyone)
    best, best_tables = search.total(), [list(t) for t in search.tables]
    for _ in range(KICKS):
        if best == 0:
            break
        movers = [p for p, t in enumerate(search.where) if search.cost[p][t] > 0]
        if not movers:
            break
        a = rng.choice(movers)
        b = rng.choice([p for p in range(n) if search.where[p] != search.where[a]])
        search.swap(a, b)
        search.improve(rng, _everyone)
        total = search.total()
        if total < best:
            best, best_tables = total, [list(t) for t in search.tables]
    return best_tables


def _swiss(
    order: Sequence[str],
    sizes: Sequence[int],
    history: History,
    standing: Mapping[str, tuple[int, int]],
    rng: Random,
) -> list[list[int]]:
    """Seat by standing, then avoid repeat meetings where standing allows.

    Players are ranked by points, then stars (R-TS2), equal standings in a drawn order,
    and cut into consecutive groups of the table sizes: the best at table 1. A swap
    that lowers the repeat meetings is then allowed between players of equal standing
    anywhere, or between players at most ``SWISS_WINDOW`` ranks apart whose tables
    stay within one of the group their rank gives them. For each player meeting someone
    again, of the allowed swaps that help most the one between the closest ranks is
    taken. Standing first, repeats second.
    """
    n = len(order)
    ranked = list(range(n))
    rng.shuffle(ranked)
    ranked.sort(key=lambda p: (-standing[order[p]][0], -standing[order[p]][1]))
    position = [0] * n
    for place, p in enumerate(ranked):
        position[p] = place
    search = _Search(order, len(sizes), history)
    home = [0] * n
    at = 0
    for table, size in enumerate(sizes):
        for p in ranked[at : at + size]:
            home[p] = table
            search.place(p, table)
        at += size

    def level(a: int, b: int) -> bool:
        return standing[order[a]] == standing[order[b]]

    def allowed(a: int, b: int) -> bool:
        if level(a, b):
            return True
        ta, tb = search.where[a], search.where[b]
        return (
            abs(position[a] - position[b]) <= SWISS_WINDOW
            and abs(ta - tb) == 1
            and abs(tb - home[a]) <= 1
            and abs(ta - home[b]) <= 1
        )

    def rank(a: int, b: int) -> int:
        return 0 if level(a, b) else abs(position[a] - position[b])

    search.improve(rng, allowed, rank)
    return search.tables


def labelled_seating_csv(
    text: str, players: Collection[str], *, outside: Mapping[str, Said] | None = None
) -> tuple[list[str], list[list[str]]]:
    """Read a seating made by hand (``--from-csv``): the tables' labels as written, and
    the tables in the same order, each in seat order. The labels are the organiser's
    (the tables of a hall numbered 3, 7 and 12 keep those numbers): renumbered 1, 2, 3,
    the referee of table 7 found every player of its log at the wrong table.

    The header names the columns ``table`` and ``player``, and optionally ``seat`` (a
    number from 1; without it the seat order is the order of the lines). Excel's
    byte-order mark and semicolon-separated files are read too. Tables come out in
    numeric order when every table label is a number, otherwise in order of first
    appearance. Every registered player must be seated exactly once, nobody else, at
    tables of 5–10 (R-TS1); anything else raises ValueError naming the line.
    ``outside`` names the registered players this seating leaves out, each with why (a
    final seats the cut): such a player is refused with that reason, not as unknown.

    >>> text = "table,player\\n" + "".join(f"{3 + 4 * (i // 5)},p{i}\\n" for i in range(10))
    >>> labels, tables = labelled_seating_csv(text, [f"p{i}" for i in range(10)])
    >>> labels, tables[1]
    (['3', '7'], ['p5', 'p6', 'p7', 'p8', 'p9'])
    """
    reader, records = spreadsheet_rows(text, _at)
    header = next(records, None)
    columns = [c.strip().lower() for c in header or []]
    if sorted(columns) not in (["player", "table"], ["player", "seat", "table"]):
        written = text.removeprefix("\ufeff").split("\n", 1)[0].strip()
        raise _at(
            1, say("the header must be 'table,player' or 'table,player,seat', not %(header)s", header=repr(written))
        )
    known = set(players)
    left_out = outside or {}
    rows: dict[str, list[tuple[int, int, str]]] = {}  # table -> (seat, line, player)
    first_line: dict[str, int] = {}
    seated: dict[str, int] = {}
    for fields in records:
        line = reader.line_num
        if not any(f.strip() for f in fields):
            continue
        if len(fields) != len(columns):
            raise _at(
                line,
                say("%(count)s fields where the header names %(named)s", count=len(fields), named=len(columns)),
            )
        row = dict(zip(columns, (f.strip() for f in fields), strict=True))
        table, player = row["table"], row["player"]
        if not table:
            raise _at(line, say("no table"))
        if player in left_out:
            raise _at(line, left_out[player])
        if player not in known:
            raise _at(line, say("%(written)s is not a registered player", written=repr(player)))
        if player in seated:
            raise _at(
                line, say("%(written)s is already seated on line %(line)s", written=repr(player), line=seated[player])
            )
        number = len(rows.get(table, ())) + 1
        if "seat" in row:
            try:
                number = int(row["seat"])
            except ValueError:
                raise _at(line, say("seat %(seat)s is not a number", seat=repr(row["seat"]))) from None
            if number < 1:
                raise _at(line, say("seat %(seat)s: seats are numbered from 1", seat=number))
            taken = [other for s, _, other in rows.get(table, []) if s == number]
            if taken:
                raise _at(
                    line,
                    say(
                        "seat %(seat)s at table %(table)s is already taken by %(written)s",
                        seat=number,
                        table=table,
                        written=repr(taken[0]),
                    ),
                )
        seated[player] = line
        first_line.setdefault(table, line)
        rows.setdefault(table, []).append((number, line, player))
    labels = list(rows)
    if labels and all(label.isdecimal() for label in labels):
        labels.sort(key=int)
    for label in labels:
        if not MIN_TABLE <= len(rows[label]) <= MAX_TABLE:
            said = say(
                "table %(table)s seats %(count)s players: a table seats %(low)s to %(high)s",
                table=label,
                count=len(rows[label]),
                low=MIN_TABLE,
                high=MAX_TABLE,
            )
            raise _at(first_line[label], said)
    missing = sorted(known - seated.keys())
    if missing:
        raise _at(reader.line_num, say("the seating ends without %(players)s", players=tuple(missing)))
    tables = [[player for _, _, player in sorted(rows[label])] for label in labels]
    check_tables(tables, players)
    return labels, tables
