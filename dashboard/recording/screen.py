"""The recording page laid out: its panels and the taps they answer.

The page file (``dashboard/views/record.py``) decides who may record and calls
:func:`show`; everything it lays out is here, in a module, so Streamlit compiles it once
rather than at every tap. Each tap is a callback: it runs before the page is laid out
again, so it acts on the screen it was made on — and on the draft as that screen read
it, which is how a phone that is behind finds out (:class:`~ingest.drafts.DraftMoved`).
The session keeps one :class:`~dashboard.recording.live.Live` and the taps of the entry
being made (:mod:`dashboard.recording.steps`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeVar

import polars as pl
import streamlit as st
from pydantic import ValidationError

from analytics.records import SeatedPlayer
from dashboard import access, data, widgets
from dashboard.markup import escape
from dashboard.recording import entries
from dashboard.recording.live import Live, in_play, log_name
from dashboard.recording.maze_chart import SELECTION, maze_chart, picture, table_maze
from dashboard.recording.steps import CARDS_OF, KINDS, SLOTS, Deal, Ending, Kind, Pick
from dashboard.recording.table import Table, named_players, seated_tables
from dashboard.recording.words import (
    NOTE_WORDS,
    ROLE_WORDS,
    card_words,
    due_words,
    entry_words,
    finding_words,
    who,
)
from dashboard.widgets import keep_choice
from events import cards
from events.findings import Code, Finding
from events.logfile import parse_line
from events.maze import Cell, tunnel
from events.recorder import Due, Recorder
from events.schema import Event, NoteKind, PlayPath, PlayRockfall, Slot
from events.tables import ROLES, Role
from ingest.drafts import DraftError, DraftMoved

T = TypeVar("T")

LIVE: Final = "recording_live"
TABLE: Final = "recording_table"
PICK: Final = "recording_pick"
DEAL: Final = "recording_deal"
ENDING: Final = "recording_ending"
PENDING: Final = "recording_pending"
NOTICE: Final = "recording_notice"
RESULT: Final = "recording_result"
SEEN: Final = "recording_seen"
CODE: Final = "recording_code"
"""The referee code this session was opened with (none: the organiser's session)."""

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


@dataclass(frozen=True, slots=True)
class Pending:
    """An entry the rules have something to say about, waiting for the referee's word."""

    event: Event
    findings: tuple[Finding, ...]


# -- the session -------------------------------------------------------------------------


def _live() -> Live:
    live: Live = st.session_state[LIVE]
    return live


def _fresh_steps() -> None:
    for key in (PICK, DEAL, ENDING, PENDING):
        st.session_state.pop(key, None)


def _seen() -> None:
    """The store as this session last wrote or read it."""
    st.session_state[SEEN] = data.stamp()


def _moved(moved: DraftMoved) -> None:
    _fresh_steps()
    st.session_state[NOTICE] = str(moved)
    _seen()


def _permitted() -> bool:
    """Whether this session may still write: the organiser's, or one opened with the
    code of the table it records, still live (a code revoked stops at the next tap)."""
    code: str | None = st.session_state.get(CODE)
    if code is None:
        allowed = access.is_organiser()
    else:
        granted = data.referee_access(code)
        live: Live | None = st.session_state.get(LIVE)
        allowed = granted is not None and (live is None or live.game_id == Table.seated(granted).game_id)
    if not allowed:
        st.session_state[NOTICE] = "This phone may no longer record this table: ask the organiser for its card."
    return allowed


def _record(event: Event, *, aside: bool = False) -> None:
    """Record ``event``: the taps that made it are done with (``aside``: a note, made
    beside the entry being tapped, which it leaves as it is)."""
    if not aside:
        st.session_state.pop(PENDING, None)
    if not _permitted():
        return
    try:
        _live().record(event)
    except DraftMoved as moved:
        _moved(moved)
        return
    if not aside:
        _fresh_steps()
    _seen()


def _submit(event: Event) -> None:
    """Record ``event``, unless the rules say something of it: then ask first."""
    found = [f for f in _live().recorder.preview(event) if f.code is not Code.TABLE_INCIDENT]
    if found:
        st.session_state[PENDING] = Pending(event, tuple(found))
    else:
        _record(event)


def _pick_again() -> None:
    """The table fixed its mistake: nothing is recorded, the same card is picked again."""
    pending: Pending | None = st.session_state.pop(PENDING, None)
    pick: Pick | None = st.session_state.get(PICK)
    if pending is not None and pick is not None and pick.kind is not None:
        due = _live().recorder.due()
        player = due.player if due.kind == "turn" and due.player is not None else pick.player
        st.session_state[PICK] = Pick(player, pick.kind, pick.card, pick.rotated)


def _undo() -> None:
    if not _permitted():
        return
    try:
        _live().undo()
    except DraftMoved as moved:
        _moved(moved)
        return
    except DraftError as refused:
        st.session_state[NOTICE] = str(refused)
    _fresh_steps()
    _seen()


def _finish() -> None:
    if not _permitted():
        return
    live = _live()
    if live.recorder.due().kind == "game_end":
        try:
            live.record(entries.stamped(live.recorder.game_end(), entries.now()))
        except DraftMoved as moved:
            _moved(moved)
            return
    try:
        st.session_state[RESULT] = live.finish()
    except DraftMoved as moved:
        _moved(moved)
    finally:
        data.clear()
    _seen()


def _leave() -> None:
    for key in (LIVE, TABLE, RESULT, NOTICE):
        st.session_state.pop(key, None)
    _fresh_steps()


def _begin(table: Table) -> None:
    if not _permitted():
        return
    try:
        game = table.game_started(entries.now())
    except ValidationError as refused:
        st.session_state[NOTICE] = "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in refused.errors(include_url=False)
        )
        return
    st.session_state[LIVE] = Live.begin(data.store(), game)
    st.session_state[TABLE] = table
    _fresh_steps()
    _seen()


