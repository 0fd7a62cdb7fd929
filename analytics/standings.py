"""Tournament standings (R-TS2..R-TS5), in DuckDB SQL over the read models.

What counts is the recorded score as corrected: a round's recorded points, unless the
replay's outcome was accepted for that round, unless a correction names that player
and round (the newest correction wins); less penalties. Stars are the rules' stars of
each round (a log's ``round_ended`` records no stars; a score sheet's are as written).

- Preliminary: points, then stars; equal on both is a shared rank. A tie across the cut
  line is broken only by a recorded draw (``saboteur tournament cut``) and flagged until
  then. Each row says why it stands where it does against its neighbours.
- Final table: final points, final stars, then preliminary points and stars (R-TS4).
- As of any moment: the tournament's events up to a position or a time are projected
  afresh into an in-memory database and the same SQL runs there.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from typing import Any, Final

import duckdb
import polars as pl

from analytics.table_order import by_table
from events.rules.tournament import (
    FEWER_ROUNDS,
    FINAL_ROUNDS,
    GAME_ROUNDS,
    IN_TWO_GAMES,
    MISSING_FROM_GAME,
    MORE_ROUNDS,
    NO_ROUND,
    OTHER_RULESET,
    SEATED_ELSEWHERE,
    UNREGISTERED,
    UNSEATED,
)
from events.said import STAGES, read_stored_all, sentence
from events.tables import ROUND_LIMIT
from ingest.rebuild import project_stream
from ingest.schema import READ_MODELS
from ingest.scoresheet import allowed_outcomes
from ingest.store import Moment, Store, chunks, insert_rows


def _literal(text: str) -> str:
    """``text`` as an SQL string literal (for a sentence written into a query)."""
    return "'" + text.replace("'", "''") + "'"


REASONS: Final = {
    "top": sentence("top of the table"),
    "below_on_points": sentence("below %(name)s on points (%(points)s to %(their)s)"),
    "fewer_stars": sentence("level with %(name)s on points (%(points)s), fewer stars (%(stars)s to %(their)s)"),
    "rank_shared": sentence("level with %(name)s on points and stars: rank %(rank)s shared"),
    "above_on_points": sentence("above %(name)s on points (%(points)s to %(their)s)"),
    "more_stars": sentence("level with %(name)s on points (%(points)s), more stars (%(stars)s to %(their)s)"),
    "level_with": sentence("level with %(name)s on points and stars"),
    "drawn": sentence("placed by the recorded cut draw (%(place)s)"),
    "drawn_out": sentence("not drawn at the recorded cut draw: below the players it drew"),
    "undrawn": sentence("tied across the cut line: not yet drawn"),
    "withdrew": sentence("withdrew from the tournament: the cut passes over them"),
    "final_top": sentence("top of the final table"),
    "final_below": sentence("below %(name)s on final points"),
    "final_fewer_stars": sentence("level on final points with %(name)s, fewer final stars"),
    "final_fewer_points": sentence("level on the final with %(name)s, fewer preliminary points"),
    "final_fewer_prelim_stars": sentence(
        "level on the final and preliminary points with %(name)s, fewer preliminary stars"
    ),
    "final_shared": sentence("level with %(name)s on every tie-breaker: rank shared"),
    "final_withdrew": sentence("withdrew from the tournament"),
}
"""Why a player stands where they do against their neighbours: the sentences the
standings' ``reasons`` hold (a JSON list of :func:`events.said.stored` sentences, the
neighbour by display name), from which ``why`` is their English and a page writes its
own language."""


def _sentences(sql: str) -> str:
    """``sql`` with each ``{reason}`` written in as the sentence's literal."""
    for key, text in REASONS.items():
        sql = sql.replace("{" + key + "}", _literal(text))
    return sql


def _announced(game: str) -> str:
    """SQL that is true when the tournament round of ``game`` (an alias with
    ``stage`` and ``tournament_round``, beside the tournament's row as ``t``) is one its
    stage announced (:func:`events.rules.tournament.stage_rounds`: the preliminaries
    from 1, then the semi-final if announced, then the final), and when the tournament
    announced no count to judge it by. A game naming no round is of the final's (or
    the semi-final's, if announced), which are one round each, and of no preliminary
    round of a created tournament (:data:`HEADER_FINDINGS`)."""
    return f"""CASE WHEN {game}.tournament_round IS NULL
        THEN t.name IS NULL OR {game}.stage = 'final' OR ({game}.stage = 'semifinal' AND coalesce(t.semifinal, false))
        ELSE coalesce(CASE {game}.stage
        WHEN 'preliminary' THEN {game}.tournament_round BETWEEN 1 AND t.preliminary_rounds
        WHEN 'semifinal' THEN coalesce(t.semifinal, false) AND {game}.tournament_round = t.preliminary_rounds + 1
        ELSE {game}.tournament_round
             = t.preliminary_rounds + 1 + CASE WHEN coalesce(t.semifinal, false) THEN 1 ELSE 0 END
      END, true) END"""


_SEATS: Final = """(
    SELECT tournament, game_id, tournament_round, coalesce(stage, 'preliminary') AS stage, table_label,
           unnest(player_ids) AS player
    FROM games WHERE tournament IS NOT NULL AND tournament_round IS NOT NULL
)"""
"""Every player of every game placed in a tournament round: a row each, with the
game's round, stage and table (the places :data:`MISSEATED` judges)."""


GAME_HEADERS: Final = ("game_started", "score_sheet_game")
"""The first event of a game's stream, naming its tournament."""

