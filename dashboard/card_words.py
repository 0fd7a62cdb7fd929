"""The game in the words a table uses: players by name, a card with its article, a
place on the maze by the column and row the picture labels — never a log's codes.

The replay's steps (:mod:`dashboard.replay_view`) and the recording page
(:mod:`dashboard.recording.words`) both name things through here; the cards, roles and
tools themselves are named in :mod:`dashboard.names`, the one vocabulary of the
dashboard, and every word goes through the catalogue (:mod:`dashboard.i18n`). Nothing
here escapes: a name comes from outside, so a page shows these words through
:func:`dashboard.markup.escape` (or in a table's cell, which is text).
"""

from __future__ import annotations

from collections.abc import Mapping

from dashboard import names as words
from dashboard.i18n import _
from dashboard.markup import isolated
from events import cards

Cell = tuple[int, int]


def who(player: str | None, names: Mapping[str, str]) -> str:
    """A player by the name the table knows them by: the registered name, else the
    log's id; set apart in its own direction (:func:`dashboard.markup.isolated`), as
    the sentences and lists it goes into are laid out in theirs.

    >>> who("dirk-evans", {"dirk-evans": "Dirk Evans"}), who("ann", {}), who(None, {})
    ('Dirk Evans', 'ann', 'nobody')
    """
    if player is None:
        return _("nobody")
    return isolated(names.get(player, player))


def a_card(card: str, rotated: bool = False) -> str:
    """A card with its article, as a sentence names it (a language without articles
    there translates "a %(card)s" as the name alone).

    >>> a_card("EW"), a_card("map"), a_card("break_pick"), a_card("?")
    ('a straight path (east–west)', 'a map', 'a broken pickaxe', 'a hidden card')
    """
    name = words.card(card, rotated)
    if card == cards.UNSEEN:
        return name
    return (_("an %(card)s") if name[0] in "aeiou" else _("a %(card)s")) % {"card": name}


def place_words(cell: Cell) -> str:
    """A cell of the maze by the column and row the maze's picture labels it with.

    >>> place_words((5, -2))
    'column 5, row -2'
    """
    return _("column %(x)d, row %(y)d") % {"x": cell[0], "y": cell[1]}
