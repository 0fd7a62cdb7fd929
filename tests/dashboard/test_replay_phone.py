"""The Replay page on a phone (390×844) in a real headless Chromium: a shared address
opens its step with the maze in the first screen and the four step buttons in one row,
and each step taken is written back into the address; the maze's words are 10 px or
more on a phone 360 px wide, its picture scrolling sideways, and on every wider screen
(its column as wide as it needs, the facts under it where they do not fit beside it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.replay_view import replay_link
from tests.dashboard.conftest import TOURNAMENT
from tests.dashboard.test_browser import PHONE, chromium, screenshot, serving
from tests.dashboard.test_pages import SKIPPED_GAME, SKIPPED_ROUND, _frames
from tests.dashboard.test_replay_address import GAME


def test_a_shared_replay_address_on_a_phone(db: Path, tmp_path: Path) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    with serving(db, tmp_path) as served, chromium() as page:
        page.set_viewport_size(PHONE)
        page.goto(f"{served}/{replay_link(TOURNAMENT, GAME, 1, 3)}")
        page.get_by_text("Step 3 of").wait_for()
        maze = page.locator("svg.maze")
        maze.wait_for()
        screenshot(page, tmp_path, "replay-390x844.png")

        box = maze.bounding_box()
        assert box is not None and box["y"] < PHONE["height"], box  # the maze starts in the first screen
        frame = page.locator(".maze-picture").bounding_box()  # the picture at its own size, scrolling in it
        assert frame is not None and frame["x"] >= 0 and frame["x"] + frame["width"] <= PHONE["width"], frame
        steps = page.locator(".st-key-replay_steps button")
        boxes = [steps.nth(i).bounding_box() for i in range(steps.count())]
        assert len(boxes) == 4 and all(b is not None for b in boxes)
        assert max(b["y"] for b in boxes if b) - min(b["y"] for b in boxes if b) < 2, boxes  # one row
        assert all(b["x"] + b["width"] <= PHONE["width"] for b in boxes if b), boxes

        page.get_by_role("button", name="Next").click()  # found by its words, shown or not
        page.get_by_text("Step 4 of").wait_for()
        expect(page).to_have_url(f"{served}/{replay_link(TOURNAMENT, GAME, 1, 4)}")

        # in Dutch the words were cut to "E…", "T…", "Volg…", "La…" in the row of four: the
        # buttons show their icons on a phone, their words kept for screen readers
        page.goto(f"{served}/{replay_link(TOURNAMENT, GAME, 1, 3)}&lang=nl")
        page.get_by_role("button", name="Volgende").wait_for()
        page.get_by_text("Stap 3 van").wait_for()
        cut = steps.evaluate_all(
            """buttons => buttons.map((b) => b.querySelector('[data-testid="stMarkdownContainer"]'))
                 .filter((w) => w.getBoundingClientRect().width > 1 && w.scrollWidth > w.clientWidth)
                 .map((w) => w.textContent)"""
        )
        assert cut == [], cut


READ = """() => {
  const svg = document.querySelector('svg.maze'), frame = svg.closest('.maze-picture');
  const across = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * across);
  return {smallest: Math.min(...sizes), width: svg.getBoundingClientRect().width, own: svg.width.baseVal.value,
          frame: frame.clientWidth, scrolls: frame.scrollWidth > frame.clientWidth,
          page: document.documentElement.scrollWidth};
}"""


def test_the_mazes_words_are_10_px_on_a_phone_and_on_every_wider_screen(db: Path, tmp_path: Path) -> None:
    """On a phone 360 px wide the picture was shrunk to the screen's width, to 47 % of its
    size: its coordinates and the words on its cards were 4 px tall. A phone draws it at
    its own size (its words 11 px), its frame scrolling sideways, and its frame is a stop
    of Tab whose arrow keys scroll it.

    A wider screen kept it to its column: at 1,024 px its words were 5 px, at 1,280 px
    7.7 px. Its column is as wide as the picture drawn at 10/11 of its size or wider now,
    the facts under it where they do not fit beside it; the step's story stands above it
    (it was in the facts' column, out of sight under the picture at 1,280 px)."""
    with serving(db, tmp_path) as served, chromium() as wide:
        phone = wide.context.browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2)
        seen = {}
        for page, width in ((phone, 360), (wide, 1024), (wide, 1280), (wide, 1920)):
            page.set_viewport_size({"width": width, "height": 800 if width > 360 else 740})
            page.goto(f"{served}/{replay_link(TOURNAMENT, GAME, 1, 60)}")
            page.get_by_text("Step 60 of").wait_for()
            page.locator("svg.maze").wait_for()
            seen[width] = page.evaluate(READ) | page.evaluate(PLACES)
        # a step that broke a rule, on a laptop: its finding stands in the first screen,
        # above the maze (under the maze with the facts, it was 350 px out of sight)
        wide.set_viewport_size({"width": 1280, "height": 800})
        (forgot,) = _frames(db, SKIPPED_GAME, SKIPPED_ROUND)
        wide.goto(f"{served}/{replay_link(TOURNAMENT, SKIPPED_GAME, SKIPPED_ROUND, forgot)}")
        wide.get_by_text(f"Step {forgot} of").wait_for()
        wide.locator("svg.maze").wait_for()
        finding = wide.evaluate(FINDING)
        phone.get_by_role("slider").focus()
        phone.keyboard.press("Tab")
        focused = phone.evaluate("() => document.activeElement.className")
        phone.keyboard.press("ArrowRight")  # (a smooth scroll: its end is waited for)
        phone.wait_for_function("() => document.querySelector('.maze-picture').scrollLeft > 0", timeout=5_000)
        scrolled = phone.evaluate("() => document.querySelector('.maze-picture').scrollLeft")

    on_a_phone = seen[360]
    assert on_a_phone["smallest"] >= 10 and on_a_phone["width"] == on_a_phone["own"], on_a_phone
    assert on_a_phone["scrolls"] and on_a_phone["page"] == 360, on_a_phone  # the page keeps to the screen
    assert "maze-picture" in focused and scrolled > 0, (focused, scrolled)
    for width, there in seen.items():
        assert there["smallest"] >= 10 and there["page"] == width, (width, there)
        assert there["story"] < there["maze"], (width, there)  # what the step did, above the picture
    # 1,024 px: the picture at 10/11 of its size, the whole row, scrolling; 1,280 px: the
    # row holds it at its own size, the facts under it; 1,920 px: the facts beside it
    assert seen[1024]["scrolls"] and seen[1024]["facts"] > seen[1024]["maze"], seen[1024]
    assert not seen[1280]["scrolls"] and seen[1280]["width"] == seen[1280]["own"], seen[1280]
    assert seen[1280]["facts"] > seen[1280]["maze"], seen[1280]
    assert not seen[1920]["scrolls"] and seen[1920]["facts"] == seen[1920]["maze"], seen[1920]
    # where the frame scrolls, its scrollbar is drawn in colour (Streamlit's style drew it
    # transparent until hovered; headless Chromium hides scrollbars, so the style is read)
    assert seen[1024]["bar"] == "thin" and "transparent" not in seen[1024]["barColour"], seen[1024]
    assert seen[1024]["barColour"].count("rgb(") == 2, seen[1024]
    assert "R-T2" in finding["text"] and finding["bottom"] <= 800 and finding["bottom"] <= finding["maze"], finding


FINDING = """() => {
  const alert = document.querySelector('[data-testid=stMain] [data-testid=stAlert]');
  return {text: alert.innerText, bottom: Math.round(alert.getBoundingClientRect().bottom),
          maze: Math.round(document.querySelector('svg.maze').getBoundingClientRect().top)};
}"""

PLACES = """() => {
  const top = (e) => Math.round(e.getBoundingClientRect().top);
  const main = document.querySelector('[data-testid=stMain]'), frame = document.querySelector('.maze-picture');
  const facts = [...main.querySelectorAll('p')].find((p) => p.textContent.startsWith('To act:'));
  return {story: top(main.querySelector('.st-key-replay_story h2')), maze: top(document.querySelector('svg.maze')),
          facts: top(facts.closest('[data-testid=stColumn]')),
          bar: getComputedStyle(frame).scrollbarWidth, barColour: getComputedStyle(frame).scrollbarColor};
}"""
