"""Findings in the reader's language: English, Dutch, German, Norwegian (bokmål).

The replay says what it found as a sentence and its values (:mod:`events.said`); this
module puts them into words. The sentence's English is its id in the catalogue of
each language (``events/locales/<lang>/LC_MESSAGES/findings.po``, kept with Babel:
``docs/languages.md``), read as it is and compiled in memory once per process. Each
value is written as the language writes it: numbers and lists through Babel (``1.234``,
``a, b und c``), a player by display name when the caller knows it, and the game's
words — tools, goals, sides, winners — in the terms of that country's edition, from the
same catalogue (``pgettext`` with the kind as context: ``tool`` ``pick`` is *houweel*).

``saboteur audit`` speaks through :func:`words` (``--lang``, ``$SABOTEUR_LANG``); no
log holds a translated word.
"""

from __future__ import annotations

import ast
import functools
import gettext
import io
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, get_args

from events import cards
from events.findings import Finding, Unlisted
from events.maze import SIDE_NAMES
from events.said import CELL_NAMES, WINNERS, Said, Value, english_value, joined, read_stored, say
from events.shown import one_line
from events.tables import Ruleset, Stage
from events.tongues import ENGLISH as ENGLISH
from events.tongues import ENVIRONMENT as ENVIRONMENT
from events.tongues import LANGUAGES as LANGUAGES
from events.tongues import language_code

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

    from events.state import Outcome  # imports the log's models: only named here

LOCALES: Final = Path(__file__).with_name("locales")
DOMAIN: Final = "findings"

PLAYERS: Final = frozenset(
    {"player", "target", "turn", "last", "expected", "connector", "claimed_connector", "players", "lookalike"}
)
"""Values that are player ids: shown by display name where the caller knows them."""
CONTEXTS: Final = {
    "tool": "tool",
    "tools": "tool",
    "slot": "goal",
    "other": "goal",
    "before": "goal",
    "side": "side",
    "winner": "winner",
    "claimed_winner": "winner",
    "stage": "stage",
    "earlier": "stage",
    "ruleset": "ruleset",
}
"""Values that are words of the game, by their name: the catalogue's context for them."""
NOBODY: Final = "nobody"
SYSTEM_PROBLEMS: Final = (
    "No such file or directory",
    "Permission denied",
    "Operation not permitted",
    "Is a directory",
    "Not a directory",
    "No space left on device",
    "Read-only file system",
    "Too many levels of symbolic links",
    "File name too long",
    "File exists",
    "Device or resource busy",
    "Input/output error",
    "Disk quota exceeded",
)
"""Why the system could not open, read or write a file (``OSError.strerror`` as Linux and
macOS write it), said in the reader's language where a sentence gives it as its
``problem``: "het bestand kan niet gelezen worden: No such file or directory" mixed two."""
NOBODY_MEANT: Final = frozenset({"connector", "claimed_connector"})
"""The values where "nobody" stands for no player (a round with no connector,
:mod:`events.rules.scoring`); elsewhere it is a player's id, said as it is ("nobody is
not registered" read "niemand is niet ingeschreven", no one is not registered)."""


def chosen(lang: str | None) -> str:
    """The language asked for (``--lang``), else ``$SABOTEUR_LANG``, else English (a
    locale, ``nl_NL.UTF-8`` or ``de-AT``, by its language); a :class:`ValueError`
    naming the languages there are for any other.

    >>> chosen("de-AT"), chosen("nl_NL.UTF-8"), chosen("no"), chosen("NB")
    ('de', 'nl', 'nb', 'nb')
    """
    picked = language_code(lang or os.environ.get(ENVIRONMENT) or ENGLISH)
    if picked not in LANGUAGES:
        raise ValueError(f"{picked!r} is not a language of Saboteur Ledger: {', '.join(LANGUAGES)}")
    return picked


@functools.cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The findings' catalogue of ``lang``, compiled in memory once; English needs none."""
    return compiled(LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po", lang, DOMAIN)


def compiled(po: Path, lang: str, domain: str) -> gettext.NullTranslations:
    """A gettext ``.po`` file read as it is and compiled in memory (no compile step in
    a checkout); none for English, whose sentences are the ids, or for a missing file.
    The dashboard reads its own catalogue the same way."""
    if lang == ENGLISH or not po.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # Babel only where a language other than English is read
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=domain)
    binary = io.BytesIO()
    write_mo(binary, catalog)
    binary.seek(0)
    return gettext.GNUTranslations(binary)


def words(said: Said, lang: str = ENGLISH, names: Mapping[str, str] | None = None) -> str:
    """``said`` in ``lang``, its players by display name where ``names`` has them."""
    if lang == ENGLISH and not names:
        return said.english()
    book = catalogue(lang)
    values = said.named
    if said.plural is not None and said.count is not None:
        count = values.get(said.count)
        template = book.ngettext(said.text, said.plural, count if isinstance(count, int) else 2)
    else:
        template = book.gettext(said.text)
    return template % {name: value_words(name, value, lang, names) for name, value in values.items()}


