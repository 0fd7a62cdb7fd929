"""The tables in play (issue 12, last point): everyone else sees each game being recorded
at its table — the maze, whose turn it is, the hands and the pile counted — and nothing
the table cannot see; and the standings as each game ends, without reloading.

The game recorded is the sample tournament's held-back game (round 2, table 2), as its
observed log, line by line into its draft in a real store, as the recording page writes
it. The pages refresh by themselves (``dashboard.live``: a fragment with ``run_every``);
AppTest has no clock to fire it, so a test runs the page again, which runs the same
fragment with the same choices (the timer itself is shown in a real browser:
``test_browser.py``).
"""

from __future__ import annotations

import doctest
import json
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import table_view, widgets
from dashboard.markup import escape
from dashboard.maze_svg import maze_svg
from dashboard.replay_view import WINNERS, game_view
from dashboard.table_view import by_name
from events import cards
from events.logfile import parse_lines
from events.observe import observe
from events.recorder import Recorder
from events.tables import ROLES
from ingest.drafts import Draft, drafts, finish_draft, read_draft, record_line, start_draft
from ingest.store import Store
from tests.dashboard.conftest import (
    HELD_BACK,
    HOSTILE_NAMES,
    TOURNAMENT,
    Hostile,
    Sample,
    markdown_tables,
    maze,
    page_text,
    record_at_once,
    run_page,
    visible,
)
from tests.dashboard.test_hostile_text import plain_text
from tests.dashboard.test_pages import metric
from tests.ingest.observed_logs import NOTE, note_line

pytestmark = pytest.mark.usefixtures("as_served")  # the page as saboteur dashboard serves it

GAME: Final = "sim-open-1:r2:t2"
"""The held-back game: round 2, table 2 of the sample tournament."""
CARD_NAMES: Final = frozenset(cards.DECK_CARDS | set(cards.GOAL_SIDES))
ROLE_WORDS: Final = (*ROLES, *(role.replace("_", " ") for role in ROLES))


def table_lines(sample: Sample) -> list[str]:
    """The held-back game's observed log: what its referee records, line by line."""
    return observe(sample.held_back.read_bytes()).decode().splitlines()


def names(sample: Sample) -> dict[str, str]:
    """The display names of the tournament's description."""
    described = json.loads((sample.logs / "tournament.json").read_text())
    return {person["id"]: person["name"] for person in described["players"]}


def recorded(db: Path, lines: Sequence[str], draft: Draft | None = None) -> Draft:
    """The draft with ``lines`` recorded (those it holds already skipped), at once."""
    return record_at_once(Store(db), GAME, lines, draft)


def tables(**state: object) -> AppTest:
    return run_page("tables", **state)


def turn_heading(at: AppTest) -> str:
    """What the table does now (the heading above its maze), as a reader sees it."""
    (heading,) = [m.value for m in at.markdown if m.value.startswith("### ")]
    return visible(heading.removeprefix("### "))


def seat_rows(at: AppTest) -> dict[str, list[str]]:
    """The seats of the (first) table shown, by column: seat, player, cards, broken —
    as a reader sees them."""
    header, *rows = markdown_tables(at)[0]
    assert len(header) == 4, header
    columns = ("seat", "player", "cards", "broken")
    return {column: [row[i] for row in rows] for i, column in enumerate(columns)}


def choices(at: AppTest) -> tuple[object, object]:
    """The tournament and the stage chosen on the standings."""
    return at.selectbox(key="standings_tournament").value, at.radio(key="standings_stage").value


def cards_shown(text: str) -> set[str]:
    """Every card's name on the page (a laid card's title, a map's goal…)."""
    return {name for name in CARD_NAMES if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)}


# -- a table in play -------------------------------------------------------------------


