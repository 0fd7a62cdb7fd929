"""The organiser's guard rails (issue 13, item 2), through ``saboteur`` against real
DuckDB stores: each refusal says what to do instead, and records nothing.

The tournament is the one the issue tried by hand: 13 players with accented names, 2
preliminary rounds announced, a cut of 6. Its games are score sheets on which nobody
scores (a round nobody wins), so all 13 tie on 0 points and the cut line needs a draw.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

import duckdb
import pytest
from typer.testing import CliRunner, Result

from analytics import browse
from analytics.records import RecordError, seating_players
from analytics.standings import standings
from cli.main import app
from events.rules.tournament import ROUND_POINTS, check_round_points, check_tournament_round, stage_rounds
from events.said import joined
from ingest.pipeline import ingest
from ingest.schema import SCHEMA_VERSION
from ingest.store import Store

TID: Final = "day"
PLAYERS: Final = {
    f"p{i:02}": name
    for i, name in enumerate(
        (
            "Åsa Berg",
            "Bjørn Øvre",
            "Céline Dupré",
            "Dörte Müller",
            "Émile Zola",
            "Fenna de Vries",
            "Göran Ek",
            "Hugo Brûlé",
            "Inès Faure",
            "Jürgen Groß",
            "Karel Čapek",
            "Lærke Holm",
            "Miłosz Nowak",
        ),
        start=1,
    )
}
HEADER: Final = "tournament,tournament_round,table,game_id,round,player,role,points,star"


class Day:
    """A store holding the tournament, and ``saboteur`` run against it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.db = root / "day.duckdb"
        self.store = Store(self.db)

    def cli(self, *args: str) -> Result:
        result = CliRunner().invoke(app, [*args, "--db", str(self.db)])
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    def ok(self, *args: str) -> Result:
        result = self.cli(*args)
        assert result.exit_code == 0, result.output
        return result

    def refused(self, *args: str, says: str) -> None:
        """``saboteur *args`` ends with exit 1 saying ``says``, and records nothing."""
        before = self.events()
        result = self.cli(*args)
        assert result.exit_code == 1, result.output
        assert says in " ".join(result.output.split()), result.output
        assert self.events() == before

    def events(self) -> list[tuple[str, str]]:
        with self.store.connect(read_only=True) as con:
            rows = con.execute(
                "SELECT type, payload FROM events WHERE stream = ? ORDER BY position", [f"tournament:{TID}"]
            )
            return [(str(t), str(p)) for t, p in rows.fetchall()]

    def seating(self, number: int, stage: str = "preliminary") -> list[list[str]]:
        with self.store.connect(read_only=True) as con:
            rows = con.execute(
                "SELECT table_label, player FROM seatings WHERE tournament = ? AND tournament_round = ? AND stage = ? "
                "ORDER BY try_cast(table_label AS INTEGER), seat",
                [TID, number, stage],
            ).fetchall()
        tables: dict[str, list[str]] = {}
        for table, player in rows:
            tables.setdefault(str(table), []).append(str(player))
        return list(tables.values())

    def play(self, number: int, *, tables: list[int] | None = None) -> None:
        """Ingest a score sheet for each (or each listed) table of round ``number`` as
        seated: one round that nobody wins."""
        for index, seated in enumerate(self.seating(number), start=1):
            if tables is not None and index not in tables:
                continue
            lines = [HEADER] + [
                f"{TID},{number},{index},{TID}:r{number}:t{index},1,{p},gold_digger,0,0" for p in seated
            ]
            path = self.root / f"r{number}-t{index}.csv"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            assert ingest([path], self.store, workers=1)[0].outcome.startswith("accepted")


def seat(*arguments: str) -> tuple[str, ...]:
    """``tournament seat`` of the tournament with ``arguments``."""
    return ("tournament", "seat", TID, *arguments)


@pytest.fixture
def day(tmp_path: Path) -> Day:
    """The tournament created and its 13 players registered, nothing seated."""
    day = Day(tmp_path)
    day.ok("tournament", "create", TID, "--name", "Tournament day", "--preliminary-rounds", "2")
    players = tmp_path / "players.csv"
    players.write_text("player,name\n" + "".join(f"{p},{n}\n" for p, n in PLAYERS.items()), encoding="utf-8")
    day.ok("tournament", "import-players", TID, str(players))
    return day


# -- round numbers within the announced count ----------------------------------------------


@pytest.mark.parametrize("number", ["0", "-1", "3", "7"])
def test_a_round_the_tournament_did_not_announce_is_refused(day: Day, number: str) -> None:
    day.refused(
        *seat("--round", number),
        says=f"round {number} is not a preliminary round: the tournament announced 2, rounds 1 to 2 (R-TS1): "
        "seat a round the tournament announced",
    )


