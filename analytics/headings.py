"""The words a table of the store's frames is shown in: its title, its columns' heads,
and the codes in its cells (``gold_digger``, ``hands_empty``, ``break``).

The frames keep their codes (CSV, JSON and Parquet are data, and the log format's codes
are fixed English identifiers); a table a person reads shows words, in their language.
The dashboard and the command line both read them here, from the catalogue of
:mod:`events.language` (``events/locales/<lang>/LC_MESSAGES/findings.po``), so a column
is called the same on a page and in a terminal, and the CLI never loads Streamlit to say
it. A code no table here knows is shown as it is, its underscores as spaces, never
dropped.
"""

from __future__ import annotations

from typing import Final

from events.language import ENGLISH, words
from events.said import Said, say, sentence

COLUMNS: Final[dict[str, str | Said]] = {
    # games and rounds
    "started_at": sentence("started"),
    "tournament": sentence("tournament"),
    "stage": sentence("stage"),
    "tournament_round": sentence("tournament round"),
    "table": sentence("table"),
    "game_id": sentence("game"),
    "round": sentence("round of the game"),
    "players": sentence("players"),
    "saboteurs": sentence("saboteurs"),
    "winner": sentence("winner"),
    "connector": sentence("connected by"),
    "ended_by": sentence("how it ended"),
    "turns": sentence("turns"),
    "errors": sentence("errors"),
    "warnings": sentence("warnings"),
    "codes": sentence("findings"),
    "verdict": sentence("verdict"),
    "role": sentence("role"),
    "n": sentence("trials"),
    "wins": sentence("wins"),
    "rounds": sentence("rounds"),
    "dealt": sentence("dealt"),
    "points": sentence("points"),
    "stars": sentence("stars"),
    "star": sentence("star"),
    "won": sentence("won"),
    # findings
    "line": sentence("line"),
    "player": sentence("player"),
    "code": sentence("finding"),
    "rule": sentence("rule"),
    "severity": sentence("severity"),
    "message": sentence("what the audit says"),
    "finding_id": sentence("finding id"),
    "status": sentence("status"),
    # a seat at the replay
    "seat": sentence("seat"),
    "cards": sentence("cards"),
    "cards in hand": sentence("cards in hand"),
    "broken": sentence("broken tools"),
    "broken tools": sentence("broken tools"),
    "hand": sentence("hand"),
    "looked at": sentence("goals looked at"),
    "total": sentence("total"),
    "gold": sentence("gold"),
    # the record
    "fingerprint": sentence("card"),
    "live": sentence("opens its table"),
    "revoked_reason": sentence("why revoked"),
    "recorded": sentence("written down"),
    "corrected": sentence("corrected"),
    "replay_accepted": sentence("replay accepted"),
    "counted": sentence("counts"),
    "file": sentence("file"),
    "received": sentence("received"),
    "outcome": sentence("outcome"),
    "kind": sentence("kind"),
    "games": sentence("games"),
    "upload": sentence("upload"),
    "findings": sentence("findings"),
    "wrong table": sentence("wrong table"),
    "note": sentence("note"),
    # the standings
    "rank": sentence("rank"),
    "place": sentence("#"),
    "name": sentence("name"),
    "penalty": sentence("penalty"),
    "number": sentence("#"),
    "notes": sentence("notes"),
    "reason": sentence("reason"),
    "why": sentence("why here"),
    "open_findings": sentence("open findings"),
    "final_points": sentence("points"),
    "final_stars": sentence("stars"),
    "preliminary_points": sentence("prelim. points"),
    "preliminary_stars": sentence("prelim. stars"),
    # the statistics
    "ruleset": sentence("ruleset"),
    "position": sentence("turn order"),
    "rate": sentence("win rate"),
    "reached": sentence("gold reached"),
    "reached_rate": sentence("rate reached"),
    "win_rate": sentence("win rate"),
    "low": say("%(level)s%% low", level=95),
    "high": say("%(level)s%% high", level=95),
    "flagged": sentence("few trials"),
    "gold_slot": sentence("gold under"),
    "share": sentence("share"),
    "ending": sentence("how it ended"),
    "mean": sentence("mean"),
    "median": sentence("median"),
    "p90": sentence("90th percentile"),
    "min": sentence("fewest"),
    "max": sentence("most"),
    "action": sentence("action"),
    "target_role": sentence("target's role"),
    "on_self": sentence("on themselves"),
    "per_round": sentence("per round"),
    "points_per_round": sentence("points per round"),
    "round_points": sentence("round points"),
    "nuggets": sentence("gold (base)"),
    "nuggets_per_round": sentence("gold per round"),
    "expected_wins": sentence("expected wins"),
    "wins_over_expected": sentence("wins over expected"),
    "rockfalls": sentence("rockfalls"),
    "rockfalls_per_round": sentence("rockfalls per round"),
    "with_rockfall": sentence("rounds with a rockfall"),
    "maps": sentence("maps"),
    "maps_per_round": sentence("maps per round"),
    # a player's rounds per role, as ``stats players`` shows them (wins/rounds)
    "gold_digger": sentence("gold digger"),
    "saboteur": sentence("saboteur"),
    "selfish_dwarf": sentence("selfish dwarf"),
}
"""Each column's head, by the column's name in the frame."""

