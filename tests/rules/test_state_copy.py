"""A snapshot of the state is a deep copy, outcomes included (``Outcome.__deepcopy__``)."""

from __future__ import annotations

import copy

from events.state import Outcome


def test_a_deep_copy_of_an_outcome_is_equal_and_shares_no_table() -> None:
    outcome = Outcome(2, "gold_diggers", "ann", {"ann": 3, "bob": None}, ("ann",), {"ann": 1})
    clone = copy.deepcopy(outcome)
    assert clone == outcome
    assert clone.scores is not outcome.scores
    assert clone.gold_card_counts is not outcome.gold_card_counts
    same = [outcome, outcome]
    copied = copy.deepcopy(same)
    assert copied[0] is copied[1]  # one outcome stays one outcome
