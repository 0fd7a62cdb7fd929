"""The dashboard over a lake (issue 15, point 5): the Roles page reads its statistics
from the lake, read-only, and says so; the pages that need the store say they are not
there. The lake is the sample tournament's files, built batch by batch in this process
(the tasks ``saboteur archive build`` gives Dask, run without a cluster)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from analytics import stats
from analytics.lake import connect
from cli import dashboard as serve
from dashboard.data import lake_url
from dashboard.i18n import number
from dashboard.markup import escape
from ingest.lake.build import listing, plan, run_batch
from tests.dashboard.conftest import Sample, page_text, run_page


@pytest.fixture(scope="module")
def lake(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> str:
    root = str(tmp_path_factory.mktemp("roles-lake") / "lake")
    for batch in plan(listing([str(sample.logs)]), datetime(2026, 1, 1, tzinfo=UTC), batch_files=4):
        run_batch(root, batch)
    return root


@pytest.fixture
def over_lake(lake: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The dashboard started over ``lake`` (``$SABOTEUR_LAKE``) and no store at all."""
    monkeypatch.setenv("SABOTEUR_LAKE", lake)
    monkeypatch.setenv("SABOTEUR_DB", str(tmp_path / "no-store.duckdb"))
    monkeypatch.delenv("SABOTEUR_ADMIN_PASSWORD", raising=False)
    return lake


def test_the_roles_page_reads_the_lake_and_names_it(over_lake: str) -> None:
    """The sample is one tournament of one ruleset: the page's first filters take every
    round of the lake."""
    at = run_page()  # over a lake, the page the dashboard opens on
    assert [t.value for t in at.title] == ["Roles"]
    text = page_text(at)
    assert f"Read from the lake {escape(over_lake)}, read-only." in text, text
    assert f"Lake, read-only: {escape(over_lake)}" in page_text(at.sidebar), page_text(at.sidebar)
    with connect(over_lake) as con:
        expected = stats.role_win_rates(con)
    trials = int(expected["n"].sum())
    assert trials > 0 and f"{number(trials)} trials in {number(expected.height)} cells." in text, text
    assert at.dataframe[0].value["n"].sum() == trials


@pytest.mark.parametrize("page", ["standings", "rounds", "upload", "audit"])
def test_a_page_that_needs_the_store_says_so_over_a_lake(over_lake: str, page: str) -> None:
    at = run_page(page)
    assert "This page needs the store: the dashboard is reading a lake" in page_text(at)
    assert not at.error


def test_the_dashboard_command_hands_the_lake_to_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``saboteur dashboard --lake URL`` runs the app with ``--lake URL``, which the app reads."""
    line = serve.command(8501, tmp_path / "x.duckdb", lake="s3://bucket/lake")
    monkeypatch.delenv("SABOTEUR_LAKE", raising=False)
    monkeypatch.setattr(sys, "argv", line[line.index("--") :])
    assert lake_url() == "s3://bucket/lake"
    monkeypatch.setattr(sys, "argv", serve.command(8501, tmp_path / "x.duckdb"))
    assert lake_url() is None


def test_a_damaged_record_of_the_lake_is_said_not_raised(
    lake: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A manifest entry that is not one: the Roles page says which file and why, as the
    command line does in one line (exit 2), with no traceback."""
    import shutil

    from typer.testing import CliRunner

    from cli.main import app

    copy = Path(shutil.copytree(lake, tmp_path / "lake"))
    (copy / "_manifest" / "zz.json").write_text("{not json")
    monkeypatch.setenv("SABOTEUR_LAKE", str(copy))
    monkeypatch.setenv("SABOTEUR_DB", str(tmp_path / "no-store.duckdb"))
    at = run_page()
    assert not at.exception
    shown_error = at.error[0].value.replace("\\", "")  # escaped as Markdown: a file's name is text
    assert "The lake cannot be read: _manifest/zz.json: not a record of the lake" in shown_error, shown_error
    shown = CliRunner().invoke(app, ["archive", "verify", str(copy)])
    assert shown.exit_code == 2 and "Traceback" not in shown.output
    assert "_manifest/zz.json: not a record of the lake this program wrote" in " ".join(shown.output.split())
