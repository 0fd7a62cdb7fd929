"""The dashboard's languages (issue 13, point 5): every English text a page shows is in
each catalogue, translated; a page asked for in German speaks German, role names
included; the browser's language is taken when nobody chose; and the pages show plain
words, never the log's codes."""

from __future__ import annotations

import doctest
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.checkers import python_format
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from analytics.standings import standings
from dashboard import i18n, names
from events.cards import DECK, GOAL_SIDES, TOOLS, TUNNEL_CARDS, UNSEEN
from events.findings import Code, Unlisted
from events.tables import ROLES
from ingest.store import Store
from tests.dashboard.conftest import APP, TOURNAMENT, run_page

ROOT: Final = Path(__file__).resolve().parents[2]
TRANSLATED: Final = ("nl", "de", "nb")
MessageId = str | tuple[str, str]


def extracted() -> dict[MessageId, tuple[str, ...]]:
    """Every message the dashboard's code marks (``_``, ``ngettext``, ``N_``), as
    ``pybabel extract -F babel.cfg -k N_`` finds it, with the files it is in."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    found: dict[MessageId, tuple[str, ...]] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        key: MessageId = message if isinstance(message, str) else (message[0], message[1])
        found[key] = (*found.get(key, ()), filename)
    return found


def catalogue(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def messages(catalog: Catalog) -> Iterator[Message]:
    return (message for message in catalog if message.id)


def test_the_dashboard_marks_its_texts() -> None:
    found = extracted()
    assert "Roles" in found and ("%(num)d violation", "%(num)d violations") in found
    assert all(f.startswith("dashboard/") for files in found.values() for f in files)


def test_the_template_holds_every_text_the_code_marks() -> None:
    """``messages.pot`` is what ``pybabel extract`` makes of the code now: a text added
    without re-extracting fails here (docs/languages.md says how)."""
    template = {message.id for message in messages(catalogue(ROOT / "dashboard/locales/messages.pot"))}
    assert template == set(extracted())


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_is_translated(language: str) -> None:
    catalog = catalogue(ROOT / f"dashboard/locales/{language}/LC_MESSAGES/messages.po", language)
    held = {message.id: message for message in messages(catalog)}
    missing = [key for key in extracted() if key not in held]
    assert not missing, f"{language}: not in the catalogue: {missing}"
    for key in extracted():
        message = held[key]
        assert not message.fuzzy, (language, key)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert len(strings) == (catalog.num_plurals if message.pluralizable else 1), (language, key)
        assert all(strings), f"{language}: not translated: {key!r}"
        python_format(catalog, message)  # the same %(name)s placeholders as the English
    same = [key for key, message in held.items() if message.string == key]
    assert len(same) < len(held) // 10, f"{language}: copies of the English: {same}"


def test_each_language_is_read_from_its_catalogue() -> None:
    assert i18n.translations("de").gettext("gold digger") == "Goldgräber"
    assert i18n.translations("nl").gettext("selfish dwarf") == "egoïstische dwerg"
    assert i18n.translations("nb").gettext("gold digger") == "gruvearbeider"
    plural = i18n.translations("de").ngettext("%(num)d violation", "%(num)d violations", 2)
    assert plural % {"num": 2} == "2 Regelverstöße"
    assert i18n.translations("en").gettext("gold digger") == "gold digger"


# -- choosing the language -------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "picked", "browser", "shown"),
    [
        (None, None, "de-DE", "de"),  # nobody chose: the browser's language
        (None, None, "nb-NO", "nb"),
        (None, None, "no", "nb"),
        (None, None, "nl_BE", "nl"),
        (None, None, "fr-FR", "en"),  # a language not spoken here: English
        (None, None, None, "en"),
        (None, "nl", "de-DE", "nl"),  # the picker's choice over the browser's
        ("de", "nl", "nb-NO", "de"),  # the address over both
        ("xx", "nl", "de-DE", "nl"),  # an address naming no language here is passed over
    ],
)
def test_the_language_is_the_address_then_the_picker_then_the_browser(
    asked: str | None, picked: str | None, browser: str | None, shown: str
) -> None:
    assert i18n.choose_language(asked, picked, browser) == shown


def test_the_docstring_examples_run() -> None:
    result = doctest.testmod(i18n)
    assert result.attempted and not result.failed


# -- pages ---------------------------------------------------------------------------


def in_language(page: str, language: str, **state: object) -> AppTest:
    """The app run on ``views/<page>.py`` with ``?lang=<language>`` in its address."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = language
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def headings(at: AppTest) -> dict[str, str]:
    """Each table's column headings as the browser shows them (its column settings)."""
    shown: dict[str, str] = {}
    for table in at.dataframe:
        settings = json.loads(table.proto.columns or "{}")
        shown |= {column: setting.get("label", column) for column, setting in settings.items()}
    return shown


def test_a_page_asked_for_in_german_speaks_german(db: Path) -> None:
    at = in_language("roles", "de")
    assert [t.value for t in at.title] == ["Rollen"]
    assert [s.value for s in at.header] == ["Die Zahlen"]
    assert set(at.dataframe[0].value["role"]) <= {"Goldgräber", "Saboteur", "egoistischer Zwerg"}
    assert "Goldgräber" in set(at.dataframe[0].value["role"])
    assert headings(at)["role"] == "Rolle" and headings(at)["rate"] == "Gewinnquote"
    assert at.sidebar.selectbox(key=i18n.KEY).value == "de"
    assert at.radio(key="roles_ruleset").label == "Regelwerk"


