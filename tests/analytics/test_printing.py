"""The standings on paper (issue 13, point 1): one PDF renderer for the dashboard's
download and ``saboteur standings ID --format pdf -o FILE``, holding every player (names
with accents as written), the cut line, each penalty's reason, a title with the
tournament, stage and moment, and page numbers. The PDFs are read back with pypdf."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pypdf
import pytest
from fpdf import FPDF
from typer.testing import CliRunner

from analytics import browse, printing, records
from analytics.printing import FALLBACK_NOTE, Fonts, standings_pdf
from analytics.standings import standings
from cli.main import app
from events.language import words
from events.said import say
from events.simulate.tournament import simulate_tournament
from ingest.pipeline import ingest
from ingest.store import Store

TID = "sim-open-1"
NAMES = (
    "Bjørn Østergård",
    "Zoë Ünal-Ağaoğlu",
    "François d'Hérelle",
    "Łukasz Żółć",
    "Åsa Öberg",
    "Jiří Dvořák",
    "Ævar Þórsson",
    "Núria Peñalver",
    "Ines Groß",
    "Sjoerd IJsselmeer",
    "Ōta Ĳssel",
    "Maëlle Çelik",
)
REASON = "arrived 20 minutes late to round 2 (see the referee's note)"


@dataclass(frozen=True)
class Accented:
    db: Path
    penalised: str
    """The id of the player given a penalty."""


@pytest.fixture(scope="module")
def accented(tmp_path_factory: pytest.TempPathFactory) -> Accented:
    """A simulated tournament of twelve players with accented names, one penalised."""
    root = tmp_path_factory.mktemp("accented")
    simulate_tournament(root / "logs", players=12, preliminary_rounds=2, seed=1)
    description = json.loads((root / "logs" / "tournament.json").read_text())
    for person, name in zip(description["players"], NAMES, strict=True):
        person["name"] = name
    (root / "logs" / "tournament.json").write_text(json.dumps(description, ensure_ascii=False), encoding="utf-8")
    store = Store(root / "ledger.duckdb")
    ingest([root / "logs"], store, workers=1)
    penalised = description["players"][1]["id"]
    records.penalty(store, TID, penalised, 2, REASON)
    return Accented(store.path, penalised)


def text_of(pdf: bytes) -> tuple[int, str]:
    """The PDF's pages and its text, every page."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


NO_PENALTIES = pl.DataFrame(
    schema={"number": pl.Int64, "player": pl.String, "stage": pl.String, "points": pl.Int64, "reason": pl.String}
)


def ranked(names: list[str], **columns: list[Any]) -> pl.DataFrame:
    """A standings frame of ``names`` in place order, one point apart, everyone in the
    cut, both stages' columns; ``columns`` set others."""
    rows = len(names)
    return pl.DataFrame(
        {
            "place": list(range(1, rows + 1)),
            "rank": list(range(1, rows + 1)),
            "shared": [False] * rows,
            "player": [f"p{n}" for n in range(rows)],
            "name": names,
            **{c: list(range(rows, 0, -1)) for c in ("points", "final_points", "preliminary_points")},
            **{c: [1] * rows for c in ("stars", "final_stars", "preliminary_stars")},
            "rounds": [3] * rows,
            "penalty": [0] * rows,
            "open_findings": [0] * rows,
            "in_cut": [True] * rows,
            "cut_tie_undrawn": [False] * rows,
            **columns,
        }
    )


def render(db: Path, stage: str = "preliminary") -> tuple[pl.DataFrame, bytes]:
    """The standings of ``stage`` and their PDF, as the dashboard's button makes it."""
    store = Store(db)
    frame = standings(store, TID, stage=stage)
    taken = browse.penalties(store, TID).filter(pl.col("stage") == stage)
    return frame, standings_pdf(
        frame, tournament="Accented Open", stage=stage, as_of="2026-11-29 18:05 CET", cut=6, penalties=taken
    )


def test_the_pdf_holds_every_player_with_their_accents_the_cut_and_the_penalty(accented: Accented) -> None:
    frame, pdf = render(accented.db)
    pages, text = text_of(pdf)
    flat = " ".join(text.split())
    assert pdf.startswith(b"%PDF-") and frame.height == len(NAMES)
    for name in NAMES:
        assert name in flat, name
    assert "Accented Open: standings, preliminary" in flat and "2026-11-29 18:05 CET" in flat
    assert "cut line: the top 6 go on to the final" in flat
    assert f"[1] Zoë Ünal-Ağaoğlu: -2. {REASON}" in flat
    assert f"page 1 of {pages}" in flat
    # the cut line stands between the last player in and the first one out
    order = [flat.index(name) for name in frame["name"]]
    assert order == sorted(order)
    cut = flat.index("cut line")
    above = int(frame["in_cut"].sum())
    assert order[above - 1] < cut < order[above]


