"""Roles (public): how often each role wins at each table size, with its uncertainty."""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.filters import DEFAULT_MIN_N, Filters
from dashboard import charts, data, i18n, names, widgets
from dashboard.i18n import _, ngettext
from dashboard.markup import escape

st.title(_("Roles"))
if (lake := data.lake_url()) is not None:
    st.info(_("Read from the lake %(lake)s, read-only.") % {"lake": escape(lake)})
st.caption(
    _(
        "The chance that a player dealt a role wins the round, per table. Gold diggers and saboteurs win or lose "
        "as a team, so each round is one trial for them; each selfish dwarf is a trial of their own. "
        "Bars are %(level)d%% Wilson intervals; hollow points are cells with fewer trials than the minimum below."
    )
    % {"level": 95}
)
rulesets = data.rulesets()
if not rulesets:
    st.info(_("No games are stored yet."))
    st.stop()

top = st.columns([1, 2, 1])
with top[0]:
    widgets.keep_choice("roles_ruleset", rulesets)
    ruleset = st.radio(_("Ruleset"), rulesets, format_func=names.ruleset, horizontal=True, key="roles_ruleset")
with top[1]:
    tournament = widgets.tournament_picker(
        data.tournaments(), key="roles_tournament", label=_("Tournament"), all_option=_("(every tournament and game)")
    )
with top[2]:
    stage = widgets.choice(
        _("Stage"), ["preliminary", "semifinal", "final"], key="roles_stage", all_label=_("(all)"), shown=names.stage
    )
low = st.columns([1, 1, 2])
with low[0]:
    widgets.kept("roles_clean", False)
    clean_only = st.checkbox(
        _("Clean rounds only"), key="roles_clean", help=_("Leave out rounds the audit found errors in.")
    )
with low[1]:
    widgets.kept("roles_min_n", DEFAULT_MIN_N)
    min_n = int(st.number_input(_("Minimum trials"), min_value=1, step=5, key="roles_min_n"))

filters = Filters(tournament=tournament, stage=stage, ruleset=ruleset, clean_only=clean_only, min_n=min_n)
frame = data.role_win_rates(filters)
if frame.is_empty():
    st.info(_("No rounds match these filters."))
    st.stop()

bots, rounds = data.played_by_bots(filters)
if bots:
    st.warning(
        (
            _("Every one of these %(rounds)s rounds was played by the simulator's bots.")
            if bots == rounds
            else _("%(bots)s of these %(rounds)s rounds were played by the simulator's bots.")
        )
        % {"bots": i18n.number(bots), "rounds": i18n.number(rounds)}
        + " "
        + _(
            "Their win rates say as much about how the bots play as about the game: games with ids "
            "beginning sim: or sim- are the simulator's."
        ),
        icon=":material/smart_toy:",
    )
label = _("%(players)s players, %(saboteurs)s sab.")  # each table, in the session's words
frame = frame.with_columns(
    table=pl.Series([label % t for t in frame.select("players", "saboteurs").iter_rows(named=True)])
)
st.altair_chart(charts.role_win_rates(frame), width="stretch")
st.header(_("The numbers"))
flagged = f"n < {min_n}"
st.dataframe(
    frame.with_columns(names.plain("role", names.ROLES)).select(
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
        pl.col("flagged").alias(flagged),
    ),
    hide_index=True,
    width="stretch",
    column_config={
        **names.headers(["table", "players", "saboteurs", "role", "wins"]),
        "n": st.column_config.NumberColumn(
            _("trials"), help=_("Trials: rounds for a team, dwarfs dealt for selfish dwarfs")
        ),
        **widgets.win_rate_columns(),
        "dealt": st.column_config.NumberColumn(_("dealt"), help=_("Player-rounds dealt the role")),
        flagged: _("fewer than %(num)d trials") % {"num": min_n},
    },
)
observed = data.observed_rounds(filters)
trials = int(frame["n"].sum())
summary = ngettext("%(trials)s trial in %(cells)s cells.", "%(trials)s trials in %(cells)s cells.", trials) % {
    "trials": i18n.number(trials),
    "cells": i18n.number(frame.height),
}
if observed:
    summary += " " + _("Observed rounds included: %(num)s (roles as turned up at each round's end).") % {
        "num": i18n.number(observed)
    }
st.caption(summary)
