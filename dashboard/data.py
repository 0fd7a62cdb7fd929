"""The dashboard's data: calls into ``analytics/`` and ``ingest/``, cached per store state.

Every read is a job of the store's (:meth:`ingest.store.Store.connect`): the server's
jobs take their turns at the file (:mod:`ingest.gate`), and under ``saboteur dashboard``
the file stays open a moment after the last of them, let go at once when another
process — ``saboteur ingest`` — waits for it (DuckDB admits one writing process and no
reader beside it). Results are kept with ``st.cache_data`` under a key of the store's
state read with ``stat`` and no connection at all: what reads the drafts (Tables in
play) under the *stamp* of the file (the size and modification time of the database
file and its write-ahead log), everything else under the count of the records' changes,
which a phone's draft append leaves as it was (:func:`_records_key`). So a change made
by anyone (an upload here, an ``ingest`` or ``tournament`` command beside the
dashboard) is seen on the next page run, and unchanged data is never read twice. After
an upload or a record the caches are cleared as well.

The queries themselves live in ``analytics/`` (``analytics.browse`` for what only the
pages need: a player's rounds, the list of rounds, open findings, a game's stored
lines); this module only caches them and clears the caches. Nothing runs at import time.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import math
import os
import re
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, TypeVar, cast

import polars as pl
import streamlit as st

from analytics import browse, records, stats
from analytics.browse import RoundQuery as RoundQuery
from analytics.carried import Carried, carried_over
from analytics.filters import Filters
from analytics.intervals import wilson
from analytics.lake import connect
from analytics.standings import misseated
from analytics.standings import scored_rounds as scored_rounds_of
from analytics.standings import standings as standings_of
from dashboard.markup import isolated
from dashboard.replay_view import GameView, game_view
from dashboard.table_view import TableView, table_view
from events.logfile import UnreadableLog
from events.recorder import NotObserved
from events.said import Said, say
from events.said import stored as stored_said
from ingest import gate as gates
from ingest.drafts import Draft, drafts
from ingest.gate import stamp as file_stamp
from ingest.lake.layout import MANIFEST, Lake
from ingest.pipeline import FileResult, Writer, write_all
from ingest.sources import Prepared, kind_of, prepare_bytes
from ingest.sources.files import UNHANDLED, with_sentences
from ingest.store import Store, StoreBusy, StoreUnusable, default_path
from ingest.verify import verify

Stamp = tuple[int, ...]
"""The store's state as the file system sees it: changes whenever anything is written."""

LAKE_VARIABLE: Final = "SABOTEUR_LAKE"
LINGER_VARIABLE: Final = "SABOTEUR_STORE_LINGER"
WAIT: Final = 15.0
"""Seconds a page waits for a database another process is writing."""
ROUNDS_SHOWN: Final = 500
"""Rows of the rounds list sent to the browser (the count says how many matched)."""

_log = logging.getLogger(__name__)


# -- the store -------------------------------------------------------------------------


def db_path() -> Path:
    """The store: ``--db PATH`` after ``streamlit run dashboard/app.py --``, else
    ``$SABOTEUR_DB``, else ``./saboteur.duckdb`` (as the command line)."""
    named = _named_db(tuple(sys.argv[1:]))
    return Path(named) if named else default_path()


@functools.lru_cache(maxsize=8)
def _named_db(argv: tuple[str, ...]) -> str | None:
    """``--db`` of the arguments (parsed once: every cached result's key asks for it)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--db")
    known, _ = parser.parse_known_args(list(argv))
    return str(known.db) if known.db else None


def lake_url() -> str | None:
    """The lake the Roles page reads instead of the store, read-only (issue 15): ``--lake
    URL`` after ``streamlit run dashboard/app.py --``, else ``$SABOTEUR_LAKE``, else none.
    Over a lake the pages that need the store (standings, upload, audit…) are closed."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--lake")
    known, _ = parser.parse_known_args(sys.argv[1:])
    return str(known.lake) if known.lake else os.environ.get(LAKE_VARIABLE) or None


def store() -> Store:
    return Store(db_path(), wait=WAIT)


