"""The dashboard's data: calls into ``analytics/`` and ``ingest/``, cached per store state.

Every read opens the DuckDB file read-only for one query and closes it (a connection
held open would lock ``saboteur ingest`` out: DuckDB admits one writing process and no
reader beside it). Results are kept with ``st.cache_data`` under a *stamp* of the store
— the size and modification time of the database file and its write-ahead log, read
with ``stat`` and no connection at all — so a change made by anyone (an upload here, an
``ingest`` or ``tournament`` command beside the dashboard) is seen on the next page
run, and unchanged data is never read twice. After an upload or a record the caches
are cleared as well.

Where ``analytics/`` has no function for what a page shows (a player's rounds, the
list of rounds with their findings, a game's stored lines), a small parameterised query
lives here; filters add fixed SQL fragments and their values travel as parameters.
Nothing runs at import time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import polars as pl
import streamlit as st

from analytics import records, stats
from analytics.filters import Filters
from analytics.intervals import wilson
from analytics.standings import standings as standings_of
from dashboard.replay_view import GameView, game_view
from events.logfile import UnreadableLog
from ingest.pipeline import BATCH_FILES, Writer
from ingest.sources import prepare_bytes, stored_lines
from ingest.store import Store, default_path
from ingest.verify import verify

Stamp = tuple[int, ...]
"""The store's state as the file system sees it: changes whenever anything is written."""

WAIT: Final = 15.0
"""Seconds a page waits for a database another process is writing."""
ROUNDS_SHOWN: Final = 500
"""Rows of the rounds list sent to the browser (the count says how many matched)."""


# -- the store -------------------------------------------------------------------------


def db_path() -> Path:
    """The store: ``--db PATH`` after ``streamlit run dashboard/app.py --``, else
    ``$SABOTEUR_DB``, else ``./saboteur.duckdb`` (as the command line)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--db")
    known, _ = parser.parse_known_args(sys.argv[1:])
    return Path(known.db) if known.db else default_path()


def store() -> Store:
    return Store(db_path(), wait=WAIT)


def exists() -> bool:
    return db_path().exists()


def stamp(path: Path | None = None) -> Stamp:
    """Size and modification time of the database file and its write-ahead log."""
    path = path or db_path()
    parts: list[int] = []
    for candidate in (path, Path(f"{path}.wal")):
        try:
            info = os.stat(candidate)
        except FileNotFoundError:
            parts.extend((0, 0))
        else:
            parts.extend((info.st_mtime_ns, info.st_size))
    return tuple(parts)


def _key() -> tuple[str, Stamp]:
    path = db_path()
    return str(path.resolve()), stamp(path)


def _query(db: str, sql: str, params: Sequence[Any] = ()) -> pl.DataFrame:
    with Store(db, wait=WAIT).connect(read_only=True) as con:
        frame: pl.DataFrame = con.sql(sql, params=list(params)).pl()
        return frame


def clear() -> None:
    """Forget every cached result (after an upload or a record)."""
    st.cache_data.clear()


# -- tournaments and standings -----------------------------------------------------------

_TOURNAMENTS: Final = """
WITH named AS (SELECT tournament FROM tournaments UNION SELECT tournament FROM games WHERE tournament IS NOT NULL)
SELECT n.tournament, coalesce(t.name, n.tournament) AS name, coalesce(t.cut, 6) AS cut,
       t.preliminary_rounds, t.final_rounds, coalesce(t.semifinal, false) AS semifinal,
       (SELECT count(*) FROM games g WHERE g.tournament = n.tournament) AS games
FROM named n LEFT JOIN tournaments t USING (tournament)
ORDER BY n.tournament
"""


@st.cache_data(show_spinner=False, max_entries=16)
def _tournaments(db: str, when: Stamp) -> pl.DataFrame:
    return _query(db, _TOURNAMENTS)


def tournaments() -> pl.DataFrame:
    """Every tournament (described, or named by a game): id, name, cut, stages, games."""
    return _tournaments(*_key())


def stages(tournament: str) -> list[str]:
    """The stages a tournament's standings can be asked for."""
    row = tournaments().filter(pl.col("tournament") == tournament)
    semifinal = bool(row["semifinal"][0]) if row.height else False
    return ["preliminary", *(["semifinal"] if semifinal else []), "final"]


