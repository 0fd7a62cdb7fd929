"""The Standings page on paper (issue 13, point 1): a print layout that leaves the
sidebar, header, widgets, buttons and the integrity part off and prints every row, and a
PDF download of the standings. In AppTest, and in a real headless Chromium that prints
the page and downloads the PDF (both read back with pypdf)."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
from streamlit.testing.v1 import AppTest

from analytics.standings import standings
from ingest.store import Store
from tests.dashboard.conftest import TOURNAMENT, run_page
from tests.dashboard.test_browser import chromium, serving

PDF_BUTTON = "Download the standings (PDF)"


def pdf_text(pdf: bytes) -> str:
    """Every page's text, each run of spaces and line ends one space."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_the_standings_page_offers_the_pdf_and_a_print_layout(db: Path) -> None:
    at: AppTest = run_page()
    assert [b.proto.label for b in at.get("download_button")] == ["Download the standings (CSV)", PDF_BUTTON]
    (style,) = [h.value for h in at.html if "@media print" in h.value]
    # the name in its own direction
    assert '<p class="print-only"><bdi>Simulated Open 1</bdi>: preliminary</p>' in style


def test_printing_the_page_gives_the_title_and_every_row_and_the_pdf_downloads(db: Path, tmp_path: Path) -> None:
    names = standings(Store(db), TOURNAMENT)["name"].to_list()
    with serving(db, tmp_path) as served, chromium() as page:
        page.set_viewport_size({"width": 1400, "height": 600})  # shorter than the table: no row may be cut off
        page.goto(served)
        page.get_by_text("The record's integrity").wait_for()
        page.get_by_text("Last updated").wait_for()
        page.emulate_media(media="print")
        printed = pdf_text(page.pdf(format="A4"))
        for name in names:
            assert name in printed, name
        assert printed.startswith("Standings Simulated Open 1: preliminary")
        assert "Last updated" in printed
        for left_off in ("Store:", "Stage", "Download", "Verify the chain now", "integrity", "Players Games"):
            assert left_off not in printed, left_off

        page.emulate_media(media="screen")
        assert page.locator(".print-only").is_hidden()
        with page.expect_download() as arrived:
            page.get_by_role("button", name=PDF_BUTTON).click()
        download = arrived.value
        assert download.suggested_filename == f"standings-{TOURNAMENT}-preliminary.pdf"
        got = pdf_text(Path(download.path()).read_bytes())
        assert all(name in got for name in names) and "Simulated Open 1: standings, preliminary" in got
