"""Findings: what the replay reports when a log departs from the rules.

The codes are part of the public log format (event-log.md, "Violations"); each knows
the rule it stands for and its severity, so a check only says *where* and *why*.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Final, Literal

from events.said import Said, say

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
    TABLE_INCIDENT = ("table_incident", "R-C1")
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
    said: Said | None = None
    """The message as a sentence and its values, for another language; ``None`` for a
    finding made before messages carried their values (read back from an older store)."""

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
        return _reported(self.code.value, self)

    def describe(self) -> str:
        """``line 41 · round 1 · bob · missed_draw (R-T2): …``, for people."""
        parts = [f"line {self.line}"]
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.player is not None:
            parts.append(self.player)
        parts.append(f"{self.code.value} ({self.rule}): {self.message}")
        return " · ".join(parts)


MAX_LISTED: Final = 1_000
"""Findings of one code a log's report lists; the rest are counted (:class:`Tally`)."""


@dataclass(frozen=True, slots=True)
class Unlisted:
    """The findings a report counts but does not list: how many of each code, from
    which line on. It reads as one more finding, ``more_findings``, at that line, and
    has the attributes a row or a report takes from a :class:`Finding`."""

    line: int
    counts: dict[Code, int]
    round: int | None = None
    """The round of the first finding not listed, as a finding at that line names it."""

    code: ClassVar[str] = "more_findings"
    rule: ClassVar[str] = "event-log.md"
    player: ClassVar[str | None] = None

    @property
    def severity(self) -> Severity:
        """Always an error (event-log.md, "Violations"): findings went unlisted."""
        return "error"

    @property
    def said(self) -> Said:
        total = sum(self.counts.values())
        kinds = tuple(say("%(code)s %(count)s", code=code.value, count=count) for code, count in self.counts.items())
        return say(
            "…and %(count)s more finding not listed (%(kinds)s): a report lists the first %(most)s of each kind; "
            "every line was audited",
            "…and %(count)s more findings not listed (%(kinds)s): a report lists the first %(most)s of each kind; "
            "every line was audited",
            "count",
            count=total,
            kinds=kinds,
            most=MAX_LISTED,
        )

    @property
    def message(self) -> str:
        return self.said.english()

    def as_report(self) -> dict[str, object]:
        """As :meth:`Finding.as_report` writes a finding."""
        return _reported(self.code, self)

    def describe(self) -> str:
        where = f"line {self.line}" + (f" · round {self.round}" if self.round is not None else "")
        return f"{where} · {self.code} ({self.rule}): {self.message}"


@dataclass(slots=True)
class Tally:
    """Every finding of one log counted, the first :data:`MAX_LISTED` of each code kept.

    A 16 MiB log may hold sixteen million bad lines, a finding each: kept whole, their
    list would take gigabytes, and a report, a store or a page of them would tell a
    referee no more than the first thousand of each kind and a count. So the replay
    keeps those and counts the rest (:attr:`unlisted`); the counts of errors and
    warnings stay exact, and a flood of one kind never hides a finding of another.
    """

    listed: list[Finding] = field(default_factory=list)
    errors: Counter[int | None] = field(default_factory=Counter)
    """Errors by round (``None``: outside any round)."""
    warnings: int = 0
    _per_code: Counter[Code] = field(default_factory=Counter)
    _first_unlisted: int | None = None
    _first_unlisted_round: int | None = None

    def append(self, finding: Finding) -> None:
        """Count a finding; keep it unless its code has :data:`MAX_LISTED` kept."""
        if finding.severity == "error":
            self.errors[finding.round] += 1
        else:
            self.warnings += 1
        self._per_code[finding.code] += 1
        if self._per_code[finding.code] <= MAX_LISTED:
            self.listed.append(finding)
        elif self._first_unlisted is None or finding.line < self._first_unlisted:
            self._first_unlisted = finding.line
            self._first_unlisted_round = finding.round

    @property
    def counts(self) -> dict[str, int]:
        """Every finding counted, by code, listed or not."""
        return {str(code.value): n for code, n in sorted(self._per_code.items(), key=lambda item: item[0].value)}

    @property
    def unlisted(self) -> Unlisted | None:
        """The findings counted but not kept, if any."""
        if self._first_unlisted is None:
            return None
        counts = {code: n - MAX_LISTED for code, n in self._per_code.items() if n > MAX_LISTED}
        return Unlisted(self._first_unlisted, counts, self._first_unlisted_round)


class ReplayError(Exception):
    """Raised by a strict replay at the first finding of severity ``error``."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.describe())
        self.finding = finding


@dataclass(frozen=True, slots=True)
class Breach:
    """What a rule check returns: the code, the precise rule and what it says
    (:class:`~events.said.Said`: a sentence and its values, put into words where shown).

    Checks are pure and know nothing of lines; the replay turns a breach into a
    :class:`Finding` at the line it is judging. ``player`` names someone other than
    the event's own player when the breach is theirs (a missed draw, a wrong hand).
    """

    code: Code
    rule: str
    said: Said
    player: str | None = None

    @property
    def message(self) -> str:
        """The breach in English."""
        return self.said.english()


def _reported(code: str, finding: Finding | Unlisted) -> dict[str, object]:
    """A finding's fields in the audit report's order (event-log.md, "Audit report")."""
    return {
        "code": code,
        "line": finding.line,
        "round": finding.round,
        "player": finding.player,
        "rule": finding.rule,
        "severity": finding.severity,
        "message": finding.message,
        "values": values_of(finding.said) if finding.said is not None else {},
    }


def values_of(said: Said) -> dict[str, object]:
    """A finding's values as JSON holds them: cells and lists as arrays, a sentence
    within the sentence as its own ``sentence`` and ``values``."""
    found: dict[str, object] = {}
    for name, value in said.values:
        if isinstance(value, tuple) and value and isinstance(value[0], Said):
            found[name] = [
                {"sentence": part.text, "values": values_of(part)} for part in value if isinstance(part, Said)
            ]
        elif isinstance(value, tuple):
            found[name] = list(value)
        else:
            found[name] = value
    return found
