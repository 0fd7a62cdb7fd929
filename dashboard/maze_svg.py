"""The maze drawn as a picture of its cards: a pure function from cells to SVG text.

Each card is a rectangle with its open tunnels as bands from the centre to the open
sides. A dead end's bands stop short of a blocked centre (a rock), so a path enters it
and goes no further (R-P5). The start card and the tournament's setup card are marked;
a face-down goal is a card back — what it hides is drawn only when ``show_goals`` (the
referee's view), and never when the log does not know it (an observed log's goal before
it is turned up: :data:`~events.cards.UNSEEN`) — and a revealed goal shows gold or stone
with its tunnels.

Nothing here draws with Streamlit: the pages pass the SVG, in its frame (:func:`framed`),
to ``st.markdown`` and the tests read it as XML. The words on the cards and in their titles (a tooltip) go through
the catalogue (:mod:`dashboard.names`), in the reader's language.

For a reader who cannot see it the picture is one image (``role="img"``) named in the
reader's language ("The maze: 5 cards"), whose description (its ``<desc>``, which a
screen reader reads after the name) lays the cards out in words, row by row from the top
left: each card by its name and by the column and row the picture labels
(:func:`layout`). It says what the picture shows, no more: a face-down goal stays face
down in the public view.

The colours keep to WCAG's contrast: the coordinates and the words on the cards at least
4.5:1 against what they lie on, and the outline of the cell the step acted on a dark ring
around a bright one, one of which stands 3:1 against any card or cell beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape
from typing import Final

from dashboard import names
from dashboard.card_words import place_words
from dashboard.i18n import _, ngettext
from events import cards
from events.maze import Placed

Cell = tuple[int, int]

CELL: Final = 56
"""A card's square, in pixels."""
MARGIN: Final = 22
"""Room around the grid for the coordinates."""
WORDS: Final = 11
"""The size of the picture's smallest words (the coordinates, the words on the cards), in
pixels at the picture's own size: 10 px or more on the screen while the picture is drawn
at 10/11 of its size or larger. At 8 and 9 they were 4 px tall on a phone 360 px wide,
the picture shrunk to its width; a phone draws it at its own size in a frame that
scrolls sideways (:func:`framed`), and the referee page's cells are never narrower
than 55 px (``dashboard/referee/static/app.css``)."""
READABLE: Final = 10
"""The smallest size, in screen pixels, of the picture's words: it is never drawn narrower
than ``READABLE / WORDS`` of its own width (:func:`least`)."""


