"""Commands imported when they run: ``saboteur --help`` and ``saboteur audit FILE`` load
none of the store, the lake, the dashboard or their libraries (DuckDB, Polars, pyarrow,
Dask, Streamlit, cryptography), which took three quarters of a second before anything
was done.

A :class:`Lazy` names where a command lives (a module and the Typer app or function in
it) and the first paragraph of its help, which is all ``saboteur --help`` shows of it;
the root group (:class:`LazyGroup`) imports the module only when the command is
asked for itself. ``tests/test_startup.py`` keeps each summary equal to the command's
own help, and keeps the heavy modules out of the commands that need none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo, TyperInfo

MARKUP: Any = "markdown"
"""The root's ``rich_markup_mode``, which the commands it loads take as theirs."""


@dataclass(frozen=True, slots=True)
class Lazy:
    """A command of the root group: ``module:attribute`` (a :class:`typer.Typer` of
    commands, or a command's function) and its help's first paragraph."""

    module: str
    attribute: str
    summary: str

    def load(self, name: str) -> Any:
        """The command as Click runs it, built as the root app would have built it."""
        target = getattr(importlib.import_module(self.module), self.attribute)
        if isinstance(target, typer.Typer):
            return typer.main.get_group_from_info(
                TyperInfo(target, name=name),
                pretty_exceptions_short=True,
                suggest_commands=True,
                rich_markup_mode=MARKUP,
            )
        return typer.main.get_command_from_info(
            CommandInfo(name=name, callback=target), pretty_exceptions_short=True, rich_markup_mode=MARKUP
        )

    def stand_in(self, name: str) -> TyperCommand:
        """What the root's help lists: the name and the summary, nothing imported."""
        return TyperCommand(name=name, help=self.summary, callback=None)


class LazyGroup(TyperGroup):
    """A command group whose ``lazy`` commands are imported when one is run (or its
    own help asked for), listed in ``order`` (the eager ones, defined with the group,
    where they stand in it)."""

    lazy: ClassVar[dict[str, Lazy]] = {}
    order: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listing = False
        self.translate: Callable[[Any], None] | None = None
        """Puts a command's help into the language asked for (:mod:`cli.help_words`);
        ``None`` in English."""

    def list_commands(self, ctx: Any) -> list[str]:
        eager = [name for name in super().list_commands(ctx) if name not in self.order]
        return [*self.order, *eager]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return super().get_command(ctx, cmd_name)
        lazy = self.lazy[cmd_name]
        if self._listing:
            return self._spoken(lazy.stand_in(cmd_name))
        command = self._spoken(lazy.load(cmd_name))
        self.commands[cmd_name] = command
        return command

    def _spoken(self, command: Any) -> Any:
        if self.translate is not None:
            self.translate(command)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True  # the listing needs each command's summary, not the command
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
