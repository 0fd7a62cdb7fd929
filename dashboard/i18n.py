"""The dashboard's languages: English, Dutch, German and Norwegian (bokmål).

Saboteur's tournament rules come from Dutch, German and Norwegian communities, so a
player reads the public pages in their own language. Every text a page shows goes
through :func:`_` (or :func:`ngettext` where a number decides the form), whose English
is the message id; the translations are gettext catalogues under
``dashboard/locales/<lang>/LC_MESSAGES/messages.po``, kept with Babel's ``pybabel``
(``docs/languages.md``). The ``.po`` files are read as they are, compiled in memory
once per process, so a fresh checkout needs no compile step and a catalogue cannot
drift from a compiled copy.

The language is chosen once per session and run (:func:`choose_language`, a pure
function): the address's ``?lang=nl`` first, then the picker's choice kept in the
session, then the browser's language, then English. Numbers and times are written in
the language's own way through Babel (:func:`number`, :func:`percent`, :func:`time`).

Nothing outside ``dashboard/`` imports this module: the command line speaks through
:mod:`events.language`, whose catalogue holds what the replay, the store, the standings
and the CLI say.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Final

import streamlit as st
from babel import Locale, numbers
from babel.dates import format_time
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from events.language import compiled

LANGUAGES: Final = {"en": "English", "nl": "Nederlands", "de": "Deutsch", "nb": "Norsk bokmål"}
"""The languages the dashboard speaks, each named in itself (as the picker shows it)."""
ENGLISH: Final = "en"
LOCALES: Final = Path(__file__).with_name("locales")
DOMAIN: Final = "messages"
KEY: Final = "language"
"""The session's language, as the picker keeps it."""
_ASKED: Final = "language_asked"
"""The ``?lang=`` last taken from the address: a new one overrides the picker."""
_CARRIED: Final = "language_carried"
"""The page's choices as they stood when the picker changed, to be kept in the new language."""
_ALIASES: Final = {"no": "nb", "nn": "nb"}
"""Browsers that say Norwegian, or nynorsk, get bokmål: the nearest language spoken here."""
_SPEAKING: Final[ContextVar[str | None]] = ContextVar("speaking", default=None)
"""The language of a request outside any page's run (the referee's page: :func:`speaking`)."""


def supported(tag: str | None) -> str | None:
    """The language of ``tag`` (``de``, ``de-AT``, ``nb_NO``, ``no``) if the dashboard
    speaks it, else ``None``.

    >>> supported("de-AT"), supported("NO"), supported("fr-FR"), supported(None)
    ('de', 'nb', None, None)
    """
    if not tag:
        return None
    primary = tag.replace("_", "-").split("-")[0].strip().lower()
    primary = _ALIASES.get(primary, primary)
    return primary if primary in LANGUAGES else None


def choose_language(asked: str | None, picked: str | None, browser: str | None) -> str:
    """The language to show: the address's (``asked``), else the picker's (``picked``),
    else the browser's, else English — the first of them the dashboard speaks.

    >>> choose_language("nl", "de", "nb-NO"), choose_language(None, "de", "nb-NO")
    ('nl', 'de')
    >>> choose_language("xx", None, "nb-NO"), choose_language(None, None, "fr")
    ('nb', 'en')
    """
    for tag in (asked, picked, browser):
        found = supported(tag)
        if found is not None:
            return found
    return ENGLISH


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalogue of ``language``, read from its ``.po`` and compiled in memory
    once per process; English (the message ids themselves) needs none."""
    return compiled(LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po", language, DOMAIN)


def accepted(header: str | None) -> str | None:
    """The first language of an ``Accept-Language`` header the dashboard speaks, by the
    weights the browser gives (``nl-BE,nl;q=0.9,en;q=0.8`` is Dutch).

    >>> accepted("fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5"), accepted("en-GB,en;q=0.9"), accepted(None)
    ('de', 'en', None)
    """
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, rest = part.strip().partition(";")
        weight = 1.0
        if rest.strip().startswith("q="):
            try:
                weight = float(rest.strip()[2:])
            except ValueError:
                weight = 0.0
        ranked.append((-weight, index, tag))
    for _weight, _index, tag in sorted(ranked):
        found = supported(tag)
        if found is not None:
            return found
    return None


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` for the block, outside any page's run: the referee page's
    endpoints answer each phone in its language (a context variable, so requests served
    at once in other threads each keep their own)."""
    token = _SPEAKING.set(lang if lang in LANGUAGES else ENGLISH)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def language() -> str:
    """The language of this session (English before :func:`picker` has run, and
    outside a page's run: a test, a doctest), or of the request being answered
    (:func:`speaking`)."""
    spoken = _SPEAKING.get()
    if spoken is not None:
        return spoken
    if get_script_run_ctx(suppress_warning=True) is None:
        return ENGLISH
    chosen = st.session_state.get(KEY)
    return chosen if chosen in LANGUAGES else ENGLISH