MISSEATED: Final = (
    """
SELECT substr(sha256(concat_ws('|', 'seating', p.tournament, p.tournament_round, p.game_id, p.player)), 1, 12)
           AS finding_id,
       p.tournament, p.game_id, p.stage, p.tournament_round, p.table_label AS table, p.player,
       coalesce(n.name, p.player) AS name, s.table_label AS seated_table,
       CASE WHEN s.table_label IS NULL THEN 'unseated' ELSE 'elsewhere' END AS kind,
       'wrong_table' AS code, 'R-TS1' AS rule, 'warning' AS severity,
       CASE WHEN s.table_label IS NULL AND n.player IS NULL
            THEN format('{} plays at table {} in round {} but is not registered in the tournament: '
                        || 'a mistyped id, or a player to register',
                        p.player, coalesce(p.table_label, '?'), p.tournament_round)
            WHEN s.table_label IS NULL
            THEN format('{} plays at table {} but is not in the published seating of round {}',
                        coalesce(n.name, p.player), coalesce(p.table_label, '?'), p.tournament_round)
            ELSE format('{} is seated at table {} in round {} but plays at table {}',
                        coalesce(n.name, p.player), s.table_label, p.tournament_round, coalesce(p.table_label, '?'))
       END AS message,
       n.player IS NOT NULL AS registered,
       json_object('text', CASE WHEN s.table_label IS NULL AND n.player IS NULL THEN {unregistered}
                                WHEN s.table_label IS NULL THEN {unseated} ELSE {seated_elsewhere} END,
                   'values', CASE WHEN s.table_label IS NULL
                                  THEN json_object('player', p.player, 'table', coalesce(p.table_label, '?'),
                                                   'round', p.tournament_round)
                                  ELSE json_object('player', p.player, 'seated', s.table_label,
                                                   'round', p.tournament_round,
                                                   'table', coalesce(p.table_label, '?'))
                             END)::VARCHAR AS said
FROM {seats} p
LEFT JOIN (SELECT DISTINCT tournament, tournament_round, stage, true AS seated FROM seatings) r
    USING (tournament, tournament_round, stage)
LEFT JOIN tournaments t USING (tournament)
LEFT JOIN seatings s USING (tournament, tournament_round, stage, player)
LEFT JOIN tournament_players n USING (tournament, player)
WHERE s.table_label IS DISTINCT FROM p.table_label
  AND (r.seated OR NOT {announced})
UNION ALL
SELECT substr(sha256(concat_ws('|', 'seating-missing', g.tournament, g.tournament_round, g.game_id, s.player)), 1, 12)
           AS finding_id,
       g.tournament, g.game_id, s.stage, g.tournament_round, g.table_label AS table, s.player,
       coalesce(n.name, s.player) AS name, s.table_label AS seated_table, 'missing' AS kind,
       'wrong_table' AS code, 'R-TS1' AS rule, 'warning' AS severity,
       format('{} is seated at table {} in round {} but is not in its game {}',
              coalesce(n.name, s.player), s.table_label, g.tournament_round, g.game_id) AS message,
       true AS registered,
       json_object('text', {missing},
                   'values', json_object('player', s.player, 'table', s.table_label, 'round', g.tournament_round,
                                         'game', g.game_id))::VARCHAR AS said
FROM games g
JOIN seatings s ON s.tournament = g.tournament AND s.tournament_round = g.tournament_round
               AND s.stage = coalesce(g.stage, 'preliminary') AND s.table_label = g.table_label
LEFT JOIN tournament_players n ON n.tournament = s.tournament AND n.player = s.player
WHERE g.tournament IS NOT NULL AND g.tournament_round IS NOT NULL AND NOT list_contains(g.player_ids, s.player)
  AND NOT EXISTS (SELECT 1 FROM games o
                  WHERE o.tournament = g.tournament AND o.tournament_round = g.tournament_round
                    AND coalesce(o.stage, 'preliminary') = s.stage AND list_contains(o.player_ids, s.player))
UNION ALL
SELECT substr(sha256(concat_ws('|', 'seating-twice', p.tournament, p.tournament_round, p.game_id, p.player)), 1, 12)
           AS finding_id,
       p.tournament, p.game_id, p.stage, p.tournament_round, p.table_label AS table, p.player,
       coalesce(n.name, p.player) AS name, NULL::VARCHAR AS seated_table, 'twice' AS kind,
       'wrong_table' AS code, 'R-TS1' AS rule, 'warning' AS severity,
       format('{} plays at table {} in round {} and in another game of that round',
              coalesce(n.name, p.player), coalesce(p.table_label, '?'), p.tournament_round) AS message,
       n.player IS NOT NULL AS registered,
       json_object('text', {twice},
                   'values', json_object('player', p.player, 'table', coalesce(p.table_label, '?'),
                                         'round', p.tournament_round))::VARCHAR AS said
FROM (
    SELECT *, count(*) OVER (PARTITION BY tournament, tournament_round, stage, player) AS games_in_round
    FROM {seats}
) p
LEFT JOIN tournaments t USING (tournament)
LEFT JOIN tournament_players n USING (tournament, player)
WHERE p.games_in_round > 1 AND {announced}
""".replace("{seats}", _SEATS)
    .replace("{announced}", _announced("p"))
    .replace("{unseated}", _literal(UNSEATED))
    .replace("{unregistered}", _literal(UNREGISTERED))
    .replace("{seated_elsewhere}", _literal(SEATED_ELSEWHERE))
    .replace("{missing}", _literal(MISSING_FROM_GAME))
    .replace("{twice}", _literal(IN_TWO_GAMES))
)
r"""Every player at the wrong table of a round with a published seating (and stage), or
of a round its stage did not announce, which no seating can seat (R-TS1: a game of
round 5 of four, which counts in no standings until its header is put right) — a
``wrong_table`` finding for the organiser, who decides (the game itself is stored as
played) — of four ``kind``\ s: ``unseated``, a player of a game the seating does not
seat (or of a round not announced); ``elsewhere``, a player of a game at another table than the seating gives them;
``missing``, a player the seating puts at a table whose game they are not in and who
is in no other game of the round (a game of five of its six, or with a stranger in the
sixth seat: both are said; one who played at another table is said once, there, as
``elsewhere``; until that game is stored they are ``missing`` here); and ``twice``: a
player in more than one game of an announced round (one game a round: each of those
games is said), seated or not: a table's log stored twice under two game ids counted
every player of it twice, and their seats matched. Announced rounds with no published
seating are not judged otherwise. The ``finding_id`` is a hash of tournament, round,
game and player (and the kind, for a missing one): the same after any rebuild, so a
dismissal or a penalty can name it. Computed from the read models, never stored: a
re-seating that puts the player where they played makes it go away."""


def _game_rounds(game: str) -> str:
    """SQL: the rounds a game of ``game``'s stage plays (an alias with ``stage`` and
    ``ruleset``, beside the tournament's row as ``t``): the final the rounds the
    tournament announced (R-TS4, 4 unless told; a base game has 3 at most), every other
    stage 3 (R-TS1)."""
    limit = f"CASE {game}.ruleset WHEN 'base' THEN {ROUND_LIMIT['base']} ELSE {ROUND_LIMIT['tournament']} END"
    return (
        f"CASE WHEN {game}.stage = 'final' THEN least(coalesce(t.final_rounds, {FINAL_ROUNDS[1]}), {limit}) "
        f"ELSE {GAME_ROUNDS} END"
    )


