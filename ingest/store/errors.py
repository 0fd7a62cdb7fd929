"""What goes wrong with the store, as exceptions whose ``str()`` is one line naming the
file and what is wrong, and DuckDB's own words for it made plain.

DuckDB says what went wrong in its own terms (a lock it could not set, a block whose
checksum fails, a path in full); a referee at a venue reads the store's words instead,
and a public page sees no path of the organiser's machine (:func:`detail`)."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import duckdb

from events.said import Said, say
from events.said import problem as said_as_is
from events.shown import safe_name
from ingest.schema import READ_MODELS


class StoreError(RuntimeError):
    """The store could not do a job: ``str()`` is one line naming the file and what is
    wrong; ``problem`` says what is wrong without the file's path (for a public page).
    Both are English; :attr:`said` (the problem) and :attr:`line_said` (the line) are
    the same as sentences, for a page or a command to say in its reader's language."""

    def __init__(self, path: Path, problem: Said | str, line: Said | None = None) -> None:
        problem = problem if isinstance(problem, Said) else said_as_is(problem)
        self.said = problem
        self.line_said = line or say("%(file)s: %(problem)s", file=safe_name(str(path)), problem=(problem,))
        super().__init__(self.line_said.english())
        self.path = path
        self.problem = problem.english()


class StoreUnusable(StoreError):
    """The file cannot serve as this program's store: there is no such file, it is not
    a DuckDB database, not a store, a store of another schema version, or damaged.
    Nothing was changed."""


class StoreOlder(StoreUnusable):
    """A store of an older schema version, refused by a reading connection: a writing
    one upgrades it."""


class StoreBusy(StoreError):
    """Another process holds the database file for longer than we were willing to wait."""


class RowsRefused(StoreError):
    """The database refused a row the job wrote (a key written twice): a fault of what
    was written, not of the store, which the transaction left as it was. An ingest
    writes the batch again a file at a time, so only the file whose rows are at fault
    is rejected (:func:`ingest.pipeline._write_isolated`): a round numbered twice in
    one log made the whole run "the database failed", the good files beside it lost."""


class StaleAppend(RuntimeError):
    """A stream (or the uploads) moved on since its version was read (optimistic
    concurrency)."""


LOCKED: Final = re.compile(r"Could not set lock|Conflicting lock|same database file with a different configuration")
"""DuckDB's words for a file another process holds (not "block": damage names blocks),
or another thread of this one in the other mode (a dashboard page reading while the
recording page writes, in the same server): either lets go after its one job."""
REFUSED: Final = re.compile(r"No such file|Permission denied|Is a directory|No space left|Read-only file system")
"""DuckDB passing on the file system's refusal: not damage."""
DAMAGE: Final = (duckdb.IOException, duckdb.SerializationException, duckdb.InternalException, duckdb.FatalException)
"""What DuckDB raises reading a damaged file (a failed checksum is a plain ``duckdb.Error``)."""
INVALIDATED: Final = "database has been invalidated"
"""DuckDB's words after a commit it could not finish (out of its memory, say): it stops
every job of the process, but the file keeps every commit before (its write-ahead log
never took the failed one)."""
_PATH: Final = re.compile(r"(?:[A-Za-z]:)?[\\/][^\s'\"]*[\\/][^\s'\"]*")
"""A file system path with a folder in it: not for a page the public sees."""


def unopened(path: Path, exc: duckdb.Error) -> StoreUnusable:
    """What is wrong with a file DuckDB would not open."""
    text = str(exc)
    if "not a valid DuckDB database" in text or "Extension" in text:
        return StoreUnusable(path, say("not a DuckDB database file"))
    if isinstance(exc, duckdb.IOException) and REFUSED.search(text):
        return StoreUnusable(path, say("cannot be opened: %(problem)s", problem=detail(path, exc)))
    return StoreUnusable(path, damaged(detail(path, exc)))


def detail(path: Path, exc: duckdb.Error) -> str:
    """DuckDB's first line, with the file named by its name and no other path."""
    return _first_line(path, str(exc)) or type(exc).__name__


def _first_line(path: Path, text: str) -> str:
    """``text``'s first line, with the file named by its name and no other path."""
    first = (text.strip().splitlines() or [""])[0]
    for spelling in {str(path.resolve()), str(path)}:
        first = first.replace(spelling, path.name)
    return _PATH.sub("…", first)[:300]


def damaged(detail: str) -> Said:
    """What a damaged file is, in words, with DuckDB's own."""
    if "Could not read enough bytes" in detail:
        return say("damaged: the file is cut short (%(problem)s)", problem=detail)
    if "checksum" in detail:
        return say("damaged: a block of the file fails its checksum (%(problem)s)", problem=detail)
    return say("damaged: %(problem)s", problem=detail)


def stopped(path: Path, exc: duckdb.Error) -> Said:
    """What a commit DuckDB could not finish did, in words, with DuckDB's own reason (the
    first line of the error it stopped on, which it quotes after "Original error", with
    no path but the file's name: :func:`detail`)."""
    text = str(exc)
    original = _first_line(path, text.split("Original error:", 1)[-1].strip().strip('"'))
    if "memory" in text.lower() or "pin block" in text:
        limit = os.environ.get("SABOTEUR_DB_MEMORY")
        setting = say("$SABOTEUR_DB_MEMORY is %(limit)s", limit=limit) if limit else say("$SABOTEUR_DB_MEMORY sets it")
        return say(
            "DuckDB stopped after a commit it could not finish (%(problem)s); that commit was not stored, "
            "and the store keeps every one before it (saboteur verify checks it). It ran out of the memory "
            "it may use (%(setting)s): allow it more and run again",
            problem=original,
            setting=(setting,),
        )
    return say(
        "DuckDB stopped after a commit it could not finish (%(problem)s); that commit was not stored, "
        "and the store keeps every one before it (saboteur verify checks it)",
        problem=original,
    )


def missing(tables: Sequence[str]) -> Said:
    """What a store missing ``tables`` is, and what mends it."""
    names = ", ".join(tables)
    if set(tables) <= set(READ_MODELS):
        return say(
            "damaged: its %(tables)s table is missing (saboteur rebuild makes the read models anew)",
            "damaged: its %(tables)s tables are missing (saboteur rebuild makes the read models anew)",
            "count",
            tables=names,
            count=len(tables),
        )
    return say(
        "damaged: its %(tables)s table is missing (restore the file from a copy)",
        "damaged: its %(tables)s tables are missing (restore the file from a copy)",
        "count",
        tables=names,
        count=len(tables),
    )
