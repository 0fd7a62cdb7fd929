"""Audit (organiser): the open findings, and what to do about each — accept the
replay's score, enter a correction, give a penalty for it (a ``table_incident`` the
referee noted, R-C1), or dismiss it with a reason; and the tournament's referee codes,
any of which may be revoked with a reason. Each is an event appended to the
tournament's record; nothing is edited."""

from __future__ import annotations

import shlex
from collections.abc import Callable

import polars as pl
import streamlit as st

from analytics.records import Recorded, RecordError
from dashboard import access, data, widgets
from dashboard.markup import escape, table
from events.rules.tournament import MOST_ROUND_POINTS
from ingest.store import StoreBusy

NOTICE = "audit_notice"


NEEDS_A_REASON = "Give a reason: it is kept in the tournament's record with what you do."
"""Said by a form whose reason is left empty, before the record refuses it in the
command line's words (``--reason``)."""


def _record(action: str, run: Callable[[], Recorded], reason: str | None = None) -> None:
    """Run a record command; keep its outcome for the next run of the page (``action``
    is Markdown: its ids escaped by the caller). ``reason``: the form's reason, which
    must not be empty."""
    try:
        if reason is not None and not reason.strip():
            raise RecordError(NEEDS_A_REASON)
        recorded = run()
    except (RecordError, StoreBusy) as exc:
        st.session_state[NOTICE] = ("error", escape(exc))
    else:
        version = recorded.version
        st.session_state[NOTICE] = (
            "success",
            f"Recorded {action} (the tournament's record is now at version {version}).",
        )
    st.rerun()


st.title("Audit")
if not access.gate():
    st.stop()

notice = st.session_state.pop(NOTICE, None)
if notice is not None:
    kind, text = notice
    (st.success if kind == "success" else st.error)(text)

tournaments = data.tournaments()
names = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
choices = [*names, widgets.NONE]
newest = [*widgets.newest_first(tournaments), widgets.NONE]  # opens on the newest, or the one the address names
widgets.open_on("audit_tournament", newest, st.query_params.get("tournament"))
widgets.keep_choice("audit_tournament", choices)
picked = st.selectbox(
    "Tournament",
    choices,
    format_func=lambda t: t if t == widgets.NONE else f"{names[t]} ({t})",
    key="audit_tournament",
)
tournament = None if picked == widgets.NONE else str(picked)
if tournament is not None:  # the address names the tournament shown (other parameters left as they are)
    st.query_params["tournament"] = tournament
else:
    st.query_params.pop("tournament", None)


def _seating(found: pl.DataFrame, tournament: str) -> None:
    """The open ``wrong_table`` findings: who played at another table than the
    published seating gave them, and the three ways to settle it."""
    misplaced = found.filter(pl.col("code") == "wrong_table")
    if misplaced.is_empty():
        return
    st.subheader("Players at the wrong table")
    people = data.player_names(tournament)
    seat = shlex.quote(tournament)
    st.markdown(
        table(
            ["finding", "game", "round", "table", "player", "what is wrong", "what to do"],
            (
                [
                    r["finding_id"],
                    r["game_id"],
                    r["tournament_round"],
                    r["table"],
                    people.get(r["player"], r["player"]),
                    r["message"],
                    f"if the seating was wrong: saboteur tournament seat {seat} --round {r['tournament_round']} "
                    "--replace --reason …; if the player sat wrong: give a penalty, or dismiss it with the "
                    "referee's reason (below); if the log names the wrong table: ingest the corrected log "
                    "with --supersede --reason …",
                ]
                for r in misplaced.iter_rows(named=True)
            ),
        )
    )


def _referee_codes(tournament: str) -> None:
    """The tournament's referee codes (by fingerprint, as their cards show it) and a
    form to revoke a live one; shown only once codes are issued."""
    codes = data.referee_codes(tournament)
    if codes.is_empty():
        return
    live = codes.filter(pl.col("live"))
    with st.expander(f"Referee codes ({live.height} live)"):
        st.dataframe(codes, hide_index=True, width="stretch")
        if live.is_empty():
            st.caption("No code is live: `saboteur tournament referee-codes` issues new ones.")
            return
        cards = {f"{r['tournament_round']}:{r['table']}": r for r in live.iter_rows(named=True)}
        with st.form("revoke_code"):
            picked = st.selectbox(
                "Card",
                list(cards),
                format_func=lambda k: (
                    f"round {cards[k]['tournament_round']} · table {cards[k]['table']} · card {cards[k]['fingerprint']}"
                ),
                key="revoke_card",
            )
            why = st.text_input("Reason", key="revoke_reason")
            if st.form_submit_button("Revoke the code") and picked is not None:
                card = cards[picked]
                _record(
                    f"the revocation of the code of table {escape(card['table'])} of round {card['tournament_round']}",
                    lambda: data.revoke_referee_code(
                        tournament, int(card["tournament_round"]), str(card["table"]), why
                    ),
                    why,
                )