def keep_store_open() -> None:
    """Keep the store open between this server's jobs for ``$SABOTEUR_STORE_LINGER``
    seconds (``saboteur dashboard`` sets it; none otherwise): a tap's append then costs
    no opening and closing of the file, and another process waiting for the file still
    gets it at once (:mod:`ingest.gate`)."""
    text = os.environ.get(LINGER_VARIABLE) or "0"
    try:
        seconds = float(text)
    except ValueError:
        _log.warning("%s=%r is not a number of seconds: the store is closed after every job", LINGER_VARIABLE, text)
        seconds = 0.0
    gates.linger(seconds if math.isfinite(seconds) else 0.0)


def exists() -> bool:
    return db_path().exists()


def stamp(path: Path | None = None) -> Stamp:
    """Size and modification time of the database file and its write-ahead log."""
    return file_stamp(path or db_path())


def _key() -> tuple[str, Stamp]:
    """The key of a cached result that reads the drafts: the file's stamp."""
    path = db_path()
    return str(path.resolve()), stamp(path)


def _records_key() -> tuple[str, Stamp]:
    """The key of a cached result that reads anything but the drafts: how many times
    the records changed. A phone's tap appends to a draft alone and leaves it as it
    was, so ten tables recording leave the standings, the seating and the rest cached
    for every spectator (:meth:`ingest.gate.Gate.records`). (The -1 keeps it apart
    from any file's stamp.)"""
    path = db_path()
    return str(path.resolve()), (-1, Store(path).records_changes())


def _store_at(db: str) -> Store:
    return Store(db, wait=WAIT)


Read = tuple[str, bool, Stamp]
"""Where the statistics are read from: a store's path or a lake's URL, whether it is a
lake, and its state (a lake's: how many batches it has committed)."""


def _read() -> Read:
    url = lake_url()
    if url is None:
        db, when = _records_key()
        return db, False, when
    return url, True, (len(Lake.at(url).files(MANIFEST)),)


@contextmanager
def _reading(source: str, lake: bool) -> Iterator[stats.Source]:
    """The lake's tables (:func:`analytics.lake.connect`), or the store to open per query."""
    if lake:
        with connect(source) as con:
            yield con
    else:
        yield _store_at(source)


_R = TypeVar("_R")
_READS: dict[str, Callable[..., Any]] = {}
"""The reads :func:`_of_the_records` has cached, by their module and name."""


@st.cache_data(show_spinner=False, max_entries=512)
def _records_read(read: str, db: str, when: Stamp, args: tuple[Any, ...]) -> Any:
    return _READS[read](_store_at(db), *args)


def _of_the_records(read: Callable[..., _R], *args: Any) -> _R:
    """``read(store, *args)`` as the records stand now, cached for every session until
    the records change (:func:`_records_key`: a phone's tap, which writes a draft
    alone, leaves it cached). One cache for every such read, keyed by the read's
    name and its arguments, so each read is declared once: by its caller, here."""
    name = f"{read.__module__}.{read.__qualname__}"
    _READS.setdefault(name, read)
    return cast(_R, _records_read(name, *_records_key(), args))


def clear() -> None:
    """Forget every cached result (after an upload or a record)."""
    st.cache_data.clear()


# -- tournaments and standings -----------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=16)
def _tournaments(source: str, lake: bool, when: Stamp) -> pl.DataFrame:
    with _reading(source, lake) as read:
        return browse.tournaments(read)


def tournaments() -> pl.DataFrame:
    """Every tournament (described, or named by a game): id, name, cut, stages, games."""
    return _tournaments(*_read())


def stages(tournament: str) -> list[str]:
    """The stages a tournament's standings can be asked for."""
    row = tournaments().filter(pl.col("tournament") == tournament)
    semifinal = bool(row["semifinal"][0]) if row.height else False
    return ["preliminary", *(["semifinal"] if semifinal else []), "final"]


@st.cache_data(show_spinner=False, max_entries=64)
def _standings(db: str, when: Stamp, tournament: str, stage: str) -> pl.DataFrame:
    return standings_of(_store_at(db), tournament, stage=stage)


