"""The pages for a reader who does not see them as drawn (WCAG 2.2 AA): the maze's picture
named and laid out in words, in the reader's language; its colours at their contrast; a
finding's severity in a word and an icon, not a colour alone; the charts named, their
roles told apart by shape; the path cards' buttons named by the cards; the page's
language told to the browser; and the player's tables fitting a phone.

The AppTest and XML tests read what the server sends; the last tests run one
``saboteur dashboard`` in a real headless Chromium for the module (the language attribute,
a phone's widths, what the browser makes of the picture for a screen reader)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import polars as pl
import pytest

from dashboard import charts, i18n, names
from dashboard.maze_svg import maze_svg
from dashboard.recording import entries
from dashboard.recording.maze_chart import maze_chart
from dashboard.replay_view import SEVERITY_ICONS, game_view, replay_link
from events import cards
from events.maze import Maze, tunnel
from ingest.sources import stored_lines
from ingest.store import Store
from tests.dashboard import test_browser
from tests.dashboard.conftest import TOURNAMENT, UNFINISHED, Sample, maze, run_page
from tests.dashboard.test_record import AT, Referee, phone
from tests.dashboard.test_replay_address import at_address

NS: Final = {"svg": "http://www.w3.org/2000/svg"}
GOALS: Final = {"top": "goal_stone_ne", "middle": "goal_gold", "bottom": "goal_stone_nw"}
SKIPPED_GAME: Final = "sim-open-1:final"
SKIPPED_ROUND: Final = 3
"""Where the sample's forgotten draw is (an error: :func:`tests.dashboard.conftest.sample`)."""
LANGUAGES: Final = ("en", "nl", "de", "nb")
PORTS: Final = range(8640, 8660)
"""The ports this module's server may take."""


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` (or ``#rgb``) colours."""

    def luminance(colour: str) -> float:
        hex_ = colour.lstrip("#")
        if len(hex_) == 3:
            hex_ = "".join(c * 2 for c in hex_)
        channels = [int(hex_[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    low, high = sorted((luminance(one), luminance(other)))
    return (high + 0.05) / (low + 0.05)


def a_maze() -> Maze:
    """A dealt maze with a card laid, a setup card, and two goals turned up (the gold, a stone)."""
    laid = Maze.dealt(GOALS)
    laid.place(cards.SETUP_CELL, tunnel("NESW", rotated=False))
    laid.place((1, 0), tunnel("NESx", rotated=True))
    laid.reveal("middle", rotated=False)
    laid.reveal("bottom", rotated=False)
    return laid


# -- 1. the maze's picture: named, and laid out in words -----------------------------------


def test_the_maze_is_named_and_its_cards_laid_out_in_words() -> None:
    cells = a_maze().cells
    root = ET.fromstring(maze_svg(cells, setup_cell=cards.SETUP_CELL, highlight=(1, 0)))
    assert root.get("role") == "img"
    assert root.get("aria-label") == f"The maze: {len(cells)} cards"
    described = root.findtext("svg:desc", namespaces=NS)
    assert described is not None
    # row by row from the top left, each card after the column and row the picture labels
    assert described.split("; ") == [
        "column 8, row -2: top goal, face down",
        "column 0, row 0: start card",
        f"column 1, row 0: {names.card('NESx', rotated=True)}",
        f"column 4, row 0: {names.card('NESW')} (the card in the middle)",
        f"column 8, row 0: {names.card('goal_gold')}",
        f"column 8, row 2: {names.card('goal_stone_nw')}.",
    ]
    # the public picture says no more than it shows; the referee's says what the backs hide
    assert names.card("goal_stone_ne") not in described
    referee = ET.fromstring(maze_svg(cells, show_goals=True)).findtext("svg:desc", namespaces=NS)
    assert referee is not None and f"top goal, face down ({names.card('goal_stone_ne')})" in referee


def test_the_maze_is_described_in_the_readers_language() -> None:
    with i18n.speaking("de"):
        root = ET.fromstring(maze_svg(a_maze().cells))
        sides = names.card("NESx", rotated=True)
    described = root.findtext("svg:desc", namespaces=NS)
    assert described is not None
    assert "Spalte 0, Reihe 0: Startkarte" in described
    assert f"Spalte 1, Reihe 0: {sides}" in described and "Sackgasse" in sides
    assert "Zielkarte mit dem Schatz" in described
    assert "column" not in described and "crossroads" not in described


def test_the_replay_page_describes_its_maze_in_the_readers_language(db: Path) -> None:
    at = at_address(game=SKIPPED_GAME, round=str(SKIPPED_ROUND), lang="nl")
    root = ET.fromstring(maze(at))
    described = root.findtext("svg:desc", namespaces=NS)
    assert described is not None and "kolom 0, rij 0: startkaart" in described
    laid = len(described.split("; "))
    with i18n.speaking("nl"):
        named = i18n.ngettext("The maze: %(num)d card", "The maze: %(num)d cards", laid) % {"num": laid}
    assert root.get("aria-label") == named


# -- 2. the maze's colours -------------------------------------------------------------------


def fills(root: ET.Element, tag: str) -> list[ET.Element]:
    return list(root.iterfind(f".//svg:{tag}", NS))


def test_the_mazes_words_and_its_highlight_keep_their_contrast() -> None:
    root = ET.fromstring(maze_svg(a_maze().cells, highlight=(1, 0)))
    background = fills(root, "rect")[0].get("fill")
    assert background is not None
    coordinates = [t for t in fills(root, "text") if (t.text or "").lstrip("-").isdigit()]
    assert coordinates
    assert all(contrast(str(t.get("fill")), background) >= 4.5 for t in coordinates)
    gold = next(g for g in fills(root, "g") if g.get("class") == "card goal-gold")
    face = gold.find("svg:rect", NS)
    word = gold.find("svg:text", NS)
    assert face is not None and word is not None and word.text == "GOLD"
    assert contrast(str(word.get("fill")), str(face.get("fill"))) >= 4.5
    # the cell acted on: against every colour a card or a cell beside it can have, some
    # ring of its outline stands 3:1 out (a goal's dark back as much as a light card)
    rings = [r.get("stroke") for r in fills(root, "rect") if str(r.get("class")).startswith("highlight")]
    assert rings and all(rings)
    beside = {str(r.get("fill")) for r in fills(root, "rect") if str(r.get("fill", "none")).startswith("#")}
    assert len(beside) >= 6, beside  # the page, the empty cells, the cards, a goal's back, the gold, a stone
    for colour in beside:
        assert max(contrast(str(ring), colour) for ring in rings) >= 3, colour


# -- 3. a finding's severity -----------------------------------------------------------------


def test_a_findings_severity_is_said_in_a_word_and_shown_by_an_icon(db: Path) -> None:
    with Store(db).connect(read_only=True) as con:
        rows = con.execute(
            "SELECT type, payload, line FROM events WHERE stream = ? ORDER BY version", [f"game:{SKIPPED_GAME}"]
        ).fetchall()
    ((step, found),) = game_view(stored_lines(rows)).rounds[SKIPPED_ROUND].violations
    assert found.severity == "error"
    at = run_page("replay", replay_game=SKIPPED_GAME, replay_round=SKIPPED_ROUND)
    at.slider(key="replay_step").set_value(step).run()
    (error,) = at.error
    assert error.icon == SEVERITY_ICONS["error"] and error.value.endswith(" · **error**")
    listed = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert listed == [f"- **error** · step {step} · {error.value.removesuffix(' · **error**')}"]

    # a warning: the unfinished round's log stops before its end
    at = run_page("replay", replay_tournament="(no tournament)", replay_game=UNFINISHED)
    at.slider(key="replay_step").set_value(int(at.slider(key="replay_step").max)).run()
    (warning,) = [w for w in at.warning if "(event-log.md)" in w.value]
    assert warning.icon == SEVERITY_ICONS["warning"] and warning.value.endswith(" · **warning**")
    assert SEVERITY_ICONS["warning"] != SEVERITY_ICONS["error"]

    # in the reader's language
    at = at_address(game=SKIPPED_GAME, round=str(SKIPPED_ROUND), step=str(step), lang="de")
    (error,) = at.error
    assert error.value.endswith(" · **Fehler**")


# -- 5. the charts ---------------------------------------------------------------------------


def win_rates() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "table": ["5 players, 2 sab."] * 3,
            "players": [5] * 3,
            "saboteurs": [2] * 3,
            "role": ["gold_digger", "saboteur", "selfish_dwarf"],
            "n": [40, 30, 3],
            "wins": [20, 10, 1],
            "rate": [0.5, 1 / 3, 1 / 3],
            "low": [0.35, 0.2, 0.05],
            "high": [0.65, 0.5, 0.8],
            "flagged": [False, False, True],
        }
    )


def player_rounds() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "ruleset": ["tournament"] * 3,
            "number": [1, 2, 3],
            "game_id": ["g"] * 3,
            "round": [1, 2, 3],
            "role": ["gold_digger", "saboteur", "selfish_dwarf"],
            "points": [2, 0, 3],
            "cumulative": [2, 2, 5],
            "won": [True, False, True],
            "star": [False, False, True],
        }
    )


def test_each_chart_is_named_and_its_roles_read_without_colour() -> None:
    role_chart = charts.role_win_rates(win_rates()).to_dict()
    points_chart = charts.points_over_time(player_rounds()).to_dict()
    assert role_chart["title"]["text"] == "Win rate by role and table"
    for spec in (role_chart, points_chart):
        assert isinstance(spec.get("description"), str) and len(spec["description"]) > 40
        marks = [layer for layer in spec["layer"] if layer["mark"]["type"] == "point"]
        assert marks, spec["layer"]
        for layer in marks:
            shape = layer["encoding"]["shape"]
            assert shape["field"] == "role"
            assert len(set(shape["scale"]["range"])) == 3  # a shape per role
            assert "opacity" not in layer["encoding"]  # no faint marks: a faint colour loses its contrast
        for colour in role_chart["layer"][0]["encoding"]["color"]["scale"]["range"]:
            assert contrast(colour, "#ffffff") >= 3, colour


def test_the_record_pages_maze_is_one_picture_to_a_screen_reader() -> None:
    """Vega named each of its cells ("rect mark: x: -1; y: -3; fill: #f7f3ea") and each
    card by its picture's data: address, 1,500 characters of base64: the page names the
    chart (``alt``) and nothing in it speaks."""
    spec = maze_chart(Maze.dealt({"top": "?", "middle": "?", "bottom": "?"}).cells, marks={(1, 0): "A"})
    assert spec["config"]["aria"] is False


def test_the_cells_under_the_minimum_trials_are_hollow_points() -> None:
    spec = charts.role_win_rates(win_rates()).to_dict()
    points = {layer["mark"]["filled"]: layer for layer in spec["layer"] if layer["mark"]["type"] == "point"}
    assert set(points) == {True, False}
    assert points[False]["transform"] == [{"filter": "datum.flagged"}]
    assert points[True]["transform"] == [{"filter": "!datum.flagged"}]
    assert points[False]["mark"]["strokeWidth"] >= 2


def test_the_charts_speak_the_readers_language() -> None:
    with i18n.speaking("de"):
        spec = charts.role_win_rates(win_rates()).to_dict()
    assert spec["layer"][0]["encoding"]["y"]["title"] == "Gewinnquote"
    assert spec["layer"][1]["encoding"]["shape"]["scale"]["domain"][0] == "Goldgräber"
    assert spec["description"] and spec["title"]  # through the catalogue (English until translated)


# -- 7. the Record page's path cards ---------------------------------------------------------


def test_the_path_cards_buttons_are_named_by_the_cards(
    db: Path, organiser: str, monkeypatch: pytest.MonkeyPatch, as_served: None
) -> None:
    monkeypatch.setattr(entries, "now", lambda: AT)
    ref = Referee(phone())
    ref.open_table()
    labels = {str(b.key): str(b.proto.label) for b in ref.at.button if str(b.key).startswith("record_setup_")}
    assert len(labels) == len(cards.TUNNEL_CARDS)
    for card in cards.TUNNEL_CARDS:
        label = labels[f"record_setup_{card}"]
        assert label.startswith(f"![{names.card(card)}](data:image/svg+xml;base64,"), label
    ref.tap("record_setup_NESx")
    ref.tap("record_turn")
    turn = ref.at.button(key="record_turn").proto.label
    assert turn.startswith(f"![{names.card('NESx', rotated=True)}](data:"), turn


# -- in a real browser: one server for the module ---------------------------------------------


def _port() -> int:
    """A free port of :data:`PORTS`, each of pytest-xdist's workers looking from a port of
    its own first: the module's tests may be shared out between workers, each starting a
    server, and two that took one port would each talk to the other's (stopped with it)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = int(worker) if worker.isdigit() else 0
    for offset in range(len(PORTS)):
        port = PORTS[(first + offset) % len(PORTS)]
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8640–8659")


@pytest.fixture(scope="module")
def served(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``saboteur dashboard`` over a copy of the sample store, for the whole module."""
    folder = tmp_path_factory.mktemp("access")
    db = folder / "ledger.duckdb"
    shutil.copy(sample.db, db)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(test_browser, "free_port", _port)
        with test_browser.serving(db, folder) as address:
            yield address


@pytest.fixture(scope="module")
def browser(served: str) -> Iterator[Any]:
    with test_browser.chromium() as page:
        yield page


IDLE: Final = (
    "() => document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') === 'notRunning'"
)


def speaks(page: Any, language: str) -> None:
    """The page's ``<html lang>`` becomes ``language`` (within 15 s), else fail saying what it is."""
    try:
        page.wait_for_function(f"document.documentElement.lang === {language!r}", timeout=15_000)
    except Exception:  # Playwright's TimeoutError: say what the page says instead
        assert page.evaluate("document.documentElement.lang") == language, page.url


def opened(page: Any, address: str, ready: str) -> None:
    """``address`` opened, its run over, ``ready`` (a selector) on the page."""
    page.goto(address)
    page.locator(ready).first.wait_for()
    page.wait_for_function(IDLE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_tells_the_browser_its_language(served: str, browser: Any, language: str) -> None:
    """``<html lang>`` is the page's language on every page (public, organiser's, a page
    that stops early), on a phone as on a desktop."""
    for width, path in ((1400, ""), (1400, "players"), (1400, "replay"), (1400, "upload"), (360, "round")):
        browser.set_viewport_size({"width": width, "height": 900})
        opened(browser, f"{served}/{path}?lang={language}", "h1")
        speaks(browser, language)


def test_each_page_names_itself_in_the_browsers_title_in_its_language(served: str, browser: Any) -> None:
    """WCAG 2.4.2: the tab says which page it shows, in the page's words: every page
    was "Saboteur Ledger" alike, where the referee's page names itself."""
    browser.set_viewport_size({"width": 1400, "height": 900})
    for path, language, title in (("", "nb", "Resultatliste"), ("players", "de", "Spieler"), ("round", "en", "Round")):
        opened(browser, f"{served}/{path}?lang={language}", "h1")
        browser.wait_for_function(f"document.title === {title + ' · Saboteur Ledger'!r}", timeout=15_000)
    browser.get_by_role("link", name="Rounds").click()
    browser.wait_for_function("document.title === 'Rounds · Saboteur Ledger'", timeout=15_000)


def test_a_browser_set_to_dark_gets_the_light_page_its_colours_were_chosen_against(served: str, browser: Any) -> None:
    """The roles' marks, the maze and the severities stand 3:1 and more against a light
    page; Streamlit's dark theme, which a browser set to dark got, put the saboteur's red
    at 2.4:1 against its background."""
    browser.emulate_media(color_scheme="dark")
    try:
        opened(browser, f"{served}/players", "h1")
        colour = browser.evaluate("getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor")
    finally:
        browser.emulate_media(color_scheme="light")
    red, green, blue = (int(part) for part in re.findall(r"\d+", colour)[:3])
    assert min(red, green, blue) > 230, colour


CHART_WORDS: Final = """() => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg [aria-label]')]
  .filter((e) => !e.closest('[aria-hidden=true]')).map((e) => e.getAttribute('aria-label'))"""


@pytest.mark.parametrize(("path", "said"), [("roles", " gewonnen (95%-interval "), ("players", " punten, ")])
def test_a_charts_marks_say_what_they_show_in_the_readers_language(
    served: str, browser: Any, path: str, said: str
) -> None:
    """Vega named every mark, axis and legend itself, in English and by the frame's
    columns ("upper_low: 0.385753653989; role: goudzoeker", "gewonnen: false"): a point
    says what it shows in a sentence of the page's language, and nothing else speaks."""
    browser.set_viewport_size({"width": 1400, "height": 900})
    opened(browser, f"{served}/{path}?lang=nl", "[data-testid=stVegaLiteChart] svg")
    browser.wait_for_function(f"({CHART_WORDS})().length > 1")
    labels = browser.evaluate(CHART_WORDS)
    assert all(said in label for label in labels), labels  # each point, in Dutch
    assert not [label for label in labels if re.search(r"[a-z_]+: |false|true|axis|legend", label)], labels


def test_a_changed_language_is_told_to_the_browser(served: str, browser: Any) -> None:
    """Within one document: to another page, and another language picked."""
    browser.set_viewport_size({"width": 1400, "height": 900})
    opened(browser, f"{served}/round?lang=de", "h1")
    speaks(browser, "de")
    browser.get_by_role("link", name="Spieler").click()
    browser.get_by_role("heading", name="Spieler").wait_for()
    speaks(browser, "de")
    box = browser.locator(f".st-key-{i18n.KEY}").get_by_role("combobox")
    test_browser.choose(browser, box, browser.get_by_role("option", name=i18n.LANGUAGES["nb"]))
    browser.get_by_role("heading", name="Spillere").wait_for()
    speaks(browser, "nb")


TABLES: Final = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const width = document.documentElement.clientWidth;
  return {
    tables: [...main.querySelectorAll('table')].map((t) => Math.round(t.getBoundingClientRect().right)),
    width, scrolls: main.scrollWidth > main.clientWidth || document.documentElement.scrollWidth > width,
  };
}"""


SETTLED: Final = f"""() => {{
  const seen = ({TABLES})();
  return seen.tables.length > 0 && !seen.scrolls && Math.max(...seen.tables) <= seen.width;
}}"""
"""Whether the page has laid its tables out within the screen: a page's run may be over a
moment before its layout has settled (right after a page was opened, a Dutch table
stood at 388 px on a 360 px phone, and at 344 px three seconds later)."""


def test_the_players_tables_fit_a_phone_in_every_language(served: str, browser: Any) -> None:
    """The tables a player sat at, at 320, 360 and 390 px: none runs past the screen, and
    the page does not scroll sideways, once its layout has settled (within 10 s)."""
    too_wide: dict[str, object] = {}
    for language in LANGUAGES:
        for width in (320, 360, 390):
            browser.set_viewport_size({"width": width, "height": 800})
            opened(browser, f"{served}/players?tournament={TOURNAMENT}&lang={language}", "[data-testid=stMain] table")
            with contextlib.suppress(Exception):  # Playwright's TimeoutError: the widths are told as they are then
                browser.wait_for_function(SETTLED, timeout=10_000)
            seen = browser.evaluate(TABLES)
            assert seen["tables"], (language, width)
            if seen["scrolls"] or max(seen["tables"]) > seen["width"]:
                too_wide[f"{language} {width}"] = seen
    assert too_wide == {}


MAZE_NODE: Final = "Das Labyrinth: "  # the picture's name in German, as the page is asked


def test_a_screen_reader_gets_the_mazes_name_and_layout(served: str, browser: Any) -> None:
    """What Chromium hands a screen reader for the picture: an image, its name, and the
    cards laid out in its description, in the page's language."""
    browser.set_viewport_size({"width": 1400, "height": 900})
    opened(browser, f"{served}/{replay_link(TOURNAMENT, SKIPPED_GAME, 1, 3)}&lang=de", "svg.maze")
    session = browser.context.new_cdp_session(browser)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    found = [
        node
        for node in nodes
        if str(node.get("name", {}).get("value", "")).startswith(MAZE_NODE)
        and node.get("role", {}).get("value") == "image"
    ]
    assert len(found) == 1, [n.get("name") for n in nodes if n.get("role", {}).get("value") == "image"]
    described = str(found[0].get("description", {}).get("value", ""))
    assert "Spalte 0, Reihe 0: Startkarte" in described, described
    assert "obere Zielkarte" in described, described


HEADINGS: Final = """() => [...document.querySelectorAll('[data-testid=stMain] :is(h1, h2, h3, h4, h5, h6)')]
  .filter((h) => h.getClientRects().length)
  .map((h) => [Number(h.tagName[1]), h.textContent.trim(), parseFloat(getComputedStyle(h).fontSize)])"""
SIZES: Final = {1: 44.0, 2: 28.0, 3: 24.0}
"""A heading's size in CSS pixels at each level: a section's and what is under it keep the
sizes they had at the levels below (Streamlit's third and fourth)."""
PUBLIC_PAGES: Final = (
    "",
    "round",
    "tables",
    "roles",
    f"players?tournament={TOURNAMENT}",
    "rounds",
    f"replay?tournament={TOURNAMENT}",
    replay_link(TOURNAMENT, SKIPPED_GAME, 1, 3),
)


SIZED: Final = """() => [...document.querySelectorAll('[data-testid=stMain] :is(h2, h3)')]
  .every((h) => [28, 24][Number(h.tagName[1]) - 2] === parseFloat(getComputedStyle(h).fontSize))"""


def headings_of(page: Any) -> list[list[Any]]:
    """The page's headings, once the page's style has come (within 10 s: a style of
    ``st.html`` may come a moment after the elements it sizes)."""
    with contextlib.suppress(Exception):  # Playwright's TimeoutError: the sizes are told as they are
        page.wait_for_function(SIZED, timeout=10_000)
    found: list[list[Any]] = page.evaluate(HEADINGS)
    return found


def skipped_levels(headings: list[list[Any]]) -> list[str]:
    """Each heading that comes more than one level under the one before it, or stands at
    another size than its level's, named with its text."""
    skipped, level = [], 0
    for depth, text, size in headings:
        if depth > level + 1:
            skipped.append(f"h{depth} {text!r} after h{level}")
        if SIZES.get(depth, size) != size:
            skipped.append(f"h{depth} {text!r} at {size} px")
        level = depth
    return skipped


def test_a_pages_headings_go_down_one_level_at_a_time(served: str, browser: Any) -> None:
    """A screen reader's user moves through a page by its headings, level by level (WCAG
    1.3.1): the pages went from their title (h1) to their sections at h3, and a table in
    play's picture at h4, so a section read as a sub-sub-section of nothing."""
    browser.set_viewport_size({"width": 1400, "height": 900})
    found: dict[str, list[str]] = {}
    for path in PUBLIC_PAGES:
        opened(browser, f"{served}/{path}", "h1")
        headings = headings_of(browser)
        assert headings and headings[0][0] == 1, (path, headings)
        if skipped := skipped_levels(headings):
            found[path] = skipped
    test_browser.signed_in(browser, served, "/upload")
    for path in ("upload", "audit", "record"):
        opened(browser, f"{served}/{path}", "h1")
        if skipped := skipped_levels(headings_of(browser)):
            found[path] = skipped
    assert not found, "\n".join(f"{path}: {skipped}" for path, skipped in found.items())
