"""Rounds (public): every finished round with its audit verdict, each linked to its replay."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import data, i18n, names, sentences, widgets
from dashboard.i18n import _, ngettext
from dashboard.replay_view import replay_link

st.title(_("Rounds"))
st.caption(_("Every finished round with the audit's verdict. Rounds still in play are not listed."))

everything = _("(all)")
tournaments = data.tournaments()
row1 = st.columns(3)
with row1[0]:
    tournament = widgets.tournament_picker(
        tournaments, key="rounds_tournament", label=_("Tournament"), all_option=everything
    )
options = data.choices(tournament)
with row1[1]:
    number = widgets.choice(
        _("Tournament round"),
        [str(n) for n in options["tournament_rounds"]],
        key="rounds_number",
        all_label=everything,
    )
with row1[2]:
    table = widgets.choice(_("Table"), options["tables"], key="rounds_table", all_label=everything)
row2 = st.columns(3)
with row2[0]:
    game_round = widgets.choice(_("Round of the game"), ["1", "2", "3", "4"], key="rounds_round", all_label=everything)
with row2[1]:
    code = widgets.choice(_("Finding"), options["codes"], key="rounds_code", all_label=everything, shown=names.finding)
with row2[2]:
    verdicts = {"clean": _("clean"), "violations": _("violations")}
    verdict = widgets.choice(
        _("Verdict"), list(verdicts), key="rounds_verdict", all_label=everything, shown=verdicts.__getitem__
    )

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
    st.info(_("No finished round matches these filters."))
    st.stop()
if listed.height < matched:
    shown = _("Showing the first %(listed)s of %(matched)s rounds.") % {
        "listed": i18n.number(listed.height),
        "matched": i18n.number(matched),
    }
else:
    shown = ngettext("Showing %(num)s round.", "Showing %(num)s rounds.", matched) % {"num": i18n.number(matched)}
st.caption(shown)


links = [replay_link(t, str(g), int(r)) for t, g, r in listed.select("tournament", "game_id", "round").iter_rows()]
known = {t: data.player_names(t) for t in listed["tournament"].unique().to_list() if t is not None}
connectors = [  # by display name, as everywhere a player is shown; nobody: blank, not "None"
    known.get(t, {}).get(c, c) if c is not None else "" for t, c in listed.select("tournament", "connector").iter_rows()
]
where = ["replay", "verdict", "tournament", "stage", "tournament_round", "table", "game_id", "round", "players"]
columns = [*where, "winner", "connector", "ended_by", "turns", "errors", "warnings", "codes"]
st.dataframe(
    names.visible_columns(listed)
    .with_columns(
        replay=pl.Series(links, dtype=pl.String),
        verdict=pl.Series([names.verdict(e, w) for e, w in listed.select("errors", "warnings").iter_rows()]),
        stage=names.plain("stage", names.STAGES),
        winner=names.plain("winner", names.WINNERS),
        connector=pl.Series(connectors, dtype=pl.String),
        ended_by=names.plain("ended_by", names.ENDINGS),
        codes=pl.Series([[names.finding(c) for c in found] for found in listed["codes"]], dtype=pl.List(pl.String)),
    )
    .select(columns),
    hide_index=True,
    width="stretch",
    column_config={
        **names.headers(columns),
        "tournament_round": st.column_config.NumberColumn(_("t. round")),
        "replay": st.column_config.LinkColumn(_("Replay"), display_text=_("Replay"), width="small"),
    },
)

st.header(_("A closer look"))
keys = [(t, str(g), int(r)) for t, g, r in zip(listed["tournament"], listed["game_id"], listed["round"], strict=True)]
picked = st.selectbox(
    _("Round"),
    keys,
    format_func=lambda k: _("%(game)s · round %(round)d") % {"game": k[1], "round": k[2]},
    key="rounds_pick",
)
if picked is not None:
    game_tournament, game_id, game_round_number = picked
    found = data.round_findings(game_id, game_round_number)
    if found.is_empty():
        st.success(_("The audit found nothing to report in this round."))
    else:
        people = data.player_names(game_tournament) if game_tournament else {}
        worded = sentences.in_words(found, people).with_columns(
            code=names.plain("code", names.FINDINGS), severity=names.plain("severity", names.SEVERITIES)
        )
        st.dataframe(
            names.visible_columns(worded), hide_index=True, width="stretch", column_config=names.headers(worded.columns)
        )
    if st.button(_("Step through it in Replay")):
        st.session_state["replay_goto"] = (game_tournament, game_id, game_round_number)
        st.switch_page("views/replay.py")
