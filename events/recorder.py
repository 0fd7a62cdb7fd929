"""A referee's table-side recording: an observed log written entry by entry.

A referee at a physical table taps what the table does; each tap is one line of an
observed log (event-log.md, "Observed recording"). Before a line is recorded the
recorder says what the rules make of it, in the replay's own words (:meth:`Recorder.preview`),
so the referee can stop the mistake at the table (seed ``000_…``: "remind him
directly") or record it as it happened, when it becomes a finding like any other.

The recorder is a writer that chooses the next line from the state, like the test log
builder and the simulator: it keeps a lenient :class:`~events.replay.Replay` of the
lines so far. It is pure: where the lines are kept (the store's draft stream) and how
they are tapped (the dashboard's recording page) are the edges' business.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from events import cards
from events.findings import Finding
from events.logfile import LogLine, parse_line
from events.maze import Cell, Maze
from events.replay import Replay
from events.rules import scoring
from events.rules.turns import whose_turn
from events.schema import Event, GameEnded, GameStarted, RoundEnded, dump_event
from events.simulate.moves import path_plays
from events.state import GameState, RoundState
from events.tables import Role

DueKind = Literal["round", "turn", "draw", "reveal", "round_end", "game_end", "over"]


@dataclass(frozen=True, slots=True)
class Due:
    """What the table does next by the rules: deal a round, a turn's card (by
    ``player``), its draw, the goals to turn up (``slots``, in slot order), the end of
    the round or of the game, or nothing (``over``)."""

    kind: DueKind
    player: str | None = None
    slots: tuple[str, ...] = ()


class NotObserved(ValueError):
    """A recorder writes observed logs only: a referee never sees the hidden cards."""


class Recorder:
    """The observed log of one game as it is recorded, and the table it shows."""

    def __init__(self, lines: Sequence[str]) -> None:
        if not lines:
            raise ValueError("a recording starts with its game_started line")
        self.lines: list[str] = []
        self._replay = Replay()
        for text in lines:
            self._feed(text)
        game = self._replay.state.game
        if game is None or not game.observed:
            raise NotObserved("a table-side recording is an observed log: game_started needs recording observed")

    @classmethod
    def begin(cls, game: GameStarted) -> Recorder:
        """A new recording of ``game`` (which must say ``recording: observed``)."""
        if not game.observed:
            raise NotObserved("a table-side recording is an observed log: game_started needs recording observed")
        return cls([dump_event(game)])

    # -- what the table shows -------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self._replay.state

    @property
    def game(self) -> GameStarted:
        game = self._replay.state.game
        assert game is not None
        return game

    @property
    def round(self) -> RoundState | None:
        return self._replay.state.round

    @property
    def findings(self) -> list[Finding]:
        return list(self._replay.findings.listed)

    def hand_counts(self) -> dict[str, int]:
        """How many cards each player holds, as counted (R-S4, one less a card played,
        one more a draw)."""
        rs = self.round
        return {p: len(rs.hands.get(p, ())) if rs is not None else 0 for p in self.game.players}

    def pile_count(self) -> int:
        rs = self.round
        return len(rs.pile) if rs is not None else 0

    def due(self) -> Due:
        """What the rules expect next, for the page to offer it first."""
        state = self.state
        game = self.game
        rs = state.round
        if state.ended:
            return Due("over")
        if rs is None or rs.ended:
            return Due("round") if state.rounds_over < game.rounds else Due("game_end")
        if rs.reveal_run is not None:
            pending = self._pending_reveals(rs)
            if pending:
                return Due("reveal", rs.reveal_run.player, tuple(pending))
            if rs.reveal_run.entries:
                # the run is complete: what follows is what the replay makes of it (a
                # gold turned up that no path reaches ends nothing, R-G1); a placement
                # that turned up nothing is as it stands (the copy is of the whole
                # replay: not made for every placement of every phone)
                rs = self._replay.settled().round
                assert rs is not None
        if rs.over:
            return Due("round_end")
        if rs.draw_due:
            return Due("draw", rs.turn)
        player = whose_turn(game.players, rs)
        return Due("turn", player) if player is not None else Due("round_end")

    def _pending_reveals(self, rs: RoundState) -> list[str]:
        """The goals the last placement leaves reached and not yet turned up (all of
        them, the gold among them or not; a goal turned up may carry the path on)."""
        run = rs.reveal_run
        assert run is not None
        probe = rs.maze.copy()
        for slot, rotated, _, card in run.entries:
            if probe.face_down(slot) and card is not None:
                probe.learn_goal(slot, card)
                probe.reveal(slot, rotated)
        return probe.reached_goals()

    def legal_cells(self, card: str) -> list[tuple[Cell, bool]]:
        """Every cell and way (turned or not) where ``card`` may be laid (R-P1..R-P5)."""
        rs = self.round
        if rs is None or card not in cards.TUNNEL_CARDS:
            return []
        return [(play.cell, play.rotated) for play in path_plays(rs.maze, card) if play.cell is not None]

    def goal_ways(self, slot: str, card: str) -> tuple[bool, ...]:
        """How ``card`` turned up at ``slot`` may lie (R-G2): the way its sides match."""
        rs = self.round
        assert rs is not None
        probe: Maze = rs.maze.copy()
        probe.learn_goal(slot, card)
        return probe.goal_ways(slot)

    # -- recording --------------------------------------------------------------------

    def preview(self, event: Event) -> list[Finding]:
        """The findings ``event`` would bring at its own line if recorded now; nothing is
        recorded. A goal turned up is judged as the last of its placement's reveals
        (R-G1, R-G2, their order), which the replay does only once the next line shows
        the run is over: the referee hears of a reveal no path reaches, or a card laid
        the wrong way, while the table can still put it right, not at the next entry.
        What a line finds at earlier lines (a run of reveals judged when it ends) was
        said when those lines were previewed."""
        line = len(self.lines) + 1
        probe = copy.deepcopy(self._replay)
        found = probe.feed(LogLine(line, event))
        if event.type == "goal_revealed":
            found += probe.close_reveals()
        return [finding for finding in found if finding.line == line]

    def record(self, event: Event) -> list[Finding]:
        """Record ``event`` as the next line; the findings it brought."""
        return self._feed(dump_event(event))

    def undo(self) -> Recorder:
        """The recording without its last line (the game_started line stays)."""
        if len(self.lines) <= 1:
            raise ValueError("nothing to undo: the recording holds only its game_started line")
        return Recorder(self.lines[:-1])

    def _feed(self, text: str) -> list[Finding]:
        log_line = parse_line(len(self.lines) + 1, text)
        found = self._replay.feed(log_line)
        self.lines.append(text)
        return found

    def text(self) -> str:
        """The observed log so far, one line each, as a file holds it."""
        return "".join(line + "\n" for line in self.lines)

    # -- the scorekeeper's lines --------------------------------------------------------

    def round_end(self, roles: Mapping[str, Role], gold_cards: Mapping[str, Sequence[int]] | None = None) -> RoundEnded:
        """The ``round_ended`` the rules give with the roles turned up (and, in base,
        the gold cards each player took): the scores a referee records."""
        settled = self._replay.settled()
        rs = settled.round
        assert rs is not None
        game = self.game
        players = game.players
        turned: dict[str, Role | None] = {p: roles.get(p) for p in players}
        connector = rs.connector if rs.gold_found else None
        if game.ruleset == "tournament":
            outcome = scoring.tournament_outcome(rs.number, players, turned, connector)
            scores = {p: score or 0 for p, score in outcome.scores.items()}
            return RoundEnded(
                type="round_ended",
                round=rs.number,
                winner=outcome.winner,  # type: ignore[arg-type]
                connector=outcome.connector,
                scores=scores,
                roles={p: r for p, r in turned.items() if r is not None},
            )
        taken = {p: list((gold_cards or {}).get(p, ())) for p in players}
        supply = Counter(settled.gold_supply)
        outcome = scoring.base_outcome(rs.number, game, turned, connector, supply, taken)
        return RoundEnded(
            type="round_ended",
            round=rs.number,
            winner=outcome.winner,  # type: ignore[arg-type]
            connector=outcome.connector,
            scores={p: sum(taken[p]) for p in players},
            gold_cards=taken,
            roles={p: r for p, r in turned.items() if r is not None},
        )

    def game_end(self) -> GameEnded:
        """The ``game_ended`` with the totals of the rounds as the rules scored them."""
        totals = {p: t or 0 for p, t in self.state.totals().items()}
        return GameEnded(type="game_ended", totals=totals)