ROUND_COUNT: Final = (
    """
SELECT substr(sha256(concat_ws('|', 'rounds', g.tournament, g.game_id)), 1, 12) AS finding_id,
       g.tournament, g.game_id, g.stage, g.tournament_round,
       'wrong_rounds' AS code, CASE WHEN g.stage = 'final' THEN 'R-TS4' ELSE 'R-TS1' END AS rule,
       'warning' AS severity,
       CASE WHEN g.played > g.most
            THEN format('{} has {} rounds, but a game of the {} has {}: its rounds after round {} count in no '
                        || 'standings until its file is put right and ingested again (--supersede)',
                        g.game_id, g.played, g.stage_words, g.most, g.most)
            ELSE format('{} has {} rounds, but a game of the {} has {}: its rounds count as played; if a round '
                        || 'is missing, put its file right and ingest it again (--supersede)',
                        g.game_id, g.played, g.stage_words, g.most)
       END AS message,
       json_object('text', CASE WHEN g.played > g.most THEN {more} ELSE {fewer} END,
                   'values', json_object('game', g.game_id, 'rounds', g.played, 'stage', g.stage,
                                         'expected', g.most))::VARCHAR AS said
FROM (
    SELECT g.*, {game_rounds} AS most,
           CASE g.stage {stage_words} ELSE g.stage END AS stage_words
    FROM (SELECT game_id, tournament, tournament_round, coalesce(stage, 'preliminary') AS stage, ruleset,
                 coalesce(rounds_planned, rounds_played) AS played
          FROM games WHERE tournament IS NOT NULL AND tournament_round IS NOT NULL) g
    LEFT JOIN tournaments t USING (tournament)
    WHERE {announced}
) g
WHERE g.played <> g.most
""".replace("{game_rounds}", _game_rounds("g"))
    .replace("{stage_words}", " ".join(f"WHEN {_literal(k)} THEN {_literal(v)}" for k, v in STAGES.items()))
    .replace("{announced}", _announced("g"))
    .replace("{more}", _literal(MORE_ROUNDS))
    .replace("{fewer}", _literal(FEWER_ROUNDS))
)
"""Every game of an announced round whose rounds are not its stage's (R-TS1: 3; R-TS4:
the final's, as announced): a ``wrong_rounds`` finding of the game (no player: it stands
beside each of its players' rows). Of a game of more, only its stage's number of rounds
count in the standings (:data:`_SCORED`): the rounds after them count nowhere until its
file is put right and ingested again with ``--supersede``, as a game of a round not
announced does; a dismissal does not make them count. A game of fewer (by its header or
its score sheet) counts the rounds it has, as played: a round may be missing from it,
which the organiser is told of. (A log that stops before its planned rounds is
``incomplete`` already, and its planned rounds are what is compared.) Its ``finding_id``
is a hash of tournament and game; computed, never stored."""

HEADER_FINDINGS: Final = """
SELECT substr(sha256(concat_ws('|', 'ruleset', g.tournament, g.game_id)), 1, 12) AS finding_id,
       g.tournament, g.game_id, coalesce(g.stage, 'preliminary') AS stage, g.tournament_round,
       'wrong_ruleset' AS code, 'R-W1' AS rule, 'warning' AS severity,
       format('{} is played by the {} rules, but {} by the {} rules: it counts in no standings until its file '
              || 'is put right and ingested again (--supersede)', g.game_id, g.ruleset, g.tournament, t.ruleset)
           AS message,
       json_object('text', {other}, 'values', json_object('game', g.game_id, 'ruleset', g.ruleset,
                                                          'tournament', g.tournament, 'expected', t.ruleset))::VARCHAR
           AS said
FROM games g JOIN tournaments t USING (tournament)
WHERE g.ruleset <> t.ruleset
UNION ALL
SELECT substr(sha256(concat_ws('|', 'no-round', g.tournament, g.game_id)), 1, 12) AS finding_id,
       g.tournament, g.game_id, coalesce(g.stage, 'preliminary') AS stage, g.tournament_round,
       'no_round' AS code, 'R-TS1' AS rule, 'warning' AS severity,
       format('{} names no round of {}: it counts in no standings until its header names its round and it is '
              || 'ingested again (--supersede)', g.game_id, g.tournament) AS message,
       json_object('text', {no_round}, 'values', json_object('game', g.game_id, 'tournament', g.tournament))::VARCHAR
           AS said
FROM games g JOIN tournaments t USING (tournament)
WHERE g.tournament_round IS NULL AND coalesce(g.stage, 'preliminary') = 'preliminary'
""".replace("{other}", _literal(OTHER_RULESET)).replace("{no_round}", _literal(NO_ROUND))
"""Every game of a created tournament whose header does not fit it, a finding of the
game each (no player: it stands beside each of its players' rows), and counted in no
standings (:data:`_SCORED`): ``wrong_ruleset``, a game whose ruleset is not its
tournament's (a base game's points are gold nuggets, and its winners have no stars);
``no_round``, a preliminary game that names no round, which no seating can check (a
table's log stored twice would count twice) and no round of the ranking holds (R-TS1,
R-TS2); a final or semi-final naming none is of its stage's one round. The
organiser puts its header right and ingests it again with ``--supersede``; a dismissal
does not make it count. Its ``finding_id`` is a hash of tournament and game; computed,
never stored."""

EVERY_FINDING: Final = (
    """(
    SELECT finding_id, game_id, round, line, player, code, rule, severity, message, said FROM findings
    UNION ALL
    SELECT finding_id, game_id, NULL, NULL, player, code, rule, severity, message, said FROM ("""
    + MISSEATED
    + """)
    UNION ALL
    SELECT finding_id, game_id, NULL, NULL, NULL, code, rule, severity, message, said FROM ("""
    + ROUND_COUNT
    + """)
    UNION ALL
    SELECT finding_id, game_id, NULL, NULL, NULL, code, rule, severity, message, said FROM ("""
    + HEADER_FINDINGS
    + """)
)"""
)
"""Every finding, as a table to select from: the audit's (stored by the ingest), the
seating's (:data:`MISSEATED`), the games' rounds (:data:`ROUND_COUNT`) and headers
(:data:`HEADER_FINDINGS`), in the columns of ``findings``."""

