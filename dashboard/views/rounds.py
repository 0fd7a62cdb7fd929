"""Rounds (public): every finished round with its audit verdict, each linked to its replay."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import data, widgets
from dashboard.replay_view import replay_link

st.title("Rounds")
st.caption("Every finished round with the audit's verdict. Rounds still in play are not listed.")

tournaments = data.tournaments()
row1 = st.columns(3)
with row1[0]:
    tournament = widgets.tournament_picker(tournaments, key="rounds_tournament", all_option=widgets.ALL)
options = data.choices(tournament)
with row1[1]:
    number = widgets.choice("Tournament round", [str(n) for n in options["tournament_rounds"]], key="rounds_number")
with row1[2]:
    table = widgets.choice("Table", options["tables"], key="rounds_table")
row2 = st.columns(3)
with row2[0]:
    game_round = widgets.choice("Round of the game", ["1", "2", "3", "4"], key="rounds_round")
with row2[1]:
    code = widgets.choice("Finding code", options["codes"], key="rounds_code")
with row2[2]:
    verdict = widgets.choice("Verdict", ["clean", "violations"], key="rounds_verdict")

query = data.RoundQuery(
    tournament=tournament,
    tournament_round=int(number) if number else None,
    table=table,
    round=int(game_round) if game_round else None,
    code=code,
    verdict=verdict,
)
listed, matched = data.rounds(query)
if not matched:
    st.info("No finished round matches these filters.")
    st.stop()
shown = f"the first {listed.height:,} of " if listed.height < matched else ""
st.caption(f"Showing {shown}{matched:,} rounds.")
links = [replay_link(t, str(g), int(r)) for t, g, r in listed.select("tournament", "game_id", "round").iter_rows()]
st.dataframe(
    listed.with_columns(replay=pl.Series(links, dtype=pl.String)).select(
        "replay",
        "verdict",
        "tournament",
        "stage",
        "tournament_round",
        "table",
        "game_id",
        "round",
        "players",
        "winner",
        "connector",
        "ended_by",
        "turns",
        "errors",
        "warnings",
        "codes",
    ),
    hide_index=True,
    width="stretch",
    column_config={
        "tournament_round": st.column_config.NumberColumn("t. round"),
        "replay": st.column_config.LinkColumn("replay", display_text="Replay", width="small"),
    },
)

st.subheader("A closer look")
keys = [(t, str(g), int(r)) for t, g, r in zip(listed["tournament"], listed["game_id"], listed["round"], strict=True)]
picked = st.selectbox("Round", keys, format_func=lambda k: f"{k[1]} · round {k[2]}", key="rounds_pick")
if picked is not None:
    game_tournament, game_id, game_round_number = picked
    found = data.round_findings(game_id, game_round_number)
    if found.is_empty():
        st.success("The audit found nothing to report in this round.")
    else:
        st.dataframe(found, hide_index=True, width="stretch")
    if st.button("Step through it in Replay"):
        st.session_state["replay_goto"] = (game_tournament, game_id, game_round_number)
        st.switch_page("views/replay.py")
