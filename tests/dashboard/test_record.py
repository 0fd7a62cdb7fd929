"""The recording page (issue 12): a referee records a table's game card by card, and the
observed log it writes is the one expected, byte for byte.

The page is driven as a phone drives it, one tap (a button) at a time, through a whole
game of the held-back table of the sample tournament (round 2, table 2): every kind of
card, a stone and the gold turned up, a round ended by empty hands, a referee's note,
an undo, and an entry the rules refuse — first taken back at the table, then recorded
as it happened. The test writes the log it expects beside, from the same events with
the page's clock fixed, audits it, and checks the game reached the store and the
standings. Two phones on one table never record one turn twice, and a fresh session
takes the game up where the draft stands.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import pyarrow
import pytest
import streamlit as st
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.testing.v1 import AppTest

from analytics import records
from analytics.standings import standings
from dashboard.markup import escape
from dashboard.maze_svg import bounds
from dashboard.names import finding as plain_finding
from dashboard.recording import entries
from dashboard.recording.live import Live
from dashboard.recording.maze_chart import picture
from dashboard.recording.taps import LIVE, PICK, TABLE
from events import cards
from events.audit import audit
from events.logfile import parse_line
from events.maze import Cell, Maze
from events.recorder import Recorder
from events.schema import (
    Discard,
    Draw,
    Event,
    GoalRevealed,
    PlayMap,
    PlayPath,
    PlayRockfall,
    PlayTool,
    RefereeNote,
    RoundStarted,
    SetupCard,
    dump_event,
)
from events.tables import Role
from ingest.drafts import read_draft, start_draft
from ingest.store import Store
from tests.dashboard.conftest import (
    APP,
    HOSTILE_NAMES,
    IMAGE,
    LINK,
    MIXED,
    TOURNAMENT,
    Hostile,
    page_text,
    shown,
    visible,
)
from tests.dashboard.test_browser import chromium, serving
from tests.dashboard.test_hostile_text import plain_text
from tests.dashboard.test_replay_address import EMOJI

AT = "2026-11-29T14:00:00Z"
GAME = f"{TOURNAMENT}:r2:t2"
"""The held-back table: seated, its game not stored."""


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> str:
    """The page's clock, stopped at :data:`AT`."""
    monkeypatch.setattr(entries, "now", lambda: AT)
    return AT


