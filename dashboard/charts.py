"""Altair charts of the dashboard: pure functions from frames to chart specifications."""

from __future__ import annotations

from typing import Final

import altair as alt
import polars as pl

ROLE_COLOURS: Final = {"gold_digger": "#d4ac0d", "saboteur": "#943126", "selfish_dwarf": "#1f618d"}


def _role_scale() -> alt.Scale:
    return alt.Scale(domain=list(ROLE_COLOURS), range=list(ROLE_COLOURS.values()))


def role_win_rates(frame: pl.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """Win rate per role by table (size and saboteurs), each with its Wilson 95%
    interval as an error bar; hollow points where the sample is too small to read."""
    data = frame.select("table", "players", "saboteurs", "role", "n", "wins", "rate", "low", "high", "flagged")
    order = data.sort("players", "saboteurs")["table"].unique(maintain_order=True).to_list()
    base = alt.Chart(data).encode(
        x=alt.X("table:N", sort=order, title="table", axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("role:N", sort=list(ROLE_COLOURS)),
        color=alt.Color("role:N", scale=_role_scale(), title="role"),
    )
    bars = base.mark_errorbar(ticks=True, thickness=2).encode(
        y=alt.Y("low:Q", title="win rate (95% interval)", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        y2="high:Q",
    )
    points = base.mark_point(size=70, filled=True).encode(
        y="rate:Q",
        opacity=alt.condition("datum.flagged", alt.value(0.35), alt.value(1.0)),
        tooltip=[
            alt.Tooltip("table:N"),
            alt.Tooltip("role:N"),
            alt.Tooltip("n:Q", title="n (trials)"),
            alt.Tooltip("wins:Q"),
            alt.Tooltip("rate:Q", format=".1%"),
            alt.Tooltip("low:Q", format=".1%"),
            alt.Tooltip("high:Q", format=".1%"),
        ],
    )
    return alt.layer(bars, points).properties(height=360)


def points_over_time(rounds: pl.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """A player's running total of points, round after round, each round's role shown."""
    data = rounds.select("number", "game_id", "round", "role", "points", "cumulative", "won", "star")
    line = (
        alt.Chart(data)
        .mark_line(color="#7f8c8d")
        .encode(
            x=alt.X("number:Q", title="rounds played", axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("cumulative:Q", title="points so far", axis=alt.Axis(format="d", tickMinStep=1)),
        )
    )
    dots = (
        alt.Chart(data)
        .mark_circle(size=60)
        .encode(
            x="number:Q",
            y="cumulative:Q",
            color=alt.Color("role:N", scale=_role_scale(), title="role"),
            tooltip=["game_id:N", "round:Q", "role:N", "points:Q", "won:N", "star:N"],
        )
    )
    return alt.layer(line, dots).properties(height=300)
