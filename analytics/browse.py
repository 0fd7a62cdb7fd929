"""Read-only queries for browsing the store: tournaments, rounds, a player's rounds,
open findings, a game's stored lines. The dashboard shows them; they return Polars
frames from parameterised DuckDB SQL (filters add fixed fragments, values travel as
parameters) and open the store only for the query.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Final

import polars as pl

from analytics.standings import (
    EVERY_FINDING,
    FINDING_STATUS,
    NAME_KEY,
    NEWEST_CORRECTIONS,
    POINTS_AS_COUNTED,
    with_still_wrong,
)
from analytics.stats import DECIDED, Source, connection
from analytics.table_order import by_table, table_key
from events.logfile import LogLine, UnreadableLog, parse_numbered
from events.observe import AlreadyObserved, observe_lines
from ingest.revisions import current
from ingest.sources import stored_texts
from ingest.store import Store, first_stored


def query(store: Source, sql: str, params: Sequence[Any] = ()) -> pl.DataFrame:
    """One read-only query (a store is opened for it and closed after)."""
    with connection(store) as con:
        frame: pl.DataFrame = con.sql(sql, params=list(params)).pl()
        return frame


_TOURNAMENTS: Final = """
WITH named AS (SELECT tournament FROM tournaments UNION SELECT tournament FROM games WHERE tournament IS NOT NULL)
SELECT n.tournament, coalesce(t.name, n.tournament) AS name, coalesce(t.cut, 6) AS cut,
       t.preliminary_rounds, t.final_rounds, coalesce(t.semifinal, false) AS semifinal,
       coalesce(t.semifinal_cut, t.cut, 6) AS semifinal_cut,
       (SELECT count(*) FROM games g WHERE g.tournament = n.tournament) AS games
FROM named n LEFT JOIN tournaments t USING (tournament)
ORDER BY n.tournament
"""
_CREATED: Final = "tournament_created"


def cut_of(described: Mapping[str, Any], stage: str) -> tuple[int, str]:
    """The places of ``stage`` that go on, and the stage they go on to, for a tournament
    as :func:`tournaments` describes it (R-TS3): the preliminaries of a tournament with
    a semi-final send it their own number, the stage before the final its cut.

    >>> told = {"cut": 6, "semifinal": True, "semifinal_cut": 12}
    >>> cut_of(told, "preliminary"), cut_of(told, "semifinal")
    ((12, 'semifinal'), (6, 'final'))
    """
    if stage == "preliminary" and described["semifinal"]:
        return int(described["semifinal_cut"]), "semifinal"
    return int(described["cut"]), "final"


def tournaments(store: Source) -> pl.DataFrame:
    """Every tournament (described, or named by a game): id, name, cut, stages, games,
    and when it was created (its ``tournament_created`` was stored, as the store's
    reading side tells: :func:`ingest.store.first_stored`; null for one only games
    name). Over a store or a lake's connection (:func:`analytics.lake.connect`)."""
    with connection(store) as con:
        described: pl.DataFrame = con.sql(_TOURNAMENTS).pl()
        created = first_stored(con, _CREATED)
    times = pl.DataFrame(
        {
            "tournament": [stream.removeprefix("tournament:") for stream, _ in created],
            "created_at": [moment for _, moment in created],
        },
        schema={"tournament": pl.String, "created_at": pl.Datetime("us", "UTC")},
    )
    return described.join(times, on="tournament", how="left")


def stage_counts(store: Store, tournament: str, stage: str) -> tuple[int, int]:
    """Games and rounds stored for a tournament's stage."""
    frame = query(
        store,
        "SELECT count(*) AS games, coalesce(sum(rounds_played), 0) AS rounds FROM games "
        "WHERE tournament = ? AND coalesce(stage, 'preliminary') = ?",
        [tournament, stage],
    )
    return int(frame["games"][0]), int(frame["rounds"][0])


def rulesets(store: Source) -> list[str]:
    """The rulesets of the stored games, the one with the most rounds played first (a
    page choosing one opens on the most trials, not the first by name)."""
    frame = query(store, "SELECT ruleset FROM games GROUP BY ruleset ORDER BY sum(rounds_played) DESC, ruleset")
    return [str(r) for r in frame["ruleset"]]


