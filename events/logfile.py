"""Reading and writing log files, with the limits of event-log.md.

Reading is bounded: a file is never read past 16 MiB (decompressed), a line past
64 KiB is refused before it is parsed, and every failure becomes a :class:`LineError`
naming the line and the field instead of an exception. Parsing a line is one
``json.loads`` (with duplicate keys and non-JSON constants refused) and one strict
pydantic validation.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Final, cast

import orjson
from pydantic import ValidationError

from events import structs
from events.folders import cannot_read
from events.said import Refusal, Said, problem, say, sentence
from events.schema import (
    CARD_KINDS,
    EVENT_ADAPTER,
    EVENT_TYPES,
    EVENTS_ADAPTER,
    NULL_IF_LEFT_OUT,
    Event,
    dump_event,
    keys_in,
    null_fields,
)

MAX_FILE_BYTES: Final = 16 * 1024 * 1024
MAX_LINE_BYTES: Final = 64 * 1024
BOM: Final = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class LineError:
    """Why one line is not a valid event: the field (if one), a message in English and
    the sentence it was made from (:mod:`events.said`), for another language."""

    message: str
    field: str | None = None
    said: Said | None = None
    turn_taken: bool = False
    """The line's event is not what it says but the turn its card play still took
    (:func:`_turn_taken`): applied only in a round's turns, where a turn is there to take."""
    null: bool = False
    """The error is a ``null`` written in an optional ``field`` whose event still stands:
    where the game says more of that field (a base round's gold cards are due; a double
    repair names its tool), the replay says that instead (:mod:`events.replay`)."""

    def __reduce__(self) -> tuple[type[LineError], tuple[object, ...]]:
        """Rebuilt through ``__init__`` (see :meth:`events.state.Outcome.__reduce__`)."""
        return LineError, (self.message, self.field, self.said, self.turn_taken, self.null)

    @property
    def sentence(self) -> Said:
        """What is wrong as a sentence (the English message as it is, if none was kept)."""
        return self.said if self.said is not None else problem(self.message)


def _wrong(said: Said, field: str | None = None) -> LineError:
    """A line's error from its sentence."""
    return LineError(said.english(), field, said)


@dataclass(slots=True, unsafe_hash=True)
class LogLine:
    """One numbered line of a log: the event it holds, or why it holds none.

    Made for every line read and never changed after; not ``frozen``, because a frozen
    dataclass is built three times slower, which the audit of a log pays on every line.
    """

    number: int
    event: Event | None
    error: LineError | None = None


class UnreadableLog(Exception):
    """The file cannot be read as a log at all (event-log.md, "Audit report"): why, as
    a sentence (:mod:`events.said`; a text is kept as it is) and in English."""

    def __init__(self, message: str | Said, line: int = 1) -> None:
        said = message if isinstance(message, Said) else problem(message)
        super().__init__(said.english())
        self.said = said
        self.message = said.english()
        self.line = line

    def __reduce__(self) -> tuple[type[UnreadableLog], tuple[object, ...]]:
        """Pickled with its sentence (a worker's verdict crosses to the writer whole)."""
        return UnreadableLog, (self.said, self.line)


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
    raise Refusal(say("%(given)s is not a JSON number", given=name))


_DECODER: Final = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


def read_bytes(path: Path) -> bytes:
    """The file's content, decompressed for ``.gz``, at most 16 MiB.

    Raises :class:`UnreadableLog` for a file over the limit or a ``.gz`` that is not
    gzip. The file is measured before it is read (a compressed file larger than the
    limit cannot hold a log within it), and a compressed one is inflated a mebibyte at
    a time and abandoned as soon as it passes the limit.
    """
    try:
        with open_regular(path) as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise UnreadableLog(say("%(size)s bytes: more than 16 MiB, the limit of a log", size=size))
            raw = stream.read(size + 1)
    except OSError as exc:
        raise UnreadableLog(cannot_read(path, exc)) from None
    return inflate(raw, path.name)


def open_regular(path: Path, *, follow_links: bool = True) -> io.BufferedReader:
    """``path`` opened for reading, refused unless it is a regular file.

    A FIFO, a device or a socket named on the command line would block a plain
    ``open`` (or never end), so the file is opened without blocking and judged by what
    was opened, not by a name that could change in between. Raises :class:`OSError`
    (``strerror`` says why) for anything that is not a regular file, and without
    ``follow_links`` for a symbolic link (whatever it points to is not opened).
    """
    if not follow_links and os.path.islink(path):
        raise OSError(0, "a symbolic link: not followed (name the file it points to)")
    nofollow = 0 if follow_links else getattr(os, "O_NOFOLLOW", 0)  # a link put in its place meanwhile
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | nofollow)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe, device or socket"
            raise OSError(0, f"not a regular file ({kind})")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def inflate(raw: bytes, name: str) -> bytes:
    """Bytes received under ``name`` as the log text: decompressed for ``.gz``, at most
    16 MiB (the same limits as :func:`read_bytes`, for bytes already in memory)."""
    if len(raw) > MAX_FILE_BYTES:
        raise UnreadableLog(say("%(size)s bytes: more than 16 MiB, the limit of a log", size=len(raw)))
    if not name.lower().endswith(".gz"):  # a name in capitals too: LOG.JSONL.GZ
        return raw
    return _gunzip(raw)


