"""``tournament.json`` is parsed into typed models: an entry can never forge a record.

Issue 10, point 1: ``cut_draws`` entries were spread into events, so an entry's own
``"type"`` won; a file for one tournament stored a ``tournament_created`` renaming
another and a ``penalty_given`` in it, and broke ``verify`` and ``rebuild`` for good.
Such a file is now refused naming the file and the field, and nothing of it is stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from analytics.records import RecordError, publish_seating
from cli.main import app
from ingest.pipeline import ingest
from ingest.store import Store

PLAYERS = ("ann", "bob", "cem", "dia", "eve", "fay", "gus")
DRAW = {"tied": ["eve", "fay"], "places": 1, "drawn": ["fay"], "points": 3, "stars": 1}


def description(tournament: str, **fields: Any) -> dict[str, Any]:
    return {
        "format": "saboteur-tournament/1",
        "id": tournament,
        "name": tournament.title(),
        "ruleset": "tournament",
        "preliminary_rounds": 2,
        "cut": 6,
        "final_rounds": 4,
        "players": [{"id": p, "name": p.title()} for p in PLAYERS],
        **fields,
    }


def cli(*args: str | Path) -> Result:
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def stored(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with Store(db).connect(read_only=True) as con:
        return con.execute(sql).fetchall()


def refused(db: Path, path: Path) -> dict[str, Any]:
    """``saboteur ingest`` of a tournament file the store refuses whole: its one finding."""
    result = cli("ingest", "--db", db, path)
    assert result.exit_code == 1, result.output
    report = json.loads(
        stored(db, "SELECT report FROM uploads WHERE outcome = 'rejected' ORDER BY upload_id DESC")[0][0]
    )
    (violation,) = report["violations"]
    return dict(violation)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A store holding the tournament ``victim``."""
    db = tmp_path / "store.duckdb"
    path = tmp_path / "victim" / "tournament.json"
    path.parent.mkdir()
    path.write_text(json.dumps(description("victim")), encoding="utf-8")
    assert [r.outcome for r in ingest([path], Store(db), workers=1)] == ["accepted"]
    return db


FORGED = {
    "created": {**DRAW, "type": "tournament_created", "tournament": "victim", "name": "Renamed"},
    "penalty": {**DRAW, "type": "penalty_given", "player": "ann", "points": 30, "reason": "forged"},
    "a draw's own type": {**DRAW, "type": "cut_drawn"},
}


@pytest.mark.parametrize("entry", FORGED.values(), ids=FORGED.keys())
def test_a_cut_draw_carrying_its_own_type_is_refused(tmp_path: Path, victim: Path, entry: dict[str, Any]) -> None:
    before = stored(victim, "SELECT stream, version, type, payload FROM events ORDER BY position")
    path = tmp_path / "evil-two" / "tournament.json"
    path.parent.mkdir()
    path.write_text(json.dumps(description("evil-two", cut_draws=[entry])), encoding="utf-8")
    result = cli("ingest", "--db", victim, path)
    assert result.exit_code == 1, result.output
    assert "rejected" in result.output
    assert "evil-two" in result.output  # the file
    assert "cut_draws.0.type" in result.output  # the field
    assert "Extra inputs are not permitted" in result.output
    assert stored(victim, "SELECT stream, version, type, payload FROM events ORDER BY position") == before
    assert stored(victim, "SELECT tournament, name FROM tournaments") == [("victim", "Victim")]
    assert stored(victim, "SELECT count(*) FROM penalties") == [(0,)]
    assert stored(victim, "SELECT outcome, status FROM uploads ORDER BY upload_id") == [
        ("accepted", "clean"),
        ("rejected", "unreadable"),
    ]
    assert cli("verify", "--db", victim).exit_code == 0
    assert cli("rebuild", "--db", victim).exit_code == 0


@pytest.mark.parametrize(
    ("entry", "field", "message"),
    [
        ({}, "cut_draws.0.tied", "Field required"),
        ({"tied": "x", "places": None}, "cut_draws.0.tied", "'x' is not a list [ … ]"),
        ({**DRAW, "places": None}, "cut_draws.0.places", "null is not a whole number"),
        ({**DRAW, "drawn": ["gus"]}, "cut_draws.0", "'gus' is drawn but not among the tied (eve and fay) (R-TS2)"),
        ({**DRAW, "places": 2}, "cut_draws.0", "2 tied players draw for 1 to 1 places (R-TS2)"),
        (
            {**DRAW, "tied": ["zed", "yul"], "drawn": ["yul"]},
            "cut_draws.0",
            "'zed' is tied at the cut but not a registered player (R-TS2)",
        ),
    ],
    ids=["empty", "tied not a list", "places null", "drawn not tied", "as many places as tied", "nobody registered"],
)
def test_a_cut_draw_that_is_no_draw_gets_a_clear_rejection(
    tmp_path: Path, victim: Path, entry: dict[str, Any], field: str, message: str
) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(description("other", cut_draws=[entry])), encoding="utf-8")
    violation = refused(victim, path)
    assert violation["code"] == "malformed"
    assert violation["message"] == f"not a tournament file: `{field}`: {message}"
    assert stored(victim, "SELECT count(*) FROM events WHERE stream = 'tournament:other'") == [(0,)]


