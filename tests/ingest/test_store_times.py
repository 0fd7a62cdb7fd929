"""The store's times are UTC wherever the machine is: every page and command that shows
one says "UTC" beside it (or writes ``Z``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
