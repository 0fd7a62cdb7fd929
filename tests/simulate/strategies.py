"""Hypothesis strategies shared by the simulator's property tests, and their size."""

from __future__ import annotations

import os
from typing import Final

from hypothesis import strategies as st

RERUN: Final = "SABOTEUR_RERUN_ON_SOURCES"
"""Set by ``tests/test_compiled.py`` for its rerun of the rules and these properties on
the pure-Python sources, beside a suite that ran them compiled."""


def examples(count: int) -> int:
    """``count`` examples, or a third of them in the rerun on the sources (:data:`RERUN`):
    the rerun looks for code that behaves otherwise compiled (mypyc's stricter types),
    which every game it replays reaches, not for games the compiled run did not try.
    A suite run on the sources alone (a pure-Python install) runs them all."""
    return max(count // 3, 5) if os.environ.get(RERUN) == "1" else count


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, int, int]:
    """A ruleset, a table size it allows, a number of rounds and a seed."""
    ruleset = draw(st.sampled_from(["tournament", "base"]))
    players = draw(st.integers(5, 10) if ruleset == "tournament" else st.integers(3, 10))
    rounds = draw(st.integers(1, 4 if ruleset == "tournament" else 3))
    seed = draw(st.integers(0, 2**32 - 1))
    return ruleset, players, rounds, seed
