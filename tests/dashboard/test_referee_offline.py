"""The referee page at a venue whose network drops (issue 29): a real server
(``saboteur dashboard``), real Chromium phones, and the network cut for real by a proxy
that drops every connection (``tests/venue/cutter.py``; Chromium's offline emulation
leaves an open connection alone, and would prove nothing).

- a phone offline for a minute records ten entries: the page says they wait, a reload
  keeps them, and when the network is back they are stored once each, in order (the
  minute is the phone's own: Playwright's clock moves the page's time and timers on a
  minute, so the page tries the server again as often as a minute would make it, up to
  its longest pause and on, and the test waits seconds, not a minute);
- two phones at one table, one of them offline, record the same turn: the one online
  wins, the other shows the conflict with both versions, and nothing is doubled;
- the server is killed (``kill -9``) while three phones record and started again: the
  phones never stop taking entries, and every one is stored once, in order;
- ten phones record while the organiser ingests a folder of logs and seats the round
  anew: every entry is stored, none is refused.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from ingest.drafts import read_draft
from ingest.store import Store
from ingest.verify import verify
from tests.venue.cutter import Cutter
from tests.venue.morning import ROUND, TOURNAMENT, Table, morning
from tests.venue.morning import organisers_logs as simulated_logs
from tests.venue.phone import CHROMIUM, launched
from tests.venue.server import Server, saboteur_command
from tests.venue.tablet import Entry, RefereePhone, stored_after, table_entries

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

OFFLINE_SECONDS = 60.0


def stored_types(db: Path, table: Table) -> list[str]:
    """The event types of the table's draft, in order (its first line left out)."""
    draft = read_draft(Store(db, wait=60), table.game_id)
    assert draft is not None, table.game_id
    return [json.loads(line)["type"] for line in draft.lines[1:]]


def test_a_phone_offline_for_a_minute_keeps_its_ten_entries_and_sends_each_once_in_order(server: Server) -> None:
    from playwright.async_api import async_playwright

    (table,) = morning(server.db, 1)
    server.start()
    cutter = Cutter(server.port).start()
    entries = table_entries(table.players)

    async def day() -> tuple[RefereePhone, list[str], str, int]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phone = await RefereePhone.opened(browser, cutter.address, table.code)
            await phone.page.clock.install()  # the page's time: moved on by the test, else as the wall's
            await phone.open()
            await phone.begin()
            await phone.tap(entries[0], wait_recorded=True)  # the deal, online
            await phone.all_sent()
            cutter.cut()
            offline = entries[1:11]
            for entry in offline:  # a minute without the network, an entry every six seconds
                await phone.page.clock.fast_forward(round(OFFLINE_SECONDS / len(offline) * 1000))
                await phone.tap(entry)
            said = await phone.link()
            await phone.page.reload()  # the phone keeps them: IndexedDB, the page from its service worker
            await phone.page.wait_for_function("() => document.getElementById('link').dataset.waiting === '10'")
            kept = await phone.waiting()
            assert await asyncio.to_thread(stored_types, server.db, table) == ["round_started"]
            cutter.restore()
            await phone.all_sent()
            await browser.close()
            return phone, [e.type for e in entries[:11]], said, kept

    try:
        phone, expected, said, kept = asyncio.run(day())
    finally:
        cutter.stop()
    assert said == "Offline · 10 entries wait to be sent"
    assert kept == 10
    assert phone.log.errors == []
    assert stored_types(server.db, table) == expected


def test_two_phones_at_one_table_record_the_same_turn_and_the_one_offline_is_shown_the_conflict(
    server: Server,
) -> None:
    from playwright.async_api import async_playwright

    (table,) = morning(server.db, 1)
    server.start()
    cutter = Cutter(server.port).start()
    entries = table_entries(table.players)

    async def day() -> tuple[str, list[str], list[str]]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            online = await RefereePhone.opened(browser, server.address, table.code)
            behind = await RefereePhone.opened(browser, cutter.address, table.code)
            await online.begin()
            await online.tap(entries[0], wait_recorded=True)  # the deal
            await behind.page.reload()  # the second phone reads the game as it stands
            await behind.page.wait_for_selector("#kind-path")
            cutter.cut()
            await behind.tap(entries[3])  # the same turn: a pass on this phone…
            await online.tap(entries[1], wait_recorded=True)  # …a path card on the other, sent first
            cutter.restore()
            conflict = behind.page.locator("#conflict")
            await conflict.wait_for()
            shown = await conflict.inner_text()
            await behind.page.locator("#drop-mine").click()
            await behind.all_sent()
            due = await behind.page.locator("#due").inner_text()
            await browser.close()
            return shown, online.log.errors + behind.log.errors, [due]

    try:
        shown, errors, due = asyncio.run(day())
    finally:
        cutter.stop()
    assert "Another phone recorded this table first." in shown
    assert "Player 01 lays a straight path (east–west) at column 1, row 0" in shown  # theirs
    assert "Player 01 passes" in shown  # mine
    assert errors == []
    assert due == ["Player 01 draws a card"]
    assert stored_types(server.db, table) == ["round_started", "play_path"]