def phone() -> AppTest:
    """The recording page opened by the organiser."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["organiser"] = True
    at.switch_page("views/record.py")
    return ran(at)


def ran(tapped: AppTest | Any) -> AppTest:
    """Run the page after a tap (``tapped``: the app, or the widget just set)."""
    at: AppTest = tapped.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


class Referee:
    """One phone recording the table, and the log it should be writing."""

    def __init__(self, at: AppTest) -> None:
        self.at = at
        self.expected: list[str] = []

    @property
    def live(self) -> Live:
        live: Live = self.at.session_state[LIVE]
        return live

    @property
    def due_player(self) -> str:
        player = self.live.recorder.due().player
        assert player is not None
        return player

    def tap(self, key: str) -> AppTest:
        return ran(self.at.button(key=key).click())

    def expect(self, event: Event) -> None:
        self.expected.append(dump_event(event))

    def expected_text(self) -> str:
        return "".join(line + "\n" for line in self.expected)

    # -- entries ---------------------------------------------------------------------------

    def open_table(self, tournament_round: int = 2, table: str = "2") -> None:
        ran(self.at.selectbox(key="record_round").set_value(tournament_round))
        self.tap(f"record_table_{table}")
        self.expected = list(self.live.draft.lines)

    def deal(
        self, number: int, start: str, turned_over: Sequence[str] = (), card: str | None = None, rotated: bool = False
    ) -> None:
        """Round ``number``'s deal: its start player and (``card``: tournament) its setup card."""
        self.tap(f"record_start_{start}")
        for turned in turned_over:
            self.tap(f"record_turned_{turned}")
        if card is not None:
            self.tap(f"record_setup_{card}")
            if rotated:
                self.tap("record_turn")
        self.tap("record_deal")
        setup = SetupCard(card=card, rotated=rotated, turned_over=[*turned_over, card]) if card else None
        self.expect(
            RoundStarted(
                type="round_started",
                at=AT,
                round=number,
                start_player=start,
                roles=None,
                set_aside_role=None,
                goals=None,
                setup_card=setup,
                hands=None,
                draw_pile=None,
            )
        )

    def draw(self) -> None:
        player = self.due_player
        assert self.live.recorder.due().kind == "draw"
        self.tap("record_draw")
        self.expect(Draw(type="draw", at=AT, player=player, card=None))

    def path(self, card: str, cell: tuple[int, int], rotated: bool = False, *, draw: bool = True) -> None:
        player = self.due_player
        self.tap("record_kind_path")
        self.tap(f"record_card_{card}")
        if rotated:
            self.tap("record_turn")
        self.tap(f"record_cell_{cell[0]}_{cell[1]}")
        self.expect(PlayPath(type="play_path", at=AT, player=player, card=card, x=cell[0], y=cell[1], rotated=rotated))
        if draw:
            self.draw()

    def tool(self, kind: str, card: str, target: str, tool: str | None = None) -> None:
        player = self.due_player
        self.tap(f"record_kind_{kind}")
        self.tap(f"record_card_{card}")
        self.tap(f"record_target_{target}")
        if tool is not None:
            self.tap(f"record_tool_{tool}")
            self.expect(PlayTool(type="play_tool", at=AT, player=player, card=card, target=target, tool=tool))  # type: ignore[arg-type]
        else:
            self.expect(PlayTool(type="play_tool", at=AT, player=player, card=card, target=target))
        self.draw()

    def rockfall(self, cell: tuple[int, int]) -> None:
        player = self.due_player
        self.tap("record_kind_rockfall")
        self.tap(f"record_cell_{cell[0]}_{cell[1]}")
        self.expect(PlayRockfall(type="play_rockfall", at=AT, player=player, card="rockfall", x=cell[0], y=cell[1]))
        self.draw()

    def map(self, slot: str) -> None:
        player = self.due_player
        self.tap("record_kind_map")
        self.tap(f"record_slot_{slot}")
        self.expect(PlayMap(type="play_map", at=AT, player=player, card="map", goal=slot))  # type: ignore[arg-type]
        self.draw()

    def discard(self, *, draw: bool = True) -> None:
        player = self.due_player
        self.tap("record_kind_discard")
        self.expect(Discard(type="discard", at=AT, player=player, card=None))
        if draw:
            self.draw()

    def reveal(self, slot: str, card: str, rotated: bool) -> None:
        due = self.live.recorder.due()
        assert due.kind == "reveal" and due.slots[0] == slot
        self.tap(f"record_reveal_{card}_{'turned' if rotated else 'printed'}")
        self.expect(
            GoalRevealed.model_validate(
                {"type": "goal_revealed", "at": AT, "goal": slot, "rotated": rotated, "card": card}
            )
        )

    def end_round(self, roles: dict[str, Role], gold: dict[str, list[int]] | None = None) -> None:
        """The roles turned up (and in base the gold cards each took, in order)."""
        assert self.live.recorder.due().kind == "round_end"
        for player, role in roles.items():
            self.tap(f"record_role_{player}_{role}")
        for player, taken in (gold or {}).items():
            for value in taken:
                self.tap(f"record_gold_{player}_{value}")
        proposed = Recorder(self.expected).round_end(roles, gold).model_copy(update={"at": AT})
        for player, points in proposed.scores.items():
            assert str(points) in page_text(self.at) and player in roles
        self.tap("record_end_round")
        self.expect(proposed)

    def note(self, player: str, error: str, text: str) -> None:
        ran(self.at.selectbox(key="record_note_player").set_value(player))
        ran(self.at.selectbox(key="record_note_kind").set_value(error))
        self.at.text_area(key="record_note_text").input(text)
        self.tap("record_note")
        self.expect(RefereeNote(type="referee_note", at=AT, player=player, error=error, note=text))  # type: ignore[arg-type]

    def undo(self) -> None:
        self.tap("record_undo")
        self.expected.pop()


def maze_picture(at: AppTest, cell: Cell) -> str | None:
    """The picture the page's maze chart shows at ``cell`` (``None``: no card)."""
    (chart,) = at.get("vega_lite_chart")
    table = pyarrow.ipc.open_stream(chart.proto.data.data).read_all().to_pylist()
    image: str | None = next(row["image"] for row in table if (row["x"], row["y"]) == cell)
    return image


def face_up(card: str, cell: Cell, rotated: bool = False) -> str:
    """The picture of the goal ``card`` turned up at ``cell``."""
    maze = Maze.dealt(dict.fromkeys(cards.SLOTS, cards.UNSEEN))
    slot = cards.SLOT_AT[cell]
    maze.learn_goal(slot, card)
    maze.reveal(slot, rotated)
    return picture(maze.cells[cell])


def roles_of(players: Sequence[str], saboteurs: Sequence[int], selfish: int) -> dict[str, Role]:
    return {
        p: "saboteur" if i in saboteurs else "selfish_dwarf" if i == selfish else "gold_digger"
        for i, p in enumerate(players)
    }


@pytest.fixture
def referee(db: Path, organiser: str, clock: str, as_served: None) -> Iterator[Referee]:
    """The Record page of a phone, served as ``saboteur dashboard`` serves it."""
    yield Referee(phone())