def least(width: int) -> int:
    """The narrowest a picture ``width`` pixels wide is drawn, its words still
    ``READABLE`` pixels tall. Kept to its column as it was, a picture at 1,024 px shrank
    to 48 % of its size (its words 5 px), at 1,280 px to 70 % (7.7 px). Narrower than
    this, its column stands under the one beside it (Streamlit's row of columns wraps:
    the picture's least width is its column's) and, where even the row is too narrow,
    its frame scrolls sideways (:func:`framed`).

    >>> least(694), least(WORDS * 100)
    (631, 1000)
    """
    return -(-width * READABLE // WORDS)


PHONE_CSS: Final = """<style>
@media screen and (max-width: 640px) {
  .maze-picture svg.maze { max-width: none !important; }
}
</style>"""
"""On a phone (where Streamlit stands a page's columns one under the other) the maze is
drawn at its own size, its frame scrolling sideways, rather than shrunk to the screen's
width; a wider screen draws it in its column, kept wide enough for its words
(:func:`framed`)."""


FRAME_STYLE: Final = "overflow-x: auto; scrollbar-width: thin; scrollbar-color: #8d6e4a #efe6d6"
"""The frame scrolls sideways where the picture is wider than its column, with its
scrollbar in sight: Streamlit's page style hid every scrollbar until the pointer was
over it, and nothing said that the goals lay past the frame's edge."""


def framed(svg: str) -> str:
    """The picture as a page shows it, in a Markdown block (``st.html`` drops inline SVG;
    Markdown passes an HTML block through as it is): a frame that scrolls sideways, the
    phone's rule with it (in a block of its own, ``st.html``, it came a moment after the
    picture, which was drawn shrunk first). The frame of a picture wider than the screen
    is a stop of Tab whose arrow keys scroll it (the browser's own: Chromium, Firefox).

    On a wider screen the column holding the picture is kept at least as wide as the
    picture's :func:`least` (or the whole row, if that is narrower): where the picture
    does not fit beside the column next to it, that column stands under it rather than
    the picture scrolling in a narrow column, its far goals out of sight. (A frame that
    scrolls adds nothing to its column's least width, so the rule is the column's.)

    >>> print(framed(maze_svg({})).splitlines()[0].replace(FRAME_STYLE, "…"))
    <div class="maze-picture" data-least="580" style="…">
    """
    found = re.search(r'<svg [^>]*?\bwidth="(\d+)"', svg)
    if found is None:
        raise ValueError("not a picture of maze_svg's: it names no width")
    least_width = least(int(found.group(1)))
    column = (
        "<style>@media screen and (min-width: 641px) {"
        f' [data-testid=stColumn]:has(.maze-picture[data-least="{least_width}"])'
        f" {{ min-width: min({least_width}px, 100%); }} }}</style>"
    )
    frame = f'<div class="maze-picture" data-least="{least_width}" style="{FRAME_STYLE}">'
    return f"{frame}\n{PHONE_CSS}\n{column}\n{svg}\n</div>"


_SIDE_ENDS: Final = {1: (0.5, 0.0), 2: (1.0, 0.5), 4: (0.5, 1.0), 8: (0.0, 0.5)}
"""Where each open side (N=1, E=2, S=4, W=8) meets the card's edge, as a fraction."""
_SIDE_NAMES: Final = {1: "N", 2: "E", 4: "S", 8: "W"}

_COLOURS: Final = {
    "card": "#e8d5b0",
    "card_edge": "#8d6e4a",
    "tunnel": "#6b4423",
    "rock": "#3b3b3b",
    "start": "#9ecae1",
    "setup_edge": "#c0392b",
    "back": "#2c3e50",
    "back_edge": "#1a252f",
    "gold": "#f4d03f",
    "stone": "#aab7b8",
    "empty": "#f7f3ea",
    "highlight": "#f39c12",
    "highlight_edge": "#1b1b1b",
    "coordinates": "#5f5f5f",
    "gold_word": "#5c4a00",
}


def bounds(cells: Mapping[Cell, Placed], highlight: Cell | None) -> tuple[int, int, int, int]:
    """The grid shown, as (x0, x1, y0, y1): every card, the start and the goals, one
    free cell around (the replay's picture and the recording page's chart alike)."""
    xs = [x for x, _ in cells] + [cards.START_CELL[0]] + [x for x, _ in cards.GOAL_CELLS.values()]
    ys = [y for _, y in cells] + [cards.START_CELL[1]] + [y for _, y in cards.GOAL_CELLS.values()]
    if highlight is not None:
        xs.append(highlight[0])
        ys.append(highlight[1])
    return min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1


def _tunnels(left: float, top: float, sides: int, passable: bool, size: int) -> list[str]:
    """The bands of a card's open sides; a dead end's stop short of a rock at the centre."""
    width = size * 0.26
    cx, cy = left + size / 2, top + size / 2
    parts: list[str] = []
    stop = 0.0 if passable else size * 0.2
    for side in (1, 2, 4, 8):
        if not sides & side:
            continue
        fx, fy = _SIDE_ENDS[side]
        ex, ey = left + fx * size, top + fy * size
        # shorten toward the centre for a dead end
        dx, dy = cx - ex, cy - ey
        length = max(abs(dx), abs(dy)) or 1.0
        sx, sy = cx - dx / length * stop, cy - dy / length * stop
        parts.append(
            f'<line class="tunnel" data-side="{_SIDE_NAMES[side]}" x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" '
            f'y2="{ey:.1f}" stroke="{_COLOURS["tunnel"]}" stroke-width="{width:.1f}" stroke-linecap="butt"/>'
        )
    if passable and sides:
        half = width / 2
        parts.append(
            f'<rect class="junction" x="{cx - half:.1f}" y="{cy - half:.1f}" width="{width:.1f}" '
            f'height="{width:.1f}" fill="{_COLOURS["tunnel"]}"/>'
        )
    if not passable:
        r = size * 0.14
        parts.append(
            f'<circle class="dead-end" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{_COLOURS["rock"]}"/>'
            f'<line x1="{cx - r * 0.6:.1f}" y1="{cy - r * 0.6:.1f}" x2="{cx + r * 0.6:.1f}" y2="{cy + r * 0.6:.1f}" '
            f'stroke="#f7f3ea" stroke-width="2"/>'
            f'<line x1="{cx - r * 0.6:.1f}" y1="{cy + r * 0.6:.1f}" x2="{cx + r * 0.6:.1f}" y2="{cy - r * 0.6:.1f}" '
            f'stroke="#f7f3ea" stroke-width="2"/>'
        )
    return parts


def _label(
    x: float,
    y: float,
    text: str,
    *,
    colour: str = "#222",
    size: int = 10,
    weight: str = "bold",
    anchor: str = "middle",
    halo: str | None = None,
) -> str:
    outline = f' stroke="{halo}" stroke-width="3" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="{colour}"{outline}>{escape(text)}</text>'
    )


