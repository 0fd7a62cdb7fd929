"""Findings: what the replay reports when a log departs from the rules.

The codes are part of the public log format (event-log.md, "Violations"); each knows
the rule it stands for and its severity, so a check only says *where* and *why*.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Severity = Literal["error", "warning"]


class Code(StrEnum):
    """Every violation code of event-log.md with its rule and severity."""

    rule: str
    severity: Severity

    def __new__(cls, value: str, rule: str, severity: Severity = "error") -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.rule = rule
        member.severity = severity
        return member

    MALFORMED = ("malformed", "event-log.md")
    BAD_DECK = ("bad_deck", "R-S3")
    BAD_ROLES = ("bad_roles", "R-S1")
    BAD_HAND_SIZE = ("bad_hand_size", "R-S4")
    BAD_SETUP_CARD = ("bad_setup_card", "R-S7")
    WRONG_START_PLAYER = ("wrong_start_player", "R-S6")
    OUT_OF_TURN = ("out_of_turn", "R-T1")
    EXTRA_PLAY = ("extra_play", "R-T1")
    MISSED_DRAW = ("missed_draw", "R-T2")
    WRONG_DRAW = ("wrong_draw", "R-T2")
    CARD_NOT_IN_HAND = ("card_not_in_hand", "R-T4")
    PATH_WITH_BROKEN_TOOL = ("path_with_broken_tool", "R-A2")
    ILLEGAL_PLACEMENT = ("illegal_placement", "R-P4")
    IMPOSSIBLE_ACTION = ("impossible_action", "R-A1")
    MISSING_REVEAL = ("missing_reveal", "R-G1")
    FALSE_REVEAL = ("false_reveal", "R-G1")
    PLAY_AFTER_ROUND_END = ("play_after_round_end", "R-E1")
    WRONG_SCORE = ("wrong_score", "R-W1")
    INCOMPLETE = ("incomplete", "event-log.md", "warning")


def _printable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True, slots=True)
class Finding:
    """One violation at one line of one log.

    ``rule`` is the precise rule broken (``R-P5``, ``R-A3``…), which may be narrower than
    the code's default rule: ``illegal_placement`` covers R-P1 to R-P5 and R-G2.
    """

    code: Code
    line: int
    message: str
    round: int | None = None
    player: str | None = None
    rule: str = ""
    field: str | None = None

    def __post_init__(self) -> None:
        if not self.rule:
            object.__setattr__(self, "rule", self.code.rule)
        # Messages quote the log; a lone surrogate there must not break a report.
        object.__setattr__(self, "message", _printable(self.message))
        if self.field is not None:
            object.__setattr__(self, "field", _printable(self.field))

    @property
    def severity(self) -> Severity:
        return self.code.severity

    def as_report(self) -> dict[str, object]:
        """The finding as the audit report writes it (event-log.md, "Audit report")."""
        return {
            "code": self.code.value,
            "line": self.line,
            "round": self.round,
            "player": self.player,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
        }

    def describe(self) -> str:
        """``line 41 · round 1 · bob · missed_draw (R-T2): …``, for people."""
        parts = [f"line {self.line}"]
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.player is not None:
            parts.append(self.player)
        parts.append(f"{self.code.value} ({self.rule}): {self.message}")
        return " · ".join(parts)


class ReplayError(Exception):
    """Raised by a strict replay at the first finding of severity ``error``."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.describe())
        self.finding = finding


@dataclass(frozen=True, slots=True)
class Breach:
    """What a rule check returns: the code, the precise rule and the message.

    Checks are pure and know nothing of lines; the replay turns a breach into a
    :class:`Finding` at the line it is judging. ``player`` names someone other than
    the event's own player when the breach is theirs (a missed draw, a wrong hand).
    """

    code: Code
    rule: str
    message: str
    player: str | None = None
