"""How much of the store a job holds at once: events read, made or inserted a chunk at a
time, so that neither a reader of the whole store nor a writer of a 16 MiB log (some
400,000 events) ever holds all of them.

The modules of the store read these as ``chunks.READ_CHUNK`` when they use them, so a
test may make them small for one test (``monkeypatch.setattr(chunks, …)``)."""

from __future__ import annotations

from typing import Final

READ_CHUNK: Final = 20_000
"""Events read, made or inserted at a time: a reader of the whole store, or a writer of
a 16 MiB log, holds a chunk of them, never all."""

TURN_EVENTS: Final = 10_000
"""Events a long read takes (``verify``'s walk of the chain, the standings as of a moment)
between two looks for a job waiting for the store: a referee's tap waits for no more,
and a read beside a busy server is not a store job per game."""

LONG_STREAM: Final = 50_000
"""Events of a stream past which :meth:`~ingest.store.Store.read_streams` gives it as a
:class:`~ingest.store.reading.StreamEvents` read a chunk at a time, not as a list."""

RUN_EVENTS: Final = 4096
"""Events of a stream made at a time (:func:`~ingest.store.chained.stream_runs`): lists of
them cost the chain less than a tuple each, and a 16 MiB log is never made whole."""

UPLOAD_RUN_BYTES: Final = 8 * 2**20
"""Raw bytes of the uploads inserted at once (or one upload, whatever its size: up to
64 MiB): a run's bytes are copied once more, into Arrow, before DuckDB copies them."""