FINDING_STATUS: Final = """
CASE WHEN EXISTS (SELECT 1 FROM dismissals d WHERE d.tournament = {tournament} AND d.finding_id = f.finding_id)
          THEN 'dismissed'
     WHEN EXISTS (SELECT 1 FROM penalties p
                  WHERE p.tournament = {tournament} AND p.finding = f.finding_id AND p.withdrawn_seq IS NULL)
          THEN 'penalised'
     WHEN f.code = 'wrong_score' AND (
          -- the round's replay accepted, and no correction since of a player it names
          EXISTS (SELECT 1 FROM accepted_replays a
                  WHERE a.tournament = {tournament} AND a.game_id = f.game_id AND a.round = f.round
                    AND NOT EXISTS (SELECT 1 FROM corrections c
                                    WHERE c.tournament = a.tournament AND c.game_id = a.game_id
                                      AND c.round = a.round AND c.seq > a.seq
                                      AND (f.player IS NULL OR c.player = f.player)))
          -- or corrected, and the round as it counts now is what the rules give
       OR (EXISTS (SELECT 1 FROM corrections c
                   WHERE c.tournament = {tournament} AND c.game_id = f.game_id AND c.round = f.round
                     AND (f.player IS NULL OR c.player = f.player))
           AND NOT list_contains({still_wrong}, f.finding_id)))
          THEN 'settled'
     ELSE 'open' END"""
"""What became of the finding ``f`` (a row of :data:`EVERY_FINDING`) in the record of
the tournament ``{tournament}`` stands for: ``open``, ``dismissed``, ``penalised`` or
``settled`` (:data:`analytics.browse.FINDING_STATUSES`). One definition, so the
findings list and the standings' open findings never disagree. ``{still_wrong}`` is
the list :func:`still_wrong` gives, written in by :func:`with_still_wrong`. The newest
decision on a round counts (:data:`NEWEST_CORRECTIONS`): a correction after the
replay's acceptance reopens the finding of the player it corrects unless the round as
corrected is what the rules give."""

NAME_KEY: Final = (
    "replace(replace(regexp_replace(trim(lower(nfc_normalize({name}))), '\\s+', ' ', 'g'), 'ß', 'ss'), 'ς', 'σ')"
)
"""A player's name as a person reads it, in SQL (``{name}``: the column): letter case,
Unicode's two ways to write "é", spaces around and between the words, "ß" for "ss"
and the Greek final "ς" for "σ" aside (what a capital Σ is lowered to: "ΣΟΦΟΣ" is
"Σοφος" in capitals, which ``lower`` alone did not see). Two players whose names give
one key are namesakes: the standings tell them apart by their ids."""

NEWEST_CORRECTIONS: Final = """
    SELECT c.tournament, c.game_id, c.round, c.player, arg_max(c.points, c.seq) AS points,
           arg_max(c.star, c.seq) FILTER (WHERE c.star IS NOT NULL) AS star
    FROM corrections c
    WHERE c.seq > coalesce((SELECT max(a.seq) FROM accepted_replays a
                            WHERE a.tournament = c.tournament AND a.game_id = c.game_id AND a.round = c.round), 0)
    GROUP BY ALL"""
"""Each player's round as corrected, by tournament: the newest correction's points, and
the newest star a correction gave (R-TS5: the newest correction counts). The newest
decision on a round counts: a replay accepted after a correction replaces it (the
round's points are the replay's, its stars the rules'), and a correction after the
acceptance counts over the replay."""

POINTS_AS_COUNTED: Final = """coalesce(
    c.points,
    CASE WHEN EXISTS (SELECT 1 FROM accepted_replays a
                      WHERE a.tournament = {tournament} AND a.game_id = rp.game_id AND a.round = rp.round)
         THEN rp.replay_points END,
    rp.recorded_points, 0)"""
"""A player's points for a round ``rp`` (a row of ``round_players``) as the standings
count them, ``c`` the newest correction of it (:data:`NEWEST_CORRECTIONS`, its column
``points``, or null): the correction's, else the replay's once it is accepted, else the
points recorded: one definition for the standings and for the findings a correction
leaves open."""

_CORRECTED_ROUNDS: Final = """
WITH named AS (
    SELECT f.finding_id, f.game_id, f.round, f.player, g.source, g.tournament
    FROM findings f JOIN games g USING (game_id)
    WHERE f.code = 'wrong_score' AND ($tournament IS NULL OR g.tournament = $tournament)
      AND EXISTS (SELECT 1 FROM corrections c WHERE c.tournament = g.tournament AND c.game_id = f.game_id
                                              AND c.round = f.round AND (f.player IS NULL OR c.player = f.player))
),
corrected AS ({newest_corrections})
SELECT n.finding_id, n.source, n.player AS named, rp.player, rp.role,
       {points_as_counted} AS points, rp.replay_points, coalesce(c.star, rp.star, false) AS star,
       rp.star AS replay_star
FROM named n
JOIN round_players rp ON rp.game_id = n.game_id AND rp.round = n.round
LEFT JOIN corrected c ON c.tournament = n.tournament AND c.game_id = rp.game_id AND c.round = rp.round
                     AND c.player = rp.player
ORDER BY n.finding_id, rp.seat
""".replace("{newest_corrections}", NEWEST_CORRECTIONS).replace(
    "{points_as_counted}", POINTS_AS_COUNTED.replace("{tournament}", "n.tournament")
)


def still_wrong(con: duckdb.DuckDBPyConnection, tournament: str | None) -> list[str]:
    """The ``wrong_score`` findings a correction names whose round, with every correction
    of it applied, is still not what the rules give, of ``tournament`` (``None``: of
    every one): they stay open. A log's round is held to its replay (the points of the
    players the finding names, or of all); a score sheet's, which has no replay, to
    the outcomes R-W1 allows for its roles (points and stars). Without this any
    correction of the player settled the finding, even one to another wrong score."""
    rows = con.execute(_CORRECTED_ROUNDS, {"tournament": tournament}).fetchall()
    wrong = []
    for finding_id, group in groupby(rows, key=lambda r: str(r[0])):
        seats = list(group)
        source, named = seats[0][1], seats[0][2]
        if not _fits(source, named, [r[3:9] for r in seats]):
            wrong.append(finding_id)
    return wrong