def test_a_stage_that_is_none_or_not_announced_is_refused(day: Day) -> None:
    day.refused(
        *seat("--round", "3", "--stage", "semi"),
        says="'semi' is no stage: preliminary, semifinal or final",
    )
    day.refused(*seat("--round", "3", "--stage", "semifinal"), says="the tournament announced no semi-final")
    day.refused(
        *seat("--round", "2", "--stage", "final"),
        says="the final is round 3 of this tournament, not round 2",
    )


def test_a_penalty_in_a_stage_not_announced_is_refused_and_deducts_nowhere(day: Day) -> None:
    """R-TS5: a penalty deducts points; one for a semi-final the tournament does not
    play would be deducted in no standings, so it is refused, and nothing is recorded."""
    player = next(iter(PLAYERS))
    penalty = ("tournament", "penalty", TID, player, "--points", "3", "--reason", "late")
    day.refused(*penalty, "--stage", "semifinal", says="day announced no semi-final: give the penalty in the")
    before = len(day.events())
    day.ok(*penalty, "--stage", "final")
    assert len(day.events()) == before + 1


def test_the_rounds_of_each_stage() -> None:
    assert list(stage_rounds("preliminary", 4, False)) == [1, 2, 3, 4]
    assert list(stage_rounds("semifinal", 4, False)) == []
    assert list(stage_rounds("semifinal", 4, True)) == [5]
    assert list(stage_rounds("final", 4, False)) == [5]
    assert check_tournament_round(5, "final", 4, False) is None
    breach = check_tournament_round(5, "final", 4, True)
    assert breach is not None and breach.rule == "R-TS4"


# -- re-seating a published round --------------------------------------------------------------


def test_a_round_is_seated_anew_only_with_replace_and_a_reason(day: Day) -> None:
    day.ok(*seat("--round", "1", "--seed", "1"))
    first = day.seating(1)
    assert sorted(len(t) for t in first) == [6, 7]
    says = "round 1 of day is already seated: to seat it anew, say why with --replace --reason"
    day.refused(*seat("--round", "1", "--seed", "2"), says=says)
    day.refused(*seat("--round", "1", "--replace"), says="a replaced seating needs a --reason")
    day.refused(*seat("--round", "1", "--reason", "x"), says="add --replace, or leave --reason out")
    result = day.ok(*seat("--round", "1", "--seed", "2", "--replace", "--reason", "Göran came late"))
    assert "replacing the one before" in result.output
    assert day.seating(1) != first
    seatings = [json.loads(p) for t, p in day.events() if t == "seating_published"]
    assert ["reason" in s for s in seatings] == [False, True]  # the replaced one stays, with no reason
    assert seatings[1]["reason"] == "Göran came late"


# -- the cut, and the final seated from it ---------------------------------------------------


def test_the_cut_waits_for_every_preliminary_game_unless_forced(day: Day) -> None:
    day.ok(*seat("--round", "1"))
    day.refused("tournament", "cut", TID, says="round 1 has no game in from table 1, 2; round 2 is not played")
    day.play(1)
    day.ok(*seat("--round", "2", "--seed", "1"))
    day.play(2, tables=[2])
    says = (
        "not every game of the preliminaries of day is in: round 2 has no game in from table 1. The cut is made once "
        "every game is in, since a draw at the cut line made earlier stops applying when later results change the "
        "tie; ingest the missing games, or cut now with --force --reason"
    )
    day.refused("tournament", "cut", TID, says=says)
    day.refused(*seat("--round", "3", "--stage", "final"), says="round 2 has no game in from table 1")
    day.refused("tournament", "cut", TID, "--force", says="a forced cut needs both --force and --reason")
    day.refused("tournament", "cut", TID, "--reason", "late", says="a forced cut needs both --force and --reason")
    day.refused("tournament", "cut", TID, "--stage", "final", says="the final has no cut")
    day.refused("tournament", "cut", TID, "--stage", "semifinal", says="day announced no semi-final")
    result = day.ok("tournament", "cut", TID, "--force", "--reason", "table 1 left its sheet at home", "--seed", "3")
    assert "a cut made before every game is in" in result.output
    forced = [json.loads(p) for t, p in day.events() if t == "cut_forced"]
    assert forced == [
        {
            "type": "cut_forced",
            "stage": "preliminary",
            "missing": ["round 2 has no game in from table 1"],
            "reason": "table 1 left its sheet at home",
        }
    ]
    day.ok(*seat("--round", "3", "--stage", "final"))  # the forced cut seats the final


