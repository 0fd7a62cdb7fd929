"""The Replay page on a phone (390×844) in a real headless Chromium: a shared address
opens its step with the maze in the first screen and the four step buttons in one row,
and each step taken is written back into the address."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.replay_view import replay_link
from tests.dashboard.conftest import TOURNAMENT
from tests.dashboard.test_browser import PHONE, chromium, screenshot, serving
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
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box  # scaled to the width
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
