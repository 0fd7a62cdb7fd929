"""Altair charts of the dashboard: pure functions from frames to chart specifications,
their titles and role names in the session's language (:mod:`dashboard.i18n`).

A chart is drawn as one image: its ``description`` (in the session's language) is the
name a screen reader gives it. Its points each say what they show in a sentence of that
language too (the ``description`` channel: "gold digger, 6 players, 2 sab.: won 28%
(95% interval 19% to 39%), 21 of 76 rounds"); the lines, error bars, axes and legends
say nothing (``aria`` off): Vega named each of them itself, in English and by the
frame's columns ("upper_low: 0.385753653989", "won: false"). The roles are told apart
by the marks' shapes as well as their colours, and each colour stands at least 3:1
against the white page (WCAG 1.4.11), as does the outline of a hollow point."""

from __future__ import annotations

from typing import Final

import altair as alt
import polars as pl

from dashboard import i18n, names
from dashboard.i18n import _

ROLE_COLOURS: Final = {"gold_digger": "#9a7d0a", "saboteur": "#943126", "selfish_dwarf": "#1f618d"}
"""Dark gold, red and blue: each at least 3:1 against white."""
ROLE_SHAPES: Final = {"gold_digger": "circle", "saboteur": "triangle-up", "selfish_dwarf": "square"}
"""Each role's mark, so the roles read without their colours."""


def _said(frame: pl.DataFrame, words: list[str]) -> pl.DataFrame:
    """``frame`` with each row's sentence for a screen reader (``said``)."""
    return frame.with_columns(said=pl.Series(words, dtype=pl.String))


def _role_scale() -> alt.Scale:
    return alt.Scale(domain=[names.role(r) for r in ROLE_COLOURS], range=list(ROLE_COLOURS.values()))


def _role_shapes() -> alt.Shape:
    scale = alt.Scale(domain=[names.role(r) for r in ROLE_SHAPES], range=list(ROLE_SHAPES.values()))
    return alt.Shape("role:N", scale=scale, title=names.column("role"), legend=alt.Legend(aria=False))


def _named_roles(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with each role by its plain name, as the scale's domain names it."""
    return frame.with_columns(names.plain("role", names.ROLES))


LEVEL_TABLES: Final = 6
"""The most tables (sizes and saboteurs) whose labels :func:`role_win_rates` writes
level, on two lines each; more are written slanted."""


def role_win_rates(frame: pl.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """Win rate per role by table (size and saboteurs), each with its Wilson 95%
    interval as an error bar; hollow points where the sample is too small to read (the
    cells ``flagged``)."""
    data = _named_roles(
        frame.select("table", "players", "saboteurs", "role", "n", "wins", "rate", "low", "high", "flagged")
    )
    said = _("%(role)s, %(table)s: won %(rate)s (95%% interval %(low)s to %(high)s), %(wins)s of %(n)s rounds")
    data = _said(
        data,
        [
            said
            % {
                "role": row["role"],
                "table": row["table"],
                "rate": i18n.percent(row["rate"]),
                "low": i18n.percent(row["low"]),
                "high": i18n.percent(row["high"]),
                "wins": i18n.number(row["wins"]),
                "n": i18n.number(row["n"]),
            }
            for row in data.iter_rows(named=True)
        ],
    )
    order = data.sort("players", "saboteurs")["table"].unique(maintain_order=True).to_list()
    # each table's label on two lines ("5 players" over "1 sab."), slanted where there are
    # many: at 0° one in three was left out where a base game's tables were a dozen
    level = len(order) <= LEVEL_TABLES
    axis = alt.Axis(
        labelAngle=0 if level else -40,
        labelAlign="center" if level else "right",
        labelExpr="split(datum.label, ', ')" if level else "datum.label",
        labelOverlap=False,
        labelLimit=0,
        aria=False,
    )
    base = alt.Chart(data).encode(
        x=alt.X("table:N", sort=order, title=names.column("table"), axis=axis),
        xOffset=alt.XOffset("role:N", sort=[names.role(r) for r in ROLE_COLOURS]),
        color=alt.Color("role:N", scale=_role_scale(), title=names.column("role"), legend=alt.Legend(aria=False)),
    )
    bars = base.mark_errorbar(ticks=alt.MarkConfig(aria=False), rule=alt.MarkConfig(aria=False), thickness=2).encode(
        y=alt.Y(
            "low:Q",
            title=_("win rate"),  # short, so a phone shows it whole: the page's caption says the bars are intervals
            scale=alt.Scale(domain=[0, 1]),
            axis=alt.Axis(format="%", aria=False),
        ),
        y2="high:Q",
    )
    points = base.encode(
        y="rate:Q",
        shape=_role_shapes(),
        description="said:N",
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
    mark = _("win rate")
    solid = points.mark_point(size=70, filled=True, opacity=1, ariaRoleDescription=mark).transform_filter(
        "!datum.flagged"
    )
    hollow = points.mark_point(
        size=70, filled=False, strokeWidth=2, opacity=1, ariaRoleDescription=mark
    ).transform_filter("datum.flagged")
    return alt.layer(bars, solid, hollow).properties(
        height=360,
        title=alt.TitleParams(_("Win rate by role and table"), aria=False),  # the chart's name says it
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
    # the round's result in words ("won, star"): "won: false" was the tooltip's, and a
    # screen reader's, in every language
    data = data.with_columns(
        result=pl.Series([names.result(w, bool(s)) for w, s in zip(data["won"], data["star"], strict=True)])
    )
    said = _(
        "Round %(number)s (%(game)s, game round %(round)s): %(role)s, %(result)s, %(points)s points, %(total)s so far"
    )
    data = _said(
        data,
        [
            said
            % {
                "number": row["number"],
                "game": row["game_id"],
                "round": row["round"],
                "role": row["role"] or "–",
                "result": row["result"],
                "points": "–" if row["points"] is None else i18n.number(row["points"]),
                "total": i18n.number(row["cumulative"]),
            }
            for row in data.iter_rows(named=True)
        ],
    )
    line = (
        alt.Chart()
        .mark_line(color="#7f8c8d", aria=False)
        .encode(
            x=alt.X("number:Q", title=_("rounds played"), axis=alt.Axis(format="d", tickMinStep=1, aria=False)),
            y=alt.Y("cumulative:Q", title=_("points so far"), axis=alt.Axis(format="d", tickMinStep=1, aria=False)),
        )
    )
    dots = (
        alt.Chart()
        .mark_point(size=60, filled=True, opacity=1, ariaRoleDescription=_("round"))
        .encode(
            x="number:Q",
            y="cumulative:Q",
            color=alt.Color("role:N", scale=_role_scale(), title=names.column("role"), legend=alt.Legend(aria=False)),
            shape=_role_shapes(),
            description="said:N",
            tooltip=[
                *(
                    alt.Tooltip(f"{name}:{kind}", title=names.column(name))
                    for name, kind in (("game_id", "N"), ("round", "Q"), ("role", "N"), ("points", "Q"))
                ),
                alt.Tooltip("result:N", title=_("result")),
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
