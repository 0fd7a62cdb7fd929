"""What a lake already holds, as the writer asks a store of it: which upload first
brought each content, and which streams hold events.

The writer (:class:`ingest.pipeline.Writer`) decides a file's outcome from two
questions it puts to its store — :meth:`~ingest.store.Store.known_uploads` (is this
content stored already? then the file is a *duplicate* of that upload) and
:meth:`~ingest.store.Store.stream_versions` (is this game stored already? then the file
is *rejected*). A batch of the lake is written into a store of its own
(:class:`ingest.lake.batch.BatchStore`), which answers those questions for its own
files and, through the :class:`Held` it is given, for everything before it: the
committed batches and the batches of the build that come before it in the listing.
So the writer decides each file of a lake as ``saboteur ingest`` decides it in a store
fed the same files in the same order — the one writer, not a copy of its rules.

The :class:`Ledger` is that knowledge on the build's client, from the manifest's
entries: each file's content hash, upload, outcome and the streams it appended to (and
the streams a store exported holds from its commands).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from ingest.lake.manifest import Entry, SourceFile


@dataclass(frozen=True)
class Held:
    """What came before a batch, for the contents and streams its files hold:
    ``uploads`` as :meth:`~ingest.store.Store.known_uploads` gives them (content hash →
    upload id and outcome), ``streams`` as :meth:`~ingest.store.Store.stream_versions`
    (stream → version and newest upload)."""

    uploads: dict[str, tuple[int, str]] = field(default_factory=dict)
    streams: dict[str, tuple[int, int]] = field(default_factory=dict)


def preferred(upload: tuple[int, str]) -> tuple[bool, int]:
    """The order in which the store names an earlier upload of a content: an accepted
    one before a rejected one, then the first."""
    upload_id, outcome = upload
    return outcome == "rejected", upload_id


class Ledger:
    """Every content and stream the lake's committed batches hold, and the build's
    batches as they are written (see the module).

    A build of ten million files meets ten million contents: held in dicts, some 0.4 KB
    each on the client. So the ledger is a private SQLite database on disk (SQLite's
    empty file name: a temporary file, removed when it is closed), whose page cache is
    the few MiB the client keeps whatever the number of files; a batch's questions are
    one query by its keys. :meth:`close` it when the build ends (or use ``with``)."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self._db = sqlite3.connect("")
        self._db.executescript(
            """
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA cache_size = -4096;
            CREATE TABLE uploads (content TEXT PRIMARY KEY, upload_id INTEGER, outcome TEXT) WITHOUT ROWID;
            CREATE TABLE streams (stream TEXT PRIMARY KEY, version INTEGER, newest INTEGER) WITHOUT ROWID;
            """
        )
        for entry in entries:
            self.record(entry.files)
            self._hold([(stream, version, 0) for stream, version in entry.streams.items()])

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def record(self, files: Iterable[SourceFile]) -> None:
        """Add a batch's files, as its entry lists them: each content's upload, an
        accepted one before a rejected one, then the first (:func:`preferred`)."""
        uploads: list[tuple[str, int, str]] = []
        streams: list[tuple[str, int, int]] = []
        for file in files:
            if file.outcome == "duplicate":
                continue
            if file.sha256:
                uploads.append((file.sha256, file.upload_id, file.outcome))
            streams.extend((stream, version, file.upload_id) for stream, version in file.streams.items())
        with self._db:
            self._db.executemany(
                """
                INSERT INTO uploads VALUES (?, ?, ?)
                ON CONFLICT (content) DO UPDATE SET upload_id = excluded.upload_id, outcome = excluded.outcome
                WHERE (excluded.outcome = 'rejected', excluded.upload_id)
                    < (uploads.outcome = 'rejected', uploads.upload_id)
                """,
                uploads,
            )
        self._hold(streams)

    def _hold(self, streams: list[tuple[str, int, int]]) -> None:
        """Streams at a version or beyond, each written to by an upload (0: a command)."""
        with self._db:
            self._db.executemany(
                """
                INSERT INTO streams VALUES (?, ?, ?)
                ON CONFLICT (stream) DO UPDATE SET version = max(version, excluded.version),
                                                   newest = max(newest, excluded.newest)
                """,
                streams,
            )

    def before(self, first_upload: int, keys: Collection[str]) -> Held:
        """What uploads numbered below ``first_upload`` (the files before a batch in the
        listing, and every build before) hold of ``keys``: the batch's contents and
        streams (:func:`ingest.lake.build.claims`)."""
        asked = json.dumps(list(keys))
        uploads = self._db.execute(
            "SELECT content, upload_id, outcome FROM uploads WHERE content IN (SELECT value FROM json_each(?)) "
            "AND upload_id < ?",
            (asked, first_upload),
        ).fetchall()
        streams = self._db.execute(
            "SELECT stream, version, newest FROM streams WHERE stream IN (SELECT value FROM json_each(?)) "
            "AND newest < ?",
            (asked, first_upload),
        ).fetchall()
        return Held(
            {content: (int(upload), str(outcome)) for content, upload, outcome in uploads},
            {stream: (int(version), int(newest)) for stream, version, newest in streams},
        )
