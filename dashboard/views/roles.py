"""Roles (public): how often each role wins at each table size, with its uncertainty."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.filters import DEFAULT_MIN_N, Filters
from dashboard import charts, data, widgets

st.title("Roles")
st.caption(
    "The chance that a player dealt a role wins the round, per table. Gold diggers and saboteurs win or lose "
    "as a team, so each round is one trial for them; each selfish dwarf is a trial of their own. Bars are 95% "
    "Wilson intervals; faint points are cells with fewer trials than the minimum below."
)
rulesets = data.rulesets()
if not rulesets:
    st.info("No games are stored yet.")
    st.stop()

top = st.columns([1, 2, 1])
with top[0]:
    ruleset = st.radio("Ruleset", rulesets, horizontal=True, key="roles_ruleset")
with top[1]:
    tournament = widgets.tournament_picker(
        data.tournaments(), key="roles_tournament", label="Tournament", all_option="(every tournament and game)"
    )
with top[2]:
    stage = widgets.choice("Stage", ["preliminary", "semifinal", "final"], key="roles_stage")
low = st.columns([1, 1, 2])
with low[0]:
    clean_only = st.checkbox("Clean rounds only", key="roles_clean", help="Leave out rounds the audit found errors in.")
with low[1]:
    min_n = int(st.number_input("Minimum trials", min_value=1, value=DEFAULT_MIN_N, step=5, key="roles_min_n"))

filters = Filters(tournament=tournament, stage=stage, ruleset=ruleset, clean_only=clean_only, min_n=min_n)
frame = data.role_win_rates(filters)
if frame.is_empty():
    st.info("No rounds match these filters.")
    st.stop()

st.altair_chart(charts.role_win_rates(frame), width="stretch")
st.subheader("The numbers")
st.dataframe(
    frame.select(
        "table",
        "players",
        "saboteurs",
        "role",
        "n",
        "wins",
        "rate",
        "low",
        "high",
        "dealt",
        pl.col("flagged").alias(f"n < {min_n}"),
    ),
    hide_index=True,
    width="stretch",
    column_config={
        "n": st.column_config.NumberColumn("n", help="Trials: rounds for a team, dwarfs dealt for selfish dwarfs"),
        **widgets.win_rate_columns(),
        "dealt": st.column_config.NumberColumn("dealt", help="Player-rounds dealt the role"),
    },
)
observed = data.observed_rounds(filters)
included = f" Observed rounds included: {observed:,} (roles as turned up at each round's end)." if observed else ""
st.caption(f"{int(frame['n'].sum()):,} trials in {frame.height} cells.{included}")
