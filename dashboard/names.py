"""Plain names for the codes the log and the store use: what a page shows instead of
``gold_digger``, ``wrong_draw`` or ``started_at``.

The log format's codes are English identifiers, fixed by ``event-log.md``; a player
reads words of their own game. Each table here maps a code to its English words,
marked for the catalogue (:func:`dashboard.i18n.N_`), and each function gives them in
the session's language (:func:`dashboard.i18n._`). The words are the ones each
community's rule texts use (``docs/languages.md``): *Goudzoeker*, *Goldgräber*,
*gruvearbeider*; *egoïstische dwerg*, *egoistischer Zwerg*, *egoistisk dverg*.

A code no table knows (a newer log, a code from outside) is shown as it is, never
dropped: ``role("troll") == "troll"``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Final

import polars as pl

from analytics import headings
from dashboard.i18n import N_, _, language, ngettext
from dashboard.markup import UNSHOWN, visible
from events import cards

ROLES: Final = {
    "gold_digger": N_("gold digger"),
    "saboteur": N_("saboteur"),
    "selfish_dwarf": N_("selfish dwarf"),
}
"""The roles of both rulesets (``events.tables.ROLES``)."""

WINNERS: Final = {
    "gold_diggers": N_("the gold diggers"),
    "saboteurs": N_("the saboteurs"),
    "selfish_dwarf": N_("the selfish dwarf"),
    "nobody": N_("nobody"),
}
"""Who won a round (``events.schema.Winner``)."""

STAGES: Final = {"preliminary": N_("preliminary"), "semifinal": N_("semi-final"), "final": N_("final")}
"""The stages of a tournament (``events.tables.Stage``)."""

RULESETS: Final = {"tournament": N_("tournament rules"), "base": N_("base game")}
"""The rulesets (``events.tables.Ruleset``)."""

ENDINGS: Final = dict(
    gold=N_("the gold was reached"),
    hands_empty=N_("the cards ran out"),
    early=N_("stopped early"),
    score_sheet=N_("score sheet only"),
)
"""How a round ended (``ingest.readmodels`` ``rounds.ended_by``)."""

SEVERITIES: Final = {"error": N_("error"), "warning": N_("warning")}

FINDINGS: Final = {
    "malformed": N_("a line of the log cannot be read"),
    "bad_deck": N_("the deck is not the game's deck"),
    "bad_roles": N_("the roles dealt do not fit the table"),
    "bad_hand_size": N_("a hand was dealt the wrong number of cards"),
    "bad_setup_card": N_("the card in the middle of the map is wrong"),
    "wrong_start_player": N_("the wrong player started the round"),
    "out_of_turn": N_("played out of turn"),
    "extra_play": N_("played more than one card in a turn"),
    "missed_draw": N_("forgot to draw a card"),
    "wrong_draw": N_("drew the wrong card"),
    "card_not_in_hand": N_("played a card that was not in hand"),
    "path_with_broken_tool": N_("laid a path card with a broken tool"),
    "illegal_placement": N_("laid a path card where it does not fit"),
    "impossible_action": N_("played an action card that cannot be played so"),
    "missing_reveal": N_("a goal reached was not turned up"),
    "false_reveal": N_("a goal was turned up that no path reached"),
    "play_after_round_end": N_("played after the round had ended"),
    "wrong_score": N_("the points written down are wrong"),
    "table_incident": N_("the referee noted an incident at the table"),
    "incomplete": N_("the log stops before the game's end"),
    "wrong_table": N_("played at another table than the seating gave"),
    "wrong_rounds": N_("a game of more or fewer rounds than its stage plays"),
    "wrong_ruleset": N_("a game of other rules than its tournament's"),
    "no_round": N_("a game that names no round of its tournament"),
    "more_findings": N_("more findings, counted but not listed"),
}
"""A short plain sentence per finding code (``events.findings.Code``, the count of
findings a report does not list, the seating's ``wrong_table``:
:data:`analytics.standings.MISSEATED`, the games' ``wrong_rounds``:
:data:`analytics.standings.ROUND_COUNT`, and ``wrong_ruleset`` and ``no_round``:
:data:`analytics.standings.HEADER_FINDINGS`)."""

TOOLS: Final = {"pick": N_("pickaxe"), "lamp": N_("lamp"), "cart": N_("cart")}
"""The three tools (``events.cards.TOOLS``)."""

OUTCOMES: Final = {
    "accepted": N_("accepted"),
    "accepted_with_findings": N_("accepted with findings"),
    "rejected": N_("rejected"),
    "duplicate": N_("duplicate"),
}
"""What became of an uploaded file (``ingest.schema`` ``uploads.outcome``)."""

KINDS: Final = {
    "log": N_("game log"),
    "score_sheet": N_("score sheet"),
    "tournament": N_("tournament description"),
    "unknown": N_("unknown"),
}
"""What an uploaded file is (``ingest.schema`` ``uploads.kind``)."""

GOALS: Final = {"top": N_("top"), "middle": N_("middle"), "bottom": N_("bottom")}
"""The three goal cards' places (``events.cards.SLOTS``), as "the top goal" says it."""

