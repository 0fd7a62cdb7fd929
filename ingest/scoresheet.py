"""Score sheets: the paper record of tables without a log, as CSV.

One row per player per round, with the columns
``tournament,tournament_round,table,game_id,round,player,role,points,star``
(``star`` is 1/0, true/false, yes/no or empty). A sheet may hold several games. It is
audited for consistency: the roles of each round fit the tournament table (R-S1,
``bad_roles``) and the points and stars are one of the outcomes R-W1 allows
(``wrong_score``). A sheet that cannot be read (wrong columns, a bad value, a round
listed twice for a player, an id the log format would refuse, text the ``csv`` module
cannot read) is rejected whole with its ``malformed`` finding, naming the line. It is
read as spreadsheets save CSV (:mod:`ingest.spreadsheet`): semicolons or commas, UTF-8
or UTF-16, its header in any case, empty columns after it left out.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from pydantic import TypeAdapter, ValidationError

from events.findings import Code, Finding
from events.logfile import UnreadableLog
from events.records.sheet import RoundRecorded, ScoreSheetGame, SheetEvent, SheetResult
from events.rules.scoring import tournament_outcome
from events.rules.setup import role_phrase
from events.said import Said, say
from events.schema import GameId, PlayerId, TableLabel
from events.tables import PLAYER_RANGE, ROLES, TOURNAMENT_ROLES, Role, Stage
from ingest.spreadsheet import NotUtf8, separator, spreadsheet_text

COLUMNS: Final = ("tournament", "tournament_round", "table", "game_id", "round", "player", "role", "points", "star")
OPTIONAL_COLUMNS: Final = ("stage",)
"""Columns a sheet may add: ``stage`` (``preliminary``, ``semifinal`` or ``final``, as a
log's header says it; empty or left out: preliminary), so a final table played on paper
counts in the final."""
STARS: Final = {
    "1": True,
    "true": True,
    "yes": True,
    "y": True,
    "0": False,
    "false": False,
    "no": False,
    "n": False,
    "": False,
}
_GAME_ID: Final[TypeAdapter[str]] = TypeAdapter(GameId)  # a log header's `game_id` and `tournament`
_TABLE: Final[TypeAdapter[str]] = TypeAdapter(TableLabel)
_PLAYER: Final[TypeAdapter[str]] = TypeAdapter(PlayerId)
_ROLE: Final[TypeAdapter[Role]] = TypeAdapter(Role)
_STAGE: Final[TypeAdapter[Stage]] = TypeAdapter(Stage)


@dataclass(frozen=True, slots=True)
class Entry:
    """One row: one player's result in one round."""

    line: int
    tournament: str | None
    tournament_round: int | None
    table: str | None
    game_id: str
    round: int
    player: str
    role: Role
    points: int
    star: bool
    stage: Stage | None = None


def _quoted(text: str) -> str:
    """A value as a message quotes it: cut short, so a 100 KiB cell makes no 100 KiB message."""
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _int(text: str, column: str, line: int, low: int, high: int) -> int:
    """A whole number written in the digits 0-9 alone: Python's ``int`` also reads
    ``+2``, ``0_3`` and full-width ``３``, which no score sheet means. A negative one
    (``-3``) is said to be out of the column's range, which it is."""
    digits = text.strip()
    negative = digits.startswith("-") and digits[1:].isascii() and digits[1:].isdigit()
    if negative and low >= 0:  # a whole number all the same: said out of range below, not "not a number"
        digits, sign = digits[1:], -1
    else:
        sign = 1
    if not (digits.isascii() and digits.isdigit()):
        said = say(
            "line %(line)s: `%(column)s` must be a whole number, not %(given)s",
            line=line,
            column=column,
            given=_quoted(text),
        )
        raise UnreadableLog(said, line)
    # more digits than any column's range holds: out of it, said so (a number of thousands
    # of digits is more than Python reads, and the file's audit "failed unexpectedly")
    long = len(digits.lstrip("0")) > 9
    value = 0 if long else sign * int(digits)
    if long or not low <= value <= high:
        said = say(
            "line %(line)s: `%(column)s` must be %(low)s–%(high)s, not %(given)s",
            line=line,
            column=column,
            low=low,
            high=high,
            given=_quoted(text.strip()) if long else str(value),
        )
        raise UnreadableLog(said, line)
    return value


def _stage(text: str, line: int) -> Stage | None:
    if not text:
        return None
    try:
        return _STAGE.validate_python(text)
    except ValidationError:
        said = say(
            "line %(line)s: `stage` must be preliminary, semifinal or final, not %(given)s",
            line=line,
            given=_quoted(text),
        )
        raise UnreadableLog(said, line) from None


def _label(text: str, column: str, adapter: TypeAdapter[str], line: int) -> str | None:
    """An optional ``tournament`` or ``table``, held to the log header's own type for it
    (event-log.md), so a sheet can say nothing a log could not."""
    return _id(text, column, adapter, line) if text else None


def _id(text: str, column: str, adapter: TypeAdapter[str], line: int) -> str:
    """An id or label held to the log's own type for it, or a message naming the
    column, the value and what is wrong with it."""
    try:
        return adapter.validate_python(text)
    except ValidationError as exc:
        problem = str(exc.errors(include_url=False)[0]["msg"])  # pydantic's own (English) words
        said = say(
            "line %(line)s: `%(column)s`: %(problem)s, not %(given)s",
            line=line,
            column=column,
            problem=problem,
            given=_quoted(text),
        )
        raise UnreadableLog(said, line) from None


def _records(text: str) -> Iterator[tuple[int, list[str]]]:
    """The sheet's records, each with the line it starts on, its fields split at commas
    or, as Excel saves CSV in many countries, semicolons (:func:`ingest.spreadsheet.separator`).
    A record the ``csv`` module cannot read (a field over its 128 KiB limit, a quote
    never closed) ends the sheet as :class:`UnreadableLog` naming the line: read
    leniently, a quote never closed took the rest of the file into one field, and the
    sheet was said to have a row of too few values."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator(text), strict=True)
    start = 1
    while True:
        try:
            values = next(reader, None)
        except csv.Error as exc:
            if str(exc) == "unexpected end of data":  # the file ended inside a quoted field
                said = say(
                    'line %(line)s: a quote (") opened in this row is never closed: the file ends inside it',
                    line=start,
                )
                raise UnreadableLog(said, start) from None
            line = max(reader.line_num, start)
            said = say("line %(line)s: not readable as CSV (%(problem)s)", line=line, problem=str(exc))
            raise UnreadableLog(said, line) from None
        if values is None:
            return
        yield start, values
        start = reader.line_num + 1


MOST_NAMED: Final = 5
"""Columns a refused header names of each kind, at most (a header of a million columns
made a message, and a stored report, of 31 MB)."""


def _header(header: list[str]) -> tuple[list[str], int]:
    """The sheet's column names (as spreadsheets write them: in any case, with spaces
    around) and how many empty columns end it (a spreadsheet's export keeps columns
    that once held something); :class:`UnreadableLog` naming what is missing, unknown
    or twice."""
    names = [h.strip().lower() for h in header]
    trailing = 0
    while names and not names[-1]:
        names.pop()
        trailing += 1
    missing = [c for c in COLUMNS if c not in names]
    unknown = [n for n in dict.fromkeys(names) if n not in COLUMNS and n not in OPTIONAL_COLUMNS]
    doubled = [n for n, times in Counter(names).items() if n and times > 1]
    problems: list[Said] = []
    if missing:
        problems.append(
            say("no column %(columns)s", "no columns %(columns)s", "count", count=len(missing), columns=tuple(missing))
        )
    if unknown:
        listed = tuple(_quoted(n) for n in unknown[:MOST_NAMED]) + (("…",) if len(unknown) > MOST_NAMED else ())
        problems.append(
            say("a column %(names)s of no meaning here", "columns %(names)s of no meaning here", "count",
                count=len(unknown), names=listed)
        )  # fmt: skip
    if doubled:
        problems.append(
            say("column %(columns)s twice", "columns %(columns)s twice", "count", count=len(doubled),
                columns=tuple(doubled[:MOST_NAMED]))
        )  # fmt: skip
    if problems:
        said = say(
            "line 1: the header has %(problems)s; a score sheet's columns are %(columns)s (and may add %(optional)s)",
            problems=tuple(problems),
            columns=",".join(COLUMNS),
            optional=",".join(OPTIONAL_COLUMNS),
        )
        raise UnreadableLog(said)
    return names, trailing


def read_sheet(data: bytes) -> list[Entry]:
    """The rows of a score sheet; :class:`UnreadableLog` naming the line and column of
    the first thing that cannot be read."""
    try:
        text = spreadsheet_text(data)
    except NotUtf8 as exc:
        raise UnreadableLog(exc.said, exc.line) from None
    records = _records(text)
    _, header = next(records, (1, None))
    if header is None:
        raise UnreadableLog(say("empty file: a score sheet starts with its header line"))
    names, trailing = _header(header)
    entries = []
    seen: set[tuple[str, int, str]] = set()
    for index, values in records:
        if not any(v.strip() for v in values):
            continue
        if len(names) < len(values) <= len(names) + trailing and not any(v.strip() for v in values[len(names) :]):
            values = values[: len(names)]  # the export's empty columns after the sheet's
        if len(values) != len(names):
            said = say(
                "line %(line)s: %(count)s values for %(columns)s columns",
                line=index,
                count=len(values),
                columns=len(names),
            )
            raise UnreadableLog(said, index)
        row = dict(zip(names, (v.strip() for v in values), strict=True))
        game_id = _id(row["game_id"], "game_id", _GAME_ID, index)
        player = _id(row["player"], "player", _PLAYER, index)
        try:
            role = _ROLE.validate_python(row["role"])
        except ValidationError:
            said = say(
                "line %(line)s: `role` must be one of %(roles)s, not %(given)s",
                line=index,
                roles=", ".join(ROLES),
                given=_quoted(row["role"]),
            )
            raise UnreadableLog(said, index) from None
        if row["star"].lower() not in STARS:
            said = say(
                "line %(line)s: `star` must be 1/0, true/false or yes/no, not %(given)s",
                line=index,
                given=_quoted(row["star"]),
            )
            raise UnreadableLog(said, index)
        entry = Entry(
            line=index,
            tournament=_label(row["tournament"], "tournament", _GAME_ID, index),
            tournament_round=_int(row["tournament_round"], "tournament_round", index, 1, 1000)
            if row["tournament_round"]
            else None,
            table=_label(row["table"], "table", _TABLE, index),
            game_id=game_id,
            round=_int(row["round"], "round", index, 1, 4),
            player=player,
            role=role,
            points=_int(row["points"], "points", index, 0, 100),
            star=STARS[row["star"].lower()],
            stage=_stage(row.get("stage", ""), index),
        )
        key = (entry.game_id, entry.round, entry.player)
        if key in seen:
            said = say(
                "line %(line)s: %(player)s is listed twice in round %(round)s of %(game)s",
                line=index,
                player=player,
                round=entry.round,
                game=game_id,
            )
            raise UnreadableLog(said, index)
        seen.add(key)
        entries.append(entry)
    if not entries:
        raise UnreadableLog(say("the score sheet has a header but no rows"))
    for game_id, rows in games_of(entries).items():
        check_game_rows(game_id, rows)
    return entries


def games_of(entries: list[Entry]) -> dict[str, list[Entry]]:
    """The rows by game, in the order the sheet lists them."""
    games: dict[str, list[Entry]] = {}
    for entry in entries:
        games.setdefault(entry.game_id, []).append(entry)
    return games


MOST_IDS: Final = 2 * max(most for _, most in PLAYER_RANGE.values())
"""Player ids a game of a sheet may list, at most: a table of ten each of whose ids is
written two ways somewhere (:func:`_misspelt` says which), and no more. The checks of
a game compare its players two by two, and a round's points with an outcome for each
possible connector: a hostile sheet of 190 KB, one game of 6,000 ids, took 33 s, and
one at the sheet's limit would have taken hours. Past this the sheet is refused, as a
log whose ``game_started`` seats more than a table is."""


def check_game_rows(game_id: str, entries: list[Entry]) -> None:
    """A game's ``tournament``, ``tournament_round``, ``table`` and ``stage`` are one game's: every
    row of it says the same, or the sheet is unreadable at the first row that does not
    (its header is made from its first row, and the rest would go unsaid). And every
    round lists every player of the game, as a log's ``round_ended`` does: a round a
    row short was judged as a smaller table, whose roles then did not fit. Its rounds
    are 1, 2, … with none left out, as a log's are (a sheet of rounds 1 and 3 was stored
    as a game of two rounds)."""
    first = entries[0]
    for entry in entries[1:]:
        for column in ("tournament", "tournament_round", "table", "stage"):
            was, now = getattr(first, column), getattr(entry, column)
            if column == "stage" and (now or "preliminary") == (was or "preliminary"):
                continue  # an empty stage is the preliminaries (a column filled once, or on every row)
            if now != was:
                said = say(
                    "line %(line)s: `%(column)s` of %(game)s is %(given)s here but %(first)s on line %(first_line)s",
                    line=entry.line,
                    column=column,
                    game=game_id,
                    given=_quoted("" if now is None else str(now)),
                    first=_quoted("" if was is None else str(was)),
                    first_line=first.line,
                )
                raise UnreadableLog(said, entry.line)
    players = list(dict.fromkeys(e.player for e in entries))
    if len(players) > MOST_IDS:
        line = next(e.line for e in entries if e.player == players[MOST_IDS])
        said = say(
            "line %(line)s: %(game)s lists %(count)s player ids, where a game lists %(ids)s at most (a table of "
            "%(most)s, each id written two ways)",
            line=line,
            game=game_id,
            count=len(players),
            ids=MOST_IDS,
            most=MOST_IDS // 2,
        )
        raise UnreadableLog(said, line)
    rounds: dict[int, list[Entry]] = {}
    for entry in entries:
        rounds.setdefault(entry.round, []).append(entry)
    for expected, (number, rows) in enumerate(sorted(rounds.items()), start=1):
        if number != expected:  # a game's rounds are 1, 2, … as a log's are: a round left out is a gap
            said = say(
                "line %(line)s: round %(round)s of %(game)s comes without round %(missing)s: "
                "a game's rounds are numbered 1, 2, … with none left out",
                line=rows[0].line,
                round=number,
                game=game_id,
                missing=expected,
            )
            raise UnreadableLog(said, rows[0].line)
    _misspelt(game_id, entries, sorted(rounds))
    for number, rows in sorted(rounds.items()):
        listed = {e.player for e in rows}
        missing = [p for p in players if p not in listed]
        if missing:
            said = say(
                "line %(line)s: round %(round)s of %(game)s has no row for %(players)s, who played its other rounds",
                line=rows[0].line,
                round=number,
                game=game_id,
                players=", ".join(missing),
            )
            raise UnreadableLog(said, rows[0].line)


def _misspelt(game_id: str, entries: list[Entry], numbers: list[int]) -> None:
    """Two players each listed in some of a game's rounds, and never in the same one,
    are one player's id written two ways (``hanna`` in round 2, ``hana`` in the
    others): the sheet is refused at the first row of the one listed less (of two
    listed as often, the later), not at the first row of a round that lacks the other
    with the claim that they "played its other rounds"."""
    rounds: dict[str, list[Entry]] = {}
    for entry in entries:
        rounds.setdefault(entry.player, []).append(entry)
    partial = [rows for rows in rounds.values() if len(rows) < len(numbers)]
    pairs = [
        (rows, other)
        for rows in partial
        for other in partial
        if other is not rows
        and len(rows) <= len(other)
        and not {e.round for e in rows} & {e.round for e in other}
        and (len(rows) < len(other) or rows[0].line > other[0].line)
    ]
    if not pairs:
        return
    rows, other = min(pairs, key=lambda pair: (len(pair[0]), -pair[0][0].line))
    said = say(
        "line %(line)s: %(player)s is listed in round %(rounds)s of %(game)s and in no other, and %(lookalike)s "
        "is not listed in it: is the player id mistyped here?",
        "line %(line)s: %(player)s is listed in rounds %(rounds)s of %(game)s and in no other, and %(lookalike)s "
        "is not listed in them: is the player id mistyped here?",
        "count",
        count=len(rows),
        line=rows[0].line,
        player=rows[0].player,
        rounds=tuple(str(e.round) for e in rows),
        game=game_id,
        lookalike=other[0].player,
    )
    raise UnreadableLog(said, rows[0].line)


def game_events(game_id: str, entries: list[Entry]) -> list[tuple[int, SheetEvent]]:
    """The store events of one game on a sheet, each with its sheet line: its header,
    then one record per round."""
    first = entries[0]
    players = list(dict.fromkeys(e.player for e in entries))
    header = ScoreSheetGame(
        type="score_sheet_game",
        game_id=game_id,
        tournament=first.tournament,
        tournament_round=first.tournament_round,
        table=first.table,
        **({"stage": first.stage} if first.stage is not None else {}),
        ruleset="tournament",
        players=players,
    )
    events: list[tuple[int, SheetEvent]] = [(first.line, header)]
    rounds: dict[int, list[Entry]] = {}
    for entry in entries:
        rounds.setdefault(entry.round, []).append(entry)
    for number in sorted(rounds):
        results = [
            SheetResult(player=e.player, role=e.role, points=e.points, star=e.star, line=e.line) for e in rounds[number]
        ]
        record = RoundRecorded(
            type="round_recorded", source="score_sheet", game_id=game_id, round=number, results=results
        )
        events.append((record.line, record))
    return events


def allowed_outcomes(
    players: list[str], roles: dict[str, Role | None]
) -> list[tuple[str, str | None, dict[str, int], frozenset[str]]]:
    """Every outcome R-W1 allows for a round of these roles: winner, connector, points,
    stars (a connector for each player, and the gold not reached)."""
    outcomes = []
    for connector in [None, *players]:
        outcome = tournament_outcome(1, players, roles, connector)
        points = {p: s or 0 for p, s in outcome.scores.items()}
        outcomes.append((outcome.winner, connector, points, frozenset(outcome.stars)))
    return outcomes


def audit_record(record: RoundRecorded) -> tuple[list[Finding], dict[str, Any] | None]:
    """Findings of one round on a sheet (R-S1, R-W1), and the outcome it matches: its
    winner, its connector (``None`` where the sheet does not say who) and the
    connector's role (known where every outcome that fits has the same)."""
    results = record.results
    players = [r.player for r in results]
    roles: dict[str, Role | None] = {r.player: r.role for r in results}
    line = record.line
    number = record.round
    findings = []
    n = len(players)
    dealt = Counter(roles.values())
    expected = TOURNAMENT_ROLES.get(n)
    if expected is None:
        said = say(
            "a tournament table seats 5 to 10 players; this round lists %(count)s player",
            "a tournament table seats 5 to 10 players; this round lists %(count)s players",
            "count",
            count=n,
        )
        findings.append(Finding(Code.BAD_ROLES, line, said.english(), number, said=said))
    elif (dealt["saboteur"], dealt["gold_digger"], dealt["selfish_dwarf"]) != expected:
        said = say(
            "%(players)s players are dealt %(expected)s; the sheet lists %(found)s",
            players=n,
            expected=role_phrase(*expected),
            found=role_phrase(dealt["saboteur"], dealt["gold_digger"], dealt["selfish_dwarf"]),
        )
        findings.append(Finding(Code.BAD_ROLES, line, said.english(), number, said=said))
    points = {r.player: r.points for r in results}
    stars = frozenset(r.player for r in results if r.star)
    matches = [o for o in allowed_outcomes(players, roles) if o[2] == points and o[3] == stars]
    if not matches:
        said = say(
            "round %(round)s: these points and stars are none of the outcomes R-W1 allows for these roles",
            round=number,
        )
        findings.append(Finding(Code.WRONG_SCORE, line, said.english(), number, rule="R-W1", said=said))
        return findings, None
    winner, connector, _, _ = matches[0]
    if len({(m[0], m[1]) for m in matches}) > 1:
        connector = None  # e.g. any saboteur could have connected: the sheet does not say who
    # but the role of whoever did, where every outcome that fits has one (the round endings)
    connected = {roles.get(m[1]) if m[1] is not None else None for m in matches}
    connector_role = connected.pop() if len(connected) == 1 else None
    return findings, {"winner": winner, "connector": connector, "connector_role": connector_role}
