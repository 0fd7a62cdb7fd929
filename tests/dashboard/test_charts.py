"""The dashboard's charts, as the Vega-Lite specs Streamlit is given."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analytics import browse
from dashboard import charts
from ingest.store import Store
from tests.analytics.test_stats import fill_hand_store


@pytest.fixture(scope="module")
def rounds_of_b(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    """Player b's rounds of the hand-made store: five tournament rounds, one base round."""
    path: Path = tmp_path_factory.mktemp("hand") / "hand.duckdb"
    fill_hand_store(path)
    return browse.player_rounds(Store(path), "b")


def test_points_over_time_of_both_rulesets_is_a_chart_of_each(rounds_of_b: pl.DataFrame) -> None:
    """Points and nuggets are not one unit: a player of both rulesets gets a row of the
    chart for each, not one line through both."""
    spec = charts.points_over_time(rounds_of_b).to_dict()
    assert spec["facet"]["row"]["field"] == "ruleset"
    assert {row["ruleset"] for row in spec["datasets"][spec["data"]["name"]]} == {"tournament rules", "base game"}


def test_points_over_time_of_one_ruleset_is_one_chart(rounds_of_b: pl.DataFrame) -> None:
    spec = charts.points_over_time(rounds_of_b.filter(pl.col("ruleset") == "tournament")).to_dict()
    assert "facet" not in spec
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["line", "point"]  # a point takes a shape


def _tables(count: int) -> pl.DataFrame:
    """Win rates of one role at ``count`` tables (3 to 10 players, 1 to 4 saboteurs)."""
    tables = [(players, saboteurs) for players in range(3, 11) for saboteurs in range(1, 5)][:count]
    return pl.DataFrame(
        {
            "table": [f"{p} players, {s} sab." for p, s in tables],
            "players": [p for p, _ in tables],
            "saboteurs": [s for _, s in tables],
            "role": ["gold_digger"] * count,
            "n": [10] * count,
            "wins": [5] * count,
            "rate": [0.5] * count,
            "low": [0.2] * count,
            "high": [0.8] * count,
            "flagged": [False] * count,
        }
    )


@pytest.mark.parametrize("count", [1, charts.LEVEL_TABLES, charts.LEVEL_TABLES + 1, 14])
def test_every_tables_label_is_written_level_on_two_lines_or_slanted_where_there_are_many(count: int) -> None:
    """A base game's dozen tables ("5 players, 1 sab.") were labelled level on one line:
    Vega left out every label that overlapped the one before it, two in three of them,
    and the error bars of 4, 6, 8 and 10 players were anyone's. Each label is written:
    level on two lines where there are few, slanted where there are many."""
    axis = charts.role_win_rates(_tables(count)).to_dict()["layer"][0]["encoding"]["x"]["axis"]
    assert axis["labelOverlap"] is False and axis["labelLimit"] == 0, axis  # none left out, none cut short
    if count <= charts.LEVEL_TABLES:
        assert axis["labelAngle"] == 0 and axis["labelExpr"] == "split(datum.label, ', ')", axis
    else:
        assert axis["labelAngle"] < 0 and axis["labelAlign"] == "right", axis
