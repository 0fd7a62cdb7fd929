"""Text from outside shows as text on every public page (issue 10, point 5): display
names, a tournament's name and log text quoted in findings that read as a Markdown
image or link render as neither, here (AppTest: the Markdown each page hands Streamlit)
and in a real browser (``test_browser.py``)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import widgets
from events.builder import LogBuilder
from ingest.pipeline import ingest
from ingest.store import Store
from tests.dashboard.conftest import APP, Sample, markdown_of, shown, visible

IMAGE = "![px](http://example.invalid/x.png)"
LINK = "[Organiser login](http://example.invalid)"
MIXED = "**Bold** _Ann_ <b>html</b> :smile: $x$ www.example.invalid"
TOURNAMENT_NAME = f"{LINK} Open"
HOSTILE_GAME = "test:hostile"
OURS = ('class="maze-picture"', 'class="cut-line"')
"""The two HTML blocks the pages draw themselves (the maze, the cut line)."""


def hostile_log() -> list[str]:
    """A finished round whose findings quote log text: a card and a player that are
    Markdown."""
    log = LogBuilder(players=5, ruleset="tournament", game_id=HOSTILE_GAME)
    log.deal(start="ann")
    log.raw({"type": "play_path", "player": "ann", "card": LINK, "x": 1, "y": 0, "rotated": False})
    log.raw({"type": "play_path", "player": IMAGE, "card": "NESW", "x": 1, "y": 0, "rotated": False})
    log.discard("ann")
    log.pass_out()
    log.end_round()
    return log.lines


@pytest.fixture(scope="module")
def hostile_store(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The sample tournament with three players and the tournament renamed to Markdown,
    and the hostile log; the ids of the renamed players."""
    root = tmp_path_factory.mktemp("hostile")
    logs = root / "logs"
    shutil.copytree(sample.logs, logs)
    description = json.loads((logs / "tournament.json").read_text())
    description["name"] = TOURNAMENT_NAME
    renamed = []
    for person, name in zip(description["players"], (IMAGE, LINK, MIXED), strict=False):
        person["name"] = name
        renamed.append(person["id"])
    (logs / "tournament.json").write_text(json.dumps(description))
    (logs / "hostile.jsonl").write_text("".join(line + "\n" for line in hostile_log()))
    db = root / "hostile.duckdb"
    results = ingest([logs], Store(db), workers=1)
    assert {r.outcome for r in results} <= {"accepted", "accepted_with_findings"}, results
    return db, renamed


@pytest.fixture
def open_hostile(
    hostile_store: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., AppTest]]:
    db = tmp_path / "hostile.duckdb"
    shutil.copy(hostile_store[0], db)
    monkeypatch.setenv("SABOTEUR_DB", str(db))
    monkeypatch.delenv("SABOTEUR_ADMIN_PASSWORD", raising=False)

    def run(page: str | None = None, **state: object) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=60)
        for key, value in state.items():
            at.session_state[key] = value
        if page is not None:
            at.switch_page(f"views/{page}.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield run


def plain_text(at: AppTest) -> str:
    """Everything the page shows through Markdown, as a reader sees it, having checked
    that none of it is a link, an image or HTML (but the pages' own two drawings)."""
    seen = []
    for markdown in markdown_of(at):
        if any(marker in markdown for marker in OURS):
            assert "example.invalid" not in markdown
            continue
        page = shown(markdown)
        assert page.plain, (markdown, page.tokens)
        seen.append(visible(markdown))
    return "\n".join(seen)


def test_standings_show_names_as_typed(open_hostile: Callable[..., AppTest]) -> None:
    at = open_hostile()
    with_why = plain_text(at)
    assert IMAGE in with_why and LINK in with_why and MIXED in with_why  # "why ranked here", by name
    names = [*at.dataframe[0].value["name"], *at.dataframe[1].value["name"]]
    assert {IMAGE, LINK, MIXED} <= set(names)
    assert at.selectbox(key="standings_tournament").options[0].startswith(TOURNAMENT_NAME)
    at.radio(key="standings_stage").set_value("final").run()
    plain_text(at)


def test_players_show_names_as_typed(
    open_hostile: Callable[..., AppTest], hostile_store: tuple[Path, list[str]]
) -> None:
    for player, name in zip(hostile_store[1], (IMAGE, LINK, MIXED), strict=True):
        at = open_hostile("players", players_player=player)
        text = plain_text(at)
        assert [visible(h.value) for h in at.header] == [name]
        assert name in text


def test_replay_shows_findings_that_quote_the_log_as_text(open_hostile: Callable[..., AppTest]) -> None:
    at = open_hostile("replay", replay_tournament=widgets.NONE, replay_game=HOSTILE_GAME)
    quoted = []
    for step in range(int(at.slider(key="replay_step").max) + 1):
        at.slider(key="replay_step").set_value(step).run()
        text = plain_text(at)
        quoted.extend(found for found in (IMAGE, LINK) if found in text)
    assert sorted(set(quoted)) == sorted({IMAGE, LINK})
    at.radio(key="replay_view").set_value("Referee").run()
    plain_text(at)
