"""Statistics over a lake: the store's SQL, run by DuckDB over the lake's Parquet.

:func:`connect` opens a DuckDB database in memory in which every dataset of the lake
is a view named like the store's table (``games``, ``rounds``, ``round_players``…) over
the parts its committed batches name — and only those: a batch cut short is not read —
each where it lies now (a compaction's file: :mod:`ingest.lake.compact`).
Every function of :mod:`analytics.stats` takes that connection as it takes a store's,
so the figures come from the same SQL text. A lake at an fsspec URL (``s3://…``) is
read through its fsspec file system, handed to DuckDB; nothing is copied first.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from events.said import say
from ingest.lake.compact import placement
from ingest.lake.layout import DATASETS, Lake
from ingest.lake.manifest import LakeUnreadable, committed, require_lake
from ingest.tables import create_table


@contextmanager
def connect(url: str) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only view of the lake at ``url`` as the store's tables, closed after."""
    lake = Lake.at(url)
    require_lake(lake, url)
    entries = committed(lake)
    where = placement(lake)  # parts a compaction copied are read from its files
    con = duckdb.connect(":memory:", config={"autoload_known_extensions": False, "autoinstall_known_extensions": False})
    try:
        con.execute("SET TimeZone = 'UTC'")  # the lake's times in UTC, as the store's (ingest.store.files)
        if not lake.local:
            con.register_filesystem(lake.fs)
        for dataset, row_type in DATASETS.items():
            parts = [lake.address(path) for path in where.reading(entries, dataset)]
            if parts:
                listed = ", ".join(_literal(part) for part in parts)
                con.execute(f"CREATE VIEW {dataset} AS SELECT * FROM read_parquet([{listed}])")
            else:
                con.execute(create_table(row_type))
        yield con
    except duckdb.Error as exc:
        if not _part_unreadable(exc):
            raise
        said = say(
            "%(lake)s: a part of the lake cannot be read (%(problem)s): saboteur archive verify says what is wrong",
            lake=url,
            problem=str(exc).splitlines()[0][:300],
        )
        raise LakeUnreadable(said) from None
    finally:
        con.close()


def _part_unreadable(exc: duckdb.Error) -> bool:
    """Whether DuckDB failed on a part its batch names, gone or damaged: a file it cannot
    open (``IOException``), one that is not Parquet (``InvalidInputException``), or one
    whose Parquet metadata or pages do not decode — the reader's own errors, which DuckDB
    raises as a bare :class:`duckdb.Error` (Thrift's "TProtocolException: Invalid data",
    "don't know what type", "Out of buffer"): a flipped byte gave an 87-line traceback.
    An error of the SQL itself (a binder's, a catalog's: each of a class of its own) is
    this program's, and stays one."""
    return isinstance(exc, (duckdb.IOException, duckdb.InvalidInputException)) or type(exc) is duckdb.Error


def _literal(text: str) -> str:
    """A SQL string literal (DuckDB takes no parameters in a view's definition; the
    paths are the lake's own, quoted all the same)."""
    return "'" + text.replace("'", "''") + "'"
