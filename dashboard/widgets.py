"""Layout pieces more than one page uses (no data access of their own)."""

from __future__ import annotations

from typing import Final

import polars as pl
import streamlit as st

ALL: Final = "(all)"
NONE: Final = "(no tournament)"


def tournament_picker(
    tournaments: pl.DataFrame, *, key: str, label: str = "Tournament", all_option: str | None = None
) -> str | None:
    """A select box of the tournaments by name; ``None`` when ``all_option`` is picked."""
    names = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
    options = ([all_option] if all_option else []) + list(names)
    if st.session_state.get(key) not in options:
        st.session_state.pop(key, None)

    def label_of(value: str) -> str:
        return value if value == all_option else f"{names[value]} ({value})"

    chosen = st.selectbox(label, options, format_func=label_of, key=key)
    return None if chosen is None or chosen == all_option else str(chosen)


def choice(label: str, values: list[str], *, key: str, all_label: str = ALL) -> str | None:
    """A select box with an "all" entry first; ``None`` for all."""
    options = [all_label, *values]
    if st.session_state.get(key) not in options:
        st.session_state.pop(key, None)
    chosen = st.selectbox(label, options, key=key)
    return None if chosen == all_label else chosen


def percent(value: object) -> str:
    """A share as a whole percentage; a dash for none."""
    return f"{value:.0%}" if isinstance(value, (int, float)) else "–"
