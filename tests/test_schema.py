"""The published JSON Schema and the round trip of the log format (event-log.md).

The schema is a generated file kept in the repository, so that other tools can take it
without running the project; a test keeps it equal to what the models generate.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Final

import pytest
from typer.testing import CliRunner

from cli.main import app
from events.builder import LogBuilder
from events.logfile import parse_line, read_log, write_log
from events.records import dump
from events.records.schemas import SCHEMAS
from events.records.sheet import SHEET_EVENT
from events.records.tournament import TOURNAMENT_EVENT
from events.schema import EVENT_TYPES, Event, json_schema
from tests.conftest import run

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "events" / "saboteur-log-1.schema.json"
REGENERATE = "regenerate it with: saboteur schema > events/saboteur-log-1.schema.json"
GOOD = ROOT / "tests" / "data" / "good"


def test_the_committed_schema_is_current() -> None:
    assert SCHEMA_FILE.exists(), f"{SCHEMA_FILE.name} is missing; {REGENERATE}"
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == json_schema(), (
        f"{SCHEMA_FILE.name} differs from events.schema.json_schema(); {REGENERATE}"
    )
    assert SCHEMA_FILE.read_text(encoding="utf-8") == json.dumps(json_schema(), indent=2) + "\n", (
        f"{SCHEMA_FILE.name} is not formatted as `saboteur schema` prints it; {REGENERATE}"
    )


def test_the_schema_ships_with_the_package() -> None:
    shipped = resources.files("events").joinpath("saboteur-log-1.schema.json")
    assert json.loads(shipped.read_text(encoding="utf-8")) == json_schema()


def test_saboteur_schema_prints_valid_json() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema == json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_knows_every_event_type() -> None:
    text = json.dumps(json_schema())
    for event_type in EVENT_TYPES:
        assert f'"const": "{event_type}"' in text


def test_optional_fields_are_not_nullable_in_the_schema() -> None:
    """``at`` may be left out, but ``null`` is not allowed (event-log.md, "File")."""
    for model in json_schema()["$defs"].values():
        at = model.get("properties", {}).get("at")
        if at is not None:
            assert "null" not in json.dumps(at)
            assert "at" not in model.get("required", [])


# -- round trip ------------------------------------------------------------------------


def every_kind_of_event() -> LogBuilder:
    """A short log with every event type and every optional field."""
    log = LogBuilder(
        players=["ann", "bob", "cem", "dia", "eve", "fay"],
        game_id="nl-open-2026:r1:t3",
        tournament="nl-open-2026",
        tournament_round=1,
        stage="final",
        table="tafel ü 3",
        options={"roles": {"saboteur": 2, "gold_digger": 3, "selfish_dwarf": 1}, "self_break": True},
        rounds=1,
        at="2026-11-29T14:03:11Z",
    )
    hands = {"ann": ["break_pick"], "bob": ["repair_pick_lamp"], "cem": ["rockfall"], "dia": ["map"]}
    log.deal(start="ann", hands=hands)
    log.tool("ann", "break_pick", "bob").tool("bob", "repair_pick_lamp", "bob", tool="pick")
    at = "2026-11-29T15:05:00.5+01:00"  # later than the header's time, written with an offset
    log.raw({"type": "play_rockfall", "player": "cem", "card": "rockfall", "x": 4, "y": 0, "at": at})
    log.draw("cem").map("dia", "top").pass_out().end_round().end_game()
    return log


def test_a_log_read_and_written_back_gives_the_same_events(tmp_path: Path) -> None:
    for source in [*sorted(GOOD.glob("*.jsonl")), None]:
        if source is None:
            source = tmp_path / "every_kind.jsonl"
            source.write_text(every_kind_of_event().text(), encoding="utf-8")
        events = events_of(source)
        written = write_log(events, tmp_path / "again.jsonl")
        assert events_of(tmp_path / "again.jsonl") == events
        assert write_log(events_of(tmp_path / "again.jsonl")) == written  # byte for byte
        assert (tmp_path / "again.jsonl").read_text(encoding="utf-8") == written


def test_the_round_trip_keeps_optional_fields_as_given(tmp_path: Path) -> None:
    log = every_kind_of_event()
    written = write_log(log.events())
    first = json.loads(written.splitlines()[0])
    assert first["table"] == "tafel ü 3"
    assert first["options"] == {"roles": {"saboteur": 2, "gold_digger": 3, "selfish_dwarf": 1}, "self_break": True}
    lines = [json.loads(line) for line in written.splitlines()]
    assert [line.get("tool") for line in lines if line["type"] == "play_tool"] == [None, "pick"]
    assert "at" not in lines[1]  # left out stays left out, never written as null
    assert sum("at" in line for line in lines) == 2


def test_written_lines_parse_back_line_by_line() -> None:
    for number, line in enumerate(write_log(every_kind_of_event().events()).splitlines(), start=1):
        assert parse_line(number, line).error is None


def test_a_gzip_log_written_reads_back_the_same(tmp_path: Path) -> None:
    events = every_kind_of_event().events()
    plain = write_log(events, tmp_path / "game.jsonl")
    packed = write_log(events, tmp_path / "game.jsonl.gz")
    assert packed == plain
    assert (tmp_path / "game.jsonl.gz").read_bytes()[:2] == b"\x1f\x8b"
    assert events_of(tmp_path / "game.jsonl.gz") == events


def events_of(path: Path) -> list[Event]:
    lines = list(read_log(path))
    assert all(line.error is None and line.event is not None for line in lines)
    return [line.event for line in lines if line.event is not None]


def test_the_round_trip_log_is_a_legal_game() -> None:
    result = run(every_kind_of_event())
    assert (result.status, result.findings) == ("clean", [])


def test_key_count_is_exact_for_every_event_type() -> None:
    """The fast line parser finds duplicate keys by counting: ``key_count`` of a
    validated event must equal the keys written, for every event and every option."""
    import orjson

    from events.logfile import _key_count
    from events.schema import EVENT_ADAPTER, dump_event, key_count
    from events.simulate.game import quick_game

    lines = [dump_event(e) for ruleset, n in (("base", 4), ("tournament", 7)) for e in quick_game(n, ruleset, 2, 3)]
    lines.append(
        '{"type":"game_started","format":"saboteur-log/1","game_id":"g","ruleset":"base","players":["a","b","c"],'
        '"rounds":3,"tournament":"t","tournament_round":2,"stage":"final","table":"7","at":"2026-11-29T10:00:00Z",'
        '"options":{"next_round_starter":"any","self_break":true,"gold_cards_drawn":"gold_diggers"}}'
    )
    lines.append(
        '{"type":"game_started","format":"saboteur-log/1","game_id":"g","ruleset":"tournament",'
        '"players":["a","b","c","d","e"],"rounds":3,"options":{"roles":{"saboteur":1,"gold_digger":3,"selfish_dwarf":1}}}'
    )
    lines.append('{"type":"play_tool","player":"a","card":"repair_pick_lamp","target":"b","tool":"pick"}')
    for line in lines:
        event = EVENT_ADAPTER.validate_json(line)
        assert key_count(event) == _key_count(orjson.loads(line)) == line.count('":'), line


# -- the other streams: a tournament's records and score-sheet games ---------------------

STREAM_SCHEMAS = sorted(set(SCHEMAS) - {"log"})


def _schema_file(stream: str) -> Path:
    return ROOT / "events" / SCHEMAS[stream]()["$id"]


@pytest.mark.parametrize("stream", STREAM_SCHEMAS)
def test_every_stream_schema_is_committed_current_and_shipped(stream: str) -> None:
    path = _schema_file(stream)
    regenerate = f"regenerate it with: saboteur schema --stream {stream} > events/{path.name}"
    assert path.exists(), f"{path.name} is missing; {regenerate}"
    assert path.read_text(encoding="utf-8") == json.dumps(SCHEMAS[stream](), indent=2) + "\n", (
        f"{path.name} differs from what the models generate; {regenerate}"
    )
    shipped = resources.files("events").joinpath(path.name)
    assert json.loads(shipped.read_text(encoding="utf-8")) == SCHEMAS[stream]()


@pytest.mark.parametrize("stream", sorted(SCHEMAS))
def test_saboteur_schema_prints_each_stream(stream: str) -> None:
    result = CliRunner().invoke(app, ["schema", "--stream", stream])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == SCHEMAS[stream]()
    assert CliRunner().invoke(app, ["schema", "--stream", "nope"]).exit_code == 2


@pytest.mark.parametrize(
    ("stream", "types"),
    [
        (
            "tournament",
            {
                "tournament_created",
                "player_registered",
                "player_withdrawn",
                "player_returned",
                "seating_published",
                "penalty_given",
                "penalty_withdrawn",
                "score_corrected",
                "replay_accepted",
                "finding_dismissed",
                "cut_drawn",
                "cut_forced",
                "checkpoint_published",
                "referee_code_issued",
                "referee_code_revoked",
            },
        ),
        ("sheet", {"score_sheet_game", "round_recorded"}),
    ],
)
def test_a_stream_schema_knows_every_event_type(stream: str, types: set[str]) -> None:
    schema = SCHEMAS[stream]()
    assert {m["properties"]["type"]["const"] for m in schema["$defs"].values() if "type" in m["properties"]} == types
    assert all(m["additionalProperties"] is False for m in schema["$defs"].values())


STORED: Final = {
    "tournament": [
        # from a tournament.json
        '{"type":"tournament_created","tournament":"sim-open-3","name":"Simulated Open 3","ruleset":"tournament",'
        '"preliminary_rounds":4,"cut":6,"final_rounds":4}',
        '{"type":"player_registered","player":"ulrike-fischer","name":"Ulrike Fischer"}',
        '{"type":"seating_published","tournament_round":5,"stage":"final","tables":[{"table":"final","players":'
        '["a","b","c","d","e","f"]}]}',
        '{"type":"cut_drawn","tied":["bram-olsen","tess-johansen"],"places":1,"drawn":["bram-olsen"],"points":17,'
        '"stars":5}',
        # from the organiser's commands
        '{"type":"tournament_created","tournament":"hand-cup","name":"Hand \\"Cup\\" ü","ruleset":"base",'
        '"preliminary_rounds":4,"cut":3,"final_rounds":4,"semifinal":true}',
        '{"type":"player_registered","player":"p13","name":"Late \\"Quote\\" Comer ünï"}',
        '{"type":"seating_published","tournament_round":1,"stage":"preliminary","tables":[{"table":"1","players":'
        '["p4","p12","p2","p13","p8"]}],"method":"mixed","seed":0}',
        '{"type":"seating_published","tournament_round":2,"stage":"preliminary","tables":[{"table":"1","players":'
        '["p4","p12","p2","p13","p8"]}],"method":"by hand","seed":null}',
        '{"type":"penalty_given","player":"ulrike-fischer","points":2,"stage":"final","reason":"late"}',
        '{"type":"score_corrected","game_id":"sim-open-3:r1:t1","round":1,"player":"jonas-olsen","points":3,'
        '"reason":"miscount"}',
        '{"type":"replay_accepted","game_id":"sim-open-3:r1:t2","round":1,"reason":null}',
        '{"type":"replay_accepted","game_id":"sim-open-3:r1:t3","round":2,"reason":"by the replay"}',
        '{"type":"finding_dismissed","finding":"cd054ed4a5ed","reason":"sheet smudged\\nat the table"}',
        '{"type":"cut_drawn","stage":"preliminary","tied":["p1","p10","p11"],"places":2,"drawn":["p11","p1"],'
        '"points":0,"stars":0,"seed":5}',
    ],
    "sheet": [
        '{"type":"score_sheet_game","game_id":"sim-open-3:sheet","tournament":"sim-open-3","tournament_round":9,'
        '"table":"9","ruleset":"tournament","players":["ana","ben","cas","dov","eli"]}',
        '{"type":"score_sheet_game","game_id":"club:1","tournament":null,"tournament_round":null,"table":null,'
        '"ruleset":"tournament","players":["ana","ben","cas","dov","eli"]}',
        '{"type":"round_recorded","source":"score_sheet","game_id":"sim-open-3:sheet","round":1,"results":['
        '{"player":"ana","role":"gold_digger","points":2,"star":false,"line":2},'
        '{"player":"cas","role":"saboteur","points":0,"star":true,"line":4}]}',
    ],
}
"""Payloads as the ledger has stored them (taken from a store written before the events
were typed): every event type, in each shape a writer gave it."""


@pytest.mark.parametrize("stream", sorted(STORED))
def test_stored_payloads_read_and_write_back_byte_for_byte(stream: str) -> None:
    adapter = {"tournament": TOURNAMENT_EVENT, "sheet": SHEET_EVENT}[stream]
    for payload in STORED[stream]:
        event = adapter.validate_json(payload)
        assert dump(event) == payload
        assert json.loads(dump(event)) == json.loads(payload)


def test_the_tournament_file_schema_publishes_the_rules_bounds() -> None:
    """log-format.md's table gives preliminary rounds 1–20, a cut of 5–10 and a final of
    1–4 rounds; the published schema said only "integer". A file beyond them is still
    refused by the rules' own sentence (R-TS1, R-TS3, R-TS4), not the parser's."""
    result = CliRunner().invoke(app, ["schema", "--stream", "tournament-file"])
    properties = json.loads(result.stdout)["properties"]
    bounds = {
        name: (properties[name]["minimum"], properties[name]["maximum"])
        for name in ("preliminary_rounds", "cut", "final_rounds")
    }
    assert bounds == {"preliminary_rounds": (1, 20), "cut": (5, 10), "final_rounds": (1, 4)}