@st.cache_data(show_spinner=False, max_entries=64)
def _standings(db: str, when: Stamp, tournament: str, stage: str) -> pl.DataFrame:
    return standings_of(Store(db, wait=WAIT), tournament, stage=stage)


def standings(tournament: str, stage: str) -> pl.DataFrame:
    """:func:`analytics.standings.standings` now."""
    return _standings(*_key(), tournament, stage)


@st.cache_data(show_spinner=False, max_entries=64)
def _stage_counts(db: str, when: Stamp, tournament: str, stage: str) -> tuple[int, int]:
    frame = _query(
        db,
        "SELECT count(*) AS games, coalesce(sum(rounds_played), 0) AS rounds FROM games "
        "WHERE tournament = ? AND coalesce(stage, 'preliminary') = ?",
        [tournament, stage],
    )
    return int(frame["games"][0]), int(frame["rounds"][0])


def stage_counts(tournament: str, stage: str) -> tuple[int, int]:
    """Games and rounds stored for a tournament's stage."""
    return _stage_counts(*_key(), tournament, stage)


# -- the record's integrity ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verification:
    """One walk of the hash chain, and when it ran."""

    at: datetime
    events: int
    head: str
    ok: bool
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Integrity:
    events: int
    head: str
    verified: Verification | None


@st.cache_resource(show_spinner=False)
def _verifications() -> dict[str, Verification]:
    """The newest verification of each store, for as long as the dashboard runs."""
    return {}


@st.cache_data(show_spinner=False, max_entries=16)
def _head(db: str, when: Stamp) -> tuple[int, str]:
    store_ = Store(db, wait=WAIT)
    with store_.connect(read_only=True) as con:
        return store_.head(con)


def integrity() -> Integrity:
    """The number of events, the chain head, and the last verification here."""
    db, when = _key()
    events, head = _head(db, when)
    return Integrity(events, head, _verifications().get(db))


def verify_chain() -> Verification:
    """Recompute the hash chain now (:func:`ingest.verify.verify`, chain only)."""
    db, _ = _key()
    verdict = verify(Store(db, wait=WAIT), read_models=False)
    done = Verification(datetime.now(UTC), verdict.events, verdict.head, verdict.ok, tuple(verdict.problems))
    _verifications()[db] = done
    return done


# -- roles and players ---------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _role_win_rates(db: str, when: Stamp, filters: Filters) -> pl.DataFrame:
    return stats.role_win_rates(Store(db, wait=WAIT), filters)


def role_win_rates(filters: Filters) -> pl.DataFrame:
    """:func:`analytics.stats.role_win_rates` with a ``table`` label for the chart."""
    frame = _role_win_rates(*_key(), filters)
    return frame.with_columns(
        table=pl.format("{} players, {} sab.", pl.col("players"), pl.col("saboteurs")),
    )


@st.cache_data(show_spinner=False, max_entries=16)
def _rulesets(db: str, when: Stamp) -> list[str]:
    return [str(r) for r in _query(db, "SELECT DISTINCT ruleset FROM games ORDER BY ruleset")["ruleset"]]


def rulesets() -> list[str]:
    return _rulesets(*_key())


@st.cache_data(show_spinner=False, max_entries=32)
def _player_stats(db: str, when: Stamp, filters: Filters) -> pl.DataFrame:
    return stats.player_stats(Store(db, wait=WAIT), filters)


def player_stats(filters: Filters) -> pl.DataFrame:
    """:func:`analytics.stats.player_stats`: every player's rounds, wins and points."""
    return _player_stats(*_key(), filters)