def _resume(game_id: str) -> None:
    if not _permitted():
        return
    live = Live.resume(data.store(), game_id)
    if live is not None:
        st.session_state[LIVE] = live
        st.session_state.pop(TABLE, None)
        _fresh_steps()
        _seen()


# -- taps ---------------------------------------------------------------------------------


def _pick() -> Pick:
    pick: Pick | None = st.session_state.get(PICK)
    if pick is None:
        due = _live().recorder.due()
        pick = Pick(due.player or _live().recorder.game.players[0])
    return pick


def _set_pick(pick: Pick) -> None:
    """Keep ``pick``; a whole one is submitted at once."""
    st.session_state[PICK] = pick
    if pick.need() == "done":
        _submit(entries.card_entry(pick, entries.now()))


def _deal() -> Deal:
    deal: Deal = st.session_state.get(DEAL, Deal())
    return deal


def _set_deal(deal: Deal) -> None:
    st.session_state[DEAL] = deal


def _ending() -> Ending:
    ending: Ending = st.session_state.get(ENDING, Ending())
    return ending


def _set_ending(ending: Ending) -> None:
    st.session_state[ENDING] = ending


def _tapped(key: str) -> None:
    """A cell of the maze tapped: where the card in hand goes, or the goal a map looks at."""
    event = st.session_state.get(key)
    picked = (event or {}).get("selection", {}).get(SELECTION) or []
    if not picked:
        return
    cell = (int(picked[0]["x"]), int(picked[0]["y"]))
    pick = _pick()
    if pick.kind in ("path", "rockfall") and pick.card is not None:
        _set_pick(replace(pick, cell=cell))
    elif pick.kind == "map" and cell in cards.SLOT_AT:
        _set_pick(replace(pick, slot=SLOTS[cards.SLOTS.index(cards.SLOT_AT[cell])]))


def _another_cell(pick: Pick) -> None:
    cell = (int(st.session_state["record_other_x"]), int(st.session_state["record_other_y"]))
    _set_pick(replace(pick, cell=cell))


def _draw(player: str) -> None:
    _submit(entries.draw_entry(player, entries.now()))


def _reveal(slot: Slot, card: str, rotated: bool) -> None:
    _submit(entries.reveal_entry(slot, card, rotated, entries.now()))


def _deal_round(number: int) -> None:
    _submit(entries.deal_entry(_deal(), number, entries.now()))


def _end_round() -> None:
    ending = _ending()
    live = _live()
    gold = ending.gold if live.recorder.game.ruleset == "base" else None
    _submit(entries.stamped(live.recorder.round_end(ending.roles, gold), entries.now()))


def _note() -> None:
    player = st.session_state.get("record_note_player")
    kind: NoteKind = st.session_state.get("record_note_kind") or "other"
    text = str(st.session_state.get("record_note_text") or "")
    _record(entries.note_entry(player, kind, text, entries.now()), aside=True)
    st.session_state["record_note_text"] = ""


# -- layout pieces -----------------------------------------------------------------------------


