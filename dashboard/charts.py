"""Altair charts of the dashboard: pure functions from frames to chart specifications,
their titles and role names in the session's language (:mod:`dashboard.i18n`).

A chart is drawn as one image: its ``description`` (in the session's language) is the
name a screen reader gives it. The roles are told apart by the marks' shapes as well as
their colours, and each colour stands at least 3:1 against the white page (WCAG 1.4.11),
as does the outline of a hollow point."""

from __future__ import annotations

from typing import Final

import altair as alt
import polars as pl

from dashboard import names
from dashboard.i18n import _

ROLE_COLOURS: Final = {"gold_digger": "#9a7d0a", "saboteur": "#943126", "selfish_dwarf": "#1f618d"}
"""Dark gold, red and blue: each at least 3:1 against white."""
ROLE_SHAPES: Final = {"gold_digger": "circle", "saboteur": "triangle-up", "selfish_dwarf": "square"}
"""Each role's mark, so the roles read without their colours."""


def _role_scale() -> alt.Scale:
    return alt.Scale(domain=[names.role(r) for r in ROLE_COLOURS], range=list(ROLE_COLOURS.values()))


def _role_shapes() -> alt.Shape:
    scale = alt.Scale(domain=[names.role(r) for r in ROLE_SHAPES], range=list(ROLE_SHAPES.values()))
    return alt.Shape("role:N", scale=scale, title=names.column("role"))


def _named_roles(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with each role by its plain name, as the scale's domain names it."""
    return frame.with_columns(names.plain("role", names.ROLES))


def role_win_rates(frame: pl.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """Win rate per role by table (size and saboteurs), each with its Wilson 95%
    interval as an error bar; hollow points where the sample is too small to read (the
    cells ``flagged``)."""
    data = _named_roles(
        frame.select("table", "players", "saboteurs", "role", "n", "wins", "rate", "low", "high", "flagged")
    )
    order = data.sort("players", "saboteurs")["table"].unique(maintain_order=True).to_list()
    base = alt.Chart(data).encode(
        x=alt.X("table:N", sort=order, title=names.column("table"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("role:N", sort=[names.role(r) for r in ROLE_COLOURS]),
        color=alt.Color("role:N", scale=_role_scale(), title=names.column("role")),
    )
    bars = base.mark_errorbar(ticks=True, thickness=2).encode(
        y=alt.Y(
            "low:Q",
            title=_("win rate"),  # short, so a phone shows it whole: the page's caption says the bars are intervals
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format="%"),
        ),
        y2="high:Q",
    )
    points = base.encode(
        y="rate:Q",
        shape=_role_shapes(),
        tooltip=[
            alt.Tooltip("table:N", title=names.column("table")),
            alt.Tooltip("role:N", title=names.column("role")),
            alt.Tooltip("n:Q", title=names.column("n")),
            alt.Tooltip("wins:Q", title=names.column("wins")),
            alt.Tooltip("rate:Q", format=".1%", title=_("win rate")),
            alt.Tooltip("low:Q", format=".1%", title=names.bound("low")),
            alt.Tooltip("high:Q", format=".1%", title=names.bound("high")),
        ],
    )
    solid = points.mark_point(size=70, filled=True, opacity=1).transform_filter("!datum.flagged")
    hollow = points.mark_point(size=70, filled=False, strokeWidth=2, opacity=1).transform_filter("datum.flagged")
    return alt.layer(bars, solid, hollow).properties(
        height=360,
        title=_("Win rate by role and table"),
        description=_(
            "Each role's win rate at each size of table, with its Wilson interval; hollow marks have fewer "
            "trials than the minimum. The roles are told apart by the shape of their marks: a circle for the "
            "gold digger, a triangle for the saboteur, a square for the selfish dwarf."
        ),
    )


def points_over_time(rounds: pl.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """A player's running total of points, round after round, each round's role shown;
    a player of both rulesets gets a chart of each (points and nuggets are not one
    unit)."""
    data = _named_roles(
        rounds.select("ruleset", "number", "game_id", "round", "role", "points", "cumulative", "won", "star")
    ).with_columns(names.plain("ruleset", names.RULESETS))
    line = (
        alt.Chart()
        .mark_line(color="#7f8c8d")
        .encode(
            x=alt.X("number:Q", title=_("rounds played"), axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("cumulative:Q", title=_("points so far"), axis=alt.Axis(format="d", tickMinStep=1)),
        )
    )
    dots = (
        alt.Chart()
        .mark_point(size=60, filled=True, opacity=1)
        .encode(
            x="number:Q",
            y="cumulative:Q",
            color=alt.Color("role:N", scale=_role_scale(), title=names.column("role")),
            shape=_role_shapes(),
            tooltip=[
                alt.Tooltip(f"{name}:{kind}", title=names.column(name))
                for name, kind in (
                    ("game_id", "N"),
                    ("round", "Q"),
                    ("role", "N"),
                    ("points", "Q"),
                    ("won", "N"),
                    ("star", "N"),
                )
            ],
        )
    )
    described = _(
        "The player's points so far after each round played, one mark per round: a circle where they "
        "played a gold digger, a triangle a saboteur, a square a selfish dwarf."
    )
    layered = alt.layer(line, dots, data=data).properties(height=300)
    if data["ruleset"].n_unique() < 2:
        return layered.properties(description=described)
    return layered.properties(height=240).facet(row=alt.Row("ruleset:N", title=None)).properties(description=described)