def test_the_round_page_in_dutch_and_norwegian(db: Path) -> None:
    dutch = in_language("round", "nl", round_number=(1, "preliminary"))
    assert [t.value for t in dutch.title] == ["Ronde"]
    assert [s.value for s in dutch.header] == ["Vind je tafel", "Tafels"]
    norwegian = in_language("round", "nb", round_number=(1, "preliminary"))
    assert [s.value for s in norwegian.header] == ["Finn bordet ditt", "Bord"]
    assert any("innledende runde" in c.value for c in norwegian.caption)


def test_the_picker_changes_the_language_and_the_address_keeps_it(db: Path) -> None:
    player = standings(Store(db), TOURNAMENT)["player"][0]
    at = run_page("players", players_player=player, players_tournament=TOURNAMENT)
    assert [t.value for t in at.title] == ["Players"]  # no choice, no browser language: English
    at.sidebar.selectbox(key=i18n.KEY).set_value("nb").run()
    assert [t.value for t in at.title] == ["Spillere"]
    assert at.query_params["lang"] == "nb" and at.query_params["player"] == player
    at.switch_page("views/round.py").run()  # the choice holds on the next page
    assert [t.value for t in at.title] == ["Runde"]


def test_numbers_are_written_as_the_language_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    for language, written in (("en", "12,345.7"), ("de", "12.345,7"), ("nl", "12.345,7"), ("nb", "12 345,7")):
        monkeypatch.setattr(i18n, "language", lambda language=language: language)
        assert i18n.number(12345.67, 1).replace("\xa0", " ") == written
    assert i18n.percent(None) == "–"


CODES: Final = (
    "gold_digger",
    "selfish_dwarf",
    "gold_diggers",
    "started_at",
    "game_id",
    "tournament_round",
    "ended_by",
    "hands_empty",
    "wrong_score",
    "missed_draw",
    "table_incident",
)
"""Codes of the log and the store that a page shows in words instead."""
TEXT: Final = ("title", "header", "subheader", "markdown", "caption", "error", "warning", "info", "success")


@pytest.mark.parametrize(
    ("page", "state"),
    [
        ("roles", {}),
        ("rounds", {}),
        ("round", {"round_number": (1, "preliminary")}),
        ("players", {"players_tournament": TOURNAMENT}),
    ],
)
def test_no_code_shows_on_a_page(db: Path, page: str, state: dict[str, object]) -> None:
    at = run_page(page, **state)
    texts = [str(e.value) for kind in TEXT for e in getattr(at, kind)]
    texts += [f"{m.label} {m.value}" for m in at.metric]
    texts += headings(at).values()  # a frame's own column names are the page's keys: the headings are shown
    texts += [table.value.to_csv(index=False, header=False) for table in at.dataframe]
    texts += [str(option) for box in at.selectbox for option in box.options]
    shown = "\n".join(texts)
    assert [code for code in CODES if code in shown] == []


# -- plain names -----------------------------------------------------------------------


def test_every_code_has_a_plain_name() -> None:
    assert set(names.ROLES) == set(ROLES)
    computed = {"wrong_table", "wrong_rounds", "wrong_ruleset", "no_round"}  # by the standings' SQL
    assert set(names.FINDINGS) == {code.value for code in Code} | {Unlisted.code} | computed
    assert set(names.CARDS) | set(TUNNEL_CARDS) == set(DECK) | set(GOAL_SIDES) | {UNSEEN}  # paths: by shape
    assert (
        names.card("NS") == "straight path (north–south)"
        and names.card("Nx", rotated=True) == "dead end (south), turned"
    )
    assert set(names.TOOLS) == set(TOOLS)
    assert names.role("gold_digger") == "gold digger"
    assert names.finding("wrong_draw") == "drew the wrong card"
    assert names.card("break_lamp") == "broken lamp"
    assert names.column("started_at") == "started"
    assert names.role("troll") == "troll"  # a code no table knows shows as it is


def test_the_plain_names_come_from_the_communities_rule_texts() -> None:
    """The words the Dutch, German and Norwegian rule texts use for the roles and the
    action cards, so players recognise them."""
    words = {
        "nl": ("goudzoeker", "saboteur", "egoïstische dwerg", "instorting"),
        "de": ("Goldgräber", "Saboteur", "egoistischer Zwerg", "Steinschlag"),
        "nb": ("gruvearbeider", "sabotør", "egoistisk dverg", "steinsprang"),
    }
    for language, (digger, saboteur, dwarf, rockfall) in words.items():
        catalog = i18n.translations(language)
        assert catalog.gettext(names.ROLES["gold_digger"]) == digger
        assert catalog.gettext(names.ROLES["saboteur"]) == saboteur
        assert catalog.gettext(names.ROLES["selfish_dwarf"]) == dwarf
        assert catalog.gettext(names.CARDS["rockfall"]) == rockfall