def _card_words(cell: Cell, placed: Placed, where: str, setup: bool, show_goals: bool) -> str:
    """A card in words, at ``where`` (the title's ``(x, y)``, or the layout's column and
    row): what the picture shows of it, a face-down goal's card only to the referee."""
    if placed.kind == "goal" and not placed.face_up:
        slot = cards.SLOT_AT.get(cell, "")
        words = _("face-down %(goal)s goal at %(where)s") % {"goal": names.goal(slot), "where": where}
        words = words.replace("  ", " ")
        if show_goals and placed.card != cards.UNSEEN:
            words += f" ({names.card(placed.card)})"
        return words
    if placed.kind == "goal":
        return _("%(card)s at %(where)s") % {"card": names.card(placed.card), "where": where}
    if placed.kind == "start":
        return _("the start card at %(where)s") % {"where": where}
    words = _("%(card)s at %(where)s") % {"card": names.card(placed.card, placed.rotated), "where": where}
    return _("%(card)s (the card in the middle)") % {"card": words} if setup else words


def _laid_words(cell: Cell, placed: Placed, setup: bool, show_goals: bool) -> str:
    """A card as the layout names it, after its place: what the picture shows of it."""
    if placed.kind == "goal" and not placed.face_up:
        words = _("%(goal)s goal, face down") % {"goal": names.goal(cards.SLOT_AT.get(cell, ""))}
        if show_goals and placed.card != cards.UNSEEN:
            words += f" ({names.card(placed.card)})"
    elif placed.kind == "goal":
        words = names.card(placed.card)
    elif placed.kind == "start":
        words = _("start card")
    else:
        words = names.card(placed.card, placed.rotated)
        if setup:
            words = _("%(card)s (the card in the middle)") % {"card": words}
    return _("%(place)s: %(card)s") % {"place": place_words(cell), "card": words}


def layout(cells: Mapping[Cell, Placed], *, setup_cell: Cell | None = None, show_goals: bool = False) -> list[str]:
    """Every card of the maze in words, row by row from the top left, each after the
    column and row the picture labels it with: the picture's text alternative.

    >>> from events.maze import Maze, tunnel
    >>> maze = Maze.dealt({"top": "goal_stone_ne", "middle": "goal_gold", "bottom": "goal_stone_nw"})
    >>> maze.place((1, 0), tunnel("NESW", rotated=False))
    >>> layout(maze.cells)[:2]
    ['column 8, row -2: top goal, face down', 'column 0, row 0: start card']
    >>> layout(maze.cells)[2:4]
    ['column 1, row 0: crossroads', 'column 8, row 0: middle goal, face down']
    """
    return [
        _laid_words(cell, cells[cell], cell == setup_cell, show_goals)
        for cell in sorted(cells, key=lambda c: (c[1], c[0]))
    ]


def _card(cell: Cell, placed: Placed, left: float, top: float, size: int, setup: bool, show_goals: bool) -> str:
    """One card's group: its face (or back), tunnels and marks."""
    x, y = cell
    inset = 2
    w = size - 2 * inset
    body: list[str] = []
    title = _card_words(cell, placed, f"({x}, {y})", setup, show_goals)
    if placed.kind == "goal" and not placed.face_up:
        body.append(
            f'<rect x="{left + inset}" y="{top + inset}" width="{w}" height="{w}" rx="5" '
            f'fill="{_COLOURS["back"]}" stroke="{_COLOURS["back_edge"]}" stroke-width="2"/>'
        )
        body.append(
            f'<rect x="{left + 8}" y="{top + 8}" width="{size - 16}" height="{size - 16}" rx="3" fill="none" '
            f'stroke="#5d6d7e" stroke-width="1" stroke-dasharray="3 2"/>'
        )
        body.append(_label(left + size / 2, top + size / 2 + 6, "?", colour="#d5dbdb", size=18))
        kind = "goal-back"
        data = ""
        if show_goals and placed.card != cards.UNSEEN:
            hidden = _("gold") if placed.card == cards.GOLD else _("stone")
            body.append(_label(left + size / 2, top + size - 6, hidden, colour="#f9e79f", size=WORDS, weight="normal"))
            data = f' data-card="{escape(placed.card)}"'
        return (
            f'<g class="card {kind}" data-x="{x}" data-y="{y}"{data}><title>{escape(title)}</title>'
            + "".join(body)
            + "</g>"
        )
    if placed.kind == "goal":
        gold = placed.card == cards.GOLD
        fill, kind, name = (
            (_COLOURS["gold"], "goal-gold", _("gold").upper())
            if gold
            else (_COLOURS["stone"], "goal-stone", _("stone"))
        )
    elif placed.kind == "start":
        fill, kind, name = _COLOURS["start"], "start", _("start").upper()
    else:
        fill, kind, name = _COLOURS["card"], "tunnel", ""
        if not placed.passable:
            kind = "tunnel dead-end-card"
    edge = _COLOURS["setup_edge"] if setup else _COLOURS["card_edge"]
    dash = ' stroke-dasharray="5 3"' if setup else ""
    body.append(
        f'<rect x="{left + inset}" y="{top + inset}" width="{w}" height="{w}" rx="5" fill="{fill}" '
        f'stroke="{edge}" stroke-width="{3 if setup else 1.5}"{dash}/>'
    )
    body.extend(_tunnels(left, top, placed.sides, placed.passable, size))
    if name:  # in the top-left corner, clear of the tunnels, with a halo over them
        colour = _COLOURS["gold_word"] if kind == "goal-gold" else "#17202a"
        body.append(_label(left + 5, top + 14, name, colour=colour, size=WORDS, anchor="start", halo=fill))
    if setup:
        body.append(
            _label(
                left + size - 5,
                top + size - 5,
                _("setup"),
                colour=_COLOURS["setup_edge"],
                size=WORDS,
                anchor="end",
                halo="#fdedec",
            )
        )
        kind += " setup"
    data = f' data-card="{escape(placed.card)}"' if placed.kind != "start" else ""
    return (
        f'<g class="card {kind}" data-x="{x}" data-y="{y}"{data}><title>{escape(title)}</title>'
        + "".join(body)
        + "</g>"
    )


