"""Bad input (event-log.md, "File", "Violations", "Audit report").

Whatever a file holds, the audit never raises and never reads more than the limits:
each problem is a ``malformed`` finding naming the line (and the field where there is
one), or an ``unreadable`` status when the file cannot be read as a log at all.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest

import events.logfile
from events.audit import Audit, audit_file
from events.builder import LogBuilder
from events.findings import Finding
from events.language import words
from events.logfile import MAX_DEPTH, MAX_FILE_BYTES, MAX_LINE_BYTES, UnreadableLog, read_bytes
from events.observe import observe_lines
from events.schema import NULL_IF_LEFT_OUT
from tests.conftest import codes, errors, run
from tests.rules.test_scoring import tournament_gold

MiB = 1024 * 1024
SIX = ["ann", "bob", "cem", "dia", "eve", "fay"]


def started(**header: Any) -> LogBuilder:
    """A tournament table of six with round 1 dealt, ann to start (two lines)."""
    log = LogBuilder(players=6, ruleset="tournament", **header)
    return log.deal(start="ann")


def header_line(**fields: Any) -> dict[str, Any]:
    """A valid ``game_started`` object, with ``fields`` changed."""
    obj: dict[str, Any] = json.loads(LogBuilder(players=6).lines[0])
    obj.update(fields)
    return obj


def one_finding(result: Audit, code: str, line: int) -> Finding:
    """The finding with ``code`` at ``line``; fails if there is none."""
    found = [f for f in result.findings if f.code.value == code and f.line == line]
    assert found, f"no {code} at line {line}: {[f.describe() for f in result.findings]}"
    return found[0]


def error_codes(result: Audit) -> list[tuple[str, int]]:
    """``(code, line)`` of every error finding of an audit."""
    return [(f.code.value, f.line) for f in result.findings if f.severity == "error"]


def names(finding: Finding, field: str) -> bool:
    """Whether a finding names ``field``, in ``field`` or in its message."""
    return finding.field == field or f"`{field}`" in finding.message


def malformed(log: LogBuilder | list[str], field: str | None = None) -> Finding:
    """The one error of a log whose last line is malformed, with the field named."""
    lines = log.lines if isinstance(log, LogBuilder) else log
    result = run(lines)
    assert result.status == "violations"
    assert codes(lines) == [("malformed", len(lines))], [f.describe() for f in result.findings]
    finding = one_finding(result, "malformed", len(lines))
    if field is not None:
        assert names(finding, field), finding.describe()
    return finding


def unreadable(result: Audit, line: int | None = 1) -> Finding:
    """An unreadable verdict holds exactly the ``malformed`` finding that says why."""
    assert result.status == "unreadable"
    assert result.game_id is None
    assert [f.code.value for f in result.findings] == ["malformed"]
    if line is not None:
        assert result.findings[0].line == line
    return result.findings[0]


def write(tmp_path: Path, data: bytes, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def text(log: LogBuilder) -> bytes:
    return log.text().encode("utf-8")


# -- the file ------------------------------------------------------------------------


def test_a_clean_start_is_clean(tmp_path: Path) -> None:
    result = audit_file(write(tmp_path, text(started())))
    assert result.status == "clean"
    assert [f.code.value for f in result.findings] == ["incomplete"]


def test_not_utf8_on_the_first_line_is_unreadable(tmp_path: Path) -> None:
    data = text(started()).replace(b'"test:game"', b'"test:g\xe9me"', 1)
    unreadable(audit_file(write(tmp_path, data)))


def test_not_utf8_on_a_later_line_is_malformed_there(tmp_path: Path) -> None:
    data = text(started()) + b'{"type":"discard","player":"\xff\xfe","card":"map"}\n'
    result = audit_file(write(tmp_path, data))
    assert result.status == "violations"
    assert result.game_id == "test:game"
    assert error_codes(result) == [("malformed", 3)]
    assert "UTF-8" in result.findings[0].message


def test_not_json_is_malformed() -> None:
    malformed(started().raw('{"type": "discard", "player": "ann", "card": map}'))


def test_a_json_array_is_malformed() -> None:
    malformed(started().raw('[{"type": "discard", "player": "ann", "card": "map"}]'))


def test_a_json_array_as_the_first_line_is_unreadable() -> None:
    unreadable(run([json.dumps([header_line()])]))


def test_a_lone_surrogate_in_the_header_s_table_is_unreadable() -> None:
    """``"\\ud800"`` is valid JSON but half a character, no text: the header's ``table``
    (any string) let it through to the store, whose writing failed with a traceback."""
    header = json.dumps(header_line(table="T")).replace('"T"', '"\\ud800"')
    finding = unreadable(run([header]))
    assert "`table`" in finding.message and "lone surrogate" in finding.message


@pytest.mark.parametrize(
    ("spoil", "field"),
    [
        (lambda line: re.sub('"card":"[^"]*"', '"card":"\\\\udc00"', line), "card"),
        (lambda line: line.replace("{", '{"\\ud800":1,', 1), "\ufffd"),
        (lambda line: line.replace('"player":"ann"', '"player":"a\\ud800"'), "player"),
    ],
    ids=["a draw's card", "a key", "a player"],
)
def test_a_lone_surrogate_is_malformed_once_at_its_line(spoil: Any, field: str) -> None:
    """A half character in a draw's card is a card that names no card (the draw made,
    the card unknown); in a key, an unknown field; in a player id, a line that says no
    whose: one finding each at its line, in the reader's language, naming the field.
    A key's half character was a draw dropped, then a missed draw and wrong draws."""
    log = started().discard("ann", draw=False).draw("ann").discard("bob")
    lines = [*log.lines[:3], spoil(log.lines[3]), *log.lines[4:]]
    assert lines[3] != log.lines[3]
    result = run(lines)
    if field == "player":
        assert ("malformed", 4) in codes(lines)
    else:
        assert codes(lines) == [("malformed", 4)], [f.describe() for f in result.findings]
    finding = one_finding(result, "malformed", 4)
    assert names(finding, field) and "lone surrogate" in finding.message
    assert finding.said is not None and "lone surrogate" not in words(finding.said, "nl")


def test_a_blank_line_in_between_is_malformed(tmp_path: Path) -> None:
    log = started().discard("ann")
    lines = [*log.lines[:2], "", *log.lines[2:]]
    result = audit_file(write(tmp_path, "\n".join(lines).encode() + b"\n"))
    assert result.status == "violations"
    assert error_codes(result) == [("malformed", 3)]


def test_a_trailing_newline_is_allowed(tmp_path: Path) -> None:
    log = started().discard("ann")
    with_newline = audit_file(write(tmp_path, text(log), "a.jsonl"))
    without = audit_file(write(tmp_path, text(log).removesuffix(b"\n"), "b.jsonl"))
    for result in (with_newline, without):
        assert result.status == "clean"
        assert [(f.code.value, f.line) for f in result.findings] == [("incomplete", 4)]


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    result = audit_file(write(tmp_path, b"\xef\xbb\xbf" + text(started())))
    assert result.status == "clean"
    assert result.game_id == "test:game"


def test_crlf_line_ends_are_accepted(tmp_path: Path) -> None:
    log = started().discard("ann").discard("bob")
    result = audit_file(write(tmp_path, text(log).replace(b"\n", b"\r\n")))
    assert result.status == "clean"
    assert [(f.code.value, f.line) for f in result.findings] == [("incomplete", 6)]


def test_an_empty_file_is_unreadable_at_line_1(tmp_path: Path) -> None:
    unreadable(audit_file(write(tmp_path, b"")))


def test_a_gzip_file_of_an_empty_log_is_unreadable_as_empty_not_as_no_gzip(tmp_path: Path) -> None:
    """A whole, sound gzip stream of no bytes was said to be "not a gzip file (Compressed
    file ended before the end-of-stream marker was reached)": it is gzip, and empty."""
    plain = unreadable(audit_file(write(tmp_path, b"")))
    zipped = unreadable(audit_file(write(tmp_path, gzip.compress(b""), "game.jsonl.gz")))
    assert zipped.message == plain.message and "gzip" not in zipped.message, zipped.message


def test_a_file_of_only_a_byte_order_mark_is_unreadable(tmp_path: Path) -> None:
    unreadable(audit_file(write(tmp_path, b"\xef\xbb\xbf")))


def test_a_missing_file_is_unreadable(tmp_path: Path) -> None:
    unreadable(audit_file(tmp_path / "nowhere.jsonl"))


# -- size limits: refused without reading it all --------------------------------------