def value_words(name: str, value: Value, lang: str, names: Mapping[str, str] | None = None) -> str:
    """One value as ``lang`` writes it."""
    book = catalogue(lang)
    if value is None:
        return ""
    if isinstance(value, tuple):
        if name in CELL_NAMES:
            return english_value(name, value)
        if value and isinstance(value[0], Said):
            return ", ".join(words(part, lang, names) for part in value if isinstance(part, Said))
        items = [value_words(name, item, lang, names) for item in value if isinstance(item, str | int)]
        if lang == ENGLISH:
            return joined(items)  # as english() writes it: "a, b and c"
        from babel.lists import format_list

        return format_list(items, locale=_locale(lang)) if items else ""
    if isinstance(value, int):
        from babel.numbers import format_decimal

        return format_decimal(value, locale=_locale(lang))
    if name in PLAYERS:
        if value == NOBODY and name in NOBODY_MEANT:  # else a player whose id is "nobody"
            return book.pgettext("player", NOBODY)
        return (names or {}).get(value, value)
    if name == "problem" and value in SYSTEM_PROBLEMS:  # the system's reason a file could not be used
        return book.pgettext("system", value)
    context = CONTEXTS.get(name)
    if context is not None:
        if lang == ENGLISH:
            return english_value(name, value)
        english = english_value(name, value) if context == "winner" else value
        return book.pgettext(context, english)
    return value


def describe(finding: Finding | Unlisted, lang: str = ENGLISH, names: Mapping[str, str] | None = None) -> str:
    """``line 41 · round 1 · bob · missed_draw (R-T2): …`` in ``lang``, as
    :meth:`~events.findings.Finding.describe` writes it in English."""
    parts = [words(say("line %(line)s", line=finding.line), lang)]
    if finding.round is not None:
        parts.append(words(say("round %(round)s", round=finding.round), lang))
    if finding.player is not None:
        parts.append((names or {}).get(finding.player, finding.player))
    said = finding.said
    message = words(said, lang, names) if said is not None else finding.message
    parts.append(f"{finding.code} ({finding.rule}): {message}")
    return one_line(" · ".join(parts))  # a note's line break would start a line of its own


def outcome_line(outcome: Outcome, lang: str = ENGLISH, names: Mapping[str, str] | None = None) -> str:
    """``round 1: the gold diggers won · connector cem · ann 2, bob 0 · stars: cem``."""
    who = names or {}

    def named(player: str) -> str:
        return who.get(player, player)

    parts = [words(say("round %(round)s: %(winner)s won", round=outcome.round, winner=outcome.winner), lang)]
    if outcome.connector:
        parts.append(words(say("connector %(connector)s", connector=outcome.connector), lang, names))
    parts.append(", ".join(f"{named(p)} {'?' if v is None else v}" for p, v in outcome.scores.items()))
    if outcome.stars:
        parts.append(words(say("stars: %(players)s", players=tuple(outcome.stars)), lang, names))
    return " · ".join(parts)


def status_words(status: str, errors: int, lang: str = ENGLISH) -> str:
    """An audit's verdict: ``clean``, ``3 violations``, ``unreadable``."""
    if status == "violations":
        return words(say("%(count)s violation", "%(count)s violations", "count", count=errors), lang)
    return words(say("clean") if status == "clean" else say("unreadable"), lang)


def report_in(report: dict[str, Any], findings: Sequence[Finding | Unlisted], lang: str) -> dict[str, Any]:
    """An audit report (``saboteur audit --json``) with every message in ``lang``; the
    codes and values stay as they are."""
    if lang == ENGLISH:
        return report
    violations = [
        {**row, "message": words(finding.said, lang) if finding.said is not None else row["message"]}
        for row, finding in zip(report["violations"], findings, strict=True)
    ]
    return {**report, "violations": violations}


def stored_words(said: str | None, english: str, lang: str) -> str:
    """A stored finding's message (``findings.said``, :func:`events.said.stored`) in
    ``lang``; its English ``message`` when it has no sentence or one that cannot be read."""
    if lang == ENGLISH or not said:
        return english
    try:
        return words(read_stored(said), lang)
    except ValueError:
        return english


def number_words(value: int | float, lang: str = ENGLISH, *, digits: int = 3) -> str:
    """A number as ``lang`` writes it in a table: a count with its thousands marked, a
    rate or a mean with ``digits`` decimals (``1,500`` and ``0.600`` in English are
    ``1.500`` and ``0,600`` in German and Dutch: a German reading ``1.500`` reads one
    thousand five hundred).

    >>> number_words(1.5, "de"), number_words(0.6), number_words(26219, "nb")
    ('1,500', '0.600', '26\xa0219')
    """
    from babel.numbers import format_decimal

    shape = "#,##0" if isinstance(value, int) else "#,##0." + "0" * digits
    return format_decimal(value, format=shape, locale=_locale(lang))


