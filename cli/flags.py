"""Flags in ``--help`` by their names alone: ``--strict/--no-strict``, not ``<bool>``.

Typer 0.29's help prints a type beside every option, ``<bool>`` for a flag, which
takes no value: a reader then types ``--strict true``. Every flag of the ``saboteur``
command is declared with both of its names (``--flag/--no-flag``), and
:func:`named_only`, called by :mod:`cli.main`, leaves a flag's type out of the help,
in one place for every command (``--help`` itself included).
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperOption

_typed = getattr(TyperOption, "display_type_rich", None)
"""Typer's own way (a Typer without it prints no types: then there is nothing to do)."""


def _display_type(option: TyperOption, ctx: Any) -> str | None:  # Any: Typer's own click's Context
    """The type shown beside an option in ``--help``; none for a flag."""
    if option.is_flag or _typed is None:
        return None
    shown: str | None = _typed(option, ctx)
    return shown


def named_only() -> None:
    """Show every flag in ``--help`` by its names alone (idempotent)."""
    if _typed is not None:
        TyperOption.display_type_rich = _display_type  # type: ignore[method-assign,assignment]
