"""The recording page laid out: the table being recorded, the tables to choose from,
or a table's card opened.

The page file (``dashboard/views/record.py``) decides who may record and calls
:func:`show` (the organiser) or :func:`show_table` (a table's card); everything it lays
out is in modules (this one, :mod:`.panels`, :mod:`.taps`), which Streamlit compiles
once rather than at every tap.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from analytics.records import SeatedPlayer
from dashboard import data, widgets
from dashboard import names as words
from dashboard.i18n import _, ngettext
from dashboard.markup import escape, isolated
from dashboard.recording import panels, taps
from dashboard.recording.live import Live, in_play
from dashboard.recording.panels import STYLE
from dashboard.recording.table import Table, named_players, seated_tables
from dashboard.recording.taps import CODE, LIVE, NOTICE, PENDING, SEEN, TABLE, Pending
from dashboard.recording.words import (
    due_words,
    entry_words,
)
from dashboard.widgets import keep_choice

# -- choosing the table -----------------------------------------------------------------------


def _choose_table() -> None:
    store = data.store()
    going = in_play(store)
    if going:
        st.markdown("**" + _("Being recorded") + "**")
        panels.buttons(
            going,
            key=lambda g: f"record_resume_{g}",
            label=lambda g: _("Resume %(game)s") % {"game": escape(g)},
            on_click=taps.resume,
            row="record_resume_row",
        )
    seated, unseated = st.tabs([_("A seated table"), _("An unseated game")])
    with seated:
        _seated_tables(going)
    with unseated:
        _unseated_game()


def _seated_tables(going: list[str]) -> None:
    tournaments = data.tournaments()
    if tournaments.is_empty():
        st.info(_("No tournament is stored: record an unseated game, or create a tournament first."))
        return
    tournament = widgets.tournament_picker(tournaments, key="record_tournament", label=_("Tournament"))
    if tournament is None:
        return
    seated = data.seatings(tournament)
    if seated.is_empty():
        st.info(_("No seating is published for this tournament (saboteur tournament seat)."))
        return
    numbers = sorted(set(seated["tournament_round"].to_list()))
    keep_choice("record_round", numbers)
    number = st.selectbox(_("Tournament round"), numbers, key="record_round")
    stored = set(data.games(tournament)["game_id"].to_list())
    row = tournaments.filter(pl.col("tournament") == tournament).row(0, named=True)
    round_seats = seated.filter(pl.col("tournament_round") == number)
    for seating in seated_tables(round_seats, tournament, str(row["name"])):
        table = Table.seated(seating, row["final_rounds"])
        label = seating.table
        with st.container(border=True):
            st.markdown(
                "**"
                + _("Table %(table)s") % {"table": escape(isolated(label))}
                + f"** · {escape(', '.join(isolated(name) for name in table.names.values()))}"
            )
            if table.game_id in stored:
                st.caption(_("Stored: this table's game is in the record."))
            elif table.game_id in going:
                st.button(_("Resume"), key=f"record_table_{label}", on_click=taps.resume, args=(table.game_id,))
            else:
                st.button(_("Record this table"), key=f"record_table_{label}", on_click=taps.begin, args=(table,))


def _unseated_game() -> None:
    game_id = st.text_input(_("Game id"), key="record_new_game", placeholder="club-night-2026-05-12")
    ruleset = st.radio(
        _("Rules"), ["tournament", "base"], format_func=words.ruleset, horizontal=True, key="record_new_ruleset"
    )
    rounds = st.number_input(_("Rounds"), min_value=1, max_value=4, value=3, step=1, key="record_new_rounds")
    players = st.text_area(_("Players in seat order (their ids)"), key="record_new_players", height=100)
    label = st.text_input(_("Table (optional)"), key="record_new_table")
    named = named_players(players)
    table = Table(
        game_id.strip(),
        str(ruleset),
        int(rounds),
        tuple(SeatedPlayer(p, None) for p in named),
        label=label.strip() or None,
    )
    st.button(
        _("Begin recording"),
        key="record_new_begin",
        type="primary",
        disabled=not (game_id.strip() and named),
        on_click=taps.begin,
        args=(table,),
    )


# -- the page ---------------------------------------------------------------------------------


def _names(live: Live) -> dict[str, str]:
    table: Table | None = st.session_state.get(TABLE)
    if table is not None and table.game_id == live.game_id:
        return table.names
    game = live.recorder.game
    if game.tournament is not None and game.tournament_round is not None:
        seated = data.seatings(game.tournament).filter(pl.col("tournament_round") == game.tournament_round)
        found = {str(p): str(n) for p, n in zip(seated["player"], seated["name"], strict=True) if n}
        table = Table.of_game(game, found)
        st.session_state[TABLE] = table
        return table.names
    return {p: p for p in game.players}


def _recording(live: Live) -> None:
    recorder = live.recorder
    game = recorder.game
    names = _names(live)
    due = recorder.due()
    number = recorder.state.last_round_number + (1 if due.kind == "round" else 0)
    where = " · ".join(
        part
        for part in (
            _("round %(num)s") % {"num": game.tournament_round} if game.tournament_round is not None else "",
            _("table %(table)s") % {"table": game.table} if game.table is not None else "",
            game.tournament or "",
        )
        if part
    )
    st.caption(
        escape(
            f"{where or game.game_id} · "
            + _("round %(num)d of %(rounds)d") % {"num": max(number, 1), "rounds": game.rounds}
            + " · "
            + _("line %(num)d") % {"num": len(recorder.lines)}
        )
    )
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.warning(escape(notice))
    pending: Pending | None = st.session_state.get(PENDING)
    pick = taps.current_pick()
    st.markdown(f"## {escape(due_words(due, number, names))}")
    marks = panels.marked_cells(recorder, pick) if due.kind in ("turn", "draw") and pending is None else {}
    panels.draw_maze(recorder, marks, f"record_maze_{live.draft.version}_{pick.kind}_{pick.card}_{pick.rotated}")
    if recorder.round is not None:
        panels.draw_hands(recorder, names, pick.player if due.kind == "turn" else due.player)
    if pending is not None:
        panels.confirm(pending, recorder, names)
    elif due.kind == "round":
        panels.deal_panel(recorder, names, number)
    elif due.kind == "turn":
        panels.turn_panel(recorder, names, due)
    elif due.kind == "draw":
        panels.draw_panel(recorder, names, due)
    elif due.kind == "reveal":
        panels.reveal_panel(recorder, names, due)
    elif due.kind == "round_end":
        panels.end_panel(recorder, names, number)
    elif due.kind == "game_end":
        panels.game_end_panel(recorder, names)
    else:
        panels.over_panel(live)
    if not live.draft.finished:
        st.divider()
        if len(recorder.lines) > 1:
            st.caption(
                _("Last entry: %(entry)s")
                % {"entry": escape(entry_words(panels.last_event(recorder), recorder.round, names))}
            )
            st.button(_("Undo the last entry"), key="record_undo", on_click=taps.undo, icon=":material/undo:")
        panels.note_panel(recorder, names)
    if CODE not in st.session_state:
        st.button(_("Another table"), key="record_leave", on_click=taps.leave, type="tertiary")


def _refreshed(live: Live) -> None:
    """Take up what another phone recorded since this session last looked."""
    if st.session_state.get(SEEN) != data.stamp():
        if live.reload():
            taps.fresh_steps()
            st.session_state[NOTICE] = _("The record moved on (another phone recorded): here is the game as it stands.")
        taps.seen()


def show() -> None:
    """The organiser's page: the table being recorded, or the tables to choose from."""
    st.html(STYLE)
    st.session_state.pop(CODE, None)
    current: Live | None = st.session_state.get(LIVE)
    if current is None:
        st.title(_("Record a table"))
        notice = st.session_state.pop(NOTICE, None)
        if notice:
            st.error(escape(notice))
        _choose_table()
    else:
        _refreshed(current)
        _recording(current)