def _standings_then(store_: Store, tournament: str, stage: str, position: int) -> pl.DataFrame:
    return standings_of(store_, tournament, stage=stage, as_of=position)


def standings_as_of(tournament: str, stage: str, position: int) -> pl.DataFrame:
    """:func:`analytics.standings.standings` as they stood at an event position (the
    records as they were then, projected afresh)."""
    return _of_the_records(_standings_then, tournament, stage, position)


def round_moments(tournament: str, stage: str) -> pl.DataFrame:
    """:func:`analytics.browse.round_moments`: when each round's last game came in."""
    return _of_the_records(browse.round_moments, tournament, stage)


def standings(tournament: str, stage: str) -> pl.DataFrame:
    """:func:`analytics.standings.standings` now."""
    return _standings(*_records_key(), tournament, stage)


def stage_counts(tournament: str, stage: str) -> tuple[int, int]:
    """Games and rounds stored for a tournament's stage."""
    return _of_the_records(browse.stage_counts, tournament, stage)


def penalties(tournament: str) -> pl.DataFrame:
    """:func:`analytics.browse.penalties`: every penalty of a tournament, with its reason."""
    return _of_the_records(browse.penalties, tournament)


def scored_rounds(tournament: str, stage: str) -> pl.DataFrame:
    """:func:`analytics.standings.scored_rounds`: each round's points as the standings count them."""
    return _of_the_records(scored_rounds_of, tournament, stage)


def player_games(tournament: str, player: str) -> pl.DataFrame:
    """:func:`analytics.browse.player_games`: the tables a player sat at, with the others there."""
    return _of_the_records(browse.player_games, tournament, player)


# -- the record's integrity ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verification:
    """One walk of the hash chain, and when it ran; what it found wrong as sentences
    (``said``), put into the page's language where they are shown."""

    at: datetime
    events: int
    head: str
    ok: bool
    said: tuple[Said, ...]

    @property
    def problems(self) -> tuple[str, ...]:
        """What the walk found wrong, in English."""
        return tuple(s.english() for s in self.said)


@dataclass(frozen=True, slots=True)
class Integrity:
    """The chains' heads as they stand (``docs/chain.md``), and the last verification."""

    events: int
    head: str
    uploads: int
    uploads_head: str
    verified: Verification | None


@st.cache_resource(show_spinner=False)
def _verifications() -> dict[str, Verification]:
    """The newest verification of each store, for as long as the dashboard runs."""
    return {}


@st.cache_data(show_spinner=False, max_entries=16)
def _heads(db: str, when: Stamp) -> tuple[tuple[int, str], tuple[int, str]]:
    store_ = Store(db, wait=WAIT)
    with store_.connect(read_only=True) as con:
        return store_.head(con), store_.uploads_head(con)


def integrity() -> Integrity:
    """The number of events and uploads, the heads of their chains, and the last
    verification here."""
    db, when = _key()
    (events, head), (uploads, uploads_head) = _heads(db, when)
    return Integrity(events, head, uploads, uploads_head, _verifications().get(db))


@st.cache_resource(show_spinner=False)
def _verifying() -> dict[str, threading.Lock]:
    """One lock a store: the walk of its chain that runs, which a click waits for."""
    return {}


_LOCKS: Final = threading.Lock()
"""Guards :func:`_verifying` as a lock is added to it."""


def verify_chain() -> Verification:
    """Recompute the hash chain now (:func:`ingest.verify.verify`, chain only), once
    at a time a store: a click while a walk runs waits for it and takes its result,
    rather than walk the chain again beside it. The button is on every spectator's
    Standings page, and a walk reads every event (some seconds a hundred thousand):
    thirty spectators pressing it at once walked it thirty times over on the laptop
    that takes the referees' phones' taps."""
    db, _ = _key()
    asked = datetime.now(UTC)
    with _LOCKS:
        lock = _verifying().setdefault(db, threading.Lock())
    with lock:
        newest = _verifications().get(db)
        if newest is not None and newest.at >= asked:  # a walk ended while this click waited
            return newest
        verdict = verify(_store_at(db), read_models=False)
        done = Verification(datetime.now(UTC), verdict.events, verdict.head, verdict.ok, tuple(verdict.said))
        _verifications()[db] = done
        return done