def test_a_table_in_play_shows_its_maze_whose_turn_and_the_counts(db: Path, sample: Sample) -> None:
    lines = table_lines(sample)[:20]
    recorded(db, lines)
    at = tables()
    assert [t.value for t in at.title] == ["Tables in play"]
    assert [s.value for s in at.header] == ["Table 2"]
    assert any(c.value.startswith("Simulated Open 1 · round 2 · preliminary · ") for c in at.caption)

    recorder = Recorder(lines)
    due = recorder.due()
    named = names(sample)
    assert due.kind == "turn" and due.player is not None
    assert turn_heading(at) == f"▶ {named[due.player]}'s turn"
    seats = seat_rows(at)
    assert seats["player"] == [("▶ " if p == due.player else "") + named[p] for p in recorder.game.players]
    assert seats["cards"] == [str(n) for n in recorder.hand_counts().values()]
    assert metric(at, "Draw pile") == str(recorder.pile_count())
    assert metric(at, "Round") == "1 of 3"
    assert [visible(h) for h in markdown_tables(at)[0][0]] == ["seat", "player", "cards", "broken tools"]

    # the same picture the Replay draws of that step, goals face down
    frames = game_view(parse_lines(lines)).rounds[1].frames
    (frame,) = [f for f in frames if f.line == len(lines) and f.kind != "end_of_log"]
    svg = maze(at)
    assert svg == maze_svg(frame.cells, setup_cell=frame.setup_cell, highlight=frame.acted_on)
    assert svg.count('class="card goal-back"') == 3 and 'data-card="goal' not in svg
    assert any(m.value == f"**Last:** {escape(by_name(frame.public, named))}" for m in at.markdown)
    assert named[frame.public.split()[0]] in by_name(frame.public, named)  # who did it, by name


def test_no_hidden_card_ever_shows_while_the_game_is_recorded(db: Path, sample: Sample) -> None:
    """Line after line: every card named on the page is one the observed log names (a
    card laid, a setup card turned over, a goal turned up), never a card in a hand, one
    drawn or passed, or a goal still face down; and no role, ever (the round's end
    names the side that won, not who played it)."""
    lines = table_lines(sample)
    full = sample.held_back.read_text().splitlines()
    ends = [number for number, line in enumerate(lines, 1) if '"round_ended"' in line]
    steps = [*range(1, ends[0] + 2), *range(ends[-1] - 25, len(lines) + 1)]  # round 1; round 3 with its reveals
    draft: Draft | None = None
    at: AppTest | None = None
    teeth = turned = 0
    for step in steps:
        draft = recorded(db, lines[:step], draft)
        if at is None:
            at = tables()
        else:
            at.run()  # the page's refresh, as its fragment's timer runs it
        assert not at.exception, [e.value for e in at.exception]
        text = page_text(at)
        public = " ".join(lines[:step])
        assert cards_shown(text) <= cards_shown(public), step
        teeth += bool(cards_shown(" ".join(full[:step])) - cards_shown(public))
        said = text
        for won in WINNERS.values():
            said = said.replace(won, "")
        assert not [word for word in ROLE_WORDS if word in said], step
        if step > 1:  # a round is dealt: its goals face down but those turned up since
            svg = maze(at)
            face_up = [line for line in lines[_last_deal(lines[:step]) : step] if '"goal_revealed"' in line]
            assert svg.count('class="card goal-back"') == 3 - len(face_up), step
            assert svg.count('data-card="goal') == len(face_up), step
            turned = max(turned, len(face_up))
        recorder = Recorder(lines[:step])
        assert metric(at, "Draw pile") == str(recorder.pile_count()), step
        assert seat_rows(at)["cards"] == [str(n) for n in recorder.hand_counts().values()], step
    assert teeth > len(steps) // 2  # the full log named cards that the page never showed
    assert turned == 2  # and the goals turned up did show, as the table saw them


def _last_deal(lines: Sequence[str]) -> int:
    """The index of the last ``round_started`` line."""
    return max(index for index, line in enumerate(lines) if '"round_started"' in line)


