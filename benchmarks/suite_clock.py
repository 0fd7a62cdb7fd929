"""A pytest plugin that writes, for every test, its wall time and the processor time it
spent: in the worker that ran it and in the processes the test started and waited for
(servers, Chromium, ``saboteur`` commands). :mod:`benchmarks.suite` loads it into the
suite (``-p benchmarks.suite_clock``) and reads what it wrote.

Each pytest-xdist worker appends to a file of its own in ``$SABOTEUR_SUITE_CLOCK``, a
JSON object a test: ``{"test", "wall", "own", "children"}`` in seconds. A child's time
is counted when it is reaped (``os.times``), so a process that outlives its test (a
session's server) is counted where it ends, or not at all.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator
from pathlib import Path
from typing import IO, Any

import pytest

FOLDER = "SABOTEUR_SUITE_CLOCK"
_out: IO[str] | None = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, None]:
    """Time one test: its setup, call and teardown."""
    global _out
    folder = os.environ.get(FOLDER)
    if folder is None:
        yield
        return
    if _out is None:
        _out = (Path(folder) / f"{os.getpid()}.jsonl").open("a")
    before, started = os.times(), time.monotonic()
    yield
    after, ended = os.times(), time.monotonic()
    own = (after.user - before.user) + (after.system - before.system)
    children = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    _out.write(json.dumps({"test": item.nodeid, "wall": ended - started, "own": own, "children": children}) + "\n")
    _out.flush()