def _fits(source: str, named: str | None, seats: Sequence[tuple[Any, ...]]) -> bool:
    """Whether a round as corrected is what the rules give: ``seats`` are each player's
    ``(player, role, points, replay_points, star, replay_star)`` with every correction
    applied. A log's round is held to its replay (the points and the star of ``named``,
    or of all: a correction that took a saboteur's star in a saboteurs' win, or gave
    one to a dwarf who lost, settled the finding, unsaid); a score sheet's, which has
    no replay, to the outcomes R-W1 allows for its roles."""
    if source == "score_sheet":
        players = [str(r[0]) for r in seats]
        roles = {str(r[0]): r[1] for r in seats}
        points = {str(r[0]): int(r[2]) for r in seats}
        stars = frozenset(str(r[0]) for r in seats if r[4])
        return any(o[2] == points and o[3] == stars for o in allowed_outcomes(players, roles))
    return all(
        r[3] is None or (r[2] == r[3] and bool(r[4]) == bool(r[5])) for r in seats if named is None or r[0] == named
    )


_ROUND_AS_CORRECTED: Final = """
WITH corrected AS ({newest_corrections})
SELECT g.source, rp.player, rp.role, {points_as_counted} AS points, rp.replay_points,
       coalesce(c.star, rp.star, false) AS star, rp.star AS replay_star
FROM round_players rp JOIN games g USING (game_id)
LEFT JOIN corrected c ON c.tournament = $tournament AND c.game_id = rp.game_id AND c.round = rp.round
                     AND c.player = rp.player
WHERE rp.game_id = $game AND rp.round = $round
ORDER BY rp.seat
""".replace("{newest_corrections}", NEWEST_CORRECTIONS).replace(
    "{points_as_counted}", POINTS_AS_COUNTED.replace("{tournament}", "$tournament")
)


def round_fits(con: duckdb.DuckDBPyConnection, tournament: str, game: str, number: int) -> bool:
    """Whether one round, with the tournament's corrections of it applied, is what the
    rules give (:func:`_fits`); a round with no players stored fits."""
    rows = con.execute(_ROUND_AS_CORRECTED, {"tournament": tournament, "game": game, "round": number}).fetchall()
    return not rows or _fits(str(rows[0][0]), None, [r[1:] for r in rows])


def with_still_wrong(sql: str, con: duckdb.DuckDBPyConnection, tournament: str | None) -> str:
    """``sql`` with :data:`FINDING_STATUS`'s ``{still_wrong}`` written in as a list."""
    if "{still_wrong}" not in sql:
        return sql
    ids = ", ".join(_literal(i) for i in still_wrong(con, tournament))
    return sql.replace("{still_wrong}", f"[{ids}]::VARCHAR[]")


_SCORED: Final = (
    """
WITH stage_games AS (
    SELECT g.game_id, {announced} AS announced, {game_rounds} AS most_rounds,
           g.ruleset IS NOT DISTINCT FROM coalesce(t.ruleset, g.ruleset) AS of_its_rules
    FROM (SELECT game_id, tournament, tournament_round, coalesce(stage, 'preliminary') AS stage, ruleset
          FROM games WHERE tournament = $tournament) g
    LEFT JOIN tournaments t USING (tournament)
    WHERE g.stage = $stage
),
games_t AS (
    -- the stage's games of the rounds it announced (R-TS1, R-TS2): a game of round 5 of
    -- four preliminaries is no preliminary game, whatever its header says, and counts
    -- nowhere until its header is put right, nor does a game of the other ruleset or of
    -- no round (HEADER_FINDINGS); their findings (open_findings) stand beside their
    -- players' rows all the same. Of each, the stage's rounds (R-TS1: 3, R-TS4: the
    -- final's): a fourth round of a preliminary game counts nowhere either (ROUND_COUNT)
    SELECT game_id, most_rounds FROM stage_games WHERE announced AND of_its_rules
),
corrected AS (SELECT * EXCLUDE (tournament) FROM ({newest_corrections}) WHERE tournament = $tournament),
scored AS (
    SELECT rp.player, rp.game_id, rp.round, {points_as_counted} AS points, coalesce(c.star, rp.star) AS star
    FROM round_players rp
    JOIN games_t USING (game_id)
    LEFT JOIN corrected c USING (game_id, round, player)
    WHERE rp.round <= games_t.most_rounds
),
open_findings AS (
    -- every open finding of the stage's games (as the findings list has it), beside the
    -- player it names, or every player of its round (of its game) if it names none
    SELECT player, count(DISTINCT finding_id) AS open_findings FROM (
        SELECT f.finding_id, coalesce(f.player, rp.player) AS player
        FROM {every_finding} f
        JOIN stage_games USING (game_id)
        LEFT JOIN (SELECT DISTINCT game_id, round, player FROM round_players) rp
               ON f.player IS NULL AND rp.game_id = f.game_id AND (f.round IS NULL OR rp.round = f.round)
        WHERE {status} = 'open'
    ) WHERE player IS NOT NULL GROUP BY player
),
people AS (
    -- every registered player in the preliminaries; in a later stage those it seats or
    -- who played in it (the players knocked out are not ranked there, nor drawn at its cut)
    SELECT player, name, withdrawn_seq IS NOT NULL AS withdrawn FROM tournament_players
    WHERE tournament = $tournament
      AND ($stage = 'preliminary'
           OR player IN (SELECT player FROM scored)
           OR player IN (SELECT player FROM seatings WHERE tournament = $tournament AND stage = $stage))
    UNION ALL
    SELECT DISTINCT s.player, NULL, false FROM scored s
    WHERE s.player NOT IN (SELECT player FROM tournament_players WHERE tournament = $tournament)
),
namesakes AS (
    -- players registered under one name (as a person reads it, NAME_KEY) are told apart
    -- by their ids wherever the standings name them
    SELECT player, count(*) OVER (PARTITION BY {name_key}) AS same
    FROM tournament_players WHERE tournament = $tournament
),
penalty AS (
    SELECT player, sum(points) AS penalty FROM penalties
    WHERE tournament = $tournament AND stage = $stage AND withdrawn_seq IS NULL GROUP BY player
),
totals AS (
    SELECT p.player,
           CASE WHEN coalesce(any_value(ns.same), 1) > 1 THEN concat(p.name, ' (', p.player, ')')
                ELSE coalesce(p.name, p.player) END AS name,
           coalesce(sum(s.points), 0)::INTEGER AS round_points,
           coalesce(any_value(pen.penalty), 0)::INTEGER AS penalty,
           (coalesce(sum(s.points), 0) - coalesce(any_value(pen.penalty), 0))::INTEGER AS points,
           coalesce(sum(s.star::INTEGER), 0)::INTEGER AS stars,
           count(s.round)::INTEGER AS rounds,
           count(DISTINCT s.game_id)::INTEGER AS games,
           coalesce(any_value(o.open_findings), 0)::INTEGER AS open_findings,
           p.withdrawn
    FROM people p
    LEFT JOIN scored s USING (player)
    LEFT JOIN penalty pen USING (player)
    LEFT JOIN open_findings o USING (player)
    LEFT JOIN namesakes ns USING (player)
    GROUP BY p.player, p.name, p.withdrawn
)
""".replace("{announced}", _announced("g"))
    .replace("{game_rounds}", _game_rounds("g"))
    .replace("{newest_corrections}", NEWEST_CORRECTIONS)
    .replace("{points_as_counted}", POINTS_AS_COUNTED.replace("{tournament}", "$tournament"))
    .replace("{every_finding}", EVERY_FINDING)
    .replace("{name_key}", NAME_KEY.replace("{name}", "name"))
    .replace("{status}", FINDING_STATUS.replace("{tournament}", "$tournament"))
)