_PLAYER_ROUNDS: Final = """
SELECT g.tournament, coalesce(g.stage, '') AS stage, g.tournament_round, g.table_label AS table, r.ruleset,
       rp.game_id, rp.round, coalesce(r.started_at, g.started_at) AS started_at, rp.seat, rp.role,
       coalesce(rp.replay_points, rp.recorded_points) AS points, rp.recorded_points, rp.replay_points,
       rp.star, rp.connector,
       -- a round ended before it was over, or a score sheet's that fits no outcome of the
       -- rules, has no winner to count: won or lost, as the statistics count it
       CASE WHEN {decided} THEN rp.won END AS won,
       CASE WHEN {decided} THEN r.winner END AS winner
FROM round_players rp
JOIN rounds r ON r.game_id = rp.game_id AND r.round = rp.round
JOIN games g ON g.game_id = rp.game_id
WHERE rp.player = ? AND {scope}
ORDER BY coalesce(r.started_at, g.started_at) NULLS LAST, rp.game_id, rp.round
""".replace("{decided}", DECIDED)


def player_rounds(store: Store, player: str, tournament: str | None = None) -> pl.DataFrame:
    """A player's finished rounds in time order, with the running total of points: of
    each ruleset apart (``number`` and ``cumulative`` count the ``tournament`` rounds'
    points and the ``base`` rounds' nuggets each on their own, never added together)."""
    scope, params = ("g.tournament = ?", [tournament]) if tournament is not None else ("TRUE", [])
    frame = query(store, _PLAYER_ROUNDS.replace("{scope}", scope), [player, *params])
    return frame.with_columns(
        number=pl.int_range(1, pl.len() + 1).over("ruleset"),
        cumulative=pl.col("points").fill_null(0).cum_sum().over("ruleset"),
    )


@dataclass(frozen=True, slots=True)
class RoundQuery:
    """Which rounds the Rounds page lists."""

    tournament: str | None = None
    tournament_round: int | None = None
    table: str | None = None
    round: int | None = None
    code: str | None = None
    verdict: str | None = None
    """``clean`` or ``violations``; ``None`` for both."""


_ROUND_FRAGMENTS: Final = {
    "tournament": "g.tournament = ?",
    "tournament_round": "g.tournament_round = ?",
    "table": "g.table_label = ?",
    "round": "r.round = ?",
    "code": "EXISTS (SELECT 1 FROM findings x WHERE x.game_id = r.game_id AND x.round = r.round AND x.code = ?)",
}

_ROUNDS: Final = """
WITH found AS (
    SELECT game_id, round, list_sort(list(DISTINCT code)) AS codes,
           count(*) FILTER (WHERE severity = 'error') AS errors,
           count(*) FILTER (WHERE severity = 'warning') AS warnings
    FROM findings WHERE round IS NOT NULL GROUP BY game_id, round
),
listed AS (
    SELECT g.tournament, g.stage, g.tournament_round, g.table_label AS table, r.game_id, r.round, g.source,
           r.players, r.winner, r.connector, r.ended_by, r.turns,
           greatest(r.errors, coalesce(f.errors, 0))::INTEGER AS errors,
           coalesce(f.warnings, 0)::INTEGER AS warnings,
           coalesce(f.codes, []::VARCHAR[]) AS codes, r.started_at
    FROM rounds r JOIN games g ON g.game_id = r.game_id
    LEFT JOIN found f ON f.game_id = r.game_id AND f.round = r.round
    WHERE {where}
)
SELECT *, CASE WHEN errors > 0 THEN format('{} violation{}', errors, CASE WHEN errors = 1 THEN '' ELSE 's' END)
               WHEN warnings > 0 THEN 'clean, with warnings' ELSE 'clean' END AS verdict,
       count(*) OVER () AS matched
FROM listed
WHERE {verdict}
ORDER BY tournament NULLS LAST, tournament_round NULLS LAST, {by_table}, game_id, round
LIMIT ?
""".replace("{by_table}", by_table('"table"'))


