"""Tables in play (public): every game a referee is recording at its table now — the
maze as laid, whose turn it is, each hand and the draw pile counted, the findings so
far — as the table sees it and no more (``dashboard.table_view``). The page follows
the games by itself (``dashboard.live``): nobody reloads it.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import data, widgets
from dashboard.live import REFRESH, live
from dashboard.markup import escape
from dashboard.maze_svg import maze_svg
from dashboard.table_view import TableView, by_name
from events.recorder import Due


def doing(due: Due, round_: int | None, who: str) -> str:
    """What the table does now, in words (``who``: the name of ``due.player``)."""
    match due.kind:
        case "turn":
            return f"▶ {who}'s turn"
        case "draw":
            return f"▶ {who} draws a card"
        case "reveal":
            return f"{who} reached a goal: it is being turned up"
        case "round_end":
            return "the round is over: the roles are being turned up"
        case "round":
            return f"round {round_ + 1} is being dealt" if round_ is not None else "the first round is being dealt"
        case "game_end":
            return "the last round is over: the game's end is being recorded"
    return "the game is over: its record is being taken in"


def order(table: TableView) -> tuple[str, int, bool, int, str, str]:
    """Tournament, its round, then the tables by number (``10`` after ``9``)."""
    label = table.table or ""
    return (
        table.tournament or "",
        table.tournament_round or 0,
        not label.isdigit(),
        int(label) if label.isdigit() else 0,
        label,
        table.game_id,
    )


def lay_out(table: TableView, names: dict[str, str], tournament_name: str | None) -> None:
    """One table, in a box: on a phone its parts stand one under the other."""

    def name(player: str | None) -> str:
        return names.get(player, player) if player is not None else "a player"

    with st.container(border=True):
        st.subheader(escape(table.label))
        where = [
            tournament_name,
            f"round {table.tournament_round}" if table.tournament_round is not None else None,
            table.stage,
            table.game_id,
        ]
        st.caption(" · ".join(escape(part) for part in where if part))
        st.markdown(f"#### {escape(doing(table.due, table.round, name(table.due.player)))}")
        picture, facts = st.columns([3, 2])
        with picture:
            if table.cells:
                svg = maze_svg(table.cells, setup_cell=table.setup_cell, highlight=table.acted_on)
                # (st.html drops inline SVG; Markdown passes an HTML block through as it is)
                st.markdown(
                    f'<div class="maze-picture" style="overflow-x: auto">\n{svg}\n</div>', unsafe_allow_html=True
                )
            else:
                st.caption("No round is dealt yet.")
        with facts:
            st.markdown(f"**Last:** {escape(by_name(table.last, names))}")
            with st.container(horizontal=True):
                st.metric("Round", f"{table.round} of {table.rounds}" if table.round is not None else "–")
                st.metric("Draw pile", table.pile)
                st.metric("Discards", table.discards)
            seats = {
                "seat": list(range(1, len(table.seats) + 1)),
                "player": [("▶ " if s.player == table.due.player else "") + name(s.player) for s in table.seats],
                "cards": [s.cards for s in table.seats],
                "broken tools": [", ".join(s.broken) for s in table.seats],
            }
            st.dataframe(pl.DataFrame(seats), hide_index=True, width="stretch")
            if table.flags:
                st.markdown(f"**Findings so far ({len(table.flags)})**")
                for flag in table.flags:
                    who = f" · {escape(name(flag.player))}" if flag.player else ""
                    st.markdown(f"- line {flag.line} · `{flag.code}` ({escape(flag.rule)}){who}")
                st.caption("What each one says shows on the Replay page once the game is stored.")


@live
def tables_now() -> None:
    """The tables, filtered by what the user chose; read again at every run."""
    tournaments = data.tournaments()
    known = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
    top = st.columns(2)
    with top[0]:
        tournament = widgets.tournament_picker(tournaments, key="tables_tournament", all_option=widgets.ALL)
    shown = [table for table in data.tables_in_play() if tournament is None or table.tournament == tournament]
    if tournament is not None:
        # every round stored or in play: a round whose last table has just finished stays chosen
        stored = data.choices(tournament)["tournament_rounds"]
        playing = [table.tournament_round for table in shown if table.tournament_round is not None]
        with top[1]:
            picked = widgets.choice("Round", [str(r) for r in sorted({*stored, *playing})], key="tables_round")
        if picked is not None:
            shown = [table for table in shown if table.tournament_round == int(picked)]
    if not shown:
        st.info(
            "No table is being recorded now. A game recorded at its table shows here as it is played, "
            "and this page follows it by itself."
        )
        return
    st.caption(
        f"{len(shown)} table(s) being recorded. This page follows them by itself (every {REFRESH:g} seconds): "
        "the maze as laid, whose turn it is, and the cards counted — what the table sees, nothing more."
    )
    for table in sorted(shown, key=order):
        names = data.player_names(table.tournament) if table.tournament is not None else {}
        lay_out(table, names, known.get(table.tournament) if table.tournament is not None else None)


st.title("Tables in play")
tables_now()
