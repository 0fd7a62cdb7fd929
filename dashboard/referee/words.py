"""The referee page's own texts, in the phone's language.

The page (``static/app.js``) writes its texts in English through ``_("…")`` and
``ngettext("…", "…", n)``, with named blanks (``%(player)s draws a card``) that it fills
itself. Babel's JavaScript extractor finds them (``babel.cfg``), so they are in the
dashboard's catalogue with every other text; this module reads the same calls from the
script and answers, for one language, each text's translation — what the page asks for
at ``/referee/api/words`` and keeps on the phone with its table.

Every language the dashboard speaks forms its plural the English way (one for 1, the
other for any other count), so a plural is answered as its two forms.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Final

from babel.messages.extract import extract

from dashboard.i18n import translations

SCRIPT: Final = Path(__file__).resolve().parent / "static" / "app.js"
KEYWORDS: Final = {"_": None, "ngettext": (1, 2)}


@functools.cache
def page_texts() -> tuple[str | tuple[str, str], ...]:
    """Every text the script marks: a text, or a plural's (singular, plural)."""
    found: list[str | tuple[str, str]] = []
    with SCRIPT.open("rb") as script:
        for _line, message, _comments, _context in extract("javascript", script, keywords=KEYWORDS):
            found.append(message if isinstance(message, str) else (message[0], message[1]))
    return tuple(dict.fromkeys(found))


@functools.cache
def page_words(lang: str) -> dict[str, Any]:
    """The script's texts in ``lang``: ``words`` by their English, ``plurals`` by their
    English singular, as [one, other]."""
    book = translations(lang)
    words: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for text in page_texts():
        if isinstance(text, tuple):
            singular, plural = text
            plurals[singular] = [book.ngettext(singular, plural, 1), book.ngettext(singular, plural, 2)]
        else:
            words[text] = book.gettext(text)
    return {"words": words, "plurals": plurals}