def rounds(store: Store, selection: RoundQuery, limit: int) -> pl.DataFrame:
    """The rounds that match (at most ``limit``), each with ``matched``: how many did."""
    clauses: list[str] = []
    params: list[Any] = []
    for name, fragment in _ROUND_FRAGMENTS.items():
        value = getattr(selection, name)
        if value is not None:
            clauses.append(fragment)
            params.append(value)
    verdict = {"clean": "errors = 0", "violations": "errors > 0"}.get(selection.verdict or "", "TRUE")
    sql = _ROUNDS.replace("{where}", " AND ".join(clauses) or "TRUE").replace("{verdict}", verdict)
    return query(store, sql, [*params, limit])


def choices(store: Store, tournament: str | None) -> dict[str, list[Any]]:
    """Values the rounds filters offer: finding codes, tournament rounds, tables."""
    scope, params = ("tournament = ?", [tournament]) if tournament is not None else ("TRUE", [])
    found = query(store, "SELECT DISTINCT code FROM findings ORDER BY code")
    games_found = query(
        store,
        f"SELECT list_sort(list(DISTINCT tournament_round)) AS rounds, list_sort(list(DISTINCT table_label)) AS tables "
        f"FROM games WHERE {scope}",
        params,
    )
    rounds_found = games_found["rounds"][0]
    tables_found = games_found["tables"][0]
    return {
        "codes": [str(c) for c in found["code"]],
        "tournament_rounds": [
            int(r) for r in (rounds_found.to_list() if rounds_found is not None else []) if r is not None
        ],
        "tables": sorted(
            (str(t) for t in (tables_found.to_list() if tables_found is not None else []) if t is not None),
            key=table_key,
        ),
    }


def round_findings(store: Store, game_id: str, number: int) -> pl.DataFrame:
    """The findings of one round, in line order."""
    return query(
        store,
        "SELECT line, player, code, rule, severity, message, said FROM findings "
        "WHERE game_id = ? AND round = ? ORDER BY line, player, code, message",
        [game_id, number],
    )


def games(store: Store, tournament: str | None) -> pl.DataFrame:
    """The games of a tournament (``None``: the games of no tournament)."""
    scope, params = ("tournament = ?", [tournament]) if tournament is not None else ("tournament IS NULL", [])
    return query(
        store,
        f"SELECT game_id, source, stage, tournament_round, table_label AS table, players, rounds_played, status "
        f"FROM games WHERE {scope} ORDER BY tournament_round NULLS LAST, {by_table('table_label')}, game_id",
        params,
    )


def game_players(store: Store, game_id: str) -> list[str]:
    """The players of a stored game, in seating order (none for a game not stored)."""
    frame = query(store, "SELECT player_ids FROM games WHERE game_id = ?", [game_id])
    return [str(p) for p in frame["player_ids"][0]] if frame.height else []


def player_names(store: Store, tournament: str) -> dict[str, str]:
    """The display name of each player the tournament's records name, by player id."""
    frame = query(
        store, "SELECT player, name FROM tournament_players WHERE tournament = ? ORDER BY player", [tournament]
    )
    return {str(p): str(n) for p, n in frame.iter_rows() if n}


_LABELS: Final = """
SELECT player, CASE WHEN count(*) OVER (PARTITION BY {key}) > 1 THEN concat(name, ' (', player, ')')
                    ELSE name END AS name
FROM tournament_players WHERE tournament = ? AND name IS NOT NULL AND name <> ''
""".replace("{key}", NAME_KEY.replace("{name}", "name"))
"""The players of a tournament as a page names them: the registered name, with the id
where another player of the tournament is registered under the same name (as a person
reads it, :data:`analytics.standings.NAME_KEY`), as the standings tell them apart."""


def player_labels(store: Store, tournament: str) -> dict[str, str]:
    """Each registered player of the tournament as a page names them, by player id:
    "Jan Peters (jan-a)" beside "Jan Peters (jan-b)", where :func:`player_names` gives
    "Jan Peters" twice (a command adds the id to every name it prints)."""
    frame = query(store, f"SELECT player, name FROM ({_LABELS}) ORDER BY player", [tournament])
    return {str(p): str(n) for p, n in frame.iter_rows()}