_PRELIMINARY: Final = _sentences(
    _SCORED
    + """
, draws AS (
    SELECT seq, tied, places,
           list_concat(drawn, list_filter(tied, lambda x: NOT list_contains(drawn, x))) AS drawn_order
    FROM cut_draws WHERE tournament = $tournament AND stage = $stage
),
cut AS (
    -- the preliminaries of a tournament with a semi-final send it its own number of
    -- players; the stage before the final sends the cut (R-TS3)
    SELECT coalesce(max(CASE WHEN $stage = 'preliminary' AND coalesce(semifinal, false)
                             THEN coalesce(semifinal_cut, cut) ELSE cut END), 6) AS cut
    FROM tournaments WHERE tournament = $tournament
),
ties AS (
    -- each group of equal points and stars, its players as one list (one a group, not one
    -- a player: a list a player grows with the square of a group, and every registered
    -- player yet to play is one 0/0 group), and the places of the cut left to it; a
    -- player withdrawn from the tournament is in no group: the cut passes them over
    SELECT points, stars, players,
           (SELECT cut FROM cut) - (sum(size) OVER (ORDER BY points DESC, stars DESC) - size) AS places
    FROM (SELECT points, stars, list_sort(list(player)) AS players, count(*) AS size
          FROM totals WHERE NOT withdrawn GROUP BY points, stars)
),
drawn_tie AS (
    -- the draw made for a tie: its players, for its number of places (R-TS2). The newest
    -- such draw, however many draws of other ties came since; a draw for the same players
    -- and other places decides nothing here, and the tie is drawn anew
    SELECT k.points, k.stars, arg_max(d.drawn_order, d.seq) AS drawn_order, arg_max(d.places, d.seq) AS places
    FROM ties k JOIN draws d ON list_sort(d.tied) = k.players AND d.places = k.places
    GROUP BY k.points, k.stars
),
ranked AS (
    SELECT t.*,
           -- a draw places the players of the tie it was made for, and only that tie
           list_position(k.drawn_order, t.player) AS drawn_at,
           k.places AS drawn_places,
           rank() OVER (ORDER BY t.points DESC, t.stars DESC)::INTEGER AS rank,
           count(*) OVER (PARTITION BY t.points, t.stars)::INTEGER AS tied
    FROM totals t LEFT JOIN drawn_tie k ON k.points = t.points AND k.stars = t.stars AND NOT t.withdrawn
),
placed AS (
    SELECT r.*, row_number() OVER (ORDER BY points DESC, stars DESC, drawn_at NULLS LAST, player)::INTEGER AS place,
           -- the place the cut counts: among the players who have not withdrawn
           CASE WHEN NOT withdrawn THEN row_number() OVER (PARTITION BY withdrawn
               ORDER BY points DESC, stars DESC, drawn_at NULLS LAST, player) END AS cut_place
    FROM ranked r
),
lined AS (
    SELECT r.*, c.cut,
           lag(name) OVER w AS above, lag(points) OVER w AS above_points, lag(stars) OVER w AS above_stars,
           lead(name) OVER w AS below, lead(points) OVER w AS below_points, lead(stars) OVER w AS below_stars,
           NOT withdrawn AND bool_or(cut_place <= c.cut) OVER (PARTITION BY points, stars, withdrawn)
               AND bool_or(cut_place > c.cut) OVER (PARTITION BY points, stars, withdrawn) AS straddles,
           count(*) FILTER (WHERE cut_place <= c.cut) OVER (PARTITION BY points, stars, withdrawn) AS group_in_cut
    FROM placed r, cut c
    WINDOW w AS (ORDER BY place)
)
SELECT place, rank, tied > 1 AS shared, player, name, points, stars, rounds, games, penalty, open_findings,
       -- a tie across the cut line that no draw settles (R-TS2): who of it is in is not known
       CASE WHEN straddles AND drawn_at IS NULL THEN NULL ELSE coalesce(cut_place <= cut, false) END AS in_cut,
       withdrawn,
       straddles AND drawn_at IS NULL AS cut_tie_undrawn,
       CASE WHEN straddles AND drawn_at IS NULL THEN group_in_cut END::INTEGER AS cut_tie_places,
       straddles AND drawn_at IS NOT NULL AS cut_drawn,
       to_json(list_filter([
           CASE WHEN above IS NULL THEN json_object('text', {top}, 'values', json_object())
                WHEN points < above_points THEN json_object('text', {below_on_points}, 'values',
                    json_object('name', above, 'points', points, 'their', above_points))
                WHEN stars < above_stars THEN json_object('text', {fewer_stars}, 'values',
                    json_object('name', above, 'points', points, 'stars', stars, 'their', above_stars))
                ELSE json_object('text', {rank_shared}, 'values', json_object('name', above, 'rank', rank)) END,
           CASE WHEN below IS NULL THEN NULL
                WHEN points > below_points THEN json_object('text', {above_on_points}, 'values',
                    json_object('name', below, 'points', points, 'their', below_points))
                WHEN stars > below_stars THEN json_object('text', {more_stars}, 'values',
                    json_object('name', below, 'points', points, 'stars', stars, 'their', below_stars))
                ELSE json_object('text', {level_with}, 'values', json_object('name', below)) END,
           CASE WHEN straddles AND drawn_at IS NOT NULL AND drawn_at <= drawn_places
                     THEN json_object('text', {drawn}, 'values', json_object('place', drawn_at))
                WHEN straddles AND drawn_at IS NOT NULL
                     THEN json_object('text', {drawn_out}, 'values', json_object())
                WHEN straddles THEN json_object('text', {undrawn}, 'values', json_object()) END,
           CASE WHEN withdrawn THEN json_object('text', {withdrew}, 'values', json_object()) END
       ], lambda reason: reason IS NOT NULL))::VARCHAR AS reasons
FROM lined
ORDER BY place
"""
)

