"""The referee's phone page under a referee's fingers and a screen reader, in a real
headless Chromium over a real server (``saboteur dashboard``, one for the module, a
table of its own for each test):

- taps faster than the page: the server's answer arriving while the referee taps does
  not move the board under the finger; a double tap on Pass records one entry, not the
  pass and the draw the next screen puts under the finger (a tap after the settle time
  is taken); two clicks faster than the phone keeps the entry are one entry; a path
  card laid beside a goal face down does not offer the draw before the server says
  whether the goal is turned up;
- what a screen reader and a keyboard are told: focus on the new turn's heading after
  a tap, the incident note's fields named, the maze's cells named by their cards and
  places, the maze one stop of Tab with arrow keys between its cells, the chosen player
  or card said (``aria-pressed``) and its focus seen, a card turned said turned, the
  offered cells marked by more than a colour, the header's offline status whole at 320
  px in Norwegian, the tab's title translated, and the page's colours readable (WCAG
  AA).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final, TypeVar

import pytest

from dashboard.i18n import translations
from tests.venue.morning import Table, morning
from tests.venue.phone import CHROMIUM, launched
from tests.venue.server import Server
from tests.venue.tablet import DRAW, PASS, RefereePhone, _deal, _path

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

T = TypeVar("T")
TABLES = 20
"""One table a test (:func:`table_of`), and room for a few more: 15 for 16 tests left the last one none."""


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[Table]]]:
    """One server for the module, over a store with a table (and its code) per test."""
    folder = tmp_path_factory.mktemp("referee-access")
    tables = morning(folder / "venue.duckdb", TABLES)
    server = Server(folder / "venue.duckdb", folder).start()
    try:
        yield server, tables
    finally:
        server.stop()


def table_of(venue: tuple[Server, list[Table]]) -> Table:
    """A table no other test of the module has recorded at."""
    return venue[1].pop()


def on_a_phone(
    server: Server,
    table: Table,
    act: Callable[[RefereePhone], Awaitable[T]],
    *,
    width: int = 390,
    lang: str = "",
    density: float = 1,
) -> T:
    """``act`` on the table's page, on a phone of ``width`` CSS pixels (touch) and
    ``density`` device pixels to one, in ``lang`` if given; the page's script errors
    fail the test."""
    from playwright.async_api import async_playwright

    async def run() -> tuple[T, list[str]]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            context = await browser.new_context(
                viewport={"width": width, "height": 844},
                device_scale_factor=density,
                is_mobile=True,
                has_touch=True,
                reduced_motion="reduce",
            )
            page = await context.new_page()
            page.set_default_timeout(30_000)
            phone = RefereePhone(page, server.address, table.code)
            await page.goto(f"{server.address}/referee?code={table.code}" + (f"&lang={lang}" if lang else ""))
            await page.wait_for_function("() => document.body.dataset.taken !== undefined")
            try:
                return await act(phone), phone.log.errors
            finally:
                await browser.close()

    done, errors = asyncio.run(run())
    assert errors == []
    return done


async def dealt(phone: RefereePhone, table: Table) -> None:
    """The game begun and its first round dealt, recorded: the first player's turn."""
    await phone.begin()
    await phone.tap(_deal(table.players[0]), wait_recorded=True)
    await phone.all_sent()


async def slowed(page: Any, seconds: float) -> None:
    """Every entry's answer from now on takes ``seconds`` (a busy server, slow Wi-Fi)."""

    async def later(route: Any) -> None:
        await asyncio.sleep(seconds)
        await route.continue_()

    await page.route("**/referee/api/entries*", later)


async def top(page: Any, selector: str) -> float:
    return float(await page.evaluate(f"() => document.querySelector({selector!r}).getBoundingClientRect().top"))


async def centre(page: Any, selector: str) -> tuple[float, float]:
    box = await page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# -- taps faster than the page -------------------------------------------------------------------