def test_the_final_is_seated_from_the_cut(day: Day) -> None:
    for number in (1, 2):
        day.ok(*seat("--round", str(number), "--seed", str(number)))
        day.play(number)
    # all 13 on 0 points: a tie across the cut line, to be drawn before the final is seated
    day.refused(
        *seat("--round", "3", "--stage", "final"),
        says="are tied across the cut line: draw the tie first (saboteur tournament cut --stage preliminary)",
    )
    day.ok("tournament", "cut", TID, "--seed", "5")
    cut = standings(day.store, TID).filter("in_cut")["player"].to_list()
    assert len(cut) == 6
    result = day.ok(*seat("--round", "3", "--stage", "final", "--seed", "4"))
    (final,) = day.seating(3, "final")
    assert sorted(final) == sorted(cut)
    assert "final" in result.output
    # a penalty at the final is seen on its row, as in the preliminaries: it took points
    # from a row that showed none, under a note naming a column the table did not have
    day.ok("tournament", "penalty", TID, final[0], "--points", "2", "--stage", "final", "--reason", "a phone")
    sheet = day.root / "final.csv"
    rows = "".join(f"{TID},3,1,{TID}:final,1,{p},gold_digger,0,0,final\n" for p in final)
    sheet.write_text(f"{HEADER},stage\n{rows}", encoding="utf-8")
    assert ingest([sheet], day.store, workers=1)[0].outcome.startswith("accepted")
    shown = (
        CliRunner()
        .invoke(app, ["standings", TID, "--stage", "final", "--db", str(day.db)], env={"COLUMNS": "120"})
        .output
    )
    heads = next(line for line in shown.splitlines() if "rank" in line).split()
    assert heads[-2:] == ["pen.", "open"], shown
    row = next(line for line in shown.splitlines() if PLAYERS[final[0]] in line)
    assert row.split()[-2] == "2", shown  # its open findings beside it (the sheet holds one round of four)
    # every seat after a final seating used to crash ("not enough values to unpack")
    result = day.ok(*seat("--round", "2", "--replace", "--reason", "a redraw", "--seed", "9"))
    assert sorted(p for t in day.seating(2) for p in t) == sorted(PLAYERS)
    day.refused(*seat("--round", "3", "--stage", "final"), says="already seated")


def test_seat_and_cut_name_the_players_as_registered(day: Day) -> None:
    """``seat`` prints each table in seat order and ``cut`` its draw by display name with
    the id the commands take, as text: a name that looks like rich markup stays as typed."""
    day.ok("tournament", "register", TID, "p13", "--name", "[red]Miłosz[/red] Nowak")
    shown = " ".join(day.ok(*seat("--round", "1", "--seed", "1")).output.split())
    for table in day.seating(1):
        for number, player in enumerate(table, start=1):
            name = "[red]Miłosz[/red] Nowak" if player == "p13" else PLAYERS[player]
            assert f"{number}. {name} ({player})" in shown
    day.play(1)
    day.ok(*seat("--round", "2", "--seed", "2"))
    day.play(2)
    drawn = " ".join(day.ok("tournament", "cut", TID, "--seed", "5").output.split())
    draws = [json.loads(p) for t, p in day.events() if t == "cut_drawn"]
    (draw,) = draws
    names = {**PLAYERS, "p13": "[red]Miłosz[/red] Nowak"}
    among = joined([f"{names[p]} ({p})" for p in draw["tied"]])
    places = draw["places"]
    assert f"a tie at the cut line among {among} for {places} place{'s' * (places != 1)}" in drawn
    given = "them" if places != 1 else "it"
    assert f"gives {given} to {joined([f'{names[p]} ({p})' for p in draw['drawn']])}" in drawn


def test_seating_players_names_what_to_do(day: Day) -> None:
    with pytest.raises(RecordError, match="no tournament nope: create it first"):
        seating_players(day.store, "nope", 1, "preliminary")
    assert seating_players(day.store, TID, 1, "preliminary") == sorted(PLAYERS)


# -- points within what the ruleset allows ----------------------------------------------------


def test_a_correction_beyond_the_rulesets_points_is_refused(day: Day) -> None:
    day.ok(*seat("--round", "1"))
    day.play(1)
    game = f"{TID}:r1:t1"
    player = day.seating(1)[0][0]
    for points in ("99", "5", "-1"):
        day.refused(
            "tournament",
            "correct",
            TID,
            game,
            "1",
            "--player",
            player,
            "--points",
            points,
            "--reason",
            "x",
            says=f"a player scores 0 to 4 points in a round of the tournament ruleset, not {points}: "
            "enter the points the round gave (R-W1)",
        )
    day.ok("tournament", "correct", TID, game, "1", "--player", player, "--points", "4", "--reason", "the sheet")
    assert ROUND_POINTS == {"tournament": 4, "base": 6}
    assert check_round_points(6, "base") is None
    breach = check_round_points(7, "base")
    assert breach is not None and breach.rule == "R-W2"