def test_a_whole_game_recorded_tap_by_tap_is_the_log_expected(referee: Referee, db: Path) -> None:
    before = standings(Store(db), TOURNAMENT)
    ref = referee
    ref.open_table()
    game = ref.live.recorder.game
    players = game.players
    a, b, c, d, e, _ = players
    assert (game.tournament, game.tournament_round, game.table, game.recording) == (TOURNAMENT, 2, "2", "observed")

    # round 1: every card, a note, an undo, an entry refused then recorded, a stone and the gold
    ref.deal(1, a, ["map", "break_cart"], "NESW")
    assert ref.due_player == a
    ref.path("EW", (1, 0))
    ref.tap("record_kind_path")  # b is about to lay a card…
    ref.tap("record_card_NESW")
    ref.note(c, "showed_hand_card", "showed the map to the left")  # …when c shows a card: noted aside
    ref.tap("record_cell_2_0")  # the card in hand is still picked
    ref.expect(PlayPath(type="play_path", at=AT, player=b, card="NESW", x=2, y=0, rotated=False))
    ref.draw()
    ref.tool("break", "break_pick", d)
    ref.discard(draw=False)  # the referee tapped the wrong thing: taken back
    ref.undo()
    assert ref.live.recorder.due().kind == "turn" and ref.due_player == d
    ref.tool("repair", "repair_pick", d)

    # e lays a card where no path leads: the page names the rule before anything is written
    version = ref.live.draft.version
    ref.tap("record_kind_path")
    ref.tap("record_card_NS")
    ran(ref.at.number_input(key="record_other_x").set_value(3))
    ran(ref.at.number_input(key="record_other_y").set_value(3))
    ref.tap("record_other")
    assert [error.value for error in ref.at.error] == [
        escape(f"R-P2 {plain_finding('illegal_placement')}: no card lies next to (3, 3)")
    ]  # the code in plain words
    ref.tap("record_refuse")  # told the table: it picks again, nothing is written
    assert ref.live.draft.version == version and len(ref.live.draft.lines) == len(ref.expected)
    assert "record_confirm" not in [btn.key for btn in ref.at.button]
    ran(ref.at.number_input(key="record_other_x").set_value(3))  # …but the table leaves it there after all:
    ran(ref.at.number_input(key="record_other_y").set_value(3))  # recorded as it happened
    ref.tap("record_other")
    ref.tap("record_confirm")
    ref.expect(PlayPath(type="play_path", at=AT, player=e, card="NS", x=3, y=3, rotated=False))
    ref.draw()

    ref.path("NEW", (3, 0))  # f
    ref.rockfall((3, 0))  # a
    ref.map("top")  # b
    ref.path("NESW", (3, 0))  # c
    ref.tool("break", "break_lamp", e)  # d
    ref.tool("repair", "repair_pick_lamp", e, "lamp")  # e: a double repair names its tool
    ref.path("NEW", (5, 0))  # f
    ref.path("NESW", (6, 0))  # a
    ref.path("NS", (6, -1))  # b
    ref.path("NES", (6, -2))  # c
    ref.path("EW", (7, -2), draw=False)  # d reaches the top goal
    (stone_way,) = ref.live.recorder.goal_ways("top", "goal_stone_nw")
    ref.reveal("top", "goal_stone_nw", stone_way)
    ref.draw()
    ref.path("EW", (7, 0), draw=False)  # e reaches the middle goal: the gold
    ref.reveal("middle", "goal_gold", False)
    assert maze_picture(ref.at, (8, 0)) == face_up("goal_gold", (8, 0))  # turned up on the maze at once
    assert maze_picture(ref.at, (8, -2)) == face_up("goal_stone_nw", (8, -2), stone_way)
    ref.end_round(roles_of(players, (1, 2), 5))

    # round 2: nobody reaches the gold; the round ends when every hand is played out
    ref.deal(2, d, [], "NS", rotated=True)
    while ref.live.recorder.due().kind == "turn":
        ref.discard(draw=False)
        if ref.live.recorder.due().kind == "draw":
            ref.draw()
    assert sum(ref.live.recorder.hand_counts().values()) == 0 and ref.live.recorder.pile_count() == 0
    ref.end_round(roles_of(players, (0, 4), 3))

    # round 3: straight to the gold
    ref.deal(3, b, ["rockfall"], "NESW")
    for card, x in (("EW", 1), ("EW", 2), ("EW", 3), ("NEW", 5), ("NEW", 6)):
        ref.path(card, (x, 0))
    ref.path("NESW", (7, 0), draw=False)
    ref.reveal("middle", "goal_gold", False)
    ref.end_round(roles_of(players, (3, 5), 0))

    assert ref.live.recorder.due().kind == "game_end"
    ref.tap("record_end_game")
    ref.expect(Recorder(ref.expected).game_end().model_copy(update={"at": AT}))

    # the log written is the log expected, byte for byte, and audits as expected
    draft = read_draft(Store(db), GAME)
    assert draft is not None and draft.finished
    assert draft.text() == ref.expected_text()
    report = audit(ref.expected)
    assert sorted((f.code.value, f.rule) for f in report.findings) == [
        ("illegal_placement", "R-P2"),
        ("table_incident", "R-C1"),
    ]
    # taken in as an upload: its bytes kept, the game stored, the standings changed
    with Store(db).connect(read_only=True) as con:
        raw = con.execute("SELECT raw FROM uploads WHERE upload_id = ?", [draft.upload_id]).fetchone()
        stored = con.execute("SELECT recording, rounds_played FROM games WHERE game_id = ?", [GAME]).fetchone()
    assert raw is not None and bytes(raw[0]) == ref.expected_text().encode()
    assert stored == ("observed", 3)
    after = standings(Store(db), TOURNAMENT)
    assert after["rounds"].sum() == before["rounds"].sum() + 6 * 3
    assert "The game is stored" in page_text(ref.at)
    (download,) = ref.at.get("download_button")
    assert download.proto.label == "Download the observed log"


