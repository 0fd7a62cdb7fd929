"""One walk of a log, many visitors.

python-chess reads a PGN once and hands what it reads to a visitor (``BaseVisitor``): a
game builder, a board, an exporter. Here :func:`walk` reads a log's lines once, feeds
them to one checking :class:`~events.replay.Replay`, and tells every
:class:`ReplayVisitor` what each line did. The audit report, the ingest's projection and
the dashboard's replay viewer are visitors: they ride on the same fold and each hears
only the hooks it overrides, instead of driving a replay of their own and asking every
line what it is.

A walk calls, in this order:

- ``begin_game(replay)`` once the ``game_started`` line is read;
- for every later line, the hook of its kind, if it has one: ``round_started``,
  ``card_played``, ``round_ended``, ``game_ended``;
- ``visit_line(line, state, found)`` for every line, the first included;
- ``end(state, found)`` after the last line, with what the log's end brought to light;
- ``handle_error(error)`` instead, when the log cannot be read at all
  (:class:`~events.logfile.UnreadableLog`) or a strict walk stops at its first error
  (:class:`~events.findings.ReplayError`): the walk stops there, and tells each visitor
  in turn until one passes the error on to the walk's caller.

``result()`` then gives what the visitor made. Hooks receive the live state the walk goes
on folding into: a visitor copies what it keeps.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Final, Generic, TypeVar, cast, get_args

from events.findings import Finding, ReplayError
from events.logfile import BlockParser, LogLine, UnreadableLog, parse_block
from events.replay import CardPlay, Replay, Source, log_lines
from events.schema import Event, GameEnded, RoundEnded, RoundStarted
from events.state import GameState, Outcome, RoundState

R = TypeVar("R", covariant=True)


class ReplayVisitor(ABC, Generic[R]):
    """Hooks called by :func:`walk`; each does nothing unless a visitor overrides it,
    but every visitor says what it made (:meth:`result`)."""

    def begin_game(self, replay: Replay) -> None:
        """The ``game_started`` line is read: ``replay.state.game`` is the header. The
        replay is the fold the walk feeds (its findings so far, ``settled()``)."""

    def round_started(self, line: int, event: RoundStarted, rs: RoundState) -> None:
        """The line dealt a round (a ``round_started`` the replay could not apply only
        comes to ``visit_line``)."""

    def card_played(self, line: int, event: CardPlay, state: GameState) -> None:
        """A line that plays a card, whether or not the rules let it stand: ``state``
        says where the table is after it."""

    def round_ended(self, line: int, event: RoundEnded, rs: RoundState, outcome: Outcome | None) -> None:
        """A ``round_ended`` line, the round in play having ended (by this line, or by an
        earlier one that this line repeats); ``outcome`` is the rules' verdict on it,
        ``None`` for a round nothing can score (a role not turned up)."""

    def game_ended(self, line: int, event: GameEnded, state: GameState) -> None:
        """A ``game_ended`` line."""

    def visit_line(self, line: LogLine, state: GameState, found: list[Finding]) -> None:
        """Any line, after its own hook, with the findings it brought to light (some
        may name earlier lines: a run of reveals is judged when it ends)."""

    def end(self, state: GameState, found: list[Finding]) -> None:
        """The log is over; ``found``: what its end brought to light (an open run of
        reveals judged, ``incomplete``)."""

    def handle_error(self, error: UnreadableLog | ReplayError) -> None:
        """The walk stops: the log is unreadable, or a strict replay met an error. By
        default the error goes on up to the walk's caller; a visitor that makes a
        verdict of it (the audit) returns instead."""
        raise error

    @abstractmethod
    def result(self) -> R:
        """What the visitor made of the walk."""


def walk(
    source: Source, *visitors: ReplayVisitor[Any], strict: bool = False, block_parser: BlockParser = parse_block
) -> None:
    """Read a log once, fold it through one checking replay, and tell every visitor.

    ``source`` is anything :func:`~events.replay.log_lines` reads (a path, text, lines,
    events). ``strict`` stops at the first error (see :meth:`ReplayVisitor.handle_error`).
    ``block_parser`` reads raw lines: as models by default;
    :func:`~events.logfile.parse_structs_block` gives Structs, faster, with the same
    fields and ``type``, for visitors that read events by their fields (the audit, the
    ingest's projection), not by their class.
    """
    replay = Replay(strict=strict)
    state = replay.state
    listening = [visitor for visitor in visitors if _hears_lines(visitor)]
    try:
        lines = log_lines(source, block_parser)
        opening = next(lines, None)
        if opening is not None:
            found = replay.feed(opening)  # the game_started line, or UnreadableLog
            for visitor in visitors:
                visitor.begin_game(replay)
            for visitor in listening:
                visitor.visit_line(opening, state, found)
        if listening:
            for log_line in lines:
                found = replay.feed(log_line)
                event = log_line.event
                for visitor in listening:
                    if event is not None:
                        _tell(visitor, log_line.number, event, state)
                    visitor.visit_line(log_line, state, found)
        else:  # nobody hears the lines (the audit alone): only the fold
            feed = replay.feed
            for log_line in lines:
                feed(log_line)
        found = replay.finish()
        for visitor in visitors:
            visitor.end(state, found)
    except (UnreadableLog, ReplayError) as error:
        for visitor in visitors:
            visitor.handle_error(error)


_LINE_HOOKS = ("round_started", "card_played", "round_ended", "game_ended", "visit_line")


def _hears_lines(visitor: ReplayVisitor[Any]) -> bool:
    """Whether a visitor overrides a hook called line by line: the audit overrides none,
    so a walk for it alone costs nothing per line beyond the replay."""
    return any(getattr(type(visitor), name) is not getattr(ReplayVisitor, name) for name in _LINE_HOOKS)


def _tell(visitor: ReplayVisitor[Any], line: int, event: Event, state: GameState) -> None:
    """Call the hook of the line's kind, if it has one. The kind is the event's
    ``type``, which a model and a Struct (:mod:`events.structs`) both carry."""
    kind = event.type
    if kind in _CARD_PLAYS:
        visitor.card_played(line, cast(CardPlay, event), state)
    elif kind == "round_started":
        rs = state.round
        if rs is not None and rs.deal is event:
            visitor.round_started(line, event, rs)
    elif kind == "round_ended":
        rs = state.round
        if rs is not None and rs.ended:
            visitor.round_ended(line, cast(RoundEnded, event), rs, rs.outcome)
    elif kind == "game_ended":
        visitor.game_ended(line, cast(GameEnded, event), state)


_CARD_PLAYS: Final = frozenset(model.model_fields["type"].annotation.__args__[0] for model in get_args(CardPlay))
"""The types of the lines :meth:`ReplayVisitor.card_played` hears."""
