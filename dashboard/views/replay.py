"""Replay: step through a round event by event, the maze drawn as its cards.

Public view: what everyone at the table saw — for a round still in play, the observed
log of its game (:func:`events.observe.observe`), so nothing hidden can show. Referee
view: the hands, the roles, what the face-down goals hide and the cards drawn and
passed — for a round that has ended, or for the organiser at any time. An observed log
knows no hidden card, so even its referee view counts the hands, leaves a goal face
down until it is turned up and the roles unknown until the round's end.

The address names what is shown (``replay?tournament=…&game=…&round=N&step=K``): the
page opens an address at that step, and writes each step it moves to back into the
address, so a copied address shares the step. A value the store does not know (a game
not stored, round 99, step -1, text) falls back to the nearest view there is, with a
short notice. Players are named by their registered names (the log's ids in a game of
no tournament), cards and places in plain words (:mod:`dashboard.card_words`), every
word in the session's language (:mod:`dashboard.i18n`).
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import access, data, i18n, names, sentences, widgets
from dashboard.card_words import who
from dashboard.i18n import N_, _
from dashboard.markup import escape, isolated
from dashboard.maze_svg import framed, maze_svg
from dashboard.replay_view import SEVERITY_ICONS, Violation, address

STEP = "replay_step"
ADDRESS = "replay_address"  # the address this page last wrote: one that differs was typed or followed a link

# On a phone the four step buttons show their icons only: their words ("Volgende",
# "Zurück") were cut to "Volg…" and "Z…" in a row of four. The words stay for screen
# readers and as each button's tooltip. (A comment: a page's bare string is written on it.)
PHONE_CSS = """<style>
@media screen and (max-width: 640px) {
  .st-key-replay_steps [data-testid="stMarkdownContainer"] {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
  }
  .st-key-replay_story h2 { font-size: 1.3rem; padding: 0.25rem 0; }
}
</style>"""


def _restart() -> None:
    st.session_state[STEP] = 0


def _move(by: int, last: int) -> None:
    st.session_state[STEP] = max(0, min(last, int(st.session_state.get(STEP, 0)) + by))


def _number(text: str | None) -> int | None:
    """A whole number from the address (``None``: none given, or not a number)."""
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _follow_address(choices: list[str]) -> tuple[str | None, str | None]:
    """Pick the tournament and game the address names (each checked against the store),
    and return the round and step it asks for, to be checked once the game is known."""
    asked = st.query_params.to_dict()
    tournament, game = asked.get("tournament"), asked.get("game")
    if tournament is not None:
        if tournament in choices:
            st.session_state["replay_tournament"] = tournament
        else:
            st.warning(escape(_("No tournament %(name)r is stored: showing another.") % {"name": tournament}))
    if game is not None:
        where = {str(g): t for t in choices for g in data.games(None if t == widgets.NONE else t)["game_id"].to_list()}
        if game in where:
            st.session_state["replay_tournament"] = where[game]
            st.session_state["replay_game"] = game
        else:
            st.warning(escape(_("No game %(name)r is stored: showing another.") % {"name": game}))
            return None, None
    st.session_state[STEP] = 0
    return asked.get("round"), asked.get("step")


def finding_line(found: Violation) -> str:
    """A finding as a step shows it (Markdown, escaped): its line, what it is in plain
    words, its rule and player, and the audit's words once the round has ended (or to
    the referee's view). The page says its severity beside it in a word
    (:func:`severity_words`) and, in a step's alert, by its icon too: an error's red and
    a warning's yellow alone tell nothing to a reader who does not see them (and both are
    an alert to a screen reader)."""
    whom = f" · {escape(who(found.player, people))}" if found.player else ""
    message = (
        escape(sentences.said(found.said, found.message, people))
        if referee or shown_round.ended
        else _("details are shown once the round has ended")
    )
    said = {"line": found.line, "finding": escape(names.finding(found.code)), "rule": found.rule}
    return _("line %(line)d · %(finding)s (%(rule)s)") % said + f"{whom}: {message}"


def severity_words(found: Violation) -> str:
    """A finding's severity as Markdown, in a word ("error", "warning")."""
    return f"**{names.severity(found.severity)}**"


st.title(_("Replay"))
tournaments = data.tournaments()
titles = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
choices = [*titles, widgets.NONE]
wanted_round: str | None = None
wanted_step: str | None = None
goto = st.session_state.pop("replay_goto", None)
if goto is not None:
    wanted_tournament, wanted_game, wanted_round_number = goto
    st.session_state["replay_tournament"] = wanted_tournament if wanted_tournament is not None else widgets.NONE
    st.session_state["replay_game"] = wanted_game
    st.session_state["replay_round"] = wanted_round_number
    st.session_state[STEP] = 0