def registered_names(store: Store) -> dict[str, list[str]]:
    """Every name each player was registered under, the newest tournament's first (by
    when each tournament was created; one no creation names, last): a player who
    changed their name between tournaments is found by either, the name they go by
    now first."""
    with connection(store) as con:
        rows = con.sql("SELECT tournament, player, name FROM tournament_players WHERE name <> ''").fetchall()
        created = dict(first_stored(con, _CREATED))

    def newest_first(row: tuple[Any, ...]) -> tuple[bool, str, str]:
        moment = created.get(f"tournament:{row[0]}")
        return moment is not None, "" if moment is None else moment.isoformat(), str(row[0])

    known: dict[str, list[str]] = {}
    for _, player, name in sorted(rows, key=newest_first, reverse=True):
        names = known.setdefault(str(player), [])
        if str(name) not in names:
            names.append(str(name))
    return known


def games_people(store: Store, game_ids: Sequence[str]) -> dict[str, str]:
    """The display name of each player the records of these games' tournaments name,
    by player id (a page's findings of a file name its players so). An id two of those
    tournaments name differently stays an id: either name could be the wrong person."""
    frame = query(
        store,
        "SELECT p.player, any_value(p.name) FROM games g JOIN tournament_players p USING (tournament) "
        "WHERE list_contains(?, g.game_id) AND p.name IS NOT NULL AND p.name <> '' "
        "GROUP BY p.player HAVING count(DISTINCT p.name) = 1 ORDER BY p.player",
        [list(game_ids)],
    )
    return {str(p): str(n) for p, n in frame.iter_rows()}


_SEATINGS: Final = """
SELECT s.tournament_round, s.stage, s.table_label AS table, s.seat, s.player, p.name, t.ruleset
FROM seatings s JOIN tournaments t USING (tournament)
LEFT JOIN ({labels}) p ON p.player = s.player
WHERE s.tournament = ?
ORDER BY s.tournament_round, s.stage, {by_table}, s.seat
""".replace("{labels}", _LABELS).replace("{by_table}", by_table("s.table_label"))


def seatings(store: Store, tournament: str) -> pl.DataFrame:
    """Every seat of the tournament's published seatings (the newest of each round):
    round, stage, table, seat, player, the name as a page names them
    (:func:`player_labels`: two "Jan Peters" told apart by their ids, so each finds
    their table), and the tournament's ruleset — the tables a referee may record."""
    return query(store, _SEATINGS, [tournament, tournament])


def game_lines(store: Store, game_id: str, *, observed: bool = False) -> list[LogLine] | None:
    """A stored game's newest version as parsed log lines; ``None`` for a score sheet
    (no events to step through), a game not stored, or one that cannot be read.

    ``observed``: the lines of the observed log of the same game
    (:func:`events.observe.observe`, line for line) — what the table saw, and nothing
    hidden; a log that is observed already, as it is.
    """
    with store.connect(read_only=True) as con:
        events = current(store.read(con, f"game:{game_id}")).events
    if not events or events[0].type == "score_sheet_game":
        return None
    texts = list(stored_texts((e.type, e.payload, e.line) for e in events))
    if observed:
        with suppress(AlreadyObserved):
            seen = list(observe_lines(text for _, text in texts))
            texts = [(number, text) for (number, _), text in zip(texts, seen, strict=True)]
    try:
        return list(parse_numbered(texts))
    except UnreadableLog:
        return None


_FINDINGS: Final = (
    """
SELECT g.tournament, f.finding_id, f.game_id, g.tournament_round, g.table_label AS table, f.round, f.line, f.player,
       f.code, f.rule, f.severity, f.message, f.said,
       {status} AS status
FROM {every_finding} f JOIN games g ON g.game_id = f.game_id
WHERE {scope}
ORDER BY g.tournament NULLS LAST, g.tournament_round NULLS LAST, {by_table}, f.game_id, f.line NULLS FIRST,
         f.player, f.code, f.finding_id
""".replace("{every_finding}", EVERY_FINDING)
    .replace("{status}", FINDING_STATUS.replace("{tournament}", "g.tournament"))
    .replace("{by_table}", by_table("g.table_label"))
)

