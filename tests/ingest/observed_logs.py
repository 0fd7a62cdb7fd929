"""Observed logs for the tests of the store, the statistics and the dashboard: a full
log's observed log (:func:`events.observe.observe`), with a referee's note put in where
a test wants one."""

from __future__ import annotations

import json

from events.builder import LogBuilder
from events.logfile import write_log
from events.observe import observe
from events.simulate.game import quick_game

NOTE = "showed the map card to the left"


def note_line(player: str | None, error: str = "showed_hand_card", note: str = NOTE) -> str:
    """A ``referee_note`` line (R-C1)."""
    return json.dumps({"type": "referee_note", "player": player, "error": error, "note": note})


def observed(full: str | bytes, *, notes: dict[int, str] | None = None) -> str:
    """The observed log of ``full``, each of ``notes`` (a note line by the line it
    follows in the observed log) put in after its line."""
    data = full.encode() if isinstance(full, str) else full
    lines = observe(data).decode().splitlines()
    for after, note in sorted((notes or {}).items(), reverse=True):
        lines.insert(after, note)
    return "".join(line + "\n" for line in lines)


def simulated(players: int = 6, ruleset: str = "tournament", seed: int = 0) -> str:
    """A simulated full log (default names: ``p1``…)."""
    return write_log(quick_game(players, ruleset=ruleset, seed=seed))


NOTED_LINE = 4
"""Where :func:`noted_round` puts its referee's note."""


def noted_round(game_id: str = "test:noted") -> str:
    """The observed log of a one-round game in which a referee's note on bob (line
    :data:`NOTED_LINE`) stands between ann's pass and her draw — not a missed draw
    (R-C1: a note changes no state)."""
    log = LogBuilder(players=5, ruleset="tournament", rounds=1, game_id=game_id)
    log.deal(start="ann")
    log.pass_out()
    log.end_round()
    log.end_game()
    return observed("".join(line + "\n" for line in log.lines), notes={NOTED_LINE - 1: note_line("bob")})