_PLAYER_ROUNDS: Final = """
SELECT g.tournament, coalesce(g.stage, '') AS stage, g.tournament_round, g.table_label AS table,
       rp.game_id, rp.round, coalesce(r.started_at, g.started_at) AS started_at, rp.seat, rp.role,
       coalesce(rp.replay_points, rp.recorded_points) AS points, rp.recorded_points, rp.replay_points,
       rp.star, rp.won, rp.connector, r.winner
FROM round_players rp
JOIN rounds r ON r.game_id = rp.game_id AND r.round = rp.round
JOIN games g ON g.game_id = rp.game_id
WHERE rp.player = ? AND {scope}
ORDER BY coalesce(r.started_at, g.started_at) NULLS LAST, rp.game_id, rp.round
"""


@st.cache_data(show_spinner=False, max_entries=64)
def _player_rounds(db: str, when: Stamp, player: str, tournament: str | None) -> pl.DataFrame:
    scope, params = ("g.tournament = ?", [tournament]) if tournament is not None else ("TRUE", [])
    frame = _query(db, _PLAYER_ROUNDS.replace("{scope}", scope), [player, *params])
    return frame.with_columns(
        number=pl.int_range(1, pl.len() + 1),
        cumulative=pl.col("points").fill_null(0).cum_sum(),
    )


def player_rounds(player: str, tournament: str | None = None) -> pl.DataFrame:
    """A player's finished rounds in time order, with the running total of points."""
    return _player_rounds(*_key(), player, tournament)


def player_roles(rounds: pl.DataFrame) -> pl.DataFrame:
    """Per role: rounds, wins, the win rate with its Wilson 95% interval, points."""
    grouped = (
        rounds.group_by("role")
        .agg(
            rounds=pl.len(),
            wins=pl.col("won").sum(),
            points=pl.col("points").sum(),
            stars=pl.col("star").sum(),
        )
        .sort("role")
    )
    bounds = [wilson(int(w), int(n)) or (None, None) for w, n in zip(grouped["wins"], grouped["rounds"], strict=True)]
    return grouped.with_columns(
        rate=pl.col("wins") / pl.col("rounds"),
        low=pl.Series([b[0] for b in bounds], dtype=pl.Float64),
        high=pl.Series([b[1] for b in bounds], dtype=pl.Float64),
    )


# -- rounds ----------------------------------------------------------------------------


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
ORDER BY tournament NULLS LAST, tournament_round NULLS LAST, try_cast("table" AS INTEGER) NULLS LAST, "table",
         game_id, round
