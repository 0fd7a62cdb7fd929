"""Tables in play (public): every game a referee is recording at its table now — the
maze as laid, whose turn it is, each hand and the draw pile counted, the findings so
far — as the table sees it and no more (``dashboard.table_view``). The page follows
the games by itself (``dashboard.live``): nobody reloads it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import streamlit as st

from analytics.table_order import table_key
from dashboard import data, i18n, widgets
from dashboard import names as plain
from dashboard.i18n import _, ngettext
from dashboard.live import REFRESH, live, paused
from dashboard.markup import escape, isolated
from dashboard.maze_svg import framed, maze_svg
from dashboard.table_view import TableView
from events.maze import CardKind, Cell, Placed
from events.recorder import Due

# a card as it lies at its cell, as a picture's key: cell, card, kind, rotated, sides,
# passable, face up (a comment: a string here would be written on the page, by magic)
Lying = tuple[Cell, str, CardKind, bool, int, bool, bool]


def doing(due: Due, round_: int | None, who: str) -> str:
    """What the table does now, in words (``who``: the name of ``due.player``)."""
    match due.kind:
        case "turn":
            return "▶ " + _("%(player)s's turn") % {"player": who}
        case "draw":
            return "▶ " + _("%(player)s draws a card") % {"player": who}
        case "reveal":
            return _("%(player)s reached a goal: it is being turned up") % {"player": who}
        case "round_end":
            return _("the round is over: the roles are being turned up")
        case "round":
            if round_ is None:
                return _("the first round is being dealt")
            return _("round %(num)d is being dealt") % {"num": round_ + 1}
        case "game_end":
            return _("the last round is over: the game's end is being recorded")
    return _("the game is over: its record is being taken in")


def order(table: TableView) -> tuple[object, ...]:
    """Tournament, its round, then the tables as people number them (``10`` after
    ``9``, ``A10`` after ``A9``: :func:`analytics.table_order.table_key`)."""
    return (table.tournament or "", table.tournament_round or 0, table_key(table.table or ""), table.game_id)


def seats_table(table: TableView, name: Callable[[str | None], str]) -> str:
    """The seats as a Markdown table: seat, player (▶ whose turn), cards (in hand: the
    shorter heading lets the table fit its column beside the maze in every language),
    broken tools. (Not a dataframe: every spectator's page draws every table every few seconds,
    and a dataframe's conversion took a third of the server's time.)"""
    heads = [plain.column(c) for c in ("seat", "player", "cards", "broken")]
    rows = [
        "| " + " | ".join(escape(h) for h in heads) + " |",
        "|" + " --- |" * len(heads),
    ]
    for number, seat in enumerate(table.seats, start=1):
        turn = "▶ " if seat.player == table.due.player else ""
        broken = ", ".join(plain.tool(t) for t in seat.broken)
        rows.append(f"| {number} | {turn}{escape(name(seat.player))} | {seat.cards} | {escape(broken)} |")
    return "\n".join(rows)


@functools.lru_cache(maxsize=512)
def _maze_markup(cells: tuple[Lying, ...], setup: Cell | None, acted: Cell | None, language: str) -> str:
    """The maze's picture in ``language`` (its name, its cards' names and the layout a
    screen reader reads are words: drawn once a language, not in the first one asked)."""
    laid = {
        cell: Placed(card, kind, rotated, sides, passable, up)
        for cell, card, kind, rotated, sides, passable, up in cells
    }
    svg = maze_svg(laid, setup_cell=setup, highlight=acted)
    return framed(svg)


def maze_markup(table: TableView) -> str:
    """The maze as the table sees it, drawn once for each state of it."""
    cells = tuple(
        sorted((cell, p.card, p.kind, p.rotated, p.sides, p.passable, p.face_up) for cell, p in table.cells.items())
    )
    return _maze_markup(cells, table.setup_cell, table.acted_on, i18n.language())


def lay_out(table: TableView, names: Mapping[str, str], tournament_name: str | None) -> None:
    """One table, in a box: on a phone its parts stand one under the other."""

    def name(player: str | None) -> str:
        return names.get(player, player) if player is not None else _("a player")

    with st.container(border=True):
        st.header(escape(_("Table %(table)s") % {"table": isolated(table.table)} if table.table else table.game_id))
        where = [
            isolated(tournament_name) if tournament_name is not None else None,
            _("round %(num)d") % {"num": table.tournament_round} if table.tournament_round is not None else None,
            plain.stage(table.stage) if table.stage is not None else None,
            table.game_id,
        ]
        st.caption(" · ".join(escape(part) for part in where if part))
        st.markdown(f"### {escape(doing(table.due, table.round, name(table.due.player)))}")
        # above the picture: where the maze is too wide for the facts beside it (at 1,280
        # px, say), they stand under it (:func:`dashboard.maze_svg.framed`)
        last = table.last.told(dict(names)) if table.last is not None else _("the players are seated")
        st.markdown("**" + _("Last:") + "** " + escape(last))
        picture, facts = st.columns([3, 2])
        with picture:
            if table.cells:
                st.markdown(maze_markup(table), unsafe_allow_html=True)
            else:
                st.caption(_("No round is dealt yet."))
        with facts:
            with st.container(horizontal=True):
                played = "–"
                if table.round is not None:
                    played = _("%(round)d of %(rounds)d") % {"round": table.round, "rounds": table.rounds}
                st.metric(_("Round"), played)
                st.metric(_("Draw pile"), table.pile)
                st.metric(_("Discards"), table.discards)
            st.markdown(seats_table(table, name))
            if table.flags:
                count = ngettext("%(num)d finding so far", "%(num)d findings so far", len(table.flags))
                st.markdown(f"**{count % {'num': len(table.flags)}}**")
                for flag in table.flags:
                    who = f" · {escape(name(flag.player))}" if flag.player else ""
                    line = _("line %(num)d") % {"num": flag.line}
                    st.markdown(f"- {line} · {escape(plain.finding(flag.code))} ({escape(flag.rule)}){who}")
                st.caption(_("What each one says shows on the Replay page once the game is stored."))


# On a phone the seats' table is set a little smaller: in Dutch and German its words
# ("gereedschap", "Werkzeuge") and the players' names made it 3–20 px wider than the
# screen's box. (A comment: a page's bare string is written on it.)
PHONE_CSS = """<style>
@media screen and (max-width: 640px) {
  [data-testid="stMarkdownContainer"] table { font-size: 0.875rem; }
  [data-testid="stMarkdownContainer"] th, [data-testid="stMarkdownContainer"] td { padding: 0.25rem 0.3rem; }
}
</style>"""


@live
def tables_now() -> None:
    """The tables, filtered by what the user chose; read again at every run."""
    tournaments = data.tournaments()
    known = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
    top = st.columns(2)
    in_play = data.tables_in_play()
    every = _("(all)")
    if in_play and "tables_tournament" not in st.session_state:
        # the tables being recorded, wherever they are: it opened on the newest tournament
        # with games, and a new tournament's first tables in play were "no table"
        st.session_state["tables_tournament"] = every
    with top[0]:
        tournament = widgets.tournament_picker(
            tournaments, key="tables_tournament", label=_("Tournament"), all_option=every
        )
    shown = [table for table in in_play if tournament is None or table.tournament == tournament]
    if tournament is not None:
        # every round stored or in play: a round whose last table has just finished stays chosen
        stored = data.choices(tournament)["tournament_rounds"]
        playing = [table.tournament_round for table in shown if table.tournament_round is not None]
        with top[1]:
            picked = widgets.choice(
                _("Round"), [str(r) for r in sorted({*stored, *playing})], key="tables_round", all_label=_("(all)")
            )
        if picked is not None:
            shown = [table for table in shown if table.tournament_round == int(picked)]
    if not shown:
        st.info(
            _(
                "No table is being recorded now. A game recorded at its table shows here as it is played, "
                "and this page follows it by itself."
            )
        )
        return
    being = ngettext("%(num)d table being recorded.", "%(num)d tables being recorded.", len(shown))
    follows = _(
        "This page follows them by itself (every %(seconds)s seconds): the maze as laid, whose turn it is, "
        "and the cards counted — what the table sees, nothing more."
    )
    if paused():
        follows = _("The updates are stopped: switch them on in the sidebar to follow the tables.")
    st.caption(being % {"num": len(shown)} + " " + follows % {"seconds": i18n.number(REFRESH)})
    named = {t: data.player_names(t) for t in {table.tournament for table in shown} if t is not None}
    for table in sorted(shown, key=order):
        names = named[table.tournament] if table.tournament is not None else {}
        lay_out(table, names, known.get(table.tournament) if table.tournament is not None else None)


st.title(_("Tables in play"))
st.html(PHONE_CSS)
tables_now()