# -- roles and players ---------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _role_win_rates(source: str, lake: bool, when: Stamp, filters: Filters) -> pl.DataFrame:
    with _reading(source, lake) as read:
        return stats.role_win_rates(read, filters)


def role_win_rates(filters: Filters) -> pl.DataFrame:
    """:func:`analytics.stats.role_win_rates` with a ``table`` label for the chart."""
    frame = _role_win_rates(*_read(), filters)
    return frame.with_columns(
        table=pl.format("{} players, {} sab.", pl.col("players"), pl.col("saboteurs")),
    )


@st.cache_data(show_spinner=False, max_entries=64)
def _played_by_bots(source: str, lake: bool, when: Stamp, filters: Filters) -> tuple[int, int]:
    with _reading(source, lake) as read:
        return stats.played_by_bots(read, filters)


def played_by_bots(filters: Filters) -> tuple[int, int]:
    """:func:`analytics.stats.played_by_bots`: the filtered rounds bots played, of all."""
    return _played_by_bots(*_read(), filters)


@st.cache_data(show_spinner=False, max_entries=64)
def _observed_rounds(source: str, lake: bool, when: Stamp, filters: Filters) -> int:
    with _reading(source, lake) as read:
        return stats.observed_rounds(read, filters)


def observed_rounds(filters: Filters) -> int:
    """:func:`analytics.stats.observed_rounds`: the filtered rounds of observed logs."""
    return _observed_rounds(*_read(), filters)


@st.cache_data(show_spinner=False, max_entries=16)
def _rulesets(source: str, lake: bool, when: Stamp) -> list[str]:
    with _reading(source, lake) as read:
        return browse.rulesets(read)


def rulesets() -> list[str]:
    """:func:`analytics.browse.rulesets`: the one with the most rounds first."""
    return _rulesets(*_read())


def player_stats(filters: Filters) -> pl.DataFrame:
    """:func:`analytics.stats.player_stats`: every player's rounds, wins and points."""
    return _of_the_records(stats.player_stats, filters)


def player_rounds(player: str, tournament: str | None = None) -> pl.DataFrame:
    """A player's finished rounds in time order, with the running total of points."""
    return _of_the_records(browse.player_rounds, player, tournament)


def player_roles(rounds: pl.DataFrame) -> pl.DataFrame:
    """Per role: rounds, the trials of the win rate (the rounds whose winner is known,
    :data:`analytics.stats.DECIDED`, as the statistics count them: a round ended before
    it was over, or a score sheet's that fits no outcome of the rules, is no round
    lost), wins, the rate with its Wilson 95% interval, the tournament rounds' points,
    the base game's nuggets apart (never added to points; only where the player played
    it), and stars."""
    base = pl.col("ruleset") == "base"
    grouped = (
        rounds.group_by("role")
        .agg(
            rounds=pl.len(),
            n=pl.col("won").is_not_null().sum(),
            wins=pl.col("won").sum(),
            round_points=pl.col("points").filter(~base).sum(),
            nuggets=pl.col("points").filter(base).sum(),
            stars=pl.col("star").sum(),
        )
        .sort("role")
    )
    bounds = [wilson(int(w), int(n)) or (None, None) for w, n in zip(grouped["wins"], grouped["n"], strict=True)]
    table = grouped.with_columns(
        rate=pl.when(pl.col("n") > 0).then(pl.col("wins") / pl.col("n")),
        low=pl.Series([b[0] for b in bounds], dtype=pl.Float64),
        high=pl.Series([b[1] for b in bounds], dtype=pl.Float64),
    ).select("role", "rounds", "n", "wins", "rate", "low", "high", "round_points", "nuggets", "stars")
    return table if rounds.filter(base).height else table.drop("nuggets")


# -- rounds ----------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def _rounds(db: str, when: Stamp, query: RoundQuery, limit: int) -> pl.DataFrame:
    return browse.rounds(_store_at(db), query, limit)


