"""Replay: step through a round event by event, the maze drawn as its cards.

Public view: what everyone at the table saw — for a round still in play, the observed
log of its game (:func:`events.observe.observe`), so nothing hidden can show. Referee
view: the hands, the roles, what the face-down goals hide and the cards drawn and
passed — for a round that has ended, or for the organiser at any time. An observed log
knows no hidden card, so even its referee view counts the hands, leaves a goal face
down until it is turned up and the roles unknown until the round's end.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import access, data, widgets
from dashboard.markup import escape
from dashboard.maze_svg import maze_svg

STEP = "replay_step"


def _restart() -> None:
    st.session_state[STEP] = 0


def _move(by: int, last: int) -> None:
    st.session_state[STEP] = max(0, min(last, int(st.session_state.get(STEP, 0)) + by))


st.title("Replay")
goto = st.session_state.pop("replay_goto", None)
if goto is not None:
    wanted_tournament, wanted_game, wanted_round = goto
    st.session_state["replay_tournament"] = wanted_tournament if wanted_tournament is not None else widgets.NONE
    st.session_state["replay_game"] = wanted_game
    st.session_state["replay_round"] = wanted_round
    st.session_state[STEP] = 0

tournaments = data.tournaments()
names = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
choices = [*names, widgets.NONE]
widgets.keep_choice("replay_tournament", choices)
top = st.columns([2, 3, 1])
with top[0]:
    picked = st.selectbox(
        "Tournament",
        choices,
        format_func=lambda t: t if t == widgets.NONE else f"{names[t]} ({t})",
        key="replay_tournament",
        on_change=_restart,
    )
tournament = None if picked == widgets.NONE else picked
games = data.games(tournament)
if games.is_empty():
    st.info("No games are stored here.")
    st.stop()
labels = {
    str(g["game_id"]): " · ".join(
        part
        for part in (
            f"round {g['tournament_round']}" if g["tournament_round"] is not None else "",
            f"table {g['table']}" if g["table"] is not None else "",
            str(g["game_id"]),
            "score sheet" if g["source"] == "score_sheet" else "",
        )
        if part
    )
    for g in games.iter_rows(named=True)
}
widgets.keep_choice("replay_game", list(labels))
with top[1]:
    game_id = st.selectbox("Game", list(labels), format_func=labels.__getitem__, key="replay_game", on_change=_restart)
assert game_id is not None
view = data.game(game_id)
if view is None:
    st.info("No log events are stored for this game (a score sheet, say): there is nothing to step through.")
    st.stop()
if not view.rounds:
    st.info("This log holds no round yet.")
    st.stop()
numbers = sorted(view.rounds)
widgets.keep_choice("replay_round", numbers)
with top[2]:
    number = st.selectbox("Round", numbers, key="replay_round", on_change=_restart)
assert number is not None
shown_round = view.rounds[number]

organiser = access.is_organiser()
allowed = shown_round.ended or organiser
mode = st.radio(
    "View",
    ["Public", "Referee"],
    horizontal=True,
    key="replay_view",
    help="The referee's view shows the hands, the roles and what the face-down goals hide.",
)
referee = mode == "Referee" and allowed
if mode == "Referee" and not allowed:
    st.warning(
        "This round has not ended: its hands, roles and goals stay hidden until it has. "
        "The organiser sees them after logging in on the Upload or Audit page."
    )
if not shown_round.ended:
    st.caption("This round has not ended in the log (still in play, or the log stops).")
    if not referee and not view.observed:
        seen = data.observed_game(game_id)
        assert seen is not None
        view, shown_round = seen, seen.rounds[number]
        st.caption("It is shown as the table saw it: the cards laid face up, and the hands and the pile counted.")
if view.observed and referee:
    st.caption(
        "An observed log: what the referee at the table saw. The hands and the pile are counted, a goal stays "
        "face down until it is turned up, and the roles are unknown until the round's end names them."
    )
frames = shown_round.frames
last = len(frames) - 1

if int(st.session_state.get(STEP, 0)) > last:
    st.session_state[STEP] = 0
buttons = st.columns([1, 1, 1, 1, 6])
buttons[0].button("First", icon=":material/first_page:", on_click=_move, args=(-last - 1, last), disabled=last == 0)
buttons[1].button("Back", icon=":material/chevron_left:", on_click=_move, args=(-1, last), disabled=last == 0)
buttons[2].button("Next", icon=":material/chevron_right:", on_click=_move, args=(1, last), disabled=last == 0)
buttons[3].button("Last", icon=":material/last_page:", on_click=_move, args=(last + 1, last), disabled=last == 0)
step = st.slider("Step", min_value=0, max_value=last, key=STEP) if last > 0 else 0
frame = frames[step]

picture, facts = st.columns([3, 2])
with picture:
    picture_svg = maze_svg(frame.cells, setup_cell=frame.setup_cell, show_goals=referee, highlight=frame.acted_on)
    # (st.html drops inline SVG; Markdown passes an HTML block through as it is)
    st.markdown(f'<div class="maze-picture" style="overflow-x: auto">\n{picture_svg}\n</div>', unsafe_allow_html=True)
with facts:
    st.markdown(f"**Step {step} of {last}** · line {frame.line}")
    st.markdown(f"### {escape(frame.referee if referee else frame.public)}")
    if frame.result:
        st.success(escape(frame.result) if referee or shown_round.ended else "The round is over.")
    st.markdown(f"**To act:** {escape(frame.turn)}" + (" (the round is over)" if frame.over else ""))
    counts = st.columns(2)
    counts[0].metric("Draw pile", frame.pile)
    counts[1].metric("Discards", frame.discards)
    for found in frame.findings:
        who = f" · {escape(found.player)}" if found.player else ""
        message = (
            escape(found.message) if referee or shown_round.ended else "details are shown once the round has ended"
        )
        text = f"line {found.line} · {found.code} ({found.rule}){who}: {message}"
        (st.error if found.severity == "error" else st.warning)(text)

table = {
    "seat": list(range(1, len(view.players) + 1)),
    "player": [("▶ " if p == frame.turn else "") + p for p in view.players],
}
if referee:
    table["role"] = [frame.roles.get(p) or ("unknown" if view.observed else "") for p in view.players]
table["cards"] = [len(frame.hands.get(p, ())) for p in view.players]
if referee and not view.observed:
    table["hand"] = [", ".join(frame.hands.get(p, ())) for p in view.players]
table["broken tools"] = [", ".join(frame.broken.get(p, ())) for p in view.players]
if referee:
    table["looked at"] = [", ".join(frame.peeks.get(p, ())) for p in view.players]
st.dataframe(pl.DataFrame(table), hide_index=True, width="stretch")

violations = shown_round.violations
with st.expander(f"Every finding of round {number} ({len(violations)})", expanded=False):
    if not violations:
        st.write("The audit found nothing to report in this round.")
    for at, found in violations:
        message = (
            escape(found.message) if referee or shown_round.ended else "details are shown once the round has ended"
        )
        who = f" · {escape(found.player)}" if found.player else ""
        st.markdown(f"- step {at} · line {found.line} · `{found.code}` ({found.rule}){who}: {message}")