def test_a_long_tournament_runs_over_pages_numbered_with_the_headings_again() -> None:
    rows = 130
    frame = ranked(
        [f"Spieler Nummer {n} Öz" for n in range(rows)], rounds=[6] * rows, in_cut=[n < 8 for n in range(rows)]
    )

    pages, text = text_of(
        standings_pdf(frame, tournament="Big Open", stage="preliminary", as_of="now", cut=8, penalties=NO_PENALTIES)
    )
    assert pages >= 3
    for n in range(rows):
        assert f"Spieler Nummer {n} Öz" in text
    assert text.count("rounds penalty") == pages  # the headings on every page
    for page in range(1, pages + 1):
        assert f"page {page} of {pages}" in text


def test_the_final_table_prints_its_own_columns_and_no_cut_line(accented: Accented) -> None:
    frame, pdf = render(accented.db, "final")
    text = " ".join(text_of(pdf)[1].split())
    assert "Accented Open: standings, final" in text and "prelim. points prelim. stars" in text
    assert "cut line" not in text and "go on to the final" not in text
    assert all(name in text for name in frame["name"]) and frame.height == 6


def test_without_a_unicode_font_the_pdf_says_so(accented: Accented, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printing, "find_fonts", lambda: Fonts(None, None))
    _, pdf = render(accented.db)
    text = " ".join(text_of(pdf)[1].split())
    assert " ".join(FALLBACK_NOTE.split()) in text
    assert "Bjørn Østergård" in text and "?ukasz ?ó??" in text  # Latin-1 kept, the rest marked


def test_a_letter_the_font_cannot_draw_prints_as_a_question_mark(caplog: pytest.LogCaptureFixture) -> None:
    """A name with an emoji: DejaVu Sans has no die, and fpdf dropped it with a warning
    on the standard error ("Fay  Dwerg"); the README promises a ``?``."""
    if printing.find_fonts().regular is None:
        pytest.skip("no DejaVu Sans on this machine")
    frame = ranked(["Fay \N{GAME DIE} Dwerg Ørsted"])

    with caplog.at_level("WARNING"):
        pdf = standings_pdf(
            frame, tournament="Die Open", stage="preliminary", as_of="now", cut=6, penalties=NO_PENALTIES
        )
    assert "Fay ? Dwerg Ørsted" in text_of(pdf)[1]
    assert not [r for r in caplog.records if "glyph" in r.getMessage()]


def test_a_font_named_by_the_setting_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    found = printing.find_fonts()
    if found.regular is None:
        pytest.skip("no DejaVu Sans on this machine to name")
    monkeypatch.setenv(printing.FONT_SETTING, str(found.regular))
    assert printing.find_fonts() == Fonts(found.regular, found.regular)


# -- saboteur standings --format pdf ----------------------------------------------------


def test_standings_format_pdf_needs_a_file(accented: Accented) -> None:
    result = CliRunner().invoke(app, ["standings", TID, "--format", "pdf", "--db", str(accented.db)])
    assert result.exit_code == 2
    assert "pdf is written to a file: add -o FILE" in " ".join(result.output.split())


def test_standings_format_pdf_writes_the_dashboards_pdf(accented: Accented, tmp_path: Path) -> None:
    out = tmp_path / "standings.pdf"
    with Store(accented.db).connect(read_only=True) as con:
        last = Store(accented.db).head(con)[0]
    result = CliRunner().invoke(
        app, ["standings", TID, "--format", "pdf", "-o", str(out), "--db", str(accented.db), "--as-of", str(last)]
    )
    assert result.exit_code == 0, result.output
    assert result.output == ""
    text = " ".join(text_of(out.read_bytes())[1].split())
    assert all(name in text for name in NAMES)
    assert "Simulated Open 1: standings, preliminary" in text and f"As of event {last}." in text
    assert REASON in text


def test_standings_as_of_a_position_past_the_store_is_refused(accented: Accented) -> None:
    """``--as-of 20261206`` (a date without its dashes) was taken as an event position
    past the last, and the standings now were headed "as of 20261206"."""
    result = CliRunner().invoke(app, ["standings", TID, "--db", str(accented.db), "--as-of", "20261206"])
    assert result.exit_code == 2, result.output
    assert "event 20,261,206 is past the store's last" in " ".join(result.output.split()), result.output