def test_a_game_of_no_tournament_begun_by_naming_its_players(referee: Referee, db: Path) -> None:
    """Base rules, one round: no setup card, the gold cards each player took."""
    ref = referee
    ref.at.text_input(key="record_new_game").input("club-night:1")
    ref.at.radio(key="record_new_ruleset").set_value("base")
    ref.at.number_input(key="record_new_rounds").set_value(1)
    ran(ref.at.text_area(key="record_new_players").input("ann, bob\ncem"))
    ref.tap("record_new_begin")
    ref.expected = list(ref.live.draft.lines)
    game = ref.live.recorder.game
    assert (game.game_id, game.ruleset, game.players, game.tournament) == (
        "club-night:1",
        "base",
        ["ann", "bob", "cem"],
        None,
    )
    assert not [b for b in ref.at.button if b.key and b.key.startswith("record_setup_")]
    ref.deal(1, "ann")
    for x, card in enumerate(("EW", "EW", "EW", "NESW", "NESW", "NESW"), start=1):
        ref.path(card, (x, 0))
    ref.path("NESW", (7, 0), draw=False)  # ann reaches the gold
    ref.reveal("middle", "goal_gold", False)
    ref.end_round({"ann": "gold_digger", "bob": "gold_digger", "cem": "saboteur"}, {"ann": [3, 2], "bob": [1]})
    ref.tap("record_end_game")
    ref.expect(Recorder(ref.expected).game_end().model_copy(update={"at": AT}))
    (download,) = ref.at.get("download_button")
    assert download.proto.label == "Download the observed log"
    draft = read_draft(Store(db), "club-night:1")
    assert draft is not None and draft.finished and draft.text() == ref.expected_text()
    assert audit(ref.expected).findings == []
    with Store(db).connect(read_only=True) as con:
        assert con.execute(
            "SELECT ruleset, recording, tournament FROM games WHERE game_id = 'club-night:1'"
        ).fetchone() == ("base", "observed", None)


def test_a_tournament_game_of_four_is_refused_before_anything_is_stored(referee: Referee, db: Path) -> None:
    """A tournament game seats 5–10 (R-TS1): the form took four, began a draft that no
    log's reader takes, and the page turned into a traceback; so did the public Tables
    page, for everyone, until the draft was taken out of the store by hand. The page
    says why and stores nothing; a draft begun so before is left off the tables in
    play, and resuming it says why."""
    ref = referee
    ref.at.text_input(key="record_new_game").input("club-night:4")
    ref.at.radio(key="record_new_ruleset").set_value("tournament")
    ran(ref.at.text_area(key="record_new_players").input("ann bob cas dirk"))
    ref.tap("record_new_begin")
    said = " ".join(e.value for e in ref.at.error) + " ".join(w.value for w in ref.at.warning)
    assert "a tournament game seats 5–10 players, not 4" in said, said
    assert read_draft(Store(db), "club-night:4") is None
    assert not ref.at.exception

    header = '{"type":"game_started","format":"saboteur-log/1","game_id":"club-night:5","ruleset":"tournament",'
    start_draft(Store(db), "club-night:5", header + '"players":["ann","bob","cas","dirk"],"rounds":3}')  # as before
    tables = AppTest.from_file(str(APP), default_timeout=60)
    tables.switch_page("views/tables.py").run()
    assert not tables.exception, [e.value for e in tables.exception]
    ref.at.run()
    ref.tap("record_resume_club-night:5")
    said = " ".join(e.value for e in ref.at.error) + " ".join(w.value for w in ref.at.warning)
    assert not ref.at.exception and "not 4" in said, said


def test_someone_else_plays_out_of_turn_and_the_table_is_told(referee: Referee) -> None:
    """The player whose turn it is comes chosen; another may be picked, and the page says
    whose turn it was before anything is written (R-T1)."""
    ref = referee
    ref.open_table()
    a, b, *_ = ref.live.recorder.game.players
    ref.tap("record_turned_map")
    ref.tap("record_turned_clear")  # the map went back: nothing was turned over after all
    ref.deal(1, a, [], "NESW")
    ref.tap(f"record_player_{b}")
    names = ref.at.session_state[TABLE].names
    assert escape(f"{names[b]} plays, though it is {names[a]}'s turn") in [w.value for w in ref.at.warning]
    ref.tap("record_kind_path")
    ref.tap("record_card_NS")
    ref.tap("record_recard")  # another card after all
    ref.tap("record_card_EW")
    ref.tap("record_cell_1_0")
    assert [e.value for e in ref.at.error] == [
        escape(f"R-T1 {plain_finding('out_of_turn')}: it is {names[a]}'s turn, not {names[b]}'s")  # by name
    ]
    ref.tap("record_refuse")
    assert ref.live.draft.lines == tuple(ref.expected)
    assert ref.at.session_state[PICK].player == a  # the right player plays the card now
    ref.tap("record_cell_1_0")
    ref.expect(PlayPath(type="play_path", at=AT, player=a, card="EW", x=1, y=0, rotated=False))
    assert ref.live.draft.text() == ref.expected_text()