def test_the_board_does_not_move_when_the_answer_arrives_while_the_referee_picks_a_cell(
    venue: tuple[Server, list[Table]],
) -> None:
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> tuple[list[float], list[float], bool, bool]:
        page = phone.page
        await dealt(phone, table)
        await phone.tap(_path("EW", 1), wait_recorded=True)
        await phone.all_sent()
        await slowed(page, 1.5)
        recorded = await phone.number("recorded")
        await phone.tap(DRAW)  # its answer on its way: the next turn is guessed
        await page.locator("#kind-path").click()
        await page.locator("button[data-card='NS']").first.click()
        await page.locator(".maze .cell[data-cell='2,1']").click()  # every free cell offered: the turn is guessed
        guessed = [await top(page, ".maze"), await top(page, "#record")]
        offered_before = await page.locator("#any-cell").count() > 0
        await page.wait_for_function(f"() => Number(document.body.dataset.recorded) > {recorded}")
        answered = [await top(page, ".maze"), await top(page, "#record")]
        return guessed, answered, offered_before, await page.locator("#any-cell").is_visible()

    guessed, answered, offered_before, offered_after = on_a_phone(server, table, act)
    assert not offered_before and offered_after  # "Another cell" comes with the server's cells…
    assert answered == guessed  # …and neither the board nor Record moves under the finger


def test_a_double_tap_on_pass_records_the_pass_alone_and_a_tap_after_the_settle_time_is_taken(
    venue: tuple[Server, list[Table]],
) -> None:
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> tuple[int, int, int, str]:
        page = phone.page
        await dealt(phone, table)
        await phone.tap(_path("EW", 1), wait_recorded=True)
        await phone.tap(DRAW, wait_recorded=True)
        await phone.all_sent()
        before = await phone.number("taken")
        x, y = await centre(page, "#kind-pass")
        await page.touchscreen.tap(x, y)
        await asyncio.sleep(0.08)
        await page.touchscreen.tap(x, y)  # where the next screen's Draw now is
        await asyncio.sleep(1.0)
        double = await phone.number("taken") - before
        waiting = await page.locator("ol.recent li.waiting").all_inner_texts()
        assert double == 1, f"a double tap on Pass took {double} entries: {waiting}"
        await phone.all_sent()
        x, y = await centre(page, "#draw")
        await page.touchscreen.tap(x, y)  # a deliberate tap, long after the screen was drawn
        await page.wait_for_function(f"() => Number(document.body.dataset.taken) > {before + double}")
        await phone.all_sent()
        await asyncio.sleep(0.5)
        again = await phone.number("taken") - before - double
        # two clicks in one task, faster than the phone keeps the first: one entry
        same_task = await phone.number("taken")
        await page.evaluate("() => { const b = document.getElementById('kind-pass'); b.click(); b.click(); }")
        await phone.all_sent()
        await asyncio.sleep(0.5)
        return double, again, await phone.number("taken") - same_task, await page.locator("#due").inner_text()

    double, again, same_task, due = on_a_phone(server, table, act)
    assert double == 1
    assert again == 1
    assert same_task == 1
    third = f"Player {table.players[2][1:]}"
    assert due == f"{third} draws a card"  # the second passed and drew, the third passed: nothing doubled


def test_a_click_whose_button_is_drawn_anew_between_press_and_release_is_taken_once(
    venue: tuple[Server, list[Table]],
) -> None:
    """The server's answer may draw the page anew while the mouse is down on a button; the
    browser then sends no click (the button pressed is gone), and the referee's tap was lost
    (a phone's ninth tap in the ten-phone test, once in four runs). The same button drawn
    anew is clicked once; a release on another button takes nothing, nor one of the right
    button (it was clicked as a left one). So with the space bar, pressed on a button and
    let go on the same button drawn anew."""
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> tuple[int, int, int, str]:
        page = phone.page
        await dealt(phone, table)
        await phone.tap(_path("EW", 1), wait_recorded=True)
        await phone.all_sent()
        before = await phone.number("taken")
        await page.mouse.move(*await centre(page, "#draw"))
        await page.mouse.down()
        await page.evaluate("() => render()")  # an answer from the server, drawn while the button is held
        await page.mouse.up()
        await phone.all_sent()
        await asyncio.sleep(0.5)
        taken = await phone.number("taken") - before
        assert taken == 1, f"a click across a redraw took {taken} entries"
        # pressed on one button, released on another after a redraw: no one's tap
        before = await phone.number("taken")
        await page.mouse.move(*await centre(page, "#kind-pass"))
        await page.mouse.down()
        await page.evaluate("() => render()")
        await page.mouse.move(*await centre(page, "#kind-path"))
        await page.mouse.up()
        await asyncio.sleep(0.5)
        elsewhere = await phone.number("taken") - before
        # the right button pressed and let go on Pass across a redraw: no tap (it was a left click)
        before = await phone.number("taken")
        await page.mouse.move(*await centre(page, "#kind-pass"))
        await page.mouse.down(button="right")
        await page.evaluate("() => render()")
        await page.mouse.up(button="right")
        await asyncio.sleep(0.5)
        elsewhere += await phone.number("taken") - before
        # a finger on Pass across a redraw: the browser clicks where it is lifted, once
        before = await phone.number("taken")
        x, y = await centre(page, "#kind-pass")
        touch = await page.context.new_cdp_session(page)
        await touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        await page.evaluate("() => render()")
        await touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        await phone.all_sent()
        await asyncio.sleep(0.5)
        fingered = await phone.number("taken") - before
        await phone.tap(DRAW, wait_recorded=True)
        # the space bar, pressed on Pass, the page drawn anew before it is let go: one pass
        before = await phone.number("taken")
        await page.focus("#kind-pass")
        await page.keyboard.down(" ")
        await page.evaluate("() => render()")
        await page.keyboard.up(" ")
        await phone.all_sent()
        await asyncio.sleep(0.5)
        spaced = await phone.number("taken") - before
        return taken, elsewhere, fingered, spaced, await page.locator("#due").inner_text()

    taken, elsewhere, fingered, spaced, due = on_a_phone(server, table, act)
    assert taken == 1
    assert elsewhere == 0
    assert fingered == 1
    assert spaced == 1
    assert due == f"Player {table.players[2][1:]} draws a card"


