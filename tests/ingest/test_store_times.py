"""The store's times are UTC wherever the machine is: every page and command that shows
one says "UTC" beside it (or writes ``Z``); and they never go backwards, whatever the
machine's clock does."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, tzinfo
from pathlib import Path

import pytest

from analytics import records
from ingest.store import Store, writing
from ingest.verify import verify
from tests.ingest.conftest import TOURNAMENT

ROOT = Path(__file__).resolve().parents[2]
SHOWN = """
import sys
from analytics.browse import round_moments
from ingest.store import Store
store = Store(sys.argv[1])
with store.connect(read_only=True) as con:
    print(con.execute("SELECT recorded_at FROM events ORDER BY position LIMIT 1").fetchall()[0][0].isoformat())
with store.connect(read_only=True) as con:
    print(next(iter(store.read_streams(con)))[0].recorded_at.isoformat())
print(round_moments(store, sys.argv[2], "preliminary")["recorded_at"][0].isoformat())
"""


def test_a_store_read_on_a_machine_in_another_zone_gives_its_times_in_utc(store_file: Path) -> None:
    """On a laptop set to Tokyo (or Amsterdam), the times a store gives are UTC: the
    Standings page labelled the time of a round's moment "UTC" and showed the machine's
    (9 hours off here), and an organiser who copied it into ``--as-of`` got other
    standings."""
    env = {**os.environ, "TZ": "Asia/Tokyo", "PYTHONPATH": str(ROOT)}
    shown = subprocess.run(
        [sys.executable, "-c", SHOWN, str(store_file), TOURNAMENT],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    ).stdout.split()
    assert len(shown) == 3 and all(moment.endswith("+00:00") for moment in shown), shown


def test_a_clock_set_back_never_stamps_a_transaction_before_the_events_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A laptop's clock stepped back (NTP, or set right at the venue) stamped a later
    transaction earlier than the one before: ``--as-of`` a time between the two then
    showed the later game without the earlier one, a store that never was. A
    transaction is stamped no earlier than the head it follows, and the chain holds."""
    store = Store(tmp_path / "clock.duckdb")
    records.create(store, "cup", name="Cup")
    with store.connect(read_only=True) as con:
        first = con.execute("SELECT max(recorded_at) FROM events").fetchall()[0][0]

    class Behind(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> Behind:  # type: ignore[override]
            return cls.fromtimestamp(first.timestamp() - 3600, tz)

    monkeypatch.setattr(writing, "datetime", Behind)
    records.register(store, "cup", [("ann", "Ann")])
    with store.connect(read_only=True) as con:
        times = [row[0] for row in con.execute("SELECT recorded_at FROM events ORDER BY position").fetchall()]
    assert times == sorted(times) and times[-1] == first
    assert verify(store).ok
