"""Read-model rows of one game, from one checking replay of its lines.

The same function serves the ingest (rows for the file just audited) and the rebuild
(rows for the events stored): both feed it the same lines, so a rebuild gives exactly
the tables incremental ingest built. One pass feeds the audit, the outcomes and the
statistics extractor, python-chess visitor style.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from events import cards
from events.audit import Audit, Auditor
from events.findings import Finding, Unlisted
from events.logfile import LogLine
from events.replay import CardPlay, Replay
from events.said import stored
from events.schema import (
    GameStarted,
    RoundEnded,
    RoundStarted,
    parse_timestamp,
)
from events.state import GameState, Outcome, RoundState
from events.visitor import ReplayVisitor, walk
from ingest.readmodels import (
    CardPlayedRow,
    FindingRow,
    GameRow,
    RoundPlayerRow,
    RoundRow,
    Rows,
    Tables,
    as_columns,
    won,
)
from ingest.tables import Columns, names


class CardsPlayed:
    """The cards played of one game as the columns of ``cards_played``, a value
    appended to each as the replay meets a card (:meth:`add`); the game id and the
    roles, which only the round's end shows, are filled in at once (:meth:`settle`).

    A game plays a card on most of its lines: a row object each, read back a field at a
    time for the store, cost the projection a third of its time.
    """

    def __init__(self) -> None:
        self.data: dict[str, list[Any]] = {name: [] for name in names(CardPlayedRow)}

    def __len__(self) -> int:
        return len(self.data["line"])

    def add(self, event: Any, line: int, turn: int, number: int) -> None:
        """A card played, in round ``number``, as the ``turn``-th play of the round: a
        model or a Struct (:mod:`events.structs`), both told by their type."""
        target = tool = x = y = goal = None
        kind = event.type
        if kind == "play_tool":
            target, tool = event.target, event.tool
        elif kind in ("play_path", "play_rockfall"):
            x, y = event.x, event.y
        elif kind == "play_map":
            goal = event.goal
        data = self.data
        data["round"].append(number)
        data["line"].append(line)
        data["turn"].append(turn)
        data["player"].append(event.player)
        data["type"].append(kind)
        data["card"].append(event.card)
        data["target"].append(target)
        data["tool"].append(tool)
        data["x"].append(x)
        data["y"].append(y)
        data["goal"].append(goal)

    def settle(self, game_id: str, roles: dict[int, dict[str, str | None]]) -> None:
        """Every card's game and the roles of its player and target, by round, as the
        round's end shows them."""
        data = self.data
        data["game_id"] = [game_id] * len(self)
        data["role"] = [roles[r].get(p) for r, p in zip(data["round"], data["player"], strict=True)]
        data["target_role"] = [
            roles[r].get(t) if t is not None else None for r, t in zip(data["round"], data["target"], strict=True)
        ]

    def columns(self) -> Columns:
        return Columns(CardPlayedRow, self.data)

    def rows(self) -> list[CardPlayedRow]:
        """The cards as row objects (a rebuild's rows, a test's)."""
        fields = names(CardPlayedRow)
        columns = zip(*(self.data[name] for name in fields), strict=True)  # uneven until settled
        return [CardPlayedRow(**dict(zip(fields, values, strict=True))) for values in columns]


@dataclass
class GameRows:
    """Rows for the read models, table by table."""

    games: list[GameRow] = field(default_factory=list)
    rounds: list[RoundRow] = field(default_factory=list)
    round_players: list[RoundPlayerRow] = field(default_factory=list)
    findings: list[FindingRow] = field(default_factory=list)
    cards: CardsPlayed = field(default_factory=CardsPlayed)

    @property
    def cards_played(self) -> list[CardPlayedRow]:
        return self.cards.rows()

    def tables(self) -> Rows:
        """The rows by read-model table."""
        return {**self._objects(), CardPlayedRow.TABLE: self.cards_played}

    def columns(self) -> Tables:
        """The rows by read-model table, as columns (a table without rows left out):
        what an audited file carries to the writer."""
        tables = as_columns(self._objects())
        if len(self.cards):
            tables[CardPlayedRow.TABLE] = self.cards.columns()
        return tables

    def _objects(self) -> Rows:
        """The tables held as row objects: all but the cards played."""
        return {
            GameRow.TABLE: self.games,
            RoundRow.TABLE: self.rounds,
            RoundPlayerRow.TABLE: self.round_players,
            FindingRow.TABLE: self.findings,
        }