def test_a_line_recorded_between_two_runs_shows_at_the_next_and_the_choices_stay(db: Path, sample: Sample) -> None:
    lines = table_lines(sample)
    named = names(sample)
    draft = recorded(db, lines[:20])
    at = tables(tables_tournament=TOURNAMENT, tables_round="2")
    player = Recorder(lines[:20]).due().player
    assert player is not None
    assert turn_heading(at) == f"▶ {named[player]}'s turn"
    pile = int(metric(at, "Draw pile"))

    draft = recorded(db, lines[:21], draft)  # the player lays a card…
    at.run()
    assert turn_heading(at) == f"▶ {named[player]} draws a card"
    assert metric(at, "Draw pile") == str(pile)
    recorded(db, lines[:22], draft)  # …and draws
    at.run()
    after = Recorder(lines[:22]).due()
    assert after.player is not None and after.player != player
    assert turn_heading(at) == f"▶ {named[after.player]}'s turn"
    assert metric(at, "Draw pile") == str(pile - 1)
    assert at.selectbox(key="tables_tournament").value == TOURNAMENT
    assert at.selectbox(key="tables_round").value == "2"

    assert "5" not in at.selectbox(key="tables_round").options
    later = {**json.loads(lines[0]), "game_id": "sim-open-1:r5:t9", "tournament_round": 5, "table": "9"}
    start_draft(Store(db), later["game_id"], json.dumps(later))  # a table of another round begins
    at.run()
    assert "5" in at.selectbox(key="tables_round").options
    assert at.selectbox(key="tables_round").value == "2"  # the round chosen stays chosen
    assert [s.value for s in at.header] == ["Table 2"]

    at.selectbox(key="tables_round").set_value("1").run()  # no table of round 1 is in play
    assert [i.value for i in at.info] and not at.header
    at.selectbox(key="tables_tournament").set_value(widgets.ALL).run()
    assert [s.value for s in at.header] == ["Table 2", "Table 9"]


def test_a_finished_game_leaves_the_tables_and_shows_in_the_standings(db: Path, sample: Sample) -> None:
    lines = table_lines(sample)
    draft = recorded(db, lines)
    at = tables()
    assert turn_heading(at) == "the game is over: its record is being taken in"
    standings = run_page()
    chosen = choices(standings)
    assert metric(standings, "Games") == "3"  # a draft is no stored game

    _, result = finish_draft(Store(db), draft, HELD_BACK)
    assert result.outcome in ("accepted", "accepted_with_findings")
    finished = read_draft(Store(db), GAME)
    assert finished is not None and finished.finished

    at.run()
    assert not at.header
    assert any("No table is being recorded now" in i.value for i in at.info)
    standings.run()  # nothing chosen anew: the standings' own refresh
    assert not standings.exception
    assert choices(standings) == chosen
    assert metric(standings, "Games") == "4"
    assert metric(standings, "Rounds") == str(3 * 4)


def test_the_standings_keep_the_stage_chosen_while_they_refresh(db: Path, sample: Sample) -> None:
    standings = run_page()
    standings.radio(key="standings_stage").set_value("final").run()
    recorded(db, table_lines(sample)[:5])  # the store changes under the page
    standings.run()
    assert standings.radio(key="standings_stage").value == "final"
    assert metric(standings, "Cut") == "final table"


# -- what the public never sees ------------------------------------------------------------


def test_a_referees_note_is_named_but_its_words_never_show(db: Path, sample: Sample) -> None:
    lines = table_lines(sample)[:8]
    noted = json.loads(lines[0])["players"][1]
    recorded(db, [*lines, note_line(noted)])
    at = tables()
    text = page_text(at)
    assert NOTE not in text and escape(NOTE) not in text
    flagged = [visible(m.value) for m in at.markdown if "(R-C1)" in m.value]  # table_incident, in plain words
    assert flagged == [f"line 9 · the referee noted an incident at the table (R-C1) · {names(sample)[noted]}"]


def test_a_draft_that_is_no_observed_log_is_not_shown(db: Path, sample: Sample) -> None:
    """A full log names every hand: a draft begun with one stays off the public page."""
    full = sample.held_back.read_text().splitlines()
    store = Store(db)
    record_line(store, start_draft(store, GAME, full[0]), full[1])
    at = tables()
    assert not at.header and not markdown_tables(at)
    assert any("No table is being recorded now" in i.value for i in at.info)
    dealt = json.loads(full[1])["hands"]
    assert not cards_shown(page_text(at)) & {card for hand in dealt.values() for card in hand}


def test_the_page_opens_on_every_tournament_while_a_table_is_recorded(db: Path, sample: Sample) -> None:
    """It opened on the newest tournament with games: the first tables of a tournament
    with none stored yet were "no table is being recorded"."""
    recorded(db, table_lines(sample)[:12])
    at = tables()
    assert at.selectbox(key="tables_tournament").value == "(all)"
    assert [s.value for s in at.header] == ["Table 2"]


def test_no_table_is_being_recorded(db: Path) -> None:
    at = tables()
    assert not at.exception
    assert any("No table is being recorded now" in i.value for i in at.info)


