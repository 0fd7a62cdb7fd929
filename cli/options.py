"""Groups of options that many commands share, declared once.

Typer reads a command's options from its signature. A command that needs a store (or
a store or a lake, or the statistics' filters) names one parameter for it —
``store: Store`` — and :func:`grouped` puts the group's options in that parameter's
place in the signature Typer reads (``--help`` lists them there), then hands the
command the object built from them. So ``--db`` and ``--wait`` are written once, here,
and read the same way by every command.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

if TYPE_CHECKING:
    from ingest.store import Store

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="The DuckDB file (default: $SABOTEUR_DB, else ./saboteur.duckdb).", show_default=False),
]
WaitOption = Annotated[float, typer.Option("--wait", help="Seconds to wait for a database another process holds.")]
ASKED_LANGUAGE: Final[ContextVar[str | None]] = ContextVar("asked_language", default=None)
"""The ``--lang`` the command line gave, as soon as it is read (before the arguments
written ahead of it are judged): what a path refused while it is read is said in."""


def _asked(value: str | None) -> str | None:
    """Note the ``--lang`` read (an eager option: before the command's other arguments)."""
    if value is not None:
        ASKED_LANGUAGE.set(value)
    return value


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="The language of what is printed for people: en, nl, de or nb (default: $SABOTEUR_LANG, else en).",
        show_default=False,
        is_eager=True,
        callback=_asked,
    ),
]


ROOT_LANGUAGE: Final[ContextVar[str | None]] = ContextVar("root_language", default=None)
"""``saboteur --lang X COMMAND``: the language given before the command, for a command
given none of its own (set by the root's callback, put back when the run ends)."""


def language(asked: str | None) -> str:
    """The language ``--lang`` names (the command's, else the root's), else
    ``$SABOTEUR_LANG``'s, or a usage error naming the languages there are."""
    from events.language import chosen

    try:
        return chosen(asked if asked is not None else ROOT_LANGUAGE.get())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang") from None


def grouped(parameter: str, build: Callable[..., Any]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A decorator: the command with ``build``'s parameters in place of its own
    ``parameter``, which it receives as ``build`` made it from them."""

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        own = inspect.signature(command, eval_str=True)
        shared = _options_of(build)
        if parameter not in own.parameters:
            raise TypeError(f"{command.__name__} has no parameter {parameter!r} for the options of {build.__name__}")

        @functools.wraps(command)
        def run(**options: Any) -> None:
            command(**{parameter: build(**{name: options.pop(name) for name in shared})}, **options)

        parameters: list[inspect.Parameter] = []
        for own_parameter in own.parameters.values():
            parameters.extend(shared.values() if own_parameter.name == parameter else [own_parameter])
        run.__signature__ = own.replace(parameters=parameters)  # type: ignore[attr-defined]
        return run

    return decorate


def _options_of(build: Callable[..., Any]) -> dict[str, inspect.Parameter]:
    """``build``'s parameters, their annotations evaluated (Typer reads the options from
    them); its return annotation is left as written, so it may name a class imported
    only for the type checker (``Store``: DuckDB is not loaded for ``--help``)."""
    namespace = getattr(build, "__globals__", {})
    return {
        name: parameter.replace(annotation=eval(parameter.annotation, namespace))
        if isinstance(parameter.annotation, str)
        else parameter
        for name, parameter in inspect.signature(build).parameters.items()
    }


def opened_store(db: DbOption = None, wait: WaitOption = 60.0) -> Store:
    """The store ``--db`` names (else ``$SABOTEUR_DB``, else ``./saboteur.duckdb``),
    waiting ``--wait`` seconds for another process. Nothing is opened yet: a job
    opens it for as long as it needs it."""
    from ingest.store import Store, default_path

    return Store(db if db is not None else default_path(), wait=wait)


with_store = grouped("store", opened_store)
"""A command that takes ``store: Store``, given from ``--db`` and ``--wait``."""


def writing_store(db: DbOption = None, wait: WaitOption = 60.0) -> Store:
    """The store of a command that records (a penalty, a seating…): as
    :func:`opened_store`, upgraded first if it is of an older schema version. Such a
    command reads the store before it writes, and the reading refused it ("saboteur
    rebuild upgrades it") where the writing would have upgraded it: the first command of
    a tournament day after an update."""
    from ingest.store import StoreOlder

    store = opened_store(db, wait)
    if store.path.exists():
        try:
            with store.connect(read_only=True):
                pass
        except StoreOlder:
            with store.connect():  # a writing connection upgrades it, in one transaction
                pass
    return store


with_writing_store = grouped("store", writing_store)
"""A command that records: ``store: Store``, upgraded first (:func:`writing_store`)."""