elif st.query_params.to_dict() not in ({}, st.session_state.get(ADDRESS)):
    wanted_round, wanted_step = _follow_address(choices)

# open on the tournament every other page opens on: the newest with games
opening = widgets.newest_first(tournaments.filter(pl.col("games") > 0))
widgets.open_on("replay_tournament", [*opening, *([] if data.games(None).is_empty() else [widgets.NONE]), *choices])
widgets.keep_choice("replay_tournament", choices)
top = st.columns([2, 3, 1])
with top[0]:
    picked = st.selectbox(
        _("Tournament"),
        choices,
        format_func=lambda t: _(t) if t == widgets.NONE else widgets.tournament_label(titles[t], t),
        key="replay_tournament",
        on_change=_restart,
    )
tournament = None if picked == widgets.NONE else picked
games = data.games(tournament)
if games.is_empty():
    if tournament is not None:
        st.info(_("This tournament has no games yet."))
    elif len(choices) > 1:  # the games of no tournament: none, though tournaments have theirs
        st.info(_("No game outside a tournament is stored: pick a tournament above."))
    else:
        st.info(_("No games are stored here."))
    st.stop()
labels = {
    str(g["game_id"]): " · ".join(
        part
        for part in (
            _("round %(num)s") % {"num": g["tournament_round"]} if g["tournament_round"] is not None else "",
            _("table %(table)s") % {"table": isolated(g["table"])} if g["table"] is not None else "",
            str(g["game_id"]),
            _("score sheet") if g["source"] == "score_sheet" else "",
        )
        if part
    )
    for g in games.iter_rows(named=True)
}
widgets.keep_choice("replay_game", list(labels))
with top[1]:
    game_id = st.selectbox(
        _("Game"), list(labels), format_func=labels.__getitem__, key="replay_game", on_change=_restart
    )
assert game_id is not None
view = data.game(game_id)
if view is None:
    st.info(_("No log events are stored for this game (a score sheet, say): there is nothing to step through."))
    st.stop()
if not view.rounds:
    st.info(_("This log holds no round yet."))
    st.stop()
numbers = sorted(view.rounds)
if wanted_round is not None:
    asked_number = _number(wanted_round)
    if asked_number not in numbers:
        st.warning(
            escape(
                _("This game has no round %(asked)r: showing round %(num)d.")
                % {"asked": wanted_round, "num": numbers[0]}
            )
        )
        asked_number = numbers[0]
    st.session_state["replay_round"] = asked_number
widgets.keep_choice("replay_round", numbers)
with top[2]:
    number = st.selectbox(_("Round"), numbers, key="replay_round", on_change=_restart)
assert number is not None
shown_round = view.rounds[number]

organiser = access.is_organiser()
allowed = shown_round.ended or organiser
VIEWS = {"Public": N_("Public"), "Referee": N_("Referee")}  # the choice's value, and its words to translate
widgets.keep_choice("replay_view", list(VIEWS))
mode = st.radio(
    _("View"),
    list(VIEWS),
    format_func=lambda view: _(VIEWS[view]),
    horizontal=True,
    key="replay_view",
    help=_("The referee's view shows the hands, the roles and what the face-down goals hide."),
)
referee = mode == "Referee" and allowed
if mode == "Referee" and not allowed:
    st.warning(
        _(
            "This round has not ended: its hands, roles and goals stay hidden until it has. "
            "The organiser sees them after logging in on the Upload or Audit page."
        )
    )
if not shown_round.ended:
    st.caption(_("This round has not ended in the log (still in play, or the log stops)."))
    if not referee and not view.observed:
        seen = data.observed_game(game_id)
        assert seen is not None
        view, shown_round = seen, seen.rounds[number]
        st.caption(_("It is shown as the table saw it: the cards laid face up, and the hands and the pile counted."))
if view.observed and referee:
    st.caption(
        _(
            "An observed log: what the referee at the table saw. The hands and the pile are counted, a goal stays "
            "face down until it is turned up, and the roles are unknown until the round's end names them."
        )
    )
frames = shown_round.frames
last = len(frames) - 1
people = data.player_names(tournament) if tournament is not None else {}

if wanted_step is not None:
    asked_step = _number(wanted_step)
    nearest = 0 if asked_step is None else max(0, min(last, asked_step))
    if asked_step != nearest:
        st.warning(
            escape(
                _("Round %(num)d has no step %(asked)r: showing step %(step)d of %(last)d.")
                % {"num": number, "asked": wanted_step, "step": nearest, "last": last}
            )
        )
    st.session_state[STEP] = nearest