def test_a_path_card_beside_a_face_down_goal_does_not_offer_the_draw_before_the_answer(
    venue: tuple[Server, list[Table]],
) -> None:
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> tuple[int, str, int, int]:
        page = phone.page
        await dealt(phone, table)
        for card, x in (("EW", 1), ("EW", 2), ("NEW", 3), ("NEW", 5), ("NESW", 6)):  # the setup card lies at 4
            await phone.tap(_path(card, x), wait_recorded=True)
            await phone.tap(DRAW, wait_recorded=True)
        await phone.all_sent()
        await slowed(page, 1.5)
        await phone.tap(_path("EW", 7))  # it reaches the middle goal
        draws = await page.locator("#draw").count()
        waits = await page.locator("#draw-waits").inner_text()
        await page.locator("button[data-goal='goal_gold']").wait_for()
        return draws, waits, await page.locator("#draw").count(), await page.locator("#draw-waits").count()

    draws, waits, draws_after, waits_after = on_a_phone(server, table, act)
    assert draws == 0 and waits == "Does the path reach a goal? The server answers…"
    assert draws_after == 0 and waits_after == 0  # the server says: turn up the goal


# -- a keyboard, a screen reader, the eye ---------------------------------------------------------------


def test_a_rules_warning_raised_by_a_key_takes_the_focus_to_its_first_answer(
    venue: tuple[Server, list[Table]],
) -> None:
    """The warning comes above the turn's heading: focus went to the heading beneath it,
    and a keyboard went back past the alert to answer it."""
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> str:
        page = phone.page
        await dealt(phone, table)
        for selector in ("#kind-path", "button[data-card='NS']", "#any-cell", ".maze .cell[data-cell='3,3']"):
            await page.locator(selector).first.click()
        await page.locator("#record").focus()
        await page.keyboard.press("Enter")  # a card laid nowhere near the path: the rules object
        await page.locator("#warning").wait_for()
        return str(await page.evaluate("() => document.activeElement.id"))

    assert on_a_phone(server, table, act) == "record-anyway"


def test_focus_goes_to_the_new_turn_after_a_tap_and_stays_on_a_chosen_card(
    venue: tuple[Server, list[Table]],
) -> None:
    server, table = venue[0], table_of(venue)
    focused = "() => { const e = document.activeElement; return e.id || e.dataset.card || e.tagName; }"

    async def act(phone: RefereePhone) -> tuple[str, str, str, str, str | None]:
        page = phone.page
        await dealt(phone, table)
        before = await phone.number("taken")
        await page.locator("#kind-pass").focus()
        await page.keyboard.press("Enter")
        await page.wait_for_function(f"() => Number(document.body.dataset.taken) > {before}")
        after_pass = await page.evaluate(focused)
        due = await page.evaluate("() => document.activeElement.textContent")
        await phone.all_sent()
        await page.locator("#no-draw").focus()
        await page.keyboard.press("Enter")  # the screen changes, the turn does not
        after_no_draw = await page.evaluate(focused)
        await page.locator("button[data-player]").first.focus()
        await page.keyboard.press("Enter")
        await page.locator("#kind-path").focus()
        await page.keyboard.press("Enter")
        await page.locator("button[data-card='NE']").focus()
        await page.keyboard.press("Enter")  # chosen: the same card keeps the focus
        on_card = await page.evaluate(focused)
        pressed = await page.locator("button[data-card='NE']").get_attribute("aria-pressed")
        return after_pass, due, after_no_draw, on_card, pressed

    after_pass, due, after_no_draw, on_card, pressed = on_a_phone(server, table, act)
    assert after_pass == "due" and due == f"Player {table.players[0][1:]} draws a card"
    assert after_no_draw == "due"  # its button gone: the heading, not the page's body
    assert on_card == "NE" and pressed == "true"


