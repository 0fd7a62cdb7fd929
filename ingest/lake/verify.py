"""``saboteur archive verify``: every committed batch against its manifest entry.

For each entry: every part it names is there, its bytes hash to the SHA-256 its entry
and its name say, and it holds the rows the entry counts; the batch's events walk
their chain from the genesis hash — positions in order, each ``prev_hash`` the hash
before it, each hash the hash of its event, each stream's versions 1, 2, 3… — to the
head the entry records; its uploads are the files the entry lists. Across entries,
every game is in the lake once. Parts no entry names (a batch cut short before its
entry) are listed apart: readers never see them, and a build run again names them or
leaves them for removal.
"""

from __future__ import annotations

import hashlib
import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.parquet as pq

from ingest.chain import GENESIS, StoredEvent, link
from ingest.lake.layout import DATASETS, Lake
from ingest.lake.manifest import Entry, committed
from ingest.readmodels import GameRow
from ingest.schema import UploadRow


@dataclass
class LakeVerdict:
    """What ``archive verify`` found."""

    batches: int = 0
    parts: int = 0
    events: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)
    uncommitted: list[str] = field(default_factory=list)
    """Parts no entry names."""

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(lake: Lake) -> LakeVerdict:
    """Check every committed batch of ``lake`` (see the module's docstring)."""
    verdict = LakeVerdict()
    entries = committed(lake)
    games: Counter[str] = Counter()
    named: set[str] = set()
    for key, entry in sorted(entries.items()):
        verdict.batches += 1
        if entry.batch != key:
            verdict.problems.append(f"batch {key}: its entry names batch {entry.batch}")
        tables = _parts(lake, entry, verdict)
        named.update(p.path for p in entry.parts)
        _check_events(entry, tables.get("events", []), verdict)
        uploads = [u for t in tables.get(UploadRow.TABLE, []) for u in t.column("upload_id").to_pylist()]
        if sorted(uploads) != sorted(f.upload_id for f in entry.files):
            verdict.problems.append(f"batch {key}: its uploads are not the files its entry lists")
        for table in tables.get(GameRow.TABLE, []):
            games.update(table.column("game_id").to_pylist())
    verdict.games = len(games)
    verdict.problems.extend(
        f"game {game} is in the lake {count} times" for game, count in sorted(games.items()) if count > 1
    )
    on_disk = [path for dataset in DATASETS for path in lake.files(dataset)]
    verdict.uncommitted = sorted(path for path in on_disk if path not in named and path.endswith(".parquet"))
    return verdict


def _parts(lake: Lake, entry: Entry, verdict: LakeVerdict) -> dict[str, list[pa.Table]]:
    """The entry's parts that are whole, by dataset; a problem for each that is not."""
    tables: dict[str, list[pa.Table]] = {}
    for part in entry.parts:
        verdict.parts += 1
        where = f"batch {entry.batch}: {part.path}"
        if part.dataset not in DATASETS or not part.path.startswith(f"{part.dataset}/"):
            verdict.problems.append(f"{where}: not a part of a dataset of the lake")
            continue
        if not lake.exists(part.path):
            verdict.problems.append(f"{where}: missing")
            continue
        data = lake.read(part.path)
        digest = hashlib.sha256(data).hexdigest()
        if digest != part.sha256 or digest not in part.path:
            verdict.problems.append(f"{where}: its bytes are not those its entry and its name record (altered)")
            continue
        table = pq.read_table(io.BytesIO(data))
        if table.num_rows != part.rows:
            verdict.problems.append(f"{where}: {table.num_rows} rows, its entry says {part.rows}")
            continue
        tables.setdefault(part.dataset, []).append(table)
    return tables


def _check_events(entry: Entry, tables: list[pa.Table], verdict: LakeVerdict) -> None:
    """Walk the batch's events from the genesis hash to the head its entry records."""
    prev, position = GENESIS, 0
    versions: dict[str, int] = {}
    for event in _events(tables):
        where = f"batch {entry.batch}: event at position {event.position}"
        if event.position != position + 1 or event.prev_hash != prev:
            verdict.problems.append(f"{where} does not follow the event before it: removed or reordered")
            return
        if link(prev, event.canonical()) != event.hash:
            verdict.problems.append(f"{where} ({event.stream} v{event.version}) was altered")
            return
        if event.version != versions.get(event.stream, 0) + 1:
            verdict.problems.append(f"{where}: {event.stream} jumps to version {event.version}")
            return
        versions[event.stream] = event.version
        prev, position = event.hash, event.position
        verdict.events += 1
    if (position, prev) != (entry.head_position, entry.head_hash) or position != entry.events:
        verdict.problems.append(
            f"batch {entry.batch}: its events end at position {position} ({prev[:12]}…), "
            f"its entry says {entry.head_position} ({entry.head_hash[:12]}…)"
        )


def _events(tables: list[pa.Table]) -> Iterator[StoredEvent]:
    """The events of a batch's parts in position order."""
    if not tables:
        return
    ordered = pa.concat_tables(tables).sort_by("position")
    for chunk in ordered.to_batches(20_000):
        for row in chunk.to_pylist():
            yield StoredEvent(**row)