def test_a_server_killed_mid_round_and_started_again_loses_no_entry_and_the_phones_never_stop(
    server: Server,
) -> None:
    from playwright.async_api import async_playwright

    tables = morning(server.db, 3)
    server.start()
    plans = {t.label: table_entries(t.players) for t in tables}

    async def record(phone: RefereePhone, table: Table, start: int, stop: int) -> None:
        for entry in plans[table.label][start:stop]:
            await phone.pause(0.3)
            await phone.tap(entry)

    async def day() -> tuple[list[RefereePhone], list[int]]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phones = list(
                await asyncio.gather(*(RefereePhone.opened(browser, server.address, t.code) for t in tables))
            )  # opened at once, as at a venue
            for phone in phones:
                await phone.begin()
            await asyncio.gather(*(record(p, t, 0, 8) for p, t in zip(phones, tables, strict=True)))
            server.kill()  # an entry may be on its way
            await asyncio.gather(*(record(p, t, 8, 14) for p, t in zip(phones, tables, strict=True)))
            kept = [await phone.waiting() for phone in phones]  # taken while no server was there
            server.start()  # on the same port: the phones send what they kept by themselves
            await asyncio.gather(*(record(p, t, 14, 20) for p, t in zip(phones, tables, strict=True)))
            for phone in phones:
                await phone.all_sent()
            await browser.close()
            return phones, kept

    phones, kept = asyncio.run(day())
    server.stop()
    assert min(kept) >= 6, kept
    for phone, table in zip(phones, tables, strict=True):
        assert phone.log.errors == [], table.label
        assert stored_types(server.db, table) == [e.type for e in plans[table.label][:20]], table.label
    verdict = verify(Store(server.db))
    assert verdict.ok, verdict.problems


@pytest.fixture
def organisers_logs(tmp_path: Path) -> Path:
    """A folder of small simulated games, for the organiser to ingest mid-round."""
    return simulated_logs(tmp_path, 16)


