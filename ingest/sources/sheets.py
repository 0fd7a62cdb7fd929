"""Score sheets as uploads: each game of a sheet becomes a ``score_sheet_game`` and its
``round_recorded`` events, audited for consistency, and projected into the same game
read models a log fills."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from events.findings import Finding
from events.logfile import UnreadableLog
from events.records import dump
from events.records.sheet import RoundRecorded, ScoreSheetGame, SheetEvent, sheet_event
from events.said import say
from ingest import scoresheet
from ingest.limits import MAX_SHEET_BYTES, MAX_SHEET_MIB
from ingest.projection import finding_of
from ingest.readmodels import GameRow, RoundPlayerRow, RoundRow, Rows, as_columns, won
from ingest.sources.files import Prepared, report_json
from ingest.store import NewEvent


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
            RoundRow(
                game_id=game_id,
                round=record.round,
                ruleset="tournament",
                players=len(results),
                saboteurs=sum(r == "saboteur" for r in roles.values()),
                selfish_dwarfs=sum(r == "selfish_dwarf" for r in roles.values()),
                winner=matched["winner"] if matched else None,
                claimed_winner=None,
                connector=matched["connector"] if matched else None,
                connector_role=matched["connector_role"] if matched else None,
                gold_slot=None,
                ended_by="score_sheet",
                turns=None,
                start_player=None,
                start_seat=None,
                rockfalls=None,
                maps=None,
                errors=len(found),
                started_at=None,
                ended_at=None,
            )
        )
        for seat, (player, result) in enumerate(results.items(), start=1):
            rows["round_players"].append(
                RoundPlayerRow(
                    game_id=game_id,
                    round=record.round,
                    player=player,
                    seat=players.index(player) + 1 if player in players else seat,
                    role=result.role,
                    recorded_points=result.points,
                    replay_points=result.points if matched else None,
                    star=result.star,
                    won=won(
                        player,
                        result.role,
                        winner=matched["winner"] if matched else None,
                        connector=matched["connector"] if matched else None,
                    ),
                    connector=bool(matched and matched["connector"] == player),
                )
            )
    rows["findings"] = [finding_of(f, game_id, upload_id) for f in findings]
    rows["games"].append(
        GameRow(
            game_id=game_id,
            upload_id=upload_id,
            source="score_sheet",
            ruleset="tournament",
            tournament=header.tournament,
            tournament_round=header.tournament_round,
            stage=header.stage or ("preliminary" if header.tournament else None),
            table_label=header.table,
            players=len(players),
            player_ids=players,
            rounds_planned=None,
            rounds_played=len(records),
            status="violations" if findings else "clean",
            errors=len(findings),
            warnings=0,
            started_at=None,
            ended_at=None,
            revision=revision,
        )
    )
    return findings, rows


def prepare_sheet(name: str, raw: bytes, sha: str) -> Prepared:
    """One score sheet's games as events and rows; :class:`UnreadableLog` for a sheet that
    cannot be read, or one over :data:`~ingest.limits.MAX_SHEET_BYTES`."""
    if len(raw) > MAX_SHEET_BYTES:
        said = say(
            "%(size)s bytes: more than %(limit)s MiB, the limit of a score sheet; put each tournament's "
            "games, or each round's, in a sheet of its own",
            size=len(raw),
            limit=MAX_SHEET_MIB,
        )
        raise UnreadableLog(said)
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
    report = report_json(name, status, sorted(findings, key=lambda f: f.line), games=list(scoresheet.games_of(entries)))
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
        rows=as_columns(rows),
        errors=len(findings),
    )
