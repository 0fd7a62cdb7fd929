"""End to end in a real headless Chromium: ``saboteur dashboard`` serves the app, the
organiser logs in and uploads a log, and the standings change; names and log text
written as Markdown show as text, neither links nor images.

Debian's ``chromium`` is driven by Playwright through ``executable_path`` (Playwright's
own browser download is not used). Skipped when either is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from analytics.standings import standings
from dashboard import access, widgets
from dashboard.markup import JOINER, escape
from events.observe import observe
from events.recorder import Recorder
from ingest.drafts import finish_draft, record_line
from ingest.store import Store
from tests.dashboard.conftest import (
    HELD_BACK,
    HOSTILE_NAMES,
    IMAGE,
    LINK,
    PASSWORD,
    TOURNAMENT,
    Hostile,
    Sample,
    record_at_once,
    shown,
    stored,
)
from tests.dashboard.test_tables import GAME
from tests.venue.server import free_port, saboteur_command

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.contextmanager
def serving(db: Path, tmp_path: Path) -> Iterator[str]:
    """``saboteur dashboard --db … --port …`` running; its address."""
    port = free_port()
    command = saboteur_command()
    env = {**os.environ, "SABOTEUR_ADMIN_PASSWORD": PASSWORD, "HOME": str(tmp_path)}
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [*command, "dashboard", "--db", str(db), "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
        start_new_session=True,
    )
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{address}/_stcore/health", timeout=1) as answer:
                    if answer.read() == b"ok":
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("the dashboard did not start:\n" + (tmp_path / "server.log").read_text())
            time.sleep(0.2)
        yield address
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server's own session: nothing is left behind
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


@pytest.fixture
def served(db: Path, tmp_path: Path) -> Iterator[str]:
    """The dashboard over this test's copy of the sample store."""
    with serving(db, tmp_path) as address:
        yield address


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A page in Debian's headless Chromium (the test is skipped without it)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(30_000)
            yield page
        finally:
            browser.close()