def _(message: str) -> str:
    """``message`` (English, the catalogue's id) in the session's language."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in the session's language
    (its ``%(num)d`` still to fill: ``ngettext("%(num)d table", "%(num)d tables", n) % {"num": n}``)."""
    return translations(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it yet: for tables of
    words built at import time, translated with :func:`_` where they are shown."""
    return message


def settle() -> str:
    """Decide this run's language (:func:`choose_language`) and keep it in the session.

    A ``?lang=`` the address gains overrides the picker once; after that the picker's
    choice holds, and is written back into the address so it can be shared.
    """
    state = st.session_state
    asked = supported(st.query_params.get("lang"))
    fresh = asked if asked is not None and asked != state.get(_ASKED) else None
    if fresh is not None:
        state[_ASKED] = fresh
    state[KEY] = choose_language(fresh, state.get(KEY), st.context.locale)
    for key, value in state.pop(_CARRIED, {}).items():
        state[key] = value
    return str(state[KEY])


def _picked() -> None:
    """The picker changed: the address names the new language, so a shared link shows
    it, and the page's choices are kept (:func:`carried`)."""
    st.query_params["lang"] = st.session_state[KEY]
    st.session_state[_ASKED] = st.session_state[KEY]
    st.session_state[_CARRIED] = carried(st.session_state.to_dict())


def carried(state: dict[str, object]) -> dict[str, object]:
    """The choices a language change must keep: every value a select box, a radio, a
    multiselect, a slider or a text field holds (a text, a number, a list of them).

    A browser sends back a select box's choice as the words it showed, and the run in the
    new language finds those words among none of its options: the choice would fall back
    to the first (a tournament, a round, a finding, a filter). So the values, as they stood
    before, are set again at the start of the run that speaks the new language. A button's
    or a checkbox's value (true or false) and what is not a choice (an upload, a table
    being edited) are left alone, as are the language's own keys.

    >>> carried({"round": 3, "who": ["ann"], "go": True, "language": "nl", "file": object()})
    {'round': 3, 'who': ['ann']}
    """
    kept: dict[str, object] = {}
    for key, value in state.items():
        if key in (KEY, _ASKED, _CARRIED) or key.startswith("FormSubmitter") or isinstance(value, bool):
            continue
        if isinstance(value, str | int | float) or (
            isinstance(value, list | tuple) and all(v is None or isinstance(v, str | int | float) for v in value)
        ):
            kept[key] = value
    return kept


def picker() -> str:
    """The language picker in the sidebar (after :func:`settle`); the language chosen."""
    chosen = settle()
    st.sidebar.selectbox(_("Language"), list(LANGUAGES), format_func=LANGUAGES.__getitem__, key=KEY, on_change=_picked)
    return chosen


def _locale() -> Locale:
    return Locale.parse(language())


def number(value: float, digits: int = 0) -> str:
    """``value`` with the language's digit grouping and decimal mark (``1,234.5``,
    ``1.234,5``, ``1 234,5``)."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return numbers.format_decimal(value, format=pattern, locale=_locale())


def percent(value: object) -> str:
    """A share as a whole percentage in the language's way (``50%``, ``50 %``); a dash
    for none."""
    if not isinstance(value, int | float):
        return "–"
    return numbers.format_percent(value, locale=_locale())


def time(moment: datetime) -> str:
    """A time of day with its zone, as the language writes it."""
    return f"{format_time(moment, 'HH:mm:ss', locale=_locale())} {moment:%Z}".strip()