GZIP_MAGIC: Final = b"\x1f\x8b"


def _gunzip(raw: bytes) -> bytes:
    """The text of a gzip file: its members one after another (zero bytes between them
    or at the end are padding, as gzip writes them), inflated a mebibyte at a time.

    A file cut short (a copy or an upload broken off) is read as far as it goes, as a
    plain log cut short is: the lines before the cut are audited, and the file ends
    there, before ``game_ended`` (``incomplete``). A file that is not gzip, or whose
    stream is damaged, cannot be read as a log."""
    chunks: list[bytes] = []
    size = 0
    rest = raw
    while True:
        if not rest.startswith(GZIP_MAGIC):
            problem = f"Not a gzipped file ({rest[:2]!r})"
            raise UnreadableLog(say("not a gzip file (%(problem)s)", problem=problem))
        member = zlib.decompressobj(wbits=31)
        tail = rest
        while not member.eof:
            try:
                chunk = member.decompress(tail, 1 << 20)
            except zlib.error as exc:
                raise UnreadableLog(say("not a gzip file (%(problem)s)", problem=str(exc))) from None
            tail = member.unconsumed_tail
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                raise UnreadableLog(say("decompresses to more than 16 MiB, the limit of a log"))
            chunks.append(chunk)
            if not chunk and not tail and not member.eof:  # the bytes ran out inside the member: cut short
                if not size:
                    problem = "Compressed file ended before the end-of-stream marker was reached"
                    raise UnreadableLog(say("not a gzip file (%(problem)s)", problem=problem))
                return b"".join(chunks)
        rest = member.unused_data.lstrip(b"\0")
        if not rest:
            return b"".join(chunks)


def split_lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """Numbered raw lines: a leading BOM dropped, ``\\r\\n`` or ``\\n`` ends, a trailing
    newline allowed (it does not start an extra, empty line).

    Lines are cut one at a time as they are asked for, never all at once: 16 MiB of
    one-byte lines would be 16 million objects.
    """
    stream = io.BytesIO(data)  # shares ``data``: nothing is copied
    if data.startswith(BOM):
        stream.seek(len(BOM))
    for number, raw in enumerate(stream, start=1):
        line = raw[:-1] if raw.endswith(b"\n") else raw
        yield number, line[:-1] if line.endswith(b"\r") else line


_PATTERN_WORDS: Final = {
    "at": sentence("an RFC 3339 timestamp such as 2026-11-29T14:03:11Z"),
    "game_id": sentence("an id of 1–128 characters A-Z a-z 0-9 _ . : -"),
    "tournament": sentence("an id of 1–128 characters A-Z a-z 0-9 _ . : -"),
}


_WANTED: Final = {
    "int_type": sentence("a whole number"),
    "bool_type": sentence("true or false"),
    "string_type": sentence("a text in quotes"),
    "dict_type": sentence("an object { … }"),
    "model_type": sentence("an object { … }"),
    "list_type": sentence("a list [ … ]"),
}
"""What a value of the wrong JSON type should have been, by pydantic's error type."""
_ALLOWED: Final = re.compile(r"'((?:[^'\\]|\\.)*)'")
"""One allowed value in pydantic's ``expected`` of a literal (``"'top', 'middle' or 'bottom'"``)."""
_SHOWN: Final = 60
"""Characters of a wrong value shown in its finding; a longer one is cut."""


