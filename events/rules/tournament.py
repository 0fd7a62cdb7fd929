"""The structure of a tournament (R-TS1..R-TS5): its limits, its tables, its ranking,
the top cut and the draw at the cut line.

Everything here is a pure function of its arguments (and a seeded ``Random``), so the
simulator, the organiser's commands and the ingest of ``tournament.json`` seat, cut
and draw the same way, and a recorded draw can be checked and replayed. The checks
return a :class:`~events.findings.Breach` (``malformed``: a record that breaks these
rules is not a record the ledger takes) naming the rule, or ``None``.

R-TS5 (penalties with a reason, corrections naming what they put right, nothing ever
erased) is the shape of the tournament's records themselves: see
:mod:`events.records.tournament`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from random import Random
from typing import Final

from events.findings import Breach, Code
from events.said import say, sentence
from events.tables import PLAYER_RANGE, ROUND_LIMIT, Ruleset, Stage

MIN_TABLE, MAX_TABLE = PLAYER_RANGE["tournament"]
"""A table seats 5 to 10 players (R-TS1)."""
PRELIMINARY_ROUNDS: Final = (1, 20)
"""Preliminary rounds a tournament may announce: R-TS1 plays 4 or 5, a club night or a
test fewer; more than 20 is a typo."""
CUT: Final = 6
"""Players going on to the final table, unless the organiser announces otherwise (R-TS3)."""
CUT_SIZES: Final = (MIN_TABLE, MAX_TABLE)
"""A cut the organiser may announce: the final table is a table (R-TS1, R-TS3)."""
SEMIFINAL_MOST: Final = 60
"""Players the preliminaries may send to a semi-final: six tables of ten."""
FINAL_ROUNDS: Final = (1, ROUND_LIMIT["tournament"])
"""Rounds of the final game: 4 (R-TS4), fewer where the organiser announces it."""


ROUND_POINTS: Final[dict[Ruleset, int]] = {"tournament": 4, "base": 6}
"""The most points one player scores in one round of a game (R-W1, R-W2). Tournament:
4, the selfish dwarf's or a lone saboteur's. Base: a lone saboteur's 4 nuggets, or two
gold cards of 3 — a round draws at most one gold card per player (9 at most) and the
role deck deals at least two gold diggers per three players, so nobody takes more than
two."""
MOST_ROUND_POINTS: Final = max(ROUND_POINTS.values())
"""The most points of a round under any ruleset: the bound of a form that knows no ruleset."""
UNSEATED: Final = sentence("%(player)s plays at table %(table)s but is not in the published seating of round %(round)s")
"""A ``wrong_table`` finding (R-TS1) of a player the published seating does not seat."""
UNREGISTERED: Final = sentence(
    "%(player)s plays at table %(table)s in round %(round)s but is not registered in the tournament: "
    "a mistyped id, or a player to register"
)
"""A ``wrong_table`` finding (R-TS1) of a player the seating does not seat because the
tournament does not know them: said apart, since the organiser looks for a typo, not
for a seat."""
SEATED_ELSEWHERE: Final = sentence(
    "%(player)s is seated at table %(seated)s in round %(round)s but plays at table %(table)s"
)
"""A ``wrong_table`` finding (R-TS1) of a player the seating puts at another table."""
MISSING_FROM_GAME: Final = sentence(
    "%(player)s is seated at table %(table)s in round %(round)s but is not in its game %(game)s"
)
"""A ``wrong_table`` finding (R-TS1) of a seated player missing from their table's game."""
IN_TWO_GAMES: Final = sentence(
    "%(player)s plays at table %(table)s in round %(round)s and in another game of that round"
)
"""A ``wrong_table`` finding (R-TS1: one game a round) of a player in more than one game
of a round with no published seating (where one is published, the game at the wrong
table is found against it)."""

MORE_ROUNDS: Final = sentence(
    "%(game)s has %(rounds)s rounds, but a game of the %(stage)s has %(expected)s: its rounds after round "
    "%(expected)s count in no standings until its file is put right and ingested again (--supersede)"
)
"""A ``wrong_rounds`` finding (R-TS1, R-TS4) of a game of more rounds than its stage plays."""
FEWER_ROUNDS: Final = sentence(
    "%(game)s has %(rounds)s rounds, but a game of the %(stage)s has %(expected)s: its rounds count as played; "
    "if a round is missing, put its file right and ingest it again (--supersede)"
)
"""A ``wrong_rounds`` finding (R-TS1, R-TS4) of a game of fewer rounds than its stage
plays, by its header (a log that stops before its planned rounds is ``incomplete``)."""
OTHER_RULESET: Final = sentence(
    "%(game)s is played by the %(ruleset)s rules, but %(tournament)s by the %(expected)s rules: it counts in no "
    "standings until its file is put right and ingested again (--supersede)"
)
"""A ``wrong_ruleset`` finding of a game whose ruleset is not its tournament's: a base
game's points are its gold nuggets, not R-W1's points and stars."""
NO_ROUND: Final = sentence(
    "%(game)s names no round of %(tournament)s: it counts in no standings until its header names its round "
    "and it is ingested again (--supersede)"
)
"""A ``no_round`` finding of a game that names its tournament but not the round it was
played in, which no seating can check (a table's log stored twice would count twice)."""
GAME_ROUNDS: Final = 3
"""Rounds of every game of a tournament but the final's (R-TS1: "each one game of 3 rounds
per table"; a semi-final's tables play as the preliminaries' do)."""


