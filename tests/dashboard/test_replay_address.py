"""The Replay page's address (issue 13): ``replay?tournament=…&game=…&round=N&step=K``
opens that step and follows each step taken; a value the store does not know falls back
with a notice, never a traceback. The Rounds page links each row to it. The replay
names players by their registered names and cards in plain words, and writes no emoji."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import card_words, replay_view
from dashboard.card_words import a_card, place_words
from dashboard.markup import escape
from dashboard.recording import words as recording_words
from dashboard.replay_view import game_view, replay_link
from events.schema import PlayPath
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.sources import stored_lines
from ingest.store import Store
from tests.dashboard.conftest import APP, TOURNAMENT, Sample, page_text, run_page, visible

GAME = "sim-open-1:r1:t2"

EMOJI = re.compile("[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2b00-\u2bff\ufe0f\U0001f000-\U0001faff]")
"""Arrows, technical signs, enclosed letters, geometric shapes, dingbats and pictographs:
characters a phone without an emoji font draws as an empty box (or as an emoji)."""


def at_address(**query: str) -> AppTest:
    """The app opened at ``replay?…``, as a browser following a shared address would."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params.update(query)
    at.switch_page("views/replay.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def step_shown(at: AppTest) -> int:
    (heading,) = [m.value for m in at.markdown if m.value.startswith("**Step ")]
    return int(heading.split()[1])


def test_an_address_opens_its_game_round_and_step_and_follows_each_step(db: Path) -> None:
    at = at_address(game=GAME, round="2", step="3")
    assert at.selectbox(key="replay_tournament").value == TOURNAMENT
    assert (at.selectbox(key="replay_game").value, at.selectbox(key="replay_round").value) == (GAME, 2)
    assert step_shown(at) == 3 and not at.warning
    assert at.query_params == {"tournament": TOURNAMENT, "game": GAME, "round": "2", "step": "3"}

    next(b for b in at.button if b.label == "Next").click().run()
    assert step_shown(at) == 4 and at.query_params["step"] == "4"  # copying the address shares step 4
    at.selectbox(key="replay_round").set_value(3).run()
    assert at.query_params["round"] == "3" and at.query_params["step"] == "0"


def test_the_address_keeps_its_language_as_the_steps_go(db: Path) -> None:
    """``?lang=de`` stays in the address the page writes for the step it shows: it was
    dropped there (the page's every run writes it), and the shared link opened in
    English."""
    at = at_address(game=GAME, round="2", step="3", lang="de")
    assert at.query_params == {"tournament": TOURNAMENT, "game": GAME, "round": "2", "step": "3", "lang": "de"}


@pytest.mark.parametrize(
    ("query", "notice", "expected"),
    [
        ({"game": "nope:r9"}, "No game 'nope:r9' is stored", None),
        ({"tournament": "<b>nope</b>", "game": GAME}, "No tournament '<b>nope</b>'", (GAME, 1, 0)),
        ({"game": GAME, "round": "99"}, "no round '99': showing round 1", (GAME, 1, 0)),
        ({"game": GAME, "round": "two"}, "no round 'two'", (GAME, 1, 0)),
        ({"game": GAME, "round": "1", "step": "-1"}, "no step '-1': showing step 0", (GAME, 1, 0)),
        ({"game": GAME, "round": "1", "step": "abc"}, "no step 'abc': showing step 0", (GAME, 1, 0)),
        ({"game": GAME, "round": "1", "step": "99999"}, "no step '99999'", (GAME, 1, -1)),
    ],
)
def test_a_bad_address_falls_back_with_a_notice(
    db: Path, query: dict[str, str], notice: str, expected: tuple[str, int, int] | None
) -> None:
    at = at_address(**query)
    warnings = " ".join(visible(w.value) for w in at.warning)
    assert notice in warnings, warnings
    if expected is not None:
        game, number, step = expected
        assert (at.selectbox(key="replay_game").value, at.selectbox(key="replay_round").value) == (game, number)
        last = int(at.slider(key="replay_step").max)
        assert step_shown(at) == (last if step == -1 else step)
    assert step_shown(at) == int(at.query_params["step"])  # the address now names what is shown


def test_the_rounds_page_links_each_round_to_its_replay(db: Path) -> None:
    at = run_page("rounds")
    table = at.dataframe[0].value
    first = table.iloc[0]
    assert first["replay"] == replay_link(first["tournament"], first["game_id"], int(first["round"]))
    query = dict(part.split("=", 1) for part in first["replay"].removeprefix("replay?").split("&"))
    assert query["round"] == str(first["round"])


def test_the_replay_names_players_and_cards_in_plain_words(db: Path, sample: Sample) -> None:
    description = json.loads((sample.logs / "tournament.json").read_text())
    names = {person["id"]: person["name"] for person in description["players"]}
    with Store(db).connect(read_only=True) as con:
        rows = con.execute(
            "SELECT type, payload, line FROM events WHERE stream = ? ORDER BY version", [f"game:{GAME}"]
        ).fetchall()
    frames = game_view(stored_lines(rows)).rounds[1].frames
    step = next(i for i, f in enumerate(frames) if isinstance(f.event, PlayPath))
    laid = frames[step].event
    assert isinstance(laid, PlayPath)
    at = at_address(game=GAME, round="1", step=str(step))
    assert set(at.dataframe[0].value["player"]) <= set(names.values())
    (heading,) = [h.value for h in at.header]
    words = f"{names[laid.player]} lays {a_card(laid.card, laid.rotated)} at {place_words((laid.x, laid.y))}"
    assert heading == escape(words) == escape(frames[step].told(names))
    ids = set(names) & set(re.findall(r"[\w-]+", page_text(at).replace(GAME, "")))
    assert not ids, [line for line in page_text(at).splitlines() if any(i in line for i in ids)]  # no player id


@pytest.mark.parametrize("page", ["replay", "record", "rounds"])
def test_the_pages_write_no_emoji(db: Path, page: str) -> None:
    at = at_address(game=GAME, round="1", step="5") if page == "replay" else run_page(page)
    if page == "replay":
        at.radio(key="replay_view").set_value("Referee").run()
    text = page_text(at) + " ".join(str(b.label) for b in at.button)
    assert EMOJI.findall(text) == []


def test_the_docstring_examples_of_the_words_run() -> None:
    for module in (card_words, replay_view, recording_words):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_the_last_step_of_a_round_names_nobody_to_act(db: Path) -> None:
    """A round that is over has nobody to act: the last step said "To act: bob (the
    round is over)" and marked bob in the table, under a column with no heading."""
    at = at_address(game=GAME, round="1", step="99999")  # falls back to the last step
    (to_act,) = [m.value for m in at.markdown if m.value.startswith("**To act:**")]
    assert to_act == "**To act:** nobody, the round is over"
    seats = at.dataframe[0].value
    assert set(seats["to act"]) == {""}
    first = at_address(game=GAME, round="1", step="1")
    assert list(first.dataframe[0].value["to act"]).count("to act") == 1


def test_the_replay_opens_on_the_tournament_the_other_pages_open_on(db: Path, tmp_path: Path) -> None:
    """With no address, the newest tournament with games, as on Standings and Players:
    Replay opened on the first tournament by id, another than the rest of the site."""
    later = tmp_path / "later"
    simulate_tournament(later, players=6, preliminary_rounds=1, seed=2, tournament_id="z-later", cut=6, final_rounds=1)
    ingest([later], Store(db), workers=1)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("views/replay.py")
    at.run()
    assert not at.exception
    assert at.selectbox(key="replay_tournament").value == "z-later"
    standings_page = run_page("standings")
    assert standings_page.selectbox(key="standings_tournament").value == "z-later"