def _buttons(
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
    _buttons(
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
    _buttons(
        players,
        key=lambda p: f"{prefix}{p}",
        label=lambda p: escape(who(p, names)),
        on_click=on_click,
        chosen=chosen,
        row=f"{prefix}row",
    )


def _marks(recorder: Recorder, pick: Pick) -> dict[Cell, str]:
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


def _maze(recorder: Recorder, marks: dict[Cell, str], key: str) -> None:
    rs = recorder.round
    if rs is None:
        return
    maze = table_maze(rs)
    setup = cards.SETUP_CELL if rs.deal.setup_card is not None and cards.SETUP_CELL in maze.cells else None
    last = _last_event(recorder)
    acted = (last.x, last.y) if isinstance(last, PlayPath | PlayRockfall) else None
    st.vega_lite_chart(
        spec=maze_chart(maze.cells, setup_cell=setup, marks=marks, highlight=acted),
        on_select=lambda: _tapped(key),
        selection_mode=SELECTION,
        key=key,
        width="content",
        theme=None,
        alt="The maze: tap a cell to pick it",
    )


def _last_event(recorder: Recorder) -> Event | None:
    """The last entry recorded (none but the game's first line: ``None``)."""
    return parse_line(1, recorder.lines[-1]).event if len(recorder.lines) > 1 else None


def _hands(recorder: Recorder, names: dict[str, str], to_act: str | None) -> None:
    """Each player's cards as counted, and their broken tools, on one line."""
    rs = recorder.round
    assert rs is not None
    counts = recorder.hand_counts()
    shown = []
    for player in recorder.game.players:
        broken = "".join(f" ✗{tool}" for tool in sorted(rs.broken.get(player, ())))
        text = f"{escape(who(player, names))} {counts[player]}{broken}"
        shown.append(f"**▶ {text}**" if player == to_act else text)
    st.markdown(" · ".join(shown) + f" · pile **{recorder.pile_count()}**")


# -- the panels ------------------------------------------------------------------------


def _confirm(pending: Pending, recorder: Recorder) -> None:
    st.markdown(f"#### {escape(entry_words(pending.event, recorder.round))}?")
    for finding in pending.findings:
        st.error(escape(finding_words(finding)))
    st.button(
        "Tell the table and pick again",
        key="record_refuse",
        type="primary",
        on_click=_pick_again,
        width="stretch",
        icon=":material/undo:",
    )
    st.button(
        "Record it as it happened",
        key="record_confirm",
        on_click=_record,
        args=(pending.event,),
        width="stretch",
        icon=":material/gavel:",
    )


def _deal_panel(recorder: Recorder, names: dict[str, str], number: int) -> None:
    deal = _deal()
    st.markdown("**Who starts?**")
    _players(
        recorder.game.players,
        names,
        prefix="record_start_",
        on_click=lambda p: _set_deal(replace(_deal(), start=p)),
        chosen=deal.start,
    )
    if recorder.game.ruleset == "tournament":
        st.markdown("**The setup card** (R-S7), and how it lies")
        turned = ", ".join(card_words(c) for c in deal.turned_over)
        with st.expander(f"Turned over before it: {turned}" if turned else "Action cards turned over before it"):
            _buttons(
                sorted(cards.ACTION_CARDS),
                key=lambda c: f"record_turned_{c}",
                label=lambda c: card_words(c),
                on_click=lambda c: _set_deal(replace(_deal(), turned_over=(*_deal().turned_over, c))),
                row="record_turned_row",
            )
            st.button(
                "None after all",
                key="record_turned_clear",
                disabled=not turned,
                on_click=lambda: _set_deal(replace(_deal(), turned_over=())),
            )
        _palette(deal.card, lambda c: _set_deal(replace(_deal(), card=c, rotated=False)), "record_setup_")
        if deal.card is not None:
            st.button(
                f"{_card_label(deal.card, deal.rotated)} Turn it",
                key="record_turn",
                on_click=lambda: _set_deal(replace(_deal(), rotated=not _deal().rotated)),
            )
    st.button(
        f"Deal round {number}",
        key="record_deal",
        type="primary",
        disabled=not deal.ready(recorder.game.ruleset),
        on_click=_deal_round,
        args=(number,),
        width="stretch",
    )


def _turn_panel(recorder: Recorder, names: dict[str, str], due: Due, *, choose_player: bool = False) -> None:
    """A turn's card: its kind, the card, then where or at whom it goes. The player
    whose turn it is comes chosen; ``choose_player`` asks first (a draw was skipped)."""
    pick = _pick()
    game = recorder.game
    if due.player is not None and pick.player != due.player:
        st.warning(escape(f"{who(pick.player, names)} plays, though it is {who(due.player, names)}'s turn"))
    if choose_player:
        st.caption("Who plays")
        _who_plays(recorder, names, pick)
    _buttons(
        KINDS,
        key=lambda k: f"record_kind_{k}",
        label=KIND_WORDS.__getitem__,
        on_click=lambda k: _set_pick(_pick().of_kind(k)),
        chosen=pick.kind,
        row="record_kind_row",
    )
    need = pick.need()
    if pick.kind == "path" and pick.card is None:
        _palette(pick.card, lambda c: _set_pick(_pick().with_card(c)), "record_card_")
    elif pick.kind in ("break", "repair") and need == "card":
        _buttons(
            CARDS_OF[pick.kind],
            key=lambda c: f"record_card_{c}",
            label=card_words,
            on_click=lambda c: _set_pick(_pick().with_card(c)),
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
            on_click=lambda p: _set_pick(replace(_pick(), target=p)),
        )
    elif need == "tool" and pick.card is not None:
        st.markdown(f"**{escape(card_words(pick.card))}**: which tool does it mend?")
        _buttons(
            cards.REPAIR_CARDS[pick.card],
            key=lambda t: f"record_tool_{t}",
            label=str,
            on_click=lambda t: _set_pick(replace(_pick(), tool=t)),
            row="record_tool_row",
        )
    elif need == "slot":
        st.markdown("**Which goal does the map look at?** (or tap it)")
        _buttons(
            SLOTS,
            key=lambda s: f"record_slot_{s}",
            label=str.capitalize,
            on_click=lambda s: _set_pick(replace(_pick(), slot=s)),
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
        on_click=lambda p: _set_pick(Pick(p)),
        chosen=pick.player,
    )


def _cells_panel(recorder: Recorder, pick: Pick) -> None:
    assert pick.card is not None
    if pick.kind == "path":
        with st.container(horizontal=True, vertical_alignment="center", key="record_chosen"):
            st.button(
                f"{_card_label(pick.card, pick.rotated)} Turn it",
                key="record_turn",
                on_click=lambda: _set_pick(_pick().turned()),
            )
            st.button("Another card", key="record_recard", on_click=lambda: _set_pick(_pick().of_kind("path")))
        other_way = sum(1 for _, way in recorder.legal_cells(pick.card) if way != pick.rotated)
        st.caption(
            "Tap a marked cell on the maze, or its button"
            + (f" ({other_way} more cell(s) when turned)" if other_way else "")
        )
    else:
        st.caption("Tap the card that falls, or its button")
    marks = _marks(recorder, pick)
    _buttons(
        list(marks),
        key=lambda cell: f"record_cell_{cell[0]}_{cell[1]}",
        label=lambda cell: f"{marks[cell]} · ({cell[0]}, {cell[1]})",
        on_click=lambda cell: _set_pick(replace(_pick(), cell=cell)),
        row="record_cells",
    )
    if not marks:
        st.info("No cell takes this card as it lies." if pick.kind == "path" else "No path card lies in the maze.")
    with st.expander("Another cell (as it happened)"):
        left, right = st.columns(2)
        left.number_input("x", min_value=-50, max_value=50, value=1, step=1, key="record_other_x")
        right.number_input("y", min_value=-50, max_value=50, value=0, step=1, key="record_other_y")
        st.button("There", key="record_other", on_click=_another_cell, args=(pick,), width="stretch")


def _draw_panel(recorder: Recorder, names: dict[str, str], due: Due) -> None:
    assert due.player is not None
    st.button(
        f"{escape(who(due.player, names))} draws · pile {recorder.pile_count()}",
        key="record_draw",
        type="primary",
        on_click=_draw,
        args=(due.player,),
        width="stretch",
        icon=":material/style:",
    )
    with st.expander("The next card came without a draw"):
        _turn_panel(recorder, names, Due("turn"), choose_player=True)


def _reveal_panel(recorder: Recorder, due: Due) -> None:
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

    _buttons(
        options,
        key=lambda o: f"record_reveal_{o[0]}_{'turned' if o[1] else 'printed'}",
        label=label,
        on_click=lambda o: _reveal(slot, *o),  # type: ignore[arg-type]
        row="record_reveal_row",
    )


def _end_panel(recorder: Recorder, names: dict[str, str], number: int) -> None:
    game = recorder.game
    ending = _ending()
    roles: tuple[Role, ...] = ROLES if game.ruleset == "tournament" else ("gold_digger", "saboteur")
    for player in game.players:
        st.markdown(f"**{escape(who(player, names))}**")
        _buttons(
            roles,
            key=lambda r, p=player: f"record_role_{p}_{r}",  # type: ignore[misc]
            label=ROLE_WORDS.__getitem__,
            on_click=lambda r, p=player: _set_ending(_ending().with_role(p, r)),  # type: ignore[misc]
            chosen=ending.roles.get(player),
            row=f"record_roles_{player}",
        )
        if game.ruleset == "base":
            taken = ending.gold.get(player, ())
            _buttons(
                (1, 2, 3, 0),
                key=lambda v, p=player: f"record_gold_{p}_{v}",  # type: ignore[misc]
                label=lambda v: f"+{v} gold" if v else "none",
                on_click=lambda v, p=player: _set_ending(_ending().with_gold(p, v or None)),  # type: ignore[misc]
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
        on_click=_end_round,
        width="stretch",
    )


def _game_end_panel(recorder: Recorder, names: dict[str, str]) -> None:
    totals = recorder.game_end().totals
    st.dataframe(
        pl.DataFrame({"player": [who(p, names) for p in totals], "total": list(totals.values())}), hide_index=True
    )
    st.button(
        "End the game and store its log",
        key="record_end_game",
        type="primary",
        on_click=_finish,
        width="stretch",
        icon=":material/flag:",
    )


def _over_panel(live: Live) -> None:
    result = st.session_state.get(RESULT)
    if not live.draft.finished:
        if result is not None:
            st.error(escape(f"The log was not taken in: {result.outcome} ({result.message})"))
        st.button("Store the log", key="record_store", type="primary", on_click=_finish, width="stretch")
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


def _note_panel(recorder: Recorder, names: dict[str, str]) -> None:
    with st.expander("Referee note (R-C1)", icon=":material/report:"):
        st.selectbox(
            "Who",
            [None, *recorder.game.players],
            format_func=lambda p: "nobody in particular" if p is None else who(p, names),
            key="record_note_player",
        )
        st.selectbox("What", list(NOTE_WORDS), format_func=NOTE_WORDS.__getitem__, key="record_note_kind")
        st.text_area("Note", max_chars=500, key="record_note_text", height=80)
        st.button("Record the note", key="record_note", on_click=_note, width="stretch")


# -- choosing the table -----------------------------------------------------------------------


def _choose_table() -> None:
    store = data.store()
    going = in_play(store)
    if going:
        st.markdown("**Being recorded**")
        _buttons(
            going,
            key=lambda g: f"record_resume_{g}",
            label=lambda g: f"Resume {escape(g)}",
            on_click=_resume,
            row="record_resume_row",
        )
    seated, unseated = st.tabs(["A seated table", "An unseated game"])
    with seated:
        _seated_tables(going)
    with unseated:
        _unseated_game()


def _seated_tables(going: list[str]) -> None:
    tournaments = data.tournaments()
    if tournaments.is_empty():
        st.info("No tournament is stored: record an unseated game, or create a tournament first.")
        return
    tournament = widgets.tournament_picker(tournaments, key="record_tournament")
    if tournament is None:
        return
    seated = data.seatings(tournament)
    if seated.is_empty():
        st.info("No seating is published for this tournament (saboteur tournament seat).")
        return
    numbers = sorted(set(seated["tournament_round"].to_list()))
    keep_choice("record_round", numbers)
    number = st.selectbox("Tournament round", numbers, key="record_round")
    stored = set(data.games(tournament)["game_id"].to_list())
    row = tournaments.filter(pl.col("tournament") == tournament).row(0, named=True)
    round_seats = seated.filter(pl.col("tournament_round") == number)
    for seating in seated_tables(round_seats, tournament, str(row["name"])):
        table = Table.seated(seating, row["final_rounds"])
        label = seating.table
        with st.container(border=True):
            st.markdown(f"**Table {escape(label)}** · {escape(', '.join(table.names.values()))}")
            if table.game_id in stored:
                st.caption("Stored: this table's game is in the record.")
            elif table.game_id in going:
                st.button("Resume", key=f"record_table_{label}", on_click=_resume, args=(table.game_id,))
            else:
                st.button("Record this table", key=f"record_table_{label}", on_click=_begin, args=(table,))


def _unseated_game() -> None:
    game_id = st.text_input("Game id", key="record_new_game", placeholder="club-night-2026-05-12")
    ruleset = st.radio("Rules", ["tournament", "base"], horizontal=True, key="record_new_ruleset")
    rounds = st.number_input("Rounds", min_value=1, max_value=4, value=3, step=1, key="record_new_rounds")
    players = st.text_area("Players in seat order (their ids)", key="record_new_players", height=100)
    label = st.text_input("Table (optional)", key="record_new_table")
    named = named_players(players)
    table = Table(
        game_id.strip(),
        str(ruleset),
        int(rounds),
        tuple(SeatedPlayer(p, None) for p in named),
        label=label.strip() or None,
    )
    st.button(
        "Begin recording",
        key="record_new_begin",
        type="primary",
        disabled=not (game_id.strip() and named),
        on_click=_begin,
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
            f"round {game.tournament_round}" if game.tournament_round is not None else "",
            f"table {game.table}" if game.table is not None else "",
            game.tournament or "",
        )
        if part
    )
    st.caption(
        escape(f"{where or game.game_id} · round {max(number, 1)} of {game.rounds} · line {len(recorder.lines)}")
    )
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.warning(escape(notice))
    pending: Pending | None = st.session_state.get(PENDING)
    pick = _pick()
    st.markdown(f"### {escape(due_words(due, number, names))}")
    marks = _marks(recorder, pick) if due.kind in ("turn", "draw") and pending is None else {}
    _maze(recorder, marks, f"record_maze_{live.draft.version}_{pick.kind}_{pick.card}_{pick.rotated}")
    if recorder.round is not None:
        _hands(recorder, names, pick.player if due.kind == "turn" else due.player)
    if pending is not None:
        _confirm(pending, recorder)
    elif due.kind == "round":
        _deal_panel(recorder, names, number)
    elif due.kind == "turn":
        _turn_panel(recorder, names, due)
    elif due.kind == "draw":
        _draw_panel(recorder, names, due)
    elif due.kind == "reveal":
        _reveal_panel(recorder, due)
    elif due.kind == "round_end":
        _end_panel(recorder, names, number)
    elif due.kind == "game_end":
        _game_end_panel(recorder, names)
    else:
        _over_panel(live)
    if not live.draft.finished:
        st.divider()
        if len(recorder.lines) > 1:
            st.caption("Last entry: " + escape(entry_words(_last_event(recorder), recorder.round)))
            st.button("Undo the last entry", key="record_undo", on_click=_undo, icon=":material/undo:")
        _note_panel(recorder, names)
    if CODE not in st.session_state:
        st.button("Another table", key="record_leave", on_click=_leave, type="tertiary")


def _refreshed(live: Live) -> None:
    """Take up what another phone recorded since this session last looked."""
    if st.session_state.get(SEEN) != data.stamp():
        if live.reload():
            _fresh_steps()
            st.session_state[NOTICE] = "The record moved on (another phone recorded): here is the game as it stands."
        _seen()


def show() -> None:
    """The organiser's page: the table being recorded, or the tables to choose from."""
    st.html(STYLE)
    st.session_state.pop(CODE, None)
    current: Live | None = st.session_state.get(LIVE)
    if current is None:
        st.title("Record a table")
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
        st.title("Record a table")
        st.error("This card opens no table: its code was revoked or mistyped. Ask the organiser for the table's card.")
        return
    st.session_state[CODE] = code
    final = data.tournaments().filter(pl.col("tournament") == granted.tournament)["final_rounds"]
    table = Table.seated(granted, final[0] if final.len() else None)
    st.session_state[TABLE] = table
    current: Live | None = st.session_state.get(LIVE)
    if current is None or current.game_id != table.game_id:
        current = Live.resume(data.store(), table.game_id)
        st.session_state[LIVE] = current
        _fresh_steps()
        _seen()
    if current is None:
        _opening(table)
    else:
        _refreshed(current)
        _recording(current)


def _opening(table: Table) -> None:
    """A table nobody began recording: its players in seat order, and the first tap."""
    st.title(f"Table {escape(table.label)}")
    st.caption(escape(f"{table.tournament} · round {table.tournament_round} · {table.rounds} rounds"))
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.error(escape(notice))
    st.markdown("\n".join(f"{seat}. {escape(name)}" for seat, name in enumerate(table.names.values(), start=1)))
    if table.game_id in set(data.games(table.tournament)["game_id"].to_list()):
        st.info("This table's game is stored: there is nothing more to record.")
        return
    st.button("Begin recording", key="record_begin", type="primary", on_click=_begin, args=(table,), width="stretch")
