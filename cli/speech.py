"""The language a command speaks: ``--lang`` on a command, for all it prints.

A command decorated with :func:`speaking` takes ``--lang nl|de|nb|en`` (else
``$SABOTEUR_LANG``, else English) and runs with that language set; what it and its
helpers print goes through :func:`told`, which puts a sentence (:mod:`events.said`) into
it. The language is a context variable, set for the command's run and put back after,
so commands run one after another in one process (the tests' runner) never hear each
other's. (``saboteur audit`` takes ``--lang`` by itself: it lives in :mod:`cli.main`,
which loads nothing a command does not need, this module's catalogue included.)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, Final

import typer

from cli.errors import refusal, refused
from cli.options import ASKED_LANGUAGE, LangOption, language
from events.language import ENGLISH, words
from events.said import Said, say, sentence

_SPOKEN: Final[ContextVar[str | None]] = ContextVar("spoken", default=None)
OUTCOME_WORDS: Final = {
    "accepted": sentence("accepted"),
    "accepted_with_findings": sentence("accepted with findings"),
    "rejected": sentence("rejected"),
    "duplicate": sentence("duplicate"),
}
"""What became of a file, in words (``ingest`` and ``archive build`` say it)."""


def spoken() -> str:
    """The language the running command speaks; before it runs — while Typer's parsers
    judge its arguments (:mod:`cli.paths`), which refused a file given for a lake in
    English whatever the language — the one given before the command (``saboteur --lang
    nl archive …``, set by then), else ``$SABOTEUR_LANG``'s."""
    running = _SPOKEN.get()
    return running if running is not None else _before_the_command()


def _before_the_command() -> str:
    """The language of the ``--lang`` read so far (the command's is an eager option, read
    before the arguments it may be written after), else the root's, else
    ``$SABOTEUR_LANG``'s; English if that names none (the command says so once it runs)."""
    try:
        return language(ASKED_LANGUAGE.get())
    except typer.BadParameter:
        return ENGLISH


def told(said: Said) -> str:
    """``said`` in the running command's language."""
    return words(said, spoken())


def one_of(*choices: str) -> str:
    """What an option takes, when it was given something else: "one of: table, csv, json"."""
    return told(say("one of: %(choices)s", choices=", ".join(choices)))


def speaking(command: Callable[..., None]) -> Callable[..., None]:
    """The command with a ``--lang`` option after its own, run in that language."""
    own = inspect.signature(command, eval_str=True)  # Typer reads the options from the annotations

    @functools.wraps(command)
    def run(*args: Any, lang: str | None = None, **options: Any) -> None:
        token = _SPOKEN.set(language(lang))
        try:
            command(*args, **options)
        except Exception as exc:
            if refused(exc):  # a store busy, missing or damaged: said while the language is the command's
                raise refusal(exc) from None
            raise
        finally:
            _SPOKEN.reset(token)

    lang = inspect.Parameter("lang", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=LangOption)
    run.__signature__ = own.replace(parameters=[*own.parameters.values(), lang])  # type: ignore[attr-defined]
    return run
