"""Hypothesis strategies shared by the simulator's property tests."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, int, int]:
    """A ruleset, a table size it allows, a number of rounds and a seed."""
    ruleset = draw(st.sampled_from(["tournament", "base"]))
    players = draw(st.integers(5, 10) if ruleset == "tournament" else st.integers(3, 10))
    rounds = draw(st.integers(1, 4 if ruleset == "tournament" else 3))
    seed = draw(st.integers(0, 2**32 - 1))
    return ruleset, players, rounds, seed
