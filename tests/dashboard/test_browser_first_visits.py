"""Several people open the dashboard's chart pages at once, right after the server
starts (the doors open, everyone scans the poster's code): each sees its page, none a
Python error. Streamlit runs each session in a thread of its own, so the first visits
are the first imports of whatever the pages need, made in several threads at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dashboard.test_browser import ARGS, CHROMIUM, serving

VISITS = ("/roles", "/players", "/roles", "/players", "/roles", "/players")


def test_chart_pages_opened_together_after_a_start_all_draw(db: Path, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with serving(db, tmp_path) as served, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            pages = [browser.new_context().new_page() for _ in VISITS]
            for page, path in zip(pages, VISITS, strict=True):
                page.set_default_timeout(60_000)
                page.goto(served + path, wait_until="commit")
            for page, path in zip(pages, VISITS, strict=True):
                page.locator('[data-testid="stVegaLiteChart"], [data-testid="stException"]').first.wait_for()
                errors = [e.inner_text() for e in page.locator('[data-testid="stException"]').all()]
                assert errors == [], f"{path}: {errors}"
                assert page.locator('[data-testid="stVegaLiteChart"]').count() >= 1, path
        finally:
            browser.close()
