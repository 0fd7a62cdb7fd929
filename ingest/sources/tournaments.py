"""Tournament files as uploads: ``tournament.json`` parsed into the tournament stream's
typed events, and any tournament stream projected into its read models."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from pydantic import ValidationError

from events.findings import Breach
from events.logfile import BOM, MAX_FILE_BYTES, UnreadableLog, said_of
from events.records import dump
from events.records import tournament as tournament_stream
from events.records.tournament_file import TournamentFile, ruled
from events.rules.tournament import check_seating
from events.said import Said, say
from ingest.readmodels import (
    AcceptedReplayRow,
    CorrectionRow,
    CutDrawRow,
    DismissalRow,
    PenaltyRow,
    RecordRow,
    RefereeCodeRow,
    Rows,
    SeatingRow,
    TournamentPlayerRow,
    TournamentRow,
    as_columns,
)
from ingest.schema import TOURNAMENT_TABLES
from ingest.sources.files import Prepared, report_json
from ingest.store import NewEvent

RECORD_ROWS: Final[dict[type[tournament_stream.TournamentEvent], type[RecordRow]]] = {
    tournament_stream.ScoreCorrected: CorrectionRow,
    tournament_stream.ReplayAccepted: AcceptedReplayRow,
    tournament_stream.CutDrawn: CutDrawRow,
}
"""The organiser's records whose read-model row is the event's own fields, with the
tournament and the event's place in its stream."""
REPLACED: Final = "a new code was issued for the table"
"""Why a referee code that a newer one for its table revoked stands revoked."""


def _revoke(code: RefereeCodeRow | None, seq: int, reason: str) -> None:
    """``code`` revoked by the record at ``seq``, unless it is none or revoked already."""
    if code is not None and code.revoked_seq is None:
        code.revoked_seq, code.revoked_reason = seq, reason


def project_tournament(
    events: Iterable[tournament_stream.TournamentEvent | Mapping[str, Any]], upload_id: int | None
) -> Rows:
    """Rows of the tournament read models from its stream, typed or as stored (``seq``:
    an event's place in it, so later records — a second seating of a round, a newer
    correction — win)."""
    rows: Rows = {table: [] for table in TOURNAMENT_TABLES}
    tid = ""
    players: dict[str, TournamentPlayerRow] = {}
    seatings: dict[tuple[int, str], tuple[int, tournament_stream.SeatingPublished]] = {}
    codes: dict[str, RefereeCodeRow] = {}
    penalties: list[PenaltyRow] = []  # by number, less one
    live: dict[tuple[int, str], RefereeCodeRow] = {}  # each table's newest code: another revokes it
    # a withdrawal kept from a revision before comes ahead of the new file's registrations
    # (ingest.revisions.standing): it waits for the player's, or a new file undid it unsaid
    waiting: dict[str, tuple[int, str]] = {}
    for seq, event in enumerate(map(tournament_stream.tournament_event, events), start=1):
        match event:
            case tournament_stream.TournamentCreated():
                tid = event.tournament
                rows["tournaments"] = [TournamentRow(upload_id=upload_id, **event.model_dump(exclude={"type"}))]
            case tournament_stream.PlayerRegistered():
                known = players.get(event.player)  # a second registration renames, and withdraws no one
                left = (known.withdrawn_seq, known.withdrawn_reason) if known else waiting.pop(event.player, None)
                players[event.player] = TournamentPlayerRow(
                    tournament=tid,
                    player=event.player,
                    name=event.name,
                    withdrawn_seq=left[0] if left else None,
                    withdrawn_reason=left[1] if left else None,
                )
            case tournament_stream.PlayerWithdrawn():
                gone = players.get(event.player)
                if gone is None:
                    waiting.setdefault(event.player, (seq, event.reason))
                elif gone.withdrawn_seq is None:
                    gone.withdrawn_seq, gone.withdrawn_reason = seq, event.reason
            case tournament_stream.PlayerReturned():
                back = players.get(event.player)
                if back is None:
                    waiting.pop(event.player, None)
                else:
                    back.withdrawn_seq = back.withdrawn_reason = None
            case tournament_stream.SeatingPublished():
                seatings[(event.tournament_round, event.stage)] = (seq, event)
            case tournament_stream.PenaltyGiven():
                penalty = PenaltyRow(
                    tournament=tid, seq=seq, number=len(penalties) + 1, **event.model_dump(exclude={"type"})
                )
                penalties.append(penalty)
            case tournament_stream.PenaltyWithdrawn():
                withdrawn = penalties[event.penalty - 1] if event.penalty <= len(penalties) else None
                if withdrawn is not None and withdrawn.withdrawn_seq is None:
                    withdrawn.withdrawn_seq, withdrawn.withdrawn_reason = seq, event.reason
            case tournament_stream.ScoreCorrected() | tournament_stream.ReplayAccepted() | tournament_stream.CutDrawn():
                row_type = RECORD_ROWS[type(event)]
                rows[row_type.TABLE].append(row_type(tournament=tid, seq=seq, **event.model_dump(exclude={"type"})))
            case tournament_stream.FindingDismissed():
                rows["dismissals"].append(
                    DismissalRow(tournament=tid, seq=seq, finding_id=event.finding, reason=event.reason)
                )
            case tournament_stream.RefereeCodeIssued():
                _revoke(live.get((event.tournament_round, event.table)), seq, REPLACED)
                code = RefereeCodeRow(
                    tournament=tid,
                    seq=seq,
                    tournament_round=event.tournament_round,
                    stage=event.stage,
                    table_label=event.table,
                    code_sha256=event.code_sha256,
                )
                codes[event.code_sha256] = live[(event.tournament_round, event.table)] = code
            case tournament_stream.RefereeCodeRevoked():
                _revoke(codes.get(event.code_sha256), seq, event.reason)
    rows["tournament_players"] = list(players.values())
    rows["penalties"] = list(penalties)
    rows["referee_codes"] = list(codes.values())
    for (number, stage), (seq, seating) in sorted(seatings.items()):
        for table in seating.tables:
            for seat, player in enumerate(table.players, start=1):
                rows["seatings"].append(
                    SeatingRow(
                        tournament=tid,
                        tournament_round=number,
                        stage=stage,
                        table_label=table.table,
                        seat=seat,
                        player=player,
                        seq=seq,
                    )
                )
    return rows


