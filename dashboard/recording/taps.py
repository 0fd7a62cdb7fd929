"""What each tap on the recording page does, and the session it keeps.

Each tap is a callback: it runs before the page is laid out again, so it acts on the
screen it was made on — and on the draft as that screen read it, which is how a phone
that is behind finds out (:class:`~ingest.drafts.DraftMoved`: told so, and given the
game as it stands). The session keeps one :class:`~dashboard.recording.live.Live`, the
taps of the entry being made (:mod:`dashboard.recording.steps`), and the entry the rules
have something to say about, until the referee says whether it happened. Every write
asks first whether this session may still write (:func:`_permitted`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final, ParamSpec

import streamlit as st
from pydantic import ValidationError

from dashboard import access, data, sentences
from dashboard.i18n import _
from dashboard.recording import entries
from dashboard.recording.live import Live
from dashboard.recording.maze_chart import SELECTION
from dashboard.recording.steps import SLOTS, Deal, Ending, Pick
from dashboard.recording.table import Table
from events import cards
from events.findings import Code, Finding
from events.logfile import UnreadableLog
from events.schema import Event, NoteKind, Slot
from ingest.drafts import DraftError, DraftMoved
from ingest.store import StoreBusy, StoreError

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


@dataclass(frozen=True, slots=True)
class Pending:
    """An entry the rules have something to say about, waiting for the referee's word."""

    event: Event
    findings: tuple[Finding, ...]


# -- the session -------------------------------------------------------------------------


def current_live() -> Live:
    live: Live = st.session_state[LIVE]
    return live


def fresh_steps() -> None:
    for key in (PICK, DEAL, ENDING, PENDING):
        st.session_state.pop(key, None)


def seen() -> None:
    """The store as this session last wrote or read it."""
    st.session_state[SEEN] = data.stamp()


def _moved(moved: DraftMoved) -> None:
    fresh_steps()
    st.session_state[NOTICE] = sentences.said(moved.said, str(moved))
    seen()


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
        st.session_state[NOTICE] = _("This phone may no longer record this table: ask the organiser for its card.")
    return allowed


P = ParamSpec("P")


def guarded(tap: Callable[P, None]) -> Callable[P, None]:
    """A tap whose write is refused says why on the page, never as a traceback: a tap
    runs as a callback, outside the page's own handling of a busy or damaged store.
    Another phone ahead (:class:`DraftMoved`) shows the game as it stands."""

    @functools.wraps(tap)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            tap(*args, **kwargs)
        except DraftMoved as moved:
            _moved(moved)
        except DraftError as refused:
            st.session_state[NOTICE] = sentences.said(refused.said, str(refused))
        except StoreBusy:
            st.session_state[NOTICE] = _("The database is busy: another process is writing it. Tap again in a moment.")
        except StoreError as exc:
            st.session_state[NOTICE] = _("The store cannot be written: %(problem)s") % {
                "problem": sentences.said(exc.said, exc.problem)
            }

    return run


@guarded
def record(event: Event, *, aside: bool = False) -> None:
    """Record ``event``: the taps that made it are done with (``aside``: a note, made
    beside the entry being tapped, which it leaves as it is)."""
    if not aside:
        st.session_state.pop(PENDING, None)
    if not _permitted():
        return
    current_live().record(event)
    if not aside:
        fresh_steps()
    seen()


def submit(event: Event) -> None:
    """Record ``event``, unless the rules say something of it: then ask first."""
    found = [f for f in current_live().recorder.preview(event) if f.code is not Code.TABLE_INCIDENT]
    if found:
        st.session_state[PENDING] = Pending(event, tuple(found))
    else:
        record(event)


def pick_again() -> None:
    """The table fixed its mistake: nothing is recorded, the same card is picked again."""
    pending: Pending | None = st.session_state.pop(PENDING, None)
    pick: Pick | None = st.session_state.get(PICK)
    if pending is not None and pick is not None and pick.kind is not None:
        due = current_live().recorder.due()
        player = due.player if due.kind == "turn" and due.player is not None else pick.player
        st.session_state[PICK] = Pick(player, pick.kind, pick.card, pick.rotated)


@guarded
def undo() -> None:
    if not _permitted():
        return
    try:
        current_live().undo()
    except DraftError as refused:
        if isinstance(refused, DraftMoved):
            raise
        # nothing to undo: the steps start afresh all the same
        st.session_state[NOTICE] = sentences.said(refused.said, str(refused))
    fresh_steps()
    seen()