def _locale(lang: str) -> str:
    return {"nb": "nb_NO", "en": "en"}.get(lang, lang)


# -- the catalogue's ids, as the code writes them -----------------------------------

WORD_IDS: Final = {
    "tool": cards.TOOLS,
    "goal": cards.SLOTS,
    "side": tuple(SIDE_NAMES.values()),
    "winner": tuple(WINNERS.values()),
    "player": (NOBODY,),
    "system": SYSTEM_PROBLEMS,
    "stage": get_args(Stage),
    "ruleset": get_args(Ruleset),
}
"""The game's words a sentence's values may hold, by context, as the code names them."""


def _calls(source: bytes) -> Iterator[str | tuple[str, str]]:
    """The sentences a module writes: every ``say(text[, plural, count])`` and
    ``sentence(text)`` whose text is written out."""
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            continue
        if node.func.id not in ("say", "sentence"):
            continue
        first = _written(node.args[0])
        plural = _written(node.args[1]) if len(node.args) > 1 else []
        if len(plural) == 1 and len(first) == 1:
            yield first[0], plural[0]
        else:
            yield from first


def _written(node: ast.expr) -> list[str]:
    """The text a sentence argument holds: a string, or either string of a
    conditional (``"…turned…" if rotated else "…"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _written(node.body) + _written(node.orelse)
    return []


SPEAKERS: Final = ("events", "ingest", "analytics", "cli")
"""The packages whose sentences the catalogue holds: the replay's findings, and what the
store, the standings, their PDF, the referee cards and the command line say to people
(the dashboard's own texts have their catalogue beside it)."""


def _helps(source: bytes) -> Iterator[str]:
    """The help texts a command-line module writes: every ``help=`` given as a string
    (an option's, an argument's, a group's), each lazy command's summary
    (:class:`cli.lazy.Lazy`) and the docstring of every command (a function decorated
    ``@….command`` or ``@speaking``), cleaned as Typer shows it."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "help":
                    yield from _written(keyword.value)
            if isinstance(node.func, ast.Name) and node.func.id == "Lazy" and len(node.args) == 3:
                yield from _written(node.args[2])  # a command's summary in the root's listing
        elif isinstance(node, ast.FunctionDef):
            marks = [d.func if isinstance(d, ast.Call) else d for d in node.decorator_list]
            named = {
                m.id if isinstance(m, ast.Name) else m.attr for m in marks if isinstance(m, ast.Name | ast.Attribute)
            }
            doc = ast.get_docstring(node, clean=True)
            if doc and named & {"command", "speaking"}:
                yield doc


HELPING: Final = ("cli",)
"""The packages whose commands' helps the catalogue holds (``--help --lang``:
:mod:`cli.help_words`)."""


def helps() -> dict[str, list[str]]:
    """Every help text of the command line, with the modules that write it."""
    root = Path(__file__).resolve().parent.parent
    found: dict[str, list[str]] = {}
    for package in HELPING:
        for path in sorted((root / package).rglob("*.py")):
            for text in _helps(path.read_bytes()):
                found.setdefault(text, []).append(str(path.relative_to(root)))
    return found


def sentences() -> dict[str | tuple[str, str], list[str]]:
    """Every sentence said outside the dashboard (its English, with the plural where it
    has one), with the modules that say it."""
    root = Path(__file__).resolve().parent.parent
    found: dict[str | tuple[str, str], list[str]] = {}
    for package in SPEAKERS:
        for path in sorted((root / package).rglob("*.py")):
            for message in _calls(path.read_bytes()):
                found.setdefault(message, []).append(str(path.relative_to(root)))
    return found


def template() -> Catalog:
    """The catalogue's template: every sentence, then every game word by its context."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(project="Saboteur Ledger", copyright_holder="Saboteur Ledger", domain=DOMAIN)
    said = sentences()
    for message in said:
        catalog.add(message, flags=("python-format",))
    for text in helps():
        if text not in said:
            catalog.add(text)  # read as it is: a help's "95%" is no blank
    for context, english in WORD_IDS.items():
        for word in english:
            catalog.add(word, context=context)
    return catalog


def update() -> None:
    """Write ``findings.pot`` and bring every language's ``findings.po`` up to it: new
    sentences come in untranslated, gone ones go (``python -m events.language``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    fresh = template()
    LOCALES.mkdir(exist_ok=True)
    with (LOCALES / f"{DOMAIN}.pot").open("wb") as out:
        write_po(out, fresh, width=100, sort_output=True, omit_header=True)
    for lang in LANGUAGES[1:]:
        path = LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file():
            with path.open("rb") as source:
                catalog = read_po(source, locale=lang, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Saboteur Ledger")
        catalog.update(fresh, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with path.open("wb") as out:
            write_po(out, catalog, width=100, sort_output=True, omit_header=False, no_location=True)


if __name__ == "__main__":
    update()