def test_a_tournament_file_that_is_not_json_is_rejected_without_an_empty_field_name(
    tmp_path: Path, victim: Path
) -> None:
    """It said "not a tournament file: ``: Invalid JSON: …", a field named by nothing;
    then "…: Invalid JSON: EOF while parsing…", the reader's English in any language.
    Where the JSON stops is said in the reader's words."""
    path = tmp_path / "tournament.json"
    path.write_text('{"format": "saboteur-tournament/1", "id": ', encoding="utf-8")
    violation = refused(victim, path)
    assert violation["message"] == "not a tournament file: not JSON at line 1, column 42", violation
    again = cli("ingest", "--db", victim, "--lang", "nl", path)  # judged again, and said in Dutch
    assert "geen toernooibestand: geen JSON op regel 1, kolom 42" in " ".join(again.output.split()), again.output


def test_a_player_listed_twice_is_refused_not_renamed(tmp_path: Path, victim: Path) -> None:
    """The file lists every registered player once (docs/log-format.md): a second entry
    of an id was stored as a second registration, which renamed the player, unsaid (a
    sheet's games then showed "Gil2"). ``import-players`` refused it; so does the file."""
    players = [*description("other")["players"], {"id": "bob", "name": "Bob Two"}]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(description("other", players=players)), encoding="utf-8")
    violation = refused(victim, path)
    assert violation["code"] == "malformed"
    where = f"players.{len(PLAYERS)}"
    assert violation["message"] == f"not a tournament file: `{where}`: bob is listed already, as player 2 (R-TS5)"
    assert stored(victim, "SELECT count(*) FROM events WHERE stream = 'tournament:other'") == [(0,)]


@pytest.mark.parametrize("seated", [4, 11], ids=["too few", "too many"])
def test_a_table_of_the_wrong_size_is_named_by_its_round_and_label_in_the_readers_language(
    tmp_path: Path, victim: Path, seated: int
) -> None:
    """A table of 4 was refused with its round, its label and R-TS1, but one of 11 with
    the model's English ("List should have at most 10 items after validation, not 11")
    naming no round or table; and every rule's sentence stayed English in a Dutch line."""
    players = [{"id": f"p{n}", "name": f"P{n}"} for n in range(12)]
    seating = {
        "tournament_round": 1,
        "stage": "preliminary",
        "tables": [{"table": "A", "players": [f"p{n}" for n in range(seated)]}],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(description("other", players=players, seatings=[seating])), encoding="utf-8")
    violation = refused(victim, path)
    assert violation["message"] == (
        f"not a tournament file: `seatings.0`: round 1: table A seats {seated} players: a table seats 5 to 10 (R-TS1)"
    )
    dutch = cli("ingest", "--db", victim, "--lang", "nl", path)
    assert "ronde 1: aan tafel A zitten" in " ".join(dutch.output.split()), dutch.output


@pytest.mark.parametrize(
    ("fields", "field", "problem"),
    [
        ({"name": "   "}, "name", "a tournament needs a name"),
        ({"players": [{"id": "ann", "name": "\u00a0"}]}, "players.0.name", "player ann needs a name"),
        ({"players": [{"id": "ann", "name": " \u200d"}]}, "players.0.name", "player ann needs a name"),
    ],
    ids=["the tournament's", "a player's", "a joiner alone"],
)
def test_a_name_of_spaces_alone_is_refused_as_the_commands_refuse_it(
    tmp_path: Path, victim: Path, fields: dict[str, Any], field: str, problem: str
) -> None:
    """tournament create, register and import-players refuse a name of spaces; a
    tournament file stored one, shown as nothing on the standings."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(description("other", **fields)), encoding="utf-8")
    violation = refused(victim, path)
    assert violation["message"] == f"not a tournament file: `{field}`: {problem} (R-TS5)"


def test_a_final_seated_at_two_tables_is_refused(tmp_path: Path, victim: Path) -> None:
    """The best of the cut go "to the final table" (R-TS3, R-TS4): a file seating its
    final at two tables of six was stored, two finals' worth of players at one stage."""
    players = [{"id": f"p{n}", "name": f"P{n}"} for n in range(12)]
    tables = [{"table": str(t + 1), "players": [f"p{n}" for n in range(t * 6, t * 6 + 6)]} for t in range(2)]
    final = {"tournament_round": 3, "stage": "final", "tables": tables}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(description("other", players=players, seatings=[final])), encoding="utf-8")
    violation = refused(victim, path)
    assert violation["message"] == (
        "not a tournament file: `seatings.0`: round 3: the final is played at one table, not 2 (R-TS4)"
    )
    with pytest.raises(RecordError, match="the final is played at one table, not 2"):
        publish_seating(
            Store(victim),
            "victim",
            3,
            [list(PLAYERS[:6]), list(PLAYERS[:6])],
            stage="final",
            method="by hand",
            seed=None,
        )


def test_a_recorded_draw_is_stored_as_the_simulator_writes_it(tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(description("cup", cut_draws=[DRAW])), encoding="utf-8")
    assert [r.outcome for r in ingest([path], Store(db), workers=1)] == ["accepted"]
    assert stored(db, "SELECT payload FROM events WHERE type = 'cut_drawn'") == [
        ('{"type":"cut_drawn","tied":["eve","fay"],"places":1,"drawn":["fay"],"points":3,"stars":1}',)
    ]
    assert stored(db, "SELECT stage, tied, places, drawn, points, stars, seed FROM cut_draws") == [
        ("preliminary", ["eve", "fay"], 1, ["fay"], 3, 1, None)
    ]