def test_a_goal_the_table_leaves_face_down_is_recorded_as_it_happened(referee: Referee) -> None:
    """R-G1: a path reaches a goal and the table goes on without turning it up. Beside
    the goal's faces the page offers what came next instead; the rules' word on it
    (``missing_reveal``) comes before anything is written, and the referee records it
    as it happened: the draw, and the turn goes on."""
    ref = referee
    ref.open_table()
    a, *_ = ref.live.recorder.game.players
    ref.deal(1, a, [], "NESW")
    for card, x in (("EW", 1), ("EW", 2), ("NEW", 3), ("NEW", 5), ("NESW", 6)):
        ref.path(card, (x, 0))
    placer = ref.due_player
    ref.path("EW", (7, 0), draw=False)  # the path reaches the middle goal
    assert ref.live.recorder.due().kind == "reveal"
    version = ref.live.draft.version
    ref.tap("record_draw")  # under "It stays face down (as it happened)"
    names = ref.at.session_state[TABLE].names
    (error,) = [e.value for e in ref.at.error]
    assert error.startswith(escape(f"R-G1 {plain_finding('missing_reveal')}: {names[placer]}")), error
    assert ref.live.draft.version == version  # nothing written before the referee's word
    ref.tap("record_confirm")
    ref.expect(Draw(type="draw", at=AT, player=placer, card=None))
    assert ref.live.draft.text() == ref.expected_text()
    assert ref.live.recorder.due().kind == "turn"
    assert [f.code.value for f in ref.live.recorder.findings] == ["missing_reveal"]


# -- two phones, a reload, a card ---------------------------------------------------------


def test_a_phone_that_is_behind_is_told_and_shown_the_game_as_it_stands(db: Path, organiser: str, clock: str) -> None:
    first, second = Referee(phone()), Referee(phone())
    first.open_table()
    start = first.live.recorder.game.players[0]
    first.deal(1, start, [], "NESW")
    ran(second.at.selectbox(key="record_round").set_value(2))
    assert "Resume" in [b.proto.label for b in second.at.button]
    second.tap("record_table_2")  # the table being recorded: taken up where it stands, start's turn
    assert second.live.draft == first.live.draft
    first.discard(draw=False)  # A records start's pass…
    second.tap("record_kind_discard")  # …and B, behind, records it again: refused
    (warning,) = second.at.warning
    assert "another phone recorded first" in warning.value
    assert second.live.draft == read_draft(Store(db), GAME)
    assert second.live.recorder.due().kind == "draw"  # B now shows the game as it stands
    assert escape(f"draws · pile {second.live.recorder.pile_count()}") in next(
        b.proto.label for b in second.at.button if b.key == "record_draw"
    )
    draft = read_draft(Store(db), GAME)
    assert draft is not None and draft.text() == first.expected_text()  # one pass, not two
    second.tap("record_draw")  # now B is the one ahead: A's draw is refused in turn
    first.tap("record_draw")
    assert any("another phone recorded first" in w.value for w in first.at.warning)
    draft = read_draft(Store(db), GAME)
    assert draft is not None and [line.count('"type":"draw"') for line in draft.lines].count(1) == 1


def test_a_fresh_session_takes_the_game_up_where_the_draft_stands(db: Path, organiser: str, clock: str) -> None:
    ref = Referee(phone())
    ref.open_table()
    a, b, *_ = ref.live.recorder.game.players
    ref.deal(1, a, ["map"], "NESW")
    ref.path("NESW", (1, 0))
    ref.tap("record_kind_path")  # b is halfway through a tap when the phone is lost
    ref.tap("record_card_EW")
    again = phone()  # a reload, another phone, a restarted server: a new session
    assert [btn.key for btn in again.button if btn.key and btn.key.startswith("record_resume_")] == [
        f"record_resume_{GAME}"
    ]
    again = ran(again.button(key=f"record_resume_{GAME}").click())
    live: Live = again.session_state[LIVE]
    assert live.recorder.lines == ref.expected and live.draft == ref.live.draft
    assert live.recorder.due().kind == "turn" and live.recorder.due().player == b
    assert "record_kind_path" in [btn.key for btn in again.button]  # the half-made tap is not kept
    assert live.recorder.hand_counts() == Recorder(ref.expected).hand_counts()


