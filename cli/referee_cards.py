"""The organiser's sheet of referee cards: one card per table, to print and cut out.

A card names the tournament, the round and the table, lists the players seated there
in seat order, and carries the QR code of the recording page's address with the
table's code (:func:`analytics.records.record_url`), the address printed beneath it for
a phone that reads no QR codes. The codes are on the cards and nowhere else, so the
sheet is the one copy of them there is.

A PDF has A4 pages of six cards (two across, three down, at :data:`DPI` dots per inch,
a line to cut along), black and white and losslessly compressed (a QR code blurred by
JPEG reads badly); a PNG is one image of every card, two across.
"""

from __future__ import annotations

import io
import os
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Final

import segno
from PIL import Image, ImageDraw, ImageFont

from analytics.records import CODE_LENGTH, RefereeCode, SeatedPlayer, record_url
from events.language import ENGLISH, words
from events.said import Refusal, say
from events.shown import one_line

DPI: Final = 200
PAGE: Final = (1654, 2339)
"""An A4 page at :data:`DPI` (210 × 297 mm)."""
ACROSS: Final = 2
DOWN: Final = 3
CARD: Final = (PAGE[0] // ACROSS, PAGE[1] // DOWN)
"""A card: a sixth of the page, 105 × 99 mm."""
PAD: Final = 40
QR_BOX: Final = 380
"""The side of the square the QR code is drawn in (1.9 in at :data:`DPI`)."""
QR_AT: Final = (CARD[0] - PAD - QR_BOX, 150)
"""Where that square lies on the card: right, below the heading."""
QR_ERROR: Final = "m"
"""The QR code's error correction: M (15 %) survives a crease or a smudge."""
QR_BORDER: Final = 4
"""The quiet zone around the code, in modules, as the standard asks."""
MIN_MODULE: Final = 4
"""Dots per module, at least (0.5 mm: what a phone's camera reads at arm's length)."""
FOOTER_BOTTOM: Final = CARD[1] - PAD + 4
"""Where the footer's last line ends (its one line began at ``CARD[1] - PAD - 20``)."""
FORMATS: Final = {".pdf": "PDF", ".png": "PNG"}
SUFFIXES: Final = tuple(FORMATS)
INK: Final = "black"
CUT: Final = 96
"""The grey of the line to cut along (dark enough to stay a line in black and white)."""
MARKS_MOST: Final = 4
"""The combining marks drawn on one letter, at most: more than a script writes (a
Vietnamese letter has two, a Hebrew one with its points and a cantillation mark three),
and 50 of them stacked drew a streak across the lines above and below."""
FIRST_STRONG: Final = "\u2068"
POP_ISOLATE: Final = "\u2069"
"""The marks around a name that keep its direction to itself (Unicode's first strong
isolate and its end): a right-to-left name otherwise turned its line round, the seat's
number drawn after it, "12 محمد بن راشد .4"."""


class CardError(Refusal):
    """A sheet that cannot be made, with the reason (a URL too long for a card's code)."""


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font(size: int, face: str = "DejaVuSans") -> Font:
    """A DejaVu face where the system has it (it writes most names people have; its
    monospaced face tells ``l``, ``I`` and ``1`` apart in an address someone types),
    else Pillow's own font."""
    try:
        return ImageFont.truetype(f"{face}.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def qr_symbol(url: str) -> segno.QRCode:
    """The QR code of ``url`` as the cards print it."""
    try:
        return segno.make(url, error=QR_ERROR, micro=False)
    except segno.DataOverflowError:
        raise CardError(say("the address is too long for a QR code (%(count)s characters)", count=len(url))) from None


def check_address(base: str) -> None:
    """Refuse, before any code is issued, a ``base`` whose addresses would not fit a
    card's QR code (every code is as long as any other)."""
    qr_scale(qr_symbol(record_url(base, "x" * CODE_LENGTH)))


def qr_scale(symbol: segno.QRCode) -> int:
    """Dots per module that fit the symbol, with its quiet zone, in :data:`QR_BOX`."""
    width, _ = symbol.symbol_size(scale=1, border=QR_BORDER)
    scale = int(QR_BOX // width)
    if scale < MIN_MODULE:
        raise CardError(
            say("the address is too long for a QR code a phone reads on a card (%(count)s modules)", count=int(width))
        )
    return scale


def _qr_image(url: str) -> Image.Image:
    symbol = qr_symbol(url)
    out = io.BytesIO()
    symbol.save(out, kind="png", scale=qr_scale(symbol), border=QR_BORDER)
    return Image.open(out).convert("L")


def drawable(text: str) -> str:
    r"""``text`` from outside (a tournament's name, a table's label, a player's name) as
    a card may draw it: on one line, its control, format and line-break characters
    written as backslash escapes, as a terminal shows them (:func:`events.shown.one_line`;
    a line break is more than a card's line holds, and the text layout refuses it:
    ``raqm_layout() failed``).

    >>> drawable("Club Cup\nSpring")
    'Club Cup\\x0aSpring'
    """
    return one_line(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def tamed(text: str) -> str:
    """``text`` as a card draws it (:func:`drawable`), with at most :data:`MARKS_MOST`
    combining marks on any letter (the name itself keeps them all)."""
    kept: list[str] = []
    marks = 0
    for char in drawable(text):
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if marks <= MARKS_MOST:
            kept.append(char)
    return "".join(kept)


def _bidi(font: Font) -> bool:
    """Whether ``font`` lays text out with Raqm (bidirectional text, the isolates
    understood); Pillow's basic layout draws the characters in the order written."""
    return isinstance(font, ImageFont.FreeTypeFont) and font.layout_engine == ImageFont.Layout.RAQM


def _isolated(text: str, font: Font) -> str:
    """``text`` in its own direction within a line (:data:`FIRST_STRONG`)."""
    return f"{FIRST_STRONG}{text}{POP_ISOLATE}" if _bidi(font) else text


def _draw(draw: ImageDraw.ImageDraw, at: tuple[int, int], text: str, font: Font) -> None:
    """``text`` drawn at ``at`` as a line read from left to right, as the card's words
    are: what is right to left in it is so within its isolate (:func:`_isolated`)."""
    if _bidi(font):
        draw.text(at, text, fill=INK, font=font, direction="ltr")
    else:
        draw.text(at, text, fill=INK, font=font)


def _fitted(text: str, width: int, font: Font, framed: Callable[[str], str] = str) -> str:
    """``framed(text)``, ``text`` cut short with an ellipsis where it is wider than
    ``width``."""
    if font.getlength(framed(text)) <= width:
        return framed(text)
    while text and font.getlength(framed(text + "…")) > width:
        text = text[:-1]
    return framed(text + "…")


def seat_line(seat: int, player: SeatedPlayer, width: int, font: Font) -> str:
    """A player's line on the card: the seat, the name in its own direction (cut short
    to ``width`` if it must be) and, where another player of the tournament has that
    name, the id that tells them apart, as the standings show it."""
    if player.name is None:
        return _fitted(tamed(player.player), width, font, lambda name: f"{seat}. {_isolated(name, font)}")
    tail = f" ({tamed(player.player)})" if player.namesake else ""
    return _fitted(tamed(player.name), width, font, lambda name: f"{seat}. {_isolated(name, font)}{tail}")


def _wrapped(text: str, width: int, font: Font) -> list[str]:
    """``text`` (an address: no spaces) broken into lines no wider than ``width``."""
    lines = [""]
    for char in text:
        if lines[-1] and font.getlength(lines[-1] + char) > width:
            lines.append("")
        lines[-1] += char
    return lines


FOOTER_SIZES: Final = (18, 16, 14, 12)
"""The footer's sizes, the largest first: a translation longer than the English one
("Scheidsrechterskaart …", "Schiedsrichterkarte …") wraps onto a second line, and a
smaller size is taken only where the address left no room for the lines."""


def _words_wrapped(text: str, width: int, font: Font) -> list[str]:
    """``text`` broken at its spaces into lines no wider than ``width`` (a word wider
    than that broken where it must be), each line as full as it goes."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and font.getlength(joined) <= width:
            lines[-1] = joined
        else:
            lines.extend(_wrapped(word, width, font) if font.getlength(word) > width else [word])
    return lines or [""]


def _balanced(text: str, width: int, font: Font) -> list[str]:
    """``text`` on as few lines as fit ``width``, their lengths evened out (not a
    full line over a word): the narrowest width that takes no more lines."""
    fewest = len(_words_wrapped(text, width, font))
    narrow, wide = 1, width
    while narrow < wide:
        middle = (narrow + wide) // 2
        if len(_words_wrapped(text, middle, font)) <= fewest:
            wide = middle
        else:
            narrow = middle + 1
    return _words_wrapped(text, wide, font)


def _line_height(font: Font) -> int:
    """The distance from one line's top to the next in ``font``."""
    if isinstance(font, ImageFont.FreeTypeFont):
        ascent, descent = font.getmetrics()
        return ascent + descent + 2
    return int(font.getbbox("Ag")[3]) + 4


def footer_lines(text: str, width: int, top: int, bottom: int) -> tuple[Font, list[tuple[int, str]]]:
    """The footer ``text`` as it is drawn: the font and each line with its top, the
    lines no wider than ``width`` and, the last ending at ``bottom``, the first starting
    no higher than ``top`` (below the address) in the largest of :data:`FOOTER_SIZES`
    where they do (in the smallest if none)."""
    for size in FOOTER_SIZES:
        font = _font(size)
        lines = _balanced(text, width, font)
        step = _line_height(font)
        first = bottom - len(lines) * step
        if first >= top:
            break
    return font, [(first + index * step, line) for index, line in enumerate(lines)]


def card_words(code: RefereeCode, lang: str = ENGLISH) -> tuple[str, str]:
    """A card's heading (its round and table) and its footer (what the card is), in ``lang``."""
    access = code.access
    table = tamed(access.table)
    heading = words(say("Round %(round)s · table %(table)s", round=access.tournament_round, table=table), lang)
    footer = say("Referee card %(card)s · opens this table only; the organiser can revoke it", card=code.fingerprint)
    return heading, words(footer, lang)


def card(code: RefereeCode, base: str, lang: str = ENGLISH) -> Image.Image:
    """One table's card, in ``lang``: the tournament, the round and table, the players
    in seat order, the QR code of the table's address and the address in text."""
    access = code.access
    url = record_url(base, code.code)
    image = Image.new("L", CARD, "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, CARD[0] - 1, CARD[1] - 1), outline=CUT, width=2)
    inner = CARD[0] - 2 * PAD
    title = _font(30)
    _draw(draw, (PAD, PAD), _fitted(tamed(access.tournament_name), inner, title, lambda t: _isolated(t, title)), title)
    heading, footer = card_words(code, lang)
    bold = _font(44, "DejaVuSans-Bold")
    _draw(draw, (PAD, PAD + 44), _fitted(heading, inner, bold), bold)
    column = QR_AT[0] - PAD - 20
    y = QR_AT[1] + 10
    for seat, player in enumerate(access.players, start=1):
        _draw(draw, (PAD, y), seat_line(seat, player, column, _font(26)), _font(26))
        y += 36
    image.paste(_qr_image(url), QR_AT)
    y = QR_AT[1] + QR_BOX + 20
    mono = _font(22, "DejaVuSansMono")
    for line in _wrapped(drawable(url), inner, mono):
        draw.text((PAD, y), line, fill=INK, font=mono)
        y += 30
    font, lines = footer_lines(footer, inner, y, FOOTER_BOTTOM)  # whole: what the card is, who can revoke it
    for top, line in lines:
        draw.text((PAD, top), line, fill=INK, font=font)
    return image


def _laid_out(cards: Sequence[Image.Image], size: tuple[int, int]) -> Image.Image:
    """Cards laid in rows of :data:`ACROSS` on a white image of ``size``."""
    sheet = Image.new("L", size, "white")
    for index, one in enumerate(cards):
        sheet.paste(one, ((index % ACROSS) * CARD[0], (index // ACROSS) * CARD[1]))
    return sheet


def write_sheet(codes: Sequence[RefereeCode], base: str, out: IO[bytes], suffix: str, lang: str = ENGLISH) -> None:
    """The cards of ``codes`` written to ``out`` in ``lang``: a PDF of A4 pages of six,
    or one PNG. A card that cannot be drawn is a :class:`CardError` (the command draws
    the sheet before it records the codes, and so issues none)."""
    try:
        cards = [card(code, base, lang) for code in codes]
    except (RuntimeError, ValueError) as exc:  # Pillow's text layout, say, refusing a text
        raise CardError(say("the cards cannot be drawn (%(problem)s): no code is issued", problem=str(exc))) from None
    if FORMATS[suffix] == "PDF":
        per_page = ACROSS * DOWN
        first, *rest = (
            _laid_out(cards[at : at + per_page], PAGE).convert("1", dither=Image.Dither.NONE)
            for at in range(0, len(cards), per_page)
        )
        first.save(out, "PDF", save_all=True, append_images=rest, resolution=DPI)
    else:
        size = (min(len(cards), ACROSS) * CARD[0], -(-len(cards) // ACROSS) * CARD[1])
        _laid_out(cards, size).save(out, "PNG", dpi=(DPI, DPI))


@contextmanager
def sheet_file(path: Path) -> Iterator[IO[bytes]]:
    """A file to write the sheet in, made before any code is issued (a code that
    cannot be printed is lost): it becomes ``path`` when the block ends, and leaves
    nothing behind — nor any older ``path`` changed — if the block raises. Like any
    temporary file it is its owner's alone to read: the sheet holds the codes."""
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as out:
        try:
            yield out
            out.close()
            os.replace(out.name, path)
        finally:
            Path(out.name).unlink(missing_ok=True)


def suffix_of(path: Path) -> str | None:
    """The sheet's format by the file's suffix (``.pdf`` or ``.png``), ``None`` if neither."""
    suffix = path.suffix.lower()
    return suffix if suffix in FORMATS else None