def signed_in(page: Any, address: str, path: str) -> None:
    """``page`` on the dashboard's ``path`` (``/audit``), signed in as the organiser, its
    cookie kept (another address opened next finds the organiser signed in)."""
    page.goto(f"{address}{path}")
    page.get_by_label("Organiser password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_text("Signed in as the organiser.").wait_for()
    organiser_cookie(page)


def organiser_cookie(page: Any, *, kept: bool = True, within: float = 15.0) -> dict[str, Any] | None:
    """The browser's organiser cookie once it is there (``kept``), or once it is gone:
    the server sets and clears it in the answer to a post of the page
    (:mod:`dashboard.handover`), a moment after the page is drawn."""
    deadline = time.monotonic() + within
    while True:
        found = [c for c in page.context.cookies() if c["name"] == access.COOKIE]
        if bool(found) == kept or time.monotonic() > deadline:
            assert bool(found) == kept, found
            return found[0] if found else None
        page.wait_for_timeout(100)


def test_the_organiser_uploads_a_log_and_the_standings_change(served: str, sample: Sample, tmp_path: Path) -> None:
    """And the pages ask nothing of any server but the dashboard's: the tab's icon, a
    Material icon, was fetched from Google's font server by every visitor (their visit
    and the dashboard's address told a third party; a hall with no internet had none)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    asked: list[str] = []
    with chromium() as page:
        page.on("request", lambda request: asked.append(request.url))
        games = page.locator('[data-testid="stMetric"]').filter(has_text="Games")

        answer = page.goto(served)  # the default page: Standings
        page.get_by_text("The record's integrity").wait_for()
        sync_api.expect(games.locator('[data-testid="stMetricValue"]')).to_have_text("3")
        with urllib.request.urlopen(f"{served}/referee", timeout=10) as referee:  # the referee's routes too
            for headers in (answer.headers, {k.lower(): v for k, v in referee.headers.items()}):
                # no other site frames a page (an organiser's, under its own buttons), nor is told an address
                assert headers["content-security-policy"] == "frame-ancestors 'self'", headers
                assert (headers["x-frame-options"], headers["referrer-policy"]) == ("SAMEORIGIN", "same-origin")
                assert headers["x-content-type-options"] == "nosniff"

        page.goto(f"{served}/upload")
        page.get_by_label("Organiser password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.locator('input[type="file"]').set_input_files(str(sample.held_back))
        page.get_by_text(sample.held_back.name).first.wait_for()
        page.get_by_role("button", name="Ingest").click()
        page.get_by_text(f"{sample.held_back.name}: accepted").wait_for()

        page.goto(served)  # the default page: Standings
        page.get_by_text("The record's integrity").wait_for()
        sync_api.expect(games.locator('[data-testid="stMetricValue"]')).to_have_text("4")
        page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
    assert (tmp_path / "standings.png").stat().st_size > 10_000
    assert [url for url in asked if not url.startswith((served, "data:", "blob:"))] == []


def made_by_hostile_text(page: Any) -> list[str]:
    """Links, images, formulas and emphasis on the page that the hostile text made."""
    main = page.locator('[data-testid="stMain"]')
    made = [str(a.get_attribute("href")) for a in main.locator('a[href*="example.invalid"]').all()]
    made += [str(i.get_attribute("src")) for i in main.locator('img[src*="example.invalid"]').all()]
    return made + main.locator(".katex, strong:text-is('Bold'), em:text-is('Ann'), b:text-is('html')").all_inner_texts()


def seen(page: Any) -> str:
    """The text of the page as a reader sees it (the invisible word joiners taken out)."""
    return str(page.locator('[data-testid="stMain"]').inner_text()).replace(JOINER, "")


def listed(page: Any, box: Any, option: Any, tries: int = 3) -> None:
    """Open the select box ``box`` until ``option`` shows in its list. On a busy machine
    a click as the page settles (a run redrawing the box) opens no list (a fresh clone's
    CI, three times in two tests): the box is clicked again, up to ``tries`` times."""
    timeout = pytest.importorskip("playwright.sync_api").TimeoutError
    for attempt in range(tries):
        box.click()
        try:
            option.wait_for(timeout=10_000)
            return
        except timeout:
            if attempt == tries - 1:
                raise
            page.keyboard.press("Escape")


def choose(page: Any, box: Any, option: Any) -> None:
    """Pick ``option`` in the select box ``box``, as a reader does (see ``listed``)."""
    listed(page, box, option)
    option.click()


def until_seen(page: Any, text: str, timeout: float = 30.0) -> None:
    """Wait until ``text`` is in what a reader sees. Streamlit keeps the last run's
    elements on the page until the new run replaces them, so one new element showing
    (a step's caption) does not mean the rest has been redrawn yet."""
    deadline = time.monotonic() + timeout
    while text not in (now := seen(page)) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert text in now


def test_the_standings_are_not_sent_again_while_they_stay_the_same(served: str, db: Path) -> None:
    """The standings' live part looks every few seconds whether they changed (a game
    that ends shows by itself: the phone's test below); while they stay the same, a
    refresh sends its "Last updated" line and nothing of the standings. Each refresh
    sent the table and every player's "why" anew: with 2,000 players some 2,400
    messages, 0.6 MB, every 5 s, to every reader."""
    names = [name.encode() for name in standings(Store(db), TOURNAMENT)["name"]]
    received: list[bytes] = []
    with chromium() as page:
        page.on(
            "websocket",
            lambda socket: socket.on(
                "framereceived", lambda got: received.append(got if isinstance(got, bytes) else got.encode())
            ),
        )
        page.goto(served)  # Standings
        page.get_by_text("The record's integrity").wait_for()
        assert any(names[0] in frame for frame in received)  # drawn once, when the page runs
        updated = page.get_by_text("Last updated")

        def refreshed() -> None:
            before = updated.inner_text()
            deadline = time.monotonic() + 30
            while updated.inner_text() == before and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            assert updated.inner_text() != before, "the live part did not refresh"

        refreshed()
        start = len(received)
        refreshed()  # every message of one refresh since
        refresh = received[start:]
    assert refresh and not [name for name in names if any(name in frame for frame in refresh)]


def test_hostile_names_and_log_text_show_as_text_in_a_browser(hostile: Hostile, tmp_path: Path) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    with serving(hostile.db, tmp_path) as address, chromium() as page:
        page.goto(address)  # Standings, with "why ranked here" by name
        page.get_by_text("Why each player is ranked here").click()
        page.get_by_text("top of the table").first.wait_for()
        for name in HOSTILE_NAMES:
            until_seen(page, f"{name}: ")
        assert made_by_hostile_text(page) == []

        for player, name in zip(hostile.players, HOSTILE_NAMES, strict=True):
            page.goto(f"{address}/players")
            page.get_by_text("Points over time").wait_for()
            box = page.locator('[data-testid="stMain"] [data-testid="stSelectbox"]').first  # not the sidebar's
            choose(page, box, page.get_by_role("option", name=f"{name} ({player})"))
            as_shown = shown(escape(name)).text  # the name, with its invisible word joiners
            expect(page.get_by_role("heading", level=2).first).to_have_text(as_shown, timeout=30_000)
            assert made_by_hostile_text(page) == []

        page.goto(f"{address}/replay")
        page.get_by_text("Draw pile").wait_for()
        choose(page, page.get_by_role("combobox", name="Tournament"), page.get_by_role("option", name=widgets.NONE))
        # the hostile game, the only one of no tournament (its players are ann, bob, …)
        page.get_by_text("ann starts").wait_for()
        for step, quoted in ((1, f"'{LINK}' is not a tunnel card"), (2, f"'{IMAGE}' is not an allowed value")):
            page.get_by_role("button", name="Next").click()
            page.get_by_text(f"Step {step} of").wait_for()
            until_seen(page, quoted)
        assert made_by_hostile_text(page) == []


# -- the tables in play, on a phone (issue 12) ------------------------------------------------

PHONE = {"width": 390, "height": 844}


def screenshot(page: Any, tmp_path: Path, name: str) -> Path:
    """The page as it shows, saved as ``name`` in ``$SABOTEUR_SCREENSHOTS`` (else the
    test's own folder). On a busy machine Chromium may not have painted the page yet
    when Streamlit's run has ended (CI once saved a blank 7 KB picture of a page whose
    heading was there): the picture is taken again until it shows something, 15 s at
    most."""
    folder = Path(os.environ.get("SABOTEUR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    deadline = time.monotonic() + 15
    page.screenshot(path=str(path), full_page=True)
    while path.stat().st_size <= 10_000 and time.monotonic() < deadline:
        page.wait_for_timeout(500)
        page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    return path


def test_a_phone_follows_a_table_in_play_and_the_standings_without_reloading(
    served: str, db: Path, sample: Sample, tmp_path: Path
) -> None:
    """The test records the held-back game into its draft (a store write from another
    process, as the recording page's server makes it); the phone's pages show each
    change by themselves: a mark left in the page's window stays, so nothing reloaded."""
    expect = pytest.importorskip("playwright.sync_api").expect
    lines = observe(sample.held_back.read_bytes()).decode().splitlines()
    names = {p["id"]: p["name"] for p in json.loads((sample.logs / "tournament.json").read_text())["players"]}
    store = Store(db)
    draft = record_at_once(store, GAME, lines[:20])
    player = Recorder(lines[:20]).due().player
    assert player is not None
    with chromium() as page:
        page.set_viewport_size(PHONE)
        page.goto(f"{served}/tables")
        page.get_by_role("heading", name="Table 2").wait_for()
        expect(page.get_by_text(f"▶ {names[player]}'s turn")).to_be_visible()
        page.locator("svg.maze").wait_for()
        screenshot(page, tmp_path, "tables-390x844-turn.png")

        page.evaluate("window.stillHere = true")
        draft = record_line(store, draft, lines[20])  # the player lays a card
        expect(page.get_by_text(f"▶ {names[player]} draws a card")).to_be_visible(timeout=30_000)
        assert page.evaluate("window.stillHere === true")
        screenshot(page, tmp_path, "tables-390x844-draw.png")

        draft = record_at_once(store, GAME, lines, draft)
        page.goto(served)  # Standings
        games = page.locator('[data-testid="stMetric"]').filter(has_text="Games")
        expect(games.locator('[data-testid="stMetricValue"]')).to_have_text("3")
        page.evaluate("window.stillHere = true")
        finish_draft(store, draft, HELD_BACK)  # the game ends: taken in as an upload
        expect(games.locator('[data-testid="stMetricValue"]')).to_have_text("4", timeout=30_000)
        assert page.evaluate("window.stillHere === true")
        screenshot(page, tmp_path, "standings-390x844-game-ended.png")


# -- a long name on a phone and a laptop -------------------------------------------------

LONG_NAME = (
    "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewaren"
    "wohlgepflegeundsorgfaltigkeitbeschutzenvonangreifen von Hohenzollern"
)


def test_a_long_name_breaks_in_its_cell_and_the_tables_keep_to_the_screen(sample: Sample, tmp_path: Path) -> None:
    """A name of one long word made the standings 1,011 px wide on a 390 px phone (and
    wider than a laptop's screen), and the Round page's "Find your table" put its table
    and seat columns off the screen: a table's cell took its width from the word."""
    logs = tmp_path / "logs"
    shutil.copytree(sample.logs, logs)
    description = json.loads((logs / "tournament.json").read_text())
    description["players"][0]["name"] = LONG_NAME
    (logs / "tournament.json").write_text(json.dumps(description))
    db = stored(logs, tmp_path / "long.duckdb")
    timeout = pytest.importorskip("playwright.sync_api").TimeoutError
    tables = "document.querySelectorAll('[data-testid=stMain] table')"
    widest = f"() => Math.max(...Array.from({tables}, table => table.getBoundingClientRect().right))"
    with serving(db, tmp_path) as address, chromium() as page:
        for size in (PHONE, {"width": 1280, "height": 800}):
            page.set_viewport_size(size)
            for path in ("", "/round"):
                page.goto(address + path)
                page.get_by_text(LONG_NAME[:40]).first.wait_for()
                fits = f"() => ({widest})() <= {size['width']}"
                try:  # the page may still be laying out (its style, its columns) when the name shows
                    page.wait_for_function(fits, timeout=15_000)
                except timeout:
                    raise AssertionError((size, path, page.evaluate(widest))) from None
