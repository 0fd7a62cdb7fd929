"""Layout pieces more than one page uses (no data access of their own)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import polars as pl
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from dashboard import names
from dashboard.i18n import _

ALL: Final = "(all)"
NONE: Final = "(no tournament)"


def keep_choice(key: str, options: Sequence[object]) -> None:
    """Before the select box keyed ``key`` is laid out: if the value it holds is no
    longer one of ``options`` (another tournament was picked, say), make it the first.

    Setting the value, not deleting it, tells the browser too: a deleted value is
    forgotten only here, and the browser's box, still showing the old choice, sends it
    back on every later run (on Replay that put the step back at the start at each
    click of Next).
    """
    if st.session_state.get(key) not in options:
        if options:
            st.session_state[key] = options[0]
        else:
            st.session_state.pop(key, None)


def tournament_picker(
    tournaments: pl.DataFrame, *, key: str, label: str = "Tournament", all_option: str | None = None
) -> str | None:
    """A select box of the tournaments by name; ``None`` when ``all_option`` is picked."""
    names = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
    options = ([all_option] if all_option else []) + list(names)
    keep_choice(key, options)

    def label_of(value: str) -> str:
        return value if value == all_option else f"{names[value]} ({value})"

    chosen = st.selectbox(label, options, format_func=label_of, key=key)
    return None if chosen is None or chosen == all_option else str(chosen)


def choice(
    label: str, values: list[str], *, key: str, all_label: str = ALL, shown: Callable[[str], str] = str
) -> str | None:
    """A select box with an "all" entry first; ``None`` for all. ``shown`` names each
    value (a code's plain name, :mod:`dashboard.names`); the box keeps the value."""
    options = [all_label, *values]
    keep_choice(key, options)
    chosen = st.selectbox(label, options, format_func=lambda v: v if v == all_label else shown(v), key=key)
    return None if chosen == all_label else chosen


def win_rate_columns() -> dict[str, ColumnConfig]:
    """Column settings for a win rate with its Wilson 95% interval (``rate``, ``low``,
    ``high``): every table of rates reads the same way."""
    return {
        "rate": st.column_config.NumberColumn(_("win rate"), format="percent"),
        "low": st.column_config.NumberColumn(names.bound("low"), format="percent"),
        "high": st.column_config.NumberColumn(names.bound("high"), format="percent"),
    }
