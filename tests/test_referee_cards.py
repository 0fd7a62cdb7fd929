"""``saboteur tournament referee-codes`` and ``revoke-code``: the sheet of cards as a PNG
and as a PDF, each card's QR code read back module by module against the address of its
own table's code, and the codes printed nowhere else."""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from PIL import Image, ImageDraw, PdfParser
from typer.testing import CliRunner, Result

from analytics import records
from analytics.records import RefereeAccess, RefereeCode, SeatedPlayer, record_url, referee_access
from cli import referee_cards
from cli.main import app
from cli.referee_cards import CARD, PAGE, QR_AT, QR_BORDER, qr_scale, qr_symbol
from ingest.store import Store

TID: Final = "card-cup"
PLAYERS: Final = [f"p{n:02}" for n in range(1, 16)]
BASE: Final = "https://ledger.example.org/club/"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """Fifteen players, round 1 seated at three tables of five."""
    store = Store(tmp_path / "cards.duckdb")
    records.create(store, TID, name="Card Cup ü")
    records.register(store, TID, [(p, f"Name {p}") for p in PLAYERS])
    tables = [PLAYERS[0:5], PLAYERS[5:10], PLAYERS[10:15]]
    records.publish_seating(store, TID, 1, tables, stage="preliminary", method="by hand", seed=None)
    return store


