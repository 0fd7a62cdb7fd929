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
