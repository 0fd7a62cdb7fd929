"""A round as the replay viewer steps through it: one frame per log line.

:func:`game_view` folds a game's stored lines through the checking replay
as a visitor of :func:`events.visitor.walk` — the same walk the audit rides on, so every
violation turns up at the step that brought it to light — and keeps, for each line, what the table
showed after it: the maze, whose turn it is, the hands and roles, broken tools, the
pile and discard counts, the findings. Frames hold plain copies, so they can be cached
and pickled; nothing here imports Streamlit.

Each frame carries two descriptions of its line: the public one (a draw or a pass
without the card, a map without what it showed, a referee's note without its words)
and the referee's. The page decides which to show; a round that has not ended is only
ever shown in public to the public, and from the observed log of its game
(:func:`events.observe.observe`), so the public never sees more than the table.

An observed log (``GameView.observed``) shows no hidden card to anyone: its hands and
pile are counted (each card :data:`~events.cards.UNSEEN`), a face-down goal is unseen
until it is turned up, and the roles are unknown until the round's end names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from events import cards
from events.findings import Finding
from events.logfile import LogLine
from events.maze import Placed
from events.replay import CardPlay, Replay, note_message
from events.rules.turns import next_holder
from events.schema import (
    Discard,
    Draw,
    Event,
    GameEnded,
    GoalRevealed,
    PlayMap,
    PlayPath,
    PlayRockfall,
    PlayTool,
    RefereeNote,
    RoundEnded,
    RoundStarted,
)
from events.state import GameState, Outcome, RoundState
from events.visitor import ReplayVisitor, walk

Cell = tuple[int, int]

WINNERS = {
    "gold_diggers": "the gold diggers won",
    "saboteurs": "the saboteurs won",
    "selfish_dwarf": "the selfish dwarf won",
    "nobody": "nobody won",
}


@dataclass(frozen=True, slots=True)
class Violation:
    """A finding as the viewer lists it."""

    line: int
    code: str
    rule: str
    severity: str
    player: str | None
    message: str

    @classmethod
    def of(cls, finding: Finding) -> Violation:
        return cls(finding.line, finding.code.value, finding.rule, finding.severity, finding.player, finding.message)


@dataclass(frozen=True, slots=True)
class Frame:
    """The table right after one line of the log."""

    line: int
    kind: str
    """The event's type; ``unreadable`` for a line that is no event, ``end_of_log`` for
    the log's end."""
    public: str
    """What happened, as everyone at the table saw it."""
    referee: str
    """What happened, with the cards only the player saw."""
    cells: dict[Cell, Placed]
    setup_cell: Cell | None
    acted_on: Cell | None
    turn: str
    """Who acts next: the player still to draw, else the next holder of cards."""
    hands: dict[str, tuple[str, ...]]
    roles: dict[str, str | None]
    broken: dict[str, tuple[str, ...]]
    peeks: dict[str, tuple[str, ...]]
    pile: int
    discards: int
    over: bool
    findings: tuple[Violation, ...]
    result: str | None = None
    """The round's outcome as the rules give it, on the frame of its ``round_ended``."""


@dataclass
class RoundView:
    """One round's frames; ``ended``: its ``round_ended`` is in the log (or the game went
    on past it), so what was hidden during it may be shown."""

    number: int
    frames: list[Frame] = field(default_factory=list)
    ended: bool = False

    @property
    def violations(self) -> list[tuple[int, Violation]]:
        """Every finding of the round with the step it came to light at."""
        return [(step, v) for step, frame in enumerate(self.frames) for v in frame.findings]


@dataclass
class GameView:
    """Every round of one game, ready to step through."""

    game_id: str
    ruleset: str
    players: tuple[str, ...]
    rounds: dict[int, RoundView] = field(default_factory=dict)
    ended: bool = False
    opening: tuple[Violation, ...] = ()
    """Findings of lines before the first round (they belong to no round)."""
    observed: bool = False
    """An observed log: its frames hold no hidden card (hands and pile counted, goals
    unseen until turned up, roles unknown until the round's end)."""


def _copy_cells(cells: Mapping[Cell, Placed]) -> dict[Cell, Placed]:
    return {cell: Placed(p.card, p.kind, p.rotated, p.sides, p.passable, p.face_up) for cell, p in cells.items()}


