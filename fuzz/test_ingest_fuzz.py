"""Fuzz targets: game logs, score sheets, tournament files and file names, mutated from
valid ones and ingested through ``saboteur ingest`` (the checks: :mod:`fuzz.bench`).

Each example starts from a valid file given a new id (a game id, a tournament id) so
that what survives the mutation can be accepted and stored, not refused as a game
already stored; then one kind of mutation from :mod:`fuzz.mutations` is applied.
"""

from __future__ import annotations

import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Final

from hypothesis import given
from hypothesis import strategies as st

from events.logfile import BOM, write_log
from events.simulate.game import quick_game
from events.simulate.tournament import simulate_tournament
from fuzz.bench import EXAMPLE_GAME, EXAMPLE_SHEET, TOKEN, Bench
from fuzz.mutations import (
    FILE_NAMES,
    byte_edits,
    csv_field_edits,
    gzipped,
    json_line_edits,
    json_number_edits,
    json_tree_edits,
    line_edits,
)
from fuzz.settings import FUZZ

LOG_SEEDS: Final = (("tournament", 5, 1), ("base", 4, 2), ("tournament", 10, 3))
"""(ruleset, players, seed) of the simulated games the log targets start from."""


@cache
def valid_log(ruleset: str, players: int, seed: int) -> bytes:
    """A simulated game's log, as ``saboteur simulate`` writes it, its game id :data:`TOKEN`."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        write_log(quick_game(players, ruleset=ruleset, seed=seed), path)
        return path.read_bytes().replace(f"sim:{ruleset}:{players}:{seed}".encode(), TOKEN)


@cache
def valid_tournament() -> bytes:
    """A simulated ``tournament.json`` with a seating and a cut draw (seed 0 ties at the
    cut), its id :data:`TOKEN`."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "cup"
        simulate_tournament(
            out, players=10, preliminary_rounds=1, seed=0, cut=5, final_rounds=1, tournament_id=TOKEN.decode()
        )
        data = (out / "tournament.json").read_bytes()
    assert json.loads(data)["cut_draws"], "the seed no longer gives a cut draw"
    return data


VALID_SHEET: Final = EXAMPLE_SHEET.replace(EXAMPLE_GAME, TOKEN)
"""The example score sheet, its game id :data:`TOKEN`."""


@FUZZ
@given(st.data())
def test_game_logs(bench: Bench, data: st.DataObject) -> None:
    seed = valid_log(*data.draw(st.sampled_from(LOG_SEEDS), label="log"))
    mutated = data.draw(st.one_of(byte_edits(seed), line_edits(seed), json_line_edits(seed)), label="mutation")
    if data.draw(st.integers(0, 4), label="gzip") == 0:
        bench.run(b"game.jsonl.gz", data.draw(st.sampled_from((gzipped(mutated), mutated)) | byte_edits(gzipped(seed))))
    else:
        bench.run(b"game.jsonl", mutated)


@FUZZ
@given(st.data())
def test_score_sheets(bench: Bench, data: st.DataObject) -> None:
    seed = VALID_SHEET
    mutated = data.draw(st.one_of(byte_edits(seed), line_edits(seed), csv_field_edits(seed)), label="mutation")
    bench.run(b"sheet.csv", mutated)


@FUZZ
@given(st.data())
def test_tournament_files(bench: Bench, data: st.DataObject) -> None:
    seed = valid_tournament()
    tree = json_tree_edits(seed)  # most often: what survives parsing reaches the rules and the store
    mutations = st.one_of(tree, tree, json_number_edits(seed), byte_edits(seed), line_edits(seed))
    mutated = data.draw(mutations, label="mutation")
    bom = data.draw(st.booleans(), label="bom")
    bench.run(b"tournament.json", BOM + mutated if bom else mutated)


@FUZZ
@given(st.data())
def test_file_names(bench: Bench, data: st.DataObject) -> None:
    stem = data.draw(FILE_NAMES, label="name")
    suffix = data.draw(st.sampled_from((b".jsonl", b".csv", b".json", b".jsonl.gz", b".CSV", b".txt", b"")))
    content = data.draw(
        st.sampled_from((VALID_SHEET, valid_log(*LOG_SEEDS[0]), valid_tournament(), b"")),
        label="content",
    )
    bench.run(stem + suffix, content)
