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
    """Every content and stream the lake's committed batches hold (see the module)."""

    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self.uploads: dict[str, tuple[int, str]] = {}
        self.streams: dict[str, tuple[int, int]] = {}
        for entry in entries:
            self.record(entry.files)
            for stream, version in entry.streams.items():
                self._hold(stream, version, 0)

    def record(self, files: Iterable[SourceFile]) -> None:
        """Add a batch's files, as its entry lists them."""
        for file in files:
            if file.outcome == "duplicate":
                continue
            upload, held = (file.upload_id, file.outcome), self.uploads.get(file.sha256)
            if file.sha256 and (held is None or preferred(upload) < preferred(held)):
                self.uploads[file.sha256] = upload
            for stream, version in file.streams.items():
                self._hold(stream, version, file.upload_id)

    def _hold(self, stream: str, version: int, upload_id: int) -> None:
        """A stream at ``version`` or beyond, written to by ``upload_id`` (0: a command)."""
        held_version, newest = self.streams.get(stream, (0, 0))
        self.streams[stream] = (max(held_version, version), max(newest, upload_id))

    def before(self, first_upload: int, keys: Collection[str]) -> Held:
        """What uploads numbered below ``first_upload`` (the files before a batch in the
        listing, and every build before) hold of ``keys``: the batch's contents and
        streams (:func:`ingest.lake.build.claims`)."""
        return Held(
            {k: u for k in keys if (u := self.uploads.get(k)) is not None and u[0] < first_upload},
            {k: s for k in keys if (s := self.streams.get(k)) is not None and s[1] < first_upload},
        )