def _within(value: int, limits: tuple[int, int]) -> bool:
    return limits[0] <= value <= limits[1]


def check_players(players: int) -> Breach | None:
    """R-TS1: a tournament's players fill a table at least, which seats 5 to 10."""
    if players < MIN_TABLE:
        return Breach(
            Code.MALFORMED,
            "R-TS1",
            say(
                "%(count)s player cannot fill a table: a table seats %(low)s to %(high)s",
                "%(count)s players cannot fill a table: a table seats %(low)s to %(high)s",
                "count",
                count=players,
                low=MIN_TABLE,
                high=MAX_TABLE,
            ),
        )
    return None


def check_preliminary_rounds(rounds: int) -> Breach | None:
    """R-TS1: a tournament announces its preliminary rounds, 1 to 20."""
    if not _within(rounds, PRELIMINARY_ROUNDS):
        low, high = PRELIMINARY_ROUNDS
        return Breach(
            Code.MALFORMED,
            "R-TS1",
            say(
                "a tournament plays %(low)s to %(high)s preliminary rounds, not %(given)s",
                low=low,
                high=high,
                given=rounds,
            ),
        )
    return None


def check_cut(cut: int) -> Breach | None:
    """R-TS3: the cut fills the final table, which seats 5 to 10 (6 unless announced)."""
    if not _within(cut, CUT_SIZES):
        low, high = CUT_SIZES
        return Breach(
            Code.MALFORMED,
            "R-TS3",
            say(
                "a cut of %(low)s to %(high)s players fills the final table, not %(given)s",
                low=low,
                high=high,
                given=cut,
            ),
        )
    return None


def check_semifinal_cut(semifinal_cut: int, cut: int) -> Breach | None:
    """R-TS3: a semi-final announced because attendance calls for it takes more players
    than its own top cut sends to the final (``cut``), at tables of 5 to 10: from the
    cut to :data:`SEMIFINAL_MOST`."""
    if not cut <= semifinal_cut <= SEMIFINAL_MOST:
        return Breach(
            Code.MALFORMED,
            "R-TS3",
            say(
                "a semi-final takes %(low)s to %(high)s players (its own top cut of %(cut)s goes on to the final), "
                "not %(given)s",
                low=cut,
                high=SEMIFINAL_MOST,
                cut=cut,
                given=semifinal_cut,
            ),
        )
    return None


def check_final_rounds(rounds: int) -> Breach | None:
    """R-TS4: the final is one game of at most 4 rounds."""
    if not _within(rounds, FINAL_ROUNDS):
        low, high = FINAL_ROUNDS
        return Breach(
            Code.MALFORMED,
            "R-TS4",
            say("the final is one game of %(low)s to %(high)s rounds, not %(given)s", low=low, high=high, given=rounds),
        )
    return None


def check_round_points(points: int, ruleset: Ruleset) -> Breach | None:
    """R-W1, R-W2: a player's points for one round, 0 to :data:`ROUND_POINTS` of the
    ruleset.

    >>> check_round_points(99, "tournament").message
    'a player scores 0 to 4 points in a round of the tournament ruleset, not 99'
    """
    if not 0 <= points <= ROUND_POINTS[ruleset]:
        rule = "R-W1" if ruleset == "tournament" else "R-W2"
        said = say(
            "a player scores 0 to %(most)s points in a round of the %(ruleset)s ruleset, not %(given)s",
            most=ROUND_POINTS[ruleset],
            ruleset=ruleset,
            given=points,
        )
        return Breach(Code.MALFORMED, rule, said)
    return None


# -- the stages' rounds ----------------------------------------------------------------


def stage_before(stage: Stage, semifinal: bool) -> Stage | None:
    """The stage whose top cut seats ``stage`` (R-TS3): the semi-final, if announced, or
    the preliminaries seat the final; the preliminaries seat the semi-final; nothing
    seats the preliminaries."""
    if stage == "final" and semifinal:
        return "semifinal"
    return None if stage == "preliminary" else "preliminary"