def test_display_names_written_as_markdown_show_as_text(hostile: Hostile, sample: Sample) -> None:
    lines = table_lines(sample)
    players = json.loads(lines[0])["players"]
    hostile_names = dict(zip(hostile.players, HOSTILE_NAMES, strict=True))
    seated = [p for p in players if p in hostile_names]
    assert seated  # the held-back table seats players named in Markdown
    step = next(n for n in range(2, len(lines)) if Recorder(lines[:n]).due().player in seated)
    recorded(hostile.db, lines[:step])
    at = tables()
    text = plain_text(at)  # no link, image or HTML made of a name
    due = Recorder(lines[:step]).due()
    assert due.player is not None and hostile_names[due.player] in text  # whose turn, by name
    seats = [player.removeprefix("▶ ") for player in seat_rows(at)["player"]]
    assert [seats[players.index(p)] for p in seated] == [hostile_names[p] for p in seated]


@pytest.mark.parametrize(("step", "doing"), [(1, "the first round is being dealt"), (31, "round 2 is being dealt")])
def test_between_rounds_the_table_is_being_dealt(db: Path, sample: Sample, step: int, doing: str) -> None:
    recorded(db, table_lines(sample)[:step])
    at = tables()
    assert turn_heading(at) == doing
    if step == 1:
        assert any(c.value == "No round is dealt yet." for c in at.caption)
        assert metric(at, "Round") == "–"


def test_the_docstring_examples_run() -> None:
    result = doctest.testmod(table_view)
    assert result.failed == 0 and result.attempted > 0


def test_a_live_part_says_the_store_is_busy_where_it_stands() -> None:
    """A run of the part alone is not inside the entry file's handling of a busy store:
    the part says it itself, without the server's path, and the page goes on."""

    def page() -> None:
        from pathlib import Path

        import streamlit as st

        from dashboard.live import live
        from ingest.store import StoreBusy

        @live
        def part() -> None:
            raise StoreBusy(Path("/srv/ledger.duckdb"), "database busy: another process is using the file")

        part()
        st.caption("after the part")

    at = AppTest.from_function(page).run()
    assert not at.exception
    (busy,) = [i.value for i in at.info]
    assert "busy" in busy and "/srv" not in busy
    assert [c.value for c in at.caption] == ["after the part"]


def test_the_sidebar_switch_stops_the_updates_and_starts_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """WCAG 2.2.2: a part that updates itself can be paused. A screen reader's user, or
    anyone reading a long table on a phone, had the page change under them every 5
    seconds with no way to stop it. The sidebar's switch stops the runs (the fragment
    gets no ``run_every``), the part says so, and the same switch starts them again."""
    import streamlit as st

    runs: list[float | None] = []
    fragment = st.fragment

    def counted(body: Any, *, run_every: float | None = None) -> Any:
        runs.append(run_every)
        return fragment(body, run_every=run_every)

    monkeypatch.setattr(st, "fragment", counted)

    def page() -> None:
        import streamlit as st

        from dashboard.live import live

        @live
        def part() -> None:
            st.markdown("the tables")

        part()

    at = AppTest.from_function(page).run()
    assert runs[-1] == 5.0 and at.sidebar.toggle(key="live_switch").value
    at.sidebar.toggle(key="live_switch").set_value(False).run()
    assert runs[-1] is None
    assert any(c.value.startswith("Updates stopped (the switch in the sidebar)") for c in at.caption), at.caption
    at.sidebar.toggle(key="live_switch").set_value(True).run()
    assert runs[-1] == 5.0
    assert any(c.value.startswith("Last updated") for c in at.caption)


def test_pages_reading_and_a_phone_recording_in_one_server_both_go_on(db: Path, sample: Sample) -> None:
    """The recording page writes the draft in the same server process whose public pages
    read it every few seconds: DuckDB refuses a second connection of the other mode in
    one process while the first is open, which the store waits out as it waits for
    another process, so neither side fails."""
    lines = table_lines(sample)[:40]
    failed: list[Exception] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            try:
                drafts(Store(db, wait=15))
            except Exception as exc:  # whatever it is, the test names it
                failed.append(exc)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        draft = recorded(db, lines)
    finally:
        done.set()
        watcher.join()
    assert failed == [] and list(draft.lines) == lines
