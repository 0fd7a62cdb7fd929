"""Text from outside shows as text on every public page (issue 10, point 5): display
names, a tournament's name and log text quoted in findings that read as a Markdown
image or link render as neither, here (AppTest: the Markdown each page hands Streamlit)
and in a real browser (``test_browser.py``)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from analytics.standings import standings
from dashboard import widgets
from dashboard.markup import JOINER
from ingest.store import Store
from tests.dashboard.conftest import (
    HOSTILE_GAME,
    HOSTILE_NAMES,
    IMAGE,
    LINK,
    MIXED,
    TOURNAMENT,
    TOURNAMENT_NAME,
    Hostile,
    TextHtml,
    markdown_of,
    markdown_tables,
    run_page,
    shown,
    visible,
)

OURS = ('class="maze-picture"',)
"""The HTML block the pages draw themselves (the maze)."""


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


def test_standings_show_names_as_typed(hostile: Hostile) -> None:
    at = run_page()
    with_why = plain_text(at)
    assert IMAGE in with_why and LINK in with_why and MIXED in with_why  # "why ranked here", by name
    ((columns, *rows),) = markdown_tables(at)
    names = [cells[columns.index("player")] for cells in rows]
    assert {IMAGE, LINK, MIXED} <= set(names)
    assert at.selectbox(key="standings_tournament").options[0].startswith(TOURNAMENT_NAME)
    at.radio(key="standings_stage").set_value("final").run()
    plain_text(at)


def test_why_each_player_stands_there_is_one_list_of_every_player_named_as_typed(hostile: Hostile) -> None:
    """The whys are one element (a list in place order), not one element a player: with
    2,000 players those were 2,000 elements, sent again at every refresh. Each name in
    it is text, as typed."""
    at = run_page()
    expected = standings(Store(hostile.db), TOURNAMENT)
    (whys,) = [m.value for m in at.markdown if m.value.startswith("<ol>")]
    html = TextHtml(whys)
    assert html.ours, html.other  # no element or attribute but the list's and the bold names'
    items = [item.replace(JOINER, "") for item in html.items]  # the word joiners are invisible
    assert items == [f"{name}: {why}" for name, why in expected.select("name", "why").iter_rows()]
    assert {IMAGE, LINK, MIXED} <= set(expected["name"])
    assert shown(whys).tokens == {"text_html"}  # one block of HTML, which Markdown leaves whole


def test_players_show_names_as_typed(hostile: Hostile) -> None:
    for player, name in zip(hostile.players, HOSTILE_NAMES, strict=True):
        at = run_page("players", players_player=player)
        text = plain_text(at)
        assert [visible(h.value) for h in at.header] == [name]
        assert name in text


def test_replay_shows_findings_that_quote_the_log_as_text(hostile: Hostile) -> None:
    at = run_page("replay", replay_tournament=widgets.NONE, replay_game=HOSTILE_GAME)
    quoted = []
    for step in range(int(at.slider(key="replay_step").max) + 1):
        at.slider(key="replay_step").set_value(step).run()
        text = plain_text(at)
        quoted.extend(found for found in (IMAGE, LINK) if found in text)
    assert sorted(set(quoted)) == sorted({IMAGE, LINK})
    at.radio(key="replay_view").set_value("Referee").run()
    plain_text(at)
