"""Layout pieces more than one page uses (no data access of their own)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import polars as pl
import streamlit as st
from streamlit.elements.lib.column_types import ColumnConfig

from dashboard import names
from dashboard.i18n import N_, _
from dashboard.markup import isolated

if TYPE_CHECKING:
    from PIL.Image import Image

ALL: Final = N_("(all)")
NONE: Final = N_("(no tournament)")
"""The choice of the games of no tournament (a page shows it through the catalogue: ``_(NONE)``)."""


PAGE_STYLE: Final = """<style>
[data-testid="stMarkdownContainer"] td, [data-testid="stMarkdownContainer"] li { overflow-wrap: anywhere; }
[data-testid="stMain"] h2 { font-size: 1.75rem; }
[data-testid="stMain"] h3 { font-size: 1.5rem; }
</style>"""
"""Every page's style, beside Streamlit's own.

Text tables and lists (the standings, the Round page's, a player's card, the Audit
page's) keep to the screen: a name of one long word, or a table's label, is broken where
it must be. ``overflow-wrap: break-word`` breaks it in a block but not in a table's cell,
whose width the browser takes from its longest word first: one long name made the
standings 1,011 px wide on a 390 px phone, and wider than a laptop's screen.

A page's sections are headings of the second level under its title, and what is under
them of the third: a screen reader moves through a page level by level, and the pages
went from the title to sections at the third level and pictures at the fourth. The two
levels take the sizes Streamlit gives the third and the fourth, as those sections were
drawn (a replay step's sentence, a table in play's name, would stand at a title's
size); the Players page, whose levels went one by one already, draws its player's name
and sections a size smaller than it did (28 and 24 px, from 36 and 28)."""


def page_style() -> None:
    """Lay out :data:`PAGE_STYLE`, for the page the run draws (a style only: nothing shows)."""
    st.html(PAGE_STYLE)


KEPT: Final = "widgets_kept"
"""The session's choices, by widget key, kept apart from the widgets themselves.

Streamlit forgets a widget's value at the end of a run that does not draw it: a page
changed with the sidebar ran without the last page's boxes, and coming back found the
player, the stage, the game and step, the round, the minimum trials gone, the first of
each shown again. A value kept under a key of no widget's stays for the session, so the
helpers below bring each choice back, as it was left, before its widget is laid out.
"""


def _recall(key: str) -> None:
    """``key``'s choice as the reader left it, if Streamlit dropped it while another page ran."""
    kept = st.session_state.get(KEPT, {})
    if key not in st.session_state and key in kept:
        st.session_state[key] = kept[key]


def _keep(key: str) -> None:
    """Remember the value ``key``'s widget is about to be laid out with: what the reader
    chose at the last run, or what the page set since."""
    kept = st.session_state.setdefault(KEPT, {})
    if key in st.session_state:
        kept[key] = st.session_state[key]
    else:
        kept.pop(key, None)


def keep_choice(key: str, options: Sequence[object]) -> None:
    """Before the select box keyed ``key`` is laid out: bring back the choice made there
    earlier in the session (another page in between), and if it is no longer one of
    ``options`` (another tournament was picked, say), make it the first.

    Setting the value, not deleting it, tells the browser too: a deleted value is
    forgotten only here, and the browser's box, still showing the old choice, sends it
    back on every later run (on Replay that put the step back at the start at each
    click of Next).
    """
    _recall(key)
    if st.session_state.get(key) not in options:
        if options:
            st.session_state[key] = options[0]
        else:
            st.session_state.pop(key, None)
    _keep(key)


def open_on(key: str, values: Sequence[object], asked: object = None) -> None:
    """Before the select box keyed ``key`` is first laid out: make it open on ``asked``
    (what the page's address names) if that is one of ``values``, else on the first of
    them. A choice the reader made, on this visit of the page or an earlier one of the
    session, is left alone (a fresh session, as a shared link opens, has none)."""
    _recall(key)
    if key not in st.session_state and values:
        st.session_state[key] = asked if asked in values else values[0]
    _keep(key)


def kept(key: str, default: object) -> None:
    """Before a widget keyed ``key`` that chooses no option of a list (a number, a
    slider, a checkbox) is laid out: the value the reader left it at in this session,
    else ``default``. The widget is given no default of its own: Streamlit warns on the
    page of a widget given both a default and a value set here."""
    _recall(key)
    if key not in st.session_state:
        st.session_state[key] = default
    _keep(key)


def show_in_address(params: Mapping[str, str]) -> dict[str, str]:
    """Name what the page shows in its address, to be copied and shared: ``params`` and,
    if the address names one, its language; no other page's parameters. Returns the
    parameters the address now holds.

    Written whole, once a run at most, and only when it changes: the browser adds an
    entry to its history for every address a page writes, so two writes a run (the
    standings, then their moment) were two presses of Back; and a page switch keeps the
    last page's parameters in the entry it adds (the standings' address named a player
    after Players), which a parameter merely updated left there.
    """
    named = {**params, **({"lang": st.query_params["lang"]} if "lang" in st.query_params else {})}
    if st.query_params.to_dict() != named:
        st.query_params.from_dict(named)
    return named


def player_option(player: str, registered: Sequence[str]) -> str:
    """A player as a picker offers them: every name they were registered under, the
    newest first, then the id (a player who changed their name is found by either; two
    of one name are told apart), or the id alone for one no tournament registered.

    >>> player_option("lena-k", ["Lena Novak", "Lena Kowalski"]), player_option("x1", [])
    ('Lena Novak / Lena Kowalski (lena-k)', 'x1')
    """
    if not registered:
        return player
    return " / ".join(isolated(name) for name in registered) + f" ({player})"


def player_heading(player: str, counted: str, registered: Sequence[str], in_tournament: Mapping[str, str]) -> str:
    """The name over a player's page: as the chosen tournament names them
    (``in_tournament``, :func:`dashboard.data.player_names`: the id beside a
    namesake's), else as the statistics name them over every game (``counted``), or,
    where the tournaments of those games named them differently (the statistics then
    give the id), by the name they were registered under last.

    >>> player_heading("lk", "lk", ["Lena Novak", "Lena K"], {}), player_heading("x1", "x1", [], {})
    ('Lena Novak', 'x1')
    """
    if player in in_tournament:
        return in_tournament[player]
    if counted == player and registered:
        return isolated(registered[0])
    return isolated(counted)


def newest_first(tournaments: pl.DataFrame) -> list[str]:
    """The tournaments' ids, the most recently created first (those only games name,
    with no creation stored, last), by id where the time is the same."""
    ordered = tournaments.sort(["created_at", "tournament"], descending=[True, False], nulls_last=True)
    return [str(t) for t in ordered["tournament"]]


def tournament_picker(
    tournaments: pl.DataFrame,
    *,
    key: str,
    label: str | None = None,
    all_option: str | None = None,
    asked: str | None = None,
) -> str | None:
    """A select box of the tournaments (in the order given); ``None`` when
    ``all_option`` is picked. It opens on ``asked`` (a tournament the page's address
    names) if that is one of them, else on the newest tournament — not on the first
    by name (the bundled example); a page that can show every tournament opens on the
    newest with games, or on ``all_option`` while none has any. The reader's choice
    is kept after that."""
    names = dict(zip(tournaments["tournament"].to_list(), tournaments["name"].to_list(), strict=True))
    ids = newest_first(tournaments)
    options = ([all_option] if all_option else []) + list(names)
    first = [*newest_first(tournaments.filter(pl.col("games") > 0)), all_option] if all_option else ids
    open_on(key, [*first, *ids], asked)
    keep_choice(key, options)

    def label_of(value: str) -> str:
        return value if value == all_option else tournament_label(names[value], value)

    chosen = st.selectbox(_("Tournament") if label is None else label, options, format_func=label_of, key=key)
    return None if chosen is None or chosen == all_option else str(chosen)


def tournament_label(name: str, tournament: str) -> str:
    """A tournament as a select box offers it: its name (set apart in its own direction,
    :func:`dashboard.markup.isolated`) and its id."""
    return f"{isolated(name)} ({tournament})"


def choice(
    label: str, values: list[str], *, key: str, all_label: str | None = None, shown: Callable[[str], str] = isolated
) -> str | None:
    """A select box with an "all" entry first (``all_label``, else "(all)"); ``None`` for
    all. ``shown`` names each value (a code's plain name, :mod:`dashboard.names`; else
    the value, a table's label say, through :func:`dashboard.markup.isolated`); the box
    keeps the value."""
    all_label = _(ALL) if all_label is None else all_label
    options = [all_label, *values]
    keep_choice(key, options)
    chosen = st.selectbox(label, options, format_func=lambda v: v if v == all_label else shown(v), key=key)
    return None if chosen == all_label else chosen


def win_rate_columns() -> dict[str, ColumnConfig]:
    """Column settings for a win rate with its Wilson 95% interval (``rate``, ``low``,
    ``high``): every table of rates reads the same way."""
    return {
        "rate": st.column_config.NumberColumn(_("win rate"), format="percent"),
        "low": st.column_config.NumberColumn(names.bound("low"), format="percent"),
        "high": st.column_config.NumberColumn(names.bound("high"), format="percent"),
    }


@functools.cache
def page_icon() -> Image:
    """The browser tab's icon: a gold nugget on the dark of a mine, drawn here. A
    Material icon named as the page's icon (``:material/…:``) is fetched by every
    browser from Google's font server: each spectator's and phone's visit told a third
    party the dashboard's address, and at a hall with no internet the tab had none."""
    from PIL import Image, ImageDraw

    icon = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw = ImageDraw.Draw(icon)
    draw.rounded_rectangle((0, 0, 63, 63), radius=12, fill=(43, 33, 24, 255))
    nugget = [(14, 40), (20, 24), (34, 15), (48, 20), (52, 36), (44, 48), (26, 50)]
    draw.polygon(nugget, fill=(232, 185, 35, 255), outline=(150, 105, 10, 255), width=3)
    draw.polygon([(24, 30), (32, 22), (40, 25), (30, 34)], fill=(255, 230, 140, 255))  # its shine
    return icon
