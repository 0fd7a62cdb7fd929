"""What a referee's table shows at any moment: the fold of a log's events so far.

The replay engine (``events.replay``) is the only writer of these objects; everything
else reads them. A :class:`RoundState` is the table of one round: the maze, each hand,
the draw pile (top first), the discards, the broken tools in front of each player, the
goals face down or revealed, whose turn it is and how far that turn has gone.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

from events.maze import Maze
from events.schema import GameStarted, RoundStarted
from events.tables import Role


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a round and what each player gained, as the rules give it (R-W).

    ``scores`` are points (tournament) or nuggets (base). In base the nugget values are
    the players' own picks, so a score the log does not settle is ``None``;
    ``gold_card_counts`` says how many gold cards each player must have taken.
    """

    round: int
    winner: str
    connector: str | None
    scores: dict[str, int | None]
    stars: tuple[str, ...]
    gold_card_counts: dict[str, int] | None = None

    def __reduce__(self) -> tuple[type[Outcome], tuple[object, ...]]:
        """Rebuilt through ``__init__`` when unpickled (an audit sent back from a
        worker) or deep-copied: compiled by mypyc, a frozen dataclass cannot be filled
        field by field, as pickle and ``copy`` otherwise do."""
        return Outcome, (self.round, self.winner, self.connector, self.scores, self.stars, self.gold_card_counts)

    def as_report(self) -> dict[str, object]:
        return {
            "round": self.round,
            "winner": self.winner,
            "connector": self.connector,
            "scores": dict(self.scores),
            "stars": list(self.stars),
        }


@dataclass(slots=True)
class RevealRun:
    """The ``goal_revealed`` lines following one ``play_path``, judged together when
    the run ends (R-G1: a placement may reveal several goals, in slot order)."""

    player: str
    line: int
    entries: list[tuple[str, bool, int, str | None]] = field(default_factory=list)
    """Each recorded reveal: slot, how it lies, its line, the card it names (if any)."""


@dataclass
class RoundState:
    """The table during one round."""

    number: int
    deal: RoundStarted
    roles: dict[str, Role | None]
    maze: Maze
    hands: dict[str, list[str]]
    pile: list[str]
    """The draw pile, top card last (so a draw is ``pop()``)."""
    discards: list[str] = field(default_factory=list)
    broken: dict[str, set[str]] = field(default_factory=dict)
    peeks: dict[str, set[str]] = field(default_factory=dict)
    turn: str = ""
    played: bool = False
    """The player whose turn it is has played this turn's card."""
    drew: bool = False
    draw_due: bool = False
    """A card was played while the pile had cards and no draw has followed yet (R-T2)."""
    draw_due_at: int | None = None
    """The first line that stood where the due draw was: another player's draw. A draw
    the turn ends without is reported there (event-log.md), not at the card that ended
    the turn; ``None`` while nothing has stood in its place."""
    early_draw: bool = False
    reveal_run: RevealRun | None = None
    gold_found: bool = False
    connector: str | None = None
    over: bool = False
    """The round is over by the rules (R-E1 or R-E2); only ``round_ended`` may follow."""
    ended: bool = False
    """A ``round_ended`` line closed the round."""
    ended_early: bool = False
    """The ``round_ended`` came while the round was not over by the rules."""
    outcome: Outcome | None = None
    """The rules' verdict once the round has ended; ``None`` while it is open, and for a
    round that ended with a role unknown (an observed log's roles not turned up), which
    nothing can score."""
    last_card_player: str | None = None
    turns: int = 0
    laid: Counter[str] | None = None
    """The cards laid face up so far, counted where the deal is not seen (an observed
    log), to judge R-S3 card by card; ``None`` where the deal shows the whole deck."""
    late_reveals: dict[str, int] = field(default_factory=dict)
    """Goals the rules turned up where the log's ``goal_revealed`` was missing (slot →
    the line that stood where it was due, its ``missing_reveal`` reported there): their
    reveal coming later is that reveal, late — not a second, false one."""
    unseen_goals: dict[str, str] = field(default_factory=dict)
    """Goals the rules turned up without a ``goal_revealed`` in an observed log, whose
    card nobody named (slot → the player whose card reached it): unknown, until the
    ``round_ended`` says the gold was reached there."""
    guessed: dict[str, list[str]] = field(default_factory=dict)
    """Cards taken out of a player's hand for a card they played but did not hold (R-T4,
    reported): one card left the hand, as an observed log counts it, and which one is a
    guess that a later play of it puts right."""

    @property
    def pile_count(self) -> int:
        return len(self.pile)

    @property
    def top_of_pile(self) -> str | None:
        return self.pile[-1] if self.pile else None

    def holds(self, player: str) -> bool:
        return bool(self.hands.get(player))

    def hands_empty(self) -> bool:
        return not any(self.hands.values())


@dataclass
class GameState:
    """The game so far: its header, the finished rounds, the round in play."""

    game: GameStarted | None = None
    round: RoundState | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    unscored: int = 0
    """Rounds over by the rules that count, but that nothing in the log scores: an
    observed round whose ``round_ended`` (which turns the roles up) is missing."""
    gold_supply: Counter[int] = field(default_factory=Counter)
    ended: bool = False
    last_round_number: int = 0
    last_round_last_player: str | None = None

    @property
    def players(self) -> list[str]:
        return list(self.game.players) if self.game else []

    def snapshot(self) -> GameState:
        """A deep copy, for a viewer that keeps states while the replay goes on."""
        return copy.deepcopy(self)

    @property
    def rounds_over(self) -> int:
        """The rounds played to their end, scored or not."""
        return len(self.outcomes) + self.unscored

    def totals(self) -> dict[str, int | None]:
        """Each player's total over the finished rounds (R-W3); ``None`` if unknown."""
        if self.unscored:
            return dict.fromkeys(self.players)
        totals: dict[str, int | None] = {player: 0 for player in self.players}
        for outcome in self.outcomes:
            for player, score in outcome.scores.items():
                before = totals.get(player)
                totals[player] = None if before is None or score is None else before + score
        return totals