_FINAL: Final = _sentences(
    """
WITH final_scores AS (SELECT * FROM ($final)),
prelim AS (SELECT * FROM ($prelim))
SELECT row_number() OVER w::INTEGER AS place,
       rank() OVER (ORDER BY f.points DESC, f.stars DESC, coalesce(p.points, 0) DESC,
                    coalesce(p.stars, 0) DESC)::INTEGER AS rank,
       count(*) OVER (PARTITION BY f.points, f.stars, coalesce(p.points, 0), coalesce(p.stars, 0)) > 1 AS shared,
       f.player, f.name,
       f.points AS final_points, f.stars AS final_stars,
       coalesce(p.points, 0) AS preliminary_points, coalesce(p.stars, 0) AS preliminary_stars,
       f.rounds, f.penalty, f.open_findings, f.withdrawn,
       to_json(list_filter([
           CASE WHEN lag(f.name) OVER w IS NULL THEN json_object('text', {final_top}, 'values', json_object())
                WHEN f.points < lag(f.points) OVER w
                     THEN json_object('text', {final_below}, 'values', json_object('name', lag(f.name) OVER w))
                WHEN f.stars < lag(f.stars) OVER w
                     THEN json_object('text', {final_fewer_stars}, 'values', json_object('name', lag(f.name) OVER w))
                WHEN coalesce(p.points, 0) < lag(coalesce(p.points, 0)) OVER w
                     THEN json_object('text', {final_fewer_points}, 'values', json_object('name', lag(f.name) OVER w))
                WHEN coalesce(p.stars, 0) < lag(coalesce(p.stars, 0)) OVER w
                     THEN json_object('text', {final_fewer_prelim_stars}, 'values',
                                      json_object('name', lag(f.name) OVER w))
                ELSE json_object('text', {final_shared}, 'values', json_object('name', lag(f.name) OVER w)) END,
           CASE WHEN f.withdrawn THEN json_object('text', {final_withdrew}, 'values', json_object()) END
       ], lambda reason: reason IS NOT NULL))::VARCHAR AS reasons
FROM final_scores f LEFT JOIN prelim p USING (player)  -- those the final seats or who played in it (people)
WINDOW w AS (ORDER BY f.points DESC, f.stars DESC, coalesce(p.points, 0) DESC, coalesce(p.stars, 0) DESC, f.player)
ORDER BY place
"""
)


@dataclass(frozen=True, slots=True)
class Query:
    tournament: str
    stage: str = "preliminary"


def above_the_cut(frame: pl.DataFrame) -> int:
    """How many rows of the standings ``frame`` (in place order) stand above the cut
    line: every row down to the last one in the cut. A player who withdrew stands where
    their points put them, above the line too, and is passed over: the line falls under
    one more player. A tie across the line that no draw settles is cut where the places
    it shares end (who of it is in is not known: each of its rows says so). 0 where
    nobody is in the cut, every row where the frame has no cut."""
    if "in_cut" not in frame.columns:
        return frame.height
    inside = frame["in_cut"].to_list()
    shared = frame["cut_tie_places"].to_list() if "cut_tie_places" in frame.columns else [None] * frame.height
    line = max((index + 1 for index, taken in enumerate(inside) if taken), default=0)
    tied = next(((index, places) for index, places in enumerate(shared) if places is not None), None)
    return max(line, tied[0] + int(tied[1])) if tied is not None else line


def _run(con: duckdb.DuckDBPyConnection, sql: str, tournament: str, stage: str) -> pl.DataFrame:
    sql = with_still_wrong(sql, con, tournament)
    frame: pl.DataFrame = con.sql(sql, params={"tournament": tournament, "stage": stage}).pl()
    return frame


def _with_why(frame: pl.DataFrame) -> pl.DataFrame:
    """The standings with ``why``, the English of each row's ``reasons``, after them."""
    why = ["; ".join(reason.english() for reason in read_stored_all(text)) for text in frame["reasons"]]
    return frame.with_columns(pl.Series("why", why, dtype=pl.String))


def standings_on(con: duckdb.DuckDBPyConnection, tournament: str, stage: str = "preliminary") -> pl.DataFrame:
    """The standings from an open connection to read models (the store, or a snapshot)."""
    if stage != "final":
        return _with_why(_run(con, _PRELIMINARY, tournament, stage))
    final_sql = _SCORED + " SELECT * FROM totals"
    prelim = _run(con, _SCORED + " SELECT * FROM totals", tournament, "preliminary")
    final = _run(con, final_sql, tournament, "final")
    con.register("final_frame", final)
    con.register("prelim_frame", prelim)
    try:
        sql = _FINAL.replace("($final)", "final_frame").replace("($prelim)", "prelim_frame")
        frame: pl.DataFrame = con.sql(sql).pl()
        return _with_why(frame)
    finally:
        con.unregister("final_frame")
        con.unregister("prelim_frame")


def scored_rounds(store: Store, tournament: str, stage: str = "preliminary") -> pl.DataFrame:
    """Each player's points and star in each round of a stage as the standings count
    them (corrections and accepted replays applied; penalties are apart): player,
    game_id, round, points, star."""
    with store.connect(read_only=True) as con:
        return _run(con, _SCORED + " SELECT * FROM scored ORDER BY game_id, round, player", tournament, stage)


