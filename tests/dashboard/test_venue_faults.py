"""A venue day's faults, with a real server and real Chromium (issue 29).

The server is ``saboteur dashboard`` as an organiser starts it; the phones are pages of
headless Chromium at 390×844 recording by the referee's plan (``tests/venue``):

- ten phones tap at the same moments while the organiser ingests a folder of logs
  with ``saboteur ingest``: every tap is taken and every entry stored once, no page
  shows an error, the ingest succeeds;
- the server is killed (``kill -9``) while three phones record, and started again:
  every entry a phone showed as taken is in the store, and each phone — by itself,
  without its card opened again — shows the game where it stands, and its referee
  carries on from the right entry;
- the network is cut under a phone (a proxy drops every connection, ``tests/venue/
  cutter.py``) for a while, then restored: every entry shown as taken is in the store,
  the page finds the server again by itself, and the referee carries on.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from pathlib import Path

import pytest

from ingest.drafts import read_draft
from ingest.store import Store
from ingest.verify import verify
from tests.venue.cutter import Cutter
from tests.venue.morning import Table, morning
from tests.venue.morning import organisers_logs as simulated_logs
from tests.venue.phone import CHROMIUM, Phone, launched
from tests.venue.plan import GamePlan, Step, game_plan, recorded_after, resume_at
from tests.venue.server import Server, saboteur_command

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

AFTER = 6
"""Steps each phone records after the server came back or the network returned: the
entry it was at, and the next whole one (a path card laid, its draw)."""


@pytest.fixture
def organisers_logs(tmp_path: Path) -> Path:
    """A folder of small simulated games, for the organiser to ingest mid-round."""
    return simulated_logs(tmp_path, 24)


async def drive(phone: Phone, plan: GamePlan, start: int, stop: int, rng: random.Random) -> None:
    """Do the plan's steps ``start`` to ``stop`` on ``phone``, a short pause before each
    tap; the phone's record says how far it came and what went wrong."""
    for index in range(start, stop):
        step = plan.steps[index]
        if step.kind != "open":
            await asyncio.sleep(rng.uniform(0.05, 0.4))
        await phone.do(step)
        phone.tapped.errors += [f"step {index} {step.key}: {t}" for t in await phone.trouble(step)]
        phone.tapped.done = index + 1


async def woke(phone: Phone, step: Step) -> bool:
    """The first tap on a page that found a restarted server again: whether it was
    taken. It may not be: the server's new session does not know the buttons of the
    page the old one laid out, so Streamlit runs the page anew and takes no tap — the
    page shows the game where it stands and the referee taps again (one tap, nothing
    typed again). The referee page (``/referee``, what the cards open) takes it at once:
    ``tests/dashboard/test_referee_offline.py``."""
    from playwright.async_api import TimeoutError as NotThere

    await phone.settled(phone.page.locator(f".st-key-{step.key} button").first.tap)
    try:  # shown, not merely in the page: the card buttons stay in it, hidden, while a draw is due
        await phone.page.locator(f".st-key-{step.then} button").first.wait_for(state="visible", timeout=10_000)
    except NotThere:
        return False
    return True


def stored_entries(db: Path, table: Table) -> list[str] | None:
    """The entries of the table's draft in the store, in order (its first line left
    out); ``None`` for a table nobody began."""
    draft = read_draft(Store(db, wait=60), table.game_id)
    return None if draft is None else [json.loads(line)["type"] for line in draft.lines[1:]]


def test_ten_phones_record_at_once_beside_the_organisers_ingest(
    server: Server, organisers_logs: Path, tmp_path: Path
) -> None:
    from playwright.async_api import async_playwright

    tables = morning(server.db, 10)
    server.start()
    steps = 8  # each table's first turn: the deal, a path card laid, its draw
    plans = {t.label: game_plan(t.players) for t in tables}

    async def day() -> tuple[list[Phone], int, str]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phones = list(
                await asyncio.gather(*(Phone.opened(browser, server.address, t.code) for t in tables))
            )  # opened at once, as at a venue
            ingest = await asyncio.create_subprocess_exec(
                *saboteur_command(), "ingest", str(organisers_logs), "--db", str(server.db), "--workers", "1",
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            )  # fmt: skip
            await asyncio.gather(
                *(
                    drive(phone, plans[t.label], 0, steps, random.Random(n))
                    for n, (phone, t) in enumerate(zip(phones, tables, strict=True))
                )
            )
            output, _ = await ingest.communicate()
            await browser.close()
            return phones, ingest.returncode or 0, output.decode()

    phones, code, output = asyncio.run(day())
    server.stop()
    assert code == 0, output
    for phone, table in zip(phones, tables, strict=True):
        assert phone.tapped.errors == [], (table.label, phone.tapped.errors)
        assert phone.tapped.done == steps
        assert stored_entries(server.db, table) == recorded_after(plans[table.label], steps), table.label
    verdict = verify(Store(server.db))
    assert verdict.ok, verdict.problems
    with Store(server.db).connect(read_only=True) as con:
        (games,) = con.execute("SELECT count(*) FROM games").fetchone() or (0,)
    assert games == len(list(organisers_logs.iterdir()))


