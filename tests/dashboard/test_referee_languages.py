"""The referee's phone page in the referee's language (issue 33), in a real headless
Chromium over a real server: a phone whose browser speaks Dutch gets the page in Dutch —
its buttons, the turn the server says, the header — and a card's address that names a
language (``&lang=de``) gets that one; the codes the page sends stay the log's. A
mistyped card says, in the phone's language, that it opens no table."""

from __future__ import annotations

import asyncio

import pytest

from dashboard.i18n import translations
from tests.venue.morning import morning
from tests.venue.phone import CHROMIUM, launched
from tests.venue.server import Server

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


def test_a_phone_speaking_dutch_and_a_card_asking_for_german(server: Server) -> None:
    from playwright.async_api import async_playwright

    first, second = morning(server.db, 2)
    server.start()
    dutch, german = translations("nl").gettext, translations("de").gettext

    async def phones() -> tuple[dict[str, str], dict[str, str]]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            seen: list[dict[str, str]] = []
            for table, locale, asked in ((first, "nl-NL", ""), (second, "en-GB", "&lang=de")):
                context = await browser.new_context(locale=locale)
                page = await context.new_page()
                page.set_default_timeout(60_000)
                await page.goto(f"{server.address}/referee?code={table.code}{asked}")
                begin = page.locator("#begin")
                await begin.wait_for()
                said = {"begin": await begin.inner_text(), "lang": await page.evaluate("document.documentElement.lang")}
                await begin.click()
                await page.wait_for_selector("button[data-start]")
                said["due"] = await page.locator("#due").inner_text()
                said["main"] = await page.locator("#main").inner_text()
                said["where"] = await page.locator("#where").inner_text()
                seen.append(said)
                await context.close()
            context = await browser.new_context(locale="nl-NL")  # a card mistyped
            page = await context.new_page()
            page.set_default_timeout(60_000)
            await page.goto(f"{server.address}/referee?code={first.code}x")
            await page.wait_for_selector("h1")
            seen[0]["closed"] = await page.locator("h1").inner_text()
            seen[0]["closed_link"] = await page.locator("#link").inner_text()
            await browser.close()
            return seen[0], seen[1]

    nl, de = asyncio.run(phones())
    assert nl["lang"] == "nl" and nl["begin"] == dutch("Begin recording") != "Begin recording"
    assert dutch("Who starts?") in nl["main"] and "Who starts?" not in nl["main"]
    assert nl["closed"] == dutch("This card opens no table") != "This card opens no table"
    # the link line does not claim entries recorded through a card that opens no table
    assert nl["closed_link"] == dutch("Online · no table open") != "Online · no table open"
    assert nl["where"].startswith("Tafel ") and "ronde" in nl["due"].lower()
    assert de["lang"] == "de" and de["begin"] == german("Begin recording")
    assert german("Who starts?") in de["main"] and de["where"].startswith("Tisch ")
