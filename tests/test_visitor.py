"""One walk of a log, many visitors (``events.visitor``).

The audit, the ingest's projection and the replay viewer each ride on :func:`walk`; one
walk feeding all three gives what three walks of their own give, and every hook comes
once per line it names, in the order the module promises.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dashboard.replay_view import GameViewBuilder, game_view
from events.audit import Auditor, audit
from events.builder import LogBuilder
from events.findings import Finding, ReplayError
from events.logfile import LogLine, UnreadableLog, parse_lines, read_log
from events.replay import CardPlay, Replay
from events.schema import GameEnded, RoundEnded, RoundStarted, dump_event
from events.simulate.game import quick_game
from events.simulate.mutate import mutate
from events.state import GameState, Outcome, RoundState
from events.visitor import ReplayVisitor, walk
from ingest.projection import Projector, project_log

BAD = sorted((Path(__file__).parent / "data" / "bad").glob("*.jsonl"))


class Recorder(ReplayVisitor[list[tuple[Any, ...]]]):
    """Every hook called, with the line it was called for."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def begin_game(self, replay: Replay) -> None:
        assert replay.state.game is not None
        self.calls.append(("begin_game", replay.state.game.game_id))

    def round_started(self, line: int, event: RoundStarted, rs: RoundState) -> None:
        self.calls.append(("round_started", line, rs.number))

    def card_played(self, line: int, event: CardPlay, state: GameState) -> None:
        self.calls.append(("card_played", line, event.type))

    def round_ended(self, line: int, event: RoundEnded, rs: RoundState, outcome: Outcome | None) -> None:
        assert outcome is not None
        self.calls.append(("round_ended", line, outcome.round, outcome.winner))

    def game_ended(self, line: int, event: GameEnded, state: GameState) -> None:
        self.calls.append(("game_ended", line))

    def visit_line(self, line: LogLine, state: GameState, found: list[Finding]) -> None:
        self.calls.append(("visit_line", line.number, [f.code.value for f in found]))

    def end(self, state: GameState, found: list[Finding]) -> None:
        self.calls.append(("end", [f.code.value for f in found]))

    def result(self) -> list[tuple[Any, ...]]:
        return self.calls


def broken_game() -> list[LogLine]:
    """A simulated game with a card played out of turn and a draw missed."""
    lines = [dump_event(e) for e in quick_game(5, "tournament", 2, 3)]
    once = mutate(lines, "out_of_turn", 1)
    assert once is not None
    twice = mutate(once.lines, "skip_draw", 2)
    assert twice is not None
    return list(parse_lines(twice.lines))


@pytest.mark.parametrize("lines", [broken_game(), *(list(read_log(p)) for p in BAD if p.stem != "malformed")])
def test_one_walk_feeds_the_audit_the_projection_and_the_viewer_as_three_walks_do(lines: list[LogLine]) -> None:
    auditor = Auditor("game.jsonl")
    projector = Projector(auditor, upload_id=7, revision=2)
    viewer = GameViewBuilder()
    walk(lines, auditor, projector, viewer)
    shared_audit, shared_rows = projector.result()

    alone = audit(lines, name="game.jsonl")
    projected_audit, projected_rows = project_log(lines, name="game.jsonl", upload_id=7, revision=2)
    assert auditor.result().report() == alone.report() == shared_audit.report() == projected_audit.report()
    assert shared_rows.tables() == projected_rows.tables()
    assert viewer.result() == game_view(lines)


def test_the_broken_game_is_found_out_by_every_visitor_alike() -> None:
    """The walk's findings reach the audit, the projection's rows and the viewer's frames."""
    lines = broken_game()
    auditor = Auditor()
    projector = Projector(auditor, upload_id=1, revision=1)
    viewer = GameViewBuilder()
    walk(lines, auditor, projector, viewer)
    audited, rows = projector.result()
    codes = sorted((f.code.value, f.line) for f in audited.findings)
    assert {"out_of_turn", "missed_draw"} <= {code for code, _ in codes}
    assert sorted((r.code, r.line) for r in rows.findings) == codes
    shown = [(v.code, v.line) for r in viewer.result().rounds.values() for _, v in r.violations]
    assert sorted(shown) == codes


def test_hooks_come_once_per_line_in_order() -> None:
    log = LogBuilder(players=3, ruleset="base", rounds=1)
    log.deal(start="ann").pass_out().end_round().end_game()
    recorder = Recorder()
    walk(log.lines, recorder)
    calls = recorder.result()
    assert calls[:2] == [("begin_game", "test:game"), ("visit_line", 1, [])]
    assert calls[2:4] == [("round_started", 2, 1), ("visit_line", 2, [])]
    cards = [c for c in calls if c[0] == "card_played"]
    assert [c[2] for c in cards] == ["discard"] * len(cards)
    assert len(cards) == sum('"type":"discard"' in line for line in log.lines)
    assert [c[1] for c in calls if c[0] == "visit_line"] == list(range(1, len(log.lines) + 1))
    winner = audit(log.lines).outcomes[0].winner
    assert [c for c in calls if c[0] == "round_ended"] == [("round_ended", log.line - 1, 1, winner)]
    assert calls[-3:] == [("game_ended", log.line), ("visit_line", log.line, []), ("end", [])]


def test_a_repeated_round_ended_reaches_round_ended_again_and_a_refused_deal_does_not_deal() -> None:
    """round_ended comes for a line that repeats the round's end (the round has ended);
    round_started only for a line that dealt a round."""
    log = LogBuilder(players=3, ruleset="base", rounds=2)
    log.deal(start="ann").pass_out().end_round()
    log.raw(log.lines[-1])
    repeated = log.line
    log.end_game()
    log.raw(log.lines[1])  # a deal after game_ended is refused
    recorder = Recorder()
    walk(log.lines, recorder)
    calls = recorder.result()
    assert [c[1] for c in calls if c[0] == "round_ended"] == [repeated - 1, repeated]
    assert [c[1] for c in calls if c[0] == "round_started"] == [2]
    assert ("visit_line", log.line, ["malformed"]) in calls


def test_the_end_hook_gets_what_the_end_of_the_log_found() -> None:
    log = LogBuilder(players=3, ruleset="base")
    log.deal(start="ann").discard("ann")
    recorder = Recorder()
    walk(log.lines, recorder)
    assert recorder.result()[-1] == ("end", ["incomplete"])


def test_an_unreadable_log_goes_up_unless_a_visitor_makes_a_verdict_of_it() -> None:
    with pytest.raises(UnreadableLog, match="first line must be game_started"):
        walk(['{"type":"draw","player":"ann","card":"NS"}'], Recorder())
    auditor = Auditor("x.jsonl")
    walk(['{"type":"draw","player":"ann","card":"NS"}'], auditor)
    assert auditor.result().status == "unreadable"
    with pytest.raises(UnreadableLog, match="empty log"):
        walk([], Auditor(), Recorder())  # every visitor hears it; the recorder passes it on


def test_a_strict_walk_stops_at_the_first_error() -> None:
    log = LogBuilder(players=3, ruleset="base")
    log.deal(start="ann").discard("bob").discard("cem").discard("ann")
    recorder = Recorder()
    with pytest.raises(ReplayError, match="out_of_turn"):
        walk(log.lines, recorder, strict=True)
    assert recorder.result()[-1] == ("visit_line", 2, [])
    auditor = Auditor()
    walk(log.lines, auditor, strict=True)
    assert [(f.code.value, f.line) for f in auditor.result().findings] == [("out_of_turn", 3)]