LIMIT ?
"""


@st.cache_data(show_spinner=False, max_entries=64)
def _rounds(db: str, when: Stamp, query: RoundQuery, limit: int) -> pl.DataFrame:
    clauses: list[str] = []
    params: list[Any] = []
    for name, fragment in _ROUND_FRAGMENTS.items():
        value = getattr(query, name)
        if value is not None:
            clauses.append(fragment)
            params.append(value)
    verdict = {"clean": "errors = 0", "violations": "errors > 0"}.get(query.verdict or "", "TRUE")
    sql = _ROUNDS.replace("{where}", " AND ".join(clauses) or "TRUE").replace("{verdict}", verdict)
    return _query(db, sql, [*params, limit])


def rounds(query: RoundQuery, limit: int = ROUNDS_SHOWN) -> tuple[pl.DataFrame, int]:
    """The rounds that match (at most ``limit``) and how many matched in all."""
    frame = _rounds(*_key(), query, limit)
    matched = int(frame["matched"][0]) if frame.height else 0
    return frame.drop("matched"), matched


@st.cache_data(show_spinner=False, max_entries=16)
def _choices(db: str, when: Stamp, tournament: str | None) -> dict[str, list[Any]]:
    scope, params = ("tournament = ?", [tournament]) if tournament is not None else ("TRUE", [])
    found = _query(db, "SELECT DISTINCT code FROM findings ORDER BY code")
    games = _query(
        db,
        f"SELECT list_sort(list(DISTINCT tournament_round)) AS rounds, list_sort(list(DISTINCT table_label)) AS tables "
        f"FROM games WHERE {scope}",
        params,
    )
    rounds_found = games["rounds"][0]
    tables_found = games["tables"][0]
    return {
        "codes": [str(c) for c in found["code"]],
        "tournament_rounds": [
            int(r) for r in (rounds_found.to_list() if rounds_found is not None else []) if r is not None
        ],
        "tables": sorted(
            (str(t) for t in (tables_found.to_list() if tables_found is not None else []) if t is not None),
            key=lambda t: (not t.isdigit(), int(t) if t.isdigit() else 0, t),
        ),
    }


def choices(tournament: str | None) -> dict[str, list[Any]]:
    """Values the Rounds filters offer: finding codes, tournament rounds, tables."""
    return _choices(*_key(), tournament)


@st.cache_data(show_spinner=False, max_entries=64)
def _round_findings(db: str, when: Stamp, game_id: str, number: int) -> pl.DataFrame:
    return _query(
        db,
        "SELECT line, player, code, rule, severity, message FROM findings "
        "WHERE game_id = ? AND round = ? ORDER BY line",
        [game_id, number],
    )


def round_findings(game_id: str, number: int) -> pl.DataFrame:
    """The findings of one round, in line order."""
    return _round_findings(*_key(), game_id, number)


# -- replay ----------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=16)
def _games(db: str, when: Stamp, tournament: str | None) -> pl.DataFrame:
    scope, params = ("tournament = ?", [tournament]) if tournament is not None else ("tournament IS NULL", [])
    return _query(
        db,
        f"SELECT game_id, source, stage, tournament_round, table_label AS table, players, rounds_played, status "
        f"FROM games WHERE {scope} ORDER BY tournament_round NULLS LAST, try_cast(table_label AS INTEGER) NULLS LAST, "
        f"table_label, game_id",
        params,
    )


def games(tournament: str | None) -> pl.DataFrame:
    """The games of a tournament (``None``: the games of no tournament)."""
    return _games(*_key(), tournament)


@st.cache_data(show_spinner=False, max_entries=8)
def _game_view(db: str, when: Stamp, game_id: str) -> GameView | None:
    with Store(db, wait=WAIT).connect(read_only=True) as con:
        rows = con.execute(
            "SELECT type, payload, line FROM events WHERE stream = ? ORDER BY version", [f"game:{game_id}"]
        ).fetchall()
    markers = [i for i, row in enumerate(rows) if str(row[0]).endswith("_superseded")]
    current = rows[markers[-1] + 1 :] if markers else rows
    if not current or current[0][0] == "score_sheet_game":
        return None
    try:
        return game_view(stored_lines((str(t), str(p), line) for t, p, line in current))
    except UnreadableLog:
        return None


def game(game_id: str) -> GameView | None:
    """A stored game's newest version, replayed into frames; ``None`` for a score sheet
    (no events to step through) or a game not stored."""
    return _game_view(*_key(), game_id)


# -- organiser: uploads and records --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UploadResult:
    """What became of one uploaded file, with the findings of its audit."""

    name: str
    outcome: str
    kind: str
    status: str
    game_ids: tuple[str, ...]
    upload_id: int
    errors: int
    message: str
    findings: tuple[dict[str, Any], ...] = field(default_factory=tuple)


def ingest_files(
    files: Sequence[tuple[str, bytes]], *, supersede: bool = False, reason: str | None = None
) -> list[UploadResult]:
    """Audit and store uploaded files: :func:`ingest.sources.prepare_bytes` and the
    ingest's :class:`~ingest.pipeline.Writer`, the same path as ``saboteur ingest``."""
    writer = Writer(Store(db_path(), wait=WAIT), supersede=supersede, reason=reason)
    results: list[UploadResult] = []
    for start in range(0, len(files), BATCH_FILES):
        prepared = [prepare_bytes(name, raw) for name, raw in files[start : start + BATCH_FILES]]
        for item, result in zip(prepared, writer.write(prepared), strict=True):
            try:
                found = tuple(json.loads(item.report).get("violations", []))
            except (ValueError, AttributeError):
                found = ()
            results.append(
                UploadResult(
                    result.name,
                    result.outcome,
                    result.kind,
                    result.status,
                    result.game_ids,
                    result.upload_id,
                    result.errors,
                    result.message,
                    found,
                )
            )
    clear()
    return results