@dataclass
class _RoundNotes:
    started_at: Any = None
    ended_at: Any = None
    start_player: str | None = None
    claim: RoundEnded | None = None
    over_before_end: bool = False
    gold_slot: str | None = None
    roles: dict[str, str | None] = field(default_factory=dict)
    turns: int = 0
    rockfalls: int = 0
    maps: int = 0


def gold_slot(rs: RoundState) -> str | None:
    """Where the round's gold lies, as far as the log shows it: dealt, in a full log; in
    an observed log, turned up — or the one goal left face down once both stones are.

    >>> from events.builder import LogBuilder
    >>> gold_slot(LogBuilder(players=5).deal(goals={"top": "goal_gold", "middle": "goal_stone_ne",
    ...     "bottom": "goal_stone_nw"}).round)
    'top'
    """
    known = {slot: rs.maze.goal_card(slot) for slot in cards.SLOTS}
    unseen = [slot for slot, card in known.items() if card == cards.UNSEEN]
    if len(unseen) == 1 and cards.GOLD not in known.values():
        return unseen[0]
    return next((slot for slot, card in known.items() if card == cards.GOLD), None)


def _moment(at: str | None) -> Any:
    if at is None:
        return None
    try:
        return parse_timestamp(at)
    except ValueError:
        return None


def finding_id(game_id: str | None, finding: Finding | Unlisted) -> str:
    """A finding's stable id: the same finding of the same game has it after any rebuild."""
    key = f"{game_id}|{finding.line}|{finding.code}|{finding.player}|{finding.message}"
    return hashlib.sha256(key.encode("utf-8", "backslashreplace")).hexdigest()[:12]


def finding_of(finding: Finding | Unlisted, game_id: str | None, upload_id: int) -> FindingRow:
    """A finding's row (or the row that counts those a report does not list)."""
    return FindingRow(
        finding_id=finding_id(game_id, finding),
        game_id=game_id,
        upload_id=upload_id,
        code=str(finding.code),
        line=finding.line,
        round=finding.round,
        player=finding.player,
        rule=finding.rule,
        severity=finding.severity,
        message=finding.message,
        said=stored(finding.said) if finding.said is not None else None,
    )


def project_log(lines: Iterable[LogLine], *, name: str, upload_id: int, revision: int = 1) -> tuple[Audit, GameRows]:
    """Audit a game's lines and derive its read-model rows in the same walk.

    The lines must start with a valid ``game_started`` (an unreadable log has no rows;
    :class:`~events.logfile.UnreadableLog` propagates).
    """
    auditor = Auditor(name)
    projector = Projector(auditor, upload_id, revision)
    walk(lines, auditor, projector)
    return projector.result()


class Projector(ReplayVisitor[tuple[Audit, GameRows]]):
    """The read-model rows of one game, as a visitor of :func:`~events.visitor.walk`.

    It takes notes on every round and a row per card played; at the end the rows are
    made from them and the verdict of ``auditor``, which must ride on the same walk.
    """

    def __init__(self, auditor: Auditor, upload_id: int, revision: int) -> None:
        self.auditor = auditor
        self.upload_id = upload_id
        self.revision = revision
        self.game: GameStarted | None = None
        self.notes: dict[int, _RoundNotes] = {}
        self.rows = GameRows()
        self.times: list[str] = []
        """Every line's time as written: the game's first and last are read from them
        once it is over (parsing each line's would cost the projection a fifth of its
        time)."""

    def begin_game(self, replay: Replay) -> None:
        self.game = replay.state.game

    def round_started(self, line: int, event: RoundStarted, rs: RoundState) -> None:
        self.notes[rs.number] = _RoundNotes(
            started_at=_moment(event.at),
            start_player=event.start_player,
            roles=dict(rs.roles),
            gold_slot=gold_slot(rs),
        )

    def card_played(self, line: int, event: CardPlay, state: GameState) -> None:
        rs = state.round
        if rs is not None and not rs.ended and rs.number in self.notes:
            note = self.notes[rs.number]
            note.turns += 1
            kind = event.type
            if kind == "play_rockfall":
                note.rockfalls += 1
            elif kind == "play_map":
                note.maps += 1
            self.rows.cards.add(event, line, note.turns, rs.number)

    def round_ended(self, line: int, event: RoundEnded, rs: RoundState, outcome: Outcome | None) -> None:
        note = self.notes.get(rs.number)
        if note is not None and note.claim is None:
            note.claim = event
            note.ended_at = _moment(event.at)
            note.over_before_end = not rs.ended_early
            # what the round's end shows: an observed log turns the roles up only now,
            # and its goals as they were turned up
            note.roles = dict(rs.roles)
            note.gold_slot = gold_slot(rs)

    def visit_line(self, line: LogLine, state: GameState, found: list[Finding]) -> None:
        event = line.event
        if event is not None and event.at is not None:
            self.times.append(event.at)

    def result(self) -> tuple[Audit, GameRows]:
        audit = self.auditor.result()
        assert self.game is not None, "walk the log first"
        first_at = next((m for m in map(_moment, self.times) if m is not None), None)
        last_at = next((m for m in map(_moment, reversed(self.times)) if m is not None), None)
        _game_rows(self.rows, audit, self.game, self.notes, self.upload_id, self.revision, first_at, last_at)
        return audit, self.rows


