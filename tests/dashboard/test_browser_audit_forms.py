"""The Audit page's sections in a real headless Chromium: a form sent with a slip (no
reason) is refused with a notice at the top of the page, and the section the organiser
was in stays open under it, the form's choice kept, so the slip is put right where it
was made. The notice was drawn above the sections only when there was one: every
section under it moved down a place, was drawn as a new one, and folded shut."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dashboard.test_browser import chromium, serving, signed_in


def test_a_refused_form_leaves_its_section_open(db: Path, tmp_path: Path) -> None:
    with serving(db, tmp_path) as served, chromium() as page:
        signed_in(page, served, "/audit")
        section = page.locator('[data-testid="stExpander"]').filter(has_text="Withdrawn players")
        section.locator("summary").click()
        button = section.get_by_role("button", name="Withdraw the player")
        button.wait_for()
        button.click()  # no reason given
        page.get_by_text("Give a reason: it is kept").wait_for()
        sync_api = pytest.importorskip("playwright.sync_api")
        sync_api.expect(section.get_by_role("button", name="Withdraw the player")).to_be_visible(timeout=10_000)
