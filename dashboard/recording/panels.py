"""The recording page's pieces: the maze, the hands, and a panel for each thing the
table does next (a deal, a turn, a draw, a goal turned up, a round's or the game's end),
each button a tap of :mod:`dashboard.recording.taps`. Laid out for a phone: one column,
rows of big buttons that wrap, the tunnel cards drawn as cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final, TypeVar

import polars as pl
import streamlit as st

from dashboard.card_words import ROLE_WORDS, card_words, place_words, tool_words, who
from dashboard.markup import escape
from dashboard.recording import taps
from dashboard.recording.live import Live, log_name
from dashboard.recording.maze_chart import SELECTION, maze_chart, picture, table_maze
from dashboard.recording.steps import CARDS_OF, KINDS, SLOTS, Kind, Pick
from dashboard.recording.taps import Pending
from dashboard.recording.words import NOTE_WORDS, entry_words, finding_words
from events import cards
from events.logfile import parse_line
from events.maze import Cell, tunnel
from events.recorder import Due, Recorder
from events.schema import Event, PlayPath, PlayRockfall
from events.tables import ROLES, Role

T = TypeVar("T")

KIND_WORDS: Final[dict[Kind, str]] = {
    "path": "Path",
    "break": "Break",
    "repair": "Repair",
    "rockfall": "Rockfall",
    "map": "Map",
    "discard": "Pass",
}
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
    return f"![{card}]({picture(tunnel(card, rotated))})"


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
        alt="The maze: tap a cell to pick it",
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
        broken = f" (broken {', '.join(tool_words(t) for t in tools)})" if tools else ""
        text = f"{escape(who(player, names))} {counts[player]}{broken}"
        shown.append(f"**{text} (to act)**" if player == to_act else text)
    st.markdown(" · ".join(shown) + f" · pile **{recorder.pile_count()}**")


# -- the panels ------------------------------------------------------------------------


def confirm(pending: Pending, recorder: Recorder, names: dict[str, str]) -> None:
    st.markdown(f"#### {escape(entry_words(pending.event, recorder.round, names))}?")
    for finding in pending.findings:
        st.error(escape(finding_words(finding)))
    st.button(
        "Tell the table and pick again",
        key="record_refuse",
        type="primary",
        on_click=taps.pick_again,
        width="stretch",
        icon=":material/undo:",
    )
    st.button(
        "Record it as it happened",
        key="record_confirm",
        on_click=taps.record,
        args=(pending.event,),
        width="stretch",
        icon=":material/gavel:",
    )


def deal_panel(recorder: Recorder, names: dict[str, str], number: int) -> None:
    deal = taps.current_deal()
    st.markdown("**Who starts?**")
    _players(
        recorder.game.players,
        names,
        prefix="record_start_",
        on_click=lambda p: taps.set_deal(replace(taps.current_deal(), start=p)),
        chosen=deal.start,
    )
    if recorder.game.ruleset == "tournament":
        st.markdown("**The setup card** (R-S7), and how it lies")
        turned = ", ".join(card_words(c) for c in deal.turned_over)
        with st.expander(f"Turned over before it: {turned}" if turned else "Action cards turned over before it"):
            buttons(
                sorted(cards.ACTION_CARDS),
                key=lambda c: f"record_turned_{c}",
                label=lambda c: card_words(c),
                on_click=lambda c: taps.set_deal(
                    replace(taps.current_deal(), turned_over=(*taps.current_deal().turned_over, c))
                ),
                row="record_turned_row",
            )
            st.button(
                "None after all",
                key="record_turned_clear",
                disabled=not turned,
                on_click=lambda: taps.set_deal(replace(taps.current_deal(), turned_over=())),
            )
        _palette(
            deal.card, lambda c: taps.set_deal(replace(taps.current_deal(), card=c, rotated=False)), "record_setup_"
        )
        if deal.card is not None:
            st.button(
                f"{_card_label(deal.card, deal.rotated)} Turn it",
                key="record_turn",
                on_click=lambda: taps.set_deal(replace(taps.current_deal(), rotated=not taps.current_deal().rotated)),
            )
    st.button(
        f"Deal round {number}",
        key="record_deal",
        type="primary",
        disabled=not deal.ready(recorder.game.ruleset),
        on_click=taps.deal_round,
        args=(number,),
        width="stretch",
    )


def turn_panel(recorder: Recorder, names: dict[str, str], due: Due, *, choose_player: bool = False) -> None:
    """A turn's card: its kind, the card, then where or at whom it goes. The player
    whose turn it is comes chosen; ``choose_player`` asks first (a draw was skipped)."""
    pick = taps.current_pick()
    game = recorder.game
    if due.player is not None and pick.player != due.player:
        st.warning(escape(f"{who(pick.player, names)} plays, though it is {who(due.player, names)}'s turn"))
    if choose_player:
        st.caption("Who plays")
        _who_plays(recorder, names, pick)
    buttons(
        KINDS,
        key=lambda k: f"record_kind_{k}",
        label=KIND_WORDS.__getitem__,
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
            label=card_words,
            on_click=lambda c: taps.set_pick(taps.current_pick().with_card(c)),
            chosen=pick.card,
            row="record_tool_cards",
        )
    if need == "cell" and pick.card is not None:
        _cells_panel(recorder, pick)
    elif need == "target" and pick.card is not None:
        st.markdown(f"**{escape(card_words(pick.card))}**: in front of whom?")
        _players(
            game.players,
            names,
            prefix="record_target_",
            on_click=lambda p: taps.set_pick(replace(taps.current_pick(), target=p)),
        )
    elif need == "tool" and pick.card is not None:
        st.markdown(f"**{escape(card_words(pick.card))}**: which tool does it mend?")
        buttons(
            cards.REPAIR_CARDS[pick.card],
            key=lambda t: f"record_tool_{t}",
            label=tool_words,
            on_click=lambda t: taps.set_pick(replace(taps.current_pick(), tool=t)),
            row="record_tool_row",
        )
    elif need == "slot":
        st.markdown("**Which goal does the map look at?** (or tap it)")
        buttons(
            SLOTS,
            key=lambda s: f"record_slot_{s}",
            label=str.capitalize,
            on_click=lambda s: taps.set_pick(replace(taps.current_pick(), slot=s)),
            row="record_slot_row",
        )
    if not choose_player:
        with st.expander("Someone else plays"):
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
                f"{_card_label(pick.card, pick.rotated)} Turn it",
                key="record_turn",
                on_click=lambda: taps.set_pick(taps.current_pick().turned()),
            )
            st.button(
                "Another card", key="record_recard", on_click=lambda: taps.set_pick(taps.current_pick().of_kind("path"))
            )
        other_way = sum(1 for _, way in recorder.legal_cells(pick.card) if way != pick.rotated)
        st.caption(
            "Tap a marked cell on the maze, or its button"
            + (f" ({other_way} more cell(s) when turned)" if other_way else "")
        )
    else:
        st.caption("Tap the card that falls, or its button")
    marks = marked_cells(recorder, pick)
    buttons(
        list(marks),
        key=lambda cell: f"record_cell_{cell[0]}_{cell[1]}",
        label=lambda cell: f"{marks[cell]} · {place_words(cell)}",
        on_click=lambda cell: taps.set_pick(replace(taps.current_pick(), cell=cell)),
        row="record_cells",
    )
    if not marks:
        st.info("No cell takes this card as it lies." if pick.kind == "path" else "No path card lies in the maze.")
    with st.expander("Another cell (as it happened)"):
        left, right = st.columns(2)
        left.number_input("x", min_value=-50, max_value=50, value=1, step=1, key="record_other_x")
        right.number_input("y", min_value=-50, max_value=50, value=0, step=1, key="record_other_y")
        st.button("There", key="record_other", on_click=taps.another_cell, args=(pick,), width="stretch")


def draw_panel(recorder: Recorder, names: dict[str, str], due: Due) -> None:
    assert due.player is not None
    st.button(
        f"{escape(who(due.player, names))} draws · pile {recorder.pile_count()}",
        key="record_draw",
        type="primary",
        on_click=taps.draw,
        args=(due.player,),
        width="stretch",
        icon=":material/style:",
    )
    with st.expander("The next card came without a draw"):
        turn_panel(recorder, names, Due("turn"), choose_player=True)


def reveal_panel(recorder: Recorder, due: Due) -> None:
    slot = due.slots[0]
    rs = recorder.round
    assert rs is not None
    st.markdown("**Which card turned up, and how does it lie?**")
    options: list[tuple[str, bool]] = [
        (card, way) for card in cards.GOAL_SIDES for way in recorder.goal_ways(slot, card)
    ]

    def label(option: tuple[str, bool]) -> str:
        card, way = option
        probe = table_maze(rs).copy()
        probe.learn_goal(slot, card)
        probe.reveal(slot, way)
        turned = " · turned" if way else ""
        return f"![{card}]({picture(probe.cells[cards.GOAL_CELLS[slot]])}) {card_words(card)}{turned}"

    buttons(
        options,
        key=lambda o: f"record_reveal_{o[0]}_{'turned' if o[1] else 'printed'}",
        label=label,
        on_click=lambda o: taps.reveal(slot, *o),  # type: ignore[arg-type]
        row="record_reveal_row",
    )


def end_panel(recorder: Recorder, names: dict[str, str], number: int) -> None:
    game = recorder.game
    ending = taps.current_ending()
    roles: tuple[Role, ...] = ROLES if game.ruleset == "tournament" else ("gold_digger", "saboteur")
    for player in game.players:
        st.markdown(f"**{escape(who(player, names))}**")
        buttons(
            roles,
            key=lambda r, p=player: f"record_role_{p}_{r}",  # type: ignore[misc]
            label=ROLE_WORDS.__getitem__,
            on_click=lambda r, p=player: taps.set_ending(taps.current_ending().with_role(p, r)),  # type: ignore[misc]
            chosen=ending.roles.get(player),
            row=f"record_roles_{player}",
        )
        if game.ruleset == "base":
            taken = ending.gold.get(player, ())
            buttons(
                (1, 2, 3, 0),
                key=lambda v, p=player: f"record_gold_{p}_{v}",  # type: ignore[misc]
                label=lambda v: f"+{v} gold" if v else "none",
                on_click=lambda v, p=player: taps.set_ending(taps.current_ending().with_gold(p, v or None)),  # type: ignore[misc]
                row=f"record_golds_{player}",
            )
            st.caption("Gold cards taken: " + (", ".join(map(str, taken)) or "none"))
    if not ending.ready(game.players):
        st.caption("Tap every player's role as it is turned up.")
        return
    gold = ending.gold if game.ruleset == "base" else None
    proposed = recorder.round_end(ending.roles, gold)
    st.markdown(f"**By the rules**: {escape(proposed.winner.replace('_', ' '))} win")
    st.dataframe(
        pl.DataFrame(
            {
                "player": [who(p, names) for p in game.players],
                "role": [ROLE_WORDS[ending.roles[p]] for p in game.players],
                "points" if game.ruleset == "tournament" else "gold": [proposed.scores[p] for p in game.players],
            }
        ),
        hide_index=True,
    )
    st.button(
        f"Record the end of round {number}",
        key="record_end_round",
        type="primary",
        on_click=taps.end_round,
        width="stretch",
    )


def game_end_panel(recorder: Recorder, names: dict[str, str]) -> None:
    totals = recorder.game_end().totals
    st.dataframe(
        pl.DataFrame({"player": [who(p, names) for p in totals], "total": list(totals.values())}), hide_index=True
    )
    st.button(
        "End the game and store its log",
        key="record_end_game",
        type="primary",
        on_click=taps.finish,
        width="stretch",
        icon=":material/flag:",
    )


def over_panel(live: Live) -> None:
    result = st.session_state.get(taps.RESULT)
    if not live.draft.finished:
        if result is not None:
            st.error(escape(f"The log was not taken in: {result.outcome} ({result.message})"))
        st.button("Store the log", key="record_store", type="primary", on_click=taps.finish, width="stretch")
    else:
        st.success(f"The game is stored (upload {live.draft.upload_id}): the standings count it.")
        if result is not None and result.outcome == "accepted_with_findings":
            st.warning(f"The audit found {result.errors} error(s): the organiser sees them on the Audit page.")
    st.download_button(
        "Download the observed log",
        live.draft.text().encode(),
        file_name=log_name(live.game_id),
        mime="application/jsonl",
        key="record_download",
        width="stretch",
        icon=":material/download:",
    )


def note_panel(recorder: Recorder, names: dict[str, str]) -> None:
    with st.expander("Referee note (R-C1)", icon=":material/report:"):
        st.selectbox(
            "Who",
            [None, *recorder.game.players],
            format_func=lambda p: "nobody in particular" if p is None else who(p, names),
            key="record_note_player",
        )
        st.selectbox("What", list(NOTE_WORDS), format_func=NOTE_WORDS.__getitem__, key="record_note_kind")
        st.text_area("Note", max_chars=500, key="record_note_text", height=80)
        st.button("Record the note", key="record_note", on_click=taps.note, width="stretch")
