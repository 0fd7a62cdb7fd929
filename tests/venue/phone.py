"""A referee's phone: a page of headless Chromium at 390×844 on the Record page, tapped
step by step (:mod:`tests.venue.plan`), each tap timed until the screen shows it taken.

A tap is taken when the page's run it started has ended — the server's word that it
finished (``script_finished``) has reached the browser over its websocket — and the
next screen's button is there. (The page's own script-state attribute is no witness:
with ten phones on one server a run's start and end reached a page together, React
drew them as one change, and the run went unseen.) After each tap the page is read
for what a referee would see go wrong: a Python exception, an error that is not the
rule's warning the plan expects, or Streamlit's "Connection error".
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.venue.plan import Step

CHROMIUM: Final = Path("/usr/bin/chromium")
ARGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
"""Debian's Chromium as root on a machine with a closed network (the browser's own
calls home are refused, many at a time, without the background-networking flags)."""
SCREEN: Final = {"width": 390, "height": 844}
DENSITY: Final = 1
"""Device pixels to a CSS pixel of the tests' phones. The layout is a phone's at any
density (390×844 CSS pixels, a mobile viewport, touch); only the raster is finer at 2 or
3, as real phones draw, which cost Chromium a quarter more of its CPU in the ten phones'
test, where Chromium is four fifths of all CPU. ``benchmarks/venue.py`` draws at 2."""

IDLE: Final = (
    "() => document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') === 'notRunning'"
)
TROUBLE: Final = """() => {
  const seen = [];
  for (const e of document.querySelectorAll('[data-testid="stException"]')) seen.push('exception: ' + e.innerText);
  for (const e of document.querySelectorAll('[data-testid="stAlertContentError"]')) seen.push('error: ' + e.innerText);
  const dialog = document.querySelector('[role="dialog"]');
  if (dialog && /Connection error|not responding/.test(dialog.innerText)) seen.push('connection: ' + dialog.innerText);
  return seen;
}"""
"""What went wrong on the screen, as a referee reads it."""


@dataclass
class Tapped:
    """A phone's record of its taps: each one's time to be shown taken, the steps done,
    and what went wrong (with the step it went wrong at)."""

    seconds: list[float] = field(default_factory=list)
    done: int = 0
    errors: list[str] = field(default_factory=list)


class Phone:
    """One page, one table."""

    def __init__(self, page: Any, address: str, code: str, timeout: float = 60.0) -> None:
        self.page, self.address, self.code = page, address, code
        self.timeout = timeout
        self.tapped = Tapped()
        self.finished = 0  # page runs the server said it finished
        self.sockets = 0  # websockets the page opened to the server
        self.open_sockets = 0
        self._news = asyncio.Event()
        page.on("websocket", self._watch)

    def _watch(self, socket: Any) -> None:
        self.sockets += 1
        self.open_sockets += 1
        socket.on("framereceived", self._frame)
        socket.on("close", self._closed)

    def _closed(self, _socket: Any) -> None:
        self.open_sockets -= 1
        self._news.set()

    def _frame(self, payload: bytes | str) -> None:
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except Exception:  # not a message of Streamlit's: nothing to count
            return
        if msg.WhichOneof("type") == "script_finished":
            self.finished += 1
            self._news.set()

    @classmethod
    async def opened(
        cls, browser: Any, address: str, code: str, timeout: float = 60.0, *, density: int = DENSITY
    ) -> Phone:
        phone = cls(await phone_page(browser, timeout, density), address, code, timeout)
        await phone.open()
        return phone

    async def open(self) -> None:
        """The table's card scanned: the Record page for the table."""
        await self.page.goto(f"{self.address}/record?code={self.code}")
        await self.page.locator('[data-testid="stMain"]').wait_for()

    async def reconnected(self, sockets: int, timeout: float = 60.0) -> None:
        """Wait until the page, which had opened ``sockets`` websockets, has opened
        another to the server and holds it (a page that lost its server tries again
        by itself)."""
        deadline = time.monotonic() + timeout
        while not (self.sockets > sockets and self.open_sockets > 0):
            self._news.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the page did not find the server again within {timeout:g} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), min(left, 0.2))

    async def ran_since(self, count: int, timeout: float | None = None) -> None:
        """Wait until the page has run to its end more than ``count`` times in all (a
        page that lost its server runs anew once it finds it again)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while self.finished <= count:
            self._news.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the page did not run again within {timeout or self.timeout:g} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), left)
        await self.page.wait_for_function(IDLE)

    async def settled(self, act: Any) -> None:
        """Do ``act`` and wait for the page run it starts to end."""
        before = self.finished
        await act()
        await self.ran_since(before)

    async def do(self, step: Step) -> float | None:
        """Do ``step``; the seconds until the screen showed it taken (``None`` for a
        step that runs nothing). A step that times out fails with what the page showed
        then, and its websockets."""
        from playwright.async_api import TimeoutError as Timeout

        try:
            return await self._do(step)
        except Timeout as error:
            try:
                text = str(await self.page.evaluate("() => document.body.innerText.slice(0, 1500)"))
            except Exception as unanswered:  # a page that cannot even answer says so
                text = f"(the page did not answer: {unanswered})"
            raise AssertionError(
                f"{self.code}: {step} timed out; {self.open_sockets} of {self.sockets} websockets open, "
                f"{self.finished} runs finished, errors {self.tapped.errors}, text:\n{text}"
            ) from error

    async def _do(self, step: Step) -> float | None:
        page = self.page
        started = time.perf_counter()
        if step.kind == "open":
            await page.get_by_text(step.value).tap()
            return None
        if step.kind == "fill":
            field_ = page.locator(f".st-key-{step.key} input")
            await field_.fill(step.value)
            await self.settled(lambda: field_.press("Enter"))
        else:
            await self.settled(page.locator(f".st-key-{step.key} button").first.tap)
        if step.then is not None:
            await page.locator(f".st-key-{step.then} button").first.wait_for(state="attached")
        return time.perf_counter() - started

    async def trouble(self, step: Step) -> list[str]:
        """What went wrong on the screen after ``step`` (the rule's warning the plan
        expects is not trouble)."""
        seen: list[str] = await self.page.evaluate(TROUBLE)
        if step.warned:
            seen = [s for s in seen if not s.startswith("error: R-")]
        return seen


async def phone_page(browser: Any, timeout: float, density: int = DENSITY) -> Any:
    """A page in a context of its own (its own cookies and storage, as a phone of its
    own), laid out as a phone's: :data:`SCREEN`, mobile, touch, reduced motion."""
    context = await browser.new_context(
        viewport=SCREEN, is_mobile=True, has_touch=True, device_scale_factor=density, reduced_motion="reduce"
    )
    page = await context.new_page()
    page.set_default_timeout(timeout * 1000)
    return page


async def launched(playwright: Any) -> Any:
    """Debian's Chromium, headless, as the venue's tests and benchmark drive it."""
    return await playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
