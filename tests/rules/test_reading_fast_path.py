"""Reading a log a block at a time gives what reading each line alone gives.

The replay benchmark's speed rests on :func:`events.logfile.parse_lines` validating a
block of lines in one call and counting keys a block at a time (``keys_in``); the
findings rest on the exact line-by-line path (:func:`events.logfile.parse_line`). These
tests hold the two equal on real games, full and observed, and on lines that send a
block down the exact path (line ends, text, a space after a quote, a null, a key twice).
"""

from __future__ import annotations

import pytest

from events.logfile import BLOCK, parse_block, parse_line, parse_lines
from events.observe import observe_lines
from events.schema import EVENTS_ADAPTER, dump_event, key_count, keys_in
from events.simulate.game import quick_game


def full_log() -> list[bytes]:
    return [dump_event(event).encode() for event in quick_game(6, "tournament", 4, 11)]


def logs() -> list[list[bytes]]:
    full = full_log()
    return [full, list(observe_lines(full))]


def one_by_one(raws: list[bytes]) -> list[object]:
    return [parse_line(number, raw) for number, raw in enumerate(raws, start=1)]


@pytest.mark.parametrize("recording", ["full", "observed"])
def test_keys_in_a_block_are_the_keys_of_each_event_added_up(recording: str) -> None:
    raws = logs()[recording == "observed"]
    events = EVENTS_ADAPTER.validate_json(b"[" + b",".join(raws) + b"]")
    assert keys_in(events) == sum(map(key_count, events))


@pytest.mark.parametrize("recording", ["full", "observed"])
def test_a_game_read_in_blocks_is_the_game_read_line_by_line(recording: str) -> None:
    raws = logs()[recording == "observed"]
    assert len(raws) > BLOCK  # more than one block
    assert list(parse_lines(raws)) == one_by_one(raws)
    assert parse_block(1, raws[:BLOCK]) == one_by_one(raws[:BLOCK])


@pytest.mark.parametrize(
    "spoil",
    [
        lambda raw: raw + b"\n",
        lambda raw: raw + b"\r\n",
        lambda raw: raw + b"\r",
        lambda raw: raw.replace(b'":', b'" :', 1),
        lambda raw: raw.replace(b'":', b'": ', 1),
        lambda raw: raw.replace(b'"at":', b'"at":null,"at":', 1),
        lambda raw: raw.replace(b'"at":"', b'"at":null,"spare":"', 1),
        lambda raw: raw.replace(b"{", b'{"tool":null,', 1),
        lambda raw: raw.replace(b'"type":', b'"type":"draw","type":', 1),
        lambda raw: raw.replace(b"2026-", b"2026-13-", 1),
        lambda raw: b"",
    ],
    ids=[
        "LF",
        "CRLF",
        "CR",
        "space before colon",
        "space after colon",
        "at twice, once null",
        "at null",
        "tool null",
        "type twice",
        "13th month",
        "blank",
    ],
)
def test_a_spoilt_line_in_a_block_reads_as_it_reads_alone(spoil: object) -> None:
    raws = full_log()[:40]
    spoilt = list(raws)
    spoilt[17] = spoil(raws[17])  # type: ignore[operator]
    expected = one_by_one([raw.removesuffix(b"\n").removesuffix(b"\r") for raw in spoilt])
    assert list(parse_lines(spoilt)) == expected
    assert list(parse_lines([raw.decode() for raw in spoilt])) == expected  # text lines too


@pytest.mark.parametrize("number", [2**63, 2**64, -(2**63) - 1, 10**30])
def test_an_integer_past_64_bits_is_read_whole_in_a_block_and_alone(number: int) -> None:
    """orjson, the line's fast decoder, makes an integer past 64 bits a float, silently:
    a round written 18446744073709551616 was "1.8446744073709552e+19 is not a whole
    number", its deal dropped. Read whole, it is a round out of order (malformed once,
    by the replay) and the round is still dealt."""
    raws = full_log()[:40]
    deal = next(i for i, raw in enumerate(raws) if raw.startswith(b'{"type":"round_started"'))
    spoilt = list(raws)
    spoilt[deal] = raws[deal].replace(b'"round":1,', f'"round":{number},'.encode(), 1)
    expected = one_by_one(spoilt)
    assert list(parse_lines(spoilt)) == expected
    line = expected[deal]
    assert line.error is None and line.event.round == number  # type: ignore[attr-defined]
