"""What crosses a process boundary survives it, compiled or not: an audit goes back from
``saboteur audit``'s workers by pickle, and the replay's states are deep-copied. A frozen
dataclass compiled by mypyc cannot be filled field by field, as pickle and ``copy`` do
unless the class says how to rebuild it (``__reduce__``)."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from events.audit import audit_file
from events.cards import TUNNEL_CARDS
from events.logfile import LineError, parse_data
from events.replay import Replay, Step
from events.state import Outcome

GOOD = Path(__file__).parent / "data" / "good" / "tournament_3_rounds.jsonl"


def _replayed() -> Replay:
    replay = Replay()
    for line in parse_data(GOOD.read_bytes()):
        replay.feed(line)
    return replay


@pytest.mark.parametrize(
    "value",
    [
        Outcome(2, "selfish_dwarf", "dia", {"ann": 0, "dia": 4, "eve": None}, ("dia",), {"dia": 2}),
        LineError("field `x`: not a number", "x"),
        TUNNEL_CARDS["NESW"],
    ],
    ids=lambda v: type(v).__name__,
)
def test_a_frozen_value_survives_pickle_and_deepcopy(value: object) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value


def test_an_audit_survives_pickle() -> None:
    audit = audit_file(GOOD)
    back = pickle.loads(pickle.dumps(audit))
    assert back.report() == audit.report()
    assert back.outcomes == audit.outcomes and len(back.outcomes) == 3


def test_a_replays_state_and_step_survive_pickle_and_deepcopy() -> None:
    state = _replayed().state
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert copied.outcomes == state.outcomes
        assert copied.round is not None and state.round is not None
        assert copied.round.number == state.round.number
    step = Step(7, None, state, [])
    assert pickle.loads(pickle.dumps(step)).state.outcomes == state.outcomes