def describe(event: Event | None, rs: RoundState | None) -> tuple[str, str, Cell | None]:
    """(public, referee, the cell acted on) for one event: the words of the replay's
    steps, and of the entries on the recording page."""
    if isinstance(event, RoundStarted):
        text = f"round {event.round} is dealt; {event.start_player} starts"
        setup = f"; the setup card is {event.setup_card.card}" if event.setup_card is not None else ""
        return text + setup, text + setup, None
    if isinstance(event, PlayPath):
        text = f"{event.player} lays {event.card}{' turned' if event.rotated else ''} at ({event.x}, {event.y})"
        return text, text, (event.x, event.y)
    if isinstance(event, PlayTool):
        if event.card in cards.BREAK_CARDS:
            text = f"{event.player} breaks {event.target}'s {cards.BREAK_CARDS[event.card]}"
        else:
            mends = event.tool or " or ".join(cards.REPAIR_CARDS.get(event.card, ()))
            text = f"{event.player} mends {event.target}'s {mends} ({event.card})"
        return text, text, None
    if isinstance(event, PlayRockfall):
        text = f"{event.player} brings down the card at ({event.x}, {event.y})"
        return text, text, (event.x, event.y)
    if isinstance(event, PlayMap):
        text = f"{event.player} looks at the {event.goal} goal"
        seen = ""
        if rs is not None:
            hidden = rs.maze.cells.get(cards.GOAL_CELLS[event.goal])
            if hidden is not None and hidden.card != cards.UNSEEN:
                seen = f": it is {'the gold' if hidden.card == cards.GOLD else 'stone'}"
        return text, text + seen, cards.GOAL_CELLS[event.goal]
    if isinstance(event, Discard):
        text = f"{event.player} passes, a card face down"
        return text, text if event.card is None else f"{event.player} passes, discarding {event.card}", None
    if isinstance(event, Draw):
        text = f"{event.player} draws a card"
        return text, text if event.card is None else f"{event.player} draws {event.card}", None
    if isinstance(event, RefereeNote):
        # what the referee saw is the table's; their words may name a card that was shown
        return note_message(event.model_copy(update={"note": ""})), note_message(event), None
    if isinstance(event, GoalRevealed):
        text = f"the {event.goal} goal is turned up{' turned' if event.rotated else ''}"
        if rs is not None:
            goal = rs.maze.cells.get(cards.GOAL_CELLS[event.goal])
            if goal is not None and goal.face_up:
                text += ": the gold" if goal.card == cards.GOLD else ": stone"
        return text, text, cards.GOAL_CELLS[event.goal]
    if isinstance(event, RoundEnded):
        text = f"round {event.round} ends: the log says {WINNERS.get(event.winner, event.winner)}"
        return text, text, None
    if isinstance(event, GameEnded):
        return "the game ends", "the game ends", None
    return "a line that is no event", "a line that is no event", None


def _frame(
    line: int,
    kind: str,
    rs: RoundState,
    words: tuple[str, str, Cell | None],
    findings: Iterable[Finding],
    setup_cell: Cell | None,
    result: str | None = None,
) -> Frame:
    public, referee, acted_on = words
    turn = rs.turn
    if rs.played and not rs.draw_due and not rs.over:
        turn = next_holder(list(rs.hands), rs.turn, rs.hands) or rs.turn
    return Frame(
        line=line,
        kind=kind,
        public=public,
        referee=referee,
        cells=_copy_cells(rs.maze.cells),
        setup_cell=setup_cell,
        acted_on=acted_on,
        turn=turn,
        hands={p: tuple(h) for p, h in rs.hands.items()},
        roles=dict(rs.roles),
        broken={p: tuple(sorted(t)) for p, t in rs.broken.items()},
        peeks={p: tuple(sorted(g)) for p, g in rs.peeks.items()},
        pile=len(rs.pile),
        discards=len(rs.discards),
        over=rs.over,
        findings=tuple(Violation.of(f) for f in findings),
        result=result,
    )


