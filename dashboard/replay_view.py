"""A round as the replay viewer steps through it: one frame per log line.

:func:`game_view` folds a game's stored lines through the checking replay
as a visitor of :func:`events.visitor.walk` — the same walk the audit rides on, so every
violation turns up at the step that brought it to light — and keeps, for each line, what the table
showed after it: the maze, whose turn it is, the hands and roles, broken tools, the
pile and discard counts, the findings. Frames hold plain copies, so they can be cached
and pickled, and hold no words: what a frame says is put in words when a page asks
(:meth:`Frame.told`), in the reader's language (:mod:`dashboard.i18n`; English outside a
page's run). Nothing here draws with Streamlit.

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
from types import MappingProxyType
from typing import Final
from urllib.parse import urlencode

from dashboard import names as words
from dashboard.card_words import a_card, place_words, who
from dashboard.i18n import N_, _
from events import cards
from events.findings import Finding
from events.logfile import LogLine
from events.maze import Placed
from events.replay import CardPlay, Replay
from events.rules.turns import next_holder
from events.said import Said
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

NO_NAMES: Final[Mapping[str, str]] = MappingProxyType({})
"""No registered names: every player by the log's id."""
WINNERS: Final = {
    "gold_diggers": N_("the gold diggers won"),
    "saboteurs": N_("the saboteurs won"),
    "selfish_dwarf": N_("the selfish dwarf won"),
    "nobody": N_("nobody won"),
}
"""Who won a round, as a sentence says it (``events.schema.Winner``)."""


def won(winner: str) -> str:
    """``saboteurs`` → "the saboteurs won", in the session's language."""
    return _(WINNERS[winner]) if winner in WINNERS else winner


SEVERITY_ICONS: Final = {"error": ":material/error:", "warning": ":material/warning:"}
"""The icon beside a finding of each severity: a round mark and a triangle, told apart
without their colours (Streamlit hides an icon from screen readers: the severity's word,
:func:`dashboard.names.severity`, goes beside it)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A finding as the viewer lists it."""

    line: int
    code: str
    rule: str
    severity: str
    player: str | None
    message: str
    said: Said | None = None

    @classmethod
    def of(cls, finding: Finding) -> Violation:
        code = finding.code.value
        return cls(finding.line, code, finding.rule, finding.severity, finding.player, finding.message, finding.said)


@dataclass(frozen=True, slots=True)
class Result:
    """A round's outcome as the rules give it (:class:`~events.state.Outcome`), kept to
    be put in words with the players' names."""

    winner: str
    connector: str | None
    scores: tuple[tuple[str, int | None], ...]
    stars: tuple[str, ...]

    @classmethod
    def of(cls, outcome: Outcome) -> Result:
        return cls(outcome.winner, outcome.connector, tuple(outcome.scores.items()), tuple(outcome.stars))

    def words(self, names: Mapping[str, str] = NO_NAMES) -> str:
        """``by the rules the gold diggers won (Ann reached the gold): Ann 3, Bob 0; stars: Ann``."""
        scores = ", ".join(f"{who(p, names)} {'?' if s is None else s}" for p, s in self.scores)
        winner = won(self.winner)
        if self.connector:
            winner = _("%(winner)s (%(player)s reached the gold)") % {
                "winner": winner,
                "player": who(self.connector, names),
            }
        text = _("by the rules %(winner)s: %(scores)s") % {"winner": winner, "scores": scores}
        if self.stars:
            text = _("%(text)s; stars: %(players)s") % {
                "text": text,
                "players": ", ".join(who(p, names) for p in self.stars),
            }
        return text


@dataclass(frozen=True, slots=True)
class Frame:
    """The table right after one line of the log."""

    line: int
    kind: str
    """The event's type; ``unreadable`` for a line that is no event, ``end_of_log`` for
    the log's end."""
    event: Event | None
    """The line's event, which :meth:`told` puts in words."""
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
    result: Result | None = None
    """The round's outcome as the rules give it, on the frame of its ``round_ended``."""

    def told(self, names: Mapping[str, str] = NO_NAMES, *, referee: bool = False) -> str:
        """What happened, in the table's words with the players by ``names``: as
        everyone at the table saw it, or (``referee``) with the cards only the player saw."""
        if self.kind == "end_of_log":
            return _("the log stops here")
        public, secret, _cell = describe(self.event, self.cells, names)
        return secret if referee else public

    @property
    def public(self) -> str:
        """What happened, as everyone at the table saw it (players by id)."""
        return self.told()

    @property
    def referee(self) -> str:
        """What happened, with the cards only the player saw (players by id)."""
        return self.told(referee=True)


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