class _Twice(ValueError):
    """A key written twice in one object of a tournament file."""


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of a tournament file, each key once (:class:`_Twice` otherwise)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Twice(key)
        found[key] = value
    return found


def _key_twice(raw: bytes) -> str | None:
    """A key a tournament file writes twice in one object, if any: JSON takes the last
    (a ``cut`` of 6 then 9 was 9, unsaid), where a log's line with one is malformed.
    Whatever else is wrong with the text is the model's to say."""
    try:
        json.loads(raw, object_pairs_hook=_once)
    except _Twice as twice:
        return str(twice)
    except (ValueError, RecursionError):
        return None
    return None


_JSON_AT: Final = re.compile(r"at line (\d+) column (\d+)$")
"""Where pydantic's JSON reader stopped, at the end of its reason."""


def _crowded_table(error: Mapping[str, Any], raw: bytes) -> Said | None:
    """A seated table of more players than a table seats, said as a table of too few is
    (R-TS1, its round and its label, :func:`events.rules.tournament.check_seating`): the
    model refuses it before the rules see it, and said pydantic's English ("List should
    have at most 10 items after validation, not 11") naming no round or table."""
    loc = error["loc"]
    if error["type"] != "too_long" or len(loc) != 5 or (loc[0], loc[2], loc[4]) != ("seatings", "tables", "players"):
        return None
    try:
        seating = json.loads(raw)["seatings"][loc[1]]
        table = seating["tables"][loc[3]]
        labels, number = [str(table["table"])], seating["tournament_round"]
        wrong = check_seating([list(table["players"])], [], labels=labels)
    except (ValueError, LookupError, TypeError, RecursionError):
        return None
    if wrong is None or not isinstance(number, int) or isinstance(number, bool):
        return None
    said = say("round %(round)s: %(problem)s", round=number, problem=(wrong.said,))
    problem = ruled(Breach(wrong.code, wrong.rule, said))
    return say("not a tournament file: `%(field)s`: %(problem)s", field=f"seatings.{loc[1]}", problem=(problem,))


def prepare_tournament(name: str, raw: bytes, sha: str) -> Prepared:
    if len(raw) > MAX_FILE_BYTES:
        raise UnreadableLog(say("a tournament file of more than 16 MiB"))
    twice = _key_twice(raw.removeprefix(BOM))
    if twice is not None:
        raise UnreadableLog(say("not a tournament file: key %(key)s appears twice in one object", key=repr(twice)))
    try:
        description = TournamentFile.model_validate_json(raw.removeprefix(BOM))  # a BOM, as logs and sheets allow
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        at = _JSON_AT.search(str(first.get("ctx", {}).get("error", ""))) if first["type"] == "json_invalid" else None
        if at is not None:  # the decoder's English reason stood inside a translated sentence: its place says enough
            line, column = at.groups()
            said = say("not a tournament file: not JSON at line %(line)s, column %(column)s", line=line, column=column)
            raise UnreadableLog(said) from None
        crowded = _crowded_table(first, raw.removeprefix(BOM))
        if crowded is not None:
            raise UnreadableLog(crowded) from None
        said = (  # in the catalogue's words where a log's field has them (events.logfile.said_of)
            say("not a tournament file: `%(field)s`: %(problem)s", field=where, problem=(said_of(first),))
            if where
            else say("not a tournament file: %(problem)s", problem=(said_of(first),))  # not JSON: no field to name
        )
        raise UnreadableLog(said) from None
    problems = description.problems()
    if problems:
        where, problem = problems[0]
        raise UnreadableLog(say("not a tournament file: `%(field)s`: %(problem)s", field=where, problem=(problem,)))
    events = description.events()
    stream = f"tournament:{description.id}"
    stored = [NewEvent(stream, event.type, dump(event)) for event in events]
    report = report_json(name, "clean", [], tournament=description.id)
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
        rows=as_columns(project_tournament(events, upload_id=0)),
    )
