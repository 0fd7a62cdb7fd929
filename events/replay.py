"""The replay engine: fold a log's events into the table's state, checking every rule.

This is the checking path (python-chess's ``is_legal`` side): every event is judged
against ``rules.md`` before it is applied. The engine is lenient by default, like
python-chess's ``GameBuilder``: it reports every violation and goes on with the event as
recorded wherever the event can still be applied, so one bad line gives one finding
rather than a cascade. Where the rules make something happen by themselves and the log
forgot it (a draw, a goal turned up) the state follows the rules and the log is reported.
``strict=True`` raises :class:`~events.findings.ReplayError` at the first error instead.

Use :func:`events.visitor.walk` to read a log once for several visitors (the audit, the
ingest's projection, the viewer all ride on one fold), :func:`replay` for the state after
every line, or :class:`Replay` to feed lines one by one as they are written (the
simulator, the log builder).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import chain
from pathlib import Path
from typing import Any, Final

from events import cards
from events.findings import Breach, Code, Finding, ReplayError, Tally
from events.logfile import (
    CLAIMS,
    UNSEEN_IF_UNREAD,
    BlockParser,
    LineError,
    LogLine,
    UnreadableLog,
    parse_block,
    parse_lines,
    read_log,
)
from events.maze import Maze, tunnel
from events.rules import actions, ending, goals, placement, scoring, setup, turns
from events.said import Refusal, Said, problem, say, sentence
from events.schema import (
    HIDDEN_IN_A_DEAL,
    Discard,
    Draw,
    Event,
    GameEnded,
    GameStarted,
    GoalRevealed,
    PlayMap,
    PlayPath,
    PlayRockfall,
    PlayTool,
    RefereeNote,
    RoundEnded,
    RoundStarted,
    context_problems,
    header_problems,
    hidden_card_problems,
    revealed_card_problems,
    timestamp_order,
)
from events.state import GameState, Outcome, RevealRun, RoundState
from events.tables import hand_size

CardPlay = PlayPath | PlayTool | PlayRockfall | PlayMap | Discard
"""A line that plays a card from a hand: it makes a turn (R-T1)."""


@dataclass(frozen=True, slots=True)
class Step:
    """The state after one line and what that line brought to light.

    ``state`` is the live state the replay goes on folding into: take
    ``state.snapshot()`` to keep it past the next step.
    """

    line: int
    event: Event | None
    state: GameState
    findings: list[Finding]

    def __reduce__(self) -> tuple[type[Step], tuple[object, ...]]:
        """Rebuilt through ``__init__`` (see :meth:`events.state.Outcome.__reduce__`)."""
        return Step, (self.line, self.event, self.state, self.findings)


class Replay:
    """Feed :class:`LogLine` objects in order; read ``state`` and ``findings``."""

    def __init__(self, *, strict: bool = False) -> None:
        self.strict = strict
        self.state = GameState()
        self.findings = Tally()
        self.last_line = 0
        self._new: list[Finding] = []
        self._line = 0
        self._last_time: tuple[datetime, str] | None = None
        self._players: list[str] = []
        self._seated: frozenset[str] = frozenset()
        self._observed = False
        self._salvaged = False

    # -- reporting ---------------------------------------------------------------

    def _report(
        self,
        code: Code,
        said: Said,
        *,
        player: str | None = None,
        rule: str = "",
        line: int | None = None,
        field: str | None = None,
        number: int | None = None,
        outside: bool = False,
    ) -> None:
        """Report a finding at ``line`` (this line by default), in round ``number`` (by
        default the round in play: a ``round_started`` line's own findings name the
        round it starts, as the findings of its deal do), or in none (``outside``: the
        game's own, at ``game_ended``, and every finding after it). A finding outside
        the rounds leaves every round clean: a stray line after game_ended made the
        last round one with errors, which ``stats --clean-only`` then left out."""
        if number is None and not outside and not self.state.ended:  # after game_ended: no round's
            rs = self.state.round
            number = rs.number if rs is not None else None
        finding = Finding(code, line or self._line, said.english(), number, player, rule, field, said)
        self._new.append(finding)
        self.findings.append(finding)
        if self.strict and finding.severity == "error":
            raise ReplayError(finding)

    def _breach(
        self, breach: Breach | None, player: str | None = None, line: int | None = None, *, outside: bool = False
    ) -> bool:
        if breach is None:
            return False
        self._report(
            breach.code, breach.said, player=breach.player or player, rule=breach.rule, line=line, outside=outside
        )
        return True

    # -- feeding -----------------------------------------------------------------

    def feed(self, log_line: LogLine) -> list[Finding]:
        """Judge and apply one line; the findings it brought (some may name earlier
        lines: a run of reveals is judged when it ends)."""
        new: list[Finding] = []
        self._new = new
        self._line = self.last_line = log_line.number
        state = self.state
        if state.game is None:
            self._header(log_line)
            return new
        event = log_line.event
        error = log_line.error
        self._salvaged = error is not None  # a malformed line whose event still stands: reported once
        if (error is not None and not self._said_in_context(event, error)) or event is None:
            self._report(
                Code.MALFORMED,
                self._in_the_games_words(event, error) if error else problem("no event"),
                field=error.field if error else None,
                # a deal's own findings name the round it starts, when the line still says which
                number=self._dealt() if event is not None and event.type == "round_started" else None,
                outside=event is not None and event.type == "game_ended",  # the game's line, no round's
            )
            if event is None:
                return new
            # a malformed line that still states its event (events.logfile._salvaged):
            # reported, and applied as recorded; but an observed reveal whose card was
            # wrong says nothing of what the goal showed, which only the log can say
            if self._observed and isinstance(event, GoalRevealed) and event.card is None:
                return new
            # a card play past applying takes its turn in a round's turns; out of them
            # there is none to take, and its one finding is its own (not "a discard
            # after the round ended", where the line was a play)
            rs = state.round
            if error is not None and error.turn_taken and (rs is None or rs.ended or rs.over):
                return new
        if state.ended:
            if error is None:  # one malformed finding a line
                said = say("%(kind)s after game_ended: game_ended is the last line", kind=event.type)
                self._report(Code.MALFORMED, said)
            return new
        kind = event.type
        at = event.at
        if at is not None:  # a round_started line's findings name the round it starts
            self._check_time(at, self._dealt() if kind == "round_started" else None)
        if kind in _SIMPLE:
            # The common lines (draws, discards, most plays) only need their player seated.
            player = getattr(event, "player", None)
            if player is not None and player not in self._seated:
                if error is None:  # one malformed finding a line
                    said = say("field `player`: %(given)s is not a player of this game", given=repr(player))
                    self._report(Code.MALFORMED, said, field="player")
                return self._new
        elif kind == "game_started":
            self._report(Code.MALFORMED, say("a second game_started: it is the first line, exactly once"), field="type")
            return self._new
        else:
            problems = context_problems(event, state.game)
            if error is not None:
                # a claim the line's error left out, cards it left unread, the field it names:
                # said once, as that error; but a null there that the game says more of is
                # said in the game's words, instead of the error (_said_in_context)
                unread = (*CLAIMS.get(kind, ()), *UNSEEN_IF_UNREAD.get(kind, ()), error.field)
                problems = [
                    (field, message)
                    for field, message in problems
                    if field not in unread or (error.null and field == error.field)
                ]
            # a round_started line's findings name the round it starts
            number: int | None = self._dealt() if kind == "round_started" else None
            for field, message in problems:
                self._report(
                    Code.MALFORMED,
                    _field_problem(field, message),
                    field=field,
                    number=number,
                    outside=kind == "game_ended",
                )
            if any(field in _ACTORS for field, _ in problems):
                return self._new  # a player who is not at the table cannot act
        _HANDLERS[kind](self, event)
        return self._new

    def finish(self) -> list[Finding]:
        """Close the log: judge an open run of reveals, and report a log that stops
        before ``game_ended`` (``incomplete``, a warning). Raises
        :class:`~events.logfile.UnreadableLog` when no line was fed at all."""
        if self.state.game is None:
            raise UnreadableLog(say("empty log: a log starts with a game_started line"))
        self._new = []
        self._line = self.last_line
        rs = self.state.round
        if rs is not None and rs.reveal_run is not None:
            self._close_run(rs, None)
        if not self.state.ended:
            if rs is not None:
                # a round the rules had over (R-E1, R-E2) is finished without its
                # round_ended, and counts, as it does when the next deal follows
                self._count_unclaimed(rs)
            done = self.state.rounds_over
            self._report(
                Code.INCOMPLETE,
                say(
                    "the log stops at line %(line)s before game_ended; %(count)s finished round still counts",
                    "the log stops at line %(line)s before game_ended; %(count)s finished rounds still count",
                    "count",
                    line=self.last_line,
                    count=done,
                ),
            )
        return self._new

    def close_reveals(self) -> list[Finding]:
        """Judge an open run of reveals now, for a writer that knows the run is complete
        (the simulator): nothing is reported missing, since no later line exists yet."""
        self._new = []
        rs = self.state.round
        if rs is not None and rs.reveal_run is not None:
            self._close_run(rs, None)
        return self._new

    def settled(self) -> GameState:
        """A copy of the state with an open run of reveals judged as if the log went on
        to another event: what a scorekeeper sees right after the reveals."""
        clone = copy.deepcopy(self)
        clone.strict = False
        rs = clone.state.round
        if rs is not None and rs.reveal_run is not None:
            clone._close_run(rs, None)
        return clone.state

    def _header(self, log_line: LogLine) -> None:
        event = log_line.event
        if log_line.error is not None or event is None:
            why = log_line.error.sentence if log_line.error else problem("no event")
            said = say("the first line is not a valid game_started: %(problem)s", problem=(why,))
            raise UnreadableLog(said, log_line.number)
        if not isinstance(event, GameStarted):
            said = say("the first line must be game_started, not %(type)s", type=event.type)
            raise UnreadableLog(said, log_line.number)
        problems = header_problems(event)
        if len(problems) == 1:
            field, message = problems[0]
            said = say("game_started field `%(field)s`: %(problem)s", field=field, problem=(message,))
            raise UnreadableLog(said, log_line.number)
        if problems:  # every field named at once: one run of the audit, not one per field
            each = tuple(
                say("`%(field)s`: %(problem)s", field=field, problem=(message,)) for field, message in problems
            )
            raise UnreadableLog(say("game_started fields %(problems)s", problems=each), log_line.number)
        if event.at is not None:
            try:
                self._last_time = timestamp_order(event.at)
            except ValueError as exc:
                said = say("game_started field `%(field)s`: %(problem)s", field="at", problem=(_refused(exc),))
                raise UnreadableLog(said, log_line.number) from None
        self.state.game = event
        self._observed = event.observed
        self._players = list(event.players)
        self._seated = frozenset(event.players)
        if event.ruleset == "base":
            self.state.gold_supply = Counter(cards.GOLD_SUPPLY)

    def _check_time(self, at: str, number: int | None) -> None:
        """Times never go backwards (event-log.md); a time that does is reported and the
        event still applied: the time is a note about the event, not the event.

        Each time is compared with the one before it, so each step back is one finding:
        after a time typed a day or a year ahead, the next true one is reported, and the
        lines after it are judged against it, not against the typing error."""
        try:
            moment = timestamp_order(at)
        except ValueError as exc:
            self._report(Code.MALFORMED, _field_problem("at", _refused(exc)), field="at", number=number)
            return
        if self._last_time is not None and moment < self._last_time:
            said = say("field `at`: %(at)s is before the previous event's time", at=at)
            self._report(Code.MALFORMED, said, field="at", number=number)
        self._last_time = moment

    # -- rounds ------------------------------------------------------------------

    def _game(self) -> GameStarted:
        """The game's header: every line after the first is judged under it."""
        game = self.state.game
        assert game is not None
        return game

    def _said_in_context(self, event: Event | None, error: LineError) -> bool:
        """Whether a ``null`` the line's error names is said instead by what the game
        knows of that field (:func:`events.schema.context_problems`): a base round's
        ``gold_cards: null`` is a map that is due ("a base round lists the gold cards
        each player took"), a double repair's ``tool: null`` a tool to name; "may be
        left out but not null" was wrong there, and the tool's was said twice."""
        state = self.state
        if not error.null or event is None or state.ended or state.game is None:
            return False
        if event.type in _SIMPLE or event.type == "game_started":
            return False
        return any(field == error.field for field, _ in context_problems(event, state.game))

    def _in_the_games_words(self, event: Event | None, error: LineError) -> Said:
        """The line's error, or for a ``null`` the game says more of, what the game says
        (:func:`events.schema.context_problems`): an observed log's reveal with ``card:
        null`` was told the card "may be left out but not null", where an observed
        reveal must name it. (A line the game checks further says it there instead:
        :meth:`_said_in_context`.)"""
        game = self.state.game
        if error.null and event is not None and game is not None and error.field is not None:
            for field, said in context_problems(event, game):
                if field == error.field:
                    return _field_problem(field, said)
        return error.sentence

    def _dealt(self) -> int:
        """The round a ``round_started`` line starts, as the game counts it (its place,
        whatever number the line wrote: :meth:`_round_started`); its findings name it."""
        return self.state.last_round_number + 1

    def _unfinished_round(self) -> RoundState | None:
        """The round still open when a line needs it ended (the next round_started, the
        game_ended), with its open run of reveals judged first; ``None`` if none is."""
        rs = self.state.round
        if rs is None or rs.ended:
            return None
        if rs.reveal_run is not None:
            self._close_run(rs, self._line)
        return rs

    def _round_started(self, event: RoundStarted) -> None:
        state, game = self.state, self._game()
        if game.observed:
            event = _as_seen(event)
        unfinished = self._unfinished_round()
        if unfinished is not None:
            self._report(
                Code.MALFORMED,
                say(
                    "round_started while round %(round)s is still open: it needs its round_ended first",
                    round=unfinished.number,
                ),
                field="round",
                number=self._dealt(),
            )
            self._count_unclaimed(unfinished)
        # A round is the game's n-th by its place, whatever number its line wrote: a
        # number out of order is malformed here once, and the round is dealt and played
        # as the next one, so that a round written twice is not two rounds of one number.
        expected = self._dealt()
        if event.round != expected:
            self._report(
                Code.MALFORMED,
                say("field `round`: round %(given)s where round %(round)s is due", given=event.round, round=expected),
                field="round",
                number=expected,
            )
        elif event.round > game.rounds:
            self._report(
                Code.MALFORMED,
                say(
                    "field `round`: this game plans %(rounds)s rounds, not %(given)s",
                    rounds=game.rounds,
                    given=event.round,
                ),
                field="round",
                number=expected,
            )
        players = game.players
        dealt_roles = event.roles or {}
        roles = {p: dealt_roles.get(p) for p in players}
        goals = event.goals
        maze = Maze.dealt(
            {"top": goals.top, "middle": goals.middle, "bottom": goals.bottom}
            if goals is not None
            else dict.fromkeys(cards.SLOTS, cards.UNSEEN)
        )
        setup_card = event.setup_card
        if setup_card is not None and cards.is_tunnel(setup_card.card):
            maze.place(cards.SETUP_CELL, tunnel(setup_card.card, setup_card.rotated))
        hands, pile, laid = _deal_as_seen(event, players)
        state.round = RoundState(
            number=expected,
            deal=event,
            roles=roles,
            maze=maze,
            hands=hands,
            pile=pile,
            broken={p: set() for p in players},
            peeks={p: set() for p in players},
            turn=event.start_player if event.start_player in players else players[0],
            laid=laid,
        )
        state.last_round_number = expected
        for breach in setup.check_deal(game, event, state.last_round_last_player, expected):
            self._breach(breach)

    def _round_ended(self, event: RoundEnded) -> None:
        state = self.state
        game = state.game
        assert game is not None
        rs = state.round
        if rs is None:
            self._report(Code.MALFORMED, say("round_ended before any round_started"))
            return
        if self._breach(ending.check_round_open(rs, event.type)):
            return
        if rs.reveal_run is not None:
            self._close_run(rs, self._line)
        if rs.unseen_goals and not rs.gold_found:
            _gold_claimed(rs, event.connector)
        if rs.draw_due:
            self._missed_draw(rs)
        if event.round != rs.number and event.round != rs.deal.round:  # a number its start wrote: said there
            self._report(
                Code.MALFORMED,
                say(
                    "field `round`: round %(round)s is the one in play, not %(given)s",
                    round=rs.number,
                    given=event.round,
                ),
                field="round",
            )
        if self._observed and event.roles is not None:
            # The roles are turned up now: R-S1 is judged on them, and the round scored.
            rs.roles = {p: event.roles.get(p) for p in game.players}
            if all(role is not None for role in rs.roles.values()):  # a map short of a player is malformed
                for breach in setup.check_roles_turned_up(game, event.roles):
                    self._breach(breach)
        not_over = ending.check_round_over(rs, game.players)
        if not_over is not None:
            rs.ended_early = True
            self._breach(not_over)
        if any(rs.roles.get(player) is None for player in game.players):
            # An observed round whose roles were not all turned up (the line is malformed):
            # it ended, but the rules cannot score it, and no winner is made up from
            # unknown roles; every total is unknown from here on, as after a lost
            # round_ended. The gold cards claimed have left the supply all the same.
            state.unscored += 1
            for values in (event.gold_cards or {}).values():
                state.gold_supply -= Counter(values)
            self._close(rs)
            return
        connector = rs.connector if rs.gold_found else None
        outcome: Outcome
        if game.ruleset == "tournament":
            outcome = scoring.tournament_outcome(rs.number, game.players, rs.roles, connector)
            breaches = scoring.check_claim(outcome, event, None)
        else:
            claimed: dict[str, list[int]] = {p: list(v) for p, v in (event.gold_cards or {}).items()}
            outcome = scoring.base_outcome(rs.number, game, rs.roles, connector, state.gold_supply, claimed)
            breaches = scoring.check_claim(outcome, event, state.gold_supply)
            if outcome.winner == "saboteurs":
                breaches += scoring.check_saboteur_gold(game, rs.roles, state.gold_supply, claimed)
            taken: Counter[int] = Counter()
            for values in claimed.values():
                taken.update(values)
            state.gold_supply -= taken
        for breach in breaches:
            self._breach(breach)
        state.outcomes.append(outcome)
        rs.outcome = outcome
        self._close(rs)

    def _count_unclaimed(self, rs: RoundState) -> None:
        """A round over by the rules (R-E1, R-E2) whose ``round_ended`` the log lacks,
        found when the next round starts or the game ends (and reported there), or when
        the file stops there (``incomplete``): it
        counts, with the outcome the rules give and nothing claimed (the audit report's
        ``rounds`` hold "every round that ended, whatever the log claimed"). Left out,
        a game whose first round lost its last line was said to end after 2 of its 3
        rounds, and every player's total was judged without that round. A round not
        over (its players still hold cards) counts for nothing. An observed round
        counts, but unscored: its roles are turned up only in the ``round_ended`` that
        is missing, so every total is unknown from then on, not judged as if the round
        gave nothing. In a ``base`` round the diggers' nuggets are their own picks,
        which only a ``round_ended`` says: their scores stay unknown (R-W2)."""
        game = self._game()
        if rs.ended:
            return
        if ending.check_round_over(rs, game.players) is not None:
            # it counts for nothing, but it was the round before the next (R-S6)
            self.state.last_round_last_player = rs.last_card_player
            return
        if any(rs.roles.get(player) is None for player in game.players):
            self.state.unscored += 1
            self._close(rs)
            return
        connector = rs.connector if rs.gold_found else None
        if game.ruleset == "tournament":
            outcome = scoring.tournament_outcome(rs.number, game.players, rs.roles, connector)
        else:
            outcome = scoring.base_outcome(rs.number, game, rs.roles, connector, self.state.gold_supply, {})
        self.state.outcomes.append(outcome)
        rs.outcome = outcome
        self._close(rs)

    def _close(self, rs: RoundState) -> None:
        """The round ended, with or without its outcome: only a new deal may follow."""
        rs.ended = True
        rs.over = True
        self.state.last_round_last_player = rs.last_card_player

    def _game_ended(self, event: GameEnded) -> None:
        state, game = self.state, self._game()
        unfinished = self._unfinished_round()
        if unfinished is not None:
            self._report(
                Code.WRONG_SCORE,
                say("game_ended while round %(round)s has no round_ended", round=unfinished.number),
                rule="R-W3",
            )
            self._count_unclaimed(unfinished)
        elif state.rounds_over < game.rounds:
            self._report(
                Code.WRONG_SCORE,
                say(
                    "the game ended after %(played)s of its %(rounds)s planned rounds",
                    played=state.rounds_over,
                    rounds=game.rounds,
                ),
                rule="R-W3",
                outside=True,
            )
        # the game's own findings belong to no round: its last round, played by the
        # rules, stays clean (``stats --clean-only`` keeps it)
        for breach in scoring.check_totals(state.totals(), event.totals):
            self._breach(breach, outside=True)
        state.ended = True

    # -- turns -------------------------------------------------------------------

    def _round_in_play(self, kind: str, player: str) -> RoundState | None:
        """The round ``player``'s turn event belongs to, or ``None`` (reported, naming the
        player) when none is (R-E1, R-E2)."""
        rs = self.state.round
        if rs is not None and rs.reveal_run is None and not rs.over and not rs.ended:
            return rs
        if rs is None:
            self._report(Code.MALFORMED, say("%(kind)s before the first round_started", kind=kind), field="type")
            return None
        if rs.reveal_run is not None:
            self._close_run(rs, self._line)
        if kind == "draw" and rs.gold_found and player == rs.connector and self._line in rs.late_reveals.values():
            return None  # the connector's draw where the gold's reveal was due: the missing reveal says it
        if self._breach(ending.check_round_open(rs, kind) or ending.check_round_not_over(rs, kind), player):
            return None
        return rs

    def _begin_turn(self, rs: RoundState, player: str) -> None:
        """Sequence a card played by ``player`` (R-T1, R-T2): a card that opens no turn
        (a second one in a turn) is reported, and the turn stays its player's."""
        players = self._players
        if rs.played and player == rs.turn:  # a second card, or the turn come straight back (R-T5)
            second = turns.check_one_card_a_turn(players, rs, player)
            if second is not None:
                self._breach(second, player)
                if rs.drew:  # a card after the turn's draw stands as a card of its own: its draw is due
                    rs.drew = False
                    rs.draw_due = bool(rs.pile)
                return
        elif rs.draw_due:
            # The turn ended without its draw. Nothing is implied between the lines
            # (event-log.md, "File"): the card stays on the pile and out of the hand, and
            # the lines after are judged against that table.
            self._missed_draw(rs)
        out_of_turn = turns.check_turn_order(players, rs, player)
        if out_of_turn is not None:
            self._breach(out_of_turn, player)
        drew_early = rs.early_draw and player == rs.turn
        rs.turn = player
        rs.played = True
        rs.drew = drew_early
        rs.draw_due = bool(rs.pile) and not drew_early
        rs.early_draw = False
        rs.turns += 1

    def _card(self, event: CardPlay) -> RoundState | None:
        """The part every card play shares: the round, the turn (R-T1, R-T2) and the
        hand (R-T4). The round in play, or ``None`` when the card cannot be applied."""
        rs = self._round_in_play(event.type, event.player)
        if rs is None:
            return None
        player, card = event.player, event.card
        self._begin_turn(rs, player)
        hand = rs.hands.setdefault(player, [])
        if card is not None and card in hand:
            hand.remove(card)
        elif card is None and hand:
            gone = hand.pop()  # a card discarded face down: one fewer, whichever it was
            if not self._observed:  # a full log's discard whose card was unreadable: a guess, as below
                rs.guessed.setdefault(player, []).append(gone)
        elif cards.UNSEEN in hand:
            hand.remove(cards.UNSEEN)  # counted, not seen: any card may be in it
        elif card is not None and hand and card in rs.guessed.get(player, ()):
            # still held after all: the card played unheld earlier was another one
            guessed = rs.guessed[player]
            guessed.remove(card)
            guessed.append(hand.pop())
        else:
            self._breach(turns.check_card_in_hand(hand, player, card or "a card"), player)
            if hand:
                # Played as recorded: a card left the hand, as an observed log counts
                # it (whose turns R-T5 skips, whose round R-E2 ends). Kept, the hand
                # was a card too long for the rest of the round, and the full log and
                # the observed log of one game parted ways after it.
                rs.guessed.setdefault(player, []).append(hand.pop())
        if rs.laid is not None and card is not None and event.type != "discard":
            rs.laid[card] += 1
            self._breach(setup.check_laid_copies(rs.laid, card), player)
        rs.last_card_player = player
        return rs

    def _hidden_card(self, event: Discard | Draw) -> None:
        """A discard's or a draw's ``card`` in the wrong recording (event-log.md); not
        said again of a malformed line whose card the replay could not read."""
        if (event.card is None) is not self._observed and not self._salvaged:
            for field, message in hidden_card_problems(event, self._game()):
                self._report(Code.MALFORMED, _field_problem(field, message), field=field)

    def _discard(self, event: Discard) -> None:
        """R-T3: a pass puts one card face down on the discard pile."""
        self._hidden_card(event)
        rs = self._card(event)
        if rs is not None:
            rs.discards.append(event.card or cards.UNSEEN)
            rs.over = ending.hands_played_out(rs)

    def _play_path(self, event: PlayPath) -> None:
        rs = self._card(event)
        if rs is None:
            return
        player = event.player
        if rs.broken.get(player):
            self._breach(actions.check_no_broken_tool(rs.broken[player], player), player)
        cell = (event.x, event.y)
        breach = placement.check_placement(rs.maze, cell, event.card, event.rotated)
        if breach is None or breach.rule != "R-P1":
            rs.maze.place(cell, tunnel(event.card, event.rotated))
        else:
            rs.discards.append(event.card)
        if breach is not None:
            self._breach(breach, player)
        rs.reveal_run = RevealRun(player, self._line)
        rs.over = ending.hands_played_out(rs)

    def _play_tool(self, event: PlayTool) -> None:
        rs = self._card(event)
        if rs is not None:
            self._tool(rs, event)
            rs.over = ending.hands_played_out(rs)

    def _tool(self, rs: RoundState, event: PlayTool) -> None:
        player, target, card = event.player, event.target, event.card
        broken = rs.broken.setdefault(target, set())
        if card in cards.BREAK_CARDS:
            tool = cards.BREAK_CARDS[card]
            self_break = bool(self.state.game and self.state.game.options and self.state.game.options.self_break)
            breach = actions.check_break(broken, player, target, tool, self_break)
            self._breach(breach, player)
            if tool in broken:
                rs.discards.append(card)
            else:
                broken.add(tool)
            return
        mends = cards.REPAIR_CARDS[card]
        if len(mends) == 1 or event.tool in mends:
            tool = event.tool if len(mends) == 2 and event.tool else mends[0]
        else:  # `tool` missing or not on the card (malformed): mend what only it can
            possible = [t for t in mends if t in broken]
            if len(possible) != 1:
                rs.discards.append(card)
                return
            tool = possible[0]
        breach = actions.check_repair(broken, target, tool)
        if breach is not None and len(mends) == 2:
            breach = Breach(breach.code, "R-A4", breach.said, breach.player)
        self._breach(breach, player)
        rs.discards.append(card)
        if breach is None:
            broken.discard(tool)
            rs.discards.append(f"break_{tool}")

    def _play_rockfall(self, event: PlayRockfall) -> None:
        rs = self._card(event)
        if rs is None:
            return
        cell = (event.x, event.y)
        breach = actions.check_rockfall(rs.maze, cell)
        self._breach(breach, event.player)
        rs.discards.append(event.card)
        if breach is None:
            rs.discards.append(rs.maze.remove(cell).card)
        rs.over = ending.hands_played_out(rs)

    def _play_map(self, event: PlayMap) -> None:
        rs = self._card(event)
        if rs is None:
            return
        self._breach(actions.check_map(rs.maze, event.goal), event.player)
        rs.peeks.setdefault(event.player, set()).add(event.goal)
        rs.discards.append(event.card)
        rs.over = ending.hands_played_out(rs)

    def _draw(self, event: Draw) -> None:
        """R-T1, R-T2: the draw that ends a turn, or a draw out of place (reported)."""
        self._hidden_card(event)
        rs = self._round_in_play("draw", event.player)
        if rs is None:
            return
        player = event.player
        if rs.played and player == rs.turn:
            if rs.draw_due:  # the draw after the turn's card (another's between them: reported as out of turn)
                self._take(rs, player, event.card)
                rs.drew = True
                rs.draw_due = False
                rs.draw_due_at = None
            else:
                self._breach(turns.check_one_draw(rs, player) or turns.check_draw_from_pile(rs, player), player)
                self._take_anyway(rs, player, event.card)
            return
        if rs.draw_due and rs.draw_due_at is None:
            rs.draw_due_at = self._line  # where the turn's own draw was due: if it never comes, reported here
        out_of_place = turns.check_draw_in_turn(self._players, rs, player) or turns.check_one_draw(rs, player)
        if self._breach(out_of_place, player):
            self._take_anyway(rs, player, event.card)
            return
        # A draw before the turn's card is reported and taken as the turn's draw: the
        # turn is the drawing player's, and their card follows.
        self._breach(turns.check_draw_after_card(rs, player), player)
        rs.turn = player
        rs.played = False
        if rs.pile:
            self._take(rs, player, event.card)
            rs.early_draw = True

    def _missed_draw(self, rs: RoundState) -> None:
        """R-T2: the turn ended without its due draw; reported at the line that stood
        where it was due (event-log.md): another player's draw there, else this line."""
        self._breach(turns.check_missed_draw(rs), line=rs.draw_due_at)
        rs.draw_due = False
        rs.draw_due_at = None

    def _take_anyway(self, rs: RoundState, player: str, card: str | None) -> None:
        """A draw out of place (a second draw, a draw in another's turn), reported: the
        card still goes from the pile into the hand, as recorded (event-log.md,
        "Violations"), so the pile and the hands stay what the table holds. Dropped,
        one extra draw left the pile a card too long, and every later turn of the round
        was reported for a draw it did make, or a missed one. The turn is left as it
        was: the player whose turn it is still plays or draws. The draw is reported
        once: whether its card was the top one is not asked as well."""
        if rs.pile:
            top = rs.pile.pop()
            rs.hands.setdefault(player, []).append(top if card is None else card)

    def _take(self, rs: RoundState, player: str, card: str | None) -> None:
        """Move the top of the pile into the hand; the hand gets the card the log
        names, and a mismatch is reported (R-T2). A pile that is counted, not seen,
        has no top card to compare."""
        top = rs.pile.pop()
        if card is None:
            card = top
        elif top != cards.UNSEEN:
            self._breach(turns.check_top_card(top, player, card), player)
        rs.hands.setdefault(player, []).append(card)

    # -- goals -------------------------------------------------------------------

    def _goal_revealed(self, event: GoalRevealed) -> None:
        rs = self.state.round
        if rs is None:
            self._report(Code.MALFORMED, say("goal_revealed before the first round_started"), field="type")
            return
        if self._breach(ending.check_round_open(rs, event.type)):
            return
        card = event.card
        for field, message in revealed_card_problems(event, self._game()):
            self._report(Code.MALFORMED, _field_problem(field, message), field=field)
        if card is not None and not self._observed and rs.maze.goal_card(event.goal) not in (card, cards.UNSEEN):
            self._report(
                Code.MALFORMED,
                say(
                    "field `card`: the %(slot)s goal was dealt %(dealt)s, not %(card)s",
                    slot=event.goal,
                    dealt=rs.maze.goal_card(event.goal),
                    card=card,
                ),
                field="card",
            )
            card = None
        if rs.reveal_run is not None:
            rs.reveal_run.entries.append((event.goal, event.rotated, self._line, card))
            return
        if rs.late_reveals.pop(event.goal, None) is not None:
            # R-G1: the reveal reported missing where it was due, come late: one slip,
            # reported once; in an observed log it names the card the table could not see till now
            if card is not None and rs.maze.goal_card(event.goal) == cards.UNSEEN:
                reached_by = rs.unseen_goals.pop(event.goal, None)
                rs.maze.learn_goal(event.goal, card)
                if card == cards.GOLD and reached_by is not None:
                    _gold_reached(rs, reached_by)
            return
        if self._breach(ending.check_round_not_over(rs, event.type)):
            return  # the round is over (R-E1, R-E2): no reveal follows, true or false
        if not rs.maze.face_down(event.goal):
            said = say(
                "the %(slot)s goal is already face up: goals are turned up right after the placement that reaches them",
                slot=event.goal,
            )
        else:
            said = say(
                "the %(slot)s goal was not reached by the card just laid: goals are turned up right after the "
                "placement that reaches them",
                slot=event.goal,
            )
        self._report(Code.FALSE_REVEAL, said)

    def _referee_note(self, event: RefereeNote) -> None:
        """R-C1: an error no card shows, as the referee saw it. It changes no state (a
        note between a card and its draw, or in a run of reveals, interrupts nothing)."""
        self._report(Code.TABLE_INCIDENT, note_message(event), player=event.player)

    def _close_run(self, rs: RoundState, next_line: int | None) -> None:
        run = rs.reveal_run
        assert run is not None
        rs.reveal_run = None
        if not run.entries and not rs.maze.reached_goals():
            return  # nothing reached, nothing revealed: the usual case
        breaches, turned = goals.close_reveal_run(rs.maze, run, next_line, round_number=rs.number)
        for line, breach in sorted(breaches, key=lambda pair: pair[0]):
            self._breach(breach, line=line)
        named = {slot for slot, *_ in run.entries}
        if next_line is not None:
            rs.late_reveals.update((slot, next_line) for slot in turned if slot not in named)
        for slot in turned:
            if rs.maze.goal_card(slot) == cards.UNSEEN:
                rs.unseen_goals[slot] = run.player
        if ending.gold_turned_up(rs.maze, turned):
            _gold_reached(rs, run.player)


def _gold_claimed(rs: RoundState, connector: str | None) -> None:
    """An observed round whose gold may have been turned up without its line: the one
    goal the rules turned up unnamed by ``connector``'s card is the gold when the
    ``round_ended`` says ``connector`` reached it and no other goal showed the gold (the
    log's only word on it; the ``missing_reveal`` is reported). Taken for a stone, the
    round went on by the replay: a missed draw, and the gold diggers' win scored as
    the saboteurs'."""
    if connector is None or any(rs.maze.goal_card(slot) == cards.GOLD for slot in cards.SLOTS):
        return
    reached = [slot for slot, player in rs.unseen_goals.items() if player == connector]
    if len(reached) != 1:
        return
    rs.maze.learn_goal(reached[0], cards.GOLD)
    del rs.unseen_goals[reached[0]]
    _gold_reached(rs, connector)


def _gold_reached(rs: RoundState, connector: str) -> None:
    """R-E1: the gold turned up by ``connector``'s card: the round is over at once, and
    no draw is due after the card that reached it."""
    rs.gold_found = True
    rs.connector = connector
    rs.over = True
    rs.draw_due = False
    rs.draw_due_at = None


SeenDeal = tuple[dict[str, list[str]], list[str], Counter[str] | None]


def _as_seen(deal: RoundStarted) -> RoundStarted:
    """An observed log's deal as the table saw it: without its hidden parts.

    An observed log leaves them ``null`` (event-log.md); one that gives them anyway is
    ``malformed`` for it (:func:`events.schema.context_problems`), and what it gave is
    then not used: the hands are counted, not read, so a hand's size (``bad_hand_size``)
    and its cards (``card_not_in_hand`` for a card it lists or not) are never judged
    there, as the format says."""
    if all(getattr(deal, name) is None for name in HIDDEN_IN_A_DEAL):
        return deal
    fields = {name: getattr(deal, name) for name in RoundStarted.model_fields}
    return RoundStarted.model_construct(**(fields | dict.fromkeys(HIDDEN_IN_A_DEAL)))


def _deal_as_seen(deal: RoundStarted, players: list[str]) -> SeenDeal:
    """The hands, the pile (top card last) and the count of cards laid face up, as the
    log lets the replay know them. A deal that is not shown (an observed log) is
    counted: each hand holds R-S4's number of unseen cards, and the pile the rest of
    the deck less the setup card; then R-S3 is judged on the cards as they are laid."""
    if deal.hands is not None and deal.draw_pile is not None:
        return {p: list(deal.hands.get(p, ())) for p in players}, list(reversed(deal.draw_pile)), None
    size = hand_size(len(players))
    hands = (
        {p: list(deal.hands.get(p, ())) for p in players}
        if deal.hands is not None
        else {p: [cards.UNSEEN] * size for p in players}
    )
    laid: Counter[str] = Counter()
    if deal.setup_card is not None and deal.setup_card.card in cards.DECK:
        laid[deal.setup_card.card] += 1
    if deal.draw_pile is not None:
        return hands, list(reversed(deal.draw_pile)), laid
    rest = cards.DECK.total() - sum(len(hand) for hand in hands.values()) - (deal.setup_card is not None)
    return hands, [cards.UNSEEN] * max(rest, 0), laid


_NOTE_ERRORS: Final = {
    "face_up_discard": (
        sentence("referee's note: %(player)s discarded a card face up"),
        sentence("referee's note: a player discarded a card face up"),
    ),
    "drew_from_discard": (
        sentence("referee's note: %(player)s drew from the discard pile"),
        sentence("referee's note: a player drew from the discard pile"),
    ),
    "moved_path_card": (
        sentence("referee's note: %(player)s moved a path card already laid"),
        sentence("referee's note: a player moved a path card already laid"),
    ),
    "moved_broken_tool": (
        sentence("referee's note: %(player)s moved or discarded a broken tool not repaired"),
        sentence("referee's note: a player moved or discarded a broken tool not repaired"),
    ),
    "showed_hand_card": (
        sentence("referee's note: %(player)s showed a hand card"),
        sentence("referee's note: a player showed a hand card"),
    ),
    "showed_goal_card": (
        sentence("referee's note: %(player)s showed a goal card"),
        sentence("referee's note: a player showed a goal card"),
    ),
    "showed_role_card": (
        sentence("referee's note: %(player)s showed a role card"),
        sentence("referee's note: a player showed a role card"),
    ),
    "looked_at_cards": (
        sentence("referee's note: %(player)s looked at cards they may not see"),
        sentence("referee's note: a player looked at cards they may not see"),
    ),
    "other": (
        sentence("referee's note: %(player)s broke a rule at the table"),
        sentence("referee's note: a player broke a rule at the table"),
    ),
}
"""What each ``referee_note`` error says: with the player named, and without."""


def note_message(note: RefereeNote) -> Said:
    """A ``table_incident``'s message: who did what, then the referee's words (shown as
    written, in whatever language the referee wrote them)."""
    named, unnamed = _NOTE_ERRORS[note.error]
    said = say(unnamed) if note.player is None else say(named, player=note.player)
    if not note.note:
        return said
    return say("%(said)s: %(note)s", said=(said,), note=note.note)


def _field_problem(field: str, said: Said) -> Said:
    """A problem with one field, in the schema's words (:data:`events.schema.FieldProblem`)."""
    return say("field `%(field)s`: %(problem)s", field=field, problem=(said,))


def _refused(exc: ValueError) -> Said:
    """Why a value was refused: the sentence of a :class:`Refusal`, else its text."""
    return exc.said if isinstance(exc, Refusal) else problem(str(exc))


_SIMPLE: Final = frozenset({"draw", "discard", "play_path", "play_rockfall", "play_map", "goal_revealed"})
"""Events whose only cross-line check is that their player sits at the table."""
_ACTORS = frozenset({"player", "target"})
"""Fields naming who acts on whom: an event with a stranger there cannot be applied."""


_HANDLERS: dict[str, Callable[[Replay, Any], None]] = {
    "round_started": Replay._round_started,
    "round_ended": Replay._round_ended,
    "game_ended": Replay._game_ended,
    "play_path": Replay._play_path,
    "play_tool": Replay._play_tool,
    "play_rockfall": Replay._play_rockfall,
    "play_map": Replay._play_map,
    "discard": Replay._discard,
    "draw": Replay._draw,
    "goal_revealed": Replay._goal_revealed,
    "referee_note": Replay._referee_note,
}
"""The handler of each event type, found by the line's ``type``: a line read as a model
or as a Struct (``events.structs``, the audit's reading) is applied alike."""

Source = Path | str | Iterable[str] | Iterable[bytes] | Iterable[Event] | Iterable[LogLine]


def log_lines(source: Source, block_parser: BlockParser = parse_block) -> Iterator[LogLine]:
    """Numbered lines from a path, raw lines, parsed events or :class:`LogLine` s; raw
    lines are parsed by ``block_parser`` (as models, unless the caller wants Structs)."""
    if isinstance(source, (str, Path)) and not (isinstance(source, str) and "\n" in source):
        yield from read_log(Path(source), block_parser)
        return
    if isinstance(source, str):
        yield from parse_lines(source.splitlines(), block_parser)
        return
    iterator = iter(source)
    first = next(iterator, None)
    if first is None:
        raise UnreadableLog(say("empty log: a log starts with a game_started line"))
    items = chain((first,), iterator)
    if isinstance(first, LogLine):
        yield from items
    elif isinstance(first, Event):
        for number, event in enumerate(items, start=1):
            yield LogLine(number, event)  # type: ignore[arg-type]
    else:
        yield from parse_lines(items, block_parser)  # type: ignore[arg-type]


def replay(source: Source, *, strict: bool = False) -> Iterator[Step]:
    """The state and the findings after every line of a log, then a last step
    (``event=None``) with the findings of the log's end.

    Raises :class:`~events.logfile.UnreadableLog` when the source cannot be read as a
    log at all, and in strict mode :class:`~events.findings.ReplayError`.
    """
    engine = Replay(strict=strict)
    for log_line in log_lines(source):
        found = engine.feed(log_line)
        yield Step(log_line.number, log_line.event, engine.state, found)
    found = engine.finish()
    yield Step(engine.last_line, None, engine.state, found)