def _shown(value: object) -> str:
    """A wrong value as written: a text in quotes, anything else as JSON (``null``,
    ``true``, ``{"a": 1}``), cut after :data:`_SHOWN` characters: a field may hold 64
    KiB, and the finding names it, not copies it."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _in_our_words(error: Any) -> Said | None:
    """A validation error of the common kinds as a sentence of the catalogue, so a reader
    of another language reads it in theirs (pydantic's messages are English); ``None``
    for the rest. The card fields and the patterns are said more precisely after."""
    kind, given, ctx = error["type"], error.get("input"), error.get("ctx") or {}
    wanted: Said | None = None
    if kind == "int_type" and _whole_number(given):  # 3.0 for 3: read as the number it records
        return say("%(given)s is a whole number written with a fraction or an exponent", given=_shown(given))
    if kind in _WANTED:
        wanted = say(_WANTED[kind])
    elif kind == "literal_error":
        allowed = _ALLOWED.findall(str(ctx.get("expected", "")))
        if allowed:
            wanted = say("one of %(allowed)s", allowed=", ".join(allowed))
    elif kind == "less_than_equal" and "le" in ctx:
        wanted = say("a number up to %(most)s", most=ctx["le"])
    elif kind == "greater_than_equal" and "ge" in ctx:
        wanted = say("a number from %(least)s", least=ctx["ge"])
    elif kind == "string_too_long" and isinstance(given, str) and "max_length" in ctx:
        return say("%(length)s characters, where at most %(most)s fit", length=len(given), most=ctx["max_length"])
    elif kind == "too_long" and isinstance(given, list | dict) and "max_length" in ctx:
        return say("%(count)s entries, where at most %(most)s fit", count=len(given), most=ctx["max_length"])
    if wanted is None:
        return None
    return say("%(given)s is not %(wanted)s", given=_shown(given), wanted=(wanted,))


def said_of(error: Any) -> Said:
    """One validation error of pydantic's as a sentence: a validator's own (a time, a
    player twice), else :func:`_in_our_words`, else pydantic's English as it is. Shared
    by a log's lines and the commands' records (:func:`analytics.records.stream.shaped`)."""
    refusal = (error.get("ctx") or {}).get("error")
    if isinstance(refusal, Refusal):
        return refusal.said
    return _in_our_words(error) or problem(str(error["msg"]).removeprefix("Value error, "))


def _describe_validation(exc: ValidationError) -> LineError:
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = [str(part) for part in first["loc"]]
    event_type = loc[0] if loc and loc[0] in EVENT_TYPES else None
    if event_type is not None:  # the discriminator's own level
        loc = loc[1:]
    if first["type"] in ("function-after", "value_error") and loc:
        loc = [part for part in loc if not part.startswith("function-")]
    field = ".".join(loc) or None
    kind = first["type"]
    if kind == "union_tag_invalid":
        given = first.get("input")
        if isinstance(given, dict) and not isinstance(given.get("type"), str):  # 5, null, a list: no type at all
            return _wrong(say("every line needs a string `type`"), "type")
        tag = first.get("ctx", {}).get("tag")
        return _wrong(say("unknown event type %(given)s", given=repr(tag)), "type")
    if kind == "union_tag_not_found":
        return _wrong(say("every line needs a string `type`"), "type")
    if kind == "missing":
        return _wrong(say("field `%(field)s` is missing", field=str(field)), field)
    if kind == "extra_forbidden":
        return _wrong(say("unknown field `%(field)s`", field=str(field)), field)
    said = said_of(first)
    if (
        kind == "literal_error"
        and loc
        and (loc[-1] == "card" or loc[0] in ("hands", "draw_pile", "setup_card", "goals"))
    ):
        deck = sentence("a card code of the game (docs/log-format.md, Card codes)")
        if loc[0] == "goals":  # a deal's goal
            wanted = CARD_KINDS["goal_revealed"]
        else:
            wanted = CARD_KINDS.get(event_type or "", deck) if loc[-1] == "card" else deck
        said = say("%(given)s is not %(wanted)s", given=_shown(first["input"]), wanted=(say(wanted),))
    elif kind == "string_pattern_mismatch":
        wanted = _PATTERN_WORDS.get(loc[-1] if loc else "", sentence("an allowed value"))
        said = say("%(given)s is not %(wanted)s", given=_shown(first["input"]), wanted=(say(wanted),))
    if field:
        said = say("field `%(field)s`: %(problem)s", field=field, problem=(said,))
    if len(errors) > 1:
        said = say(
            "%(problem)s (and %(count)s more problem)",
            "%(problem)s (and %(count)s more problems)",
            "count",
            problem=(said,),
            count=len(errors) - 1,
        )
    return _wrong(said, field)


def _key_count(obj: object) -> int:
    """Keys in every object of a decoded JSON value."""
    if type(obj) is dict:
        return len(obj) + sum(_key_count(v) for v in obj.values() if type(v) in (dict, list))
    if type(obj) is list:
        return sum(_key_count(v) for v in obj if type(v) in (dict, list))
    return 0


_QUOTE_THEN_SPACE: Final = re.compile(rb'"[ \t\r\n]')


def _quote_then_space(data: bytes) -> bool:
    """Whether whitespace follows a quote somewhere (a key count by ``":`` would miss
    ``"key" :``). A compact line holds no whitespace at all, which four byte searches
    tell far faster than the pattern."""
    spaced = b" " in data or b"\t" in data or b"\r" in data or b"\n" in data
    return spaced and _QUOTE_THEN_SPACE.search(data) is not None


_LONG_NUMBER: Final = re.compile(rb"[0-9]{19}")
"""Digits enough for an integer that orjson would not keep whole (see :func:`_decode`)."""


def _decode(raw: bytes) -> object:
    """Decode one JSON line, refusing duplicate keys, ``NaN`` and the like.

    orjson decodes; duplicate keys (which it silently merges) are ruled out by counting:
    in a line without a backslash no string can hold a quote, so every ``":`` ends a
    key, and their number must equal the keys decoded. Lines where that count is not
    exact (backslashes, whitespace before a colon) or that fail go the slow, exact way:
    the standard decoder with a hook that names the duplicate key. So do lines with a
    run of 19 digits or more: orjson makes an integer past 64 bits a float, silently
    (``18446744073709551616`` became ``1.8446744073709552e+19``, "not a whole number",
    of a round number that is one), where the standard decoder keeps it whole.
    """
    if b"\\" not in raw and not _quote_then_space(raw) and _LONG_NUMBER.search(raw) is None:
        try:
            obj = orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
        else:
            if raw.count(b'":') == _key_count(obj):
                return obj
    return _DECODER.decode(raw.decode("utf-8"))


_NOT_AN_OBJECT: Final[dict[type, str]] = {
    list: sentence("an array, not a JSON object"),
    str: sentence("a string, not a JSON object"),
    bool: sentence("a boolean, not a JSON object"),
    type(None): sentence("null, not a JSON object"),
    float: sentence("a number, not a JSON object"),
}
"""What a line holds instead of an object, by its decoded type (an int is a number too)."""


_JSON_PROBLEMS: Final[dict[str, str]] = {
    "Expecting value": sentence("a value was expected"),
    "Expecting property name enclosed in double quotes": sentence("a key in double quotes was expected"),
    "Expecting ',' delimiter": sentence("a comma was expected"),
    "Expecting ':' delimiter": sentence("a colon was expected"),
    "Unterminated string starting at": sentence("a string starting here is not closed"),
    "Invalid control character at": sentence("a control character inside a string"),
    "Extra data": sentence("more follows the JSON value"),
    "Invalid \\escape": sentence("a backslash escape that JSON does not have"),
    "Invalid \\uXXXX escape": sentence("a \\u escape without four hexadecimal digits"),
}
"""The standard decoder's reasons, in words a catalogue translates: its own English
stood inside a Dutch or German sentence."""


def _not_json(exc: ValueError) -> Said:
    """Why a line is not JSON, and where: the column the decoder stopped at."""
    if isinstance(exc, json.JSONDecodeError) and exc.msg in _JSON_PROBLEMS:
        why = _JSON_PROBLEMS[exc.msg]
        return say("not JSON at column %(column)s: %(problem)s", column=exc.colno, problem=(say(why),))
    return say("not JSON: %(problem)s", problem=(exc.said,) if isinstance(exc, Refusal) else str(exc))


def parse_line(number: int, raw: bytes | str) -> LogLine:
    """One line as an event, or the reason it is not one (never raises)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > MAX_LINE_BYTES:
        return LogLine(number, None, _wrong(say("line of %(size)s bytes: over the 64 KiB limit", size=len(data))))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return LogLine(number, None, _wrong(say("not UTF-8 (byte %(byte)s)", byte=exc.start + 1)))
    if not data.strip():
        return LogLine(number, None, _wrong(say("blank line: a log has one JSON object on every line")))
    if nested_too_deeply(data):
        return LogLine(number, None, _too_deep())
    try:
        obj = _decode(data)
    except _DuplicateKey as exc:
        key = repr(str(exc))
        twice = _wrong(say("key %(key)s appears twice in one object", key=key), str(exc))
        event, took = _twice_the_same(data)
        return LogLine(number, event, _took_turn(twice) if took else twice)
    except RecursionError:
        return LogLine(number, None, _too_deep())
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        if "integer string conversion" in str(exc):  # valid JSON: an integer Python will not read
            return LogLine(number, None, _wrong(say("a number of more than 4,300 digits: no field holds one")))
        return LogLine(number, None, _wrong(_not_json(exc)))
    if not isinstance(obj, dict):
        return LogLine(number, None, _wrong(say(_NOT_AN_OBJECT.get(type(obj), _NOT_AN_OBJECT[float]))))
    if _SURROGATE_ESCAPE.search(data) is not None:
        halved = _half_a_character(obj)
        if halved is not None:
            return _with_half_a_character(number, *halved)
    try:
        event = EVENT_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        salvaged, took = _salvaged(obj, exc)
        error = _describe_validation(exc)
        return LogLine(number, salvaged, _took_turn(error) if took else error)
    except RecursionError:
        return LogLine(number, None, _too_deep())
    if None in obj.values() or "options" in obj:  # only then can an optional field be null
        nulls = null_fields(event)
        if nulls:
            said = say("field `%(field)s` may be left out but not null", field=nulls[0])
            error = LineError(said.english(), nulls[0], said, null=True)
            return LogLine(number, event if _nulls_stand(event) else None, error)
    return LogLine(number, event)


MAX_DEPTH: Final = 32
"""How deep the JSON of a line may nest, the line's object the first level. No event
nests deeper than 3 (a header's ``options.roles``, a deal's ``hands`` and its
``setup_card.turned_over``): a line past this is ``malformed`` as it is, before it is
decoded, so nothing that reads a value (the decoder, the validation, the wording of a
finding, the observed log) meets a depth where Python's recursion gives out."""
_NESTING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
"""A string (or what is left of a line from an opening quote on), or a bracket."""


def nested_too_deeply(data: bytes) -> bool:
    """Whether a line's brackets, outside its strings, nest deeper than :data:`MAX_DEPTH`.

    Judged on the bytes, whether they are valid JSON or not, so the verdict is the same
    whatever the line holds after and however deep the stack it is read from (a
    ``RecursionError`` came at a depth that differed between the compiled core and the
    sources, and between a command and a worker). A line of fewer brackets is told at
    once by counting them."""
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return False
    depth = 0
    for found in _NESTING.finditer(data):
        token = found.group()
        if token == b"[" or token == b"{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token == b"]" or token == b"}":
            depth -= 1
    return False


