"""The Standings, the sidebar, the organiser's door and the Players card in the
reader's language (issue 13, point 5): headings, notes and the cut line through the
catalogue, and a count that takes its plural form."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analytics.standings import standings
from dashboard import access, i18n
from ingest.store import Store
from tests.dashboard.conftest import APP, TOURNAMENT, log_in, markdown_tables, page_text, run_page


def in_language(language: str, page: str | None = None, **state: object) -> AppTest:
    """The app on ``views/<page>.py`` (``None``: Standings) in ``language``, as the
    picker keeps it in the session."""
    return run_page(page, **{i18n.KEY: language}, **state)


def test_the_standings_asked_for_in_german_speak_german(db: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = "de"  # a shared address: ?lang=de
    at.run()
    assert [t.value for t in at.title] == ["Rangliste"]
    ((columns, *rows),) = markdown_tables(at)
    assert columns == ["Platz", "Spieler", "Punkte", "Sterne", "Runden", "Strafe", "Hinweise"]
    assert [cells[1] for cells in rows if "Cut-Linie" in cells[1]] == ["Cut-Linie: die besten 6 kommen ins Finale"]
    assert "geteilter Platz" in {cells[-1] for cells in rows}
    assert {m.label for m in at.metric} >= {"Spieler", "Partien", "Runden", "Cut"}
    assert at.radio(key="standings_stage").options == ["Vorrunde", "Finale"]
    assert at.radio(key="standings_stage").value == "preliminary"  # the address keeps the code
    text = page_text(at)
    for english in ("shared rank", "cut line", "The record's integrity", "Download the standings"):
        assert english not in text
    # why each player is ranked where they are, in German (issue 33)
    assert "<ol><li><strong>" in text and "Spitze der Rangliste" in text and "nach Punkten" in text
    for english in ("top of the table", "on points", "level with"):
        assert english not in text


def test_the_final_standings_in_norwegian(db: Path) -> None:
    at = in_language("nb")
    at.radio(key="standings_stage").set_value("finale").run()  # the test sets a choice by its words
    assert [t.value for t in at.title] == ["Resultatliste"]
    assert {str(m.value) for m in at.metric if m.label == "Cut"} == {"finalebord"}
    ((columns, *rows),) = markdown_tables(at)
    assert columns == ["plass", "spiller", "poeng", "stjerner", "innl. poeng", "innl. stjerner", "straff", "merknader"]
    assert rows and not any("cutlinje" in cells[1] for cells in rows)


def test_the_sidebar_and_the_login_in_dutch(db: Path, organiser: str) -> None:
    at = in_language("nl", "upload")
    assert any(c.value.startswith("Opslag: `") for c in at.sidebar.caption)
    (password,) = at.text_input
    assert password.label == "Wachtwoord van de organisator"
    assert [b.label for b in at.button if b.proto.is_form_submitter] == ["Inloggen"]

    at = log_in(at, organiser)
    assert any("Ingelogd als organisator." in c.value for c in at.sidebar.caption)
    assert [b.label for b in at.sidebar.button] == ["Uitloggen"]


def test_a_wrong_password_is_refused_in_dutch(db: Path, organiser: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(access, "DOOR", access.Door(sleep=lambda _: None))
    at = log_in(in_language("nl", "upload"), "not it")
    assert [e.value for e in at.error] == ["Dat is niet het wachtwoord van de organisator."]


def test_without_a_password_the_organisers_pages_say_so_in_german(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(access.SETTING, raising=False)
    at = in_language("de", "upload")
    assert any("Die Seiten der Turnierleitung sind nicht eingeschaltet" in i.value for i in at.info)


@pytest.mark.parametrize(("language", "star"), [("en", "1 star."), ("nl", "1 ster."), ("de", "1 Stern.")])
def test_a_player_with_one_star_has_one_star(db: Path, language: str, star: str) -> None:
    table = standings(Store(db), TOURNAMENT)
    player = table.filter(table["stars"] == 1)["player"][0]
    at = in_language(language, "players", players_player=player, players_tournament=TOURNAMENT)
    place = next(m.value for m in at.markdown if m.value.startswith("**"))  # the card's first line: the place
    assert place.endswith(star) and "1 stars" not in place