# -- standings that cannot be shown ----------------------------------------------------------


def test_standings_say_why_they_cannot_be_shown(day: Day, tmp_path: Path) -> None:
    day.refused("standings", TID, "--stage", "semifinal", says="day announced no semi-final: ask for the preliminary")
    day.refused("standings", TID, "--stage", "final", says="no game of the final of day is in yet")
    day.refused("standings", TID, "--stage", "semi", says="'semi' is no stage: preliminary, semifinal or final")
    day.refused("standings", "nope", says="no tournament nope: create it first")
    assert "Åsa Berg" in day.ok("standings", TID).output


@pytest.mark.parametrize(
    "command",
    [
        ("standings", TID),
        ("tournament", "log", TID),
        ("tournament", "check", TID),
        seat("--round", "1"),
    ],
)
def test_a_mistyped_db_creates_no_store(day: Day, tmp_path: Path, command: tuple[str, ...]) -> None:
    typo = tmp_path / "dya.duckdb"
    result = CliRunner().invoke(app, [*command, "--db", str(typo)])
    assert result.exit_code == 2 and "no such file" in result.output
    assert "Traceback" not in result.output
    assert not typo.exists()


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252"])
def test_a_csv_not_saved_as_utf8_is_refused_naming_its_line(day: Day, tmp_path: Path, encoding: str) -> None:
    """Excel saves a CSV in the machine's code page unless told "CSV UTF-8": the seating
    came out as a traceback, the player list as a byte position."""
    seating = tmp_path / "seating.csv"
    rows = "".join(f"{1 + i // 7},{p}\n" for i, p in enumerate(PLAYERS))
    seating.write_bytes(f"table,player\n{rows}2,jürgen\n".encode(encoding))
    says = f"line {len(PLAYERS) + 2} is not UTF-8 (byte 0xFC): save the file as CSV UTF-8"
    day.refused(*seat("--round", "1", "--from-csv", str(seating)), says=says)
    listed = tmp_path / "players.csv"
    listed.write_bytes("player,name\nzed,Zoë\n".encode(encoding))
    day.refused("tournament", "import-players", TID, str(listed), says="line 2 is not UTF-8 (byte 0xEB)")


def test_a_player_list_saved_as_utf16_by_excel_is_read(day: Day, tmp_path: Path) -> None:
    listed = tmp_path / "players.csv"
    listed.write_bytes("player,name\nzed,Zoë Ørsted\n".encode("utf-16"))
    day.ok("tournament", "import-players", TID, str(listed))
    assert browse.player_names(day.store, TID)["zed"] == "Zoë Ørsted"


def test_a_record_command_upgrades_a_store_of_an_older_schema(day: Day) -> None:
    """The first penalty of a tournament day after an update: the command read the store
    before writing, and the reading refused it ("saboteur rebuild upgrades it"). A
    command that records upgrades it first, as ``ingest`` does; a reader still refuses."""
    with duckdb.connect(str(day.db)) as con:
        con.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    reading = day.cli("standings", TID)
    assert reading.exit_code == 2 and "older than this program's" in reading.output, reading.output
    player = next(iter(PLAYERS))
    day.ok("tournament", "penalty", TID, player, "--points", "1", "--reason", "late")
    with duckdb.connect(str(day.db), read_only=True) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall() == [(str(SCHEMA_VERSION),)]
    assert day.cli("verify").exit_code == 0


def test_a_store_of_version_10_takes_the_players_withdrawals(day: Day) -> None:
    """Schema version 11: ``tournament_players`` takes a player's withdrawal. A store
    written before it has neither column; the first command that records adds them,
    null for every player (none could withdraw), and ``verify`` finds the read models
    as the events give them."""
    with duckdb.connect(str(day.db)) as con:
        con.execute("ALTER TABLE tournament_players DROP COLUMN withdrawn_seq")
        con.execute("ALTER TABLE tournament_players DROP COLUMN withdrawn_reason")
        con.execute("UPDATE meta SET value = '10' WHERE key = 'schema_version'")
    player = next(iter(PLAYERS))
    day.ok("tournament", "withdraw-player", TID, player, "--reason", "gone home")
    with duckdb.connect(str(day.db), read_only=True) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall() == [(str(SCHEMA_VERSION),)]
        withdrawn = con.execute("SELECT player FROM tournament_players WHERE withdrawn_seq IS NOT NULL").fetchall()
    assert withdrawn == [(player,)]
    assert day.cli("verify").exit_code == 0