def test_a_server_killed_mid_round_loses_no_entry_and_the_phones_carry_on(server: Server) -> None:
    from playwright.async_api import async_playwright

    tables = morning(server.db, 3)
    server.start()
    plans = {t.label: game_plan(t.players, played=1) for t in tables}
    before_kill = 10  # every phone has dealt, laid a card, passed and drawn when the server dies

    async def day() -> list[tuple[Table, int, list[str] | None, int]]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phones = list(
                await asyncio.gather(*(Phone.opened(browser, server.address, t.code, timeout=20) for t in tables))
            )  # opened at once, as at a venue
            rngs = [random.Random(n) for n in range(len(tables))]
            runs = [
                asyncio.create_task(drive(phone, plans[t.label], 0, len(plans[t.label].steps), rng))
                for phone, t, rng in zip(phones, tables, rngs, strict=True)
            ]
            while min(p.tapped.done for p in phones) < before_kill:
                await asyncio.sleep(0.05)
            server.kill()  # mid-round: a tap may be on its way
            for run in runs:  # a tap on its way is not shown taken: the phone's record stops at the last that was
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)
            shown = [p.tapped.done for p in phones]
            sockets = [p.sockets for p in phones]
            server.start()  # on the same port: the pages find it again by themselves

            async def resume(
                phone: Phone, table: Table, done: int, opened: int
            ) -> tuple[Table, int, list[str] | None, int]:
                plan = plans[table.label]
                await phone.reconnected(opened)  # the page finds the server again by itself
                stored = await asyncio.to_thread(stored_entries, server.db, table)
                start = resume_at(plan, stored)
                step = plan.steps[start]
                # the page shows the game where it stands: the step the referee takes next is there
                await phone.page.locator(f".st-key-{step.key} button").first.wait_for(timeout=60_000)
                phone.tapped.errors = []
                if await woke(phone, plan.steps[start]):
                    start += 1
                return table, done, stored, start

            resumed = list(  # each referee looks at their own phone, at the same time
                await asyncio.gather(*(resume(*each) for each in zip(phones, tables, shown, sockets, strict=True)))
            )
            await asyncio.gather(
                *(
                    drive(phone, plans[table.label], start, start + AFTER, rng)
                    for phone, rng, (table, _, _, start) in zip(phones, rngs, resumed, strict=True)
                )
            )
            for phone, table in zip(phones, tables, strict=True):
                assert phone.tapped.errors == [], (table.label, phone.tapped.errors)
            await browser.close()
            return resumed

    resumed = asyncio.run(day())
    server.stop()
    for table, done, stored, start in resumed:
        plan = plans[table.label]
        shown = recorded_after(plan, done)
        assert stored is not None and stored[: len(shown)] == shown, (table.label, "an entry shown taken was lost")
        assert start >= done - 3  # at most an entry half made was made again
        assert stored_entries(server.db, table) == recorded_after(plan, start + AFTER), (table.label, "doubled")
    assert verify(Store(server.db)).ok


def test_a_phone_whose_network_is_cut_finds_the_server_again_and_loses_nothing(server: Server) -> None:
    from playwright.async_api import async_playwright

    (table, *_) = morning(server.db, 1)
    server.start()
    wifi = Cutter(server.port).start()
    plan = game_plan(table.players, played=1)
    rng = random.Random(3)

    async def day() -> tuple[int, list[str] | None, int]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phone = await Phone.opened(browser, wifi.address, table.code, timeout=20)
            await drive(phone, plan, 0, 8, rng)  # the deal, a path card laid, its draw
            opened = phone.sockets
            wifi.cut()
            shown = phone.tapped.done
            for _ in range(60):  # the page notices its websocket gone, and says so once it cannot reconnect
                if any(t.startswith("connection") for t in await phone.trouble(plan.steps[shown])):
                    break
                await asyncio.sleep(0.5)
            else:
                raise AssertionError("the page showed no sign of the cut in 30 s")
            wifi.restore()
            await phone.reconnected(opened)
            stored = await asyncio.to_thread(stored_entries, server.db, table)
            start = resume_at(plan, stored)
            await phone.page.locator(f".st-key-{plan.steps[start].key} button").first.wait_for(timeout=60_000)
            if await woke(phone, plan.steps[start]):
                start += 1
            phone.tapped.errors = []
            await drive(phone, plan, start, start + AFTER, rng)
            assert phone.tapped.errors == []
            await browser.close()
            return shown, stored, start

    try:
        shown, stored, start = asyncio.run(day())
    finally:
        wifi.stop()
    server.stop()
    assert wifi.cuts == 1
    assert stored == recorded_after(plan, shown)  # nothing shown taken was lost, nothing more was made
    assert stored_entries(server.db, table) == recorded_after(plan, start + AFTER)