@guarded
def finish() -> None:
    if not _permitted():
        return
    live = current_live()
    if live.recorder.due().kind == "game_end":
        live.record(entries.stamped(live.recorder.game_end(), entries.now()))
    try:
        st.session_state[RESULT] = live.finish()
    finally:
        data.clear()
    seen()


def leave() -> None:
    for key in (LIVE, TABLE, RESULT, NOTICE):
        st.session_state.pop(key, None)
    fresh_steps()


@guarded
def begin(table: Table) -> None:
    if not _permitted():
        return
    try:
        game = table.game_started(entries.now())
        live = Live.begin(data.store(), game)  # read first as a log's reader reads it: a tournament game of 4 is none
    except ValidationError as refused:
        st.session_state[NOTICE] = "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in refused.errors(include_url=False)
        )
        return
    except UnreadableLog as refused:  # refused before anything is stored: no draft begun
        st.session_state[NOTICE] = sentences.said(refused.said, refused.message)
        return
    st.session_state[LIVE] = live
    st.session_state[TABLE] = table
    fresh_steps()
    seen()


def resume(game_id: str) -> None:
    if not _permitted():
        return
    try:
        live = Live.resume(data.store(), game_id)
    except UnreadableLog as broken:  # a draft begun before such a header was refused: said, not a traceback
        st.session_state[NOTICE] = sentences.said(broken.said, broken.message)
        return
    if live is not None:
        st.session_state[LIVE] = live
        st.session_state.pop(TABLE, None)
        fresh_steps()
        seen()


# -- taps ---------------------------------------------------------------------------------


def current_pick() -> Pick:
    pick: Pick | None = st.session_state.get(PICK)
    if pick is None:
        due = current_live().recorder.due()
        pick = Pick(due.player or current_live().recorder.game.players[0])
    return pick


def set_pick(pick: Pick) -> None:
    """Keep ``pick``; a whole one is submitted at once."""
    st.session_state[PICK] = pick
    if pick.need() == "done":
        submit(entries.card_entry(pick, entries.now()))


def current_deal() -> Deal:
    deal: Deal = st.session_state.get(DEAL, Deal())
    return deal


def set_deal(deal: Deal) -> None:
    st.session_state[DEAL] = deal


def current_ending() -> Ending:
    ending: Ending = st.session_state.get(ENDING, Ending())
    return ending


def set_ending(ending: Ending) -> None:
    st.session_state[ENDING] = ending


def tapped(key: str) -> None:
    """A cell of the maze tapped: where the card in hand goes, or the goal a map looks at."""
    event = st.session_state.get(key)
    picked = (event or {}).get("selection", {}).get(SELECTION) or []
    if not picked:
        return
    cell = (int(picked[0]["x"]), int(picked[0]["y"]))
    pick = current_pick()
    if pick.kind in ("path", "rockfall") and pick.card is not None:
        set_pick(replace(pick, cell=cell))
    elif pick.kind == "map" and cell in cards.SLOT_AT:
        set_pick(replace(pick, slot=SLOTS[cards.SLOTS.index(cards.SLOT_AT[cell])]))


def another_cell(pick: Pick) -> None:
    cell = (int(st.session_state["record_other_x"]), int(st.session_state["record_other_y"]))
    set_pick(replace(pick, cell=cell))


def draw(player: str) -> None:
    submit(entries.draw_entry(player, entries.now()))


def reveal(slot: Slot, card: str, rotated: bool) -> None:
    submit(entries.reveal_entry(slot, card, rotated, entries.now()))


def deal_round(number: int) -> None:
    submit(entries.deal_entry(current_deal(), number, entries.now()))


def end_round() -> None:
    ending = current_ending()
    live = current_live()
    gold = ending.gold if live.recorder.game.ruleset == "base" else None
    submit(entries.stamped(live.recorder.round_end(ending.roles, gold), entries.now()))


def note() -> None:
    player = st.session_state.get("record_note_player")
    kind: NoteKind = st.session_state.get("record_note_kind") or "other"
    text = str(st.session_state.get("record_note_text") or "")
    record(entries.note_entry(player, kind, text, entries.now()), aside=True)
    st.session_state["record_note_text"] = ""