def test_each_players_hand_is_counted_in_words_for_a_screen_reader(venue: tuple[Server, list[Table]]) -> None:
    """The players' row shows "Bob Jansen · 5": a screen reader said "5" after the name,
    with nothing to say what it counts."""
    server, table = venue[0], table_of(venue)
    dutch = translations("nl")

    async def act(phone: RefereePhone) -> tuple[str, list[str]]:
        await dealt(phone, table)
        inner = "[...document.querySelectorAll('.players span span')].map((s) => getComputedStyle(s).borderTopWidth)"
        return str(await phone.page.locator(".players").aria_snapshot()), await phone.page.evaluate(inner)

    said, borders = on_a_phone(server, table, act, lang="nl")
    assert borders and set(borders) == {"0px"}  # one chip a player, the count inside it
    hand = dutch.ngettext("%(num)s card in hand", "%(num)s cards in hand", 5) % {"num": 5}  # six at the table
    assert hand != "5 cards in hand" and said.count(hand) == len(table.players), said
    assert "· 5" not in said, said


def test_the_incident_note_names_its_fields_in_the_phones_language(venue: tuple[Server, list[Table]]) -> None:
    server, table = venue[0], table_of(venue)
    dutch = translations("nl").gettext

    async def act(phone: RefereePhone) -> list[str]:
        page = phone.page
        await dealt(phone, table)
        await page.get_by_role("button", name=dutch("Note an incident"), exact=True).click()
        return [
            str(await page.get_by_label(dutch(words), exact=True).get_attribute("id"))
            for words in ("Player", "What happened", "Note")
        ]

    assert on_a_phone(server, table, act, lang="nl") == ["note-player", "note-kind", "note-text"]
    assert dutch("What happened") != "What happened"


def test_the_mazes_cells_are_named_by_their_cards_and_places_and_a_card_turned_is_said_turned(
    venue: tuple[Server, list[Table]],
) -> None:
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> tuple[list[str], str, str]:
        page = phone.page
        await dealt(phone, table)
        await phone.tap(_path("EW", 1), wait_recorded=True)
        await phone.tap(DRAW, wait_recorded=True)  # the next turn: the maze as it lies
        names = []
        for cell in ("0,0", "1,0", "8,-2", "8,0", "2,1", "4,0"):
            label = await page.locator(f".maze .cell[data-cell='{cell}']").get_attribute("aria-label")
            names.append(str(label))
        for name in names:  # what a screen reader says of each: its accessible name
            assert await page.get_by_role("button", name=name, exact=True).count() == 1, name
        await page.locator("#kind-path").click()
        await page.locator("button[data-card='NE']").first.click()
        await page.locator(".maze .cell.mark").first.click()
        laid = page.locator("#main .row button.card[data-card='NE']:not([aria-pressed]) img")  # the card as it lies
        lies = str(await laid.get_attribute("alt"))
        await page.locator("#turn").click()
        return names, lies, str(await laid.get_attribute("alt"))

    names, upright, turned = on_a_phone(server, table, act)  # (the cell the card lies in: either way)
    assert names == [
        "start card, column 0, row 0",
        "straight path (east–west), column 1, row 0",
        "top goal, face down, column 8, row -2",
        "middle goal, face down, column 8, row 0",
        "empty cell, column 2, row 1",
        "crossroads, column 4, row 0",  # the setup card
    ]
    assert {upright, turned} == {"curve (north–east)", "curve (south–west), turned"}  # "Turn it" said


FOCUSED_CELL = "() => { const e = document.activeElement; return e.dataset.cell || e.id || e.tagName; }"
STOPS_IN_MAZE = "() => [...document.querySelectorAll('.maze button:enabled')].filter((b) => b.tabIndex >= 0).length"
"""How many of the maze's cells Tab stops at."""