def _too_deep() -> LineError:
    return _wrong(say("JSON nested more than %(most)s levels deep (no event nests more than 3)", most=MAX_DEPTH))


_SURROGATE_ESCAPE: Final = re.compile(rb"\\u[dD][89a-fA-F]")
"""A ``\\u`` escape of a UTF-16 surrogate: half a character, whole only as a pair."""


_FIRST_HALF: Final = chr(0xD800)
_LAST_HALF: Final = chr(0xDFFF)
"""The surrogates' range (written by number: mypyc takes no surrogate in a literal)."""


def _half_a_character(obj: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """The line's object with every lone surrogate (a ``\\ud800`` escape not paired
    into one character) made U+FFFD, and the top-level field that held the first; or
    ``None`` if there is none. Valid JSON, such an escape is no text: no UTF-8 file,
    DuckDB column or terminal takes it. ``table`` is any string, so the log's reading
    let it through, and the store's writing of the header failed on it, with a traceback."""
    first: list[str] = []

    def mend(value: Any, field: str) -> Any:
        if isinstance(value, str):
            if not any(_FIRST_HALF <= char <= _LAST_HALF for char in value):
                return value
            if not first:
                first.append(field)
            return "".join("\ufffd" if _FIRST_HALF <= char <= _LAST_HALF else char for char in value)
        if isinstance(value, list):
            return [mend(item, field) for item in value]
        if isinstance(value, dict):
            return {mend(key, field): mend(item, field) for key, item in value.items()}
        return value

    mended: dict[str, Any] = {}
    for key, value in obj.items():
        name = mend(key, "")
        mended[name] = mend(value, name)
        if first == [""]:
            first[0] = name
    return (mended, first[0]) if first else None


def _with_half_a_character(number: int, obj: dict[str, Any], field: str) -> LogLine:
    """A line with a lone surrogate in ``field``: malformed there, and its event what
    the line states with each half character made U+FFFD, as a wrong value there
    leaves it (:func:`_salvaged`: an unknown key, a note, a card that names no card), or
    its whole event where the field is free text (a ``table``, a note's ``note``); a
    header so written is not a valid ``game_started``."""
    error = _wrong(
        say("field `%(field)s`: a \\u escape of half a character (a lone surrogate), which is no text", field=field),
        field,
    )
    try:
        event: Event | None = EVENT_ADAPTER.validate_python(obj)
        took = False
    except ValidationError as exc:
        event, took = _salvaged(obj, exc)
    except RecursionError:
        event, took = None, False
    if event is not None and event.type == "game_started":
        event = None
    return LogLine(number, event, _took_turn(error) if took else error)


def _nulls_stand(event: Event) -> bool:
    """Whether the event a line states still stands with the ``null`` written in its
    optional fields: only in its notes and its claims (:data:`_NOTES`, :data:`CLAIMS`),
    whatever else is wrong with the line (a base round's ``gold_cards: null`` beside an
    unknown field left the round open, its event dropped)."""
    standing = (*_NOTES.get(event.type, _NOTES_OF_ANY), *CLAIMS.get(event.type, ()))
    return all(name in standing for name in null_fields(event))


_NOTES_OF_ANY: Final = ("at",)
_NOTES: Final = {"goal_revealed": ("at", "card"), "play_tool": ("at", "tool")}
"""The fields whose wrong value leaves a line's event standing, by the event's type:
its time (a note about the event), the card a reveal showed, which a full log knows
from the deal already (an observed log needs it: the replay applies no such reveal
there), and a tool card's ``tool``, which only a double repair needs (one without it
mends what only it can)."""
CLAIMS: Final = {"round_ended": ("scores", "gold_cards"), "game_ended": ("totals",)}
"""The scorekeeper's maps of every player, by the event's type. A wrong value in one —
a score written ``"0"``, a nugget card of 4, the whole map ``null`` — leaves the line's
event standing without that player's claim (or with none): the round or the game did
end, and only the claim is malformed, judged no further. Dropped, the line left the
round open and the game unfinished, and the next deal or the file's end was judged as
if no round_ended or game_ended had come."""


def _salvaged(obj: dict[str, Any], exc: ValidationError) -> tuple[Event | None, bool]:
    """The event a malformed line still states (:func:`_as_recorded`), or for a card
    played that cannot be, the turn it still took (:func:`_turn_taken`; then ``True``);
    else ``None``."""
    stated = _as_recorded(obj, exc)
    if stated is not None:
        return stated, False
    taken = _turn_taken(obj)
    return taken, taken is not None


def _took_turn(error: LineError) -> LineError:
    return LineError(error.message, error.field, error.said, turn_taken=True, null=error.null)


TURNS_TAKEN: Final = frozenset({"play_path", "play_tool", "play_rockfall", "play_map"})
"""The card plays whose line, malformed past applying (a card code that names no card, or
a card of another kind; a cell off the maze; a goal slot that is none, a target that is
no player id; a field missing or of the wrong type), still took its player's turn: a
card left the hand and the turn's draw follows. (A target not at the table is the
replay's to judge: it applies nothing of the line.)
Dropped, the line left the turn without its card, and one slip was reported again at
the draw after it (drawn "before the turn's card") and at the round's end (a hand a
card too long: the round not over)."""


def _turn_taken(obj: dict[str, Any]) -> Event | None:
    """A card play that cannot be applied (:data:`TURNS_TAKEN`) as the turn it took: a
    card gone from the player's hand, whichever it was, as in a ``discard`` whose card
    cannot be read, and nothing laid, broken, mended or looked at. The line's card is
    not judged against the hand: what the line meant is not known, and its one finding
    is the line's own. ``None`` when the line does not say whose turn it was."""
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in TURNS_TAKEN:  # a list or an object is no type (unhashable)
        return None
    turn = {"type": "discard", "player": obj.get("player"), "card": None}
    for at in ({"at": obj["at"]}, {}) if "at" in obj else ({},):  # its time, else none (said already)
        try:
            return EVENT_ADAPTER.validate_python({**turn, **at})
        except (ValidationError, RecursionError):
            continue
    return None


def _as_recorded(obj: dict[str, Any], exc: ValidationError) -> Event | None:
    """The event a malformed line still states, or ``None``.

    event-log.md has the replay go on "with the event as recorded wherever the event can
    still be applied". A line is malformed but still says everything its event needs
    when all that is wrong is an unknown field (at any depth), one of its notes
    (:data:`_NOTES`: its ``at``, a reveal's ``card``, a tool card's ``tool``) or a
    claim (:data:`CLAIMS`: a player's score or total): without those, it is the event;
    so it is when a field that may be ``null`` is left out
    (:data:`events.schema.NULL_IF_LEFT_OUT`): it is read as ``null``.
    Dropped, the line would leave its play unmade and every later line judged against
    a game that did not happen (a ``comment`` on one placement made each later one
    illegal). Any other error — a field missing, a wrong type or code — leaves no event
    to apply.
    The header is judged by its own rule (a ``game_started`` not valid is unreadable)."""
    paths: list[tuple[str | int, ...]] = []
    kind = str(obj.get("type"))
    notes = _NOTES.get(kind, _NOTES_OF_ANY)
    claims = CLAIMS.get(kind, ())
    emptied: set[str] = set()
    whole: list[tuple[str | int, ...]] = []
    unseen: set[str] = set()
    unreadable = UNSEEN_IF_UNREAD.get(kind, ())
    nullable = NULL_IF_LEFT_OUT.get(kind, frozenset())
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        if loc and loc[0] in EVENT_TYPES:  # the discriminator's own level
            loc = loc[1:]
        if len(loc) == 1 and error["type"] == "missing" and loc[0] in nullable:
            unseen.add(str(loc[0]))  # a field that may be null, left out: read as null
            continue
        if loc and error["type"] == "int_type" and _whole_number(error["input"]):
            whole.append(loc)  # 3.0 for 3: the number it records
            continue
        if loc and loc[0] in unreadable and _unread(loc, error):
            unseen.add(str(loc[0]))  # a card code that is none: the cards there are counted, not read
            continue
        if loc and loc[0] in claims:
            if len(loc) == 1 or not isinstance(obj.get(str(loc[0])), dict):
                emptied.add(str(loc[0]))  # the whole map: nothing claimed
            else:
                paths.append(loc[:2])  # one player's claim
            continue
        if not loc or not (error["type"] == "extra_forbidden" or (len(loc) == 1 and loc[0] in notes)):
            return None
        paths.append(loc)
    paths = [path for path in dict.fromkeys(paths) if str(path[0]) not in emptied | unseen]
    trimmed = _without(obj, paths)
    if trimmed is None:
        return None
    for name in emptied:
        trimmed[name] = {}
    for path in whole:
        if str(path[0]) not in emptied | unseen and not _make_whole(trimmed, path):
            return None
    for name in unseen:
        trimmed[name] = None
    try:
        event = EVENT_ADAPTER.validate_python(trimmed)
    except (ValidationError, RecursionError):
        return None
    if event.type == "game_started" or not _nulls_stand(event):
        return None
    return event


def _twice_the_same(data: bytes) -> tuple[Event | None, bool]:
    """The event a line with a key written twice still states, or ``None`` (and, as
    :func:`_salvaged` says, whether it is the turn a card play took): where every
    key written twice (at any depth) holds the same value each time (``"round":1`` twice
    over), the line says one thing, malformed but applied (event-log.md: the replay goes
    on "with the event as recorded wherever the event can still be applied"). Dropped, a
    deal written so threw its whole round away, each of its lines then reported as
    coming before any round_started. Two values differ, and the line says nothing sure."""
    same = True

    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal same
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj and _as_written(obj[key]) != _as_written(value):
                same = False
            obj[key] = value
        return obj

    try:
        obj = json.JSONDecoder(object_pairs_hook=once, parse_constant=_no_constant).decode(data.decode("utf-8"))
        if not same or not isinstance(obj, dict):
            return None, False
        event = EVENT_ADAPTER.validate_python(obj)
    except ValidationError as exc:  # wrong in another way too: what any malformed line still states
        return _salvaged(obj, exc)
    except (ValueError, RecursionError):
        return None, False
    if event.type == "game_started" or not _nulls_stand(event):
        return None, False
    return event, False


def _as_written(value: Any) -> str:
    """A decoded JSON value as one text, keys sorted: ``1``, ``1.0`` and ``true`` apart."""
    return json.dumps(value, sort_keys=True)


UNSEEN_IF_UNREAD: Final = {
    "round_started": ("hands", "draw_pile", "goals", "roles"),
    "draw": ("card",),
    "discard": ("card",),
}
"""Where a card code that names no card leaves the line's event standing, with the cards
there unknown, by the event's type: a deal's hands or pile are then counted, as an
observed log's are (each card played from them is taken as held, and a draw from the
pile is not compared with its top), its goals known as they are turned up, as an
observed log's are (a goal slot left out is unread too), and a drawn or discarded card
is whichever card it was. A deal's roles that cannot be read (a role that is none, the
map of another type or left out) leave the round played with its roles unknown, as a
full log's ``roles: null`` does (its scores, which rest on them, not judged). Dropped,
one mistyped card or role in a deal threw the whole round away, and every line of it
was reported as coming before any round_started; one in a draw left the draw unmade
and the turn reported for a missed draw."""


def _unread(loc: tuple[str | int, ...], error: Any) -> bool:
    """Whether a validation error at ``loc`` (under a field of :data:`UNSEEN_IF_UNREAD`)
    leaves its cards unread: a code that names no card, a goal slot left out, a deal's
    roles of any wrong kind, or a drawn or discarded card of any wrong kind (left out, a
    number: the line still says whose draw or discard it was; dropped, one such line was
    reported again at each later draw, the pile one card behind, and at the round's end)."""
    if error["type"] == "literal_error" and isinstance(error["input"], str):
        return True
    if loc == ("card",) or loc[0] == "roles":  # a draw's or a discard's card; the roles dealt
        return True
    return error["type"] == "missing" and loc[0] == "goals" and len(loc) == 2


def _whole_number(value: object) -> bool:
    """A JSON number written with a fraction or an exponent that is a whole number
    (``3.0``, ``1e0``): an integer field's value as recorded, though ``malformed``."""
    return type(value) is float and value.is_integer() and abs(value) < 2**63


def _make_whole(value: Any, path: tuple[str | int, ...]) -> bool:
    """Write the whole number at ``path`` of a decoded JSON value as an integer; whether
    the path led to one."""
    *inner, last = path
    for key in inner:
        if not _holds(value, key):
            return False
        value = value[key]
    if _holds(value, last) and _whole_number(value[last]):
        value[last] = int(value[last])
        return True
    return False


def _holds(value: Any, key: str | int) -> bool:
    """Whether a decoded JSON object has the key, or an array the index."""
    if isinstance(value, dict):
        return key in value
    return isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)


