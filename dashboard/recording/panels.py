"""The recording page's pieces: the maze, the hands, and a panel for each thing the
table does next (a deal, a turn, a draw, a goal turned up, a round's or the game's end),
each button a tap of :mod:`dashboard.recording.taps`. Laid out for a phone: one column,
rows of big buttons that wrap, the tunnel cards drawn as cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final, TypeVar

import polars as pl
import streamlit as st

from dashboard import names as words
from dashboard import sentences
from dashboard.card_words import place_words, who
from dashboard.i18n import N_, _, ngettext
from dashboard.markup import escape
from dashboard.recording import taps
from dashboard.recording.live import Live, log_name
from dashboard.recording.maze_chart import SELECTION, maze_chart, picture, table_maze
from dashboard.recording.steps import CARDS_OF, KINDS, SLOTS, Kind, Pick
from dashboard.recording.taps import Pending
from dashboard.recording.words import entry_words, finding_words
from dashboard.replay_view import won
from events import cards
from events.logfile import parse_line
from events.maze import Cell, tunnel
from events.recorder import Due, Recorder
from events.schema import Event, PlayPath, PlayRockfall
from events.tables import ROLES, Role

T = TypeVar("T")

KIND_WORDS: Final[dict[Kind, str]] = {
    "path": N_("Path"),
    "break": N_("Break"),
    "repair": N_("Repair"),
    "rockfall": N_("Rockfall"),
    "map": N_("Map"),
    "discard": N_("Pass"),
}
"""The kinds of card a turn plays, as its buttons say them."""
LETTERS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
STYLE: Final = """<style>
.stButton button, .stDownloadButton button { min-height: 3rem; }
[class*="st-key-record_card_"] button, [class*="st-key-record_setup_"] button,
[class*="st-key-record_reveal_"] button, .st-key-record_turn button { padding: 4px; }
[class*="st-key-record_card_"] img, [class*="st-key-record_setup_"] img,
[class*="st-key-record_reveal_"] img, .st-key-record_turn img {
  width: 56px !important; height: 56px !important; max-height: 56px !important; }