def maze_svg(
    cells: Mapping[Cell, Placed],
    *,
    setup_cell: Cell | None = None,
    show_goals: bool = False,
    highlight: Cell | None = None,
    size: int = CELL,
) -> str:
    """The maze as an SVG document.

    ``setup_cell``: where the tournament's setup card lies (marked), if it still does.
    ``show_goals``: draw what each face-down goal hides, where the log knows it (the
    referee's view only).
    ``highlight``: the cell the current step acted on (a card laid, a rockfall).

    >>> from events.maze import Maze
    >>> svg = maze_svg(Maze.dealt({"top": "goal_stone_ne", "middle": "goal_gold", "bottom": "goal_stone_nw"}).cells)
    >>> svg.count('class="card goal-back"'), "goal_gold" in svg
    (3, False)
    """
    x0, x1, y0, y1 = bounds(cells, highlight)
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    width, height = columns * size + MARGIN, rows * size + MARGIN
    named = ngettext("The maze: %(num)d card", "The maze: %(num)d cards", len(cells)) % {"num": len(cells)}
    laid_out = "; ".join(layout(cells, setup_cell=setup_cell, show_goals=show_goals))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="maze" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" style="max-width: 100%; min-width: {least(width)}px; height: auto" '
        'role="img" '
        f'aria-label="{escape(named)}">',
        f"<desc>{escape(laid_out)}.</desc>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbf8f1"/>',
    ]
    grey = {"colour": _COLOURS["coordinates"], "size": WORDS, "weight": "normal"}
    for gx in range(columns):
        parts.append(_label(MARGIN + gx * size + size / 2, 15, str(x0 + gx), **grey))  # type: ignore[arg-type]
    for gy in range(rows):
        parts.append(_label(10, MARGIN + gy * size + size / 2 + 4, str(y0 + gy), **grey))  # type: ignore[arg-type]
    for gx in range(columns):
        for gy in range(rows):
            parts.append(
                f'<rect x="{MARGIN + gx * size + 1}" y="{MARGIN + gy * size + 1}" width="{size - 2}" '
                f'height="{size - 2}" fill="{_COLOURS["empty"]}" stroke="#e5dccb" stroke-width="1"/>'
            )
    for cell in sorted(cells):
        left = MARGIN + (cell[0] - x0) * size
        top = MARGIN + (cell[1] - y0) * size
        parts.append(_card(cell, cells[cell], left, top, size, cell == setup_cell, show_goals))
    if highlight is not None:
        left = MARGIN + (highlight[0] - x0) * size
        top = MARGIN + (highlight[1] - y0) * size
        box = f'x="{left + 1.5}" y="{top + 1.5}" width="{size - 3}" height="{size - 3}" rx="6" fill="none"'
        parts.append(  # a dark ring under a bright one: one of them stands out from any colour beside it
            f'<rect class="highlight-edge" {box} stroke="{_COLOURS["highlight_edge"]}" stroke-width="6"/>'
            f'<rect class="highlight" {box} stroke="{_COLOURS["highlight"]}" stroke-width="3"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def card_svg(placed: Placed, cell: Cell = cards.START_CELL, *, setup: bool = False, size: int = CELL) -> str:
    """One card as an SVG document of its own, drawn as the maze draws it: a tunnel card
    to pick, a goal as it would turn up, a cell of the recording page's maze (``cell``
    only names where it lies, in its title).

    >>> from events.maze import tunnel
    >>> card_svg(tunnel("NES", True)).count('class="tunnel"')
    3
    """
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card-picture" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}">{_card(cell, placed, 0, 0, size, setup, False)}</svg>'
    )
