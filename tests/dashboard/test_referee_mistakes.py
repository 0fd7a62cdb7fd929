"""Mistakes the table makes, recorded on the referee page as they happened (R-C1: the
referee's log is what the table did), in a real headless Chromium over a real server.

The page offers first what the rules expect; for each of these the referee can still
record what the table did, hears the rules' word on it before it is recorded, and
says it happened:

- a player lays a second card in the same turn, before drawing (R-T1, ``extra_play``);
- a rockfall laid on the start card (R-A5, ``impossible_action``);
- a path reaches a goal and the table goes on without turning it up
  (R-G1, ``missing_reveal``).

Each finding is checked with its code and line in the stored draft's audit.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from events.audit import audit
from ingest.drafts import read_draft
from ingest.store import Store
from tests.venue.morning import morning
from tests.venue.phone import CHROMIUM, launched
from tests.venue.server import Server
from tests.venue.tablet import DRAW, Entry, RefereePhone, _deal, _path, stored_after

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

HEARD = ("#record-anyway",)
"""The rules' warning answered: it happened, record it."""


def test_a_second_card_a_rockfall_on_the_start_and_a_goal_left_face_down_are_recorded(server: Server) -> None:
    from playwright.async_api import async_playwright

    (table,) = morning(server.db, 1)
    server.start()
    first, *_ = table.players
    second_card = Entry(
        (
            "#no-draw",
            f"button[data-player='{first}']",
            "#kind-path",
            "button[data-card='EW']",
            ".maze .cell[data-cell='2,0']",
            "#record",
        ),
        "play_path",
        then=HEARD,
    )
    rockfall_on_the_start = Entry(
        ("#kind-action", "button[data-card='rockfall']", "#any-cell", ".maze .cell[data-cell='0,0']"),
        "play_rockfall",
        then=HEARD,
    )
    left_face_down = Entry(("#face-down", "#draw"), "draw", then=HEARD)
    entries = [
        Entry(("#begin",), "begin"),
        _deal(first),
        _path("EW", 1),
        second_card,
        DRAW,
        rockfall_on_the_start,
        DRAW,
        _path("NEW", 3),
        DRAW,
        _path("NEW", 5),
        DRAW,
        _path("NESW", 6),
        DRAW,
        _path("EW", 7),  # the path reaches the middle goal
        left_face_down,
    ]

    async def recorded() -> tuple[list[str], str]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phone = await RefereePhone.opened(browser, server.address, table.code)
            for entry in entries:
                await phone.tap(entry, wait_recorded=entry.type != "begin")
            await phone.all_sent()
            due = await phone.page.locator("#due").inner_text()
            await browser.close()
            return phone.log.errors, due

    errors, due = asyncio.run(recorded())
    assert errors == []
    draft = read_draft(Store(server.db, wait=60), table.game_id)
    assert draft is not None
    assert [json.loads(line)["type"] for line in draft.lines[1:]] == stored_after(entries)
    # line 1 is the game's start, 2 the deal: the second card is line 4, the rockfall 6,
    # the draw after the path that reached the goal 15 (the file ends there)
    found = [(f.code.value, f.line) for f in audit(list(draft.lines)).findings]
    assert found == [("extra_play", 4), ("impossible_action", 6), ("missing_reveal", 15), ("incomplete", 15)]
    assert due == "Player 01's turn"  # the round went on: the sixth player drew, the first plays
