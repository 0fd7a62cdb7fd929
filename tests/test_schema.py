"""The published JSON Schema and the round trip of the log format (event-log.md).

The schema is a generated file kept in the repository, so that other tools can take it
without running the project; a test keeps it equal to what the models generate.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from events.builder import LogBuilder
from events.logfile import parse_line, read_log, write_log
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
