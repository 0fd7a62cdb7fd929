"""A table in play as everyone else sees it: the game a referee is recording, now.

A referee records a game at the table into its draft (:mod:`ingest.drafts`): an
observed log, written line by line. :func:`table_view` replays the lines so far and
keeps only what the table itself shows: the maze as laid (a goal face down until it is
turned up), what is due and whose turn it is, each hand and the draw pile counted, the
broken tools in front of the players, and what the findings so far name.

Nothing here can carry a hidden card. A draft that is no observed log is not shown at
all (:class:`~events.recorder.NotObserved`); the hands and the pile are counts; the
roles are not kept (the table learns them at the round's end, and the game's own
pages show them once it is stored); and a finding keeps what it names (code, rule,
player, line) but not its message, which may quote the words a referee wrote in a
note (R-C1). Nothing here draws with Streamlit, and nothing here is in words: the page
tells the last frame in the reader's language (it is cached for every reader).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dashboard.replay_view import Cell, Frame, game_view
from events.findings import Finding
from events.logfile import parse_lines
from events.maze import Placed
from events.recorder import Due, Recorder
from events.schema import GameStarted


@dataclass(frozen=True, slots=True)
class Seat:
    """One player at the table, in seat order: the cards in hand (counted) and the
    broken tools lying in front of them."""

    player: str
    cards: int
    broken: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Flag:
    """A finding as the public page names it: where, which rule, whom; no message."""

    line: int
    code: str
    rule: str
    severity: str
    player: str | None

    @classmethod
    def of(cls, finding: Finding) -> Flag:
        return cls(finding.line, finding.code.value, finding.rule, finding.severity, finding.player)


@dataclass(frozen=True, slots=True)
class TableView:
    """The table after the last line recorded."""

    game_id: str
    tournament: str | None
    tournament_round: int | None
    stage: str | None
    table: str | None
    rounds: int
    """Rounds the game is to have."""
    round: int | None
    """The round dealt last (``None`` before the first deal)."""
    due: Due
    """What the table does next (:meth:`events.recorder.Recorder.due`): its player is
    the one whose turn it is."""
    seats: tuple[Seat, ...]
    pile: int
    discards: int
    last: Frame | None
    """The replay's frame of the last line recorded (``None`` before the first deal),
    which the page puts in words as everyone at the table saw it (:meth:`Frame.told`),
    in the reader's language."""
    cells: dict[Cell, Placed]
    setup_cell: Cell | None
    acted_on: Cell | None
    flags: tuple[Flag, ...]
    lines: int


def table_view(lines: Sequence[str]) -> TableView:
    """The table that an observed log's ``lines`` (a draft's, so far) leave.

    Raises :class:`~events.recorder.NotObserved` for lines that are no observed log (a
    full log names every hidden card), :class:`ValueError` for no lines at all.
    """
    recorder = Recorder(lines)  # refuses a log that is not observed, before anything is read from it
    game: GameStarted = recorder.game
    view = game_view(parse_lines(lines))
    frame = _now(view.rounds[max(view.rounds)].frames) if view.rounds else None
    rs = recorder.round
    counts = recorder.hand_counts()
    return TableView(
        game_id=game.game_id,
        tournament=game.tournament,
        tournament_round=game.tournament_round,
        stage=game.stage,
        table=game.table,
        rounds=game.rounds,
        round=rs.number if rs is not None else None,
        due=recorder.due(),
        seats=tuple(
            Seat(p, counts[p], tuple(sorted(rs.broken.get(p, ()))) if rs is not None else ()) for p in game.players
        ),
        pile=recorder.pile_count(),
        discards=len(rs.discards) if rs is not None else 0,
        last=frame,
        cells=frame.cells if frame is not None else {},
        setup_cell=frame.setup_cell if frame is not None else None,
        acted_on=frame.acted_on if frame is not None else None,
        flags=tuple(Flag.of(f) for f in recorder.findings),
        lines=len(recorder.lines),
    )


def _now(frames: Sequence[Frame]) -> Frame:
    """The frame of the last line recorded: the replay viewer's frame for the log's end
    ("the log stops here") only says that a draft stops, as a draft in play does."""
    recorded = [frame for frame in frames if frame.kind != "end_of_log"]
    return recorded[-1] if recorded else frames[-1]


def by_name(text: str, names: Mapping[str, str]) -> str:
    """``text`` (the log's words, which name players by id) with each player's name.

    >>> by_name("ann-b breaks bob's lamp", {"ann-b": "Ann B.", "bob": "Bob"})
    "Ann B. breaks Bob's lamp"
    """
    if not names:
        return text
    ids = "|".join(re.escape(player) for player in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])(?:{ids})(?![\w-])", lambda found: names[found.group(0)], text)