def _without(value: Any, paths: list[tuple[str | int, ...]]) -> Any:
    """A copy of a decoded JSON value without the keys at ``paths`` (each a path of
    keys and list indexes to a key of an object); ``None`` if a path leads nowhere."""
    here = [path[0] for path in paths if len(path) == 1]
    deeper: dict[str | int, list[tuple[str | int, ...]]] = {}
    for path in paths:
        if len(path) > 1:
            deeper.setdefault(path[0], []).append(path[1:])
    if isinstance(value, dict):
        if any(key not in value for key in [*here, *deeper]):
            return None
        copied = {key: item for key, item in value.items() if key not in here}
    elif isinstance(value, list) and not here:
        if any(not isinstance(index, int) or not 0 <= index < len(value) for index in deeper):
            return None
        copied = dict(enumerate(value))
    else:
        return None
    for key, rest in deeper.items():
        inner = _without(copied[key], rest)
        if inner is None:
            return None
        copied[key] = inner
    return list(copied.values()) if isinstance(value, list) else copied


BLOCK: Final = 256
"""Lines validated together on the fast path: few enough that a block's events are a
small part of the file, many enough that pydantic's per-call cost vanishes."""


def parse_block(first: int, raws: list[bytes]) -> list[LogLine]:
    """Lines ``first``, ``first + 1``, … parsed together; the same result as
    :func:`parse_line` on each, much faster for well-formed lines.

    The fast path validates the block as one JSON array in a single pydantic call and
    rules out duplicate keys by counting (see :func:`_decode`; ``key_count`` gives the
    keys of a validated event). Any doubt — a blank, long or escaped line, an error, a
    count that does not add up — sends the whole block down the exact line-by-line path.
    """
    joined = _plain_array(raws)
    if joined is not None:
        try:
            events = EVENTS_ADAPTER.validate_json(joined)
        except (ValidationError, ValueError, RecursionError):
            events = None
        if events is not None and len(events) == len(raws) and joined.count(b'":') == keys_in(events):
            lines = list(map(LogLine, range(first, first + len(events)), events))
            if b"null" in joined:  # only then can an optional field be null
                for k, raw in enumerate(raws):
                    if b"null" in raw and null_fields(events[k]):
                        lines[k] = parse_line(first + k, raw)
            return lines
    return [parse_line(first + k, raw) for k, raw in enumerate(raws)]


