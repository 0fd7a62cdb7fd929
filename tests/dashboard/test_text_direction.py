"""Text in a right-to-left script, and the marks that turn the direction of text, on the
pages: a table labelled "\\u202e1t-elbat" (a right-to-left override, then the label
backwards) showed as "table-t1" and turned the game's id beside it round ("round 1 ·
table 3t:1r:t-elitsoh:mis · table-t1"); and two names in right-to-left scripts in a
list ("with محمد بن راشد 12, שלום עליכם, Zoë") were laid out as one run, swapped, with
the "12" between them. A mark is written out as the command line writes it, and every
name, label and tournament's name placed into a line of other text is set apart in its
own direction (U+2068 … U+2069: :func:`dashboard.markup.isolated`)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Final

import pytest
from streamlit.testing.v1 import AppTest

from analytics import records
from analytics.records import issue_referee_codes
from dashboard.markup import FSI, PDI, escape, html_list, isolated, visible
from ingest.store import Store
from tests.dashboard.conftest import PASSWORD, Sample, in_use, log_in, run_page, stored
from tests.dashboard.conftest import visible as shown_text
from tests.venue.phone import CHROMIUM, launched
from tests.venue.server import Server

TOURNAMENT: Final = "sim-open-1"
TURNED: Final = "\u202e1t-elbat"
"""Table 1 of round 1, labelled with a right-to-left override: it shows as "table-t1"."""
WRITTEN: Final = "\\u202e1t-elbat"
"""The label as the command line writes it, and the pages now."""
ARABIC: Final = "محمد بن راشد 12"
HEBREW: Final = "שלום עליכם"
CUP: Final = "كأس الربيع"
"""The tournament's name, in Arabic."""
NAMED: Final = {"emma-smit": ARABIC, "nils-bakker": HEBREW}
"""Two players of table 1 of round 1, by their names in right-to-left scripts."""
GAME: Final = "sim-open-1:r1:t1"


def apart(text: str) -> str:
    return FSI + text + PDI