@pytest.fixture
def known_codes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The codes the command is about to issue (random as ever, but known to the test)."""
    issued: list[str] = []
    original = records.codes.secrets.token_urlsafe

    def remembered(size: int) -> str:
        issued.append(original(size))
        return issued[-1]

    monkeypatch.setattr(records.codes.secrets, "token_urlsafe", remembered)
    yield issued


def cli(store: Store, *args: str) -> Result:
    result = CliRunner().invoke(app, [*args, "--db", str(store.path)], env={"COLUMNS": "300"})
    assert "Traceback" not in result.output, result.output
    return result


def modules(image: Image.Image, corner: tuple[int, int], size: int, scale: int) -> list[list[bool]]:
    """The dark modules of a QR code drawn at ``corner`` (its quiet zone's corner),
    read at the middle of each module."""
    x0, y0 = corner[0] + QR_BORDER * scale, corner[1] + QR_BORDER * scale
    grey = image.convert("L")
    return [
        [grey.getpixel((x0 + col * scale + scale // 2, y0 + row * scale + scale // 2)) < 128 for col in range(size)]  # type: ignore[operator]
        for row in range(size)
    ]


def assert_card_opens(image: Image.Image, at: tuple[int, int], code: str, store: Store, table: str) -> None:
    """The card at ``at`` carries the QR code of ``code``'s address, whose code opens
    ``table`` (and the quiet zone around it is white)."""
    symbol = qr_symbol(record_url(BASE, code))
    scale = qr_scale(symbol)
    corner = (at[0] + QR_AT[0], at[1] + QR_AT[1])
    expected = [[bool(v) for v in row] for row in symbol.matrix]
    assert modules(image, corner, len(expected), scale) == expected
    quiet = image.convert("L").crop((corner[0], corner[1], corner[0] + QR_BORDER * scale, corner[1] + 100))
    assert quiet.getextrema() == (255, 255)
    access = referee_access(store, code)
    assert access is not None and access.table == table


def test_the_png_sheet_has_a_card_per_table_whose_code_opens_that_table(
    store: Store, known_codes: list[str], tmp_path: Path
) -> None:
    sheet = tmp_path / "cards.png"
    result = cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(sheet), "--url", BASE)
    assert result.exit_code == 0, result.output
    assert len(known_codes) == 3
    for code in known_codes:
        assert code not in result.output
        assert records.code_sha256(code)[:8] in result.output  # each card's fingerprint
    image = Image.open(sheet)
    image.load()
    assert image.format == "PNG" and image.size == (2 * CARD[0], 2 * CARD[1])
    assert image.info["dpi"] == pytest.approx((referee_cards.DPI, referee_cards.DPI), abs=0.01)
    for index, (code, table) in enumerate(zip(known_codes, ("1", "2", "3"), strict=True)):
        assert_card_opens(image, ((index % 2) * CARD[0], (index // 2) * CARD[1]), code, store, table)
    assert sheet.stat().st_mode & 0o077 == 0  # the codes: the organiser's to read alone


def ccitt_page(pdf: PdfParser.PdfParser, page: int) -> Image.Image:
    """A page of a sheet, from its one CCITT G4 image (as Pillow writes a black and
    white image into a PDF), wrapped back into a TIFF to read it."""
    image = pdf.read_indirect(pdf.read_indirect(pdf.pages[page])[b"Resources"][b"XObject"][b"image"])
    width, height, data = image.dictionary[b"Width"], image.dictionary[b"Height"], image.buf
    tags = [(256, 4, width), (257, 4, height), (258, 3, 1), (259, 3, 4), (262, 3, 1), (278, 4, height)]
    tags += [(273, 4, 8 + 2 + 12 * (len(tags) + 2) + 4), (279, 4, len(data))]
    ifd = struct.pack("<H", len(tags)) + b"".join(
        struct.pack("<HHII", tag, kind, 1, value) for tag, kind, value in sorted(tags)
    )
    return Image.open(io.BytesIO(b"II*\0" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + data))


def test_the_pdf_sheet_is_a4_pages_of_six_cards(store: Store, known_codes: list[str], tmp_path: Path) -> None:
    sheet = tmp_path / "cards.PDF"
    result = cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(sheet), "--url", BASE)
    assert result.exit_code == 0, result.output
    assert sheet.read_bytes().startswith(b"%PDF-")
    pdf = PdfParser.PdfParser(str(sheet))
    (page,) = pdf.pages
    assert pdf.read_indirect(page)[b"MediaBox"] == pytest.approx([0, 0, 595.44, 842.04], abs=0.5)  # A4
    image = ccitt_page(pdf, 0)
    assert image.size == PAGE
    for index, (code, table) in enumerate(zip(known_codes, ("1", "2", "3"), strict=True)):
        assert_card_opens(image, ((index % 2) * CARD[0], (index // 2) * CARD[1]), code, store, table)
    assert all(image.getpixel((CARD[0] * 2 - 1, y)) == 255 for y in range(3 * CARD[1], PAGE[1]))


def test_seven_tables_take_two_pages(tmp_path: Path) -> None:
    players = tuple(SeatedPlayer(f"p{n}", None) for n in range(10))
    codes = [
        RefereeCode(f"{n:032}", RefereeAccess("t", "A long tournament name " * 4, "base", 3, "final", str(n), players))
        for n in range(7)
    ]
    out = io.BytesIO()
    referee_cards.write_sheet(codes, BASE, out, ".pdf")
    pdf = PdfParser.PdfParser(buf=out.getvalue())
    assert len(pdf.pages) == 2
    second = ccitt_page(pdf, 1)
    symbol = qr_symbol(record_url(BASE, codes[6].code))
    expected = [[bool(v) for v in row] for row in symbol.matrix]
    assert modules(second, QR_AT, len(expected), qr_scale(symbol)) == expected


def test_issuing_again_for_one_table_leaves_the_others_and_the_old_card_opens_nothing(
    store: Store, known_codes: list[str], tmp_path: Path
) -> None:
    assert cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(tmp_path / "a.png")).exit_code == 0
    result = cli(
        store, "tournament", "referee-codes", TID, "--round", "1", "--table", "2", "-o", str(tmp_path / "b.png")
    )
    assert result.exit_code == 0, result.output
    first, second, third, again = known_codes
    assert Image.open(tmp_path / "b.png").size == CARD
    assert referee_access(store, second) is None
    assert [referee_access(store, c).table for c in (first, again, third)] == ["1", "2", "3"]  # type: ignore[union-attr]
    result = cli(store, "tournament", "revoke-code", TID, "--round", "1", "--table", "2", "--reason", "spilt beer")
    assert result.exit_code == 0, result.output
    assert "revocation of the code of table 2 of round 1" in result.output
    assert referee_access(store, again) is None and referee_access(store, first) is not None
    log = cli(store, "tournament", "log", TID)
    assert "referee_code_revoked" in log.output and "spilt beer" in log.output
    assert not any(code in log.output for code in known_codes)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--round", "1", "-o", "cards.txt"], "a .pdf or a .png file"),
        (["--round", "1", "-o", "cards.png", "--url", "ftp://host"], "an http:// or https:// address"),
        (["--round", "1", "-o", "cards.png", "--url", "https://" + "x" * 3000], "too long for a QR code"),
        (["--round", "2", "-o", "cards.png"], "round 2 of card-cup is not seated"),
        (["--round", "1", "--table", "9", "-o", "cards.png"], "has no table 9"),
        (["--round", "1", "-o", "no/such/folder/cards.png"], "cannot write"),
    ],
)
def test_a_sheet_that_cannot_be_made_issues_no_code_and_writes_nothing(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], said: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards.png").write_bytes(b"the sheet of an earlier round")
    result = cli(store, "tournament", "referee-codes", TID, *args)
    assert result.exit_code != 0
    assert said in " ".join(result.output.split())
    assert (tmp_path / "cards.png").read_bytes() == b"the sheet of an earlier round"
    written = sorted(p.name for p in tmp_path.iterdir() if p.name != "cards.duckdb.lock")  # the store's own hold
    assert written == ["cards.duckdb", "cards.png"]
    assert records.referee_codes(store, TID).is_empty()


def test_revoke_code_refuses_a_table_without_one(store: Store) -> None:
    result = cli(store, "tournament", "revoke-code", TID, "--round", "1", "--table", "1", "--reason", "lost")
    assert result.exit_code == 1
    assert "table 1 of round 1 of card-cup has no code to revoke" in result.output


def test_a_card_speaks_the_language_asked_for(store: Store, tmp_path: Path) -> None:
    """``--lang nb`` (issue 33): the card's heading and footer in Norwegian, its code
    and players as they are; the card is drawn with those words."""
    players = tuple(SeatedPlayer(f"p{n}", f"Spiller {n}") for n in range(4))
    code = RefereeCode("7" * 32, RefereeAccess("t", "Vårturneringen", "tournament", 2, "preliminary", "5", players))
    heading, footer = referee_cards.card_words(code, "nb")
    assert heading == "Runde 2 · bord 5"
    assert footer == f"Dommerkort {code.fingerprint} · åpner bare dette bordet; arrangøren kan trekke det tilbake"
    assert referee_cards.card_words(code) == (
        "Round 2 · table 5",
        f"Referee card {code.fingerprint} · opens this table only; the organiser can revoke it",
    )
    assert referee_cards.card(code, BASE, "nb").tobytes() != referee_cards.card(code, BASE).tobytes()
    sheet = tmp_path / "kort.png"
    result = cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(sheet), "--lang", "nb")
    assert result.exit_code == 0, result.output
    assert Image.open(sheet).size == (2 * CARD[0], 2 * CARD[1])


@pytest.mark.parametrize("lang", ["en", "nl", "de", "nb"])
@pytest.mark.parametrize(
    "base", [BASE, "https://ledger.example.org/" + "a-very-long-club-path/" * 9], ids=["address", "long-address"]
)
def test_a_cards_footer_is_drawn_whole_on_the_card_in_every_language(
    monkeypatch: pytest.MonkeyPatch, lang: str, base: str
) -> None:
    """The footer was cut to the card's width with an ellipsis, and each translation is
    longer than the English: "… de organisator kan ha…", "… die Turnierleitung kann
    s…", "… arrangøren kan trekke det tilb…" (with a wide fingerprint), the words that
    say the organiser can revoke the card lost. It is drawn whole, on as many lines as
    it takes, inside the card and clear of the address above it, whatever the code."""
    drawn: list[tuple[tuple[float, float], str, referee_cards.Font]] = []
    original = ImageDraw.ImageDraw.text

    def recorded(
        self: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *args: object, **kwargs: object
    ) -> None:
        drawn.append((xy, text, kwargs["font"]))  # type: ignore[arg-type]
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    players = tuple(SeatedPlayer(f"p{n}", f"Spiller {n}") for n in range(6))
    for n in range(10):  # fingerprints of ten codes, some wider than others
        code = RefereeCode(
            f"{n:032}", RefereeAccess("t", "Vårturneringen", "tournament", 2, "preliminary", "5", players)
        )
        _, footer = referee_cards.card_words(code, lang)
        drawn.clear()
        referee_cards.card(code, base, lang)
        boxes = [
            (x + left, y + top, x + right, y + bottom)
            for (x, y), text, font in drawn
            for left, top, right, bottom in [font.getbbox(text)]
        ]
        texts = [text for _, text, _ in drawn]
        lines = [k for k in range(1, len(texts)) if " ".join(texts[-k:]) == footer]
        assert lines, (footer, texts[-3:])
        for box in boxes[-lines[0] :]:
            assert box[0] >= referee_cards.PAD // 2 and box[2] <= CARD[0] - referee_cards.PAD, (box, texts)
            assert box[3] <= CARD[1] - referee_cards.PAD // 2, (box, texts)
            assert all(  # clear of every other text drawn and of the QR code
                other[2] <= box[0] or box[2] <= other[0] or other[3] <= box[1] or box[3] <= other[1]
                for other in [
                    *boxes[: -lines[0]],
                    (*QR_AT, QR_AT[0] + referee_cards.QR_BOX, QR_AT[1] + referee_cards.QR_BOX),
                ]
            ), (box, texts)


def test_a_line_break_in_the_tournaments_name_or_a_tables_label_is_drawn_as_the_terminal_shows_it(
    store: Store, known_codes: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name or label with a line break (or another character the text layout refuses)
    made drawing a card fail, ``raqm_layout() failed``, after the codes were recorded:
    each table's old card revoked and its new code printed nowhere. Such text is drawn
    on its one line, the break written as ``\\x0a``, and the cards are made."""
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recorded(self: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *args: object, **kw: object) -> None:
        drawn.append(text)
        original(self, xy, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    players = tuple(SeatedPlayer(f"p{n}", f"Line\u2029{n}\x1c") for n in range(5))
    access = RefereeAccess("t", "Club Cup\nSpring", "tournament", 1, "preliminary", "A\rB", players)
    code = RefereeCode("7" * 32, access)
    assert referee_cards.card(code, BASE).size == CARD
    unisolated = [text.replace("\u2068", "").replace("\u2069", "") for text in drawn]  # a name's isolate
    assert unisolated[:3] == ["Club Cup\\x0aSpring", "Round 1 · table A\\x0dB", "1. Line\\u20290\\x1c"]
    tables = [PLAYERS[0:5], PLAYERS[5:10], PLAYERS[10:15]]
    labels = ["Hall\nNorth", "2", "3"]
    records.publish_seating(
        store, TID, 1, tables, stage="preliminary", method="by hand", seed=None, reason="renamed", labels=labels
    )
    sheet = tmp_path / "cards.pdf"
    result = cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(sheet), "--url", BASE)
    assert result.exit_code == 0, result.output
    image = ccitt_page(PdfParser.PdfParser(str(sheet)), 0)
    assert_card_opens(image, (0, CARD[1]), known_codes[2], store, "Hall\nNorth")  # the tables in order: 2, 3, Hall
    assert "Round 1 · table Hall\\x0aNorth" in drawn


def test_a_card_that_cannot_be_drawn_issues_no_code(
    store: Store, known_codes: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sheet is drawn and written before the codes are recorded: a drawing that
    fails (as Pillow's text layout did on a line break) is one line, and every table
    keeps the code and card it had."""
    assert cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(tmp_path / "a.png")).exit_code == 0
    before = records.referee_codes(store, TID)

    def failing(*args: object, **kwargs: object) -> None:
        raise RuntimeError("raqm_layout() failed.")

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", failing)
    sheet = tmp_path / "b.png"
    result = cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(sheet))
    assert result.exit_code == 1, result.output
    assert "the cards cannot be drawn (raqm_layout() failed.): no code is issued" in " ".join(result.output.split())
    assert not sheet.exists() and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    assert records.referee_codes(store, TID).equals(before)
    assert [referee_access(store, c).table for c in known_codes[:3]] == ["1", "2", "3"]  # type: ignore[union-attr]
    assert all(referee_access(store, c) is None for c in known_codes[3:])  # drawn, never issued


def test_players_registered_under_one_name_are_shown_with_their_ids(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players at one table registered as "Émile Zola" were "3. Émile Zola" and
    "4. Émile Zola", which a referee cannot tell apart: each is shown with the id, as
    the standings show namesakes (letter case and spaces aside), and so is a namesake at
    another table; a name of one's own is shown alone."""
    records.register(store, TID, [("p03", "Émile Zola"), ("p04", " ÉMILE  zola"), ("p12", "Émile Zola")])
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recorded(self: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *args: object, **kw: object) -> None:
        drawn.append(text.replace("\u2068", "").replace("\u2069", ""))  # the name's isolate
        original(self, xy, text, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recorded)
    result = cli(store, "tournament", "referee-codes", TID, "--round", "1", "-o", str(tmp_path / "cards.png"))
    assert result.exit_code == 0, result.output
    assert {"3. Émile Zola (p03)", "4. ÉMILE  zola (p04)", "2. Émile Zola (p12)", "5. Name p05"} <= set(drawn), drawn
    assert "1. Name p01" in drawn and "1. Name p01 (p01)" not in drawn


def test_a_right_to_left_name_keeps_its_seat_number_in_front(tmp_path: Path) -> None:
    """A name written right to left, "4. محمد بن راشد 12", turned its line round, the seat's number
    drawn at the far end of the line; the name keeps its direction to itself and the
    number stands first, at the card's left, as on every other line."""
    names = ["Ann", "Bob", "Cem", "محمد بن راشد 12", "Eve"]
    players = tuple(SeatedPlayer(f"p{n}", name) for n, name in enumerate(names))
    code = RefereeCode("7" * 32, RefereeAccess("t", "Cup", "tournament", 1, "preliminary", "1", players))
    image = referee_cards.card(code, BASE)
    font = referee_cards._font(26)
    top = QR_AT[1] + 10 + 3 * 36
    width = int(font.getlength("4.")) + 1
    alone = Image.new("L", CARD, "white")
    ImageDraw.Draw(alone).text((referee_cards.PAD, top), "4.", fill="black", font=font)
    box = (referee_cards.PAD - 2, top, referee_cards.PAD + width, top + 36)
    assert image.crop(box).tobytes() == alone.crop(box).tobytes()


def test_a_pile_of_combining_marks_stays_on_its_own_line() -> None:
    """A name of a letter under 50 combining marks drew a streak across the lines
    above and below it; a card draws four marks on a letter at most (the name itself
    keeps them), and the other players' lines are drawn as they would be without it."""
    piled = "Z" + "".join(chr(c) for c in range(0x300, 0x332))

    def drawn(second: str) -> Image.Image:
        players = tuple(SeatedPlayer(f"p{n}", name) for n, name in enumerate(["Ann", second, "Bob", "Cem", "Eve"]))
        code = RefereeCode("7" * 32, RefereeAccess("t", "Cup", "tournament", 1, "preliminary", "1", players))
        return referee_cards.card(code, BASE)

    with_pile, without = drawn(piled), drawn("Z")
    first = QR_AT[1] + 10
    for top in (first, first + 2 * 36):  # the lines of Ann and of Bob, their letters and what hangs below
        box = (0, top, QR_AT[0], top + 32)
        assert with_pile.crop(box).tobytes() == without.crop(box).tobytes()
    assert with_pile.crop((0, 0, CARD[0], first - 8)).tobytes() == without.crop((0, 0, CARD[0], first - 8)).tobytes()
    assert referee_cards.tamed(piled) == piled[:5] and referee_cards.tamed("Nguyễn Thị") == "Nguyễn Thị"