def test_the_maze_is_one_stop_of_tab_whose_arrow_keys_go_between_the_cells_offered(
    venue: tuple[Server, list[Table]],
) -> None:
    """With every free cell offered ("Another cell (as it happened)") each was a stop of
    Tab: a keyboard or a switch went through 72 of them to reach Record. The maze
    is one stop: Tab comes in on the first cell offered (or the one chosen), the arrow
    keys go from cell to cell offered, Enter chooses, Tab goes on past the maze; the
    rockfall's maze too."""
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> dict[str, Any]:
        page, seen = phone.page, {}
        await dealt(phone, table)
        for selector in ("#kind-path", "button[data-card='NS']", "#any-cell"):
            await page.locator(selector).first.click()
        seen["stops"] = await page.evaluate(STOPS_IN_MAZE)
        await page.locator("#main .row button.card").last.focus()  # the last path card: the maze comes after it
        seen["walk"] = []
        for key in ("Tab", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowLeft", "ArrowLeft"):
            await page.keyboard.press(key)  # 0,0 is the start card (no cell to lay on): passed over
            seen["walk"].append(await page.evaluate(FOCUSED_CELL))
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("Enter")
        await page.locator("#record").wait_for()
        seen["chosen"] = await page.evaluate(FOCUSED_CELL)  # drawn anew: the focus stays on it
        seen["record"] = await page.locator("#record").inner_text()
        seen["tabs"] = 0
        while await page.evaluate(FOCUSED_CELL) != "record" and seen["tabs"] < 100:
            await page.keyboard.press("Tab")
            seen["tabs"] += 1
        for _ in range(seen["tabs"]):
            await page.keyboard.press("Shift+Tab")
        seen["back"] = await page.evaluate(FOCUSED_CELL)  # back into the maze: on the cell chosen
        assert seen["stops"] == 1 and seen["tabs"] == 3, seen  # the card as it lies, "Turn it", Record
        for _ in range(seen["tabs"]):
            await page.keyboard.press("Tab")
        await page.keyboard.press("Enter")  # recorded: the next player's turn, after the draw
        await phone.all_sent()
        await phone.tap(DRAW, wait_recorded=True)
        await page.locator("#kind-action").click()
        await page.locator("button[data-card='rockfall']").click()
        seen["rockfall_stops"] = await page.evaluate(STOPS_IN_MAZE)
        await page.locator("#main .row button[data-card]").last.focus()  # the last action card
        rockfall = []
        for key in ("Tab", "ArrowRight", "ArrowDown", "ArrowUp", "ArrowDown"):
            await page.keyboard.press(key)
            rockfall.append(await page.evaluate(FOCUSED_CELL))
        seen["rockfall"] = rockfall
        taken = await phone.number("taken")
        await page.keyboard.press("Enter")
        await page.wait_for_function(f"() => Number(document.body.dataset.taken) > {taken}")
        await phone.all_sent()
        seen["taken"] = await page.locator("ol.recent li").first.inner_text()  # as the server says it
        return seen

    seen = on_a_phone(server, table, act)
    assert seen["walk"] == ["-1,-3", "0,-3", "0,-2", "0,-1", "0,1", "-1,1", "-1,1"]
    assert seen["chosen"] == "0,1" and seen["record"].endswith(" at 0,1"), seen["record"]
    assert seen["back"] == "0,1"
    # the rockfall's cells: the setup card at 4,0 and the card laid at 0,1, nothing to the right of 4,0
    assert seen["rockfall_stops"] == 1 and seen["rockfall"] == ["4,0", "4,0", "0,1", "4,0", "0,1"]
    assert "rockfall" in seen["taken"] and "column 0, row 1" in seen["taken"], seen["taken"]


SMALLEST_WORDS = """async () => {
  // the smallest words on the cards' pictures in the maze, as the screen draws them (px)
  const sizes = [];
  for (const img of document.querySelectorAll('.maze .cell img')) {
    const svg = new DOMParser().parseFromString(await (await fetch(img.src)).text(), 'image/svg+xml');
    const across = img.getBoundingClientRect().width / svg.documentElement.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll('text')) sizes.push(Number(text.getAttribute('font-size')) * across);
  }
  const maze = document.querySelector('.maze');
  return [Math.min(...sizes), document.querySelector('.maze .cell').getBoundingClientRect().width,
          maze.scrollWidth > maze.clientWidth, document.documentElement.scrollWidth];
}"""


SHADED: Final = """() => {
  // the maze's edges shaded (more to swipe to), by a shade the screen shows (not hidden, not clear)
  const frame = document.querySelector('.maze-frame');
  return ['more-left', 'more-right'].filter((edge) => frame.classList.contains(edge)
    && getComputedStyle(frame, edge === 'more-left' ? '::before' : '::after').backgroundImage.includes('gradient'));
}"""


OFFERED_IN_VIEW: Final = """() => {
  // the cells offered that the maze's frame shows
  const maze = document.querySelector('.maze'), frame = maze.getBoundingClientRect();
  return [...maze.querySelectorAll('.cell.mark')].filter((cell) => {
    const box = cell.getBoundingClientRect();
    return box.right > frame.left + 1 && box.left < frame.right - 1;
  }).map((cell) => cell.dataset.cell);
}"""


def test_the_mazes_words_are_10_px_on_a_phone_360_px_wide_the_maze_scrolling_sideways(
    venue: tuple[Server, list[Table]],
) -> None:
    """The maze's cells shrank to the phone's width, 30 px on a phone 360 px wide: the
    words on their cards ("START", "setup") were 4 px tall. A cell is 55 px at least, the
    maze scrolling sideways, and stays scrolled where a cell was tapped, from screen to
    screen (it came back at its left edge each turn, the play at its right), unless none
    of the cells offered would show there; a shade marks each edge it runs past; on a wide
    screen the maze is as before."""
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> dict[str, Any]:
        page, seen = phone.page, {}
        await dealt(phone, table)
        seen["phone"] = await page.evaluate(SMALLEST_WORDS)
        seen["edges"] = [await page.evaluate(SHADED)]
        # swiped to the goals, then a card whose cells lie by the start: brought into view
        await page.evaluate("() => { document.querySelector('.maze').scrollLeft = 10000; }")
        await page.wait_for_function("() => document.querySelector('.maze').scrollLeft > 200")
        for selector in ("#kind-path", "button[data-card='NS']"):
            await page.locator(selector).first.click()
        await page.locator(".maze .cell.mark").first.wait_for()
        seen["offered"] = await page.evaluate(OFFERED_IN_VIEW)
        await page.locator("#any-cell").click()
        await page.evaluate("() => { document.querySelector('.maze').scrollLeft = 10000; }")
        scrolled = await page.evaluate("() => document.querySelector('.maze').scrollLeft")
        await page.wait_for_function(f"({SHADED})().includes('more-left')", timeout=5_000)
        seen["edges"].append(await page.evaluate(SHADED))
        await page.locator(".maze .cell[data-cell='9,1']").click()
        await page.locator("#record").wait_for()
        seen["scrolled"] = [scrolled, await page.evaluate("() => document.querySelector('.maze').scrollLeft")]
        seen["record"] = await page.locator("#record").inner_text()
        # a screen with no maze (the action cards), then the turn's maze again: where it was
        back = page.get_by_role("button", name="Back")
        await back.click()
        await page.locator("#kind-action").click()
        await back.click()
        await page.locator("#kind-path").wait_for()
        seen["again"] = await page.evaluate("() => document.querySelector('.maze').scrollLeft")
        await page.locator("#kind-path").click()
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.locator("#main .row button").first.click()  # Back: the turn's maze
        seen["wide"] = await page.evaluate(SMALLEST_WORDS)
        seen["edges"].append(await page.evaluate(SHADED))
        return seen

    seen = on_a_phone(server, table, act, width=360, density=2)
    smallest, cell, scrolls, page_width = seen["phone"]
    assert smallest >= 10 and cell >= 55, seen["phone"]  # 4.2 px in cells of 29.6 px
    assert scrolls and page_width == 360  # the maze scrolls in its frame, the page keeps to the screen
    assert seen["scrolled"][0] > 200 and seen["scrolled"][1] == seen["scrolled"][0]  # drawn anew, kept
    assert seen["again"] > 200  # from screen to screen: it came back at its left edge
    assert seen["record"].endswith(" at 9,1"), seen["record"]
    # a shade at the edge the maze runs past: its right at first, its left once swiped to
    # the end, none on a wide screen (nothing on the phone told that more lay to the right)
    assert seen["edges"] == [["more-right"], ["more-left"], []], seen["edges"]
    # the cells offered for the card were all off the screen where the maze was kept: shown
    assert seen["offered"], seen["offered"]
    smallest, cell, scrolls, page_width = seen["wide"]
    assert round(cell) == 55 and not scrolls and page_width == 1280  # the page's 640 px across 11 cells, as before


def test_offered_cells_are_marked_by_more_than_a_colour_and_chosen_buttons_are_said_and_seen_focused(
    venue: tuple[Server, list[Table]],
) -> None:
    server, table = venue[0], table_of(venue)
    look = """(e, pseudo) => { const c = getComputedStyle(e, pseudo || null);
      return [c.content, c.borderTopColor, c.borderTopWidth, c.backgroundColor, c.outlineStyle, c.outlineColor,
              c.boxShadow].join(' | '); }"""

    async def act(phone: RefereePhone) -> dict[str, Any]:
        page = phone.page
        seen: dict[str, Any] = {}
        await phone.begin()
        starts = page.locator("button[data-start]")
        await starts.nth(1).click()
        seen["pressed"] = [await starts.nth(i).get_attribute("aria-pressed") for i in range(await starts.count())]
        await page.locator("button[data-card='NESW']").first.click()
        seen["setup"] = await page.locator("button.card[aria-pressed='true']").get_attribute("data-card")
        chosen = starts.nth(1)
        seen["chosen"] = await chosen.evaluate(look)
        await starts.nth(0).focus()
        await page.keyboard.press("Tab")  # the keyboard's focus on the chosen one
        seen["chosen_focused"] = await chosen.evaluate(look)
        seen["focused_is_chosen"] = await chosen.evaluate("e => e === document.activeElement")
        await page.locator("#deal").click()
        await page.locator("#kind-path").wait_for()
        await page.locator("#kind-path").click()
        await page.locator("button[data-card='EW']").first.click()
        offered = page.locator(".maze .cell.mark[data-cell='1,0']")
        other = page.locator(".maze .cell:disabled[data-cell='1,1']")
        seen["offered"] = await offered.evaluate(look)
        seen["offered_after"] = await offered.evaluate(look, "::after")
        seen["other"] = await other.evaluate(look)
        return seen

    seen = on_a_phone(server, table, act)
    assert seen["pressed"] == ["false", "true", "false", "false", "false", "false"]
    assert seen["setup"] == "NESW"
    assert seen["focused_is_chosen"]
    assert seen["chosen_focused"] != seen["chosen"]  # focus seen on a chosen button too
    _content, offered_border, offered_width, offered_fill, *_ = seen["offered"].split(" | ")
    assert seen["offered_after"].split(" | ")[0] == '"+"'  # a glyph, not a colour alone
    _, other_border, other_width, other_fill, *_ = seen["other"].split(" | ")
    assert (offered_border, offered_width) != (other_border, other_width) and offered_fill != other_fill
    assert contrast(rgb(offered_border), rgb(other_fill)) >= 3.0


def test_the_header_shows_the_whole_offline_status_at_320_px_in_norwegian(venue: tuple[Server, list[Table]]) -> None:
    server, table = venue[0], table_of(venue)
    cut = """() => ['#where', '#link', 'header'].map((at) => { const e = document.querySelector(at);
      return [at, e.scrollHeight - e.clientHeight, e.innerText]; })"""

    async def act(phone: RefereePhone) -> list[list[Any]]:
        page = phone.page
        await dealt(phone, table)
        await page.route("**/referee/api/**", lambda route: route.abort())  # the network gone
        await page.evaluate("() => window.dispatchEvent(new Event('offline'))")
        for entry in (PASS, DRAW, PASS):
            await phone.tap(entry)
        await page.wait_for_function("() => document.getElementById('link').dataset.waiting === '3'")
        shown: list[list[Any]] = await page.evaluate(cut)
        link = await page.locator("#link").bounding_box()
        header = await page.locator("header").bounding_box()
        assert link is not None and header is not None
        shown.append(["inside", link["y"] + link["height"] <= header["y"] + header["height"] + 0.5, ""])
        return shown

    shown = on_a_phone(server, table, act, width=320, lang="nb")
    norwegian = translations("nb")
    status = norwegian.ngettext(
        "Offline · %(num)s entry waits to be sent", "Offline · %(num)s entries wait to be sent", 3
    ) % {"num": 3}
    assert [row[1] for row in shown] == [0, 0, 0, True], shown
    assert shown[1][2].replace("\n", " ") == status


def test_the_tabs_title_is_in_the_phones_language(venue: tuple[Server, list[Table]]) -> None:
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> str:
        await phone.page.wait_for_function("() => document.documentElement.lang === 'de'")
        return str(await phone.page.title())

    title = on_a_phone(server, table, act, lang="de")
    english = "Saboteur Ledger · the table's record"
    assert title == translations("de").gettext(english) != english


def rgb(colour: str) -> tuple[int, int, int]:
    """``rgb(1, 2, 3)`` (a computed style) as its three numbers."""
    red, green, blue = (int(float(part)) for part in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3])
    return red, green, blue


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours."""

    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_pages_words_and_edges_are_readable(venue: tuple[Server, list[Table]]) -> None:
    """WCAG AA: an entry waiting to be sent (text, 4.5:1) and a button's edge (3:1)
    against the page."""
    server, table = venue[0], table_of(venue)
    colours = """() => { const paper = getComputedStyle(document.body).backgroundColor;
      const waiting = getComputedStyle(document.querySelector('ol.recent li.waiting')).color;
      return [paper, waiting, getComputedStyle(document.getElementById('kind-pass')).borderTopColor]; }"""

    async def act(phone: RefereePhone) -> list[str]:
        page = phone.page
        await dealt(phone, table)
        await page.route("**/referee/api/**", lambda route: route.abort())
        await phone.tap(_path("EW", 1))
        await phone.tap(DRAW)
        await page.locator("ol.recent li.waiting").first.wait_for()
        found: list[str] = await page.evaluate(colours)
        return found

    paper, waiting, edge = (rgb(c) for c in on_a_phone(server, table, act))
    assert contrast(waiting, paper) >= 4.5
    assert contrast(edge, paper) >= 3.0


def test_no_round_is_offered_to_deal_after_the_games_last(venue: tuple[Server, list[Table]]) -> None:
    """The button "Deal a round", beside every turn, offered round 4 of a game of 3 in
    its last round, and recorded it: a line the audit finds malformed. It is offered
    while a round comes after the one being played."""
    server, table = venue[0], table_of(venue)
    deal = "#main button:text-is('Deal a round')"

    async def act(phone: RefereePhone) -> tuple[int, int]:
        await dealt(phone, table)
        before = await phone.page.locator(deal).count()
        await phone.page.evaluate("() => { app.server.round = app.table.rounds; render(); }")  # its last round
        return before, await phone.page.locator(deal).count()

    before, last = on_a_phone(server, table, act)
    assert (before, last) == (1, 0)


def test_a_stored_game_says_so_and_offers_its_log_to_download(venue: tuple[Server, list[Table]]) -> None:
    """Once the game's log was stored the page kept "The game is recorded" and nothing
    more, where the README says the referee can download the log."""
    server, table = venue[0], table_of(venue)

    async def act(phone: RefereePhone) -> tuple[str, str, int, str]:
        await dealt(phone, table)
        await phone.page.evaluate("() => { app.server.finished = true; app.server.upload = 7; render(); }")
        said = await phone.page.locator("#stored").inner_text()
        href = await phone.page.locator("#download").get_attribute("href") or ""
        answer = await phone.page.request.get(server.address + href)
        return said, href, answer.status, answer.headers.get("content-disposition", "")

    said, href, status, disposition = on_a_phone(server, table, act)
    assert "upload 7" in said and "Download the game's log" in said
    assert href == f"/referee/api/log?code={table.code}"
    assert status == 200 and disposition.startswith("attachment; filename=")


def test_a_rounds_end_changed_after_the_rules_warning_keeps_the_roles_tapped(
    venue: tuple[Server, list[Table]],
) -> None:
    """A round's end the rules warn about ("round 1 is not over"), changed: every role
    the referee had tapped was gone, to tap again, six or ten of them. They stay."""
    from events.builder import default_roles

    server, table = venue[0], table_of(venue)
    roles, _ = default_roles(list(table.players), "tournament")

    async def act(phone: RefereePhone) -> int:
        page = phone.page
        await dealt(phone, table)
        await page.locator("#main button:text-is('The round is over')").click()
        for player in table.players:
            await page.locator(f"button[data-role='{player}:{roles[player]}']").click()
        await page.locator("#end-round").click()
        await page.locator("#warning").wait_for()
        await page.locator("#change-it").click()
        await page.locator("#warning").wait_for(state="detached")
        return await page.locator("#end-round").count()

    assert on_a_phone(server, table, act) == 1