def _plain_array(raws: list[bytes]) -> bytes | None:
    """The lines joined as one JSON array, when each is a line the fast paths may read:
    not blank, within the line limit, no backslash (so no string holds a quote, and every
    ``":`` ends a key) and no whitespace after a quote; else ``None``."""
    if raws and all(raws) and max(map(len, raws)) <= MAX_LINE_BYTES:
        joined = b"[" + b",".join(raws) + b"]"
        if b"\\" not in joined and not _quote_then_space(joined):
            return joined
    return None


def parse_structs_block(first: int, raws: list[bytes]) -> list[LogLine]:
    """Lines ``first``, ``first + 1``, … read for the audit: the events as msgspec
    Structs (:mod:`events.structs`), several times faster to make than models, with the
    same findings as :func:`parse_block`.

    The same guard as :func:`parse_block`'s fast path; a block msgspec refuses, or
    whose keys do not add up (a key written twice, or a ``null`` where a field may only
    be left out: a Struct counts a field at ``None`` as left out), is parsed by
    :func:`parse_block`, so pydantic words every finding. Line 1 is the header, which
    has no Struct.
    """
    if first == 1 and raws:
        return [parse_line(1, raws[0]), *parse_structs_block(2, raws[1:])]
    joined = _plain_array(raws)
    if joined is not None:
        events = structs.decode_block(joined)
        if (
            events is not None
            and len(events) == len(raws)
            and joined.count(b'":') == structs.keys_in(events)
            and structs.patterns_hold(events)
        ):
            return list(map(LogLine, range(first, first + len(events)), events))
    return parse_block(first, raws)


