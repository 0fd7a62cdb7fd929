"""``tournament.json`` (``saboteur-tournament/1``): a tournament described in one file,
as ``saboteur simulate tournament`` writes it, and the events it becomes.

The file is parsed into these models (closed: an unknown field is refused), checked
against the tournament rules (:meth:`TournamentFile.problems`), and only then turned
into the events of the tournament's stream (:meth:`TournamentFile.events`), each built
field by field: nothing in the file can choose an event's ``type``.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Annotated, Any, Final, Literal

from pydantic import Field, StringConstraints, TypeAdapter

from events.findings import Breach, Code
from events.records import Record, published_schema
from events.records.tournament import (
    CutDraw,
    CutDrawn,
    PlayerRegistered,
    Seating,
    SeatingPublished,
    TournamentCreated,
    TournamentEvent,
)
from events.rules.tournament import (
    CUT_SIZES,
    FINAL_ROUNDS,
    PRELIMINARY_ROUNDS,
    check_cut,
    check_cut_draw,
    check_final_rounds,
    check_final_table,
    check_preliminary_rounds,
    check_seating,
    check_tournament_round,
)
from events.said import Said, say
from events.schema import GameId, PlayerId
from events.tables import Ruleset

NAME_MOST: Final = 200
"""The longest display name (a player's, the tournament's): it fits a standings row, a
card and a printed page."""
NOT_IN_A_NAME: Final = (
    r"\x00-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f\u2028\u2029"
    r"\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
)
"""What a display name may not hold (a character class's ranges): controls (a newline
split a standings row in two), the line and paragraph separators, the marks that
change the direction of the text after them (an override turned the rest of a
sentence on the Standings page backwards; the left-to-right, right-to-left and Arabic
letter marks), and the characters that show nothing (zero-width space, word joiner,
byte order mark, soft hyphen, the invisible operators U+2061–U+2064, the Hangul fillers
U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme joiner, the Khmer invisible
vowels, the Mongolian vowel separator, the deprecated format marks U+206A–U+206F and the
interlinear annotation marks: "Wout Ols\u200ben" or "Jan Visser\u2064" stood beside
"Wout Olsen" or "Jan Visser" as a second, identical-looking name, without the ids two
equal names are shown with, and U+3164 alone was a name that showed as blank). Marks
that join letters (the zero-width joiner and non-joiner, which names in some scripts
and emoji need) are left."""
Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_MOST, pattern=f"^[^{NOT_IN_A_NAME}]+$")]
"""A display name: one line of 1 to :data:`NAME_MOST` characters, none of
:data:`NOT_IN_A_NAME`."""


def one_line(text: str) -> bool:
    """Whether ``text`` holds none of :data:`NOT_IN_A_NAME`, as a command checks a name
    typed (its length aside)."""
    return re.fullmatch(f"[^{NOT_IN_A_NAME}]*", text) is not None


def shows_nothing(name: str) -> bool:
    """Whether a name is blank to the eye: spaces and joiners alone (a name of one
    zero-width joiner was registered and showed as an empty row).

    >>> shows_nothing(" \u200d ") and not shows_nothing("Lea 👩\u200d👧")
    True
    """
    return not name.strip().replace("\u200c", "").replace("\u200d", "").strip()


class Person(Record):
    """A registered player: the id the logs use and the name the standings show."""

    id: PlayerId
    name: Name


def _bounds(limits: tuple[int, int]) -> dict[str, Any]:
    """A JSON Schema's ``minimum`` and ``maximum`` of a number the rules bound."""
    return {"minimum": limits[0], "maximum": limits[1]}