def address(tournament: str | None, game_id: str, number: int, step: int | None = None) -> dict[str, str]:
    """The Replay page's address of a round (at a step): its query parameters."""
    named = {"tournament": tournament} if tournament else {}
    return {**named, "game": game_id, "round": str(number), **({"step": str(step)} if step is not None else {})}


def replay_link(tournament: str | None, game_id: str, number: int, step: int | None = None) -> str:
    """A link to a round on the Replay page, relative to the dashboard's pages.

    >>> replay_link("open 1", "open-1:r1:t2", 3)
    'replay?tournament=open+1&game=open-1%3Ar1%3At2&round=3'
    """
    return "replay?" + urlencode(address(tournament, game_id, number, step))


def _copy_cells(cells: Mapping[Cell, Placed]) -> dict[Cell, Placed]:
    return {cell: Placed(p.card, p.kind, p.rotated, p.sides, p.passable, p.face_up) for cell, p in cells.items()}


def describe(
    event: Event | None, cells: Mapping[Cell, Placed], names: Mapping[str, str] = NO_NAMES
) -> tuple[str, str, Cell | None]:
    """(public, referee, the cell acted on) for one event, in the table's words
    (:mod:`dashboard.card_words`: players by ``names``, cards and places in plain
    words, in the session's language): the replay's steps, and the entries on the
    recording page. ``cells``: the maze right after the event, which a map or a goal
    turned up shows."""
    if isinstance(event, RoundStarted):
        said = {"round": event.round, "player": who(event.start_player, names)}
        setup = event.setup_card
        if setup is None:
            text = _("round %(round)d is dealt; %(player)s starts") % said
        else:
            said["card"] = a_card(setup.card, setup.rotated)
            text = _("round %(round)d is dealt; %(player)s starts; the setup card is %(card)s") % said
        return text, text, None
    player = who(getattr(event, "player", None), names)
    if isinstance(event, PlayPath):
        place = place_words((event.x, event.y))
        text = _("%(player)s lays %(card)s at %(place)s") % {
            "player": player,
            "card": a_card(event.card, event.rotated),
            "place": place,
        }
        return text, text, (event.x, event.y)
    if isinstance(event, PlayTool):
        target = who(event.target, names)
        if event.card in cards.BREAK_CARDS:
            tool = words.tool(cards.BREAK_CARDS[event.card])
            text = _("%(player)s breaks %(target)s's %(tool)s") % {"player": player, "target": target, "tool": tool}
        else:
            tools = (event.tool,) if event.tool else cards.REPAIR_CARDS.get(event.card, ())
            text = _("%(player)s mends %(target)s's %(tool)s") % {
                "player": player,
                "target": target,
                "tool": tools_words(tools) or words.card(event.card),
            }
        return text, text, None
    if isinstance(event, PlayRockfall):
        place = place_words((event.x, event.y))
        text = _("%(player)s brings down the card at %(place)s with a rockfall") % {"player": player, "place": place}
        return text, text, (event.x, event.y)
    if isinstance(event, PlayMap):
        said = {"player": player, "goal": words.goal(event.goal)}
        text = _("%(player)s looks at the %(goal)s goal with a map") % said
        hidden = cells.get(cards.GOAL_CELLS[event.goal])
        if hidden is None or hidden.card == cards.UNSEEN:
            return text, text, cards.GOAL_CELLS[event.goal]
        said["card"] = words.card(hidden.card)
        return (
            text,
            _("%(player)s looks at the %(goal)s goal with a map: it is %(card)s") % said,
            cards.GOAL_CELLS[event.goal],
        )
    if isinstance(event, Discard):
        text = _("%(player)s passes, a card face down") % {"player": player}
        if event.card is None:
            return text, text, None
        return text, _("%(player)s passes, discarding %(card)s") % {"player": player, "card": a_card(event.card)}, None
    if isinstance(event, Draw):
        text = _("%(player)s draws a card") % {"player": player}
        if event.card is None:
            return text, text, None
        return text, _("%(player)s draws %(card)s") % {"player": player, "card": a_card(event.card)}, None
    if isinstance(event, RefereeNote):
        # what the referee saw is the table's; their words may name a card that was shown
        noted = {
            "player": who(event.player, names) if event.player else _("a player"),
            "error": words.note(event.error),
        }
        text = _("referee's note: %(player)s %(error)s") % noted
        return text, _("%(text)s: %(note)s") % {"text": text, "note": event.note} if event.note else text, None
    if isinstance(event, GoalRevealed):
        said = {"goal": words.goal(event.goal)}
        text = (
            _("the %(goal)s goal is turned up, turned") if event.rotated else _("the %(goal)s goal is turned up")
        ) % said
        goal = cells.get(cards.GOAL_CELLS[event.goal])
        # the card the maze shows, else the one the line names (the referee page's last
        # entries are said without the maze: "the top goal is turned up", and which not)
        shown = goal.card if goal is not None and goal.face_up else event.card
        if shown is not None:
            text = _("%(text)s: %(card)s") % {"text": text, "card": words.card(shown)}
        return text, text, cards.GOAL_CELLS[event.goal]
    if isinstance(event, RoundEnded):
        text = _("round %(round)d ends: the log says %(winner)s") % {"round": event.round, "winner": won(event.winner)}
        return text, text, None
    if isinstance(event, GameEnded):
        text = _("the game ends")
        return text, text, None
    text = _("a line that is no event")
    return text, text, None


