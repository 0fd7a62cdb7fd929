"""Reading and writing log files, with the limits of event-log.md.

Reading is bounded: a file is never read past 16 MiB (decompressed), a line past
64 KiB is refused before it is parsed, and every failure becomes a :class:`LineError`
naming the line and the field instead of an exception. Parsing a line is one
``json.loads`` (with duplicate keys and non-JSON constants refused) and one strict
pydantic validation.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError

from events.schema import EVENT_ADAPTER, EVENT_TYPES, Event, dump_event

MAX_FILE_BYTES: Final = 16 * 1024 * 1024
MAX_LINE_BYTES: Final = 64 * 1024
BOM: Final = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class LineError:
    """Why one line is not a valid event: the field (if one) and a message."""

    message: str
    field: str | None = None


@dataclass(frozen=True, slots=True)
class LogLine:
    """One numbered line of a log: the event it holds, or why it holds none."""

    number: int
    event: Event | None
    error: LineError | None = None


class UnreadableLog(Exception):
    """The file cannot be read as a log at all (event-log.md, "Audit report")."""

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


_DECODER: Final = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def read_bytes(path: Path) -> bytes:
    """The file's content, decompressed for ``.gz``, at most 16 MiB.

    Raises :class:`UnreadableLog` for a file over the limit or a ``.gz`` that is not
    gzip; never reads more than the limit plus one byte.
    """
    try:
        if path.name.endswith(".gz"):
            try:
                with gzip.open(path, "rb") as stream:
                    data = stream.read(MAX_FILE_BYTES + 1)
            except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
                raise UnreadableLog(f"not a gzip file ({exc})") from None
            if len(data) > MAX_FILE_BYTES:
                raise UnreadableLog("decompresses to more than 16 MiB, the limit of a log")
            return data
        if path.stat().st_size > MAX_FILE_BYTES:
            raise UnreadableLog(f"{path.stat().st_size:,} bytes: more than 16 MiB, the limit of a log")
        with path.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise UnreadableLog(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableLog("more than 16 MiB, the limit of a log")
    return data


def split_lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """Numbered raw lines: a leading BOM dropped, ``\\r\\n`` or ``\\n`` ends, a trailing
    newline allowed (it does not start an extra, empty line)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data:
        return
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        yield number, raw[:-1] if raw.endswith(b"\r") else raw


def _describe_validation(exc: ValidationError) -> LineError:
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = [str(part) for part in first["loc"]]
    if loc and loc[0] in EVENT_TYPES:  # the discriminator's own level
        loc = loc[1:]
    if first["type"] in ("function-after", "value_error") and loc:
        loc = [part for part in loc if not part.startswith("function-")]
    field = ".".join(loc) or None
    message = str(first["msg"]).removeprefix("Value error, ")
    kind = first["type"]
    if kind == "union_tag_invalid":
        tag = first.get("ctx", {}).get("tag")
        return LineError(f"unknown event type {tag!r}", "type")
    if kind == "union_tag_not_found":
        return LineError("every line needs a string `type`", "type")
    if kind == "missing":
        return LineError(f"field `{field}` is missing", field)
    if kind == "extra_forbidden":
        return LineError(f"unknown field `{field}`", field)
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    where = f"field `{field}`: " if field else ""
    return LineError(f"{where}{message}{more}", field)


def parse_line(number: int, raw: bytes | str) -> LogLine:
    """One line as an event, or the reason it is not one (never raises)."""
    size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
    if size > MAX_LINE_BYTES:
        return LogLine(number, None, LineError(f"line of {size:,} bytes: over the 64 KiB limit"))
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return LogLine(number, None, LineError(f"not UTF-8 (byte {exc.start + 1})"))
    else:
        text = raw
    if not text.strip():
        return LogLine(number, None, LineError("blank line: a log has one JSON object on every line"))
    try:
        obj = _DECODER.decode(text)
    except _DuplicateKey as exc:
        return LogLine(number, None, LineError(f"key `{exc}` appears twice in one object", str(exc)))
    except RecursionError:
        return LogLine(number, None, LineError("JSON nested too deeply"))
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        return LogLine(number, None, LineError(f"not JSON: {exc}"))
    if not isinstance(obj, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(obj), "a number")
        return LogLine(number, None, LineError(f"{kind}, not a JSON object"))
    try:
        event = EVENT_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        return LogLine(number, None, _describe_validation(exc))
    except RecursionError:
        return LogLine(number, None, LineError("JSON nested too deeply"))
    return LogLine(number, event)


def parse_lines(lines: Iterable[bytes | str]) -> Iterator[LogLine]:
    """Parse numbered lines (1, 2, …) as they come."""
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, str):
            raw = raw.removesuffix("\n").removesuffix("\r")
        elif isinstance(raw, bytes):
            raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        yield parse_line(number, raw)


def read_log(path: Path) -> Iterator[LogLine]:
    """Every line of a log file, parsed; :class:`UnreadableLog` if it cannot be read."""
    data = read_bytes(path)
    if not data.removeprefix(BOM):
        raise UnreadableLog("empty file: a log starts with a game_started line")
    for number, raw in split_lines(data):
        yield parse_line(number, raw)


def write_log(events: Iterable[Event], path: Path | None = None) -> str:
    """Events as JSON Lines (one compact object a line, ``\\n`` ends); written to
    ``path`` when given. Reading the result gives the same events back."""
    text = "".join(dump_event(event) + "\n" for event in events)
    if path is not None:
        if path.name.endswith(".gz"):
            with gzip.open(path, "wt", encoding="utf-8", newline="") as stream:
                stream.write(text)
        else:
            path.write_text(text, encoding="utf-8", newline="")
    return text