def rounds(query: RoundQuery, limit: int = ROUNDS_SHOWN) -> tuple[pl.DataFrame, int]:
    """The rounds that match (at most ``limit``) and how many matched in all."""
    frame = _rounds(*_records_key(), query, limit)
    matched = int(frame["matched"][0]) if frame.height else 0
    return frame.drop("matched"), matched


def choices(tournament: str | None) -> dict[str, list[Any]]:
    """Values the Rounds filters offer: finding codes, tournament rounds, tables."""
    return _of_the_records(browse.choices, tournament)


def round_findings(game_id: str, number: int) -> pl.DataFrame:
    """The findings of one round, in line order."""
    return _of_the_records(browse.round_findings, game_id, number)


# -- replay ----------------------------------------------------------------------------


def games(tournament: str | None) -> pl.DataFrame:
    """The games of a tournament (``None``: the games of no tournament)."""
    return _of_the_records(browse.games, tournament)


def seatings(tournament: str) -> pl.DataFrame:
    """:func:`analytics.browse.seatings`: the seated tables of a tournament, seat by seat."""
    return _of_the_records(browse.seatings, tournament)


@st.cache_data(show_spinner=False, max_entries=8)
def _game_view(db: str, when: Stamp, game_id: str, observed: bool) -> GameView | None:
    lines = browse.game_lines(_store_at(db), game_id, observed=observed)
    return game_view(lines) if lines is not None else None


def game(game_id: str) -> GameView | None:
    """A stored game's newest version, replayed into frames; ``None`` for a score sheet
    (no events to step through) or a game not stored."""
    return _game_view(*_key(), game_id, False)


def observed_game(game_id: str) -> GameView | None:
    """The observed log of a stored game (:func:`events.observe.observe`), replayed into
    frames: what the table saw of it, and nothing hidden. The public view of a round in
    play is this."""
    return _game_view(*_key(), game_id, True)


# -- tables in play ----------------------------------------------------------------------
# Shared, not copied (``cache_resource``): every spectator's page asks for these every few
# seconds, and ``cache_data`` would unpickle a copy of every draft's lines and every
# table's view at each ask (with thirty spectators and ten tables, most of the server's
# time). Drafts and views are frozen; nothing changes them.


@st.cache_resource(show_spinner=False, max_entries=16)
def _drafts_in_play(db: str, when: Stamp) -> tuple[Draft, ...]:
    return tuple(drafts(_store_at(db), in_play=True))


@st.cache_resource(show_spinner=False, max_entries=256)
def _table_view(db: str, game_id: str, version: int, _lines: tuple[str, ...]) -> TableView | None:
    """A draft's table at one version (a stream only grows: the version names its lines)."""
    try:
        return table_view(_lines)
    except (NotObserved, UnreadableLog):  # a draft no log's reader takes breaks no page: it is left out
        return None


def tables_in_play() -> list[TableView]:
    """The games being recorded at their tables now (the drafts not finished), as the
    public sees them; a draft that is no observed log is left out."""
    db, when = _key()
    found = (_table_view(db, d.game_id, d.version, d.lines) for d in _drafts_in_play(db, when))
    return [table for table in found if table is not None]


@st.cache_resource(show_spinner=False, max_entries=16)
def _player_names(db: str, when: Stamp, tournament: str) -> Mapping[str, str]:
    return MappingProxyType(_shown(browse.player_labels(_store_at(db), tournament)))


def _shown(names: Mapping[str, str]) -> dict[str, str]:
    """Names as a line of a page holds them (:func:`dashboard.markup.isolated`): a name
    in a right-to-left script set apart, so that it turns no text around it."""
    return {player: isolated(name) for player, name in names.items()}


def player_names(tournament: str) -> Mapping[str, str]:
    """The display names the tournament's records give its players, by player id, two
    registered under one name told apart by their ids (:func:`analytics.browse.player_labels`),
    shared by every page (read-only), as a line of a page holds them: each through
    :func:`dashboard.markup.isolated`, so every sentence, list and option that names a
    player is laid out in its own direction, the name in its own."""
    return _player_names(*_records_key(), tournament)


def registered_names() -> dict[str, list[str]]:
    """:func:`analytics.browse.registered_names`: every name each player was registered
    under, the newest tournament's first."""
    if not exists():
        return {}
    return _of_the_records(browse.registered_names)


