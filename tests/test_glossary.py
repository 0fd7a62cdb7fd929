"""The catalogues speak each edition's words: the glossary in ``docs/languages.md``
(checked against the Dutch, German and Norwegian rule texts) names a role, a tool, the
rockfall and the map, and the findings' and the dashboard's translations use that word."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Final

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT: Final = Path(__file__).resolve().parent.parent
HEADING: Final = "## Glossary: the words of each edition"
COLUMNS: Final = {"Nederlands": "nl", "Deutsch": "de", "Norsk bokmål": "nb"}
WINNERS: Final = {"the gold diggers": "gold_digger", "the saboteurs": "saboteur", "the selfish dwarf": "selfish_dwarf"}
DASHBOARD: Final = {
    "gold digger": "gold_digger",
    "saboteur": "saboteur",
    "selfish dwarf": "selfish_dwarf",
    "rockfall": "rockfall",
    "map": "map",
}


@cache
def glossary() -> dict[str, dict[str, str]]:
    """Each row's term (its first column, a code unquoted) and its word in each
    language: a cell's text before any bracket, without the † and ‡ marks."""
    section = (ROOT / "docs/languages.md").read_text(encoding="utf-8").split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("|")
    ]
    header, body = rows[0], rows[2:]
    words: dict[str, dict[str, str]] = {}
    for row in body:
        cells = dict(zip(header, row, strict=True))
        words[row[0].strip("`")] = {lang: cells[name].split("(")[0].strip(" †‡*") for name, lang in COLUMNS.items()}
    return words


def catalogue(path: str) -> Catalog:
    with (ROOT / path).open("rb") as source:
        return read_po(source)


def uses(text: str, word: str) -> bool:
    """Whether ``text`` names ``word``, case aside: each of its words begins a word of
    the text, in order, and a word longer than five letters may change its last two
    (*der egoistische Zwerg* names *egoistischer Zwerg*, *sabotørene* names *sabotør*)."""
    stems = [part[:-2] if len(part) > 5 else part for part in word.split()]
    pattern = r"\s+".join(rf"\b{re.escape(stem)}\w*" for stem in stems)
    return re.search(pattern, text, re.IGNORECASE) is not None


def test_a_wrong_word_is_caught() -> None:
    assert uses("der egoistische Zwerg", "egoistischer Zwerg") and uses("gullgraverne", "gullgraver")
    assert not uses("die Goldsucher", "Goldgräber") and not uses("lykt", "lamp") and not uses("lampe", "lykt")
    assert glossary()["pick"] == {"nl": "houweel", "de": "Spitzhacke", "nb": "hakke"}


@pytest.mark.parametrize("language", COLUMNS.values())
def test_the_findings_name_tools_and_winners_in_the_editions_words(language: str) -> None:
    checked, wrong = set(), []
    for message in catalogue(f"events/locales/{language}/LC_MESSAGES/findings.po"):
        term = message.id if message.context in ("tool", "goal") else WINNERS.get(message.id)
        if message.context in ("tool", "goal", "winner") and term in glossary():
            checked.add(term)
            word = glossary()[term][language]
            if not uses(message.string, word):
                wrong.append(f"{message.context} {message.id!r}: {message.string!r}, the edition says {word!r}")
    assert checked >= {"pick", "lamp", "cart", *WINNERS.values()}, checked
    assert not wrong, f"{language}: " + "; ".join(wrong)


@pytest.mark.parametrize("language", COLUMNS.values())
def test_the_dashboard_names_roles_rockfall_and_map_in_the_editions_words(language: str) -> None:
    held = {
        message.id: message.string for message in catalogue(f"dashboard/locales/{language}/LC_MESSAGES/messages.po")
    }
    wrong = [
        f"{english!r}: {held[english]!r}, the edition says {glossary()[term][language]!r}"
        for english, term in DASHBOARD.items()
        if held[english].casefold() != glossary()[term][language].casefold()
    ]
    assert not wrong, f"{language}: " + "; ".join(wrong)


SAID_ALIKE: Final = {"face down": ("face down",), "setup card": ("card in the middle", "setup card")}
"""Terms every sentence that says them in English says in the edition's word: the
translation review found a face-down card "gesloten", "gedekt" and "dicht" in Dutch,
"med bildesiden ned" and "med billedsiden ned" in Norwegian, and the setup card
"startkaart" (another card) and "Startkarte"."""


@pytest.mark.parametrize("term", SAID_ALIKE)
@pytest.mark.parametrize("language", COLUMNS.values())
def test_a_card_face_down_and_the_setup_card_are_said_in_the_editions_words_everywhere(
    language: str, term: str
) -> None:
    word = glossary()[term][language]
    wrong = [
        f"{message.id!r}: {message.string!r}"
        for path in (
            f"events/locales/{language}/LC_MESSAGES/findings.po",
            f"dashboard/locales/{language}/LC_MESSAGES/messages.po",
        )
        for message in catalogue(path)
        if isinstance(message.id, str)
        and any(english in message.id for english in SAID_ALIKE[term])
        and not uses(str(message.string), word)
    ]
    assert not wrong, f"{language}, the edition says {word!r}: " + "; ".join(wrong)
