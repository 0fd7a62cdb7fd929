"""The Standings page on paper: a print layout, and the PDF download.

Printing the page (the browser's Print, Ctrl-P) gives the title, the tournament and
stage (a line shown on paper only), the whole table and the standings' own line of
when they were last updated: the sidebar, the header and
toolbar, every button and widget, the headline numbers, the "why" and the integrity
part are left off, and nothing scrolls inside itself, so every row reaches the paper.

The PDF is :func:`analytics.printing.standings_pdf`, the same the CLI writes with
``saboteur tournament standings ID --format pdf -o FILE``; it is made when the button
is pressed, not at every refresh of the page.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from typing import Any, Final

import polars as pl
import streamlit as st

from analytics.browse import cut_of
from analytics.printing import standings_pdf
from dashboard import data, i18n, names
from dashboard.i18n import _
from dashboard.markup import visible

PRINT_CSS: Final = """<style>
.print-only { display: none; }
@media print {
  .print-only { display: block; font-size: 14pt; font-weight: 600; margin: 0 0 6pt 0; }
  @page { margin: 12mm; }
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stToolbar"], [data-testid="stDecoration"], [data-testid="stStatusWidget"],
  [data-testid="stButton"], [data-testid="stDownloadButton"], [data-testid="stFormSubmitButton"],
  [data-testid="stRadio"], [data-testid="stSelectbox"], [data-testid="stMultiSelect"],
  [data-testid="stTextInput"], [data-testid="stPills"], [data-testid="stSegmentedControl"],
  [data-testid="stMetric"], [data-testid="stExpander"], [data-testid="stCode"],
  [data-testid="stAlert"], [data-testid="stIFrame"],
  [data-testid="stElementContainer"]:has(hr), [data-testid="stElementContainer"]:has(hr) ~ * {
    display: none !important;
  }
  html, body, .stApp, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stMain"],
  [data-testid="stMainBlockContainer"], [data-testid="stVerticalBlock"] {
    height: auto !important; min-height: 0 !important; overflow: visible !important;
    position: static !important; display: block !important;
  }
  [data-testid="stMainBlockContainer"] { padding: 0 !important; max-width: 100% !important; }
  [data-testid="stMarkdownContainer"] table { width: 100%; border-collapse: collapse; font-size: 10pt; }
  [data-testid="stMarkdownContainer"] tr { break-inside: avoid; }
  [data-testid="stMarkdownContainer"] thead { display: table-header-group; }
}
</style>"""
"""Only for paper (``@media print``): the screen is untouched. Each page element is named
by the ``data-testid`` Streamlit gives it; the integrity part is what follows the
divider."""


def print_layout(tournament_name: str, stage: str) -> None:
    """Lay out the print style and, for paper only, which tournament and stage these
    standings are (the pickers that say it on screen are not printed)."""
    name = escape(visible(tournament_name, isolates=False))  # in its own direction: <bdi>
    st.html(f'{PRINT_CSS}<p class="print-only"><bdi>{name}</bdi>: {escape(names.stage(stage))}</p>')


def pdf_download(tournament: str, stage: str, frame: pl.DataFrame, described: dict[str, Any]) -> None:
    """The button that downloads these standings as a PDF: ``described`` is the
    tournament's row of :func:`dashboard.data.tournaments` (its name and cut). The PDF
    itself is the CLI's, in the page's language."""
    # in UTC, as the command line's sheet and the as-of picker say a moment: two sheets of
    # one tournament, one printed here and one by `saboteur standings --format pdf`, gave
    # "14:22 CET" and "13:22 UTC"
    as_of = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    taken = data.penalties(tournament).filter(pl.col("stage") == stage)
    lang = i18n.language()  # read now: the button's callback runs outside the page's run
    st.download_button(
        _("Download the standings (PDF)"),
        lambda: standings_pdf(
            frame,
            tournament=described["name"],
            stage=stage,
            as_of=as_of,
            cut=cut_of(described, stage)[0],
            goes_to=cut_of(described, stage)[1],
            penalties=taken,
            lang=lang,
        ),
        file_name=f"standings-{tournament}-{stage}.pdf",
        mime="application/pdf",
        icon=":material/picture_as_pdf:",
        on_click="ignore",
    )