def card(code: str) -> AppTest:
    """The recording page opened from a table's card (no password)."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["code"] = code
    at.switch_page("views/record.py")
    return ran(at)


def test_a_tables_card_opens_that_table_only_until_it_is_revoked(db: Path, clock: str) -> None:
    store = Store(db)
    codes = {issued.access.table: issued for issued in records.issue_referee_codes(store, TOURNAMENT, 2)}
    stored = card(codes["1"].code)  # table 1's game is in the record already
    assert any("nothing more to record" in i.value for i in stored.info) and not stored.button

    ref = Referee(card(codes["2"].code))
    names = [p.name or p.player for p in codes["2"].access.players]
    assert ref.at.markdown[0].value == "\n".join(f"{seat}. {escape(n)}" for seat, n in enumerate(names, start=1))
    assert not ref.at.text_input  # no password: the card is the key, to this table alone
    ref.tap("record_begin")
    ref.expected = list(ref.live.draft.lines)
    game = ref.live.recorder.game
    assert (game.game_id, game.tournament_round, game.table) == (GAME, 2, "2")
    ref.deal(1, game.players[2], [], "NESW")
    ref.discard()
    assert "record_leave" not in [b.key for b in ref.at.button]  # no other table from here

    records.revoke_referee_code(store, TOURNAMENT, 2, "2", "the card was lost")
    ref.tap("record_kind_discard")  # the next tap writes nothing
    draft = read_draft(store, GAME)
    assert draft is not None and draft.text() == ref.expected_text()
    assert any("opens no table" in e.value for e in ref.at.error)
    assert LIVE not in ref.at.session_state or ref.at.session_state[LIVE] is None


def test_a_code_that_opens_nothing_says_so_and_tells_nothing(db: Path) -> None:
    at = card("A" * 32)
    assert [e.value for e in at.error] == [
        "This card opens no table: its code was revoked or mistyped. Ask the organiser for the table's card."
    ]
    assert not at.button and not at.text_input


def test_the_page_is_the_organisers_and_out_of_the_public_menu(
    db: Path, organiser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[dict[str, str]] = []
    navigation = st.navigation

    def spy(pages: Any, **options: Any) -> Any:
        shown.append({p.url_path: p.visibility for group in pages.values() for p in group})
        return navigation(pages, **options)

    monkeypatch.setattr(st, "navigation", spy)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("views/record.py")
    ran(at)
    assert shown[-1]["record"] == "hidden" and shown[-1]["upload"] == "visible"
    assert "table's card" in at.caption[0].value and at.text_input  # the password, or a card
    assert LIVE not in at.session_state
    at.text_input[0].input(organiser)
    ran(at.button[0].click())
    assert shown[-1]["record"] == "visible"
    assert at.title[0].value == "Record a table" and at.tabs


def test_one_servers_sessions_take_turns_with_the_store(db: Path) -> None:
    """Phones on several tables are sessions of one server process: a session reading
    the store while another writes it waits its turn (DuckDB refuses a second
    connection of another kind to a file one process holds), as for another process."""
    store = Store(db)
    writing = threading.Event()

    def write() -> None:
        with store.connect():
            writing.set()
            time.sleep(0.3)

    writer = threading.Thread(target=write)
    writer.start()
    writing.wait()
    try:
        assert read_draft(store, GAME) is None  # waited for the writer, then read
    finally:
        writer.join()


def test_names_show_as_typed_on_the_recording_page(hostile: Hostile, organiser: str, clock: str) -> None:
    """Display names that read as Markdown show as text: in the tables to choose from,
    the buttons, the hands and the headings."""
    with Store(hostile.db).connect(read_only=True) as con:
        everyone = [str(p) for (p,) in con.execute("SELECT player FROM tournament_players ORDER BY player").fetchall()]
    table = [*hostile.players, *[p for p in everyone if p not in hostile.players][:3]]
    records.publish_seating(Store(hostile.db), TOURNAMENT, 9, [table], stage="preliminary", method="csv", seed=None)
    ref = Referee(phone())
    ran(ref.at.selectbox(key="record_round").set_value(9))
    assert all(name in plain_text(ref.at) for name in HOSTILE_NAMES)
    ref.tap("record_table_1")
    ref.deal(1, hostile.players[0], [], "NESW")
    ref.tool("break", "break_pick", hostile.players[2])
    text = plain_text(ref.at)
    assert all(name in text for name in HOSTILE_NAMES)
    labels = [b.proto.label for b in ref.at.button if not b.proto.label.startswith("![")]
    assert {IMAGE, LINK, MIXED} <= {visible(label) for label in labels}
    assert all(shown(label).plain for label in labels)


# -- in a real browser, on a phone's screen ---------------------------------------------------

PHONE: Final = {"width": 390, "height": 844}


IDLE: Final = (
    "() => document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') === 'notRunning'"
)


class Thumb:
    """A phone in the browser: taps by the buttons' keys, a screenshot of each step."""

    def __init__(self, browser: Any, screens: Path, name: str) -> None:
        self.page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
        self.page.set_default_timeout(60_000)  # a tap's page run, on a machine busy with the rest of the suite
        self.finished = 0
        self.page.on("websocket", lambda socket: socket.on("framereceived", self._frame))
        self.screens, self.name, self.shots = screens, name, 0

    def _frame(self, payload: bytes | str) -> None:
        """Count the page runs the server says it finished. (The page's own script-state
        attribute missed a run whose start and end reached the page together, on a
        machine busy with the rest of the suite: React drew them as one change.)"""
        if isinstance(payload, bytes):
            msg = ForwardMsg()
            msg.ParseFromString(payload)
            self.finished += msg.WhichOneof("type") == "script_finished"

    def settled(self, act: Callable[[], object]) -> None:
        """Do ``act`` (a tap) and wait for the page run it starts to end."""
        before = self.finished
        act()
        deadline = time.monotonic() + 60
        while self.finished <= before:
            assert time.monotonic() < deadline, "no page run ended within 60 s of the tap"
            self.page.wait_for_timeout(20)  # Playwright delivers the page's events meanwhile
        self.page.wait_for_function(IDLE)

    def open(self, address: str, code: str) -> None:
        self.page.goto(f"{address}/record?code={code}")
        self.page.locator('[data-testid="stMain"]').wait_for()

    def tap(self, key: str, then: str) -> None:
        """Tap the button ``key``; wait for the button ``then`` of the next screen."""
        self.settled(self.page.locator(f".st-key-{key} button").first.tap)
        self.page.locator(f".st-key-{then} button").first.wait_for(state="attached")

    def tap_cell(self, recorder: Recorder, cell: Cell, then: str) -> None:
        """Tap ``cell`` on the maze chart itself."""
        rs = recorder.round
        assert rs is not None
        event = parse_line(1, recorder.lines[-1]).event
        acted = (event.x, event.y) if isinstance(event, PlayPath | PlayRockfall) else None
        x0, x1, y0, _ = bounds(rs.maze.cells, acted)
        chart = self.page.locator('[data-testid="stVegaLiteChart"]').first
        target = chart.locator("g.mark-rect").last.locator("path").nth((cell[1] - y0) * (x1 - x0 + 1) + cell[0] - x0)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        self.settled(lambda: self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
        self.page.locator(f".st-key-{then} button").first.wait_for(state="attached")

    def shot(self, what: str) -> str:
        """The screen as the phone shows it, from the top."""
        self.shots += 1
        self.page.evaluate(
            "() => new Promise((drawn) => {"
            " document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0);"
            " requestAnimationFrame(() => requestAnimationFrame(drawn)); })"
        )  # scrolled to the top and drawn there: two frames, not a guessed pause
        name = f"{self.name}-{self.shots:02d}-{what}.png"
        self.page.screenshot(path=str(self.screens / name))
        return name

    def text(self) -> str:
        return str(self.page.locator('[data-testid="stMain"]').inner_text())


def test_a_round_recorded_by_taps_in_a_phones_browser(db: Path, tmp_path: Path) -> None:
    """A referee's phone (390×844) records a short round from the table's card by taps
    alone — the maze tapped itself for a card laid and for a rockfall — through a
    server killed and started again mid-round, beside a second phone that falls behind.
    The screenshots of each step go to ``$SABOTEUR_SCREENSHOTS`` (else the test's folder)."""
    screens = Path(os.environ.get("SABOTEUR_SCREENSHOTS") or tmp_path / "screens")
    screens.mkdir(parents=True, exist_ok=True)
    store = Store(db)
    (issued,) = records.issue_referee_codes(store, TOURNAMENT, 2, ["2"])
    players = [p.player for p in issued.access.players]
    a, _, _, d, e, f = players
    for run in ("first", "again"):
        (tmp_path / run).mkdir()

    def recorder() -> Recorder:
        draft = read_draft(store, GAME)
        assert draft is not None
        return Recorder(draft.lines)

    with chromium() as desktop:
        browser = desktop.context.browser  # Debian's Chromium (skipped without it); pages of a phone's size
        ref = Thumb(browser, screens, "referee")
        with serving(db, tmp_path / "first") as address:
            ref.open(address, issued.code)
            ref.page.locator(".st-key-record_begin button").wait_for()
            ref.shot("table")
            ref.tap("record_begin", then=f"record_start_{a}")
            ref.tap(f"record_start_{a}", then="record_setup_EW")
            ref.page.get_by_text("Action cards turned over before it").tap()
            ref.tap("record_turned_map", then="record_setup_EW")
            ref.tap("record_setup_EW", then="record_turn")
            ref.shot("deal")
            ref.tap("record_deal", then="record_kind_path")
            ref.tap("record_kind_path", then="record_card_NESW")
            ref.shot("path-cards")
            ref.tap("record_card_NESW", then="record_cell_1_0")
            ref.shot("legal-cells")
            ref.tap_cell(recorder(), (1, 0), then="record_draw")  # the maze itself, tapped
            ref.shot("draw")
            ref.tap("record_draw", then="record_kind_rockfall")
            ref.tap("record_kind_rockfall", then="record_cell_1_0")
            ref.tap_cell(recorder(), (1, 0), then="record_draw")  # the card that falls, tapped
            ref.tap("record_draw", then="record_kind_path")
            ref.tap("record_kind_path", then="record_card_EW")
            ref.tap("record_card_EW", then="record_other")
            ref.page.get_by_text("Another cell (as it happened)").tap()
            for axis in ("x", "y"):
                ref.page.locator(f".st-key-record_other_{axis} input").fill("5")
                ref.settled(lambda axis=axis: ref.page.locator(f".st-key-record_other_{axis} input").press("Enter"))
            ref.tap("record_other", then="record_confirm")
            ref.shot("a-rule-broken")
            assert f"R-P2 {plain_finding('illegal_placement')}" in ref.text()  # the code in plain words
            ref.tap("record_refuse", then="record_cell_1_0")  # told the table: nothing written
            ref.tap("record_cell_1_0", then="record_draw")
            lines = len(recorder().lines)
        # the server is killed mid-round and started again: nothing is lost
        with serving(db, tmp_path / "again") as address:
            ref.open(address, issued.code)
            ref.page.locator(".st-key-record_draw button").wait_for()
            assert f"line {lines}" in ref.text()
            ref.shot("after-a-restart")
            other = Thumb(browser, screens, "second-phone")
            other.open(address, issued.code)
            other.page.locator(".st-key-record_draw button").wait_for()
            ref.tap("record_draw", then="record_kind_discard")  # the first phone draws…
            other.settled(other.page.locator(".st-key-record_draw button").first.tap)  # …and the second, behind
            other.page.get_by_text("another phone recorded first").wait_for()
            other.shot("behind")
            for player, card, x in ((d, "NESW", 2), (e, "NESW", 3), (f, "EW", 5), (a, "NEW", 6)):
                assert recorder().due().player == player
                ref.tap("record_kind_path", then=f"record_card_{card}")
                ref.tap(f"record_card_{card}", then=f"record_cell_{x}_0")
                ref.tap(f"record_cell_{x}_0", then="record_draw")
                ref.tap("record_draw", then="record_kind_path")
            ref.tap("record_kind_path", then="record_card_NESW")
            ref.tap("record_card_NESW", then="record_cell_7_0")
            ref.tap("record_cell_7_0", then="record_reveal_goal_gold_printed")
            ref.shot("goal-reached")
            ref.tap("record_reveal_goal_gold_printed", then=f"record_role_{a}_gold_digger")
            roles = roles_of(players, (1, 2), 5)
            for player, role in roles.items():
                ref.tap(f"record_role_{player}_{role}", then=f"record_role_{player}_{role}")
            ref.page.locator(".st-key-record_end_round button").wait_for()
            ref.shot("round-end")
            ref.tap("record_end_round", then=f"record_start_{a}")
            ref.shot("next-round")
    seen = recorder()
    assert [f.code.value for f in seen.findings] == []
    assert seen.state.outcomes[0].winner == "gold_diggers" and seen.due().kind == "round"
    kinds = [json.loads(line)["type"] for line in seen.lines]
    assert kinds.count("play_rockfall") == 1 and kinds.count("play_path") == 7
    assert kinds.count("draw") == 7 and kinds[-2:] == ["goal_revealed", "round_ended"]
    assert sorted(p.name for p in screens.iterdir()) == sorted(
        [*(f"referee-{n:02d}-{w}.png" for n, w in enumerate(REFEREE_SHOTS, start=1)), "second-phone-01-behind.png"]
    )


REFEREE_SHOTS: Final = (
    "table",
    "deal",
    "path-cards",
    "legal-cells",
    "draw",
    "a-rule-broken",
    "after-a-restart",
    "goal-reached",
    "round-end",
    "next-round",
)


def test_the_recording_says_what_happened_in_plain_words(referee: Referee, db: Path) -> None:
    """Players by their registered names, cards and places in words, broken tools named,
    and no emoji (a phone without an emoji font draws them as empty boxes)."""
    with Store(db).connect(read_only=True) as con:
        names = dict(con.execute("SELECT player, name FROM tournament_players").fetchall())
    ref = referee
    ref.open_table()
    a, b, c, *_ = ref.live.recorder.game.players
    ref.deal(1, a, [], "NESW")
    ref.tool("break", "break_pick", c)
    assert any(f"{escape(names[c])} 5 (broken pickaxe)" in m.value for m in ref.at.markdown)
    assert any(c.value == f"Last entry: {escape(names[a] + ' draws a card')}" for c in ref.at.caption)
    ref.tap("record_kind_path")
    ref.tap("record_card_NS")
    ran(ref.at.number_input(key="record_other_x").set_value(3))
    ran(ref.at.number_input(key="record_other_y").set_value(3))
    ref.tap("record_other")  # where no path leads: the page asks first
    heading = f"{names[b]} lays a straight path (north–south) at column 3, row 3?"
    assert f"### {escape(heading)}" in [m.value for m in ref.at.markdown]
    text = page_text(ref.at) + " ".join(str(button.label) for button in ref.at.button)
    assert EMOJI.findall(text) == []
