"""Lakes written before the manifest named each file's streams, brought up to date.

A batch's entry names, for each file, the streams its events were appended to and the
version each reached (:attr:`~ingest.lake.manifest.SourceFile.streams`), and, for a
store exported, the streams its commands wrote (:attr:`~ingest.lake.manifest.Entry.streams`).
A later build asks them whether a game is stored already (:mod:`ingest.lake.ledger`):
in a lake written before they existed every entry says "none", so a game met again
would be stored twice. Such an entry is read again from its own events — the stream and
version of each event, by upload, from the batch's ``events`` parts — and written anew
with what they say (each entry a file of its own, written whole): the rows, parts and
chain do not change, so ``archive verify`` reads the same lake.
"""

from __future__ import annotations

from collections.abc import Mapping

from ingest.lake.compact import Placement, placement, read_part
from ingest.lake.layout import Lake
from ingest.lake.manifest import Entry, commit

STORED: frozenset[str] = frozenset({"accepted", "accepted_with_findings"})


def outdated(entry: Entry) -> bool:
    """Whether ``entry`` was written before files named their streams: a file stored
    (its events appended) whose entry names none."""
    return any(file.outcome in STORED and not file.streams for file in entry.files)


def brought_up_to_date(lake: Lake, entry: Entry, where: Placement | None = None) -> Entry:
    """``entry`` with each file's streams, and the commands' streams, read from its events."""
    where = where if where is not None else placement(lake)
    by_upload: dict[int, dict[str, int]] = {}
    commands: dict[str, int] = {}
    for part in entry.parts:
        if part.dataset != "events":
            continue
        _, whole = read_part(lake, part, where)
        table = whole.select(["stream", "version", "upload_id"])
        for stream, version, upload_id in zip(
            table.column("stream").to_pylist(),
            table.column("version").to_pylist(),
            table.column("upload_id").to_pylist(),
            strict=True,
        ):
            held = commands if upload_id is None else by_upload.setdefault(int(upload_id), {})
            held[str(stream)] = max(held.get(str(stream), 0), int(version))
    files = tuple(
        file.model_copy(update={"streams": by_upload.get(file.upload_id, {})}) if file.outcome in STORED else file
        for file in entry.files
    )
    return entry.model_copy(update={"files": files, "streams": {**commands, **entry.streams}})


def up_to_date(lake: Lake, entries: Mapping[str, Entry]) -> tuple[dict[str, Entry], int]:
    """Every committed entry as a build reads it, those written before streams existed
    brought up to date and written anew; and how many were."""
    found: dict[str, Entry] = {}
    renewed = 0
    where = placement(lake)
    for key, entry in entries.items():
        if outdated(entry):
            entry = brought_up_to_date(lake, entry, where)
            commit(lake, entry)
            renewed += 1
        found[key] = entry
    return found, renewed
