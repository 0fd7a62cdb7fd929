"""A Ctrl-C is never lost (:func:`ingest.store.ctrl_c_noted`).

Python swallows an exception raised while it runs an object's ``__del__``: it prints
"Exception ignored in …" with the traceback and goes on. A Ctrl-C whose
``KeyboardInterrupt`` came while a Dask ``Future`` was being collected so let an
``archive build`` run to its end with exit 0 (a flaky failure of
``test_lake_faults``' Ctrl-C test, its stderr naming ``Future.__del__``)."""

from __future__ import annotations

import signal
import sys
import time
from typing import Any

import pytest

from ingest.store import ctrl_c_noted


class _CollectedAtCtrlC:
    """An object whose collection is where the Ctrl-C lands, as a Dask future's can."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)  # Python runs its handler here, in __del__
        sum(range(1000))


@pytest.fixture
def swallowed(monkeypatch: pytest.MonkeyPatch) -> list[BaseException]:
    """What Python hands its hook for the exceptions it swallows (printed, outside tests)."""
    seen: list[BaseException] = []

    def hook(unraisable: Any) -> None:
        seen.append(unraisable.exc_value)

    monkeypatch.setattr(sys, "unraisablehook", hook)
    return seen


def test_a_ctrl_c_swallowed_in_a_destructor_still_stops_the_command(swallowed: list[BaseException]) -> None:
    """At once: the work after it (a build's next batches) is not done first."""
    went_on = False
    work_done = 0
    with pytest.raises(KeyboardInterrupt), ctrl_c_noted():
        _CollectedAtCtrlC()
        went_on = True  # the destructor's KeyboardInterrupt did not stop this line
        for _ in range(50):  # ten seconds of "batches", unless stopped
            time.sleep(0.2)
            work_done += 1
    assert went_on and work_done <= 2
    assert swallowed == []  # nor was its traceback printed


def test_a_ctrl_c_swallowed_at_the_blocks_last_line_is_raised_as_it_ends(swallowed: list[BaseException]) -> None:
    with pytest.raises(KeyboardInterrupt), ctrl_c_noted():
        _CollectedAtCtrlC()
    assert swallowed == []
    time.sleep(0.1)  # the Ctrl-C sent again was called off: none comes after the block


def test_a_ctrl_c_raised_as_usual_stops_it_once_and_the_handler_goes_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    reached = []
    with pytest.raises(KeyboardInterrupt), ctrl_c_noted():
        signal.raise_signal(signal.SIGINT)
        reached.append("after")
    assert reached == []
    assert signal.getsignal(signal.SIGINT) is before


def test_other_swallowed_errors_are_still_printed(swallowed: list[BaseException]) -> None:
    class Broken:
        def __del__(self) -> None:
            raise ValueError("a destructor's own bug")

    with ctrl_c_noted():
        Broken()
    assert [str(error) for error in swallowed] == ["a destructor's own bug"]
    Broken()
    assert len(swallowed) == 2  # the hook is Python's again after the block


def test_a_block_without_ctrl_c_ends_as_it_would() -> None:
    with ctrl_c_noted():
        value = 1
    assert value == 1
