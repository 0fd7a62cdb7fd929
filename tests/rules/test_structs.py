"""The audit's reading (msgspec Structs, ``events.structs``) is the models' reading.

The audit decodes lines into Structs made from the pydantic models; everything they
refuse, or may read otherwise, goes the pydantic way. These tests hold the Structs to
the models field for field, the events read both ways equal, the same findings for
spoilt lines, and the same audit for every fixture and example log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.audit import Auditor, audit, log_files
from events.logfile import LogLine, parse_block, parse_line, parse_lines, parse_structs_block
from events.schema import GameStarted
from events.structs import STRUCTS
from events.visitor import walk
from tests.rules.test_reading_fast_path import full_log, logs

ROOT = Path(__file__).resolve().parents[2]


def as_data(line: LogLine) -> tuple[int, Any, Any]:
    """A line's number, its event as plain data, and its error: alike for both readings."""
    event = line.event
    if event is None:
        data = None
    elif isinstance(event, msgspec.Struct):
        data = msgspec.to_builtins(event)
    else:
        data = event.model_dump(mode="json")
    return line.number, data, line.error


def read(raws: list[bytes], block_parser: Any) -> list[tuple[int, Any, Any]]:
    return [as_data(line) for line in parse_lines(raws, block_parser)]


def test_every_event_but_the_header_has_a_struct_with_the_models_fields() -> None:
    assert GameStarted not in STRUCTS
    for model, struct in STRUCTS.items():
        defaults = dict(zip(struct.__struct_fields__, struct.__struct_defaults__, strict=True))
        assert set(defaults) == set(model.model_fields) - {"type"}
        for name, default in defaults.items():
            assert model.model_fields[name].is_required() is (default is msgspec.NODEFAULT), name
            assert default in (None, msgspec.NODEFAULT)
        assert struct.type == model.model_fields["type"].annotation.__args__[0]  # type: ignore[attr-defined, union-attr]


@pytest.mark.parametrize("recording", ["full", "observed"])
def test_a_game_read_as_structs_is_the_game_read_as_models(recording: str) -> None:
    raws = logs()[recording == "observed"]
    lines = list(parse_lines(raws, parse_structs_block))
    assert all(isinstance(line.event, msgspec.Struct) for line in lines[1:])  # the fast way was taken
    assert [as_data(line) for line in lines] == read(raws, parse_block)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda raw: raw.replace(b'":', b'": ', 1),
        lambda raw: raw.replace(b'"at":', b'"at":null,"at":', 1),
        lambda raw: raw.replace(b'"at":"', b'"at":null,"spare":"', 1),
        lambda raw: raw.replace(b'"at":"2026-11-29T', b'"at":null,"x":"', 1),
        lambda raw: raw.replace(b"{", b'{"tool":null,', 1),
        lambda raw: raw.replace(b"{", b'{"card":null,', 1),
        lambda raw: raw.replace(b'"type":', b'"type":"draw","type":', 1),
        lambda raw: raw.replace(b"2026-", b"2026-13-", 1),
        lambda raw: raw.replace(b"T", b" ", 1),
        lambda raw: raw.replace(b'"player":"', b'"player":"no one', 1),
        lambda raw: raw.replace(b'"player":"', b'"player":"', 1).replace(b'"at":"', b'"at":"x', 1),
        lambda raw: raw.replace(b'"player":"', b'"player":"p\xc3\xa9', 1),
        lambda raw: raw.replace(b'"player":"', b'"player":"\xff', 1),
        lambda raw: raw.replace(b'"player":"', b'"player":"' + b"p" * 65, 1),
        lambda raw: raw.replace(b"{", b'{"extra":1,', 1),
        lambda raw: raw.replace(b'"type":"', b'"type":"x', 1),
        lambda raw: raw.replace(b'"type":"draw"', b'"type":"game_started"', 1),
        lambda raw: raw.replace(b'"card":"', b'"card":"x', 1),
        lambda raw: raw.replace(b'"card":', b'"card":1,"c":', 1),
        lambda raw: raw.replace(b"}", b',"at":true}', 1),
        lambda raw: raw[:-1],
        lambda raw: b"[]",
        lambda raw: b"",
    ],
)
@pytest.mark.parametrize("line", [1, 5, 17, 30])
def test_a_spoilt_line_reads_as_structs_as_it_reads_alone(spoil: Any, line: int) -> None:
    raws = full_log()[:40]
    spoilt = list(raws)
    spoilt[line] = spoil(raws[line])
    expected = [as_data(parse_line(number, raw)) for number, raw in enumerate(spoilt, start=1)]
    assert read(spoilt, parse_structs_block) == expected


def test_every_fixture_and_example_audits_alike_both_ways() -> None:
    paths = list(log_files([ROOT / "tests" / "data", ROOT / "examples"]))
    assert len(paths) > 10
    for path in paths:
        auditor = Auditor(str(path))
        walk(path, auditor, block_parser=parse_block)
        assert audit(path, name=str(path)).report() == auditor.result().report(), path
