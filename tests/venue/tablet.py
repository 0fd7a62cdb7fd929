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

from events.builder import default_roles
from tests.venue.phone import DENSITY, phone_page

SETUP: Final = "NESW"


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry as tapped: the buttons (CSS selectors) in order, the last of which
    makes the entry, and the event type it records (``undo``: it takes the last one
    back; ``finish``: the game's log is stored). ``then``: buttons tapped once it is
    taken (the rules' warning answered: record it as it happened)."""

    clicks: tuple[str, ...]
    type: str
    then: tuple[str, ...] = ()


def _path(card: str, x: int) -> Entry:
    return Entry(
        ("#kind-path", f"button[data-card='{card}']", f".maze .cell[data-cell='{x},0']", "#record"), "play_path"
    )


DRAW: Final = Entry(("#draw",), "draw")
PASS: Final = Entry(("#kind-pass",), "discard")
MAP: Final = Entry(("#kind-action", "button[data-card='map']", "button[data-slot='top']"), "play_map")


def _tool(card: str, target: str) -> Entry:
    return Entry(
        ("#kind-action", f"button[data-card='{card}']", f"button[data-target='{target}']", "#record"), "play_tool"
    )


def _deal(start: str) -> Entry:
    return Entry((f"button[data-start='{start}']", f"button[data-card='{SETUP}']", "#deal"), "round_started")


def referee_game(players: tuple[str, ...], rounds: int = 3) -> list[Entry]:
    """A whole observed game at a table of six as a referee taps it on the referee
    page, from Begin recording to the log stored (``rounds`` of its three rounds: the
    game's end and its storing only when all three are played). Each round has every
    kind of entry: the deal, path cards, passes, a broken tool and its repair, a map,
    an entry the rules warn about (a card where no path leads, recorded as it
    happened), an entry taken back, the draws, the gold turned up and the roles."""
    roles, _ = default_roles(list(players), "tournament")
    entries = [Entry(("#begin",), "begin")]
    for number in range(1, rounds + 1):
        s = [players[(number - 1 + i) % len(players)] for i in range(len(players))]
        entries.append(_deal(s[0]))
        played = [
            _path("EW", 1),
            PASS,
            _tool("break_pick", s[3]),
            _tool("repair_pick", s[3]),
            Entry(
                ("#kind-path", "button[data-card='NS']", "#any-cell", ".maze .cell[data-cell='3,3']", "#record"),
                "play_path",
                then=("#record-anyway",),
            ),
        ]
        for entry in played:
            entries += [entry, DRAW]
        entries += [PASS, Entry(("#undo",), "undo")]
        for entry in (_path("EW", 2), _path("EW", 3), _path("NEW", 5), MAP, _path("NEW", 6)):
            entries += [entry, DRAW]
        entries.append(_path("NESW", 7))
        entries.append(Entry(("button[data-goal='goal_gold']", "#record"), "goal_revealed"))
        clicks = tuple(f"button[data-role='{p}:{roles[p]}']" for p in players)
        entries.append(Entry((*clicks, "#end-round"), "round_ended"))
    if rounds == 3:
        entries += [Entry(("#end-game",), "game_ended"), Entry(("#finish",), "finish")]
    return entries


def stored_after(entries: list[Entry]) -> list[str]:
    """The event types a draft holds once ``entries`` are recorded, in order (its
    first line, the game's start, left out)."""
    types: list[str] = []
    for entry in entries:
        if entry.type == "undo":
            types.pop()
        elif entry.type not in ("begin", "finish"):
            types.append(entry.type)
    return types


def table_entries(players: tuple[str, ...]) -> list[Entry]:
    """A round's first entries at a table of six, from the deal: 25 entries, every
    card played followed by its draw."""
    p = players
    deal = _deal(p[0])
    played = [
        _path("EW", 1),
        PASS,
        _tool("break_pick", p[3]),
        MAP,
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
    async def opened(
        cls, browser: Any, address: str, code: str, timeout: float = 60.0, *, density: int = DENSITY
    ) -> RefereePhone:
        """The table's page opened on a phone of its own; each step waits ``timeout``
        seconds at most, as the Streamlit phone's do (:class:`tests.venue.phone.Phone`).
        In CI the ten phones share two cores with another test's browsers: a tap there
        once waited past 30 s for its Pass button to take the click while the page,
        online and with nothing waiting, showed it. These tests hold what is kept and
        sent; how fast a tap is shown is ``benchmarks/venue.py``'s to measure."""
        phone = cls(await phone_page(browser, timeout, density), address, code)
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
        asked, for the server's answer). The time taken is the last button's: the one
        that makes the entry (the buttons before it only choose, on the phone). A tap
        that times out fails with what the page showed then (:meth:`seen`)."""
        from playwright.async_api import TimeoutError as Timeout

        try:
            await self._tap(entry, wait_recorded=wait_recorded)
        except Timeout as error:
            raise AssertionError(f"{self.code}: {entry.type} {entry.clicks} timed out; {await self.seen()}") from error

    async def seen(self) -> str:
        """What the page shows and holds, for a failure's message: its witnesses (the
        entries taken, recorded and waiting), its script errors and its text."""
        try:
            state = await self.page.evaluate(
                "() => ({body: {...document.body.dataset}, link: {...(document.getElementById('link') || {}).dataset},"
                " text: document.body.innerText.slice(0, 1500)})"
            )
        except Exception as error:  # a page that cannot even answer says so
            return f"the page did not answer ({error})"
        return f"data {state['body']}, link {state['link']}, errors {self.log.errors}, text:\n{state['text']}"

    async def _tap(self, entry: Entry, *, wait_recorded: bool) -> None:
        if entry.type == "begin":
            await self.begin()
            return
        if entry.type == "finish":
            await self.page.locator(entry.clicks[0]).click()
            await self.page.wait_for_function("() => document.body.dataset.finished === 'true'")
            return
        *choosing, making = entry.clicks
        if entry.type == "round_started":
            # the deal's screen as it opens: no stray word in it (a panel's null was one)
            stray = await self.page.evaluate(
                "() => [...document.getElementById('main').childNodes]"
                ".filter((n) => n.nodeType === 3).map((n) => n.textContent)"
            )
            assert stray == [], f"{self.code}: text outside any element on the deal's screen: {stray}"
        for selector in choosing:
            await self.page.locator(selector).first.click()
        before = await self.number("taken")
        recorded = await self.number("recorded")
        started = time.perf_counter()
        await self.page.locator(making).first.click()
        await self.page.wait_for_function(f"() => Number(document.body.dataset.taken) > {before}")
        taken = time.perf_counter()
        self.log.taken_ms.append((taken - started) * 1000)
        self.log.types.append(entry.type)
        for selector in entry.then:
            await self.page.locator(selector).first.click()
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