def games_people(game_ids: Sequence[str]) -> Mapping[str, str]:
    """:func:`analytics.browse.games_people`: the names of the players of these games'
    tournaments, by id (nothing for games not stored, or of no tournament)."""
    if not game_ids or not exists():
        return {}
    return _shown(_of_the_records(browse.games_people, tuple(game_ids)))


# -- organiser: uploads and records --------------------------------------------------------


def received_uploads(most: int) -> pl.DataFrame:
    """:func:`analytics.browse.uploads`: the files received, the newest first."""
    return _of_the_records(browse.uploads, most)


def received_findings(upload_id: int) -> tuple[dict[str, Any], ...]:
    """The findings of one upload's audit, as the Upload page lists a file's: from the
    store's rows (with the sentence it keeps, to be said in the page's language), or for
    a file refused whole, which has none, from the report kept with it (English)."""
    stored = _of_the_records(browse.upload_findings, (upload_id,))
    if not stored.is_empty():
        return tuple(stored.to_dicts())
    report = _of_the_records(browse.upload_report, upload_id)
    listed = (report or {}).get("violations")
    found = tuple(f for f in listed if isinstance(f, dict)) if isinstance(listed, list) else ()
    unreadable = (report or {}).get("status") == "unreadable"  # else the refusal is no finding (a supersede)
    return _refused_in_words(found, (report or {}).get("rejected_said") if unreadable else None)


@dataclass(frozen=True, slots=True)
class UploadResult:
    """What became of one uploaded file (the ingest's own result), with the findings of
    its audit and the players its game seats at another table than the published
    seating (:func:`analytics.standings.misseated`)."""

    file: FileResult
    findings: tuple[dict[str, Any], ...] = ()
    misseated: tuple[dict[str, Any], ...] = ()
    carried: tuple[Carried, ...] = ()
    """For a game stored anew, the tournament's corrections and accepted replays of it
    that still count (:func:`analytics.carried.carried_over`)."""


def ingest_files(
    files: Sequence[tuple[str, bytes]], *, supersede: bool = False, reason: str | None = None
) -> list[UploadResult]:
    """Audit and store uploaded files: :func:`ingest.sources.prepare_bytes` and the
    ingest's own run (:func:`ingest.pipeline.write_all`), as ``saboteur ingest`` does.

    Whatever one file does, the others are stored. A file whose audit or writing fails
    in a way the ingest did not foresee is logged with its details, for the server's
    log, and reported as one rejected line naming it — no traceback, no server path. A
    batch whose writing failed is written again file by file, so only the file at fault
    is left out. A busy database is nobody's fault, and a store that cannot be used no
    file's: either ends the upload for the page to say so.
    """
    upload = _Upload(files)
    writer = Writer(store(), supersede=supersede, reason=reason)
    audited = upload.audited()
    try:
        while True:
            try:
                write_all(audited, writer, upload.stored)
                break
            except (StoreBusy, StoreUnusable):
                raise
            except Exception:
                _log.exception("writing a batch of uploads failed; its files are written one by one")
                upload.write_one_by_one(writer)
    finally:
        clear()
    results = _with_misseated(upload.results())
    return _with_carried(results) if supersede else results


def _with_sentences(findings: tuple[dict[str, Any], ...], item: Prepared) -> tuple[dict[str, Any], ...]:
    """The report's findings, each with its sentence as the store keeps it
    (:func:`ingest.sources.files.with_sentences`); an unreadable file's one finding
    with the refusal's sentence."""
    if item.status == "unreadable":
        return _refused_in_words(findings, stored_said(item.said) if item.said is not None else None)
    return tuple(with_sentences(findings, item.rows))


def _refused_in_words(findings: tuple[dict[str, Any], ...], said: object) -> tuple[dict[str, Any], ...]:
    """The one finding of a file refused whole, with the refusal's sentence as the store
    keeps it (``said``: the same words), so the page says it in its language; any other
    findings as they are."""
    if len(findings) != 1 or not isinstance(said, str) or findings[0].get("said"):
        return findings
    return ({**findings[0], "said": said},)


