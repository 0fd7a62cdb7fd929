"""Plain names for the codes the log and the store use: what a page shows instead of
``gold_digger``, ``wrong_draw`` or ``started_at``.

The log format's codes are English identifiers, fixed by ``event-log.md``; a player
reads words of their own game. Each table here maps a code to its English words,
marked for the catalogue (:func:`dashboard.i18n.N_`), and each function gives them in
the session's language (:func:`dashboard.i18n._`). The words are the ones each
community's rule texts use (``docs/languages.md``): *Goudzoeker*, *Goldsucher*,
*gullgraver*; *egoïstische dwerg*, *egoistischer Zwerg*, *egoistisk dverg*.

A code no table knows (a newer log, a code from outside) is shown as it is, never
dropped: ``role("troll") == "troll"``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Final

import polars as pl

from dashboard.i18n import N_, _, ngettext

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
"""The stages of a tournament (``events.schema.Stage``)."""

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
    "more_findings": N_("more findings, counted but not listed"),
}
"""A short plain sentence per finding code (``events.findings.Code``, and the count
of findings a report does not list)."""

TOOLS: Final = {"pick": N_("pickaxe"), "lamp": N_("lamp"), "cart": N_("cart")}
"""The three tools (``events.cards.TOOLS``)."""

CARDS: Final = {
    # path cards, by shape: their open sides as printed (y grows southward)
    "NESW": N_("crossroads"),
    "NES": N_("T-junction, closed to the west"),
    "NEW": N_("T-junction, closed to the south"),
    "NS": N_("straight tunnel, north–south"),
    "EW": N_("straight tunnel, east–west"),
    "NE": N_("bend, north to east"),
    "NW": N_("bend, north to west"),
    "NESWx": N_("dead end, open on all four sides"),
    "NESx": N_("dead end, open north, east and south"),
    "NEWx": N_("dead end, open north, east and west"),
    "NSx": N_("dead end, open north and south"),
    "EWx": N_("dead end, open east and west"),
    "NEx": N_("dead end, open north and east"),
    "NWx": N_("dead end, open north and west"),
    "Nx": N_("dead end, open north"),
    "Ex": N_("dead end, open east"),
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
"""Every card of ``events.cards`` by its code."""

COLUMNS: Final = {
    "started_at": N_("started"),
    "tournament": N_("tournament"),
    "stage": N_("stage"),
    "tournament_round": N_("tournament round"),
    "table": N_("table"),
    "game_id": N_("game"),
    "round": N_("round of the game"),
    "players": N_("players"),
    "saboteurs": N_("saboteurs"),
    "winner": N_("winner"),
    "connector": N_("connected by"),
    "ended_by": N_("how it ended"),
    "turns": N_("turns"),
    "errors": N_("errors"),
    "warnings": N_("warnings"),
    "codes": N_("findings"),
    "verdict": N_("verdict"),
    "role": N_("role"),
    "n": N_("trials"),
    "wins": N_("wins"),
    "rounds": N_("rounds"),
    "dealt": N_("dealt"),
    "points": N_("points"),
    "stars": N_("stars"),
    "star": N_("star"),
    "won": N_("won"),
    "line": N_("line"),
    "player": N_("player"),
    "code": N_("finding"),
    "rule": N_("rule"),
    "severity": N_("severity"),
    "message": N_("what the audit says"),
    "seat": N_("seat"),
    "cards": N_("cards in hand"),
    "broken": N_("broken tools"),
    # the standings' own
    "rank": N_("rank"),
    "place": N_("#"),
    "penalty": N_("penalty"),
    "notes": N_("notes"),
    "reason": N_("reason"),
    "preliminary_points": N_("prelim. points"),
    "preliminary_stars": N_("prelim. stars"),
}
"""Column names of the store's frames, as a table's heading shows them."""


def _named(words: Mapping[str, str], code: object) -> str:
    text = str(code)
    return _(words[text]) if text in words else text


role: Final = functools.partial(_named, ROLES)
"""``gold_digger`` → "gold digger" (Goudzoeker, Goldsucher, gullgraver)."""
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
card: Final = functools.partial(_named, CARDS)
"""``break_lamp`` → "broken lamp", ``NS`` → "straight tunnel, north–south"."""


column: Final = functools.partial(_named, COLUMNS)
"""``started_at`` → "started": a column's heading."""


def headers(columns: Iterable[str]) -> dict[str, str]:
    """Each column's heading, for ``st.dataframe(column_config=...)`` (a label string
    is a column's whole configuration there)."""
    return {name: column(name) for name in columns}


def verdict(errors: int, warnings: int) -> str:
    """A round's audit verdict: "2 violations", "clean, with warnings", "clean"."""
    if errors:
        return ngettext("%(num)d violation", "%(num)d violations", errors) % {"num": errors}
    return _("clean, with warnings") if warnings else _("clean")


def result(won: bool, star: bool) -> str:
    """A player's round: "won, star", "won" or "lost"."""
    parts = [word for word, on in ((_("won"), won), (_("star"), star)) if on]
    return ", ".join(parts) or _("lost")


def bound(end: str) -> str:
    """The heading of one end (``low``, ``high``) of a win rate's Wilson 95% interval."""
    heading = _("%(level)d%% low") if end == "low" else _("%(level)d%% high")
    return heading % {"level": 95}


def plain(column: str, words: Mapping[str, str]) -> pl.Expr:
    """``column`` of a frame with each code by its plain name (``words``: one of the
    tables here, :data:`ROLES`, :data:`STAGES`…); a code the table lacks stays as it is.

    The words are looked up here, in the page's run, and handed to Polars as a table:
    Polars evaluates on threads of its own, which see no session and so no language.
    """
    named = {code: _(english) for code, english in words.items()}
    return pl.col(column).replace_strict(named, default=pl.col(column), return_dtype=pl.String)