def test_ten_phones_record_while_the_organiser_ingests_and_seats_the_round_anew(
    server: Server, organisers_logs: Path
) -> None:
    from playwright.async_api import async_playwright

    tables = morning(server.db, 10)
    server.start()
    plans = {t.label: table_entries(t.players) for t in tables}
    count = 9

    async def record(phone: RefereePhone, table: Table) -> None:
        await phone.begin()
        for entry in plans[table.label][:count]:
            await phone.pause(0.2)
            await phone.tap(entry)

    async def organiser(*args: str) -> tuple[int, str]:
        command = await asyncio.create_subprocess_exec(
            *saboteur_command(), *args, "--db", str(server.db), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        output, _ = await command.communicate()
        return command.returncode or 0, output.decode()

    async def day() -> tuple[list[RefereePhone], list[tuple[int, str]]]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phones = list(
                await asyncio.gather(*(RefereePhone.opened(browser, server.address, t.code) for t in tables))
            )  # opened at once, as at a venue
            seating = server.db.parent / "seating.csv"
            done = await asyncio.gather(
                organiser("ingest", str(organisers_logs), "--workers", "1"),
                organiser(
                    "tournament", "seat", TOURNAMENT, "--round", str(ROUND), "--from-csv", str(seating),
                    "--replace", "--reason", "a seat entered twice on the sheet",
                ),
                *(record(p, t) for p, t in zip(phones, tables, strict=True)),
            )  # fmt: skip
            for phone in phones:
                await phone.all_sent()
            await browser.close()
            return phones, [d for d in done if d is not None]

    phones, commands = asyncio.run(day())
    server.stop()
    for code, output in commands:
        assert code == 0, output
    for phone, table in zip(phones, tables, strict=True):
        assert phone.log.errors == [], table.label
        assert stored_types(server.db, table) == [e.type for e in plans[table.label][:count]], table.label
    with Store(server.db).connect(read_only=True) as con:
        (games,) = con.execute("SELECT count(*) FROM games").fetchone() or (0,)
    assert games == len(list(organisers_logs.iterdir()))


def test_an_entry_taken_as_its_code_is_revoked_is_named_on_the_phone(server: Server) -> None:
    """The organiser revokes a table's code mid-round (the card went home with a
    player): the entry the referee tapped after it is refused, and the page said only
    "This card opens no table", the entry kept on the phone where nobody could see it.
    It names the entries not recorded, to enter again with the table's new card."""
    from playwright.async_api import async_playwright

    from analytics import records

    (table,) = morning(server.db, 1)
    server.start()
    entries = table_entries(table.players)

    async def day() -> tuple[RefereePhone, str]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phone = await RefereePhone.opened(browser, server.address, table.code)
            await phone.begin()
            await phone.tap(entries[0], wait_recorded=True)  # the deal
            await phone.all_sent()
            await asyncio.to_thread(
                records.revoke_referee_code, Store(server.db, wait=60), TOURNAMENT, ROUND, table.label, "card lost"
            )
            await phone.tap(entries[1])
            await phone.page.wait_for_selector("#stranded")
            shown = await phone.page.locator("#stranded").inner_text()
            await browser.close()
            return phone, shown

    phone, shown = asyncio.run(day())
    assert "Not recorded: 1 entry, kept on this phone" in shown, shown
    assert "enter them again" in shown
    assert phone.log.errors == []
    assert stored_types(server.db, table) == ["round_started"]


def test_a_warning_heard_and_recorded_is_not_said_again_as_an_offline_finding(server: Server) -> None:
    """ "It happened: record it" after the rules' warning: the entry is recorded, and it
    was listed again under "The rules found, in entries recorded while offline", online
    as it was, with an Undo beside it that took back another entry."""
    from playwright.async_api import async_playwright

    from tests.venue.tablet import referee_game

    (table,) = morning(server.db, 1)
    server.start()
    entries = referee_game(table.players, rounds=1)
    warned = next(i for i, e in enumerate(entries) if "#record-anyway" in e.then)

    async def day() -> tuple[RefereePhone, int]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phone = await RefereePhone.opened(browser, server.address, table.code)
            for entry in entries[: warned + 1]:
                await phone.tap(entry)
                await phone.all_sent()
            boxes = await phone.page.locator("#findings").count()
            await browser.close()
            return phone, boxes

    phone, boxes = asyncio.run(day())
    assert boxes == 0
    assert phone.log.errors == []
    assert stored_types(server.db, table)[-1] == "play_path"


def test_undo_while_the_rules_warning_is_shown_takes_back_that_entry_alone(server: Server) -> None:
    """Undo stays at hand while the rules' warning is shown: tapped then, it was queued as
    an entry of its own after the one warned about, and once "Change it" dropped that one
    it was sent, and took back the draw before it, recorded right, unsaid. The entry the
    server did not record is the last entry: Undo takes it back on the phone alone."""
    from playwright.async_api import async_playwright

    from tests.venue.tablet import referee_game

    (table,) = morning(server.db, 1)
    server.start()
    entries = referee_game(table.players, rounds=1)
    warned = next(i for i, e in enumerate(entries) if "#record-anyway" in e.then)

    async def day() -> RefereePhone:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            phone = await RefereePhone.opened(browser, server.address, table.code)
            for entry in entries[:warned]:
                await phone.tap(entry)
                await phone.all_sent()
            await phone.tap(Entry(entries[warned].clicks, entries[warned].type))  # not recorded anyway
            await phone.page.locator("#warning").wait_for()
            before = await phone.number("taken")
            await phone.page.locator("#undo").click()
            await phone.page.wait_for_function(f"() => Number(document.body.dataset.taken) > {before}")
            if await phone.page.locator("#change-it").count():  # as the referee did: the warning still shown
                await phone.page.locator("#change-it").click()
            await phone.all_sent()
            await phone.page.wait_for_timeout(500)
            await browser.close()
            return phone

    phone = asyncio.run(day())
    assert phone.log.errors == []
    assert stored_types(server.db, table) == stored_after(entries[:warned])


def test_a_second_tab_on_the_table_takes_nothing_until_the_first_is_closed(server: Server) -> None:
    """Two tabs of one browser on one table's card kept one record on the phone, each
    with a queue of its own: offline, the second tab's save wrote over the first's, and
    an entry the first had shown as taken was gone once a reload read the record. The tab
    opened first records; the second says so and takes nothing, and takes over, with what
    the first kept, once it is closed."""
    from playwright.async_api import async_playwright

    (table,) = morning(server.db, 1)
    server.start()
    entries = table_entries(table.players)

    async def day() -> tuple[RefereePhone, RefereePhone, bool]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            first = await RefereePhone.opened(browser, server.address, table.code)
            await first.begin()
            await first.tap(entries[0], wait_recorded=True)  # the deal: the pile is known, and its draws
            second = RefereePhone(await first.page.context.new_page(), server.address, table.code)
            await second.open()
            await second.page.locator("#held").wait_for()
            await first.page.context.set_offline(True)
            await first.page.bring_to_front()  # the referee goes back to the first tab
            for entry in entries[1:3]:
                await first.tap(entry)
            tapped = await second.page.locator("button").count() > 0  # a held tab offers no button to tap
            await first.page.close()  # the first tab closed, its entries still on the phone
            await second.page.wait_for_selector("#held", state="detached")
            await second.page.wait_for_function("() => document.body.dataset.taken !== undefined")
            await second.page.context.set_offline(False)
            await second.all_sent()
            await browser.close()
            return first, second, tapped

    first, second, tapped = asyncio.run(day())
    assert not tapped
    assert first.log.errors == [] and second.log.errors == []
    assert stored_types(server.db, table) == stored_after(entries[:3])