def _with_misseated(results: list[UploadResult]) -> list[UploadResult]:
    """Each stored file's result with the players at the wrong table in its game."""
    stored = ("accepted", "accepted_with_findings")
    games = [game for result in results if result.file.outcome in stored for game in result.file.game_ids]
    if not games:
        return results
    found = misseated(store(), games=games)
    return [
        replace(result, misseated=tuple(found.filter(pl.col("game_id").is_in(list(result.file.game_ids))).to_dicts()))
        if result.file.outcome in stored
        else result
        for result in results
    ]


def _with_carried(results: list[UploadResult]) -> list[UploadResult]:
    """Each file stored anew with what the tournament's record still counts on its games."""
    stored = ("accepted", "accepted_with_findings")
    carried = carried_over(store(), [r.file.upload_id for r in results if r.file.outcome in stored])
    return [
        replace(result, carried=tuple(c for c in carried if c.game_id in result.file.game_ids))
        if result.file.outcome in stored
        else result
        for result in results
    ]


class _Upload:
    """One upload's files on their way through the ingest, each result kept in its
    file's place (files whose audit fails never reach the writer)."""

    def __init__(self, files: Sequence[tuple[str, bytes]]) -> None:
        self.files = files
        self.done: list[UploadResult | None] = [None] * len(files)
        self.unwritten: deque[tuple[int, Prepared]] = deque()
        """Audited and handed to the writer, its result not back yet, in order."""

    def audited(self) -> Iterator[Prepared]:
        for index, (name, raw) in enumerate(self.files):
            try:
                item = prepare_bytes(name, raw)
            except Exception as exc:
                self.done[index] = _failed(name, exc)
                continue
            self.unwritten.append((index, item))
            yield item

    def stored(self, result: FileResult) -> None:
        """The writer's result for the oldest file handed to it."""
        index, item = self.unwritten.popleft()
        try:
            findings = tuple(json.loads(item.report).get("violations", []))
        except (ValueError, AttributeError):
            findings = ()
        self.done[index] = UploadResult(result, _with_sentences(findings, item))

    def write_one_by_one(self, writer: Writer) -> None:
        """The files of a batch whose writing failed, each in a transaction of its own."""
        while self.unwritten:
            index, item = self.unwritten[0]
            try:
                (result,) = writer.write([item])
            except (StoreBusy, StoreUnusable):
                raise
            except Exception as exc:
                self.unwritten.popleft()
                self.done[index] = _failed(item.name, exc)
            else:
                self.stored(result)

    def results(self) -> list[UploadResult]:
        return [result for result in self.done if result is not None]


_ABSOLUTE_PATH: Final = re.compile(r"(?:[A-Za-z]:)?[\\/][^\s'\"]*[\\/][^\s'\"]*")
"""A file system path with a folder in it (``/srv/…``, ``C:\\…``): not for a page."""


def _failed(name: str, exc: Exception) -> UploadResult:
    """An upload the ingest could not handle: logged with its traceback, shown as one
    rejected line with the error's kind and first line, server paths blanked out."""
    _log.error("the upload %r could not be handled", name, exc_info=exc)
    first = (str(exc).strip().splitlines() or [""])[0][:200]
    said = _ABSOLUTE_PATH.sub("…", first)
    reason = f"{type(exc).__name__}: {said}" if said else type(exc).__name__
    sentence = say(UNHANDLED, problem=reason)
    return UploadResult(
        FileResult(name, "rejected", kind_of(name), "unreadable", (), 0, 1, sentence.english(), sentence)
    )


def open_findings(tournament: str | None) -> pl.DataFrame:
    """Findings not dismissed, and (for ``wrong_score``) not settled by an accepted
    replay or a correction of their round; ``None``: the games of no tournament."""
    return _of_the_records(browse.open_findings, tournament)


def game_players(game_id: str) -> list[str]:
    """The players of a stored game, in seating order."""
    return _of_the_records(browse.game_players, game_id)


def round_scores(tournament: str, game_id: str, number: int) -> pl.DataFrame:
    """Each player's recorded, replayed and corrected points in one round."""
    return _of_the_records(browse.round_scores, tournament, game_id, number)


