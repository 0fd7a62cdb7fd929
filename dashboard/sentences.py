"""What the replay says, in the session's language, players by display name.

A finding reaches a page in one of three forms: a :class:`~events.findings.Finding`
the replay just made (the Replay and Record pages), a row of the store's ``findings``
with its sentence kept as JSON (``findings.said``: :func:`events.said.stored`), or an
entry of an audit report. Each is put into words here through the findings'
catalogue (:func:`events.language.words`), in the language the page's picker chose; a
finding whose sentence is missing or cannot be read shows its English message, its
player ids still turned into names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import polars as pl

from dashboard.i18n import language
from dashboard.markup import isolated
from dashboard.table_view import by_name
from events.language import words
from events.said import Said, Value, read_stored, read_stored_all


def said(sentence: Said | None, english: str, people: Mapping[str, str] | None = None) -> str:
    """``sentence`` in the session's language (``english``, the stored message, when
    there is none), players by their names in ``people``; each text it quotes from
    outside (a table's label, a referee's note) set apart in its own direction
    (:func:`dashboard.markup.isolated`), as the names are."""
    if sentence is None:
        return by_name(english, people) if people else english
    return words(_isolating(sentence), language(), people)


def _isolating(sentence: Said) -> Said:
    """``sentence`` with each text it fills in through :func:`dashboard.markup.isolated`
    (the codes and ids, which are left-to-right letters alone, stay as they are)."""
    return replace(sentence, values=tuple((name, _isolated(value)) for name, value in sentence.values))


def _isolated(value: Value) -> Value:
    if isinstance(value, str):
        return isolated(value)
    if isinstance(value, tuple) and value and isinstance(value[0], Said):
        return tuple(_isolating(part) for part in value if isinstance(part, Said))
    if isinstance(value, tuple) and all(isinstance(part, str) for part in value):
        return tuple(isolated(part) for part in value if isinstance(part, str))
    return value


def stored(text: object, english: object, people: Mapping[str, str] | None = None) -> str:
    """A finding's sentence as the store keeps it (``findings.said``), in words; a
    sentence that cannot be read is shown as its English message, never an error."""
    sentence = None
    if isinstance(text, str) and text:
        try:
            sentence = read_stored(text)
        except (ValueError, TypeError, KeyError):
            sentence = None
    return said(sentence, "" if english is None else str(english), people)


def in_words(found: pl.DataFrame, people: Mapping[str, str] | None = None) -> pl.DataFrame:
    """Findings as a page lists them: each ``message`` in the session's language (from
    its ``said``, which goes), each ``player`` by name."""
    if "message" not in found.columns:
        return found
    sentences = found["said"].to_list() if "said" in found.columns else [None] * found.height
    english = found["message"].to_list()
    messages = [stored(text, message, people) for text, message in zip(sentences, english, strict=True)]
    shown = found.with_columns(pl.Series("message", messages, dtype=pl.String))
    if people and "player" in shown.columns:
        shown = shown.with_columns(pl.col("player").replace(dict(people)))
    return shown.drop("said", strict=False)


def reasons(text: object) -> str:
    """Why a player stands where they do (the standings' ``reasons``), in the session's
    language; nothing for reasons that cannot be read."""
    try:
        said = read_stored_all(text) if isinstance(text, str) else ()
    except ValueError:
        said = ()
    return "; ".join(words(reason, language()) for reason in said)


def with_reasons(frame: pl.DataFrame) -> pl.DataFrame:
    """The standings as a page shows or hands them out: ``why`` in the session's
    language, beside the sentences it was made from (``reasons``, for a program that
    reads the download, as in the command line's CSV)."""
    if "reasons" not in frame.columns:
        return frame
    said = [reasons(text) for text in frame["reasons"].to_list()]
    return frame.with_columns(pl.Series("why", said, dtype=pl.String))
