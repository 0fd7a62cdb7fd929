"""Where a file differs from the version of its game (or tournament) already stored.

A file for a game already stored is refused unless the referee says it supersedes the
stored one (``--supersede --reason``). Told only "already stored", they cannot see
whether the file is the corrected log they meant or another table's log under the
same ``game_id``; told where the two part ("first at line 57", "in players and
seatings"), they can. Compared as the files were received, so the line is the line a
text editor shows. It is said to whoever sent the file, at once; the upload's stored
reason is the sentence without it, as a lake's build (which does not keep the bytes of
the versions it holds) records it, row for row.
"""

from __future__ import annotations

import json
from typing import Any

from events.logfile import UnreadableLog, inflate
from events.said import Said, say


def difference(stored: tuple[str, bytes], new: tuple[str, bytes], kind: str) -> Said | None:
    """Where the file ``new`` (name, bytes) first differs from ``stored``: the first
    line that differs in a log or score sheet, the fields that differ in a tournament
    file; ``None`` if either cannot be read as text."""
    try:
        old_text, new_text = inflate(stored[1], stored[0]), inflate(new[1], new[0])
    except UnreadableLog:
        return None
    if kind == "tournament":
        fields = _fields_differing(old_text, new_text)
        if fields:
            return say("in %(fields)s", fields=tuple(fields))
    else:
        old_lines, new_lines = old_text.splitlines(), new_text.splitlines()
        for number, (old, line) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
            if old != line:
                return say("first at line %(line)s", line=number)
        if len(old_lines) != len(new_lines):
            return say("first at line %(line)s", line=min(len(old_lines), len(new_lines)) + 1)
    return say("only in its bytes: its lines are the same")


def _fields_differing(old: bytes, new: bytes) -> list[str]:
    """The top-level fields of two tournament files whose values differ, in the new
    file's order (then those it no longer has)."""
    try:
        before: Any = json.loads(old)
        after: Any = json.loads(new)
    except ValueError:
        return []
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    names = [*after, *(name for name in before if name not in after)]
    return [name for name in names if before.get(name) != after.get(name)]