_OPEN_FINDINGS: Final = """
SELECT f.finding_id, f.game_id, g.tournament_round, g.table_label AS table, f.round, f.line, f.player,
       f.code, f.rule, f.severity, f.message
FROM findings f JOIN games g ON g.game_id = f.game_id
WHERE {scope}
  AND NOT EXISTS (SELECT 1 FROM dismissals d WHERE d.tournament = g.tournament AND d.finding_id = f.finding_id)
  AND NOT (f.code = 'wrong_score' AND (
        EXISTS (SELECT 1 FROM accepted_replays a
                WHERE a.tournament = g.tournament AND a.game_id = f.game_id AND a.round = f.round)
     OR EXISTS (SELECT 1 FROM corrections c
                WHERE c.tournament = g.tournament AND c.game_id = f.game_id AND c.round = f.round)))
ORDER BY g.tournament_round NULLS LAST, try_cast(g.table_label AS INTEGER) NULLS LAST, f.game_id, f.line
"""


@st.cache_data(show_spinner=False, max_entries=16)
def _open_findings(db: str, when: Stamp, tournament: str | None) -> pl.DataFrame:
    scope, params = ("g.tournament = ?", [tournament]) if tournament is not None else ("g.tournament IS NULL", [])
    return _query(db, _OPEN_FINDINGS.replace("{scope}", scope), params)


def open_findings(tournament: str | None) -> pl.DataFrame:
    """Findings not dismissed, and (for ``wrong_score``) not settled by an accepted
    replay or a correction of their round; ``None``: the games of no tournament."""
    return _open_findings(*_key(), tournament)


@st.cache_data(show_spinner=False, max_entries=32)
def _round_scores(db: str, when: Stamp, tournament: str, game_id: str, number: int) -> pl.DataFrame:
    return _query(
        db,
        """
        SELECT rp.player, rp.role, rp.recorded_points AS recorded, rp.replay_points AS replay,
               (SELECT arg_max(c.points, c.seq) FROM corrections c WHERE c.tournament = ? AND c.game_id = rp.game_id
                AND c.round = rp.round AND c.player = rp.player) AS corrected,
               EXISTS (SELECT 1 FROM accepted_replays a WHERE a.tournament = ? AND a.game_id = rp.game_id
                       AND a.round = rp.round) AS replay_accepted
        FROM round_players rp WHERE rp.game_id = ? AND rp.round = ? ORDER BY rp.seat
        """,
        [tournament, tournament, game_id, number],
    )


def round_scores(tournament: str, game_id: str, number: int) -> pl.DataFrame:
    """Each player's recorded, replayed and corrected points in one round."""
    return _round_scores(*_key(), tournament, game_id, number)


def accept_replay(tournament: str, game_id: str, number: int, reason: str | None) -> records.Recorded:
    """:func:`analytics.records.accept_replay`: an appended event."""
    try:
        return records.accept_replay(store(), tournament, game_id, number, reason)
    finally:
        clear()


def correct(tournament: str, game_id: str, number: int, player: str, points: int, reason: str) -> records.Recorded:
    """:func:`analytics.records.correct`: an appended event."""
    try:
        return records.correct(store(), tournament, game_id, number, player, points, reason)
    finally:
        clear()


def dismiss(tournament: str, finding_id: str, reason: str) -> records.Recorded:
    """:func:`analytics.records.dismiss`: an appended event."""
    try:
        return records.dismiss(store(), tournament, finding_id, reason)
    finally:
        clear()