def _recording(command: Callable[..., records.Recorded], *args: Any, **options: Any) -> records.Recorded:
    """``command`` (one of :mod:`analytics.records`) run on the store: an appended
    event; every cached result is forgotten, whether it was recorded or refused."""
    try:
        return command(store(), *args, **options)
    finally:
        clear()


def round_still_off(tournament: str, game_id: str, number: int) -> tuple[list[str], bool]:
    """After a correction of one round: the ``wrong_score`` findings it leaves open
    (:func:`analytics.records.still_wrong_in`), and whether the round as corrected is
    not what the rules give though no finding says so
    (:func:`analytics.records.corrected_off_the_rules`) — what the command line tells
    the organiser who corrects, and the page tells too."""
    wrong = records.still_wrong_in(store(), tournament, game_id, number)
    return wrong, not wrong and records.corrected_off_the_rules(store(), tournament, game_id, number)


def decisions(tournament: str, game_id: str, number: int, player: str | None = None) -> int:
    """:func:`analytics.records.decisions`: the decisions the record holds on one round
    (of one player's score in it, when ``player`` is named), which a form that decides
    the round is laid out after."""
    return _of_the_records(records.decisions, tournament, game_id, number, player)


def accept_replay(
    tournament: str, game_id: str, number: int, reason: str | None, seen: int | None = None
) -> records.Recorded:
    """:func:`analytics.records.accept_replay`: an appended event (``seen``: the
    :func:`decisions` on the round the form was laid out after)."""
    return _recording(records.accept_replay, tournament, game_id, number, reason, seen=seen)


def correct(
    tournament: str,
    game_id: str,
    number: int,
    player: str,
    points: int,
    reason: str,
    star: bool | None = None,
    seen: int | None = None,
) -> records.Recorded:
    """:func:`analytics.records.correct`: an appended event (``seen``: the
    :func:`decisions` on the player's round the form was laid out after)."""
    return _recording(records.correct, tournament, game_id, number, player, points, reason, star=star, seen=seen)


def penalty_for(tournament: str, finding_id: str, points: int, reason: str, player: str | None) -> records.Recorded:
    """:func:`analytics.records.penalty_for`: an appended event naming the finding."""
    return _recording(records.penalty_for, tournament, finding_id, points, reason, player=player)


def withdraw_penalty(tournament: str, number: int, reason: str) -> records.Recorded:
    """:func:`analytics.records.withdraw_penalty`: an appended event naming the penalty."""
    return _recording(records.withdraw_penalty, tournament, number, reason)


def withdrawn_players(tournament: str) -> dict[str, str]:
    """:func:`analytics.records.withdrawn`: the players withdrawn from a tournament, with why."""
    return _of_the_records(records.withdrawn, tournament)


def withdraw_player(tournament: str, player: str, reason: str) -> records.Recorded:
    """:func:`analytics.records.withdraw_player`: an appended event."""
    return _recording(records.withdraw_player, tournament, player, reason)


def return_player(tournament: str, player: str, reason: str) -> records.Recorded:
    """:func:`analytics.records.return_player`: an appended event."""
    return _recording(records.return_player, tournament, player, reason)


def dismiss(tournament: str, finding_id: str, reason: str) -> records.Recorded:
    """:func:`analytics.records.dismiss`: an appended event."""
    return _recording(records.dismiss, tournament, finding_id, reason)


def referee_codes(tournament: str) -> pl.DataFrame:
    """Every referee code of a tournament, by its fingerprint, and whether it is live."""
    return _of_the_records(records.referee_codes, tournament)


def referee_access(code: str) -> records.RefereeAccess | None:
    """:func:`analytics.records.referee_access`: the table a referee code opens now —
    cached only while the records stay as they were, so a code revoked (here or by the
    command line) opens nothing from the next page run on."""
    return _of_the_records(records.referee_access, code)


def revoke_referee_code(tournament: str, number: int, table: str, reason: str) -> records.Recorded:
    """:func:`analytics.records.revoke_referee_code`: an appended event."""
    return _recording(records.revoke_referee_code, tournament, number, table, reason)
