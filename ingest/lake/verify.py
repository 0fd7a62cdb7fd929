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

from events.said import say
from ingest.chain import GENESIS, ChainVerdict, StoredEvent, broken_link
from ingest.lake.compact import PartUnreadable, Placement, placement, read_part
from ingest.lake.layout import DATASETS, Lake
from ingest.lake.manifest import Entry, committed
from ingest.readmodels import GameRow
from ingest.schema import UploadRow


@dataclass
class LakeVerdict(ChainVerdict):
    """What ``archive verify`` found."""

    batches: int = 0
    parts: int = 0
    events: int = 0
    games: int = 0
    uncommitted: list[str] = field(default_factory=list)
    """Parts no entry names."""


def verify(lake: Lake) -> LakeVerdict:
    """Check every committed batch of ``lake`` (see the module's docstring)."""
    verdict = LakeVerdict()
    entries = committed(lake)
    where = placement(lake)
    games: Counter[str] = Counter()
    named: set[str] = set()
    for key, entry in sorted(entries.items()):
        verdict.batches += 1
        if entry.batch != key:
            verdict.said.append(say("batch %(batch)s: its entry names batch %(named)s", batch=key, named=entry.batch))
        tables = _parts(lake, entry, where, verdict)
        named.update(where.at[p.path][0].path if p.path in where.at else p.path for p in entry.parts)
        _check_events(entry, tables.get("events", []), verdict)
        uploads = [u for t in tables.get(UploadRow.TABLE, []) for u in t.column("upload_id").to_pylist()]
        if sorted(uploads) != sorted(f.upload_id for f in entry.files):
            verdict.said.append(say("batch %(batch)s: its uploads are not the files its entry lists", batch=key))
        for table in tables.get(GameRow.TABLE, []):
            games.update(table.column("game_id").to_pylist())
    verdict.games = len(games)
    verdict.said.extend(
        say("game %(game)s is in the lake %(count)s times", game=game, count=count)
        for game, count in sorted(games.items())
        if count > 1
    )
    on_disk = [path for dataset in DATASETS for path in lake.files(dataset)]
    verdict.uncommitted = sorted(path for path in on_disk if path not in named and path.endswith(".parquet"))
    return verdict


def _parts(lake: Lake, entry: Entry, where: Placement, verdict: LakeVerdict) -> dict[str, list[pa.Table]]:
    """The entry's parts that are whole, by dataset; a problem for each that is not. A
    part a compaction copied is read from its row group of the compacted file, checked
    against the compaction's record (:func:`~ingest.lake.compact.read_part`)."""
    tables: dict[str, list[pa.Table]] = {}
    for part in entry.parts:
        verdict.parts += 1
        named = {"batch": entry.batch, "part": part.path}
        if part.dataset not in DATASETS or not part.path.startswith(f"{part.dataset}/"):
            verdict.said.append(say("batch %(batch)s: %(part)s: not a part of a dataset of the lake", **named))
            continue
        placed = where.at.get(part.path)
        if placed is None:
            if not lake.exists(part.path):
                verdict.said.append(say("batch %(batch)s: %(part)s: missing", **named))
                continue
            data = lake.read(part.path)
            digest = hashlib.sha256(data).hexdigest()
            if digest != part.sha256 or digest not in part.path:
                verdict.said.append(
                    say(
                        "batch %(batch)s: %(part)s: its bytes are not those its entry and its name record (altered)",
                        **named,
                    )
                )
                continue
            table = pq.read_table(io.BytesIO(data))
        else:
            try:
                _, table = read_part(lake, part, where)
            except PartUnreadable:
                verdict.said.append(
                    say(
                        "batch %(batch)s: %(part)s: the compacted file %(file)s that holds it is missing or altered",
                        file=placed[0].path,
                        **named,
                    )
                )
                continue
        if table.num_rows != part.rows:
            verdict.said.append(
                say(
                    "batch %(batch)s: %(part)s: %(rows)s rows, its entry says %(entered)s",
                    rows=str(table.num_rows),
                    entered=str(part.rows),
                    **named,
                )
            )
            continue
        tables.setdefault(part.dataset, []).append(table)
    return tables


def _check_events(entry: Entry, tables: list[pa.Table], verdict: LakeVerdict) -> None:
    """Walk the batch's events from the genesis hash to the head its entry records."""
    prev, position = GENESIS, 0
    versions: dict[str, int] = {}
    for event in _events(tables):
        broken = (
            say(
                "event at position %(position)s does not follow the event before it: removed or reordered",
                position=str(event.position),  # as the lake numbers them
            )
            if event.position != position + 1
            else broken_link(prev, versions, event)
        )
        if broken is not None:
            verdict.said.append(say("batch %(batch)s: %(problem)s", batch=entry.batch, problem=(broken,)))
            return
        prev, position = event.hash, event.position
        verdict.events += 1
    if (position, prev) != (entry.head_position, entry.head_hash) or position != entry.events:
        verdict.said.append(
            say(
                "batch %(batch)s: its events end at position %(position)s (%(hash)s…), "
                "its entry says %(recorded)s (%(recorded_hash)s…)",
                batch=entry.batch,
                position=str(position),
                hash=prev[:12],
                recorded=str(entry.head_position),
                recorded_hash=entry.head_hash[:12],
            )
        )


def _events(tables: list[pa.Table]) -> Iterator[StoredEvent]:
    """The events of a batch's parts in position order."""
    if not tables:
        return
    ordered = pa.concat_tables(tables).sort_by("position")
    for chunk in ordered.to_batches(20_000):
        for row in chunk.to_pylist():
            yield StoredEvent(**row)