NOTES: Final = {
    "face_up_discard": N_("discarded a card face up"),
    "drew_from_discard": N_("drew from the discard pile"),
    "moved_path_card": N_("moved a path card already laid"),
    "moved_broken_tool": N_("moved or discarded a broken tool not repaired"),
    "showed_hand_card": N_("showed a hand card"),
    "showed_goal_card": N_("showed a goal card"),
    "showed_role_card": N_("showed a role card"),
    "looked_at_cards": N_("looked at cards they may not see"),
    "other": N_("broke a rule at the table"),
}
"""What a referee's note says a player did (``events.schema.NoteKind``, R-C1)."""

CARDS: Final = {
    # action cards
    "break_pick": N_("broken pickaxe"),
    "break_lamp": N_("broken lamp"),
    "break_cart": N_("broken cart"),
    "repair_pick": N_("repair: pickaxe"),
    "repair_lamp": N_("repair: lamp"),
    "repair_cart": N_("repair: cart"),
    "repair_pick_lamp": N_("repair: pickaxe or lamp"),
    "repair_pick_cart": N_("repair: pickaxe or cart"),
    "repair_lamp_cart": N_("repair: lamp or cart"),
    "rockfall": N_("rockfall"),
    "map": N_("map"),
    # the goals, and a card nobody at the table has seen
    "goal_gold": N_("goal with the treasure"),
    "goal_stone_ne": N_("goal with stone, bend north to east"),
    "goal_stone_nw": N_("goal with stone, bend north to west"),
    "?": N_("a hidden card"),
}
"""Every card of ``events.cards`` but the path cards by its code (a path card is named
by its shape as it lies: :func:`card`)."""


def _named(words: Mapping[str, str], code: object) -> str:
    text = str(code)
    return _(words[text]) if text in words else text


role: Final = functools.partial(_named, ROLES)
"""``gold_digger`` → "gold digger" (goudzoeker, Goldgräber, gruvearbeider)."""
winner: Final = functools.partial(_named, WINNERS)
"""``gold_diggers`` → "the gold diggers"."""
stage: Final = functools.partial(_named, STAGES)
"""``semifinal`` → "semi-final"."""
ruleset: Final = functools.partial(_named, RULESETS)
"""``base`` → "base game"."""
ending: Final = functools.partial(_named, ENDINGS)
"""``hands_empty`` → "the cards ran out"."""
severity: Final = functools.partial(_named, SEVERITIES)
"""``error`` → "error"."""
finding: Final = functools.partial(_named, FINDINGS)
"""``wrong_draw`` → "drew the wrong card"."""
tool: Final = functools.partial(_named, TOOLS)
"""``pick`` → "pickaxe"."""
outcome: Final = functools.partial(_named, OUTCOMES)
"""``accepted_with_findings`` → "accepted with findings"."""
kind: Final = functools.partial(_named, KINDS)
"""``score_sheet`` → "score sheet"."""
goal: Final = functools.partial(_named, GOALS)
"""``top`` → "top" (as "the top goal")."""
note: Final = functools.partial(_named, NOTES)
"""``face_up_discard`` → "discarded a card face up"."""

SIDES: Final = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}
"""The sides of a card as it lies on the maze (north up, as the maze's picture is drawn)."""

PATHS: Final = {
    ("straight", False): N_("straight path (%(sides)s)"),
    ("straight", True): N_("dead-end straight path (%(sides)s)"),
    ("curve", False): N_("curve (%(sides)s)"),
    ("curve", True): N_("dead-end curve (%(sides)s)"),
    ("junction", False): N_("T-junction (%(sides)s)"),
    ("junction", True): N_("dead-end T-junction (%(sides)s)"),
    ("crossroads", False): N_("crossroads"),
    ("crossroads", True): N_("dead-end crossroads"),
    ("end", True): N_("dead end (%(sides)s)"),
}
"""A path card's name by its shape (and whether the path stops in it: a dead end),
with the sides it opens to filled in."""
_TURNED: Final = str.maketrans("NESW", "SWNE")