def _shown(replay: Replay) -> RoundState | None:
    """The round as the table sees it now: right after a placement whose goals are being
    turned up, the reveals are settled as if the log went on (the checking replay judges
    them only when the next event shows the run is over). An observed log knows a goal
    only from the line that turns it up: until then it stays face down here, where
    settling would have to guess it."""
    rs = replay.state.round
    if rs is None or rs.reveal_run is None or not (rs.reveal_run.entries or rs.maze.reached_goals()):
        return rs
    settled = replay.settled().round
    game = replay.state.game
    if settled is not None and game is not None and game.observed:
        named = {slot for slot, _, _, card in rs.reveal_run.entries if card is not None}
        for slot, cell in cards.GOAL_CELLS.items():
            if rs.maze.goal_card(slot) == cards.UNSEEN and slot not in named:
                settled.maze.cells[cell] = rs.maze.cells[cell]
    return settled


def game_view(lines: Iterable[LogLine]) -> GameView:
    """Replay a game's lines (the checking path) into frames, round by round.

    Raises :class:`~events.logfile.UnreadableLog` for lines that are no log at all.
    """
    builder = GameViewBuilder()
    walk(lines, builder)
    return builder.result()


class GameViewBuilder(ReplayVisitor[GameView]):
    """A frame for every line of the walk, filed under its round; the findings of lines
    that belong to no round go to the game's opening."""

    def __init__(self) -> None:
        self.replay: Replay | None = None
        self.view: GameView | None = None
        self.current: RoundView | None = None
        self.setup_cell: Cell | None = None
        self.outcome: str | None = None
        self.opening: list[Violation] = []

    def begin_game(self, replay: Replay) -> None:
        game = replay.state.game
        assert game is not None
        self.replay = replay
        self.view = GameView(game.game_id, game.ruleset, tuple(game.players), observed=game.observed)

    def round_started(self, line: int, event: RoundStarted, rs: RoundState) -> None:
        assert self.view is not None
        if self.current is not None:
            self.current.ended = True
        self.current = self.view.rounds.setdefault(rs.number, RoundView(rs.number))
        dealt_setup = event.setup_card is not None and cards.SETUP_CELL in rs.maze.cells
        self.setup_cell = cards.SETUP_CELL if dealt_setup else None

    def card_played(self, line: int, event: CardPlay, state: GameState) -> None:
        if isinstance(event, PlayRockfall) and (event.x, event.y) == self.setup_cell:
            self.setup_cell = None

    def round_ended(self, line: int, event: RoundEnded, rs: RoundState, outcome: Outcome) -> None:
        if self.current is None:
            return
        scores = ", ".join(f"{p} {'?' if s is None else s}" for p, s in outcome.scores.items())
        stars = f"; stars: {', '.join(outcome.stars)}" if outcome.stars else ""
        by = f" ({outcome.connector} reached the gold)" if outcome.connector else ""
        self.outcome = f"by the rules {WINNERS.get(outcome.winner, outcome.winner)}{by}: {scores}{stars}"
        self.current.ended = True

    def game_ended(self, line: int, event: GameEnded, state: GameState) -> None:
        if self.current is not None and self.view is not None:
            self.current.ended = True
            self.view.ended = True

    def visit_line(self, line: LogLine, state: GameState, found: list[Finding]) -> None:
        rs = state.round
        if rs is None or self.current is None:
            self.opening.extend(Violation.of(f) for f in found)
            return
        assert self.replay is not None
        event = line.event
        kind = event.type if event is not None else "unreadable"
        shown = _shown(self.replay) or rs
        words = describe(event, shown)
        self.current.frames.append(_frame(line.number, kind, shown, words, found, self.setup_cell, self.outcome))
        self.outcome = None

    def end(self, state: GameState, found: list[Finding]) -> None:
        rs = state.round
        if self.current is not None and rs is not None and (found or not rs.ended):
            assert self.replay is not None
            words = ("the log stops here", "the log stops here", None)
            self.current.frames.append(_frame(self.replay.last_line, "end_of_log", rs, words, found, self.setup_cell))
        elif found:
            self.opening.extend(Violation.of(f) for f in found)

    def result(self) -> GameView:
        assert self.view is not None, "walk the log first"
        self.view.opening = tuple(self.opening)
        return self.view
