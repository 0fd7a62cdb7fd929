"""In a real headless Chromium (issue 13, point 3): the organiser signs in once, and a
reload or a typed address finds them still signed in; logging out clears the cookie,
and the next reload asks for the password again. The password is never in the cookie
or in an address, and the cookie is the server's alone (``HttpOnly``): no script of the
page reads the token, in the cookie or in the page."""

from __future__ import annotations

from pathlib import Path

from dashboard import access, handover
from tests.dashboard.conftest import PASSWORD
from tests.dashboard.test_browser import chromium, organiser_cookie, serving


def test_a_reload_and_a_typed_address_keep_the_organiser_signed_in(db: Path, tmp_path: Path) -> None:
    with serving(db, tmp_path) as served, chromium() as page:
        page.goto(f"{served}/upload")
        page.get_by_label("Organiser password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.get_by_text("Signed in as the organiser.").wait_for()
        cookie = organiser_cookie(page)
        assert cookie is not None and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
        assert cookie["httpOnly"] and cookie["expires"] > 0
        assert PASSWORD not in cookie["value"] and PASSWORD not in page.url
        assert access.COOKIE not in page.evaluate("document.cookie")  # no script of the page reads it
        (browser_id,) = [c for c in page.context.cookies() if c["name"] == handover.BROWSER]
        assert browser_id["httpOnly"] and browser_id["sameSite"] == "Lax"  # what a handover is bound to
        assert cookie["value"] not in page.content()  # nor finds the token in the page

        page.reload()
        page.get_by_text("Signed in as the organiser.").wait_for()
        page.locator('input[type="file"]').wait_for(state="attached")
        page.goto(f"{served}/audit")  # typed into the address bar
        page.get_by_text("Signed in as the organiser.").wait_for()
        assert page.get_by_label("Organiser password").count() == 0

        page.get_by_role("button", name="Log out").click()
        page.get_by_label("Organiser password").wait_for()
        organiser_cookie(page, kept=False)
        page.reload()
        page.get_by_label("Organiser password").wait_for()
        assert page.get_by_text("Signed in as the organiser.").count() == 0
