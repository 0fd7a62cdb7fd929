"""``--help`` in the language asked for: ``saboteur standings --help --lang nl``.

A command's help is its docstring and its options' ``help=`` texts, which Typer reads
when the command is built, in English; the catalogue (``findings.po``, where
:func:`events.language.helps` puts every one of them) holds their translations. So the
root group (:class:`cli.main.Root`) looks for ``--lang`` (or ``$SABOTEUR_LANG``) among
the arguments before it parses them, and when another language than English is asked
for, it puts each command's help, and Typer's own words around them ("Options",
"[default: …]"), into that language as the commands are loaded (:func:`speaking`).
Typer's words are module settings of :mod:`typer.rich_utils`: they are put back when
the command ends, so commands run one after another in one process (the tests' runner)
never see another's language. Click's "Usage:" line stays English: it is written by
the command-line library itself.

An English run loads nothing of this: no catalogue, no language module.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

from events.said import sentence
from events.tongues import ENVIRONMENT, LANGUAGES, language_code

"""The languages a help is translated into (English is its own)."""
TYPER_WORDS: Final = {
    "ARGUMENTS_PANEL_TITLE": sentence("Arguments"),
    "OPTIONS_PANEL_TITLE": sentence("Options"),
    "COMMANDS_PANEL_TITLE": sentence("Commands"),
    "ERRORS_PANEL_TITLE": sentence("Error"),
    "DEFAULT_STRING": sentence("[default: {}]"),
    "REQUIRED_LONG_STRING": sentence("[required]"),
    "ENVVAR_STRING": sentence("[env var: {}]"),
    "DEPRECATED_STRING": sentence("(deprecated) "),
    "ABORTED_TEXT": sentence("Aborted."),
    "RICH_HELP": sentence("Try [blue]'{command_path} {help_option}'[/] for help."),
}
"""Typer's own words in a help, by their setting in :mod:`typer.rich_utils`."""
HELP_OPTION: Final = sentence("Show this message and exit.")
"""What ``--help`` says of itself."""


def asked(args: Sequence[str]) -> str:
    """The language a help is asked in: ``--lang X`` (or ``--lang=X``) among ``args``,
    else ``$SABOTEUR_LANG``; English when neither names a language a help speaks (a
    value that is no language is the option's to refuse, when it is parsed).

    >>> asked(["standings", "--help", "--lang", "nl"]), asked(["--lang=de-AT", "--help"]), asked(["--help"])
    ('nl', 'de', 'en')
    """
    lang: str | None = None
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(args):
            lang = args[index + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    lang = language_code(lang or os.environ.get(ENVIRONMENT) or "en")
    return lang if lang in LANGUAGES else "en"


@contextmanager
def speaking(lang: str) -> Iterator[Callable[[Any], None]]:
    """For the block, Typer's words in ``lang``; yields the function that puts a
    command (a group with its commands) into ``lang``."""
    import typer.rich_utils as words

    from events.language import catalogue

    book = catalogue(lang)
    before = {name: getattr(words, name) for name in TYPER_WORDS if hasattr(words, name)}
    for name in before:
        setattr(words, name, book.gettext(TYPER_WORDS[name]))
    try:
        yield functools.partial(_translated, book.gettext)
    finally:
        for name, value in before.items():
            setattr(words, name, value)


def _translated(say: Callable[[str], str], command: Any) -> None:
    """``command``'s help, its options' and its commands' in the catalogue's words
    (each text its own id; one the catalogue lacks stays English)."""
    if getattr(command, "_help_spoken", False):
        return
    command._help_spoken = True
    for name in ("help", "short_help"):
        text = getattr(command, name, None)
        if isinstance(text, str) and text:
            setattr(command, name, say(text))
    for param in getattr(command, "params", ()):
        text = getattr(param, "help", None)
        if isinstance(text, str) and text:
            param.help = say(text)
    own = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = own(ctx)
        if option is not None and isinstance(option.help, str):
            option.help = say(option.help)
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        _translated(say, sub)