def peak_memory(path: Path) -> tuple[Audit, int]:
    """Audit ``path`` and measure the most memory Python held meanwhile."""
    tracemalloc.start()
    try:
        result = audit_file(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_a_file_over_16_mib_is_unreadable_and_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, text(started()))
    with path.open("r+b") as stream:
        stream.truncate(20 * MiB)  # a sparse file: cheap to make
    sizes: list[int] = []

    def counting_read_bytes(p: Path) -> bytes:
        data = read_bytes(p)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(events.logfile, "read_bytes", counting_read_bytes)
    result, peak = peak_memory(path)
    unreadable(result, line=None)
    assert "16 MiB" in result.findings[0].message
    assert sizes == []  # refused before any content was returned
    assert peak < 4 * MiB


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_stream_is_unreadable_and_read_only_to_the_limit() -> None:
    """/dev/zero has no size to check beforehand: reading must stop at the limit."""
    result, peak = peak_memory(Path("/dev/zero"))
    unreadable(result, line=None)
    assert peak < 40 * MiB


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_is_unreadable_at_once(tmp_path: Path) -> None:
    """Issue 10, point 10: a named pipe with no writer once hung the audit forever."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    result = audit_file(fifo)
    unreadable(result, line=None)
    assert "not a regular file" in result.findings[0].message


def test_a_folder_named_as_a_log_is_unreadable(tmp_path: Path) -> None:
    folder = tmp_path / "folder.jsonl"
    folder.mkdir()
    unreadable(audit_file(folder), line=None)


def test_read_bytes_refuses_more_than_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with path.open("wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(UnreadableLog):
        read_bytes(path)
    with path.open("r+b") as stream:
        stream.truncate(MAX_FILE_BYTES)
    assert len(read_bytes(path)) == MAX_FILE_BYTES  # exactly 16 MiB is allowed


def test_a_gzip_file_inflating_past_16_mib_is_unreadable_and_not_inflated(tmp_path: Path) -> None:
    member = gzip.compress(b" " * MiB)  # gzip members may follow one another
    path = write(tmp_path, gzip.compress(text(started())) + member * 128, "bomb.jsonl.gz")
    assert path.stat().st_size < MiB
    result, peak = peak_memory(path)
    unreadable(result, line=None)
    assert "16 MiB" in result.findings[0].message
    assert peak < 3 * MAX_FILE_BYTES  # about the limit, not the 128 MiB it inflates to


def test_a_gz_file_that_is_not_gzip_is_unreadable(tmp_path: Path) -> None:
    unreadable(audit_file(write(tmp_path, text(started()), "game.jsonl.gz")))


def test_a_gzip_file_cut_short_is_read_as_far_as_it_goes_as_a_plain_log_cut_there(tmp_path: Path) -> None:
    """A copy or an upload broken off: "a file whose game_started is valid is never
    unreadable", so the lines before the cut are audited and the file ends there, as the
    same lines in a plain file would be (it was unreadable, whatever it held)."""
    plain = text(started().discard("ann").discard("bob").discard("cem"))
    packed = gzip.compress(plain)
    read_on = 0
    for cut in range(1, len(packed)):
        gz = audit_file(write(tmp_path, packed[:cut], "game.jsonl.gz"))
        inflated = zlib.decompressobj(wbits=31).decompress(packed[:cut])
        if not inflated:
            unreadable(gz, line=None)
            assert "not a gzip file" in gz.findings[0].message
            continue
        same = audit_file(write(tmp_path, inflated, "game.jsonl"))
        assert (gz.status, [(f.code, f.line) for f in gz.findings]) == (
            same.status,
            [(f.code, f.line) for f in same.findings],
        ), cut
        read_on += gz.status != "unreadable"
    assert read_on > len(packed) // 2  # most cuts fall after game_started: audited, not refused


def test_a_gzip_file_with_damaged_bytes_or_something_else_after_it_is_unreadable(tmp_path: Path) -> None:
    packed = bytearray(gzip.compress(text(started().discard("ann"))))
    packed[len(packed) // 2] ^= 0xFF
    unreadable(audit_file(write(tmp_path, bytes(packed), "flipped.jsonl.gz")))
    tail = gzip.compress(text(started())) + b"PK\x03\x04 a zip after it"
    unreadable(audit_file(write(tmp_path, tail, "tail.jsonl.gz")))
    padded = gzip.compress(text(started())) + b"\0" * 512 + gzip.compress(b"")  # padding and an empty member: read
    assert audit_file(write(tmp_path, padded, "padded.jsonl.gz")).status == "clean"


@pytest.mark.parametrize("name", ["game.jsonl.gz", "GAME.JSONL.GZ", "game.jsonl.Gz"])
def test_a_gzip_log_is_read(tmp_path: Path, name: str) -> None:
    result = audit_file(write(tmp_path, gzip.compress(text(started())), name))
    assert result.status == "clean"
    assert result.game_id == "test:game"


def test_a_1_mib_line_after_the_header_is_malformed_there(tmp_path: Path) -> None:
    log = started()
    big = json.dumps({"type": "discard", "player": "ann", "card": "map", "padding": "x" * MiB})
    result = audit_file(write(tmp_path, text(log) + big.encode() + b"\n"))
    assert result.status == "violations"
    assert error_codes(result) == [("malformed", 3)]
    assert "64 KiB" in result.findings[0].message


def test_a_line_of_exactly_64_kib_is_not_refused_for_its_size() -> None:
    log = started()
    line = f'{{"type":"discard","player":"ann","card":"{log.hand("ann")[0]}","x":"'
    line += "x" * (MAX_LINE_BYTES - len(line) - 2) + '"}'
    assert len(line.encode()) == MAX_LINE_BYTES
    finding = malformed(log.raw(line), "x")  # an unknown field, not a long line
    assert "64 KiB" not in finding.message


def test_the_64_kib_limit_does_not_count_the_line_end(tmp_path: Path) -> None:
    log = started()
    line = f'{{"type":"discard","player":"ann","card":"{log.hand("ann")[0]}","x":"'
    line += "x" * (MAX_LINE_BYTES - len(line) - 2) + '"}'
    data = text(log).replace(b"\n", b"\r\n") + line.encode() + b"\r\n"
    result = audit_file(write(tmp_path, data))
    assert error_codes(result) == [("malformed", 3)]
    assert names(result.findings[0], "x")  # an unknown field, not a long line


def test_a_first_line_over_64_kib_is_unreadable() -> None:
    unreadable(run([json.dumps(header_line(table="x" * 70_000))]))


def test_deep_nesting_within_64_kib_is_malformed() -> None:
    depth = 30_000
    line = '{"type":"discard","player":"ann","card":' + "[" * depth + "]" * depth + "}"
    assert len(line.encode()) < MAX_LINE_BYTES
    malformed(started().raw(line))


def test_deep_nesting_over_64_kib_is_malformed_by_size_first() -> None:
    depth = 100_000
    line = '{"type":"discard","player":"ann","card":' + "[" * depth + "]" * depth + "}"
    finding = malformed(started().raw(line))
    assert "64 KiB" in finding.message


def test_deep_nesting_on_the_first_line_is_unreadable() -> None:
    unreadable(run(["[" * 30_000 + "]" * 30_000]))


def _nested(depth: int, *, closed: bool = True) -> str:
    return "[" * depth + ("]" * depth if closed else "")


@pytest.mark.parametrize(
    "card",
    [_nested(MAX_DEPTH), _nested(500), _nested(1_000), _nested(60_000, closed=False)],
    ids=["just-over-the-limit", "500", "1000", "60000-unclosed"],
)
def test_a_value_nested_past_the_limit_is_malformed_as_deep_at_its_line(card: str) -> None:
    """A line whose JSON nests deeper than any event (3 levels) by far: at some hundred
    levels the decoder read it and the wording of its finding (the value shown) ran out
    of recursion, a traceback of the audit, the ingest and observe; and the depth where
    that came differed between the compiled core and the sources, which said "nested too
    deeply" where the compiled one named the card. Now it is the one finding, whatever
    the core (this file runs on the sources too, ``tests/test_compiled.py``)."""
    line = '{"type":"discard","player":"ann","card":' + card + "}"  # the line itself is one level
    assert len(line.encode()) <= MAX_LINE_BYTES
    finding = malformed(started().raw(line))
    assert finding.message == f"JSON nested more than {MAX_DEPTH} levels deep (no event nests more than 3)"
    assert finding.said is not None and words(finding.said, "de").startswith("JSON mehr als 32 Ebenen")


def test_a_value_nested_to_the_limit_is_judged_as_any_wrong_value() -> None:
    line = '{"type":"discard","player":"ann","card":' + _nested(MAX_DEPTH - 1) + "}"
    finding = malformed(started().raw(line), "card")
    assert "is not a card code" in finding.message


def test_brackets_inside_a_text_are_no_nesting() -> None:
    note = {"type": "referee_note", "player": None, "error": "other", "note": '[{"' * 100 + '\\"[' * 50}
    assert codes(started().raw(note)) == [("table_incident", 3)]


def test_a_header_nested_past_the_limit_is_unreadable_saying_so() -> None:
    header = json.dumps(header_line()).replace('"test:game"', _nested(1_000))
    finding = unreadable(run([header]))
    assert "nested more than 32 levels deep" in finding.message


# -- the header ------------------------------------------------------------------------


def test_a_first_line_that_is_not_game_started_is_unreadable() -> None:
    log = started()
    unreadable(run(log.lines[1:]))


def test_a_second_game_started_is_malformed_there() -> None:
    log = started()
    malformed(log.raw(log.lines[0]))


def test_duplicate_player_ids_are_unreadable() -> None:
    finding = unreadable(run([json.dumps(header_line(players=["ann", "bob", "cem", "dia", "eve", "ann"]))]))
    assert "players" in finding.message


@pytest.mark.parametrize("option", [{"next_round_starter": "any"}, {"gold_cards_drawn": "gold_diggers"}])
def test_base_options_in_tournament_are_unreadable(option: dict[str, str]) -> None:
    finding = unreadable(run([json.dumps(header_line(ruleset="tournament", options=option))]))
    assert f"options.{next(iter(option))}" in finding.message


def test_base_options_in_tournament_are_all_named_at_once() -> None:
    """Two options of the other ruleset: the first alone was named, and the second only
    on the next run of the audit."""
    option = {"next_round_starter": "any", "gold_cards_drawn": "gold_diggers"}
    finding = unreadable(run([json.dumps(header_line(ruleset="tournament", options=option))]))
    assert "options.next_round_starter" in finding.message and "options.gold_cards_drawn" in finding.message


@pytest.mark.parametrize("rows", [(1, 3, 1), (3, 3, 1), (0, 0, 0)])
def test_options_roles_that_deal_other_than_one_card_each_are_unreadable(rows: tuple[int, int, int]) -> None:
    """R-S1: exactly as many role cards as players, whatever the rows. Rows of 5 at a
    table of 6 were taken, and every deal then blamed for not being a deal no table can
    make (``bad_roles`` at each round_started)."""
    roles = dict(zip(("saboteur", "gold_digger", "selfish_dwarf"), rows, strict=True))
    finding = unreadable(run([json.dumps(header_line(options={"roles": roles}))]))
    assert finding.line == 1 and "options.roles" in finding.message
    assert f"the rows deal {sum(rows)} role cards to 6 players" in finding.message, finding.message


def test_options_roles_in_base_is_unreadable() -> None:
    obj = header_line(ruleset="base", options={"roles": {"saboteur": 2, "gold_digger": 3, "selfish_dwarf": 1}})
    finding = unreadable(run([json.dumps(obj)]))
    assert "options.roles" in finding.message


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rounds", "3"),
        ("rounds", True),
        ("rounds", 3.0),
        ("rounds", 5),
        ("format", "saboteur-log/2"),
        ("ruleset", "advanced"),
        ("game_id", "has spaces"),
        ("players", ["ann", "bob"]),
        ("table", None),
        ("colour", "red"),
    ],
)
def test_a_bad_header_field_is_unreadable_naming_it(field: str, value: object) -> None:
    finding = unreadable(run([json.dumps(header_line(**{field: value}))]))
    assert field in finding.message


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("table", ""),
        ("table", "t" * 65),
        ("table", "Tafel 3 — bij het raam"),
        ("table", "<b>3</b>"),
        ("tournament_round", 1001),
        ("tournament_round", 2**31 - 1),
    ],
)
def test_a_header_field_the_format_leaves_open_takes_any_value(field: str, value: object) -> None:
    """event-log.md: `table` is "string, optional", a label (any text), and
    `tournament_round` "integer ≥ 1": neither is bounded further than the store needs."""
    assert run([json.dumps(header_line(**{field: value}))]).status == "clean"


@pytest.mark.parametrize(("field", "value"), [("tournament_round", 0), ("tournament_round", 2**31), ("table", 3)])
def test_a_header_field_out_of_its_range_is_unreadable(field: str, value: object) -> None:
    assert field in unreadable(run([json.dumps(header_line(**{field: value}))])).message


def test_a_header_missing_a_field_is_unreadable_naming_it() -> None:
    obj = header_line()
    del obj["rounds"]
    assert "rounds" in unreadable(run([json.dumps(obj)])).message


# -- the shape of a line -----------------------------------------------------------------


def test_an_unknown_event_type_is_malformed() -> None:
    malformed(started().raw({"type": "play_dynamite", "player": "ann", "card": "map"}), "type")


def test_a_line_without_a_type_is_malformed() -> None:
    malformed(started().raw({"player": "ann", "card": "map"}), "type")


@pytest.mark.parametrize("kind", [[1], {"play": "path"}, 5, None, True])
def test_a_type_that_is_no_string_is_malformed_once(tmp_path: Path, kind: object) -> None:
    """A ``type`` that is a list or an object made the reading of the line raise (it was
    looked up among the card plays, and neither can be: unhashable), and the audit of
    the file ended in a traceback; a number was "unknown event type '5'"."""
    log = started().raw({"type": kind, "player": "ann", "card": "map"})
    finding = malformed(log, "type")
    assert "string `type`" in finding.message
    result = audit_file(write(tmp_path, text(log)))  # the file's way, a block of lines at a time
    assert error_codes(result) == [("malformed", len(log.lines))]


def test_an_unknown_field_is_malformed() -> None:
    log = started()
    malformed(log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "colour": "red"}), "colour")


@pytest.mark.parametrize(
    "extra",
    [
        {"comment": "x"},
        {"at": "2026-11-29 14:03:11Z"},
        {"at": None},
        {"at": 1},
        {"comment": "x", "at": "yesterday"},
    ],
    ids=["unknown-field", "at-not-rfc-3339", "at-null", "at-a-number", "both"],
)
def test_a_line_malformed_only_by_an_unknown_field_or_its_time_is_applied_as_recorded(extra: dict[str, Any]) -> None:
    """event-log.md, "Violations": the replay goes on "with the event as recorded wherever
    the event can still be applied". A placement with a stray field or a bad time still
    says where its card went: it is reported once, and the game goes on with it, so the
    lines after are judged against the maze it made (had it been dropped, bob's draw
    would come before his card, cem's turn would be bob's, and cem's card would lie
    next to nothing)."""
    log = _holding()
    log.path("ann", "EW", 1, 0)
    bob = log.line + 1
    log.raw({"type": "play_path", "player": "bob", "card": "NESW", "x": 2, "y": 0, "rotated": False} | extra)
    log.draw("bob")
    log.path("cem", "EW", 3, 0)
    field = "at" if "at" in extra else "comment"  # pydantic names the time first
    assert codes(log) == [("malformed", bob)]
    assert names(run(log.lines).findings[0], field)
    assert (2, 0) in log.round.maze.cells


@pytest.mark.parametrize(
    "line",
    [
        {"type": "play_path", "player": "bob", "card": "NESW", "x": 2, "y": 0, "rotated": "no", "comment": "x"},
        {"type": "play_path", "player": "bob", "card": "NESW", "x": 2, "rotated": False, "at": "now"},
        {"type": "play_tool", "player": "bob", "card": "break_pick", "target": 7, "tool": None, "at": "now"},
    ],
    ids=["and-a-wrong-type", "and-a-missing-field", "and-a-target-of-the-wrong-type"],
)
def test_a_line_with_any_other_error_too_is_not_applied(line: dict[str, Any]) -> None:
    """Only a stray field or a bad time leaves the event whole: with any other error
    besides, the line states no card laid or tool broken, and none is; the card play
    still took bob's turn (a card of his hand went, whichever it was), so his draw
    after it is the turn's."""
    log = _holding()
    log.path("ann", "EW", 1, 0)
    held = list(log.hand("bob"))
    log.raw(line)
    log.draw("bob")
    assert [code for code, _ in codes(log)] == ["malformed"]
    assert (2, 0) not in log.round.maze.cells
    assert not log.round.broken.get("cem") and len(log.hand("bob")) == len(held)