widgets.kept(STEP, 0)
if int(st.session_state[STEP]) > last:
    st.session_state[STEP] = 0
# one row, also on a phone (columns would stack there and push the maze below the fold)
st.html(PHONE_CSS)
with st.container(horizontal=True, wrap=False, gap="small", key="replay_steps"):
    for label, icon, by in (
        (_("First"), ":material/first_page:", -last - 1),
        (_("Back"), ":material/chevron_left:", -1),
        (_("Next"), ":material/chevron_right:", 1),
        (_("Last"), ":material/last_page:", last + 1),
    ):
        st.button(label, icon=icon, on_click=_move, args=(by, last), disabled=last == 0, width="stretch")
step = st.slider(_("Step"), min_value=0, max_value=last, key=STEP) if last > 0 else 0
frame = frames[step]
# the address names the step shown: copy it to share it
st.session_state[ADDRESS] = widgets.show_in_address(address(tournament, game_id, number, step))

# what the step did, and what it broke, stand above the picture (a phone sets it smaller,
# the maze still in the first screen): where the maze is too wide for the facts beside it,
# they stand under it, and the step's story and findings were out of sight at 1,280 px
with st.container(key="replay_story", gap="small"):
    step_line = _("Step %(step)d of %(last)d") % {"step": step, "last": last}
    st.markdown(f"**{step_line}** · " + _("line %(num)d") % {"num": frame.line})
    st.header(escape(frame.told(people, referee=referee)), anchor=False)  # no link: a stop of Tab for nothing
    if frame.result:
        st.success(escape(frame.result.words(people)) if referee or shown_round.ended else _("The round is over."))
    for found in frame.findings:  # what the step broke, with what it did (under the maze, it was out of sight)
        alert = st.error if found.severity == "error" else st.warning
        icon = SEVERITY_ICONS.get(found.severity, SEVERITY_ICONS["error"])
        alert(finding_line(found) + " · " + severity_words(found), icon=icon)
picture, facts = st.columns([3, 2])
with picture:
    picture_svg = maze_svg(frame.cells, setup_cell=frame.setup_cell, show_goals=referee, highlight=frame.acted_on)
    st.markdown(framed(picture_svg), unsafe_allow_html=True)
with facts:
    if frame.over:  # nobody acts in a round that is over: naming the last to act said both
        st.markdown("**" + _("To act:") + "** " + _("nobody, the round is over"))
    else:
        st.markdown("**" + _("To act:") + "** " + escape(who(frame.turn, people)))
    counts = st.columns(2)
    counts[0].metric(_("Draw pile"), i18n.number(frame.pile))
    counts[1].metric(_("Discards"), i18n.number(frame.discards))

table: dict[str, list[object]] = {
    "seat": list(range(1, len(view.players) + 1)),
    "player": [who(p, people) for p in view.players],
    "to act": [_("to act") if p == frame.turn and not frame.over else "" for p in view.players],
}
if referee:
    unknown = _("unknown") if view.observed else ""
    table["role"] = [names.role(r) if (r := frame.roles.get(p)) else unknown for p in view.players]
table["cards"] = [len(frame.hands.get(p, ())) for p in view.players]
if referee and not view.observed:
    table["hand"] = ["; ".join(names.card(c) for c in frame.hands.get(p, ())) for p in view.players]
table["broken tools"] = [", ".join(names.tool(t) for t in frame.broken.get(p, ())) for p in view.players]
if referee:
    table["looked at"] = [", ".join(names.goal(g) for g in frame.peeks.get(p, ())) for p in view.players]
st.dataframe(
    pl.DataFrame(table),
    hide_index=True,
    width="stretch",
    column_config={  # on a phone the name stays in view while the rest scrolls
        **names.headers(table),
        "seat": st.column_config.NumberColumn(names.column("seat"), width=40),
        "player": st.column_config.TextColumn(names.column("player"), pinned=True),
        "to act": st.column_config.TextColumn(_("to act"), width=60),
        "cards": st.column_config.NumberColumn(  # its whole name as the tip: "cards in hand" was cut to "cards ir"
            names.column("cards"), help=names.column("cards in hand"), width=50
        ),
    },
)

violations = shown_round.violations
heading = _("Every finding of round %(round)d (%(num)d)")
with st.expander(heading % {"round": number, "num": len(violations)}, expanded=False):
    if not violations:
        st.write(_("The audit found nothing to report in this round."))
    for at, found in violations:
        st.markdown(f"- {severity_words(found)} · " + _("step %(step)d") % {"step": at} + " · " + finding_line(found))
