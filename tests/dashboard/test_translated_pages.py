"""The Replay, Audit and Record pages in another language (issue 13, point 5): asked
for with ``?lang=``, they speak it — the replay's steps, the findings, the recording's
headings and buttons — and show no code of the log or the store."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import i18n, names
from dashboard.i18n import translations
from events.language import words
from events.said import read_stored
from tests.dashboard.conftest import APP, log_in
from tests.dashboard.test_languages import CODES, TEXT, headings
from tests.dashboard.test_replay_address import GAME

MORE_CODES: Final = (
    "goal_gold",
    "goal_stone",
    "break_pick",
    "repair_",
    "finding_id",
    "tournament_round",
    "wrong_score",
    "missed_draw",
    "accepted_with_findings",
)
"""Codes these pages hold (cards, store columns, findings) that they show in words."""


def opened(page: str, language: str, **state: object) -> AppTest:
    """The app on ``views/<page>.py`` at ``?lang=<language>`` (and ``replay``'s address)."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = language
    if page == "replay":
        at.query_params.update({"game": GAME, "round": "1", "step": "5"})
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def speak(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """The test's own thread speaks ``language`` too, from the page's first run on:
    AppTest words a widget's choice there (its ``format_func``), outside any session,
    to send it back on the next run; in English it would match none of the options."""
    monkeypatch.setattr(i18n, "language", lambda: language)


def shown(at: AppTest) -> str:
    """Every text of the page a reader sees: elements, metrics, headings, table cells,
    choices and buttons."""
    texts = [str(e.value) for kind in TEXT for e in getattr(at, kind)]
    texts = [text for text in texts if "maze-picture" not in text]  # the picture's SVG names cards for CSS
    texts += [f"{m.label} {m.value}" for m in at.metric]
    texts += headings(at).values()
    texts += [table.value.to_csv(index=False, header=False) for table in at.dataframe]
    texts += [str(option) for box in at.selectbox for option in box.options]  # as the box words them
    texts += [str(button.label) for button in at.button]
    texts += [str(e.label) for e in at.expander] + [str(t.label) for t in at.tabs]
    return "\n".join(texts)


def no_codes(text: str) -> list[str]:
    return [code for code in (*CODES, *MORE_CODES) if code in text]


def test_the_replay_in_german(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = opened("replay", "de")
    speak(monkeypatch, "de")
    assert [t.value for t in at.title] == ["Nachspielen"]
    assert [b.label for b in at.button][:4] == ["Erster", "Zurück", "Weiter", "Letzter"]
    assert any(m.value.startswith("**Schritt 5 von") for m in at.markdown)
    assert {m.label for m in at.metric} == {"Nachziehstapel", "Ablagestapel"}
    steps: list[str] = []
    for step in range(1, 14):  # the round's first steps, in German words
        at.slider(key="replay_step").set_value(step).run()
        (heading,) = [h.value for h in at.header]
        steps.append(heading)
    said = "\n".join(steps)
    assert "legt die Karte „" in said and " zieht " in said, said
    assert " lays " not in said and " draws " not in said
    view = at.radio(key="replay_view")
    assert view.options == ["Öffentlich", "Schiedsrichter"]  # as the page words them
    view.set_value("Referee").run()
    assert headings(at)["role"] == "Rolle" and headings(at)["hand"] == "Hand"
    roles = set(at.dataframe[0].value["role"])
    assert roles and roles <= {"Goldgräber", "Saboteur", "egoistischer Zwerg"}
    text = shown(at)
    assert no_codes(text) == [], no_codes(text)


def test_the_audit_in_german_for_the_organiser(db: Path, organiser: str) -> None:
    at = log_in(opened("audit", "de"), organiser)
    assert not at.exception, [e.value for e in at.exception]
    assert [t.value for t in at.title] == ["Prüfung"]
    assert [m.label for m in at.metric] == ["Offene Befunde"]
    found = at.dataframe[0].value
    german = translations("de").gettext
    assert set(found["code"]) == {german(names.FINDINGS["wrong_score"]), german(names.FINDINGS["missed_draw"])}
    assert headings(at)["code"] == "Befund" and headings(at)["finding_id"] == "Befund-ID"
    with duckdb.connect(str(db), read_only=True) as con:  # the replay's sentences, as the store keeps them
        kept = con.execute("SELECT finding_id, message, said FROM findings").fetchall()
        people = dict(con.execute("SELECT player, name FROM tournament_players").fetchall())
    sentences = {finding_id: (message, said) for finding_id, message, said in kept}
    for finding_id, message in zip(found["finding_id"], found["message"], strict=True):
        english, said = sentences[finding_id]
        assert message == words(read_stored(said), "de", people) != english  # German, players by name
    assert [t.label for t in at.tabs] == [
        "Punkte des Nachspielens annehmen",
        "Eine Korrektur eingeben",
        "Eine Strafe geben",
        "Verwerfen",
    ]
    text = shown(at)
    assert no_codes(text) == [], no_codes(text)


def test_the_record_page_in_dutch(db: Path, organiser: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = opened("record", "nl", organiser=True)
    speak(monkeypatch, "nl")
    assert [t.value for t in at.title] == ["Een tafel vastleggen"]
    assert [t.label for t in at.tabs] == ["Een ingedeelde tafel", "Een spel zonder indeling"]
    assert at.radio(key="record_new_ruleset").options == ["toernooiregels", "basisspel"]
    at.selectbox(key="record_round").set_value(2).run()  # round 1's games are stored already
    assert "Deze tafel vastleggen" in [b.label for b in at.button]
    at.button(key="record_table_2").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [m.value for m in at.markdown if m.value.startswith("## ")] == ["## Deel ronde 1"]
    assert "**Wie begint?**" in [m.value for m in at.markdown]
    assert "Notitie van de scheidsrechter (R-C1)" in [e.label for e in at.expander]
    text = shown(at)
    assert no_codes(text) == [], no_codes(text)


def test_the_upload_pages_history_says_why_a_file_was_refused_in_dutch(
    db: Path, organiser: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file refused for a game stored already (by the command line, or a visit to the
    page before this one) is in the page's list of files received; why was its English
    sentence whatever the page spoke."""
    from ingest.pipeline import ingest
    from ingest.store import Store

    with duckdb.connect(str(db), read_only=True) as con:
        (game, text) = con.execute(
            "SELECT g.game_id, u.raw FROM games g JOIN uploads u USING (upload_id) WHERE g.source = 'log' LIMIT 1"
        ).fetchone() or (None, None)
    assert game is not None and text is not None
    other = tmp_path / "again.jsonl"  # the same game, written down otherwise
    other.write_bytes(bytes(text).replace(b'"at":"20', b'"at":"19', 1))
    (result,) = ingest([other], Store(db), workers=1)
    assert result.outcome == "rejected" and "--supersede" in result.message
    at = log_in(opened("upload", "nl"), organiser)
    speak(monkeypatch, "nl")
    (history,) = (t.value for t in at.dataframe)
    note = history["note"].tolist()[0]
    assert note.startswith(game) and "is al opgeslagen" in note and "already" not in note, note
    assert "vink „Opslaan als nieuwe versie" in note and "--supersede" not in note, note  # this page's way


def test_the_findings_of_a_file_refused_as_stored_already_are_said_in_german(
    db: Path, organiser: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file audited but refused (its game stored already) stores no finding row: the
    page listed its findings from the report kept with it, whose messages are English,
    whatever the page spoke. The report keeps each finding's sentence now. Its players
    were named by id (as every finding on this page was): by name now, as the Audit
    page names them."""
    from ingest.pipeline import ingest
    from ingest.store import Store

    with duckdb.connect(str(db), read_only=True) as con:
        (upload, text) = con.execute(
            "SELECT u.upload_id, u.raw FROM uploads u JOIN findings f USING (upload_id) "
            "WHERE u.kind = 'log' ORDER BY u.upload_id LIMIT 1"
        ).fetchone() or (None, None)
        found = con.execute("SELECT message, said FROM findings WHERE upload_id = ?", [upload]).fetchall()
        people = dict(
            con.execute(
                "SELECT p.player, p.name FROM findings f JOIN games g USING (game_id) JOIN tournament_players p "
                "ON p.tournament = g.tournament AND p.player = f.player WHERE f.upload_id = ?",
                [upload],
            ).fetchall()
        )
    assert upload is not None and text is not None and found and people
    other = tmp_path / "again.jsonl"  # the same game, written down otherwise
    other.write_bytes(bytes(text).replace(b'"at":"20', b'"at":"19', 1))
    (result,) = ingest([other], Store(db), workers=1)
    assert result.outcome == "rejected" and result.errors >= len(found)
    at = log_in(opened("upload", "de"), organiser)
    speak(monkeypatch, "de")
    at.selectbox(key="upload_received").set_value(result.upload_id).run()
    listed = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert len(listed) >= len(found), listed
    for english, said in found:
        german = words(read_stored(said), "de", people)
        assert german != english
        assert any(german.replace("*", "") in line.replace("\\", "") for line in listed), (german, listed)
        assert not any(english in line for line in listed), (english, listed)
    for player, name in people.items():
        assert any(f" · {name} · " in line for line in listed), (name, listed)
        assert not any(player in line for line in listed), (player, listed)


def test_an_unreadable_files_finding_is_said_in_german(
    db: Path, organiser: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file refused whole (its first line no game_started): the result line was German,
    its one finding English, on the upload and in the list of files received."""
    from tests.dashboard.test_organiser import upload

    at = log_in(opened("upload", "de"), organiser)
    speak(monkeypatch, "de")
    upload(at, [("kaputt.jsonl", b'{"type": "game_started", nope\n')])
    german = translations("de").gettext
    listed = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert listed and all("the first line is not a valid" not in line for line in listed), listed
    assert all("die erste Zeile ist kein gültiges" in line for line in listed), listed
    assert any(german("line %(num)s") % {"num": 1} in line for line in listed), listed
    at.selectbox(key="upload_received").set_value(at.selectbox(key="upload_received").options[0]).run()
    again = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert again and all("die erste Zeile ist kein gültiges" in line for line in again), again
