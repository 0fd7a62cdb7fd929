"""Players (public): one player's rounds, roles, win rates and points over time."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.filters import Filters
from dashboard import charts, data, widgets
from dashboard.markup import escape

st.title("Players")
everyone = data.player_stats(Filters())
if everyone.is_empty():
    st.info("No rounds are stored yet.")
    st.stop()

names = dict(zip(everyone["player"].to_list(), everyone["name"].to_list(), strict=True))
ordered = sorted(names, key=lambda p: (names[p].casefold(), p))
top = st.columns([2, 2])
with top[0]:
    widgets.keep_choice("players_player", ordered)
    player = st.selectbox("Player", ordered, format_func=lambda p: f"{names[p]} ({p})", key="players_player")
with top[1]:
    tournament = widgets.tournament_picker(
        data.tournaments(), key="players_tournament", all_option="(every tournament and game)"
    )
assert player is not None

rounds = data.player_rounds(player, tournament)
st.header(escape(names[player]))
if rounds.is_empty():
    st.info("No finished rounds of this player match.")
    st.stop()

mine = data.player_stats(Filters(tournament=tournament)).filter(pl.col("player") == player)
summary = st.columns(5)
summary[0].metric("Rounds", rounds.height)
summary[1].metric("Wins", int(rounds["won"].sum()))
summary[2].metric("Win rate", widgets.percent(rounds["won"].cast(pl.Float64).mean()))
summary[3].metric("Points", int(rounds["points"].fill_null(0).sum()))
summary[4].metric("Stars", int(rounds["star"].sum()))
if mine.height:
    expected = mine["expected_wins"][0]
    if expected is not None:
        st.caption(
            f"Roles are dealt, not chosen: with the roles dealt, an average player would have won "
            f"{expected:.1f} of these rounds; {escape(names[player])} won {int(mine['wins'][0])}."
        )

st.subheader("By role")
st.dataframe(
    data.player_roles(rounds),
    hide_index=True,
    width="stretch",
    column_config=widgets.win_rate_columns(),
)

st.subheader("Points over time")
st.altair_chart(charts.points_over_time(rounds), width="stretch")

st.subheader("Rounds")
st.dataframe(
    rounds.select(
        "started_at",
        "tournament",
        "stage",
        "tournament_round",
        "table",
        "game_id",
        "round",
        "role",
        "points",
        "star",
        "won",
        "winner",
    ),
    hide_index=True,
    width="stretch",
)
