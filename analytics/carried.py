"""What a tournament's record still says of a game stored anew (``ingest --supersede``).

A correction or an accepted replay names a game and a round, not the version of the
game's file it was made on: the new version is counted with it still applied, as a
tournament's records outlive its own file stored anew (``docs/rules.md``). That is what
the organiser wants when the new file fixes something else (a table label, a player's
id), and not when the new log already puts the score right, differently; the ingest
cannot tell which. So it says, for each game it stored anew, what of the record still
counts on it, what no longer finds its round or player, and whether each round as now
counted is what the rules give: the organiser decides, with ``tournament correct`` or
``accept-replay`` (the newest decision on a round counts).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Final

from analytics.standings import NEWEST_CORRECTIONS, round_fits
from events.said import Said, say
from ingest.store import Store


@dataclass(frozen=True, slots=True)
class Carried:
    """One record of a tournament that still counts on a game stored anew: a score
    corrected (``player`` and ``points``) or a round's replay accepted (``player``
    ``None``)."""

    tournament: str
    game_id: str
    round: int
    player: str | None
    points: int | None
    reason: str | None
    applies: bool
    """Whether the new version has the round (and the player in it): a correction of a
    player it no longer seats there, or of a round it does not have, counts for nothing."""
    fits: bool
    """Whether the round, as now counted with the record applied, is what the rules give
    (a round the new version does not have fits)."""


_CARRIED: Final = """
WITH anew AS (
    SELECT g.game_id, g.tournament
    FROM games g JOIN uploads u USING (upload_id)
    WHERE g.upload_id IN (SELECT unnest($uploads::BIGINT[])) AND u.supersedes IS NOT NULL AND g.tournament IS NOT NULL
),
replays AS (
    SELECT a.tournament, a.game_id, a.round, max(a.seq) AS seq, arg_max(a.reason, a.seq) AS reason
    FROM accepted_replays a JOIN anew USING (tournament, game_id)
    GROUP BY ALL
),
corrected AS (
    SELECT n.*, (SELECT arg_max(c.reason, c.seq) FROM corrections c
                 WHERE c.tournament = n.tournament AND c.game_id = n.game_id AND c.round = n.round
                   AND c.player = n.player) AS reason,
           (SELECT max(c.seq) FROM corrections c
            WHERE c.tournament = n.tournament AND c.game_id = n.game_id AND c.round = n.round
              AND c.player = n.player) AS seq
    FROM ({newest_corrections}) n JOIN anew USING (tournament, game_id)
)
SELECT tournament, game_id, round, NULL AS player, NULL AS points, reason, seq,
       EXISTS (SELECT 1 FROM rounds r WHERE r.game_id = replays.game_id AND r.round = replays.round) AS applies
FROM replays
UNION ALL
SELECT tournament, game_id, round, player, points, reason, seq,
       EXISTS (SELECT 1 FROM round_players rp WHERE rp.game_id = corrected.game_id AND rp.round = corrected.round
                                                AND rp.player = corrected.player) AS applies
FROM corrected
ORDER BY tournament, game_id, round, seq
""".replace("{newest_corrections}", NEWEST_CORRECTIONS)


def carried_over(store: Store, uploads: Sequence[int]) -> list[Carried]:
    """The records still counted on the games that ``uploads`` stored anew (a supersede),
    each game's in round order; the newest decision on a round alone (a correction made
    before the round's replay was accepted counts no more, and is not listed). Empty for
    uploads that superseded nothing, or stored games of no tournament."""
    if not uploads:
        return []
    with store.connect(read_only=True) as con:
        rows = con.execute(_CARRIED, {"uploads": list(uploads)}).fetchall()
        fits = {(str(t), str(g), int(n)): round_fits(con, str(t), str(g), int(n)) for t, g, n in {r[:3] for r in rows}}
    return [
        Carried(
            tournament=str(tournament),
            game_id=str(game),
            round=int(number),
            player=None if player is None else str(player),
            points=None if points is None else int(points),
            reason=None if reason is None else str(reason),
            applies=bool(applies),
            fits=fits[(str(tournament), str(game), int(number))],
        )
        for tournament, game, number, player, points, reason, _seq, applies in rows
    ]


def lines(records: Sequence[Carried]) -> Iterator[tuple[Said, bool]]:
    """One game's carried records as sentences (the command line and the Upload page say
    them in their reader's language), each round's records followed by a warning when
    the round as now counted is not what the rules give; whether each line is a warning
    (a record that counts for nothing is one)."""
    for number, group in groupby(records, key=lambda record: record.round):
        rounds = list(group)
        for record in rounds:
            yield said(record), not record.applies
        if not rounds[0].fits:
            yield say("round %(round)s as now counted is not what the rules give", round=number), True


def said(record: Carried) -> Said:
    """What one record still does on the game stored anew."""
    if record.player is None:
        if record.applies:
            return say(
                "round %(round)s: its replay accepted still counts: the new version's replay gives its points",
                round=record.round,
            )
        return say(
            "round %(round)s: its replay accepted counts for nothing: the new version has no round %(round)s",
            round=record.round,
        )
    where: dict[str, int | str | None] = {"round": record.round, "player": record.player, "points": record.points}
    if record.applies:
        return say(
            "round %(round)s: %(player)s's score corrected to %(points)s still counts (%(reason)s)",
            reason=record.reason or "",
            **where,
        )
    return say(
        "round %(round)s: %(player)s's score corrected to %(points)s counts for nothing: the new version has no "
        "%(player)s in round %(round)s",
        **where,
    )
