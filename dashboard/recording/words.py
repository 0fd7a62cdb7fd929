"""The recording in words a referee reads at a glance: what is due, what a card is,
what an entry did, and what a rule says of it — in the replay's own words.

Players, cards, roles and places are named in :mod:`dashboard.card_words` and
:mod:`dashboard.names`, as the replay names them, in the session's language. Every
string here may carry a player's name; the page escapes it
(:func:`dashboard.markup.escape`) where Markdown shows it.
"""

from __future__ import annotations

from collections.abc import Mapping

from dashboard import names as words
from dashboard import sentences
from dashboard.card_words import who
from dashboard.i18n import _
from dashboard.markup import isolated
from dashboard.replay_view import describe
from events.findings import Finding
from events.recorder import Due
from events.schema import Event
from events.state import RoundState


def due_words(due: Due, number: int, names: Mapping[str, str]) -> str:
    """What the table does next, as a heading.

    >>> due_words(Due("draw", "ann"), 1, {"ann": "Ann"})
    'Ann draws a card'
    """
    match due.kind:
        case "round":
            return _("Deal round %(round)d") % {"round": number}
        case "turn":
            return _("%(player)s's turn") % {"player": who(due.player, names)}
        case "draw":
            return _("%(player)s draws a card") % {"player": who(due.player, names)}
        case "reveal":
            return _("Turn up the %(goal)s goal") % {"goal": words.goal(due.slots[0])}
        case "round_end":
            return _("Round %(round)d is over: turn up the roles") % {"round": number}
        case "game_end":
            return _("The game is over")
    return _("The game is recorded")


def entry_words(event: Event | None, rs: RoundState | None, names: Mapping[str, str]) -> str:
    """What an entry did, as the replay says it, the players by ``names`` (the public
    words: a referee sees no hidden card)."""
    return describe(event, rs.maze.cells if rs is not None else {}, names)[0]


def finding_words(finding: Finding, names: Mapping[str, str] | None = None) -> str:
    """A finding as the replay words it: ``R-T1 played out of turn: it is ann's turn…``
    (the rule, the finding in plain words, then the audit's own words), each name set
    apart in its own direction (:func:`dashboard.markup.isolated`)."""
    table = {player: isolated(name) for player, name in (names or {}).items()}
    message = sentences.said(finding.said, finding.message, table)
    said = {"rule": finding.rule, "finding": words.finding(finding.code.value), "message": message}
    return _("%(rule)s %(finding)s: %(message)s") % said