FINDING_STATUSES: Final = ("open", "dismissed", "penalised", "settled")
"""What became of a finding (the audit's, and the seating's ``wrong_table``:
:data:`analytics.standings.MISSEATED`): still ``open``; ``dismissed`` with a reason; ``penalised``
(a penalty names it); ``settled`` (a ``wrong_score`` whose round's replay was accepted,
or whose player's score was corrected so that the round is what the rules give:
:func:`analytics.standings.still_wrong`)."""


def _findings(store: Store, scope: str, params: Sequence[Any], tournament: str | None) -> pl.DataFrame:
    with connection(store) as con:
        sql = with_still_wrong(_FINDINGS.replace("{scope}", scope), con, tournament)
        frame: pl.DataFrame = con.sql(sql, params=list(params)).pl()
        return frame


def findings(store: Store, tournament: str | None = None) -> pl.DataFrame:
    """Every finding of a tournament's games (``None``: of every stored game), with its
    ``status`` (:data:`FINDING_STATUSES`) and the ``finding_id`` the tournament's record
    dismisses or penalises it by."""
    scope, params = ("g.tournament = ?", [tournament]) if tournament is not None else ("TRUE", [])
    return _findings(store, scope, params, tournament)


def round_moments(store: Source, tournament: str, stage: str) -> pl.DataFrame:
    """For each tournament round of a stage, the moment its last game came into the
    store: the end of the ingest that stored it (the store never stood halfway through
    one), as the event ``position`` the standings can be projected to
    (``standings(as_of=...)``), and its time. A game came in when its first version did:
    one superseded after the next rounds were in moved its round's moment after theirs.
    Rounds stored in one ingest share their moment; a round's games stored out of order
    (one of round 3 before round 2's last) are in as of that moment, as they were. Only
    the moments once the tournament was created: before, it had no standings."""
    return query(
        store,
        """
        SELECT r.tournament_round, max(x.position) AS position, any_value(x.recorded_at) AS recorded_at
        FROM (
            SELECT tournament_round, max(came) AS last
            FROM (
                SELECT g.game_id, g.tournament_round, min(e.position) AS came
                FROM games g JOIN events e ON e.stream = 'game:' || g.game_id
                WHERE g.tournament = ? AND coalesce(g.stage, 'preliminary') = ? AND g.tournament_round IS NOT NULL
                GROUP BY g.game_id, g.tournament_round
            )
            GROUP BY tournament_round
        ) r
        JOIN events l ON l.position = r.last
        JOIN events x ON x.recorded_at = l.recorded_at
        GROUP BY r.tournament_round
        HAVING max(x.position) >= (SELECT min(position) FROM events WHERE stream = 'tournament:' || ?)
        ORDER BY r.tournament_round
        """,
        [tournament, stage, tournament],
    )


def uploads(store: Store, most: int = 500) -> pl.DataFrame:
    """The files received, the newest first (``most`` of them): what each was, what
    became of it, why (``reason`` in English, and ``reason_said``: its sentence, which
    a refused file's report keeps since schema version 11; null in older ones), and its
    audit's counts of errors and warnings (from the report kept with it: a file refused
    whole has no findings rows). Every upload is kept, a refused one too: this is the
    history an organiser looks a file up in."""
    return query(
        store,
        """
        SELECT upload_id, received_at, name, kind, outcome, status, game_ids, duplicate_of, supersedes, reason,
               -- why a file was refused, as a sentence to say in the reader's language
               json_extract_string(report, '$.rejected_said') AS reason_said,
               coalesce(TRY_CAST(json_extract(report, '$.errors') AS INTEGER), 0) AS errors,
               coalesce(TRY_CAST(json_extract(report, '$.warnings') AS INTEGER), 0) AS warnings
        FROM uploads ORDER BY upload_id DESC LIMIT ?
        """,
        [most],
    )