def _holding() -> LogBuilder:
    """A tournament table of six, ann to start, holding what the tests above play."""
    hands = {"ann": ["EW"], "bob": ["NESW", "break_pick"], "cem": ["EW"]}
    return LogBuilder(players=6, ruleset="tournament").deal(start="ann", hands=hands)


def test_a_tool_card_with_a_null_tool_is_malformed_and_applied() -> None:
    """Only a double repair needs its ``tool``: on any other tool card a ``tool`` (null
    included) is malformed, and the card itself says what it does, so it is played (it
    was dropped, and the next player's turn was judged out of turn)."""
    log = _holding()
    log.path("ann", "EW", 1, 0)
    line = log.line + 1
    log.raw({"type": "play_tool", "player": "bob", "card": "break_pick", "target": "cem", "tool": None})
    log.draw("bob")
    log.path("cem", "EW", 2, 0)  # with a broken pick: R-A2
    assert codes(log) == [("malformed", line), ("path_with_broken_tool", log.line - 1)]


@pytest.mark.parametrize(
    ("claim", "field"),
    [
        ({"scores": {"ann": "0"}}, "scores.ann"),
        ({"scores": None}, "scores"),
        ({"scores": [0, 0]}, "scores"),
    ],
    ids=["a-score-as-a-string", "scores-null", "scores-a-list"],
)
def test_a_round_ended_with_a_malformed_claim_still_ends_the_round(claim: dict[str, Any], field: str) -> None:
    """The round did end; only the claim is malformed, once, at its field, and judged
    no further. The line was dropped: the round stayed open, and the next deal was
    "round_started while round 1 is still open"."""
    log = LogBuilder(players=6, rounds=2).deal().pass_out()
    ended = log.outcome()
    scores = ended["scores"] | claim["scores"] if isinstance(claim["scores"], dict) else claim["scores"]
    log.raw({"type": "round_ended", "round": 1, **ended, "scores": scores})
    line = log.line
    log.deal(round=2).pass_out().end_round().end_game()
    result = run(log)
    assert [(f.code.value, f.line) for f in result.findings] == [("malformed", line)], [
        f.describe() for f in result.findings
    ]
    assert names(result.findings[0], field)
    assert [o.round for o in result.outcomes] == [1, 2]


@pytest.mark.parametrize("totals", [None, {"ann": "0"}, [0]], ids=["null", "a-total-as-a-string", "a-list"])
def test_a_game_ended_with_malformed_totals_ends_the_game(totals: object) -> None:
    """A game_ended whose totals are malformed is still the game's end: one finding, and
    no ``incomplete`` saying the log stops before its game_ended."""
    log = LogBuilder(players=6, rounds=1).deal().pass_out().end_round()
    log.raw({"type": "game_ended", "totals": totals if not isinstance(totals, dict) else {"ann": "0"}})
    result = run(log)
    assert [(f.code.value, f.line) for f in result.findings] == [("malformed", log.line)], [
        f.describe() for f in result.findings
    ]


