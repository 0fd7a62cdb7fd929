"""What an uploaded file becomes: its audit, its events and its read-model rows.

:func:`prepare` runs in a worker process, away from the store: it reads one file
(bounded), audits it, and returns everything the writer needs — the raw bytes, the
report, the events per stream and the rows. The same projection functions rebuild the
read models from stored events, so both paths give the same rows.

Kinds: ``.jsonl``/``.jsonl.gz`` game logs, ``.csv`` score sheets, ``.json`` tournament
descriptions (as ``saboteur simulate tournament`` writes them).
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Final, overload

from pydantic import ValidationError

from events.findings import Code, Finding
from events.logfile import (
    BOM,
    MAX_FILE_BYTES,
    LogLine,
    UnreadableLog,
    inflate,
    open_regular,
    parse_data,
    parse_numbered,
    split_lines,
)
from events.records import dump
from events.records import tournament as tournament_stream
from events.records.sheet import RoundRecorded, ScoreSheetGame, SheetEvent, sheet_event
from events.records.tournament_file import TournamentFile
from events.schema import EVENT_TYPES
from ingest import scoresheet
from ingest.limits import MAX_UPLOAD_BYTES, MAX_UPLOAD_MIB
from ingest.projection import finding_row, project_log
from ingest.schema import TOURNAMENT_TABLES
from ingest.store import NewEvent

_LOGGER = logging.getLogger(__name__)

_UNSHOWN: Final = frozenset({"Cc", "Cf", "Zl", "Zp"})
"""Unicode categories a name must not carry into a terminal or a report: controls,
format characters (right-to-left overrides, zero-width ones) and line breaks."""

Rows = dict[str, list[dict[str, Any]]]


@dataclass
class Prepared:
    """One audited file, ready for the writer."""

    name: str
    sha256: str
    size: int
    raw: bytes
    kind: str
    status: str
    report: str
    game_ids: list[str] = field(default_factory=list)
    streams: Mapping[str, Sequence[NewEvent]] = field(default_factory=dict)
    rows: Rows = field(default_factory=dict)
    errors: int = 0
    message: str = ""


def kind_of(name: str) -> str:
    lowered = name.lower()
    if lowered.endswith((".jsonl", ".jsonl.gz")):
        return "log"
    if lowered.endswith(".csv"):
        return "score_sheet"
    if lowered.endswith(".json"):
        return "tournament"
    return "unknown"


def safe_name(name: str) -> str:
    r"""A file name as text that can be stored, printed and shown: bytes that are not
    UTF-8 (which ``os.fsdecode`` keeps as lone surrogates, and which no JSON, DuckDB or
    terminal takes) and control, format and line-break characters (which would move a
    terminal's cursor, reverse the text shown or break a report's line) written as
    backslash escapes; any other name as it is.

    >>> safe_name(os.fsdecode(b"r1-t3\xff.jsonl"))
    'r1-t3\\xff.jsonl'
    >>> safe_name("two\nlines.csv")
    'two\\x0alines.csv'
    >>> safe_name("Zürich/tournament.json")
    'Zürich/tournament.json'
    """
    try:
        data = os.fsencode(name)
    except UnicodeEncodeError:  # a lone surrogate that no file name decoded to
        data = name.encode("utf-8", "backslashreplace")
    text = data.decode("utf-8", "backslashreplace")
    if text.isprintable():
        return text
    return "".join(_escaped(char) if unicodedata.category(char) in _UNSHOWN else char for char in text)


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _report(name: str, status: str, findings: Iterable[Finding], **extra: Any) -> str:
    return json.dumps(
        {"file": name, "status": status, **extra, "violations": [f.as_report() for f in findings]},
        ensure_ascii=False,
    )


def _too_large(size: int) -> UnreadableLog:
    return UnreadableLog(f"{size:,} bytes: more than {MAX_UPLOAD_MIB} MiB, the limit of an upload")


def prepare(path: Path) -> Prepared:
    """Read and audit one file (in a worker); never raises for bad input.

    The file is opened as :func:`~events.logfile.open_regular` opens a log (a FIFO or a
    device is refused at once, not waited on) and measured before it is read: one over
    the upload limit is refused with its true size, unread."""
    name = safe_name(str(path))
    try:
        with open_regular(path) as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > MAX_UPLOAD_BYTES:
                return _unreadable(name, kind_of(name), _too_large(size), size=size)
            raw = stream.read(MAX_UPLOAD_BYTES + 1)  # one byte more shows a file that grew
    except OSError as exc:
        finding = Finding(Code.MALFORMED, 1, f"cannot read the file: {exc.strerror or exc}")
        return Prepared(
            name,
            "",
            0,
            b"",
            kind_of(name),
            "unreadable",
            _report(name, "unreadable", [finding]),
            message=finding.message,
        )
    return prepare_bytes(name, raw)


def prepare_bytes(name: str, raw: bytes) -> Prepared:
    """Audit bytes received under ``name`` (the dashboard's uploads come this way); bytes
    over the upload limit are refused, and not kept."""
    name = safe_name(name)
    kind = kind_of(name)
    if len(raw) > MAX_UPLOAD_BYTES:
        return _unreadable(name, kind, _too_large(len(raw)), size=len(raw))
    sha = hashlib.sha256(raw).hexdigest()
    try:
        if kind == "log":
            return _log(name, raw, sha)
        if kind == "score_sheet":
            return _sheet(name, raw, sha)
        if kind == "tournament":
            return _tournament(name, raw, sha)
        raise UnreadableLog("not a game log (.jsonl, .jsonl.gz), score sheet (.csv) or tournament file (.json)")
    except UnreadableLog as exc:
        return _unreadable(name, kind, exc, size=len(raw), raw=raw, sha=sha)
    except Exception as exc:  # one file's surprise is that file's rejection, not the run's end
        _LOGGER.exception("auditing %s failed unexpectedly", name)
        return _unreadable(name, kind, unforeseen(exc, "audit"), size=len(raw), raw=raw, sha=sha)


def unforeseen(exc: BaseException, step: str) -> UnreadableLog:
    """What a file's verdict says when its ``step`` failed in a way nobody foresaw: the
    kind of error only (its details, which may name server paths, go to the log)."""
    return UnreadableLog(f"the {step} of this file failed unexpectedly ({type(exc).__name__}); details are logged")


def _unreadable(name: str, kind: str, exc: UnreadableLog, *, size: int, raw: bytes = b"", sha: str = "") -> Prepared:
    """A file refused whole: its ``malformed`` finding, and its bytes if they were read."""
    finding = Finding(Code.MALFORMED, exc.line, exc.message)
    report = _report(name, "unreadable", [finding], game_id=None, rounds=[])
    return Prepared(name, sha, size, raw, kind, "unreadable", report, errors=1, message=exc.message)


# -- game logs -----------------------------------------------------------------


def _log(name: str, raw: bytes, sha: str) -> Prepared:
    """Audit a log in one walk over its lines as they are parsed, noting each line's
    kind on the way: its events are then made from its text when the writer appends
    them (:class:`LogEvents`), so no list of the file's lines is ever held."""
    kinds = bytearray()

    def noted(lines: Iterator[LogLine]) -> Iterator[LogLine]:
        for line in lines:
            kinds.append(_KIND[line.event.type if line.event is not None else UNPARSED])
            yield line

    audit, rows = project_log(noted(parse_data(inflate(raw, name))), name=name, upload_id=0)
    assert audit.game_id is not None
    stream = f"game:{audit.game_id}"
    return Prepared(
        name,
        sha,
        len(raw),
        raw,
        "log",
        audit.status,
        audit.report().model_dump_json(),
        game_ids=[audit.game_id],
        streams={stream: LogEvents(stream, name, raw, bytes(kinds))},
        rows=rows.tables(),
        errors=audit.errors,
    )


UNPARSED: Final = "unparsed_line"
"""The type a log line that is no event is stored under, with its bytes (base64)."""
_KINDS: Final = (UNPARSED, *sorted(EVENT_TYPES))
_KIND: Final = {kind: index for index, kind in enumerate(_KINDS)}


class LogEvents(Sequence[NewEvent]):
    """A log's events as stored, made from the file's bytes a line at a time as they
    are read.

    A 16 MiB log holds some 400,000 lines (sixteen million, if they are blank): as
    objects, its events would take hundreds of megabytes in the worker, in the pickle
    back to the writer and in the writer again. This holds the bytes received (already
    kept for the upload) and one byte per line, its kind, and is read in line order;
    an index is found by reading up to it.
    """

    def __init__(self, stream: str, name: str, raw: bytes, kinds: bytes) -> None:
        self.stream = stream
        self.name = name
        self.raw = raw
        self.kinds = kinds

    def __len__(self) -> int:
        return len(self.kinds)

    def __iter__(self) -> Iterator[NewEvent]:
        lines = split_lines(inflate(self.raw, self.name))
        for (number, text), kind in zip(lines, self.kinds, strict=True):
            yield _log_event(self.stream, number, _KINDS[kind], text)

    @overload
    def __getitem__(self, index: int) -> NewEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[NewEvent]: ...

    def __getitem__(self, index: int | slice) -> NewEvent | list[NewEvent]:
        if isinstance(index, slice):
            return list(islice(self, *index.indices(len(self))))
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return next(islice(self, index % len(self), None))


def _log_event(stream: str, number: int, kind: str, text: bytes) -> NewEvent:
    """A log line as stored: its text as uploaded; a line that is no event keeps its
    bytes (base64) so a rebuild reads exactly what the audit read."""
    if kind != UNPARSED:
        return NewEvent(stream, kind, text.decode("utf-8"), number)
    payload = json.dumps({"base64": base64.b64encode(text).decode("ascii")})
    return NewEvent(stream, UNPARSED, payload, number)


def read_stored(events: Iterable[tuple[str, str, int | None]]) -> Iterator[LogLine]:
    """Stored log events (type, payload, line) back into parsed lines, as they are read."""

    def numbered() -> Iterator[tuple[int, bytes]]:
        for count, (type_, payload, line) in enumerate(events, start=1):
            text = base64.b64decode(json.loads(payload)["base64"]) if type_ == UNPARSED else payload.encode("utf-8")
            yield line or count, text

    return parse_numbered(numbered())


def stored_lines(events: Iterable[tuple[str, str, int | None]]) -> list[LogLine]:
    """Stored log events (type, payload, line) back into parsed lines."""
    return list(read_stored(events))


# -- score sheets --------------------------------------------------------------


def project_sheet_game(
    events: Sequence[SheetEvent | Mapping[str, Any]], upload_id: int, revision: int = 1
) -> tuple[list[Finding], Rows]:
    """Rows of one score-sheet game from its events (typed, or as stored)."""
    typed = [sheet_event(e) for e in events]
    header, records = typed[0], [r for r in typed[1:] if isinstance(r, RoundRecorded)]
    if not isinstance(header, ScoreSheetGame) or len(records) != len(typed) - 1:
        raise ValueError(f"not a score-sheet game: {', '.join(e.type for e in typed)}")
    game_id = header.game_id
    players = header.players
    findings: list[Finding] = []
    rows: Rows = {"games": [], "rounds": [], "round_players": [], "findings": [], "cards_played": []}
    for record in records:
        found, matched = scoresheet.audit_record(record)
        findings.extend(found)
        results = {r.player: r for r in record.results}
        roles = {p: r.role for p, r in results.items()}
        rows["rounds"].append(
            {
                "game_id": game_id,
                "round": record.round,
                "ruleset": "tournament",
                "players": len(results),
                "saboteurs": sum(r == "saboteur" for r in roles.values()),
                "selfish_dwarfs": sum(r == "selfish_dwarf" for r in roles.values()),
                "winner": matched["winner"] if matched else None,
                "claimed_winner": None,
                "connector": matched["connector"] if matched else None,
                "connector_role": roles.get(matched["connector"]) if matched and matched["connector"] else None,
                "gold_slot": None,
                "ended_by": "score_sheet",
                "turns": None,
                "start_player": None,
                "start_seat": None,
                "rockfalls": None,
                "maps": None,
                "errors": len(found),
                "started_at": None,
                "ended_at": None,
            }
        )
        for seat, (player, result) in enumerate(results.items(), start=1):
            won = False
            if matched:
                winner = matched["winner"]
                role = result.role
                won = (
                    (winner == "gold_diggers" and role == "gold_digger")
                    or (winner == "saboteurs" and role == "saboteur")
                    or (winner == "selfish_dwarf" and result.star)
                )
            rows["round_players"].append(
                {
                    "game_id": game_id,
                    "round": record.round,
                    "player": player,
                    "seat": players.index(player) + 1 if player in players else seat,
                    "role": result.role,
                    "recorded_points": result.points,
                    "replay_points": result.points if matched else None,
                    "star": result.star,
                    "won": won,
                    "connector": bool(matched and matched["connector"] == player),
                }
            )
    rows["findings"] = [finding_row(f, game_id, upload_id) for f in findings]
    rows["games"].append(
        {
            "game_id": game_id,
            "upload_id": upload_id,
            "source": "score_sheet",
            "ruleset": "tournament",
            "tournament": header.tournament,
            "tournament_round": header.tournament_round,
            "stage": "preliminary" if header.tournament else None,
            "table_label": header.table,
            "players": len(players),
            "player_ids": players,
            "rounds_planned": None,
            "rounds_played": len(records),
            "status": "violations" if findings else "clean",
            "errors": len(findings),
            "warnings": 0,
            "started_at": None,
            "ended_at": None,
            "revision": revision,
        }
    )
    return findings, rows


def _sheet(name: str, raw: bytes, sha: str) -> Prepared:
    entries = scoresheet.read_sheet(raw)
    streams: dict[str, list[NewEvent]] = {}
    rows: Rows = {}
    findings: list[Finding] = []
    for game_id, game_entries in scoresheet.games_of(entries).items():
        events = scoresheet.game_events(game_id, game_entries)
        stream = f"game:{game_id}"
        streams[stream] = [NewEvent(stream, event.type, dump(event), line) for line, event in events]
        found, game_rows = project_sheet_game([event for _, event in events], upload_id=0)
        findings.extend(found)
        for table, table_rows in game_rows.items():
            rows.setdefault(table, []).extend(table_rows)
    status = "violations" if findings else "clean"
    report = _report(name, status, sorted(findings, key=lambda f: f.line), games=list(scoresheet.games_of(entries)))
    return Prepared(
        name,
        sha,
        len(raw),
        raw,
        "score_sheet",
        status,
        report,
        game_ids=list(scoresheet.games_of(entries)),
        streams=streams,
        rows=rows,
        errors=len(findings),
    )


# -- tournaments ---------------------------------------------------------------


def project_tournament(
    events: Iterable[tournament_stream.TournamentEvent | Mapping[str, Any]], upload_id: int | None
) -> Rows:
    """Rows of the tournament read models from its stream, typed or as stored (``seq``:
    an event's place in it, so later records — a second seating of a round, a newer
    correction — win)."""
    rows: Rows = {table: [] for table in TOURNAMENT_TABLES}
    tid = ""
    players: dict[str, dict[str, Any]] = {}
    seatings: dict[tuple[int, str], tuple[int, tournament_stream.SeatingPublished]] = {}
    for seq, event in enumerate(map(tournament_stream.tournament_event, events), start=1):
        match event:
            case tournament_stream.TournamentCreated():
                tid = event.tournament
                rows["tournaments"] = [
                    {
                        "tournament": tid,
                        "name": event.name,
                        "ruleset": event.ruleset,
                        "preliminary_rounds": event.preliminary_rounds,
                        "cut": event.cut,
                        "final_rounds": event.final_rounds,
                        "semifinal": event.semifinal,
                        "upload_id": upload_id,
                    }
                ]
            case tournament_stream.PlayerRegistered():
                players[event.player] = {"tournament": tid, "player": event.player, "name": event.name}
            case tournament_stream.SeatingPublished():
                seatings[(event.tournament_round, event.stage)] = (seq, event)
            case tournament_stream.PenaltyGiven():
                rows["penalties"].append(
                    {
                        "tournament": tid,
                        "seq": seq,
                        "player": event.player,
                        "stage": event.stage,
                        "points": event.points,
                        "reason": event.reason,
                    }
                )
            case tournament_stream.ScoreCorrected():
                rows["corrections"].append(
                    {
                        "tournament": tid,
                        "seq": seq,
                        "game_id": event.game_id,
                        "round": event.round,
                        "player": event.player,
                        "points": event.points,
                        "reason": event.reason,
                    }
                )
            case tournament_stream.ReplayAccepted():
                rows["accepted_replays"].append(
                    {
                        "tournament": tid,
                        "seq": seq,
                        "game_id": event.game_id,
                        "round": event.round,
                        "reason": event.reason,
                    }
                )
            case tournament_stream.FindingDismissed():
                rows["dismissals"].append(
                    {"tournament": tid, "seq": seq, "finding_id": event.finding, "reason": event.reason}
                )
            case tournament_stream.CutDrawn():
                rows["cut_draws"].append(
                    {
                        "tournament": tid,
                        "seq": seq,
                        "stage": event.stage,
                        "tied": event.tied,
                        "places": event.places,
                        "drawn": event.drawn,
                        "points": event.points,
                        "stars": event.stars,
                        "seed": event.seed,
                    }
                )
    rows["tournament_players"] = list(players.values())
    for (number, stage), (seq, seating) in sorted(seatings.items()):
        for table in seating.tables:
            for seat, player in enumerate(table.players, start=1):
                rows["seatings"].append(
                    {
                        "tournament": tid,
                        "tournament_round": number,
                        "stage": stage,
                        "table_label": table.table,
                        "seat": seat,
                        "player": player,
                        "seq": seq,
                    }
                )
    return rows


def _tournament(name: str, raw: bytes, sha: str) -> Prepared:
    if len(raw) > MAX_FILE_BYTES:
        raise UnreadableLog("a tournament file of more than 16 MiB")
    try:
        description = TournamentFile.model_validate_json(raw.removeprefix(BOM))  # a BOM, as logs and sheets allow
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UnreadableLog(f"not a tournament file: `{where}`: {first['msg']}") from None
    problems = description.problems()
    if problems:
        where, problem = problems[0]
        raise UnreadableLog(f"not a tournament file: `{where}`: {problem}")
    events = description.events()
    stream = f"tournament:{description.id}"
    stored = [NewEvent(stream, event.type, dump(event)) for event in events]
    report = _report(name, "clean", [], tournament=description.id)
    return Prepared(
        name,
        sha,
        len(raw),
        raw,
        "tournament",
        "clean",
        report,
        game_ids=[],
        streams={stream: stored},
        rows=project_tournament(events, upload_id=0),
    )