def tools_words(tools: Iterable[str]) -> str:
    """One tool, or either of two, by name: "pickaxe", "pickaxe or lamp" ("" for none)."""
    named = [words.tool(tool) for tool in tools]
    if len(named) == 2:
        return _("%(first)s or %(second)s") % {"first": named[0], "second": named[1]}
    return ", ".join(named)


def _frame(
    line: int,
    kind: str,
    rs: RoundState,
    event: Event | None,
    findings: Iterable[Finding],
    setup_cell: Cell | None,
    result: Result | None = None,
    *,
    game_over: bool = False,
) -> Frame:
    """The frame of a line; ``game_over``: the game has ended, its round with it or not
    (a log whose game ends in the middle of a round named someone to act)."""
    cells = _copy_cells(rs.maze.cells)
    acted_on = describe(event, cells)[2]
    turn = rs.turn
    over = rs.over or game_over
    if rs.played and not rs.draw_due and not over:
        turn = next_holder(list(rs.hands), rs.turn, rs.hands) or rs.turn
    return Frame(
        line=line,
        kind=kind,
        event=event,
        cells=cells,
        setup_cell=setup_cell,
        acted_on=acted_on,
        turn=turn,
        hands={p: tuple(h) for p, h in rs.hands.items()},
        roles=dict(rs.roles),
        broken={p: tuple(sorted(t)) for p, t in rs.broken.items()},
        peeks={p: tuple(sorted(g)) for p, g in rs.peeks.items()},
        pile=len(rs.pile),
        discards=len(rs.discards),
        over=over,
        findings=tuple(Violation.of(f) for f in findings),
        result=result,
    )


def _shown(replay: Replay) -> RoundState | None:
    """The round as the table sees it now. In a run of reveals (the ``goal_revealed``
    lines after a placement, which the checking replay judges only when the next event
    shows the run is over) the reveals so far are settled as if the log went on, and a
    goal no line has turned up yet stays face down: each picture matches its step's
    sentence, the card that reaches a goal drawn with the goal still face down and the
    goal turned up at its own line. (Settled at the card, the goal showed one step early,
    at a step whose sentence named only the card.) An observed log knows a goal only from
    a line that names its card: until then it stays face down, where settling would have
    to guess it."""
    rs = replay.state.round
    if rs is None or rs.reveal_run is None or not rs.reveal_run.entries:
        return rs
    settled = replay.settled().round
    if settled is None:
        return rs
    known = {slot for slot in cards.SLOTS if rs.maze.goal_card(slot) != cards.UNSEEN}
    turned = {slot for slot, _rotated, _line, card in rs.reveal_run.entries if card is not None or slot in known}
    for slot, cell in cards.GOAL_CELLS.items():
        if rs.maze.face_down(slot) and slot not in turned:
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
        self.outcome: Result | None = None
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

    def round_ended(self, line: int, event: RoundEnded, rs: RoundState, outcome: Outcome | None) -> None:
        if self.current is None:
            return
        self.outcome = None if outcome is None else Result.of(outcome)
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
        assert self.view is not None
        frame = _frame(line.number, kind, shown, event, found, self.setup_cell, self.outcome, game_over=self.view.ended)
        self.current.frames.append(frame)
        self.outcome = None

    def end(self, state: GameState, found: list[Finding]) -> None:
        rs = state.round
        ended = self.view is not None and self.view.ended  # the game's end says the rest: no "the log stops here"
        if self.current is not None and rs is not None and (found or not (rs.ended or ended)):
            assert self.replay is not None
            self.current.frames.append(
                _frame(self.replay.last_line, "end_of_log", rs, None, found, self.setup_cell, game_over=ended)
            )
        elif found:
            self.opening.extend(Violation.of(f) for f in found)

    def result(self) -> GameView:
        assert self.view is not None, "walk the log first"
        self.view.opening = tuple(self.opening)
        return self.view
