"""A referee's phone on the referee page (``/referee?code=…``, ``dashboard/referee``):
a page of headless Chromium at 390×844 that taps a table's entries one by one.

The page keeps each entry on the phone before it shows it, then sends it; two numbers
on its ``<body>`` are the witnesses a test reads: ``data-taken``, the entries taken on
the page (kept in the browser and shown), and ``data-recorded``, the answers
"recorded" the server gave. ``#link[data-waiting]`` is how many wait to be sent, as
the referee reads it in the page's header.

:func:`table_entries` is what a referee taps at a table of six: the deal, path cards,
passes, a broken tool and its repair, a map, and the draws between — each entry the
buttons it takes and the event type it makes.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Final

from tests.venue.phone import SCREEN

SETUP: Final = "NESW"


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry as tapped: the buttons (CSS selectors) in order, and the event type
    it records."""

    clicks: tuple[str, ...]
    type: str


def _path(card: str, x: int) -> Entry:
    return Entry(
        ("#kind-path", f"button[data-card='{card}']", f".maze .cell[data-cell='{x},0']", "#record"), "play_path"
    )


DRAW: Final = Entry(("#draw",), "draw")
PASS: Final = Entry(("#kind-pass",), "discard")


def _tool(card: str, target: str) -> Entry:
    return Entry(
        ("#kind-action", f"button[data-card='{card}']", f"button[data-target='{target}']", "#record"), "play_tool"
    )


def table_entries(players: tuple[str, ...]) -> list[Entry]:
    """A round's first entries at a table of six, from the deal: 25 entries, every
    card played followed by its draw."""
    p = players
    deal = Entry((f"button[data-start='{p[0]}']", f"button[data-card='{SETUP}']", "#deal"), "round_started")
    played = [
        _path("EW", 1),
        PASS,
        _tool("break_pick", p[3]),
        Entry(("#kind-action", "button[data-card='map']", "button[data-slot='top']"), "play_map"),
        _path("EW", 2),
        PASS,
        _path("EW", 3),
        _tool("repair_pick", p[3]),
        PASS,
        PASS,
        _path("NEW", 5),
        PASS,
    ]
    entries = [deal]
    for entry in played:
        entries += [entry, DRAW]
    return entries


@dataclass
class Log:
    """What a phone did: each entry's milliseconds from its first tap to the screen
    showing it taken, and from there to its answer "recorded" (while online), and the
    entries taken, in order."""

    taken_ms: list[float] = field(default_factory=list)
    recorded_ms: list[float] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class RefereePhone:
    """One page of the referee page, one table."""

    def __init__(self, page: Any, address: str, code: str) -> None:
        self.page, self.address, self.code = page, address, code
        self.log = Log()
        page.on("pageerror", lambda error: self.log.errors.append(f"script error: {error}"))

    @classmethod
    async def opened(cls, browser: Any, address: str, code: str, timeout: float = 30.0) -> RefereePhone:
        context = await browser.new_context(viewport=SCREEN, is_mobile=True, has_touch=True, device_scale_factor=2)
        page = await context.new_page()
        page.set_default_timeout(timeout * 1000)
        phone = cls(page, address, code)
        await phone.open()
        return phone

    async def open(self) -> None:
        await self.page.goto(f"{self.address}/referee?code={self.code}")
        await self.page.wait_for_function("() => document.body.dataset.taken !== undefined")

    async def number(self, name: str) -> int:
        return int(await self.page.evaluate(f"() => Number(document.body.dataset.{name} || 0)"))

    async def waiting(self) -> int:
        return int(await self.page.evaluate("() => Number(document.getElementById('link').dataset.waiting || 0)"))

    async def link(self) -> str:
        return str(await self.page.locator("#link").inner_text())

    async def begin(self) -> None:
        await self.page.locator("#begin").click()
        await self.page.wait_for_selector("button[data-start]")

    async def tap(self, entry: Entry, *, wait_recorded: bool = False) -> None:
        """Tap ``entry``'s buttons; wait for the screen to show it taken (and, if
        asked, for the server's answer)."""
        before = await self.number("taken")
        recorded = await self.number("recorded")
        started = time.perf_counter()
        for selector in entry.clicks:
            await self.page.locator(selector).first.click()
        await self.page.wait_for_function(f"() => Number(document.body.dataset.taken) > {before}")
        taken = time.perf_counter()
        self.log.taken_ms.append((taken - started) * 1000)
        self.log.types.append(entry.type)
        if wait_recorded:
            await self.page.wait_for_function(f"() => Number(document.body.dataset.recorded) > {recorded}")
            self.log.recorded_ms.append((time.perf_counter() - taken) * 1000)

    async def all_sent(self, timeout: float = 60.0) -> None:
        """Wait until no entry waits on the phone."""
        await self.page.wait_for_function(
            "() => document.getElementById('link').dataset.waiting === '0'", timeout=timeout * 1000
        )

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
