"""The files under a folder, and the folders under it that cannot be read.

``audit``, ``ingest`` and ``archive build`` all take folders; they find the files in
them the same way, here. A folder that cannot be listed (no permission: a folder
copied from another account) is not passed over without a word, as
:meth:`pathlib.Path.rglob` passes over it: it is given in the files' place, and reading
it says why it was not read (:func:`cannot_read`), so a run's report names it and the
rest of the run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from events.said import Said, say

__all__ = ["cannot_read", "walk"]


def walk(folder: Path, take: Callable[[str], bool], *, unreadable: bool = True) -> Iterator[str]:
    """The paths of the files under ``folder`` whose names ``take`` accepts (every entry
    but a folder: a FIFO or a dangling link is given, and refused with its reason when
    read), in the order of their paths as strings: each directory's entries sorted by
    name, a directory's name with the ``/`` its files' paths go on with (``a.jsonl`` <
    ``a/…`` < ``a0``). Folders linked to are not entered. With ``unreadable``, a folder
    that cannot be listed is given in the place of its files.

    Walked a directory at a time: the names of the directories on the way down to the
    file given are all that is held."""
    within = str(folder / "-")[:-1]  # what its files' paths begin with (none for ".")
    entries = _entries_of(folder, take)
    if entries is None:
        if unreadable:
            yield str(folder)
        return
    for entry in entries:
        if entry.endswith("/"):
            yield from walk(folder / entry[:-1], take, unreadable=unreadable)
        else:
            yield within + entry  # str(folder / entry), without a Path (which interns each name for good)


def _entries_of(folder: Path, take: Callable[[str], bool]) -> list[str] | None:
    """A directory's folders (``name/``) and files taken, sorted; ``None`` if it cannot
    be listed."""
    entries: list[str] = []
    try:
        with os.scandir(folder) as scan:
            for entry in scan:
                name = entry.name
                if _is_real_dir(entry):
                    entries.append(name + "/")
                elif take(name) and not _is_dir(entry):
                    entries.append(name)
    except OSError:
        return None
    entries.sort()
    return entries


def _is_real_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir() and not entry.is_symlink()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """A folder, or a link to one (not entered)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def cannot_read(path: Path, error: OSError) -> Said:
    """Why ``path`` could not be read: a folder the walk could not list (its files were
    not looked at), or a file."""
    if os.path.isdir(path):
        try:
            with os.scandir(path):
                pass
        except OSError as listing:  # why it cannot be listed, not why it cannot be opened as a file
            problem = str(listing.strerror or listing)
            return say("cannot read the folder: %(problem)s (the files in it were not looked at)", problem=problem)
    return say("cannot read the file: %(problem)s", problem=str(error.strerror or error))