def _path(code: str, rotated: bool) -> str:
    laid = code.rstrip("x").translate(_TURNED) if rotated else code.rstrip("x")
    open_sides = [side for side in "NESW" if side in laid]
    sides = [_(SIDES[side]) for side in open_sides]
    if len(sides) == 2:
        shape = "straight" if set(open_sides) in ({"N", "S"}, {"E", "W"}) else "curve"
    else:
        shape = {4: "crossroads", 3: "junction", 1: "end"}[len(sides)]
    name = _(PATHS[shape, code.endswith("x")]) % {"sides": ("–" if len(sides) == 2 else ", ").join(sides)}
    return _("%(card)s, turned") % {"card": name} if rotated else name


def card(code: str, rotated: bool = False) -> str:
    """A card by its plain name; a path card by its shape and the sides it opens as it
    lies, and "turned" when it lies turned round (R-P3).

    >>> card("break_lamp"), card("repair_pick_cart"), card("EW"), card("NE", rotated=True)
    ('broken lamp', 'repair: pickaxe or cart', 'straight path (east–west)', 'curve (south–west), turned')
    >>> card("NESx"), card("Nx"), card("NESW")
    ('dead-end T-junction (north, east, south)', 'dead end (north)', 'crossroads')
    """
    return _path(code, rotated) if code in cards.TUNNEL_CARDS else _named(CARDS, code)


def column(code: str) -> str:
    """``started_at`` → "started": a column's heading, in the words the command line
    uses too (:mod:`analytics.headings`, from the findings' catalogue)."""
    return headings.heading(code, language())


def ranks(frame: pl.DataFrame) -> list[str]:
    """Each row's rank as the standings write it, ``3=`` where others share it (by the
    ``rank`` column: a final table has no ``shared`` one)."""
    counts = frame["rank"].value_counts()
    shared = {r for r, n in counts.iter_rows() if n > 1}
    return [f"{r}=" if r in shared else str(r) for r in frame["rank"]]


def headers(columns: Iterable[str]) -> dict[str, str]:
    """Each column's heading, for ``st.dataframe(column_config=...)`` (a label string
    is a column's whole configuration there)."""
    return {name: column(name) for name in columns}


def verdict(errors: int, warnings: int) -> str:
    """A round's audit verdict: "2 violations", "clean, with warnings", "clean"."""
    if errors:
        return ngettext("%(num)d violation", "%(num)d violations", errors) % {"num": errors}
    return _("clean, with warnings") if warnings else _("clean")


def result(won: bool | None, star: bool) -> str:
    """A player's round: "won, star", "won" or "lost"; "no winner" for a round with
    none to count (ended before it was over, or a score sheet's that fits no outcome)."""
    parts = [word for word, on in ((_("won"), won), (_("star"), star)) if on]
    if won is None:
        return ", ".join([_("no winner"), *parts])
    return ", ".join(parts) or _("lost")


def bound(end: str) -> str:
    """The heading of one end (``low``, ``high``) of a win rate's Wilson 95% interval."""
    return column("low" if end == "low" else "high")


def plain(column: str, words: Mapping[str, str]) -> pl.Expr:
    """``column`` of a frame with each code by its plain name (``words``: one of the
    tables here, :data:`ROLES`, :data:`STAGES`…); a code the table lacks stays as it is.

    The words are looked up here, in the page's run, and handed to Polars as a table:
    Polars evaluates on threads of its own, which see no session and so no language.
    """
    named = {code: _(english) for code, english in words.items()}
    return pl.col(column).replace_strict(named, default=pl.col(column), return_dtype=pl.String)


def visible_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` as a table widget is to show it: in each text column, the controls and
    direction marks of text from outside written out (:func:`dashboard.markup.visible`),
    as the command line writes them. A cell is laid out by the browser as any text: a
    table labelled ``\\u202e1t-elbat`` showed as "table-t1", and a control as a box."""
    marked = [
        column
        for column, kind in frame.schema.items()
        if kind == pl.String and frame[column].str.contains(UNSHOWN.pattern).any()
    ]
    return frame.with_columns(pl.col(c).map_elements(visible, return_dtype=pl.String) for c in marked)
