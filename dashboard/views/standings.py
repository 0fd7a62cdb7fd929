"""Standings (public): points, stars, penalties, the cut line, ties, why each player
stands where they do; beneath, the record's integrity.

The standings follow the store by themselves (``dashboard.live``): a game that ends at
its table shows here at the next run, with the tournament and stage chosen kept. The
integrity part is read when the page runs: while tables are being recorded the chain
grows at every entry, and verifying it at each refresh would be work for nothing."""

from __future__ import annotations

import shlex
from typing import Any

import polars as pl
import streamlit as st

from dashboard import data, widgets
from dashboard.live import live
from dashboard.markup import escape

# Chains up to this many events are verified when the page opens; longer ones on request.
AUTO_VERIFY = 50_000
WHY = {"why ranked here": st.column_config.TextColumn(width="large")}

st.title("Standings")
tournaments = data.tournaments()
if tournaments.is_empty():
    st.info("No tournament is stored yet: ingest a tournament.json or games that name a tournament.")
    st.stop()

left, right = st.columns([3, 2])
with left:
    tournament = widgets.tournament_picker(tournaments, key="standings_tournament")
assert tournament is not None
with right:
    stages = data.stages(tournament)
    if st.session_state.get("standings_stage") not in stages:
        st.session_state["standings_stage"] = stages[0]
    stage = st.radio("Stage", stages, horizontal=True, key="standings_stage")

row = tournaments.filter(pl.col("tournament") == tournament).row(0, named=True)


@live
def standings_now(tournament: str, stage: str, row: dict[str, Any]) -> None:
    """The standings as they stand now: a game taken in shows at the next run."""
    frame = data.standings(tournament, stage)
    games, rounds = data.stage_counts(tournament, stage)
    players = int(frame.height)

    counts = st.columns(4)
    counts[0].metric("Players", players)
    counts[1].metric("Games", games)
    counts[2].metric("Rounds", rounds)
    counts[3].metric("Cut", f"top {row['cut']}" if stage != "final" else "final table")

    if frame.is_empty() or (stage == "final" and games == 0):
        st.info(f"No {stage} games of {escape(row['name'])} are stored yet.")
    else:
        if stage == "final":
            shown = frame.select(
                pl.col("place").alias("#"),
                "name",
                "player",
                pl.col("final_points").alias("points"),
                pl.col("final_stars").alias("stars"),
                pl.col("preliminary_points").alias("prelim. points"),
                pl.col("preliminary_stars").alias("prelim. stars"),
                "rounds",
                "penalty",
                pl.col("open_findings").alias("open findings"),
                pl.col("why").alias("why ranked here"),
            )
            st.dataframe(shown, hide_index=True, width="stretch", column_config=WHY)
        else:
            shown = frame.select(
                pl.col("place").alias("#"),
                pl.when(pl.col("shared"))
                .then(pl.format("{}=", pl.col("rank")))
                .otherwise(pl.col("rank").cast(pl.String))
                .alias("rank"),
                "name",
                "player",
                "points",
                "stars",
                "rounds",
                "penalty",
                pl.col("open_findings").alias("open findings"),
                pl.when(pl.col("cut_tie_undrawn"))
                .then(pl.lit("⚠ tied across the cut: not drawn"))
                .when(pl.col("cut_drawn"))
                .then(pl.lit("placed by the cut draw"))
                .when(pl.col("shared"))
                .then(pl.lit("shared rank"))
                .otherwise(pl.lit(""))
                .alias("tie"),
                pl.col("why").alias("why ranked here"),
                "in_cut",
            )
            above, below = shown.filter(pl.col("in_cut")), shown.filter(~pl.col("in_cut"))
            st.dataframe(above.drop("in_cut"), hide_index=True, width="stretch", column_config=WHY)
            st.markdown(
                f'<div class="cut-line" style="border-top: 3px dashed #c0392b; margin: 0.2rem 0 0.6rem 0; '
                f'color: #c0392b; font-weight: 600; padding-top: 0.2rem">✂ cut line: the top {row["cut"]} go on to '
                f"the final</div>",
                unsafe_allow_html=True,
            )
            if below.height:
                st.dataframe(below.drop("in_cut"), hide_index=True, width="stretch", column_config=WHY)
            if frame["cut_tie_undrawn"].any():
                tied = ", ".join(escape(name) for name in frame.filter(pl.col("cut_tie_undrawn"))["name"])
                st.warning(f"A tie across the cut line is not drawn yet ({tied}). This draws it and records the draw:")
                st.code(f"saboteur tournament cut {shlex.quote(tournament)} --seed N", language="bash")
        if frame["open_findings"].sum():
            st.caption(
                "Open findings: `wrong_score` findings touching a player's rounds, not yet settled on the Audit page."
            )
        with st.expander("Why each player is ranked here"):
            for item in frame.select("place", "name", "why").iter_rows(named=True):
                st.markdown(f"{item['place']}. **{escape(item['name'])}**: {escape(item['why'])}")


standings_now(tournament, stage, row)

st.divider()
st.subheader("The record's integrity")
state = data.integrity()
verified = state.verified
if state.events and state.events <= AUTO_VERIFY and (verified is None or verified.head != state.head):
    verified = data.verify_chain()
cells = st.columns([1, 3])
cells[0].metric("Events", f"{state.events:,}")
with cells[1]:
    st.markdown("Chain head (the hash of the newest event)")
    st.code(state.head, language=None)
    st.caption(
        f"Uploads head (the link of the newest of {state.uploads:,} files received): `{state.uploads_head}`. "
        "A head published now is checked later with `saboteur verify --expect-head HASH`."
    )
if verified is None:
    st.info("The hash chain has not been verified since the dashboard started.")
elif not verified.ok:
    problems = "; ".join(escape(problem) for problem in verified.problems)
    st.error(f"Verification at {verified.at:%Y-%m-%d %H:%M:%S} UTC failed: {problems}")
else:
    since = state.events - verified.events
    later = f"; {since:,} events recorded since" if since > 0 else ""
    st.success(
        f"Last verified {verified.at:%Y-%m-%d %H:%M:%S} UTC: the chain of {verified.events:,} events is intact{later}."
    )
if st.button("Verify the chain now"):
    data.verify_chain()
    st.rerun()
