"""The rules of ``rules.md``, one module per family, each check a small function named
for what it guards and citing its rule id (search "R-P5" to find code and tests).

:data:`RULES` names every rule the ledger enforces — the replay of a log, and the
tournament's records (:mod:`events.rules.tournament`) — for messages, reports and the
test that each has a legal and an illegal case.
"""

from __future__ import annotations

from typing import Final

RULES: Final[dict[str, str]] = {
    "R-S1": "roles dealt by ruleset and table size",
    "R-S2": "start card and three face-down goals",
    "R-S3": "the deck: 40 tunnel and 27 action cards",
    "R-S4": "hand sizes 6 / 5 / 4",
    "R-S5": "gold cards (base) or a score sheet (tournament)",
    "R-S6": "the starting player",
    "R-S7": "the tournament setup card at (4,0)",
    "R-T1": "clockwise, one card a turn, nobody out of turn",
    "R-T2": "draw the top card after playing, while the pile lasts",
    "R-T3": "passing discards one card face down",
    "R-T4": "cards come from one's own hand",
    "R-T5": "an empty hand passes without a line",
    "R-P1": "a tunnel card goes on an empty cell",
    "R-P2": "it touches a card already on the board",
    "R-P3": "as printed or turned 180°, never crosswise",
    "R-P4": "every touching side matches",
    "R-P5": "an uninterrupted path from the start enters it",
    "R-P6": "no tunnel cards with a broken tool",
    "R-A1": "a broken tool goes in front of another player, one of each kind",
    "R-A2": "a broken tool stops tunnel cards only",
    "R-A3": "a repair mends a broken tool of its kind",
    "R-A4": "a double repair mends one of its two kinds",
    "R-A5": "a rockfall removes a tunnel card, never start or goal",
    "R-A6": "a map looks at a face-down goal",
    "R-G1": "a reached goal is turned up at once, in slot order",
    "R-G2": "a revealed goal lies the way that matches",
    "R-G3": "a revealed stone stays and can be built on",
    "R-E1": "revealing the gold ends the round",
    "R-E2": "otherwise the round ends when every hand is empty",
    "R-W1": "tournament points and stars",
    "R-W2": "base gold: passing and the saboteurs' share",
    "R-W3": "a game's totals",
    "R-C1": "errors no card shows are a referee's note, for the organiser to weigh",
    "R-TS1": "preliminary rounds announced; tables of 5–10, as many of 6 as possible",
    "R-TS2": "ranked by points, then stars; a tie at the cut line drawn and the draw recorded",
    "R-TS3": "the best 6 (a cut of 5–10 announced) go to the final table",
    "R-TS4": "the final: one game of at most 4 rounds",
    "R-TS5": "penalties and corrections with their reasons; nothing erased",
}