SHORT: Final = {
    "preliminary_points": sentence("prelim."),
    "preliminary_stars": sentence("prelim. ★"),
    "penalty": sentence("pen."),
    "open_findings": sentence("open"),
    "wins_over_expected": sentence("over exp."),
    "points_per_round": sentence("per round"),
    "nuggets_per_round": sentence("per round"),
    "gold_digger": sentence("digger"),
    "selfish_dwarf": sentence("dwarf"),
}
"""Shorter heads where a terminal's numbers leave a name its width (the standings, the
players' statistics); a column without one is called as :data:`COLUMNS` calls it."""

TITLES: Final = {
    "role_win_rates": sentence("role win rates"),
    "player_stats": sentence("player statistics"),
    "seat_advantage": sentence("seat advantage"),
    "gold_slots": sentence("where the gold lies"),
    "round_endings": sentence("how rounds end"),
    "turns_per_round": sentence("turns per round"),
    "action_cards_by_role": sentence("action cards by role"),
    "rockfalls_and_maps": sentence("rockfalls and maps"),
}
"""Each statistic's title, by its frame's name (``saboteur stats``)."""

_ROLES: Final = {
    "gold_digger": sentence("gold digger"),
    "saboteur": sentence("saboteur"),
    "selfish_dwarf": sentence("selfish dwarf"),
}
VALUES: Final[dict[str, dict[str, str]]] = {
    "role": _ROLES,
    "target_role": _ROLES,
    "ruleset": {"tournament": sentence("tournament rules"), "base": sentence("base game")},
    "stage": {"preliminary": sentence("preliminary"), "semifinal": sentence("semi-final"), "final": sentence("final")},
    "gold_slot": {"top": sentence("top"), "middle": sentence("middle"), "bottom": sentence("bottom")},
    "ending": {
        "gold:gold_digger": sentence("a gold digger reached the gold"),
        "gold:selfish_dwarf": sentence("a selfish dwarf reached the gold"),
        "gold:saboteur": sentence("a saboteur reached the gold"),
        "hands_empty": sentence("the cards ran out"),
        "early": sentence("stopped early"),
        "unknown": sentence("not known"),
    },
    "action": {
        "break": sentence("break a tool"),
        "repair": sentence("repair a tool"),
        "rockfall": sentence("rockfall"),
        "map": sentence("map"),
    },
    "flagged": {"True": sentence("yes"), "False": ""},
    "status": {
        "open": sentence("open"),
        "dismissed": sentence("dismissed"),
        "penalised": sentence("penalised"),
        "settled": sentence("settled"),
    },
}
"""The words for the codes a column holds, by the column's name."""


def _said(text: str | Said, lang: str) -> str:
    said = text if isinstance(text, Said) else Said(text)
    return words(said, lang)


def heading(column: str, lang: str = ENGLISH, *, short: bool = False) -> str:
    """``column``'s head in ``lang``: ``started_at`` → "started" (``gestart``)."""
    english: str | Said | None = (SHORT.get(column) if short else None) or COLUMNS.get(column)
    return _said(english, lang) if english is not None else column.replace("_", " ")


def title(frame: str, lang: str = ENGLISH) -> str:
    """A statistic's title in ``lang``: ``role_win_rates`` → "role win rates"."""
    english = TITLES.get(frame)
    return _said(english, lang) if english is not None else frame.replace("_", " ")


def cell(column: str, value: object, lang: str = ENGLISH) -> str | None:
    """The words for ``value`` in ``column`` if it is a code the column's table knows
    (``role`` ``gold_digger`` → "gold digger"), else ``None``: the value is shown as it is."""
    known = VALUES.get(column)
    if known is None:
        return None
    english = known.get(str(value))
    if english is None:
        return None
    return _said(english, lang) if english else ""
