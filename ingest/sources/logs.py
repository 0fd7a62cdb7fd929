"""Game logs as uploads: audited in one walk over their lines as they are parsed, stored
as the log's own events (a line that is no event kept byte for byte), and read back as
numbered lines for a rebuild."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Final, overload

from events.logfile import LogLine, inflate, parse_data, parse_numbered, parse_structs_block, split_lines
from events.schema import EVENT_TYPES
from ingest.projection import project_log
from ingest.sources.files import Prepared
from ingest.store import NewEvent, Run
from ingest.store.chunks import RUN_EVENTS


def prepare_log(name: str, raw: bytes, sha: str) -> Prepared:
    """Audit a log in one walk over its lines as they are parsed, noting each line's
    kind on the way: its events are then made from its text when the writer appends
    them (:class:`LogEvents`), so no list of the file's lines is ever held."""
    kinds = bytearray()

    def noted(lines: Iterator[LogLine]) -> Iterator[LogLine]:
        for line in lines:
            kinds.append(_KIND[line.event.type if line.event is not None else UNPARSED])
            yield line

    lines = parse_data(inflate(raw, name), parse_structs_block)  # the audit's own reading: Structs
    audit, rows = project_log(noted(lines), name=name, upload_id=0)
    assert audit.game_id is not None
    stream = f"game:{audit.game_id}"
    return Prepared(
        name,
        sha,
        len(raw),
        raw,
        "log",
        audit.status,
        audit.report().model_dump_json(),
        game_ids=[audit.game_id],
        streams={stream: LogEvents(stream, name, raw, bytes(kinds))},
        rows=rows.columns(),
        errors=audit.errors,
    )


UNPARSED: Final = "unparsed_line"
"""The type a log line that is no event is stored under, with its bytes (base64)."""
_KINDS: Final = (UNPARSED, *sorted(EVENT_TYPES))
"""Every kind of line, by the number a log's :class:`LogEvents` notes it under (0: no
event)."""
_KIND: Final = {kind: index for index, kind in enumerate(_KINDS)}


class LogEvents(Sequence[NewEvent]):
    """A log's events as stored, made from the file's bytes a line at a time as they
    are read.

    A 16 MiB log holds some 400,000 lines (sixteen million, if they are blank): as
    objects, its events would take hundreds of megabytes in the worker, in the pickle
    back to the writer and in the writer again. This holds the bytes received (already
    kept for the upload) and one byte per line, its kind, and is read in line order;
    an index is found by reading up to it.
    """

    def __init__(self, stream: str, name: str, raw: bytes, kinds: bytes) -> None:
        self.stream = stream
        self.name = name
        self.raw = raw
        self.kinds = kinds

    def __len__(self) -> int:
        return len(self.kinds)

    def __iter__(self) -> Iterator[NewEvent]:
        for types, payloads, lines in self.runs(RUN_EVENTS):
            for type_, payload, line in zip(types, payloads, lines, strict=True):
                yield NewEvent(self.stream, type_, payload, line)

    def runs(self, size: int) -> Iterator[Run]:
        """The events' types, payloads and lines, ``size`` at a time, as the store
        appends them (no object each: :class:`~ingest.store.EventRuns`)."""
        lines = split_lines(inflate(self.raw, self.name))
        kinds = iter(self.kinds)
        while run := list(islice(lines, size)):
            numbers: list[int | None] = [number for number, _ in run]
            types = [_KINDS[kind] for kind in islice(kinds, len(run))]
            if len(types) != len(run):
                raise ValueError(f"{self.name}: {len(self.kinds)} kinds noted for more lines")
            if UNPARSED in types:
                payloads = [
                    text.decode("utf-8") if type_ != UNPARSED else _unparsed(text)
                    for type_, (_, text) in zip(types, run, strict=True)
                ]
            else:
                payloads = [text.decode("utf-8") for _, text in run]
            yield types, payloads, numbers
        if next(kinds, None) is not None:
            raise ValueError(f"{self.name}: {len(self.kinds)} kinds noted for fewer lines")

    @overload
    def __getitem__(self, index: int) -> NewEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[NewEvent]: ...

    def __getitem__(self, index: int | slice) -> NewEvent | list[NewEvent]:
        if isinstance(index, slice):
            return list(islice(self, *index.indices(len(self))))
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return next(islice(self, index % len(self), None))


def _unparsed(text: bytes) -> str:
    """The payload a log line that is no event is stored with: its bytes (base64), so a
    rebuild reads exactly what the audit read."""
    return json.dumps({"base64": base64.b64encode(text).decode("ascii")})


def stored_texts(events: Iterable[tuple[str, str, int | None]]) -> Iterator[tuple[int, bytes]]:
    """Stored log events (type, payload, line) back into the log's numbered lines, each
    as the bytes uploaded."""
    for count, (type_, payload, line) in enumerate(events, start=1):
        text = base64.b64decode(json.loads(payload)["base64"]) if type_ == UNPARSED else payload.encode("utf-8")
        yield line or count, text


def read_stored(events: Iterable[tuple[str, str, int | None]]) -> Iterator[LogLine]:
    """Stored log events (type, payload, line) back into parsed lines, as they are read."""
    return parse_numbered(stored_texts(events))


def stored_lines(events: Iterable[tuple[str, str, int | None]]) -> list[LogLine]:
    """Stored log events (type, payload, line) back into parsed lines."""
    return list(read_stored(events))