def upload_report(store: Store, upload_id: int) -> dict[str, Any] | None:
    """The audit report kept with an upload (``saboteur audit --json``'s object), or
    ``None`` if there is no such upload."""
    found = query(store, "SELECT report FROM uploads WHERE upload_id = ?", [upload_id])
    if found.is_empty():
        return None
    report = json.loads(str(found["report"][0]))
    return report if isinstance(report, dict) else None


def upload_findings(store: Store, uploads: Sequence[int]) -> pl.DataFrame:
    """The findings of the uploads named (by ``upload_id``), in upload and line order."""
    return query(
        store,
        "SELECT upload_id, finding_id, line, round, player, code, rule, severity, message, said FROM findings "
        "WHERE list_contains(?, upload_id) ORDER BY upload_id, line NULLS FIRST, code, finding_id",
        [list(uploads)],
    )


def open_findings(store: Store, tournament: str | None) -> pl.DataFrame:
    """Findings not dismissed nor turned into a penalty, and (for ``wrong_score``) not
    settled by an accepted replay of their round or a correction that put it right;
    ``None``: the games of no tournament."""
    scope, params = ("g.tournament = ?", [tournament]) if tournament is not None else ("g.tournament IS NULL", [])
    found = _findings(store, scope, params, tournament)
    return found.filter(pl.col("status") == "open").drop("tournament", "status")


_ROUND_SCORES: Final = """
WITH asked AS (SELECT ?::VARCHAR AS tournament, ?::VARCHAR AS game_id, ?::INTEGER AS round),
corrected AS ({newest_corrections})
SELECT rp.player, rp.role, rp.recorded_points AS recorded, rp.replay_points AS replay, c.points AS corrected,
       EXISTS (SELECT 1 FROM accepted_replays a WHERE a.tournament = asked.tournament AND a.game_id = rp.game_id
               AND a.round = rp.round) AS replay_accepted,
       {points_as_counted} AS counted
FROM round_players rp JOIN asked USING (game_id, round)
LEFT JOIN corrected c ON c.tournament = asked.tournament AND c.game_id = rp.game_id AND c.round = rp.round
                     AND c.player = rp.player
ORDER BY rp.seat
""".replace("{newest_corrections}", NEWEST_CORRECTIONS).replace(
    "{points_as_counted}", POINTS_AS_COUNTED.replace("{tournament}", "asked.tournament")
)


def round_scores(store: Store, tournament: str, game_id: str, number: int) -> pl.DataFrame:
    """Each player's recorded, replayed and corrected points in one round (the newest
    correction, one made before a replay accepted since replaced by it), and the points
    that count (:data:`analytics.standings.POINTS_AS_COUNTED`, the standings' own)."""
    return query(store, _ROUND_SCORES, [tournament, game_id, number])


def penalties(store: Store, tournament: str) -> pl.DataFrame:
    """Every penalty of a tournament that counts (not withdrawn), oldest first: its
    number, player, stage, points, reason — public, so a player reads why their points
    were taken."""
    return query(
        store,
        "SELECT number, player, stage, points, reason FROM penalties "
        "WHERE tournament = ? AND withdrawn_seq IS NULL ORDER BY seq",
        [tournament],
    )


_PLAYER_GAMES: Final = """
SELECT g.game_id, coalesce(g.stage, 'preliminary') AS stage, g.tournament_round, g.table_label AS table,
       -- a score sheet lists its players in any order: it says no seat
       CASE WHEN g.source = 'score_sheet' THEN NULL ELSE list_position(g.player_ids, $player) END::INTEGER AS seat,
       list_filter(g.player_ids, lambda x: x <> $player) AS opponents
FROM games g
WHERE g.tournament = $tournament AND list_contains(g.player_ids, $player)
ORDER BY g.tournament_round NULLS LAST, g.started_at NULLS LAST, g.game_id
"""


def player_games(store: Store, tournament: str, player: str) -> pl.DataFrame:
    """The games a player sat at in a tournament, in round order: stage, tournament
    round, table, their seat (null for a score sheet's game, which records none) and
    the ids of the others at the table (in seat order)."""
    with store.connect(read_only=True) as con:
        frame: pl.DataFrame = con.sql(_PLAYER_GAMES, params={"tournament": tournament, "player": player}).pl()
        return frame