_SEATING_CHECK: Final = """
WITH seated AS (
    SELECT tournament_round, stage, table_label, list_sort(list(player)) AS players
    FROM seatings WHERE tournament = $tournament GROUP BY ALL
),
played AS (
    SELECT game_id, tournament_round, coalesce(stage, 'preliminary') AS stage, table_label,
           list_sort(player_ids) AS players,
           count(*) OVER (PARTITION BY tournament_round, coalesce(stage, 'preliminary'), table_label) AS at_table
    FROM games WHERE tournament = $tournament
)
SELECT p.game_id, p.tournament_round, p.stage, p.table_label,
       CASE WHEN s.players IS NULL THEN 'no seating is published for this table'
            WHEN p.at_table > 1 THEN format('{} games of this round are at this table', p.at_table)
            ELSE format('the game seats {} but the seating lists {}',
                        array_to_string(list_filter(p.players, lambda x: NOT list_contains(s.players, x)), ', '),
                        array_to_string(list_filter(s.players, lambda x: NOT list_contains(p.players, x)), ', '))
       END AS finding,
       s.players AS seating,
       list_filter(p.players, lambda x: NOT list_contains(s.players, x)) AS not_listed,
       list_filter(s.players, lambda x: NOT list_contains(p.players, x)) AS not_seated,
       p.at_table
FROM played p
LEFT JOIN seated s USING (tournament_round, stage, table_label)
LEFT JOIN tournaments t ON t.tournament = $tournament
WHERE p.tournament_round IS NOT NULL
  AND (s.players IS NULL OR s.players <> p.players OR p.at_table > 1)
  AND (EXISTS (SELECT 1 FROM seated x WHERE x.tournament_round = p.tournament_round AND x.stage = p.stage)
       OR NOT {announced})
ORDER BY p.tournament_round, p.table_label
""".replace("{announced}", _announced("p"))


def misseated(store: Store, *, tournament: str | None = None, games: Sequence[str] | None = None) -> pl.DataFrame:
    """The players at the wrong table (:data:`MISSEATED`) of a tournament, or of the
    games named (every tournament's when neither is given), in round and table order."""
    with store.connect(read_only=True) as con:
        frame: pl.DataFrame = con.sql(
            "SELECT * FROM (" + MISSEATED + ") WHERE ($tournament IS NULL OR tournament = $tournament) "
            "AND ($games IS NULL OR list_contains($games, game_id)) "
            "ORDER BY tournament, tournament_round, " + by_table('"table"') + ", game_id, player",
            params={"tournament": tournament, "games": None if games is None else list(games)},
        ).pl()
        return frame


def seating_findings(store: Store, tournament: str) -> pl.DataFrame:
    """Games whose players differ from the published seating of their round and table,
    or that share their table with another game of the round (a finding for the
    organiser; announced rounds with no published seating are not judged, and a round
    its stage did not announce has no seating): ``finding`` says it in English;
    ``seating`` (null when the table has none), ``not_listed`` (who played but is not
    seated there), ``not_seated`` (who is seated there but did not play) and
    ``at_table`` (the games of the round at that table) let a reader say it in another
    language."""
    with store.connect(read_only=True) as con:
        frame: pl.DataFrame = con.sql(_SEATING_CHECK, params={"tournament": tournament}).pl()
        return frame


def _committed(con: duckdb.DuckDBPyConnection, position: int) -> int:
    """``position``, or where it falls inside a transaction (an ingest stores many
    events, a supersede its mark and the new version, at once), the last position
    before it: the store never stood halfway through one, and half a game counted, or
    a game superseded with its new version not yet in, is a state nobody saw. The
    events of a transaction share their ``recorded_at``."""
    row = con.execute(
        "SELECT min(e.position), max(e.position) FROM events e, (SELECT recorded_at FROM events WHERE position = ?) p "
        "WHERE e.recorded_at = p.recorded_at",
        [position],
    ).fetchone()
    if row is None or row[0] is None or row[1] == position:
        return position
    return int(row[0]) - 1


_SNAPSHOT_ROWS: Final = 200_000
"""Read-model rows a snapshot holds before it inserts them (:func:`_snapshot`)."""


_UNRANKED: Final = frozenset({"cards_played"})
"""Read models no standing reads (the cards each round saw are the statistics'): a
snapshot leaves them out, some 90,000 rows inserted for nothing in a tournament of 561
games."""


def _snapshot(store: Store, tournament: str, moment: int | datetime) -> duckdb.DuckDBPyConnection:
    """An in-memory database holding the tournament's read models as they stood at
    ``moment``: its streams' events up to then, projected afresh.

    The streams are read a run of them per query (:meth:`~ingest.store.Store.read_many`)
    and their rows inserted a table at a time once some :data:`_SNAPSHOT_ROWS` are held,
    not stream by stream: a tournament of 2,000 games, a query and an insert per table
    per game, took 26 s."""
    memory = duckdb.connect(":memory:")
    memory.execute("SET TimeZone = 'UTC'")  # as the store's (ingest.store.files)
    for ddl in READ_MODELS.values():
        memory.execute(ddl)
    with store.connect(read_only=True) as con:
        if isinstance(moment, int):
            moment = _committed(con, moment)
        games = store.streams_naming(con, GAME_HEADERS, "tournament", tournament, until=moment)
        head = store.head(con)[0]
    # (in stream order, which is DuckDB's for the streams' names too: bytes, no collation)
    left = sorted({*games, f"tournament:{tournament}"})
    held: dict[str, list[Any]] = {}
    size = 0
    while left:
        # the streams in turns: a job waiting for the store (a referee's tap) goes first
        # and the reading goes on after it, up to the same moment and never past the head
        # it began at (a moment of now or later: what is stored meanwhile, a game
        # superseded, is no part of it); a tournament of 561 games is some 3 s of
        # projecting, which held every write for as long
        taken = 0
        with (
            store.connect(read_only=True) as con,
            closing(store.read_many(con, left, until=moment, at_most=head)) as read,
        ):
            for events in read:
                for table, rows in project_stream(events).items():
                    if table not in _UNRANKED:
                        held.setdefault(table, []).extend(rows)
                        size += len(rows)
                if size >= _SNAPSHOT_ROWS:
                    insert_rows(memory, held)
                    held, size = {}, 0
                left = left[bisect_right(left, events[0].stream) :]
                taken += len(events)
                if taken >= chunks.TURN_EVENTS:
                    if left and store.someone_waiting():
                        break
                    taken = 0
            else:
                left = []
    insert_rows(memory, held)
    return memory


def standings(store: Store, tournament: str, *, stage: str = "preliminary", as_of: Moment = None) -> pl.DataFrame:
    """The standings of a tournament now, or as they stood at a position or a time
    (none before the tournament was created)."""
    if as_of is None:
        with store.connect(read_only=True) as con:
            return standings_on(con, tournament, stage)
    memory = _snapshot(store, tournament, as_of)
    try:
        frame = standings_on(memory, tournament, stage)
        # before the tournament was created there were no standings, only games naming it
        # (ranked by id, under a cut it had not announced)
        created = memory.execute("SELECT count(*) FROM tournaments WHERE tournament = ?", [tournament]).fetchone()
        return frame if created is not None and created[0] else frame.clear()
    finally:
        memory.close()