def test_a_missing_field_is_malformed() -> None:
    malformed(started().raw({"type": "play_path", "player": "ann", "card": "EW", "x": 1, "y": 0}), "rotated")


@pytest.mark.parametrize("value", ["1", True, 1.0, 1.5, None, 51])
def test_a_wrong_value_for_an_integer_is_malformed(value: object) -> None:
    log = LogBuilder(players=6, ruleset="tournament").deal(start="ann", hands={"ann": ["EW"]})
    line = {"type": "play_path", "player": "ann", "card": "EW", "x": value, "y": 0, "rotated": False}
    malformed(log.raw(line), "x")


@pytest.mark.parametrize("field", ["x", "round", "scores"])
def test_a_whole_number_written_with_a_fraction_is_malformed_and_applied_as_recorded(field: str) -> None:
    """event-log.md: the replay goes on "with the event as recorded wherever the event
    can still be applied". ``1.0`` is a wrong type for an integer, and still records 1:
    dropped, a placement written so left every later card of the maze with no path to
    the start, and a deal so left every line of its round reported as coming before any
    round_started (15 findings for one)."""
    log = LogBuilder(players=6, ruleset="tournament", rounds=1)
    log.deal(start="ann", hands={"ann": ["EW"], "bob": ["EW"]})
    log.path("ann", "EW", 1, 0).path("bob", "EW", 2, 0)
    log.pass_out().end_round().end_game()
    lines = list(log.lines)
    at = {"x": 2, "round": 1, "scores": len(lines) - 2}[field]  # the first placement, the deal, the claim
    shown = json.loads(lines[at])
    if field == "scores":
        shown["scores"] = {p: float(v) for p, v in shown["scores"].items()}
    else:
        shown[field] = float(shown[field])
    lines[at] = json.dumps(shown)
    assert codes(lines) == [("malformed", at + 1)], [f.describe() for f in errors(lines)]
    assert run(lines).outcomes == run(log.lines).outcomes


@pytest.mark.parametrize("value", [1, 0, "true", None])
def test_a_wrong_value_for_a_boolean_is_malformed(value: object) -> None:
    line = {"type": "play_path", "player": "ann", "card": "EW", "x": 1, "y": 0, "rotated": value}
    malformed(started().raw(line), "rotated")


def test_a_number_as_a_string_in_round_started_is_malformed() -> None:
    log = LogBuilder(players=6).deal(round="1")  # type: ignore[arg-type]
    malformed(log, "round")


def test_duplicate_keys_are_malformed() -> None:
    malformed(started().raw('{"type":"discard","player":"ann","card":"map","card":"EW"}'), "card")


def test_a_key_written_twice_with_one_value_is_malformed_and_its_event_applied() -> None:
    """event-log.md: a key twice in one object is ``malformed``; written twice with the
    same value, the line still states its event, and the replay goes on "with the event
    as recorded wherever the event can still be applied". A deal written so was thrown
    away, and every line of its round reported as coming before any round_started (106
    findings for one slip); a discard, and the turn's draw and the next turns went
    wrong after it."""
    log = started()
    card = log.hand("ann")[0]
    log.raw(f'{{"type":"discard","player":"ann","card":"{card}","card":"{card}"}}')
    log.draw("ann").discard(log.turn)
    assert codes(log) == [("malformed", 3)]
    assert names(one_finding(run(log), "malformed", 3), "card")

    deal = LogBuilder(players=5, ruleset="tournament", rounds=1)
    deal.deal(start="ann").pass_out().end_round().end_game()
    lines = list(deal.lines)
    lines[1] = (
        lines[1].replace('"round": 1,', '"round": 1, "round": 1,', 1).replace('"round":1,', '"round":1,"round":1,', 1)
    )
    assert lines[1] != deal.lines[1]
    result = run(lines)
    assert [(f.code.value, f.line) for f in result.findings] == [("malformed", 2)]
    assert [o.round for o in result.outcomes] == [1]

    differ = (
        lines[1]
        .replace('"round": 1, "round": 1,', '"round": 1, "round": 2,', 1)
        .replace('"round":1,"round":1,', '"round":1,"round":2,', 1)
    )
    assert ("malformed", 3) in codes([lines[0], differ, *lines[2:]])  # two values: no deal to apply


def test_a_key_written_twice_beside_an_unknown_field_is_applied_as_any_malformed_line_is() -> None:
    """The key written twice to one value, and a field the format does not know: the
    line still states its event, as a line with the unknown field alone does
    (``events.logfile._salvaged``); one ``malformed`` finding, the turn goes on."""
    log = started()
    card = log.hand("ann")[0]
    log.raw(f'{{"type":"discard","player":"ann","card":"{card}","card":"{card}","comment":"x"}}')
    log.draw("ann").discard(log.turn)
    assert codes(log) == [("malformed", 3)]


def test_duplicate_keys_in_a_nested_object_are_malformed() -> None:
    log = LogBuilder(players=6).deal()
    deal = log.lines.pop()
    doubled = deal.replace('"roles":{"ann":"gold_digger",', '"roles":{"ann":"gold_digger","ann":"saboteur",', 1)
    assert doubled != deal
    assert "ann" in malformed(log.raw(doubled)).message


def test_an_integer_of_thousands_of_digits_is_malformed_in_words_for_a_referee() -> None:
    """Valid JSON that no field can hold: said so, not as "not JSON" with advice to
    raise a Python interpreter's limit."""
    line = '{"type":"play_path","player":"ann","card":"EW","x":' + "9" * 5000 + ',"y":0,"rotated":false}'
    finding = malformed(started().raw(line))
    assert finding.message == "a number of more than 4,300 digits: no field holds one"


def test_nan_is_not_json() -> None:
    malformed(started().raw('{"type":"play_path","player":"ann","card":"EW","x":NaN,"y":0,"rotated":false}'))


def test_a_card_not_in_the_catalogue_is_malformed() -> None:
    malformed(started().raw({"type": "discard", "player": "ann", "card": "joker"}), "card")


def test_a_card_not_in_the_catalogue_in_a_hand_is_malformed() -> None:
    log = LogBuilder(players=6).deal(hands={"ann": ["joker"]})
    assert names(malformed(log), "hands.ann.0")


def test_a_player_not_at_the_table_is_malformed() -> None:
    malformed(started().raw({"type": "discard", "player": "zed", "card": "map"}), "player")


def test_a_target_not_at_the_table_is_malformed() -> None:
    malformed(started().raw({"type": "play_tool", "player": "ann", "card": "break_pick", "target": "zed"}), "target")


def test_a_goal_slot_that_does_not_exist_is_malformed() -> None:
    malformed(started().raw({"type": "play_map", "player": "ann", "card": "map", "goal": "left"}), "goal")


def test_a_role_that_does_not_exist_is_malformed() -> None:
    log = LogBuilder(players=6)
    roles = {p: "gold_digger" for p in log.players} | {"dia": "king"}
    log.deal(roles=roles)
    malformed(log, "roles.dia")


def test_a_set_aside_role_that_does_not_exist_is_malformed() -> None:
    malformed(LogBuilder(players=["ann", "bob", "cem"], ruleset="base").deal(set_aside="king"), "set_aside_role")