</style>"""


# -- layout pieces -----------------------------------------------------------------------------


def buttons(
    options: Sequence[T],
    *,
    key: Callable[[T], str],
    label: Callable[[T], str],
    on_click: Callable[[T], None],
    chosen: T | None = None,
    row: str,
) -> None:
    """A row of buttons that wraps on a narrow screen; the chosen one stands out."""
    with st.container(horizontal=True, key=row):
        for option in options:
            st.button(
                label(option),
                key=key(option),
                type="primary" if option == chosen else "secondary",
                on_click=on_click,
                args=(option,),
            )


def _card_label(card: str, rotated: bool = False) -> str:
    """A path card's button: its picture, named by the card's words as it lies (the
    image's alt text is the button's name to a screen reader: "crossroads", never the
    log's ``NESW``)."""
    return f"![{escape(words.card(card, rotated))}]({picture(tunnel(card, rotated))})"


def _palette(chosen: str | None, on_click: Callable[[str], None], prefix: str) -> None:
    """The tunnel cards drawn as cards, one button each."""
    buttons(
        tuple(cards.TUNNEL_CARDS),
        key=lambda card: f"{prefix}{card}",
        label=_card_label,
        on_click=on_click,
        chosen=chosen,
        row=f"{prefix}row",
    )


def _players(
    players: Sequence[str],
    names: dict[str, str],
    *,
    prefix: str,
    on_click: Callable[[str], None],
    chosen: str | None = None,
) -> None:
    buttons(
        players,
        key=lambda p: f"{prefix}{p}",
        label=lambda p: escape(who(p, names)),
        on_click=on_click,
        chosen=chosen,
        row=f"{prefix}row",
    )


def marked_cells(recorder: Recorder, pick: Pick) -> dict[Cell, str]:
    """The cells the card in hand may go to, each with its letter."""
    rs = recorder.round
    if rs is None or pick.card is None:
        return {}
    if pick.kind == "path":
        cells = [cell for cell, way in recorder.legal_cells(pick.card) if way == pick.rotated]
    elif pick.kind == "rockfall":
        cells = [cell for cell, placed in sorted(rs.maze.cells.items()) if placed.kind == "tunnel"]
    elif pick.kind == "map":
        cells = [cell for slot, cell in cards.GOAL_CELLS.items() if rs.maze.face_down(slot)]
    else:
        cells = []
    return {cell: LETTERS[i % len(LETTERS)] for i, cell in enumerate(cells)}


def draw_maze(recorder: Recorder, marks: dict[Cell, str], key: str) -> None:
    rs = recorder.round
    if rs is None:
        return
    maze = table_maze(rs)
    setup = cards.SETUP_CELL if rs.deal.setup_card is not None and cards.SETUP_CELL in maze.cells else None
    last = last_event(recorder)
    acted = (last.x, last.y) if isinstance(last, PlayPath | PlayRockfall) else None
    st.vega_lite_chart(
        spec=maze_chart(maze.cells, setup_cell=setup, marks=marks, highlight=acted),
        on_select=lambda: taps.tapped(key),
        selection_mode=SELECTION,
        key=key,
        width="content",
        theme=None,
        alt=_("The maze: tap a cell to pick it"),
    )


def last_event(recorder: Recorder) -> Event | None:
    """The last entry recorded (none but the game's first line: ``None``)."""
    return parse_line(1, recorder.lines[-1]).event if len(recorder.lines) > 1 else None


def draw_hands(recorder: Recorder, names: dict[str, str], to_act: str | None) -> None:
    """Each player's cards as counted, and their broken tools, on one line."""
    rs = recorder.round
    assert rs is not None
    counts = recorder.hand_counts()
    shown = []
    for player in recorder.game.players:
        tools = sorted(rs.broken.get(player, ()))
        text = f"{escape(who(player, names))} {counts[player]}"
        if tools:
            broken = _("broken %(tools)s") % {"tools": ", ".join(words.tool(t) for t in tools)}
            text += f" ({broken})"
        shown.append("**" + _("%(player)s (to act)") % {"player": text} + "**" if player == to_act else text)
    st.markdown(" · ".join(shown) + " · " + _("pile **%(num)d**") % {"num": recorder.pile_count()})


def wide(
    label: str,
    key: str,
    on_click: Callable[..., None],
    *,
    args: tuple[Any, ...] = (),
    icon: str | None = None,
    primary: bool = False,
    disabled: bool = False,
) -> None:
    """A button across the phone's width, as every entry's and every round's end is
    made: one thumb's tap, whichever hand holds the phone."""
    st.button(
        label,
        key=key,
        on_click=on_click,
        args=args,
        icon=icon,
        type="primary" if primary else "secondary",
        disabled=disabled,
        width="stretch",
    )


# -- the panels ------------------------------------------------------------------------


def confirm(pending: Pending, recorder: Recorder, names: dict[str, str]) -> None:
    st.markdown(f"### {escape(entry_words(pending.event, recorder.round, names))}?")
    for finding in pending.findings:
        st.error(escape(finding_words(finding, names)))
    wide(
        _("Tell the table and pick again"),
        key="record_refuse",
        on_click=taps.pick_again,
        icon=":material/undo:",
        primary=True,
    )
    wide(
        _("Record it as it happened"),
        key="record_confirm",
        on_click=taps.record,
        args=(pending.event,),
        icon=":material/gavel:",
    )


def deal_panel(recorder: Recorder, names: dict[str, str], number: int) -> None:
    deal = taps.current_deal()
    st.markdown("**" + _("Who starts?") + "**")
    _players(
        recorder.game.players,
        names,
        prefix="record_start_",
        on_click=lambda p: taps.set_deal(replace(taps.current_deal(), start=p)),
        chosen=deal.start,
    )
    if recorder.game.ruleset == "tournament":
        st.markdown("**" + _("The setup card") + "** " + _("(R-S7), and how it lies"))
        turned = ", ".join(words.card(c) for c in deal.turned_over)
        with st.expander(
            _("Turned over before it: %(cards)s") % {"cards": turned}
            if turned
            else _("Action cards turned over before it")
        ):
            buttons(
                sorted(cards.ACTION_CARDS),
                key=lambda c: f"record_turned_{c}",
                label=lambda c: words.card(c),
                on_click=lambda c: taps.set_deal(
                    replace(taps.current_deal(), turned_over=(*taps.current_deal().turned_over, c))
                ),
                row="record_turned_row",
            )
            st.button(
                _("None after all"),
                key="record_turned_clear",
                disabled=not turned,
                on_click=lambda: taps.set_deal(replace(taps.current_deal(), turned_over=())),
            )
        _palette(
            deal.card, lambda c: taps.set_deal(replace(taps.current_deal(), card=c, rotated=False)), "record_setup_"
        )
        if deal.card is not None:
            st.button(
                f"{_card_label(deal.card, deal.rotated)} " + _("Turn it"),
                key="record_turn",
                on_click=lambda: taps.set_deal(replace(taps.current_deal(), rotated=not taps.current_deal().rotated)),
            )
    wide(
        _("Deal round %(round)d") % {"round": number},
        key="record_deal",
        disabled=not deal.ready(recorder.game.ruleset),
        on_click=taps.deal_round,
        args=(number,),
        primary=True,
    )


def turn_panel(recorder: Recorder, names: dict[str, str], due: Due, *, choose_player: bool = False) -> None:
    """A turn's card: its kind, the card, then where or at whom it goes. The player
    whose turn it is comes chosen; ``choose_player`` asks first (a draw was skipped)."""
    pick = taps.current_pick()
    game = recorder.game
    if due.player is not None and pick.player != due.player:
        playing = {"player": who(pick.player, names), "due": who(due.player, names)}
        st.warning(escape(_("%(player)s plays, though it is %(due)s's turn") % playing))
    if choose_player:
        st.caption(_("Who plays"))
        _who_plays(recorder, names, pick)
    buttons(
        KINDS,
        key=lambda k: f"record_kind_{k}",
        label=lambda k: _(KIND_WORDS[k]),
        on_click=lambda k: taps.set_pick(taps.current_pick().of_kind(k)),
        chosen=pick.kind,
        row="record_kind_row",
    )
    need = pick.need()
    if pick.kind == "path" and pick.card is None:
        _palette(pick.card, lambda c: taps.set_pick(taps.current_pick().with_card(c)), "record_card_")
    elif pick.kind in ("break", "repair") and need == "card":
        buttons(
            CARDS_OF[pick.kind],
            key=lambda c: f"record_card_{c}",
            label=words.card,
            on_click=lambda c: taps.set_pick(taps.current_pick().with_card(c)),
            chosen=pick.card,
            row="record_tool_cards",
        )
    if need == "cell" and pick.card is not None:
        _cells_panel(recorder, pick)
    elif need == "target" and pick.card is not None:
        st.markdown(f"**{escape(words.card(pick.card))}**: " + _("in front of whom?"))
        _players(
            game.players,
            names,
            prefix="record_target_",
            on_click=lambda p: taps.set_pick(replace(taps.current_pick(), target=p)),
        )
    elif need == "tool" and pick.card is not None:
        st.markdown(f"**{escape(words.card(pick.card))}**: " + _("which tool does it mend?"))
        buttons(
            cards.REPAIR_CARDS[pick.card],
            key=lambda t: f"record_tool_{t}",
            label=words.tool,
            on_click=lambda t: taps.set_pick(replace(taps.current_pick(), tool=t)),
            row="record_tool_row",
        )
    elif need == "slot":
        st.markdown("**" + _("Which goal does the map look at?") + "** " + _("(or tap it)"))
        buttons(
            SLOTS,
            key=lambda s: f"record_slot_{s}",
            label=lambda s: words.goal(s).capitalize(),
            on_click=lambda s: taps.set_pick(replace(taps.current_pick(), slot=s)),
            row="record_slot_row",
        )
    if not choose_player:
        with st.expander(_("Someone else plays")):
            _who_plays(recorder, names, pick)


def _who_plays(recorder: Recorder, names: dict[str, str], pick: Pick) -> None:
    _players(
        recorder.game.players,
        names,
        prefix="record_player_",
        on_click=lambda p: taps.set_pick(Pick(p)),
        chosen=pick.player,
    )


def _cells_panel(recorder: Recorder, pick: Pick) -> None:
    assert pick.card is not None
    if pick.kind == "path":
        with st.container(horizontal=True, vertical_alignment="center", key="record_chosen"):
            st.button(
                f"{_card_label(pick.card, pick.rotated)} " + _("Turn it"),
                key="record_turn",
                on_click=lambda: taps.set_pick(taps.current_pick().turned()),
            )
            st.button(
                _("Another card"),
                key="record_recard",
                on_click=lambda: taps.set_pick(taps.current_pick().of_kind("path")),
            )
        other_way = sum(1 for _, way in recorder.legal_cells(pick.card) if way != pick.rotated)
        tap = _("Tap a marked cell on the maze, or its button")
        if other_way:
            more = ngettext("%(num)d more cell when turned", "%(num)d more cells when turned", other_way)
            tap += " (" + more % {"num": other_way} + ")"
        st.caption(tap)
    else:
        st.caption(_("Tap the card that falls, or its button"))
    marks = marked_cells(recorder, pick)
    buttons(
        list(marks),
        key=lambda cell: f"record_cell_{cell[0]}_{cell[1]}",
        label=lambda cell: f"{marks[cell]} · {place_words(cell)}",
        on_click=lambda cell: taps.set_pick(replace(taps.current_pick(), cell=cell)),
        row="record_cells",
    )
    if not marks:
        st.info(
            _("No cell takes this card as it lies.") if pick.kind == "path" else _("No path card lies in the maze.")
        )
    with st.expander(_("Another cell (as it happened)")):
        left, right = st.columns(2)
        left.number_input("x", min_value=-50, max_value=50, value=1, step=1, key="record_other_x")
        right.number_input("y", min_value=-50, max_value=50, value=0, step=1, key="record_other_y")
        wide(_("There"), key="record_other", on_click=taps.another_cell, args=(pick,))


def draw_panel(recorder: Recorder, names: dict[str, str], due: Due) -> None:
    assert due.player is not None
    wide(
        _("%(player)s draws · pile %(num)d") % {"player": escape(who(due.player, names)), "num": recorder.pile_count()},
        key="record_draw",
        on_click=taps.draw,
        args=(due.player,),
        icon=":material/style:",
        primary=True,
    )
    with st.expander(_("The next card came without a draw")):
        turn_panel(recorder, names, Due("turn"), choose_player=True)


def reveal_panel(recorder: Recorder, names: dict[str, str], due: Due) -> None:
    slot = due.slots[0]
    rs = recorder.round
    assert rs is not None
    st.markdown("**" + _("Which card turned up, and how does it lie?") + "**")
    options: list[tuple[str, bool]] = [
        (card, way) for card in cards.GOAL_SIDES for way in recorder.goal_ways(slot, card)
    ]

    def label(option: tuple[str, bool]) -> str:
        card, way = option
        probe = table_maze(rs).copy()
        probe.learn_goal(slot, card)
        probe.reveal(slot, way)
        turned = " · " + _("turned") if way else ""
        # the picture is named by the words beside it: an empty alt text, never the log's code
        return f"![]({picture(probe.cells[cards.GOAL_CELLS[slot]])}) {words.card(card)}{turned}"

    buttons(
        options,
        key=lambda o: f"record_reveal_{o[0]}_{'turned' if o[1] else 'printed'}",
        label=label,
        on_click=lambda o: taps.reveal(slot, *o),  # type: ignore[arg-type]
        row="record_reveal_row",
    )
    # the table left it face down: what came next is recorded as it happened, and the
    # rules' word on it (missing_reveal) is said before it is
    with st.expander(_("It stays face down (as it happened)")):
        if recorder.pile_count() and due.player is not None:
            draw_panel(recorder, names, Due("draw", due.player))
        else:
            turn_panel(recorder, names, Due("turn"), choose_player=True)


def end_panel(recorder: Recorder, names: dict[str, str], number: int) -> None:
    game = recorder.game
    ending = taps.current_ending()
    roles: tuple[Role, ...] = ROLES if game.ruleset == "tournament" else ("gold_digger", "saboteur")
    for player in game.players:
        st.markdown(f"**{escape(who(player, names))}**")
        buttons(
            roles,
            key=lambda r, p=player: f"record_role_{p}_{r}",  # type: ignore[misc]
            label=lambda r: words.role(r).capitalize(),
            on_click=lambda r, p=player: taps.set_ending(taps.current_ending().with_role(p, r)),  # type: ignore[misc]
            chosen=ending.roles.get(player),
            row=f"record_roles_{player}",
        )
        if game.ruleset == "base":
            taken = ending.gold.get(player, ())
            buttons(
                (1, 2, 3, 0),
                key=lambda v, p=player: f"record_gold_{p}_{v}",  # type: ignore[misc]
                label=lambda v: _("+%(num)d gold") % {"num": v} if v else _("none"),
                on_click=lambda v, p=player: taps.set_ending(taps.current_ending().with_gold(p, v or None)),  # type: ignore[misc]
                row=f"record_golds_{player}",
            )
            st.caption(_("Gold cards taken: %(cards)s") % {"cards": ", ".join(map(str, taken)) or _("none")})
    if not ending.ready(game.players):
        st.caption(_("Tap every player's role as it is turned up."))
        return
    gold = ending.gold if game.ruleset == "base" else None
    proposed = recorder.round_end(ending.roles, gold)
    st.markdown("**" + _("By the rules") + "**: " + escape(won(proposed.winner)))
    scores = "points" if game.ruleset == "tournament" else "gold"
    shown = pl.DataFrame(
        {
            "player": [who(p, names) for p in game.players],
            "role": [words.role(ending.roles[p]) for p in game.players],
            scores: [proposed.scores[p] for p in game.players],
        }
    )
    st.dataframe(shown, hide_index=True, column_config=words.headers(shown.columns))
    wide(
        _("Record the end of round %(round)d") % {"round": number},
        key="record_end_round",
        on_click=taps.end_round,
        primary=True,
    )


def game_end_panel(recorder: Recorder, names: dict[str, str]) -> None:
    totals = recorder.game_end().totals
    shown = pl.DataFrame({"player": [who(p, names) for p in totals], "total": list(totals.values())})
    st.dataframe(shown, hide_index=True, column_config=words.headers(shown.columns))
    wide(
        _("End the game and store its log"),
        key="record_end_game",
        on_click=taps.finish,
        icon=":material/flag:",
        primary=True,
    )


def over_panel(live: Live) -> None:
    result = st.session_state.get(taps.RESULT)
    if not live.draft.finished:
        if result is not None:
            refused = {"outcome": words.outcome(result.outcome), "message": sentences.said(result.said, result.message)}
            st.error(escape(_("The log was not taken in: %(outcome)s (%(message)s)") % refused))
        wide(_("Store the log"), key="record_store", on_click=taps.finish, primary=True)
    else:
        st.success(
            _("The game is stored (upload %(upload)s): the standings count it.") % {"upload": live.draft.upload_id}
        )
        if result is not None and result.outcome == "accepted_with_findings":
            found = ngettext(
                "The audit found %(num)d error: the organiser sees it on the Audit page.",
                "The audit found %(num)d errors: the organiser sees them on the Audit page.",
                result.errors,
            )
            st.warning(found % {"num": result.errors})
    st.download_button(
        _("Download the observed log"),
        live.draft.text().encode(),
        file_name=log_name(live.game_id),
        mime="application/jsonl",
        key="record_download",
        width="stretch",
        icon=":material/download:",
    )


def note_panel(recorder: Recorder, names: dict[str, str]) -> None:
    with st.expander(_("Referee note (R-C1)"), icon=":material/report:"):
        st.selectbox(
            _("Who"),
            [None, *recorder.game.players],
            format_func=lambda p: _("nobody in particular") if p is None else who(p, names),
            key="record_note_player",
        )
        st.selectbox(_("What"), list(words.NOTES), format_func=words.note, key="record_note_kind")
        st.text_area(_("Note"), max_chars=500, key="record_note_text", height=80)
        wide(_("Record the note"), key="record_note", on_click=taps.note)
