"""``Store.streams_naming``: the streams whose header names a value, found by DuckDB in
the payloads, are those a reading of every header finds (a tournament's games as the
standings as of a moment take them, over every game of a store of seasons)."""

from __future__ import annotations

import json
from pathlib import Path

from analytics.standings import GAME_HEADERS
from events.logfile import write_log
from events.simulate.game import quick_game
from ingest.pipeline import ingest
from ingest.store import Store
from tests.ingest.conftest import TOURNAMENT


def test_the_games_naming_a_tournament_up_to_any_moment_are_those_their_headers_name(
    store_file: Path, tmp_path: Path
) -> None:
    casual = quick_game(players=5, rounds=1, seed=9)  # a game of no tournament, stored after the others
    (tmp_path / "casual.jsonl").write_text(write_log(casual), encoding="utf-8")
    store = Store(store_file)
    ingest([tmp_path / "casual.jsonl"], store, workers=1)
    with store.connect(read_only=True) as con:
        last, _head = store.head(con)
        for moment in sorted({1, 2, last // 3, last // 2, last - 1, last, None}, key=lambda m: m or last + 1):
            headers = list(store.read_all(con, until=moment, types=GAME_HEADERS))
            for named in (TOURNAMENT, "no-such-tournament"):
                read = {e.stream for e in headers if json.loads(e.payload).get("tournament") == named}
                assert store.streams_naming(con, GAME_HEADERS, "tournament", named, until=moment) == read, moment
        assert store.streams_naming(con, GAME_HEADERS, "tournament", TOURNAMENT)  # the test is no empty one
        when = next(iter(store.read_all(con, after=last - 1))).recorded_at
        by_time = store.streams_naming(con, GAME_HEADERS, "tournament", TOURNAMENT, until=when)
        assert by_time == store.streams_naming(con, GAME_HEADERS, "tournament", TOURNAMENT, until=last)
