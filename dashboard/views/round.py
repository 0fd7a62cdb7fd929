"""Round (public): one round of a tournament as its players meet it at the door of the
hall, on a phone — every table with its players in seat order, and the players in
alphabetical order with their table and seat, so each finds their name.

Everything is text (Markdown tables, each cell through :func:`dashboard.markup.table`),
not a grid drawn on a canvas: the browser's search finds a name. The address names the
round (``/round?tournament=ID&round=N``), so it can be shared, printed or shown on a
screen; without one the page opens on the newest round seated. The round follows the
store by itself (``dashboard.live``): a round re-seated shows without a reload.
"""

from __future__ import annotations

import shlex

import polars as pl
import streamlit as st

from dashboard import data, i18n, names, widgets
from dashboard.i18n import _, ngettext
from dashboard.live import live
from dashboard.markup import escape, isolated, table

Round = tuple[int, str]  # a seated round: its number and its stage


def seated_rounds(seats: pl.DataFrame) -> list[Round]:
    """The rounds seated, the newest first (the one a player looks for)."""
    found = seats.select("tournament_round", "stage").unique().sort("tournament_round", descending=True)
    return [(int(n), str(s)) for n, s in found.iter_rows()]


def find_my_table(seats: pl.DataFrame) -> list[tuple[str, str, int]]:
    """(name, table, seat) of every seated player, in alphabetical order of name."""
    rows = [
        (name or player, str(label), int(seat))
        for player, name, label, seat in seats.select("player", "name", "table", "seat").iter_rows()
    ]
    return sorted(rows, key=lambda r: (r[0].casefold(), r[0], r[1]))


def by_table(seats: pl.DataFrame) -> dict[str, list[tuple[int, str]]]:
    """The players of each table in seat order, the tables in their published order."""
    tables: dict[str, list[tuple[int, str]]] = {}
    for label, seat, player, name in seats.select("table", "seat", "player", "name").iter_rows():
        tables.setdefault(str(label), []).append((int(seat), name or player))
    return tables


@live
def round_now(tournament: str, chosen: Round) -> None:
    """The round's tables as the store holds them now."""
    number, stage = chosen
    seats = data.seatings(tournament).filter((pl.col("tournament_round") == number) & (pl.col("stage") == stage))
    if seats.is_empty():
        st.info(_("Round %(num)d is no longer seated.") % {"num": number})
        return
    tables = by_table(seats)
    counts = [
        _("Round %(num)d") % {"num": number},
        escape(names.stage(stage)),
        ngettext("%(num)s table", "%(num)s tables", len(tables)) % {"num": i18n.number(len(tables))},
        ngettext("%(num)s player", "%(num)s players", seats.height) % {"num": i18n.number(seats.height)},
    ]
    st.caption(" · ".join(counts))

    st.header(_("Find your table"))
    st.markdown(table([names.column(c) for c in ("player", "table", "seat")], find_my_table(seats)))

    st.header(_("Tables"))
    columns = st.columns(3)
    for index, (label, players) in enumerate(tables.items()):
        with columns[index % len(columns)]:
            st.markdown("**" + _("Table %(table)s") % {"table": escape(isolated(label))} + "**")
            st.markdown(table([names.column(c) for c in ("seat", "player")], players))


st.title(_("Round"))
tournaments = data.tournaments()
if tournaments.is_empty():
    st.info(_("No tournament is stored yet: ingest a tournament.json or games that name a tournament."))
    st.stop()

asked = st.query_params.get("tournament")
if asked in tournaments["tournament"].to_list() and "round_tournament" not in st.session_state:
    st.session_state["round_tournament"] = asked
tournament = widgets.tournament_picker(tournaments, key="round_tournament", label=_("Tournament"))
assert tournament is not None

rounds = seated_rounds(data.seatings(tournament))
if not rounds:
    st.info(_("No round of this tournament is seated yet. The organiser publishes one with:"))
    st.code(f"saboteur tournament seat {shlex.quote(tournament)} --round N", language="bash")
    st.stop()
number = st.query_params.get("round")
if number is not None and "round_number" not in st.session_state:
    st.session_state["round_number"] = next((r for r in rounds if str(r[0]) == number), rounds[0])
widgets.keep_choice("round_number", rounds)
chosen = st.selectbox(
    _("Round"),
    rounds,
    format_func=lambda r: _("Round %(num)d") % {"num": r[0]} + " · " + names.stage(r[1]),
    key="round_number",
)
assert chosen is not None
widgets.show_in_address({"tournament": tournament, "round": str(chosen[0])})  # the address names what is shown
round_now(tournament, chosen)
