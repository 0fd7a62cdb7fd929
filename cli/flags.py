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

_typed = TyperOption.display_type_rich


def _display_type(option: TyperOption, ctx: Any) -> str | None:  # Any: Typer's own click's Context
    """The type shown beside an option in ``--help``; none for a flag."""
    return None if option.is_flag else _typed(option, ctx)


def named_only() -> None:
    """Show every flag in ``--help`` by its names alone (idempotent)."""
    TyperOption.display_type_rich = _display_type  # type: ignore[method-assign,assignment]