BlockParser = Callable[[int, list[bytes]], list[LogLine]]
""":func:`parse_block` (events as models) or :func:`parse_structs_block` (as Structs)."""


def parse_numbered(numbered: Iterable[tuple[int, bytes]], block_parser: BlockParser = parse_block) -> Iterator[LogLine]:
    """Numbered raw lines parsed as they come, a block of consecutive lines at a time
    (a gap in the numbers starts a new block): only one block is held at once."""
    block: list[bytes] = []
    start = 1
    for number, raw in numbered:
        if block and (len(block) == BLOCK or number != start + len(block)):
            yield from block_parser(start, block)
            block = []
        if not block:
            start = number
        block.append(raw)
    if block:
        yield from block_parser(start, block)


def _line_bytes(raw: bytes | str) -> bytes:
    """One line as given to :func:`parse_lines`: UTF-8 bytes without its line end."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    return data.removesuffix(b"\n").removesuffix(b"\r")


def _block_bytes(block: list[bytes | str]) -> list[bytes]:
    """Lines as UTF-8 bytes without their line ends: the lines themselves when they are
    bytes without a CR or LF anywhere (one join tells), else each converted."""
    try:
        whole = b"".join(block)  # type: ignore[arg-type]
    except TypeError:  # some lines are text
        pass
    else:
        if b"\n" not in whole and b"\r" not in whole:
            return cast(list[bytes], block)
    return [_line_bytes(raw) for raw in block]


def parse_lines(lines: Iterable[bytes | str], block_parser: BlockParser = parse_block) -> Iterator[LogLine]:
    """Parse numbered lines (1, 2, …) as they come, a block at a time."""
    iterator = iter(lines)
    first = 1
    while block := list(islice(iterator, BLOCK)):
        yield from block_parser(first, _block_bytes(block))
        first += len(block)


def read_log(path: Path, block_parser: BlockParser = parse_block) -> Iterator[LogLine]:
    """Every line of a log file, parsed; :class:`UnreadableLog` if it cannot be read."""
    yield from parse_data(read_bytes(path), block_parser)


def parse_data(data: bytes, block_parser: BlockParser = parse_block) -> Iterator[LogLine]:
    """Every line of a log's text, parsed; :class:`UnreadableLog` if it is empty."""
    if not data.removeprefix(BOM):
        raise UnreadableLog(say("empty file: a log starts with a game_started line"))
    yield from parse_numbered(split_lines(data), block_parser)


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