if tournament is not None:
    _referee_codes(tournament)
found = data.open_findings(tournament)
st.metric("Open findings", found.height)
if found.is_empty():
    st.success("No open findings: every finding is settled or dismissed.")
    st.stop()
st.dataframe(found, hide_index=True, width="stretch")
if tournament is not None:
    _seating(found, tournament)
if tournament is None:
    st.info("These games belong to no tournament: their findings can be settled only within a tournament's record.")
    st.stop()
record_of: str = tournament

rows = {str(r["finding_id"]): r for r in found.iter_rows(named=True)}
widgets.keep_choice("audit_finding", list(rows))


def _label(finding_id: str) -> str:
    r = rows[finding_id]
    where = f"{r['game_id']}" + (f" · round {r['round']}" if r["round"] is not None else "")
    where += f" · line {r['line']}" if r["line"] is not None else f" · {r['player']}"
    return f"{where} · {r['code']}: {r['message'][:80]}"


chosen = st.selectbox("Finding", list(rows), format_func=_label, key="audit_finding")
assert chosen is not None
row = rows[chosen]
st.markdown(
    f"**{row['code']}** ({row['rule']}, {row['severity']})"
    + (f" at line {row['line']}" if row["line"] is not None else "")
    + f" of **{escape(row['game_id'])}**"
    + (f", round {row['round']}" if row["round"] is not None else "")
    + (f", {escape(row['player'])}" if row["player"] else "")
    + f": {escape(row['message'])}"
)
game_id = str(row["game_id"])
number = row["round"]
if number is not None:
    st.dataframe(data.round_scores(record_of, game_id, int(number)), hide_index=True, width="stretch")

accept, correct, penalise, dismiss = st.tabs(
    ["Accept the replay's score", "Enter a correction", "Give a penalty", "Dismiss"]
)
with accept:
    if number is None:
        st.info("This finding belongs to no round: there is no round score to replace.")
    else:
        with st.form("accept_replay"):
            why = st.text_input("Reason (optional)", key="accept_reason")
            if st.form_submit_button("Accept the replay's score for this round"):
                _record(
                    f"the replay's score for round {number} of {escape(game_id)}",
                    lambda: data.accept_replay(record_of, game_id, int(number), why or None),
                )
with correct:
    if number is None:
        st.info("This finding belongs to no round: there is no round score to correct.")
    else:
        scores = data.round_scores(record_of, game_id, int(number))
        people = scores["player"].to_list()
        with st.form("correction"):
            default = people.index(row["player"]) if row["player"] in people else 0
            player = st.selectbox("Player", people, index=default, key="correct_player")
            points = st.number_input(
                "Points for the round", min_value=0, max_value=MOST_ROUND_POINTS, step=1, key="correct_points"
            )
            why = st.text_input("Reason", key="correct_reason")
            if st.form_submit_button("Record the correction"):
                _record(
                    f"a correction of {escape(player)}'s score in round {number} of {escape(game_id)}",
                    lambda: data.correct(record_of, game_id, int(number), str(player), int(points), why),
                    why,
                )
with penalise, st.form("penalty"):
    seated = data.game_players(game_id)
    named = row["player"]
    player = st.selectbox("Player", seated, index=seated.index(named) if named in seated else 0, key="penalty_player")
    points = st.number_input("Points deducted", min_value=1, max_value=100, step=1, key="penalty_points")
    at = f" at line {row['line']}" if row["line"] is not None else ""
    why = st.text_input("Reason", value=f"{row['code']}{at}: {row['message']}", key="penalty_reason")
    if st.form_submit_button("Give the penalty for this finding"):
        _record(
            f"a penalty of {int(points)} for {escape(player)} for finding {escape(chosen)}",
            lambda: data.penalty_for(record_of, chosen, int(points), why, str(player)),
            why,
        )
with dismiss, st.form("dismissal"):
    why = st.text_input("Reason", key="dismiss_reason")
    if st.form_submit_button("Dismiss the finding"):
        _record(f"the dismissal of finding {escape(chosen)}", lambda: data.dismiss(record_of, chosen, why), why)