def stage_rounds(stage: Stage, preliminary_rounds: int, semifinal: bool) -> range:
    """The tournament rounds ``stage`` plays, numbered on from the preliminaries as the
    simulator and ``tournament.json`` number them: the announced preliminary rounds
    from 1, then the semi-final (if announced) and the final, one round each (R-TS1,
    R-TS3, R-TS4). A semi-final not announced plays none.

    >>> list(stage_rounds("final", 4, True))
    [6]
    """
    if stage == "preliminary":
        return range(1, preliminary_rounds + 1)
    if stage == "semifinal":
        return range(preliminary_rounds + 1, preliminary_rounds + 2 if semifinal else preliminary_rounds + 1)
    first = preliminary_rounds + 1 + semifinal
    return range(first, first + 1)


def check_tournament_round(number: int, stage: Stage, preliminary_rounds: int, semifinal: bool) -> Breach | None:
    """R-TS1, R-TS3, R-TS4: a round of ``stage`` is one the tournament announced
    (:func:`stage_rounds`).

    >>> check_tournament_round(7, "preliminary", 2, False).message
    'round 7 is not a preliminary round: the tournament announced 2, rounds 1 to 2'
    """
    rounds = stage_rounds(stage, preliminary_rounds, semifinal)
    if number in rounds:
        return None
    if stage == "preliminary":
        said = say(
            "round %(round)s is not a preliminary round: the tournament announced %(rounds)s, rounds 1 to %(rounds)s",
            round=number,
            rounds=preliminary_rounds,
        )
        return Breach(Code.MALFORMED, "R-TS1", said)
    if not rounds:
        return Breach(Code.MALFORMED, "R-TS3", say("the tournament announced no semi-final"))
    rule = "R-TS3" if stage == "semifinal" else "R-TS4"
    said = say(
        "the %(stage)s is round %(round)s of this tournament, not round %(given)s",
        stage=stage,
        round=rounds[0],
        given=number,
    )
    return Breach(Code.MALFORMED, rule, said)


# -- R-TS1: tables ---------------------------------------------------------------------