def test_null_for_an_optional_field_is_malformed() -> None:
    log = started()
    malformed(log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": None}), "at")


def test_null_for_tool_is_malformed() -> None:
    log = _holding().path("ann", "EW", 1, 0)
    line = {"type": "play_tool", "player": "bob", "card": "break_pick", "target": "cem", "tool": None}
    malformed(log.raw(line), "tool")


def test_a_timestamp_that_is_not_rfc_3339_is_malformed() -> None:
    log = started()
    malformed(log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": "29/11/2026 14:03"}), "at")


def test_timestamps_may_carry_offsets_and_fractions() -> None:
    log = started(at="2026-11-29T14:03:11Z")
    log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": "2026-11-29T15:03:12.25+01:00"})
    log.raw({"type": "draw", "player": "ann", "card": log.round.top_of_pile, "at": "2026-11-29T14:03:13Z"})
    assert codes(log) == []


def test_timestamps_going_backwards_are_malformed() -> None:
    log = started(at="2026-11-29T14:03:11Z")
    line = {"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": "2026-11-29T14:03:10Z"}
    malformed(log.raw(line), "at")


def test_each_step_back_in_time_is_one_finding_and_the_lines_after_it_are_judged_from_it() -> None:
    """A time typed an hour ahead (line 3): the next true time (line 4) goes back from it
    and is reported; the lines after it, judged against it, are not (each against the
    line before it, not against the typing error)."""
    log = started(at="2026-11-29T14:03:11Z")
    times = ["2026-11-29T15:03:12Z", "2026-11-29T14:03:13Z", "2026-11-29T14:03:14Z", "2026-11-29T14:03:14Z"]
    log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": times[0]})
    log.raw({"type": "draw", "player": "ann", "card": log.round.top_of_pile, "at": times[1]})
    log.raw({"type": "discard", "player": "bob", "card": log.hand("bob")[0], "at": times[2]})
    log.raw({"type": "draw", "player": "bob", "card": log.round.top_of_pile, "at": times[3]})
    assert codes(log) == [("malformed", 4)]


@pytest.mark.parametrize(
    ("leap", "after"),
    [("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z"), ("2017-01-01T00:59:60.5+01:00", "2017-01-01T00:00:01Z")],
)
def test_a_leap_second_is_a_time_rfc_3339_allows(leap: str, after: str) -> None:
    log = started(at="2016-12-31T23:59:59Z")
    log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": leap})
    log.raw({"type": "draw", "player": "ann", "card": log.round.top_of_pile, "at": after})
    assert codes(log) == []


@pytest.mark.parametrize(
    ("before", "after", "back"),
    [
        ("2016-12-31T23:59:60.5Z", "2017-01-01T00:00:00Z", False),  # the leap second is before midnight
        ("2016-12-31T23:59:60.5Z", "2016-12-31T23:59:60.7Z", False),
        ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59.9999999Z", True),
        ("2016-12-31T23:59:60.10Z", "2016-12-31T23:59:60.1Z", False),  # one instant, written two ways
        ("2016-12-31T23:59:60.0Z", "2016-12-31T23:59:60Z", False),
        ("2026-11-29T14:03:11.0000009Z", "2026-11-29T14:03:11.0000001Z", True),  # past a datetime's digits
        ("2026-11-29T14:03:11.0000001Z", "2026-11-29T14:03:11.00000010Z", False),
        ("2026-11-29T14:03:11.1234561Z", "2026-11-29T15:03:11.1234562+01:00", False),
    ],
)
def test_times_are_ordered_to_their_last_digit(before: str, after: str, back: bool) -> None:
    """event-log.md: times never go backwards, RFC 3339 times with any number of digits
    in the fraction and a leap second. A datetime keeps six digits, so a step back of a
    tenth of a microsecond passed; a leap second counted as the next day's first, so a
    log that went on at midnight was said to go backwards."""
    log = started(at="2016-12-31T23:59:59Z")
    log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": before})
    log.raw({"type": "draw", "player": "ann", "card": log.round.top_of_pile, "at": after})
    assert codes(log) == ([("malformed", log.line)] if back else [])


def test_a_leap_second_that_does_not_end_a_utc_day_is_not_a_real_time() -> None:
    log = started()
    malformed(log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": "2016-12-31T12:00:60Z"}))


@pytest.mark.parametrize(
    ("first", "at", "clean"),
    [
        ("0001-01-01T00:00:00+01:00", "0001-01-01T00:59:60+01:00", True),  # 0000-12-31T23:59:60Z
        ("9999-12-31T22:00:00-01:00", "9999-12-31T22:59:60-01:00", True),  # 9999-12-31T23:59:60Z
        ("9999-12-31T22:00:00-01:00", "9999-12-31T23:59:60-01:00", False),  # 10000-01-01T00:59:60Z
        ("0001-01-01T00:00:00+01:00", "0001-01-01T00:30:60+01:00", False),
    ],
)
def test_a_leap_second_whose_utc_day_lies_past_the_years_1_to_9999_is_judged_not_crashed_on(
    first: str, at: str, clean: bool
) -> None:
    """A leap second's minute was found in UTC by moving the moment there, which raised
    OverflowError for a UTC moment before the year 1 or after 9999: a traceback from
    ``saboteur audit``, a file the ingest could not audit, a 500 from the referee page."""
    log = started(at=first)
    line = log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": at})
    if clean:
        assert codes(log) == []
    else:
        malformed(line, "at")


@pytest.mark.parametrize("offset", ["+01:60", "-00:99", "+24:00", "+99:00"])
def test_an_offset_past_23_59_is_malformed(offset: str) -> None:
    """RFC 3339 section 5.6: an offset is a time-hour (00–23) and a time-minute (00–59);
    ``+01:60`` passed as 61 minutes."""
    log = started(at="2026-11-29T14:03:11Z")
    line = {"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": f"2026-11-29T16:03:12{offset}"}
    malformed(log.raw(line), "at")


def test_timestamps_going_backwards_across_offsets_are_malformed() -> None:
    log = started(at="2026-11-29T14:03:11Z")
    line = {"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": "2026-11-29T15:03:10+01:00"}
    malformed(log.raw(line), "at")


# -- fields the rest of the log rules out -------------------------------------------------


def test_gold_cards_in_tournament_is_malformed() -> None:
    log = started().pass_out()
    log.end_round(gold_cards={p: [] for p in log.players})
    malformed(log, "gold_cards")


def test_gold_cards_missing_in_base_is_malformed() -> None:
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base").deal().pass_out()
    outcome = log.outcome()
    del outcome["gold_cards"]
    log.raw({"type": "round_ended", "round": 1, **outcome})
    malformed(log, "gold_cards")


def tooled(card: str) -> LogBuilder:
    """Round 1 with ann holding ``card`` and bob's pick broken by fay, so that the play
    itself is possible and only its `tool` field is wrong."""
    log = LogBuilder(players=6, ruleset="tournament")
    log.deal(start="fay", hands={"fay": ["break_pick"], "ann": [card]})
    return log.tool("fay", "break_pick", "bob")


def test_a_tool_on_a_single_repair_is_malformed() -> None:
    line = {"type": "play_tool", "player": "ann", "card": "repair_pick", "target": "bob", "tool": "pick"}
    malformed(tooled("repair_pick").raw(line), "tool")


def test_a_tool_on_a_broken_tool_card_is_malformed() -> None:
    line = {"type": "play_tool", "player": "ann", "card": "break_lamp", "target": "bob", "tool": "lamp"}
    malformed(tooled("break_lamp").raw(line), "tool")


def test_a_double_repair_without_a_tool_is_malformed() -> None:
    line = {"type": "play_tool", "player": "ann", "card": "repair_pick_lamp", "target": "bob"}
    malformed(tooled("repair_pick_lamp").raw(line), "tool")


def test_a_double_repair_naming_a_tool_it_cannot_mend_is_malformed() -> None:
    line = {"type": "play_tool", "player": "ann", "card": "repair_pick_lamp", "target": "bob", "tool": "cart"}
    malformed(tooled("repair_pick_lamp").raw(line), "tool")


@pytest.mark.parametrize("tool", [None, "axe"])
def test_a_double_repair_with_a_null_or_unknown_tool_is_one_finding(tool: str | None) -> None:
    """A double repair's ``tool`` written ``null`` was two findings, the first wrong ("may
    be left out but not null": it may not, here); one that is no tool was two as well.
    Each is one finding now: the null in the game's words, the unknown tool as itself."""
    line = {"type": "play_tool", "player": "ann", "card": "repair_pick_lamp", "target": "bob", "tool": tool}
    finding = malformed(tooled("repair_pick_lamp").raw(line), "tool")
    if tool is None:
        assert "say which" in finding.message and "left out" not in finding.message


def test_a_null_gold_cards_in_base_is_one_finding_and_ends_the_round() -> None:
    """A base round_ended with ``"gold_cards": null``: the map is due (one finding, in
    the game's words, not "may be left out"), and the round still ends: the next deal
    is no "round_started while round 1 is still open"."""
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base").deal().pass_out()
    log.raw({"type": "round_ended", "round": 1, **log.outcome(), "gold_cards": None})
    ended = log.line
    log.deal(start="ann")
    assert [(c, line) for c, line in codes(log) if c == "malformed"] == [("malformed", ended)]
    finding = one_finding(run(log), "malformed", ended)
    assert names(finding, "gold_cards") and "left out" not in finding.message


@pytest.mark.parametrize("also", [{"comment": "x"}, {"scores": "all zero"}])
def test_a_null_gold_cards_beside_another_fault_still_ends_the_round(also: dict[str, Any]) -> None:
    """The line's other fault (an unknown field, a claim of the wrong type) is said; the
    null claim beside it left the event dropped, and the round open."""
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base").deal().pass_out()
    log.raw({"type": "round_ended", "round": 1, **log.outcome(), "gold_cards": None, **also})
    ended = log.line
    log.deal(start="ann")
    assert [(c, line) for c, line in codes(log) if c == "malformed"] == [("malformed", ended)]


def test_a_null_gold_cards_in_tournament_may_be_left_out() -> None:
    log = started().pass_out()
    log.end_round(gold_cards=None)
    assert "left out" in malformed(log, "gold_cards").message


def dealt_without(player: str, field: str) -> LogBuilder:
    """Round 1 dealt with ``player`` left out of the map ``field``."""
    log = LogBuilder(players=6).deal()
    deal = json.loads(log.lines.pop())
    del deal[field][player]
    return LogBuilder(players=6).raw(deal)


@pytest.mark.parametrize("field", ["roles", "hands"])
def test_a_player_missing_from_a_deal_map_is_malformed(field: str) -> None:
    log = dealt_without("dia", field)
    assert ("malformed", 2) in codes(log)
    finding = one_finding(run(log), "malformed", 2)
    assert names(finding, field)
    assert "dia" in finding.message


def test_a_player_missing_from_scores_is_malformed() -> None:
    log = started().pass_out()
    outcome = log.outcome()
    del outcome["scores"]["dia"]
    log.raw({"type": "round_ended", "round": 1, **outcome})
    assert "dia" in malformed(log, "scores").message


@pytest.mark.parametrize("card", [True, 1.0])
def test_a_gold_card_written_as_a_boolean_or_a_fraction_is_malformed(card: object) -> None:
    """event-log.md: `gold_cards` lists the nugget cards 1, 2, 3, and a wrong value type is
    malformed, as in every other integer field. ``true`` and ``1.0`` equal 1 in Python,
    and a literal 1 let both pass: ``true`` was counted as a 1-nugget card."""
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base").deal().pass_out()
    outcome = log.outcome()
    (taker,) = [p for p, cards in outcome["gold_cards"].items() if 1 in cards]
    outcome["gold_cards"][taker] = [card if c == 1 else c for c in outcome["gold_cards"][taker]]
    log.raw({"type": "round_ended", "round": 1, **outcome})
    finding = malformed(log)
    assert (finding.field or "").startswith(f"gold_cards.{taker}."), finding.describe()


def test_a_player_missing_from_gold_cards_is_malformed() -> None:
    log = LogBuilder(players=["ann", "bob", "cem"], ruleset="base").deal().pass_out()
    outcome = log.outcome()
    del outcome["gold_cards"]["bob"]
    log.raw({"type": "round_ended", "round": 1, **outcome})
    malformed(log, "gold_cards")


def test_a_player_missing_from_totals_is_malformed() -> None:
    log = LogBuilder(players=6, rounds=1).deal().pass_out().end_round()
    totals = {p: t for p, t in log.state.totals().items() if p != "dia"}
    malformed(log.end_game(totals=totals), "totals")


def test_a_player_not_at_the_table_in_scores_is_malformed() -> None:
    log = started().pass_out()
    outcome = log.outcome()
    outcome["scores"]["zed"] = 0
    log.raw({"type": "round_ended", "round": 1, **outcome})
    malformed(log, "scores.zed")


def test_an_action_card_in_play_path_is_malformed() -> None:
    line = {"type": "play_path", "player": "ann", "card": "map", "x": 1, "y": 0, "rotated": False}
    malformed(started().raw(line), "card")


def test_a_tunnel_card_in_play_tool_is_malformed() -> None:
    malformed(started().raw({"type": "play_tool", "player": "ann", "card": "NESW", "target": "bob"}), "card")


def test_a_wrong_card_in_play_rockfall_and_play_map_is_malformed() -> None:
    malformed(started().raw({"type": "play_rockfall", "player": "ann", "card": "map", "x": 1, "y": 0}), "card")
    malformed(started().raw({"type": "play_map", "player": "ann", "card": "rockfall", "goal": "top"}), "card")


def test_a_setup_card_code_not_in_the_catalogue_is_malformed() -> None:
    malformed(LogBuilder(players=6).deal(setup=("joker", False)), "setup_card.card")


# -- events out of sequence ------------------------------------------------------------------


def test_a_turn_before_the_first_round_started_is_malformed() -> None:
    malformed(LogBuilder(players=6).raw({"type": "discard", "player": "ann", "card": "map"}))


def test_a_draw_or_reveal_before_the_first_round_started_is_malformed() -> None:
    malformed(LogBuilder(players=6).raw({"type": "draw", "player": "ann", "card": "map"}))
    malformed(LogBuilder(players=6).reveal("top"))


def test_round_ended_before_the_first_round_started_is_malformed() -> None:
    scores = dict.fromkeys(SIX, 0)
    line = {"type": "round_ended", "round": 1, "winner": "nobody", "connector": None, "scores": scores}
    malformed(LogBuilder(players=6).raw(line))


def test_round_started_while_a_round_is_open_is_malformed() -> None:
    malformed(started().discard("ann").deal(round=2), "round")


def test_a_first_round_numbered_2_is_malformed() -> None:
    malformed(LogBuilder(players=6).deal(round=2), "round")


def test_round_numbers_out_of_order_are_malformed() -> None:
    malformed(started().pass_out().end_round().deal(round=3), "round")


def test_a_repeated_round_number_is_malformed() -> None:
    malformed(started().pass_out().end_round().deal(round=1), "round")


def test_a_round_beyond_the_planned_rounds_is_malformed() -> None:
    finding = malformed(LogBuilder(players=6, rounds=1).deal().pass_out().end_round().deal(round=2), "round")
    assert finding.round == 2  # the round the line starts, as its deal's findings name it


@pytest.mark.parametrize("number", [0, -1, 5, 2**31 - 1, 2**31, -(2**63), 2**64])
def test_a_round_numbered_outside_1_to_4_is_malformed_once_and_still_played(number: int) -> None:
    """event-log.md: ``round`` is an integer, "1, 2, … in order"; one out of order or
    beyond ``rounds`` is malformed, and the replay goes on with the event as recorded.
    A number outside 1–4 was refused as a wrong value: the whole deal was dropped, its
    round's every card judged "before the first round_started", its result lost (a
    bound of 2**31 did the same to the numbers past it). The round is the game's first,
    as it is counted: its round_ended, which wrote the same number, is not a second
    finding."""
    log = LogBuilder(players=6, rounds=1).deal(round=number).pass_out()
    log.end_round(round=number)
    log.end_game()
    result = run(log)
    assert codes(log) == [("malformed", 2)], [f.describe() for f in result.findings]
    assert "round 1 is due" in result.findings[0].message
    assert [outcome.round for outcome in result.outcomes] == [1]
    assert result.findings[0].round == 1


@pytest.mark.parametrize("number", [2, 2**31, 2**64])
def test_every_finding_of_a_misnumbered_deal_names_the_round_as_counted(number: int) -> None:
    """A deal written as round ``number`` with a time that is no day and a stranger to
    start: each finding of its line names round 1, the round it starts; the number as
    written (past what the store's round column holds) stays in the message."""
    log = LogBuilder(players=6, rounds=1)
    deal = json.loads(log.deal(round=number).lines[1])
    deal.update(at="2026-02-30T10:00:00Z", start_player="zed")
    lines = [log.lines[0], json.dumps(deal)]
    findings = run(lines).findings
    assert {f.round for f in findings if f.line == 2} == {1}, [f.describe() for f in findings]
    assert len([f for f in findings if f.line == 2]) >= 3


def test_a_round_written_twice_is_one_finding_and_the_next_round() -> None:
    """A round_started that writes round 1 again after round 1 ended: malformed at its
    line, once, and the round is played as round 2, whose round_ended may say 2 (what
    was meant) or 1 (what its start wrote). Before, it was a second round 1: every
    later line of round numbers was malformed too, and the two results of one number
    broke the ingest of every file stored beside it (the read model's key)."""
    for ended in (2, 1):
        log = started().pass_out().end_round().deal(round=1).pass_out().end_round(round=ended)
        log.deal(round=3).pass_out().end_round().end_game()
        result = run(log)
        assert [(f.code.value, f.round) for f in result.findings] == [("malformed", 2)]
        assert [outcome.round for outcome in result.outcomes] == [1, 2, 3]


def test_every_finding_of_a_round_started_line_names_the_round_it_starts() -> None:
    """A deal written as round 3 after round 1 (out of order) with a hand too small:
    both findings of its line name the round it starts, the game's second."""
    log = started().pass_out().end_round()
    log.deal(round=3, hands={"ann": ["map"]}, fill=False, pile=["NESW"])
    assert {(f.code.value, f.round) for f in run(log.lines).findings if f.line == log.line} >= {
        ("malformed", 2),
        ("bad_hand_size", 2),
    }


def test_round_ended_for_another_round_is_malformed() -> None:
    malformed(started().pass_out().end_round(round=2), "round")


@pytest.mark.parametrize(
    "line",
    [
        {"type": "discard", "player": "ann", "card": "map"},
        {"type": "game_ended", "totals": dict.fromkeys(SIX, 0)},
        {"type": "round_started"},
        "not json",
    ],
)
def test_anything_after_game_ended_is_malformed(line: dict[str, Any] | str) -> None:
    """Malformed, and of no round: the game is over. It named the last round, which
    then counted as a round with errors (``stats --clean-only`` left it out for a stray
    line after the game)."""
    log = LogBuilder(players=6, rounds=1).deal().pass_out().end_round().end_game()
    assert codes(log) == []
    finding = malformed(log.raw(line))
    assert finding.round is None
    assert not run(log).errors_by_round.get(1)


def test_a_game_ended_line_s_own_malformed_finding_is_of_no_round() -> None:
    """The game_ended line belongs to the game, as its wrong totals do (round ``null``):
    a malformed one (a total of a player missing) left the last round with an error."""
    log = LogBuilder(players=6, rounds=1).deal().pass_out().end_round()
    totals = {p: t for p, t in log.state.totals().items() if p != SIX[-1]}
    finding = malformed(log.raw({"type": "game_ended", "totals": totals}), "totals")
    assert finding.round is None


def test_a_file_that_stops_mid_turn_is_only_incomplete() -> None:
    log = started().discard("ann").discard("bob", draw=False)  # bob's draw never comes
    result = run(log)
    assert result.status == "clean"
    assert [(f.code.value, f.line, f.severity) for f in result.findings] == [("incomplete", log.line, "warning")]


def test_a_file_that_stops_before_a_reveal_is_only_incomplete() -> None:
    log = LogBuilder(players=6).deal(start="ann", hands={p: ["EW", "NESW"] for p in ["ann", "bob", "cem"]})
    for player, x, card in [("ann", 1, "EW"), ("bob", 2, "EW"), ("cem", 3, "EW")]:
        log.path(player, card, x, 0)
    log.pass_until("ann").path("ann", "NESW", 5, 0).path("bob", "NESW", 6, 0)
    log.path("cem", "NESW", 7, 0, draw=False)  # reaches the gold; the file stops
    result = run(log)
    assert result.status == "clean"
    assert [(f.code.value, f.line) for f in result.findings] == [("incomplete", log.line)]


def test_a_file_that_stops_after_a_round_is_only_incomplete() -> None:
    log = started().pass_out().end_round()
    result = run(log)
    assert result.status == "clean"
    assert [(f.code.value, f.line) for f in result.findings] == [("incomplete", log.line)]
    assert [o.round for o in result.outcomes] == [1]


def test_a_violation_does_not_stop_the_audit() -> None:
    log = started()
    log.raw({"type": "discard", "player": "ann", "card": "joker"})
    log.discard("ann").raw({"type": "discard", "player": "bob", "card": "map", "colour": "red"})
    assert [c for c in codes(log) if c[0] == "malformed"] == [("malformed", 3), ("malformed", 6)]


def the_event_applied_anyway(case: str) -> tuple[LogBuilder, int]:
    """A log with one line whose only fault is a malformed field that does not stop
    the event from being applied as recorded, then the lines that follow it."""
    if case == "at going backwards":
        log = started(at="2026-11-29T14:03:11Z")
        log.raw({"type": "discard", "player": "ann", "card": log.hand("ann")[0], "at": "2026-11-29T14:03:10Z"})
        return log.draw("ann").discard("bob"), 3
    if case == "tool on a broken-tool card":
        log = LogBuilder(players=6).deal(start="ann", hands={"ann": ["break_pick"]})
        log.tool("ann", "break_pick", "bob", tool="pick")
        return log.discard("bob"), 3
    log = started().pass_out()
    outcome = log.outcome()
    if case == "gold_cards in tournament":
        outcome["gold_cards"] = {p: [] for p in SIX}
    else:  # a player missing from scores
        del outcome["scores"]["dia"]
    log.raw({"type": "round_ended", "round": 1, **outcome})
    bad = log.line
    return log.deal(round=2), bad


@pytest.mark.parametrize(
    "case",
    [
        pytest.param("at going backwards"),
        pytest.param("tool on a broken-tool card"),
        pytest.param("gold_cards in tournament"),
        pytest.param("scores missing a player"),
    ],
)
def test_a_malformed_field_does_not_cascade(case: str) -> None:
    """Violations: "after a violation it goes on with the event as recorded wherever
    the event can still be applied" - one bad field, findings at that line only."""
    log, bad = the_event_applied_anyway(case)
    result = run(log)
    one_finding(result, "malformed", bad)
    assert {f.line for f in result.findings if f.severity == "error"} == {bad}
    if "round_ended" in log.lines[bad - 1]:
        assert [o.round for o in result.outcomes] == [1]


def test_a_report_is_always_unicode_text() -> None:
    """``"\\ud800"`` is valid JSON but no Unicode character; what the report says
    about it must still encode as UTF-8 (the CLI prints it)."""
    log = started().raw('{"type":"discard","player":"ann","card":"map","\\ud800":1,"\\ud800":2}')
    result = run(log)
    one_finding(result, "malformed", 3)
    json.dumps(result.report().model_dump(), ensure_ascii=False).encode("utf-8")


def _a_played_round() -> LogBuilder:
    """Round 1 of six: two placements with their draws, then passes to the round's end."""
    log = LogBuilder(players=6, ruleset="tournament", rounds=1)
    log.deal(start="ann", hands={"ann": ["EW"], "bob": ["EW"]})
    log.path("ann", "EW", 1, 0).path("bob", "EW", 2, 0)
    return log.pass_out().end_round().end_game()


@pytest.mark.parametrize("field", ["hands", "draw_pile"])
def test_a_deal_with_a_card_code_that_is_none_is_malformed_and_its_round_still_played(field: str) -> None:
    """event-log.md: unknown codes are malformed, and the replay goes on with the event
    wherever it can still be applied. A deal with one mistyped card threw the whole
    round away: every line of it was reported as coming before any round_started, and
    the game as ended after none of its rounds. Now the round is played with those
    cards counted, not read, as an observed log's are."""
    log = _a_played_round()
    lines = list(log.lines)
    deal = json.loads(lines[1])
    if field == "hands":
        deal["hands"]["cem"][0] = "joker"
    else:
        deal["draw_pile"][-1] = "NESW "
    lines[1] = json.dumps(deal)
    assert codes(lines) == [("malformed", 2)], [f.describe() for f in errors(lines)]
    (finding,) = errors(lines)
    assert finding.round == 1 and (finding.field or "").startswith(field)
    assert run(lines).outcomes == run(log.lines).outcomes


@pytest.mark.parametrize(
    "roles",
    [
        pytest.param(lambda roles: {**roles, "cem": "king"}, id="a role that is none"),
        pytest.param(lambda roles: {**roles, "cem": 2}, id="a role that is a number"),
        pytest.param(lambda roles: list(roles.values()), id="a list, not a map"),
        pytest.param(None, id="left out"),
    ],
)
def test_a_deal_whose_roles_cannot_be_read_is_malformed_and_its_round_still_played(roles: Any) -> None:
    """One role of the deal mistyped ("king"), or the roles not a map of them: the line
    was dropped, and every line of its round after it was reported as coming before any
    round_started (106 findings in a simulated game). The round is played with its roles
    unknown, as a full log whose roles are null is: the maze, the turns and the cards
    judged, the round's scores not (they rest on the roles)."""
    log = _a_played_round()
    lines = list(log.lines)
    deal = json.loads(lines[1])
    if roles is None:
        del deal["roles"]
    else:
        deal["roles"] = roles(deal["roles"])
    lines[1] = json.dumps(deal)
    assert codes(lines) == [("malformed", 2)], [f.describe() for f in errors(lines)]
    (finding,) = errors(lines)
    assert finding.round == 1 and (finding.field or "").startswith("roles"), finding.describe()
    unknown = json.loads(lines[1])
    unknown["roles"] = None  # the same round as a full log with its roles null
    lines[1] = json.dumps(unknown)
    assert codes(lines) == [("malformed", 2)]
    assert run([*lines[:1], json.dumps(deal), *lines[2:]]).outcomes == run(lines).outcomes


def test_a_log_that_leaves_out_its_nulls_is_one_malformed_finding_a_line_and_judged_the_same() -> None:
    """event-log.md: "a field that may be null is present, with null". A tool that
    leaves out what is null (an observed log's roles, goals, hands and pile, a
    tournament's set-aside role, a draw's unseen card, a note's player, a round's
    connector) lost every deal it wrote: each round thrown away, its lines reported as
    coming before any round_started. Each such line is malformed once now, and read
    with the field null: the game is judged as the log with its nulls written."""
    log = _a_played_round()
    log.note("other", note="a card shown by mistake")  # a referee's note of no player
    for played in (list(log.lines), [line.decode() for line in observe_lines(line.encode() for line in log.lines)]):
        lines, left_out = [], []
        for number, line in enumerate(played, start=1):
            event = json.loads(line)
            nulls = NULL_IF_LEFT_OUT.get(event["type"], frozenset())
            kept = {key: value for key, value in event.items() if not (key in nulls and value is None)}
            if kept != event:
                left_out.append(("malformed", number))
            lines.append(json.dumps(kept))
        assert len(left_out) >= 2, left_out  # the deal (its set-aside role) and the note, at least
        assert codes(lines) == left_out, [f.describe() for f in errors(lines)]
        assert run(lines).outcomes == run(played).outcomes


@pytest.mark.parametrize("gold", [False, True], ids=["played out", "the gold reached"])
@pytest.mark.parametrize("slip", ["a tunnel card", "a slot left out"])
def test_a_deal_whose_goals_cannot_be_read_is_malformed_and_its_round_still_played(slip: str, gold: bool) -> None:
    """One goal of the deal written as a tunnel card, or left out: the line was dropped,
    and every line of its round after it reported as coming before any round_started
    (104 findings for one slip). The round is played with its goals known as they are
    turned up, as an observed log's are: the gold from the round_ended that names its
    connector."""
    if gold:
        log, _ = tournament_gold("bob")
        log.end_round()
    else:
        log = _a_played_round()
    lines = list(log.lines)
    deal = json.loads(lines[1])
    if slip == "a tunnel card":
        deal["goals"]["top"] = "NESW"
    else:
        del deal["goals"]["top"]
    lines[1] = json.dumps(deal)
    assert codes(lines) == [("malformed", 2)], [f.describe() for f in errors(lines)]
    (finding,) = errors(lines)
    assert (finding.round, finding.field) == (1, "goals.top")
    if slip == "a tunnel card":  # in the reader's words, not the schema library's
        assert finding.message == "field `goals.top`: 'NESW' is not a goal card"
        assert finding.said is not None and "erwartet wird eine Zielkarte" in words(finding.said, "de")
    assert run(lines).outcomes == run(log.lines).outcomes


@pytest.mark.parametrize("observed", [False, True], ids=["full", "observed"])
@pytest.mark.parametrize("kind", ["draw", "discard"])
@pytest.mark.parametrize(
    "card",
    [
        pytest.param("jocker", id="a code that names no card"),
        pytest.param(5, id="a number"),
        pytest.param(["NS"], id="a list"),
        pytest.param(None, id="left out"),
    ],
)
def test_a_drawn_or_discarded_card_that_cannot_be_read_is_malformed_and_the_card_still_moves(
    kind: str, card: object, observed: bool
) -> None:
    """A draw whose card is no code of the deck was dropped: the turn was reported for a
    missed draw, and each later draw for not taking the pile's top card (a full log: 68
    findings for one slip; a discard dropped, the draw after it "before the turn's
    card", the next player out of turn, and a wrong score at the round's end). It is a
    draw of whichever card was on top (a discard: of whichever card it was), in a full
    log and an observed one, whether the card is a code that names none, of another
    type, or left out."""
    log = _a_played_round()
    played = [line.decode() for line in observe_lines(line.encode() for line in log.lines)] if observed else log.lines
    lines = list(played)
    at = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)
    shown = json.loads(lines[at])
    lines[at] = json.dumps(
        {**shown, "card": card} if card is not None else {k: v for k, v in shown.items() if k != "card"}
    )
    assert codes(lines) == [("malformed", at + 1)], [f.describe() for f in errors(lines)]
    (finding,) = errors(lines)
    assert finding.field == "card" and finding.player is None, finding.describe()
    assert run(lines).outcomes == run(played).outcomes


@pytest.mark.parametrize(
    "slip",
    [
        pytest.param({"card": "WE"}, id="a card code that names no card"),
        pytest.param({"x": 51}, id="a cell off the maze"),
        pytest.param({"rotated": "yes"}, id="a field of the wrong type"),
        pytest.param({"type": "play_tool", "target": "ann"}, id="a tunnel card as a tool card"),
        pytest.param({"player": "zed"}, id="a player not at the table"),
    ],
)
def test_a_card_play_that_cannot_be_applied_still_takes_its_turn(slip: dict[str, Any]) -> None:
    """A card played whose line is malformed past applying was dropped: the turn had no
    card, so its draw was "before the turn's card" (wrong_draw), the hand kept a card
    too many to the round's end, and one slip made several findings. Its turn is taken:
    a card of the hand goes, nothing is laid (bob's is the last placement of the round,
    so nothing after it leans on it), and the slip is one finding, at its line."""
    log = _a_played_round()
    lines = list(log.lines)
    at = max(i for i, line in enumerate(lines) if json.loads(line)["type"] == "play_path")
    lines[at] = json.dumps({**json.loads(lines[at]), **slip})
    if slip.get("player") == "zed":  # not whose turn it was, nor anyone's: one finding, and the turn not taken
        assert ("malformed", at + 1) in codes(lines) and codes(lines).count(("malformed", at + 1)) == 1
        return
    assert codes(lines) == [("malformed", at + 1)], [f.describe() for f in errors(lines)]
    played = run(lines)
    assert played.outcomes == run(log.lines).outcomes  # bob's card reached no goal: the round ends the same


@pytest.mark.parametrize("where", ["after the round's end", "before the first round"])
def test_a_card_play_that_cannot_be_applied_out_of_a_rounds_turns_is_its_one_finding(where: str) -> None:
    """Out of a round's turns a card play has no turn to take: taken for one, its line
    was its malformed finding and "discard after round 1 ended" (a line that was a
    play_path, stored as a discard), or "discard before the first round_started" (a
    second malformed of the line). It is the line's one finding, as it was before card
    plays took their turns; the same play readable is the rules' own finding."""
    log = _a_played_round()
    lines = list(log.lines)
    types = [json.loads(line)["type"] for line in lines]
    at = types.index("round_ended") + 1 if where == "after the round's end" else 1
    play = {"type": "play_path", "player": "cem", "card": "EW", "x": 3, "y": 0, "rotated": False}
    readable = [*lines[:at], json.dumps(play), *lines[at:]]
    malformed = [*lines[:at], json.dumps({**play, "card": "WE"}), *lines[at:]]
    assert codes(malformed) == [("malformed", at + 1)], [f.describe() for f in errors(malformed)]
    assert all("discard" not in f.message for f in errors(malformed))
    if where == "after the round's end":
        assert codes(readable) == [("play_after_round_end", at + 1)]


@pytest.mark.parametrize(
    ("line", "english", "german"),
    [
        (b"hello", "not JSON at column 1: a value was expected", "kein JSON in Spalte 1: ein Wert wurde erwartet"),
        (b'{"type" "x"}', "not JSON at column 9: a colon was expected", "kein JSON in Spalte 9: ein Doppelpunkt"),
        (b'{"type":"discard"} x', "not JSON at column 20: more follows the JSON value", "nach dem JSON-Wert"),
    ],
)
def test_a_line_that_is_not_json_says_where_and_why_in_the_readers_language(
    tmp_path: Path, line: bytes, english: str, german: str
) -> None:
    """The decoder's own English ("Expecting ':' delimiter: line 1 column 9 (char 8)")
    stood inside the German sentence: its reasons are the catalogue's now."""
    result = audit_file(write(tmp_path, text(started()) + line + b"\n"))
    (found,) = [f for f in result.findings if f.code.value == "malformed"]
    assert found.message == english
    assert found.said is not None and german in words(found.said, "de")


@pytest.mark.parametrize("at", ["2026-11-29T14:03:10Z", "2026-02-30T14:03:11Z"], ids=["backwards", "no such day"])
def test_a_round_started_line_s_time_is_a_finding_of_the_round_it_starts(at: str) -> None:
    """The findings of a deal's line name the round it starts, as its other fields' do
    (a time written wrongly was round 2's, one before the last line's or of no real day
    was round 1's, and at the first deal no round's)."""
    log = LogBuilder(players=6, ruleset="tournament", at="2026-11-29T14:03:11Z")
    log.deal(start="ann", at=at).pass_out().end_round(at="2026-11-29T15:00:00Z")
    log.deal(start="ann", at=at)
    found = [(f.code, f.line, f.round) for f in errors(log) if f.field == "at"]
    assert found == [("malformed", 2, 1), ("malformed", len(log.lines), 2)]


@pytest.mark.parametrize(
    ("line", "english", "german"),
    [
        (
            {"type": "play_rockfall", "player": "ann", "card": "rockfall", "x": 51, "y": 0},
            "field `x`: 51 is not a number up to 50",
            "erwartet wird eine Zahl bis 50",
        ),
        (
            {"type": "play_map", "player": "ann", "card": "map", "goal": "center"},
            "field `goal`: 'center' is not one of top, middle, bottom",
            "einer der Werte top, middle, bottom",
        ),
        (
            {"type": "play_path", "player": "ann", "card": "EW", "x": 1.5, "y": 0, "rotated": False},
            "field `x`: 1.5 is not a whole number",
            "eine ganze Zahl",
        ),
        (
            {"type": "play_path", "player": "ann", "card": "EW", "x": 1, "y": 0, "rotated": "no"},
            "field `rotated`: 'no' is not true or false",
            "true oder false",
        ),
        (
            {"type": "discard", "player": 5, "card": "map"},
            "field `player`: 5 is not a text in quotes",
            "ein Text in Anführungszeichen",
        ),
        (
            {"type": "referee_note", "player": None, "error": "other", "note": "x" * 600},
            "field `note`: 600 characters, where at most 500 fit",
            "600 Zeichen, wo höchstens 500 passen",
        ),
        (
            {"type": "play_path", "player": "ann", "card": "EW", "x": "1" * 1000, "y": 0, "rotated": False},
            f"field `x`: '{'1' * 58}… is not a whole number",
            "eine ganze Zahl",
        ),
        (
            {"type": "play_path", "player": "ann", "card": "EW", "x": 1.0, "y": 0, "rotated": False},
            "field `x`: 1.0 is a whole number written with a fraction or an exponent",
            "1.0 ist eine ganze Zahl, mit Nachkommastellen oder Exponent geschrieben",
        ),
        (
            {"type": "play_path", "player": "ann", "card": "EW", "x": 1, "y": 0, "rotated": None},
            "field `rotated`: null is not true or false",
            "null passt nicht: erwartet wird true oder false",
        ),
    ],
    ids=[
        "over its range",
        "no such value",
        "a fraction",
        "not true or false",
        "not a text",
        "too long",
        "cut",
        "whole, with a fraction",
        "null, as JSON",
    ],
)
def test_a_value_of_the_wrong_kind_is_said_in_the_reader_s_language(
    line: dict[str, Any], english: str, german: str
) -> None:
    """A field of the wrong type, range or value was said in the schema library's
    English ("Input should be less than or equal to 50") under every language; it is
    a sentence of the catalogue, naming the value (cut short if long) and what fits."""
    (finding,) = [f for f in errors(started().raw(line)) if f.code == "malformed"]
    assert finding.message == english
    assert finding.said is not None and german in words(finding.said, "de")


@pytest.mark.parametrize("name", ["game.txt", "game.csv", "game.json", "game"])
def test_a_log_under_another_name_is_no_log_to_the_audit_as_to_the_ingest(tmp_path: Path, name: str) -> None:
    """event-log.md: a log is ``.jsonl`` (or ``.jsonl.gz``); ``saboteur ingest`` refuses
    any other name. A valid log named ``game.txt`` was clean to ``saboteur audit``: the
    two commands gave the same file two verdicts."""
    result = audit_file(write(tmp_path, text(started()), name))
    finding = unreadable(result)
    assert ".jsonl" in finding.message
    assert audit_file(write(tmp_path, text(started()), "game.JSONL")).status != "unreadable"
    link = tmp_path / "stdin"  # /dev/stdin, the shell given "< game.jsonl": a link to the log
    link.symlink_to(write(tmp_path, text(started()), "linked.jsonl"))
    assert audit_file(link).status != "unreadable"