def test_standings_pdf_in_dutch_and_why_in_german(accented: Accented, tmp_path: Path) -> None:
    """``--lang`` (issue 33): the PDF's title, heads, cut line, notes and page numbers
    in Dutch; ``--why`` in German; the names and the reason as they were given."""
    out = tmp_path / "standings.pdf"
    args = ["standings", TID, "--format", "pdf", "-o", str(out), "--db", str(accented.db), "--lang", "nl"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    pages, text = text_of(out.read_bytes())
    flat = " ".join(text.split())
    assert "Simulated Open 1: stand, voorronde" in flat and "Stand van " in flat
    assert "cutlijn: de beste 6 gaan door naar de finale" in flat and f"pagina 1 van {pages}" in flat
    assert "Straffen" in flat and REASON in flat and all(name in flat for name in NAMES)
    assert "standings" not in flat and "cut line" not in flat and "page 1" not in flat

    german = CliRunner().invoke(
        app, ["standings", TID, "--why", "--db", str(accented.db), "--lang", "de"], env={"COLUMNS": "400"}
    )
    assert german.exit_code == 0, german.output
    assert "Spitze der Rangliste" in german.output and "top of the table" not in german.output
    assert "nach Punkten" in german.output
    frame = standings(Store(accented.db), TID)
    assert frame["why"][0].startswith("top of the table; ")  # the store and the English are unchanged


def test_a_language_the_ledger_does_not_speak_is_refused_by_name(accented: Accented) -> None:
    result = CliRunner().invoke(app, ["standings", TID, "--db", str(accented.db), "--lang", "fr"])
    assert result.exit_code == 2
    assert "'fr' is not a language of Saboteur Ledger" in " ".join(result.output.split())


def test_the_cut_line_falls_under_the_last_player_going_on() -> None:
    """A withdrawn player stands where their points put them, above the line, and is
    passed over: the line falls under one more row than the cut's size."""
    in_cut = [True, True, False, True, True, True, True, False]
    frame = ranked([f"Player {n}" for n in range(len(in_cut))], in_cut=in_cut)

    _, text = text_of(
        standings_pdf(frame, tournament="Cup", stage="preliminary", as_of="now", cut=6, penalties=NO_PENALTIES)
    )
    flat = " ".join(text.split())
    assert flat.index("Player 6") < flat.index("cut line") < flat.index("Player 7"), flat


@pytest.mark.parametrize("lang", ["en", "nl", "de", "nb"])
@pytest.mark.parametrize("stage", ["preliminary", "final"])
def test_no_head_is_broken_mid_word_in_any_language(lang: str, stage: str) -> None:
    """The columns were made for the English heads: Dutch "bevindingen" printed as
    "bevindin" over "gen", German "Vorr.-Punkte" as "Vorr.-Punkt" over "e". Each head
    prints a size smaller where a word of it would not fit its column."""
    if printing.find_fonts().regular is None:
        pytest.skip("no DejaVu Sans on this machine: the fallback's widths differ")
    frame = ranked(["Ann", "Bob", "Cem"])

    pdf = standings_pdf(frame, tournament="Cup", stage=stage, as_of="now", cut=6, penalties=NO_PENALTIES, lang=lang)
    printed = set(text_of(pdf)[1].split())
    columns = printing._FINAL if stage == "final" else printing._PRELIMINARY
    for head, _, _ in columns:
        for word in words(say(head), lang).split() if head != "#" else ():
            assert word in printed, (word, sorted(printed))


def test_the_final_tables_pdf_shares_a_rank_as_the_page_does() -> None:
    """Five finalists level on every tie-breaker: the page and the command line rank
    them 2=, the PDF numbered them 2 to 6 (its first column was the row's place)."""
    frame = ranked(["Sven", "Dirk", "Hanna", "Jonas", "Nils", "Yara"], rank=[1, 2, 2, 2, 2, 2]).drop("shared")
    pdf = standings_pdf(frame, tournament="Cup", stage="final", as_of="now", cut=6, penalties=NO_PENALTIES)
    flat = " ".join(text_of(pdf)[1].split())
    assert "1 Sven" in flat and all(f"2= {name}" in flat for name in ("Dirk", "Hanna", "Jonas", "Nils", "Yara")), flat


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_withdrawn_player_is_said_to_have_withdrawn_as_the_terminal_says_it(lang: str) -> None:
    """The PDF printed a withdrawn player as "Fay", in the first place, and six names
    above a line saying the top 5 go on (the line falls under one more, R-TS3): the
    terminal says "Fay (withdrew)", and so does the PDF, in its language."""
    in_cut = [False, True, True, True, True, True, False, False]
    withdrawn = [True, *[False] * 7]
    frame = ranked(["Fay", "Gil", "Ivo", "Max", "Ann", "Bob", "Cem", "Lea"], in_cut=in_cut, withdrawn=withdrawn)
    pdf = standings_pdf(
        frame, tournament="R04", stage="preliminary", as_of="now", cut=5, penalties=NO_PENALTIES, lang=lang
    )
    flat = " ".join(text_of(pdf)[1].split())
    said = words(say("%(name)s (withdrew)", name="Fay"), lang)
    assert said != "Fay" and said in flat, flat
    assert flat.count("withdrew" if lang == "en" else said.removeprefix("Fay ")) == 1
    assert (
        flat.index(said)
        < flat.index("Bob")
        < flat.index(words(say("cut line: the top %(cut)s go on to the final", cut=5), lang))
    )


LONG_NAME = (
    "Nederlands Kampioenschap Saboteur 2026 – voorronden in Utrecht, Amersfoort en Zwolle, georganiseerd door de "
    "Stichting Gezelschapsspellen Nederland"
)


@pytest.mark.parametrize("unicode_font", [True, False], ids=["dejavu", "built-in"])
def test_a_long_tournament_name_is_cut_short_in_the_footer_beside_the_page_number(
    monkeypatch: pytest.MonkeyPatch, unicode_font: bool
) -> None:
    """A tournament's name of 146 characters ran the footer over "page 1 of 1" and off
    the page. The name is cut short with an ellipsis where the page number leaves no
    room, the stage and the moment kept; the title above prints it whole."""
    if unicode_font and printing.find_fonts().regular is None:
        pytest.skip("no DejaVu Sans on this machine")
    if not unicode_font:
        monkeypatch.setattr(printing, "find_fonts", lambda: Fonts(None, None))
    pdf = standings_pdf(
        ranked(["Ann", "Bob"]), tournament=LONG_NAME, stage="preliminary", as_of="now", cut=5, penalties=NO_PENALTIES
    )
    page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    runs: list[tuple[str, float, float]] = []
    page.extract_text(visitor_text=lambda text, cm, tm, font, size: runs.append((text.strip(), tm[4], size)))
    footer, number = [run for run in runs if run[0]][-2:]
    assert number[0] == "page 1 of 1"
    ellipsis = "…" if unicode_font else "..."
    assert footer[0].startswith("Nederlands Kampioenschap") and footer[0].endswith(
        f"{ellipsis}: standings, preliminary" + (" · as of now" if unicode_font else ", as of now")
    ), footer
    measure = FPDF(unit="pt")
    fonts = printing.find_fonts()
    if fonts.regular is not None:
        measure.add_font("f", "", str(fonts.regular))
        measure.set_font("f", "", footer[2])
    else:
        measure.set_font("helvetica", "", footer[2])
    assert footer[1] + measure.get_string_width(footer[0]) < number[1]  # ends before the page number begins
    assert number[1] + measure.get_string_width(number[0]) <= measure.w - 15 * 72 / 25.4 + 0.5  # inside the margin
    if unicode_font:  # the title prints the name whole (the built-in font has no "–")
        assert " ".join(LONG_NAME.split()) in " ".join(text_of(pdf)[1].split())


def test_a_title_or_note_that_wraps_is_set_flush_left_not_spread_to_the_width() -> None:
    """fpdf justifies a wrapped cell by default: a long tournament name's first line had
    its words spread far apart across the page (drawn as a ``TJ`` array, each space
    widened by an offset; a line set flush left is drawn whole, ``Tj``)."""
    name = "Nederlands Kampioenschap Saboteur 2026 – voorrondes in het Zuiden, dag twee " * 2
    penalties = pl.DataFrame(
        {"number": [1], "player": ["p0"], "name": ["A"], "points": [1], "reason": ["late " * 60], "finding": [None]}
    )
    printed = standings_pdf(
        ranked(["A", "B"]), tournament=name, stage="preliminary", as_of="now", cut=6, penalties=penalties
    )
    content = b"".join(page.get_contents().get_data() for page in pypdf.PdfReader(io.BytesIO(printed)).pages)
    assert b"TJ" not in content and b"Tj" in content