class TournamentFile(Record):
    """``tournament.json``: the tournament, its players, the seatings and cut draws
    made so far, and the names of its game files."""

    format: Literal["saboteur-tournament/1"]
    id: GameId
    name: Name
    ruleset: Ruleset = "tournament"
    # the bounds are published in the schema; a file beyond them is refused by
    # problems(), with the rule's own sentence, rather than by the parser's
    preliminary_rounds: Annotated[int, Field(json_schema_extra=_bounds(PRELIMINARY_ROUNDS))]
    cut: Annotated[int, Field(json_schema_extra=_bounds(CUT_SIZES))]
    final_rounds: Annotated[int, Field(json_schema_extra=_bounds(FINAL_ROUNDS))]
    players: list[Person]
    seatings: list[Seating] = Field(default_factory=list)
    cut_draws: list[CutDraw] = Field(default_factory=list)
    games: list[str] = Field(default_factory=list)

    def problems(self) -> list[tuple[str, Said]]:
        """What breaks the tournament rules (R-TS1..R-TS5), by field, as the organiser's
        commands refuse it: the limits announced; each player registered once; each
        seating a round the tournament announced (a file announces no semi-final),
        seated once, at tables of 5–10 registered players under labels of their own (a
        player left out of a round is not refused: a file may record a player who
        stopped coming, which no record can withdraw); draws that fit their tie, one at
        the preliminaries' cut (the final has none). A seating's problem names its round
        and its tables by label."""
        found: list[tuple[str, Breach | None]] = [
            ("preliminary_rounds", check_preliminary_rounds(self.preliminary_rounds)),
            ("cut", check_cut(self.cut)),
            ("final_rounds", check_final_rounds(self.final_rounds)),
        ]
        if any(breach is not None for _, breach in found):
            return _said(found)
        if shows_nothing(self.name):  # as tournament create refuses it: a name of spaces shows nothing
            found.append(("name", Breach(Code.MALFORMED, "R-TS5", say("a tournament needs a name"))))
            return _said(found)
        for number, person in enumerate(self.players):
            if shows_nothing(person.name):  # as register and import-players refuse it
                said = say("player %(player)s needs a name", player=person.id)
                found.append((f"players.{number}.name", Breach(Code.MALFORMED, "R-TS5", said)))
                return _said(found)
        registered = [person.id for person in self.players]
        listed: dict[str, int] = {}
        for number, player in enumerate(registered):
            first = listed.setdefault(player, number)
            if first != number:  # the second name renamed the player, unsaid (import-players refuses it too)
                said = say("%(player)s is listed already, as player %(first)s", player=player, first=first + 1)
                found.append((f"players.{number}", Breach(Code.MALFORMED, "R-TS5", said)))
                return _said(found)
        seated: set[tuple[int, str]] = set()
        for number, seating in enumerate(self.seatings):
            found.append((f"seatings.{number}", self._seating_problem(seating, registered, seated)))
        drawn: set[str] = set()
        for number, draw in enumerate(self.cut_draws):
            found.append((f"cut_draws.{number}", _draw_problem(draw, drawn, listed)))
        return _said(found)

    def _seating_problem(self, seating: Seating, registered: list[str], seated: set[tuple[int, str]]) -> Breach | None:
        """One seating judged as ``seat`` judges it, after the seatings before it."""
        number, stage = seating.tournament_round, seating.stage
        announced = check_tournament_round(number, stage, self.preliminary_rounds, semifinal=False)
        if announced is not None:
            return announced
        if (number, stage) in seated:
            said = say("a second seating of round %(round)s: a file seats a round once", round=number)
            return Breach(Code.MALFORMED, "R-TS1", said)
        seated.add((number, stage))
        labels = [table.table for table in seating.tables]
        wrong = check_final_table(stage, len(labels))
        if wrong is None and len(set(labels)) != len(labels):
            twice = next(label for label in labels if labels.count(label) > 1)
            wrong = Breach(Code.MALFORMED, "R-TS1", say("table %(table)s is labelled twice", table=twice))
        elif wrong is None:
            tables = [table.players for table in seating.tables]
            wrong = check_seating(tables, registered, labels=labels)
        if wrong is None:
            return None
        said = say("round %(round)s: %(problem)s", round=number, problem=(wrong.said,))
        return Breach(wrong.code, wrong.rule, said)

    def events(self) -> list[TournamentEvent]:
        """The tournament's stream: created, players registered, seatings, cut draws."""
        events: list[TournamentEvent] = [
            TournamentCreated(
                type="tournament_created",
                tournament=self.id,
                name=self.name,
                ruleset=self.ruleset,
                preliminary_rounds=self.preliminary_rounds,
                cut=self.cut,
                final_rounds=self.final_rounds,
            )
        ]
        events += [PlayerRegistered(type="player_registered", player=p.id, name=p.name) for p in self.players]
        events += [
            SeatingPublished(
                type="seating_published", tournament_round=s.tournament_round, stage=s.stage, tables=s.tables
            )
            for s in self.seatings
        ]
        events += [CutDrawn.of(draw) for draw in self.cut_draws]
        return events


def _draw_problem(draw: CutDraw, drawn: set[str], registered: Collection[str]) -> Breach | None:
    """One cut draw judged as ``cut`` judges it, after the draws before it: of the
    preliminaries (a file announces no semi-final, and the final has no cut), once,
    among registered players (a draw among ids nobody registered was stored)."""
    strangers = [player for player in draw.tied if player not in registered]
    if strangers:
        said = say("%(given)s is tied at the cut but not a registered player", given=repr(strangers[0]))
        return Breach(Code.MALFORMED, "R-TS2", said)
    if draw.stage != "preliminary":
        rule = "R-TS4" if draw.stage == "final" else "R-TS3"
        return Breach(Code.MALFORMED, rule, say("a draw at the cut of the %(stage)s, which has none", stage=draw.stage))
    if draw.stage in drawn:
        return Breach(Code.MALFORMED, "R-TS2", say("a second draw at the cut: a tie at the cut line is drawn once"))
    drawn.add(draw.stage)
    return check_cut_draw(draw.tied, draw.places, draw.drawn)


def _said(found: list[tuple[str, Breach | None]]) -> list[tuple[str, Said]]:
    """Each field's problem with its rule, as a sentence (said in the reader's language)."""
    return [(field, ruled(breach)) for field, breach in found if breach is not None]


def ruled(breach: Breach) -> Said:
    """``table 1 seats 4 players: a table seats 5 to 10 (R-TS1)``."""
    return say("%(problem)s (%(rule)s)", problem=(breach.said,), rule=breach.rule)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a whole ``tournament.json`` (``saboteur schema --stream
    tournament-file``)."""
    title = "Saboteur tournament file (saboteur-tournament/1)"
    description = (
        "A tournament described in one file: the tournament, its players, the seatings and cut "
        "draws made so far, and the names of its game files. The tournament rules R-TS1..R-TS4 "
        "(rounds announced, tables of 5-10 registered players, one seating a round, one draw at "
        "the cut) are checked when it is read."
    )
    schema = published_schema(TypeAdapter(TournamentFile), "saboteur-tournament-file-1.schema.json", title, description)
    return schema | {"title": title, "description": description}  # the file's, not its model's docstring
