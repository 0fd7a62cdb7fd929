"""Every page in each language, in a real headless Chromium (issue 33): no text of the
English catalogues is left on a page read in Dutch, German or Norwegian unless the
translation says the same, and a language changed with the picker keeps the choices made
on the page (a browser sends a select box's choice back as the words it showed, which
the run in the new language would not find).

The English texts are the message ids of the dashboard's catalogue and the findings'
sentences, each cut at its blanks (a name, a number, a card fills those): a piece of
three words or more found on the page, and in none of the language's translations, is
English left over."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, Final

import pytest

from dashboard.i18n import LOCALES as PAGE_LOCALES
from events.language import LOCALES as FINDING_LOCALES
from tests.dashboard.test_browser import choose, chromium, listed, seen, serving, signed_in
from tests.venue.phone import IDLE

PAGES: Final = ("", "round", "tables", "roles", "players", "rounds", "replay", "upload", "audit", "record")
"""Every page, by its address (the empty one is the Standings)."""
LANGUAGES: Final = ("nl", "de", "nb")
BLANK: Final = re.compile(r"%\([a-z_]+\)[sd]|%%|\*\*|`")


def pieces(text: str) -> list[str]:
    """The English of a message id between its blanks (and its Markdown): the runs of
    three words or more that no name or number fills."""
    return [part.strip(" .,:;()·–-") for part in BLANK.split(text) if len(part.strip().split()) >= 3]


@cache
def english_and_translations(lang: str) -> tuple[frozenset[str], str]:
    """Every English piece of both catalogues, and every translation of ``lang`` in one text."""
    from babel.messages.pofile import read_po

    english: set[str] = set()
    translated: list[str] = []
    for locales, domain in ((PAGE_LOCALES, "messages"), (FINDING_LOCALES, "findings")):
        with (locales / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as source:
            catalog = read_po(source, locale=lang)
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            english.update(piece for text in ids for piece in pieces(text))
            translated.extend(strings)
    return frozenset(english), "\n".join(translated)


def leftovers(text: str, lang: str) -> list[str]:
    """English pieces on the page that no translation of ``lang`` holds."""
    english, translated = english_and_translations(lang)
    return sorted(piece for piece in english if piece in text and piece not in translated)


def settled(page: Any) -> str:
    """The page's text (its sidebar's too) once its run has ended and the text stays the
    same from one look to the next, with every expander opened (what a reader may open)."""
    page.locator('[data-testid="stMain"] h1').first.wait_for()  # the run has begun drawing
    page.wait_for_function(IDLE)  # and has ended
    unchanged(page)
    for summary in page.locator('[data-testid="stExpander"] summary').all():
        summary.click()
    return unchanged(page)


def unchanged(page: Any, every: int = 150) -> str:
    """The page's text once two looks ``every`` ms apart read the same and no run is
    under way."""
    before = None
    for _ in range(100):
        running = page.locator('[data-testid="stStatusWidget"]').count()
        now = seen(page) + "\n" + str(page.locator('[data-testid="stSidebar"]').inner_text())
        if not running and now == before:
            return now
        before = now
        page.wait_for_timeout(every)
    raise AssertionError(f"the page never stopped changing:\n{now[:500]}")


@pytest.fixture
def browser_on(db: Path, tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The dashboard served over the sample store, and a browser signed in as the organiser."""
    with serving(db, tmp_path) as address, chromium() as page:
        signed_in(page, address, "/audit")  # its cookie kept for every page
        yield address, page


def test_every_page_in_each_language_leaves_no_english(browser_on: tuple[str, Any]) -> None:
    address, page = browser_on
    page.goto(f"{address}/audit?lang=en")
    assert len(leftovers(settled(page), "nl")) > 5  # the English page would fail: the test can tell
    found: dict[str, list[str]] = {}
    signed_in = page.context.browser.new_context(  # the organiser's cookie, as another tab would have it
        storage_state=page.context.storage_state(), viewport=page.viewport_size
    )
    tabs = {lang: signed_in.new_page() for lang in LANGUAGES}
    for path in PAGES:
        for lang, tab in tabs.items():  # each language's page loads and runs while the one before is read
            tab.goto(f"{address}/{path}?lang={lang}", wait_until="commit")
        for lang, tab in tabs.items():
            text = settled(tab)
            assert "Traceback" not in text and "Error" not in text.split("\n")[0], text[:500]
            left = leftovers(text, lang)
            if left:
                found[f"{lang} /{path}"] = left
    assert found == {}, found


def test_a_language_change_keeps_the_audit_page_s_choices(browser_on: tuple[str, Any]) -> None:
    address, page = browser_on
    page.goto(f"{address}/audit?lang=en")
    settled(page)
    options = page.locator('[role="option"]')
    listed(page, page.get_by_role("combobox", name="Finding"), options.nth(1))
    assert options.count() >= 2
    second = str(options.nth(1).inner_text())
    options.nth(1).click()
    settled(page)
    assert page.get_by_role("combobox", name="Finding").input_value() == second
    game = second.split(" · ")[0]  # the game of the finding chosen (the first is another's)
    tournament = page.get_by_role("combobox", name="Tournament").input_value()

    choose(
        page,
        page.get_by_role("combobox", name="Language"),
        page.locator('[role="option"]').filter(has_text="Nederlands"),
    )
    text = settled(page)
    assert "Controle" in text and "lang=nl" in page.url  # the page speaks Dutch, and says so in its address
    chosen = page.get_by_role("combobox", name="Bevinding").input_value()
    assert chosen.startswith(game + " · ronde") and chosen != second, chosen  # the same finding, in Dutch
    assert page.get_by_role("combobox", name="Toernooi").input_value() == tournament


def test_the_file_box_speaks_the_page_s_language(browser_on: tuple[str, Any]) -> None:
    """Streamlit writes the file box's button ("Upload") and its limits ("64MB per file
    • JSONL, GZ, CSV, JSON") in English whatever the page's language, and takes no words
    for them: the Upload page shows its own in their place."""
    expect = pytest.importorskip("playwright.sync_api").expect
    address, page = browser_on
    page.goto(f"{address}/upload?lang=de")
    box = page.locator('[data-testid="stFileUploaderDropzone"]')
    expect(box.get_by_role("button", name="Dateien auswählen")).to_be_visible()
    assert not box.get_by_text("Upload", exact=True).is_visible()
    assert not box.get_by_text("per file").is_visible()
    limits = box.locator('[data-testid="stFileUploaderDropzoneInstructions"]')
    assert "je höchstens 64 MiB" in limits.evaluate("limits => getComputedStyle(limits, '::after').content")