@pytest.fixture(scope="module")
def turning_store(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample tournament named in Arabic, two players of round 1's table 1 named in
    Arabic and Hebrew, and that table labelled :data:`TURNED` in the seating and its log."""
    root = tmp_path_factory.mktemp("direction")
    logs = root / "logs"
    shutil.copytree(sample.logs, logs)
    description = json.loads((logs / "tournament.json").read_text(encoding="utf-8"))
    description["name"] = CUP
    for person in description["players"]:
        person["name"] = NAMED.get(person["id"], person["name"])
    for table in description["seatings"][0]["tables"]:
        if table["table"] == "1":
            table["table"] = TURNED
    (logs / "tournament.json").write_text(json.dumps(description), encoding="utf-8")
    log = logs / "r1-t1.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines()
    started = json.loads(lines[0])
    assert started["game_id"] == GAME and {"emma-smit", "nils-bakker"} <= set(started["players"])
    lines[0] = json.dumps({**started, "table": TURNED})
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return stored(logs, root / "direction.duckdb")


@pytest.fixture
def turning(turning_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return in_use(turning_store, tmp_path / "direction.duckdb", monkeypatch)


# -- the text itself ----------------------------------------------------------------------------


def test_a_mark_that_turns_text_is_written_out_as_the_command_line_writes_it() -> None:
    assert visible(f"table {TURNED} \x1b[31mRED") == f"table {WRITTEN} \\x1b[31mRED"
    assert isolated(TURNED) == WRITTEN  # no right-to-left letter left: nothing to set apart
    assert "\u202e" not in escape(TURNED) and WRITTEN in escape(TURNED).replace("\\\\", "\\")
    assert "\u202e" not in html_list([TURNED])


def test_a_name_in_a_right_to_left_script_is_set_apart_and_one_in_a_left_to_right_one_is_left() -> None:
    assert isolated(ARABIC) == apart(ARABIC) and isolated(HEBREW) == apart(HEBREW)
    assert isolated("Zoë Émile") == "Zoë Émile" and isolated("山田太郎") == "山田太郎"
    assert isolated(isolated(ARABIC)) == apart(ARABIC)  # once
    listed = ", ".join(isolated(name) for name in (ARABIC, HEBREW, "Zoë"))
    assert escape(listed) == f"{apart(ARABIC)}, {apart(HEBREW)}, Zoë"  # a whole isolate is kept
    # one left open (a name cut short, or typed so) would set the rest of the line apart
    assert escape(f"{FSI}{ARABIC}, Zoë") == f"\\\\u2068{ARABIC}, Zoë"
    assert visible(f"{PDI}x{FSI}") == "\\u2069x\\u2068"


# -- on the pages ---------------------------------------------------------------------------------


def test_replay_offers_the_game_with_the_label_written_out_and_the_tournament_set_apart(turning: Path) -> None:
    at = run_page("replay", replay_tournament=TOURNAMENT, replay_game=GAME)
    (label,) = [o for o in at.selectbox(key="replay_game").options if GAME in o]
    assert label == f"round 1 · table {WRITTEN} · {GAME}", label  # it was "table 3t:1r:t-elitsoh:mis · table-t1"
    assert f"{apart(CUP)} ({TOURNAMENT})" in at.selectbox(key="replay_tournament").options


def test_a_players_card_sets_apart_each_name_of_the_others_at_the_table(turning: Path) -> None:
    at = run_page("players", players_player="xenia-schmidt", players_tournament=TOURNAMENT)
    (where,) = [m.value for m in at.markdown if m.value.startswith("**Round 1")]
    assert f"table {WRITTEN}" in shown_text(where), where
    _, with_ = where.split("  \n")
    others = with_.removeprefix("with ").split(", ")
    assert apart(ARABIC) in others and apart(HEBREW) in others, others  # each a piece of its own
    assert "\u202e" not in where
    at = run_page("players", players_player="emma-smit", players_tournament=TOURNAMENT)
    assert f"{apart(ARABIC)} (emma-smit)" in at.selectbox(key="players_player").options


def test_the_audit_page_writes_the_label_out_and_sets_the_names_apart(
    turning: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SABOTEUR_ADMIN_PASSWORD", PASSWORD)
    at = log_in(run_page("audit", audit_tournament=TOURNAMENT, correct_game=GAME), PASSWORD)
    assert f"{GAME} · table {WRITTEN}" in at.selectbox(key="correct_game").options
    assert f"{apart(CUP)} ({TOURNAMENT})" in at.selectbox(key="audit_tournament").options
    scores = [m.value for m in at.markdown if apart(ARABIC) in m.value]
    assert scores, "the round's scores name the players, each set apart"
    assert not [m.value for m in at.markdown if "\u202e" in m.value]


def test_the_standings_set_each_name_apart_where_it_leads_a_line(turning: Path) -> None:
    at = run_page("standings", standings_tournament=TOURNAMENT)
    (whys,) = [m.value for m in at.markdown if m.value.startswith("<ol>")]
    assert f"<strong>{apart(ARABIC)}</strong>: " in whys and f"<strong>{apart(HEBREW)}</strong>: " in whys
    assert f"{apart(CUP)} ({TOURNAMENT})" in at.selectbox(key="standings_tournament").options


def test_the_round_page_writes_the_label_out(turning: Path) -> None:
    at: AppTest = run_page("round", round_tournament=TOURNAMENT, round_number=(1, "preliminary"))
    headings = [shown_text(m.value) for m in at.markdown if m.value.startswith("**")]
    assert f"Table {WRITTEN}" in headings, headings


# -- the referee's phone page ------------------------------------------------------------------------


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_the_referee_page_writes_the_label_out_and_sets_the_names_apart(server: Server) -> None:
    """The phone's top bar ("Table ‮1t-elbat · <tournament> · round 1") turned the
    tournament's name after the label backwards, and its heading read "Table table-t1".
    The label is written out, and the tournament's and the players' names set apart, by
    the page's own script (a real Chromium over a real server)."""
    from playwright.async_api import async_playwright

    store = Store(server.db)
    seated = ["emma-smit", "nils-bakker", "ann", "bob", "cem", "dia"]
    records.create(store, "cup", name=CUP, preliminary_rounds=2)
    records.register(store, "cup", [(p, NAMED.get(p, p.title())) for p in seated])
    records.publish_seating(
        store, "cup", 1, [seated], stage="preliminary", method="by hand", seed=None, labels=[TURNED]
    )
    (code,) = issue_referee_codes(store, "cup", 1)
    server.start()

    async def phone() -> dict[str, object]:
        async with async_playwright() as playwright:
            browser = await launched(playwright)
            page = await (await browser.new_context(locale="en-GB")).new_page()
            page.set_default_timeout(60_000)
            await page.goto(f"{server.address}/referee?code={code.code}")
            await page.locator("#begin").wait_for()
            seen: dict[str, object] = {
                "where": await page.locator("#where").text_content(),
                "heading": await page.locator("h1").text_content(),
                "seats": await page.locator("main ol li").all_text_contents(),
            }
            await page.locator("#begin").click()
            await page.wait_for_selector("button[data-start]")
            seen["starts"] = await page.locator("button[data-start]").all_text_contents()
            await browser.close()
            return seen

    seen = asyncio.run(phone())
    assert seen["where"] == f"Table {WRITTEN} · {apart(CUP)} · round 1", seen
    assert seen["heading"] == f"Table {WRITTEN}", seen
    assert seen["seats"] == [apart(ARABIC), apart(HEBREW), "Ann", "Bob", "Cem", "Dia"], seen
    assert apart(ARABIC) in seen["starts"] and apart(HEBREW) in seen["starts"], seen  # type: ignore[operator]