def show_table(code: str) -> None:
    """The page opened from a table's card: that table, and no other."""
    st.html(STYLE)
    granted = data.referee_access(code)
    if granted is None:
        for key in (LIVE, TABLE, CODE):
            st.session_state.pop(key, None)
        st.title(_("Record a table"))
        st.error(
            _("This card opens no table: its code was revoked or mistyped. Ask the organiser for the table's card.")
        )
        return
    st.session_state[CODE] = code
    final = data.tournaments().filter(pl.col("tournament") == granted.tournament)["final_rounds"]
    table = Table.seated(granted, final[0] if final.len() else None)
    st.session_state[TABLE] = table
    current: Live | None = st.session_state.get(LIVE)
    if current is None or current.game_id != table.game_id:
        current = Live.resume(data.store(), table.game_id)
        st.session_state[LIVE] = current
        taps.fresh_steps()
        taps.seen()
    if current is None:
        _opening(table)
    else:
        _refreshed(current)
        _recording(current)


def _opening(table: Table) -> None:
    """A table nobody began recording: its players in seat order, and the first tap."""
    st.title(_("Table %(table)s") % {"table": escape(table.label)})
    rounds = ngettext("%(num)d round", "%(num)d rounds", table.rounds) % {"num": table.rounds}
    st.caption(escape(f"{table.tournament} · " + _("round %(num)s") % {"num": table.tournament_round} + f" · {rounds}"))
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.error(escape(notice))
    st.markdown("\n".join(f"{seat}. {escape(name)}" for seat, name in enumerate(table.names.values(), start=1)))
    if table.game_id in set(data.games(table.tournament)["game_id"].to_list()):
        st.info(_("This table's game is stored: there is nothing more to record."))
        return
    st.button(
        _("Begin recording"), key="record_begin", type="primary", on_click=taps.begin, args=(table,), width="stretch"
    )
