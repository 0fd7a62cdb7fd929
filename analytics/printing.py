"""The standings as a PDF to print or pin up: every row, the cut line inside the table,
each penalty's reason as a numbered note, a title with the tournament, the stage and
the moment they stand at, and page numbers. The dashboard's download and ``saboteur
tournament standings --format pdf`` both call :func:`standings_pdf`.

Names come from every language the players speak, so the text is set in a Unicode
TrueType font: ``$SABOTEUR_PDF_FONT`` (a ``.ttf`` file), else DejaVu Sans where the
system keeps it (Debian's ``fonts-dejavu-core``, which Chromium and fontconfig pull in).
Without either the PDF falls back to a built-in Latin-1 font, and says so on its first
page: letters outside Latin-1 print as ``?`` (:data:`FALLBACK_NOTE`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import polars as pl
from fpdf import FPDF, FontFace
from fpdf.enums import TableCellFillMode
from fpdf.fonts import TTFFont

from analytics.penalty_notes import penalty_notes
from analytics.standings import above_the_cut
from events.language import ENGLISH, words
from events.said import say, sentence

FONT_SETTING: Final = "SABOTEUR_PDF_FONT"
_DEJAVU_FOLDERS: Final = (
    Path("/usr/share/fonts/truetype/dejavu"),  # Debian, Ubuntu
    Path("/usr/share/fonts/dejavu-sans-fonts"),  # Fedora
    Path("/usr/share/fonts/TTF"),  # Arch
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),  # macOS, where a user installed it
)
FALLBACK_NOTE: Final = (
    f"No Unicode font was found (DejaVu Sans, or a .ttf named by ${FONT_SETTING}): "
    "letters outside Latin-1 are printed as ?."
)
_FAMILY: Final = "standings"
_PRELIMINARY: Final = (
    ("#", "rank", 12),
    (sentence("player"), "name", 78),
    (sentence("points"), "points", 18),
    (sentence("stars"), "stars", 16),
    (sentence("rounds"), "rounds", 16),
    (sentence("penalty"), "penalty", 22),
    (sentence("open findings"), "open_findings", 18),
)
_FINAL: Final = (
    ("#", "rank", 12),  # 2= for two level on every tie-breaker, as the page and the command write it
    (sentence("player"), "name", 66),
    (sentence("points"), "final_points", 18),
    (sentence("stars"), "final_stars", 16),
    (sentence("prelim. points"), "preliminary_points", 24),
    (sentence("prelim. stars"), "preliminary_stars", 22),
    (sentence("penalty"), "penalty", 22),
)
_STAGES: Final = {
    "preliminary": sentence("%(tournament)s: standings, preliminary"),
    "semifinal": sentence("%(tournament)s: standings, semi-final"),
    "final": sentence("%(tournament)s: standings, final"),
}
"""Each column: its head, the standings' column, its width in millimetres (180 in all:
A4 less the margins)."""


@dataclass(frozen=True, slots=True)
class Fonts:
    """The regular and bold font files; ``None``: the built-in Latin-1 fallback."""

    regular: Path | None
    bold: Path | None


def find_fonts() -> Fonts:
    """``$SABOTEUR_PDF_FONT`` (for both weights), else DejaVu Sans and its bold where
    the system keeps them, else the fallback."""
    chosen = os.environ.get(FONT_SETTING)
    if chosen and Path(chosen).is_file():
        return Fonts(Path(chosen), Path(chosen))
    for folder in _DEJAVU_FOLDERS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file():
            return Fonts(regular, bold if bold.is_file() else regular)
    return Fonts(None, None)


class _Sheet(FPDF):
    """A4 pages whose footer names the standings and numbers the page."""

    def __init__(self, fonts: Fonts, footer: Callable[[str], str], tournament: str, lang: str = ENGLISH) -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        self.footer_of = footer
        """The footer's words with the tournament's name in them."""
        self.tournament = tournament
        self.lang = lang
        self.full_unicode = fonts.regular is not None
        self.glyphs: frozenset[int] = frozenset()
        if fonts.regular is not None and fonts.bold is not None:
            self.add_font(_FAMILY, "", str(fonts.regular))
            self.add_font(_FAMILY, "B", str(fonts.bold))
            self.face = _FAMILY
            # what both weights can draw: a letter one lacks (an emoji in a name) fpdf
            # drops with a warning on the standard error, and the name prints short
            regular, bold = self.fonts[_FAMILY], self.fonts[_FAMILY + "B"]
            if isinstance(regular, TTFFont) and isinstance(bold, TTFFont):
                self.glyphs = frozenset(regular.cmap).intersection(bold.cmap)
        else:
            self.face = "helvetica"
        self.set_margins(15, 15, 15)
        self.set_auto_page_break(auto=True, margin=18)
        self.alias_nb_pages()

    def text_of(self, value: object) -> str:
        """``value`` as text this document's font can set: a letter it has no glyph for
        is ``?`` (Latin-1's letters alone in the built-in fallback)."""
        text = "" if value is None else str(value)
        if not self.full_unicode:
            return text.encode("latin-1", "replace").decode("latin-1")
        glyphs = self.glyphs
        return "".join(c if ord(c) in glyphs or c in "\n\t" else "?" for c in text)

    def footer(self) -> None:
        self.set_y(-13)
        self.set_font(self.face, "", 8)
        self.set_text_color(90)
        # {nb} is fpdf's alias for the number of pages, written in once they are all laid out
        # (measured as written, it is as wide as any count of pages up to 9,999)
        page = self.text_of(words(say("page %(page)s of %(pages)s", page=str(self.page_no()), pages="{nb}"), self.lang))
        room = self.epw - self.get_string_width(page) - 2 * self.c_margin - _FOOTER_GAP
        width = room - 2 * self.c_margin
        # the tournament's name is cut short where the words do not fit (a long one ran
        # over the page number and off the page), so the stage and the moment stay
        said = self.shortened(self.text_of(self.tournament), width, lambda name: self.text_of(self.footer_of(name)))
        self.cell(room, 5, self.shortened(said, width), align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, page, align="R")

    def shortened(self, text: str, width: float, framed: Callable[[str], str] = str) -> str:
        """``framed(text)``, ``text`` (as :meth:`text_of` gives it) cut short with an
        ellipsis where it is wider than ``width`` millimetres in the current font."""
        if self.get_string_width(framed(text)) <= width:
            return framed(text)
        ellipsis = "…" if ord("…") in self.glyphs else "..."  # the built-in font has no "…"
        while text and self.get_string_width(framed(text.rstrip() + ellipsis)) > width:
            text = text[:-1]
        return framed(text.rstrip() + ellipsis)


_FOOTER_GAP: Final = 4
"""Millimetres between the footer's words and the page number."""
_PADDING: Final = 2.5
"""Millimetres of a table's cell its text does not take (fpdf's padding, both sides)."""


def _heading_size(pdf: _Sheet, heads: list[str], widths: list[int], largest: float = 9, smallest: float = 6) -> float:
    """The largest bold size, down to ``smallest``, at which every word of every head
    fits its column whole: a word wider than its column is broken mid-word ("open
    bevindin-gen", "Vorr.-Punkt-e"), where German and Dutch heads run longer than the
    English ones the widths were made for."""
    size = largest
    while size > smallest:
        pdf.set_font(pdf.face, "B", size)
        if all(
            pdf.get_string_width(word) <= width - _PADDING
            for head, width in zip(heads, widths, strict=True)
            for word in head.split()
        ):
            break
        size -= 0.5
    return size


def _rank(item: dict[str, Any]) -> str:
    return f"{item['rank']}=" if item.get("shared") else str(item["rank"])


def _cells(item: dict[str, Any], column: str, marks: dict[str, list[int]], lang: str = ENGLISH) -> str:
    if column == "rank":
        return _rank(item)
    if column == "name" and item.get("withdrawn"):  # as the terminal says it: why a row above the line is passed over
        return words(say("%(name)s (withdrew)", name=str(item["name"])), lang)
    if column == "penalty":
        taken = f"-{item['penalty']}" if item["penalty"] else ""
        noted = "".join(f" [{n}]" for n in marks.get(item["player"], []))
        return (taken + noted).strip()
    if column == "open_findings":
        return str(item[column] or "")
    return str(item[column])


_WITHDRAWN: Final = FontFace(color=(110, 110, 110))
"""A withdrawn player's row: grey, as the terminal dims it."""

_GO_ON: Final = {
    "final": (
        sentence("cut line: the top %(cut)s go on to the final"),
        sentence("The top %(cut)s go on to the final."),
    ),
    "semifinal": (
        sentence("cut line: the top %(cut)s go on to the semi-final"),
        sentence("The top %(cut)s go on to the semi-final."),
    ),
}
"""The cut line's words, and the heading's, by the stage the cut sends players to."""


def _cut_words(frame: pl.DataFrame, cut: int, lang: str, goes_to: str = "final") -> str:
    said = words(say(_GO_ON[goes_to][0], cut=cut), lang)
    tied = tuple(frame.filter(pl.col("cut_tie_undrawn"))["name"].to_list())
    if tied:
        said += " " + words(say("(a tie across it is not drawn yet: %(names)s)", names=tied), lang)
    return said


def standings_pdf(
    frame: pl.DataFrame,
    *,
    tournament: str,
    stage: str,
    as_of: str,
    cut: int,
    penalties: pl.DataFrame,
    lang: str = ENGLISH,
    goes_to: str = "final",
) -> bytes:
    """The standings ``frame`` (:func:`analytics.standings.standings` of ``stage``) as a
    PDF in ``lang``: ``tournament`` is the name in the title, ``as_of`` the moment they
    stand at (already written out), ``cut`` the places that go on to the stage
    ``goes_to`` (:func:`analytics.browse.cut_of`), ``penalties`` the
    stage's penalties (player, points, reason; :func:`analytics.browse.penalties`). The
    names, the reasons and the moment are printed as they are given."""
    if "shared" not in frame.columns:  # the final table's ranks say nothing of it: a rank two hold is shared
        frame = frame.with_columns(shared=pl.len().over("rank") > 1)
    fonts = find_fonts()
    headed = _STAGES.get(stage, _STAGES["preliminary"])
    title = words(say(headed, tournament=tournament), lang)
    moment = words(say("as of %(moment)s", moment=as_of), lang)
    between = " · " if fonts.regular is not None else ", "

    def footer(name: str) -> str:  # the name cut short where the page number leaves it no room
        return words(say(headed, tournament=name), lang) + between + moment

    pdf = _Sheet(fonts, footer, tournament, lang)
    pdf.set_title(pdf.text_of(title))
    pdf.set_creator("Saboteur Ledger")
    pdf.add_page()
    pdf.set_font(pdf.face, "B", 16)
    pdf.multi_cell(0, 8, pdf.text_of(title), new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.set_font(pdf.face, "", 10)
    said = words(
        say(
            "As of %(moment)s. %(count)s player.",
            "As of %(moment)s. %(count)s players.",
            "count",
            moment=as_of,
            count=frame.height,
        ),
        lang,
    )
    if stage != "final":
        said += " " + words(say(_GO_ON[goes_to][1], cut=cut), lang)
    pdf.multi_cell(0, 6, pdf.text_of(said), new_x="LMARGIN", new_y="NEXT", align="L")
    if fonts.regular is None:
        pdf.set_text_color(160, 0, 0)
        pdf.multi_cell(0, 5, FALLBACK_NOTE, new_x="LMARGIN", new_y="NEXT", align="L")  # for whoever sets the server up
        pdf.set_text_color(0)
    pdf.ln(3)

    marks, notes = penalty_notes(frame, penalties)
    columns = _FINAL if stage == "final" else _PRELIMINARY
    in_cut = above_the_cut(frame)
    heads = [pdf.text_of(words(say(head), lang)) for head, _, _ in columns]
    pdf.set_font(pdf.face, "", 9)
    with pdf.table(
        col_widths=[width for _, _, width in columns],
        text_align=["RIGHT", "LEFT", *["RIGHT"] * (len(columns) - 2)],
        headings_style=FontFace(
            emphasis="BOLD", fill_color=(225, 225, 225), size_pt=_heading_size(pdf, heads, [w for _, _, w in columns])
        ),
        cell_fill_color=(245, 245, 245),
        cell_fill_mode=TableCellFillMode.ROWS,
        line_height=5.5,
        first_row_as_headings=True,
        repeat_headings=1,
    ) as table:
        table.row(heads)
        for place, item in enumerate(frame.iter_rows(named=True)):
            if place == in_cut:
                line = table.row()
                line.cell(
                    pdf.text_of(_cut_words(frame, cut, lang, goes_to)),
                    colspan=len(columns),
                    align="CENTER",
                    style=FontFace(emphasis="BOLD", fill_color=(255, 236, 179)),
                )
            cells = [pdf.text_of(_cells(item, column, marks, lang)) for _, column, _ in columns]
            table.row(cells, style=_WITHDRAWN if item.get("withdrawn") else None)
    _notes(pdf, words(say("Penalties"), lang), notes)
    return bytes(pdf.output())


def _notes(pdf: _Sheet, heading: str, notes: Iterable[str]) -> None:
    written = list(notes)
    if not written:
        return
    pdf.ln(4)
    pdf.set_font(pdf.face, "B", 10)
    pdf.cell(0, 6, pdf.text_of(heading), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.face, "", 9)
    for note in written:
        pdf.multi_cell(0, 5, pdf.text_of(note), new_x="LMARGIN", new_y="NEXT", align="L")
