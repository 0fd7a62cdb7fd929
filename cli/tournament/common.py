"""What the commands of a tournament's record share: the console they print to, what a
record appended said in the command's language (:func:`done`), a record refused ended as
one line (:func:`run`, :func:`nobody`), and a player as the organiser reads them out
(:func:`named`). ``saboteur standings`` (:mod:`cli.standings`) refuses the same way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import typer
from rich.markup import escape

from analytics import records
from analytics.records import RecordError
from cli.errors import refuse
from cli.output import Terminal as Console
from cli.speech import told
from events.said import Said, say

console = Console(soft_wrap=True)


def done(recorded: records.Recorded, what: Said) -> None:
    """What a record command appended, in the command's language (:mod:`cli.speech`)."""
    said = say(
        "recorded %(what)s (%(stream)s, now at version %(version)s)",
        what=(what,),
        stream=recorded.stream,
        version=str(recorded.version),
    )
    console.print(escape(told(said)))


def nobody(tournament: str) -> typer.Exit:
    """The refusal of a command that needs players where none are registered."""
    said = say(
        "no players are registered in %(tournament)s: register them first (saboteur tournament register)",
        tournament=tournament,
    )
    return refuse(told(said), 1)


def run(action: Any) -> Any:
    """``action()``; a record refused ends the command (exit 1), saying why in the
    command's language. A store that cannot be used is the root command's to report
    (:mod:`cli.errors`)."""
    try:
        return action()
    except RecordError as exc:
        raise refuse(told(exc.said), 1) from None


def named(names: Mapping[str, str], player: str) -> str:
    """A player as the organiser reads them out: the display name with the id, which
    the commands take (not escaped: for rich, :func:`rich.markup.escape` it)."""
    name = names.get(player)
    return f"{name} ({player})" if name else player