@cache
def table_sizes(players: int) -> tuple[int, ...]:
    """Split ``players`` into tables of 5–10 with as many tables of 6 as possible
    (R-TS1), then the fewest seats away from 6; largest tables first.

    With ``k`` tables, ``players = 6k + r``: for ``r < 0`` the ``-r`` tables of 5 are
    forced; for ``r > 0`` the extra seats fill as few tables as possible (at most 4
    more each), spread evenly over them. The best ``k`` is found by trying each.

    >>> table_sizes(37)
    (7, 6, 6, 6, 6, 6)
    """
    if players < MIN_TABLE:
        raise ValueError(f"{players} players cannot fill a table: a table seats {MIN_TABLE} to {MAX_TABLE}")
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for k in range(-(-players // MAX_TABLE), players // MIN_TABLE + 1):
        r = players - 6 * k
        if r < 0:
            if -r > k:
                continue
            sizes = (6,) * (k + r) + (5,) * (-r)
        else:
            if r > 4 * k:
                continue
            grown = -(-r // 4)
            extra = [r // grown + (1 if i < r % grown else 0) for i in range(grown)] if grown else []
            sizes = tuple(sorted((6 + e for e in extra), reverse=True)) + (6,) * (k - grown)
        key = (-sizes.count(6), abs(r))
        if best is None or key < best[0]:
            best = (key, tuple(sorted(sizes, reverse=True)))
    if best is None:
        raise ValueError(f"{players} players cannot be seated in tables of {MIN_TABLE} to {MAX_TABLE}")
    return best[1]


def seat(players: Sequence[str], rng: Random) -> list[list[str]]:
    """A random seating of one tournament round (the draw of round 1, R-TS1): the
    players shuffled with ``rng`` and cut into the tables of :func:`table_sizes`."""
    order = list(players)
    rng.shuffle(order)
    tables, at = [], 0
    for size in table_sizes(len(order)):
        tables.append(order[at : at + size])
        at += size
    return tables


def check_final_table(stage: str, tables: int) -> Breach | None:
    """R-TS3, R-TS4: the final is played at one table (the best of the cut go "to the
    final table"); a semi-final may take several.

    >>> check_final_table("final", 2).message
    'the final is played at one table, not 2'
    """
    if stage != "final" or tables == 1:
        return None
    return Breach(Code.MALFORMED, "R-TS4", say("the final is played at one table, not %(count)s", count=tables))


def check_seating(
    tables: Sequence[Sequence[str]],
    registered: Collection[str],
    *,
    everyone: bool = False,
    labels: Sequence[str] | None = None,
) -> Breach | None:
    """R-TS1: tables of 5–10 of registered players, nobody seated twice, and with
    ``everyone`` every registered player seated. Tables are named by their ``labels``
    (the hall's), else by their 1-based number.

    >>> check_seating([["a", "b", "c", "d"]], "abcd").message
    'table 1 seats 4 players: a table seats 5 to 10'
    """
    known = set(registered)
    seen: dict[str, str] = {}
    for index, table in enumerate(tables):
        number = labels[index] if labels is not None and index < len(labels) else str(index + 1)
        if not MIN_TABLE <= len(table) <= MAX_TABLE:
            said = say(
                "table %(table)s seats %(seated)s players: a table seats %(low)s to %(high)s",
                table=number,
                seated=len(table),
                low=MIN_TABLE,
                high=MAX_TABLE,
            )
            return Breach(Code.MALFORMED, "R-TS1", said)
        for player in table:
            if player not in known:
                return Breach(
                    Code.MALFORMED,
                    "R-TS1",
                    say("table %(table)s: %(given)s is not a registered player", table=number, given=repr(player)),
                )
            if player in seen:
                said = say(
                    "table %(table)s: %(given)s is already seated at table %(other)s",
                    table=number,
                    given=repr(player),
                    other=seen[player],
                )
                return Breach(Code.MALFORMED, "R-TS1", said)
            seen[player] = number
    missing = sorted(known - seen.keys()) if everyone else []
    if missing:
        return Breach(Code.MALFORMED, "R-TS1", say("not seated: %(players)s", players=tuple(missing)))
    return None


# -- R-TS2, R-TS3: the ranking and the top cut ---------------------------------------------


@dataclass
class Standing:
    """A player's preliminary points and stars (R-TS2)."""

    points: int = 0
    stars: int = 0


def ranking(standings: Mapping[str, Standing]) -> list[str]:
    """R-TS2: by points, then stars; equal standings in name order (a tie that matters
    for the cut is drawn, see :func:`draw_cut`)."""
    return sorted(standings, key=lambda p: (-standings[p].points, -standings[p].stars, p))


@dataclass(frozen=True)
class CutTie:
    """Players level on points and stars across the cut line, and the places left."""

    tied: tuple[str, ...]
    places: int
    points: int
    stars: int


def cut_line(standings: Mapping[str, Standing], cut: int) -> tuple[list[str], CutTie | None]:
    """R-TS3: the players clear of the cut line, best first, and the tie across it
    that stars do not break (R-TS2), if any: those go on by a draw for the places left.

    >>> clear, tie = cut_line({"a": Standing(9, 1), "b": Standing(5, 0), "c": Standing(5, 0)}, 2)
    >>> clear, tie.tied, tie.places
    (['a'], ('b', 'c'), 1)
    """
    ranked = ranking(standings)
    if len(ranked) <= cut:
        return ranked, None
    last = standings[ranked[cut - 1]]
    line = (last.points, last.stars)
    tied = [p for p in ranked if (standings[p].points, standings[p].stars) == line]
    clear = [p for p in ranked[:cut] if p not in tied]
    if len(clear) + len(tied) <= cut:
        return ranked[:cut], None
    return clear, CutTie(tuple(sorted(tied)), cut - len(clear), last.points, last.stars)


def draw_cut(tied: Collection[str], places: int, rng: Random) -> list[str]:
    """R-TS2: the draw at the cut line: the tied players in name order, shuffled with
    ``rng``; the first ``places`` go on, in the order drawn. Recording the seed (or
    the draw) lets anyone replay it."""
    order = sorted(tied)
    rng.shuffle(order)
    return order[:places]


def check_cut_draw(tied: Sequence[str], places: int, drawn: Sequence[str]) -> Breach | None:
    """R-TS2: a recorded draw names two or more tied players, fewer places than
    players, and as many drawn players as places, each one of the tied, once.

    >>> check_cut_draw(["a", "b"], 1, ["c"]).message
    "'c' is drawn but not among the tied (a and b)"
    """
    if len(set(tied)) != len(tied) or len(tied) < 2:
        return Breach(Code.MALFORMED, "R-TS2", say("a draw is among two or more different tied players"))
    if not 1 <= places < len(tied):
        return Breach(
            Code.MALFORMED,
            "R-TS2",
            say("%(tied)s tied players draw for 1 to %(most)s places", tied=len(tied), most=len(tied) - 1),
        )
    for player in drawn:
        if player not in tied:
            return Breach(
                Code.MALFORMED,
                "R-TS2",
                say("%(given)s is drawn but not among the tied (%(players)s)", given=repr(player), players=tuple(tied)),
            )
    if len(set(drawn)) != len(drawn) or len(drawn) != places:
        return Breach(
            Code.MALFORMED,
            "R-TS2",
            say(
                "a draw for %(places)s place names %(places)s different player",
                "a draw for %(places)s places names %(places)s different players",
                "places",
                places=places,
            ),
        )
    return None