def _game_rows(
    rows: GameRows,
    audit: Audit,
    game: GameStarted,
    notes: dict[int, _RoundNotes],
    upload_id: int,
    revision: int,
    first_at: Any,
    last_at: Any,
) -> None:
    game_id = game.game_id
    rows.cards.settle(game_id, {number: note.roles for number, note in notes.items()})
    errors_by_round = audit.errors_by_round
    rows.findings.extend(finding_of(f, game_id, upload_id) for f in audit.listed())
    rows.games.append(
        GameRow(
            game_id=game_id,
            upload_id=upload_id,
            source="log",
            recording=game.recording or "full",
            ruleset=game.ruleset,
            tournament=game.tournament,
            tournament_round=game.tournament_round,
            stage=game.stage or ("preliminary" if game.tournament else None),
            table_label=game.table,
            players=len(game.players),
            player_ids=list(game.players),
            rounds_planned=game.rounds,
            rounds_played=audit.rounds_over,
            status=audit.status,
            errors=audit.errors,
            warnings=audit.warnings,
            started_at=first_at,
            ended_at=last_at,
            revision=revision,
        )
    )
    seats = {player: seat for seat, player in enumerate(game.players, start=1)}
    for outcome in audit.outcomes:
        note = notes.get(outcome.round, _RoundNotes())
        roles = note.roles
        claim = note.claim
        counted = Counter(r for r in roles.values())
        # a round counted without its round_ended is one the rules had over (R-E2)
        over = note.over_before_end or claim is None
        ended_by = "gold" if outcome.connector else ("hands_empty" if over else "early")
        rows.rounds.append(
            RoundRow(
                game_id=game_id,
                round=outcome.round,
                ruleset=game.ruleset,
                players=len(game.players),
                saboteurs=counted["saboteur"],
                selfish_dwarfs=counted["selfish_dwarf"],
                winner=outcome.winner,
                claimed_winner=claim.winner if claim else None,
                connector=outcome.connector,
                connector_role=roles.get(outcome.connector) if outcome.connector else None,
                gold_slot=note.gold_slot,
                ended_by=ended_by,
                turns=note.turns,
                start_player=note.start_player,
                start_seat=seats.get(note.start_player or ""),
                rockfalls=note.rockfalls,
                maps=note.maps,
                errors=errors_by_round[outcome.round],
                started_at=note.started_at,
                ended_at=note.ended_at,
            )
        )
        for player in game.players:
            role = roles.get(player)
            rows.round_players.append(
                RoundPlayerRow(
                    game_id=game_id,
                    round=outcome.round,
                    player=player,
                    seat=seats[player],
                    role=role,
                    recorded_points=claim.scores.get(player) if claim else None,
                    replay_points=outcome.scores.get(player),
                    # a round its log ended before it was over has no winner (R-E1, R-E2):
                    # the replay's "gold not reached" gives the saboteurs no star
                    star=player in outcome.stars and ended_by != "early",
                    won=won(player, role, winner=outcome.winner, connector=outcome.connector),
                    connector=player == outcome.connector,
                )
            )
