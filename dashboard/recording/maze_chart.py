"""The maze as a chart a referee taps: each cell a mark, each card drawn as the replay
draws it (:func:`dashboard.maze_svg.card_svg`, as an image), the cells where the card
in hand may go marked with a letter.

The chart is a Vega-Lite specification (Streamlit's own charts, ``st.vega_lite_chart``),
written out rather than built with Altair: it is made again at every tap, and Altair's
schema validation of it would cost more than everything else on the screen. A tap on a
cell is a point selection of its ``x`` and ``y`` (``on_select``), which the page takes
as the cell picked. Nothing here imports Streamlit.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from dashboard.maze_svg import bounds, card_svg
from events.maze import Cell, Maze, Placed
from events.state import RoundState

SELECTION: Final = "cell"
"""The name of the chart's point selection: ``selection[SELECTION]`` lists the cell tapped."""
WIDTH: Final = 358
"""Pixels across on a phone of 390 (the page's margins left out)."""
LARGEST: Final = 48
"""The largest cell, in pixels, when the maze is small."""

_FILL: Final = {"empty": "#f7f3ea", "mark": "#abebc6", "card": "#fbf8f1"}
_EDGE: Final = {"plain": "#e5dccb", "acted": "#a04000"}
"""A cell's edge; the cell acted on stands out by 3:1 at least against every fill (WCAG
1.4.11: its orange, #e67e22, was 2:1 beside a card); the letters naming the marked
cells are 6:1 on their fill (#1e8449 was 3.5:1)."""


@lru_cache(maxsize=512)
def _picture(card: str, kind: str, rotated: bool, sides: int, passable: bool, face_up: bool, setup: bool) -> str:
    placed = Placed(card, kind, rotated, sides, passable, face_up)  # type: ignore[arg-type]
    svg = card_svg(placed, setup=setup)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def picture(placed: Placed, *, setup: bool = False) -> str:
    """A card's picture as a ``data:`` address (an image mark's, or a button label's)."""
    return _picture(placed.card, placed.kind, placed.rotated, placed.sides, placed.passable, placed.face_up, setup)


def table_maze(rs: RoundState) -> Maze:
    """The maze as the table sees it: a goal turned up since the last card was laid lies
    face up (the replay judges a placement's reveals together, at the line after them,
    and holds them aside until then)."""
    run = rs.reveal_run
    if run is None or not run.entries:
        return rs.maze
    maze = rs.maze.copy()
    for slot, rotated, _, card in run.entries:
        if card is not None and maze.face_down(slot):
            maze.learn_goal(slot, card)
            maze.reveal(slot, rotated)
    return maze


def maze_chart(
    cells: Mapping[Cell, Placed],
    *,
    setup_cell: Cell | None = None,
    marks: Mapping[Cell, str] | None = None,
    highlight: Cell | None = None,
    width: int = WIDTH,
) -> dict[str, Any]:
    """The maze as a Vega-Lite specification, every card drawn and every cell tappable;
    ``marks``: a letter for each cell where the card in hand may go; ``highlight``: the
    cell the last entry acted on.

    >>> from events.maze import Maze
    >>> spec = maze_chart(Maze.dealt({"top": "?", "middle": "?", "bottom": "?"}).cells, marks={(1, 0): "A"})
    >>> [row["mark"] for row in spec["data"]["values"] if row["mark"]]
    ['A']
    """
    marks = marks or {}
    x0, x1, y0, y1 = bounds(cells, highlight)
    step = max(16, min(LARGEST, width // (x1 - x0 + 1)))
    rows: list[dict[str, Any]] = []
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            placed = cells.get((x, y))
            mark = marks.get((x, y), "")
            rows.append(
                {
                    "x": x,
                    "y": y,
                    "fill": _FILL["mark" if mark else "card" if placed else "empty"],
                    "edge": _EDGE["acted" if (x, y) == highlight else "plain"],
                    "image": picture(placed, setup=(x, y) == setup_cell) if placed is not None else None,
                    "mark": mark,
                }
            )
    axis = {"title": None, "ticks": False, "domain": False, "labelAngle": 0}
    inset = max(12, step - 4)
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "data": {"values": rows},
        "width": {"step": step},
        "height": {"step": step},
        # the chart is one picture to a screen reader, named by the page (``alt``): Vega
        # named each of its 160-odd cells itself ("rect mark: x: -1; y: -3; fill:
        # #f7f3ea"), and each card by its picture's whole data: address
        "config": {"view": {"strokeWidth": 0}, "aria": False},
        "encoding": {
            "x": {"field": "x", "type": "ordinal", "axis": {**axis, "orient": "top"}},
            "y": {"field": "y", "type": "ordinal", "axis": axis},
        },
        "layer": [
            {
                "mark": {"type": "rect", "strokeWidth": 2},
                "encoding": {
                    "fill": {"field": "fill", "type": "nominal", "scale": None},
                    "stroke": {"field": "edge", "type": "nominal", "scale": None},
                },
            },
            {
                "transform": [{"filter": "datum.image != null"}],
                "mark": {"type": "image", "width": inset, "height": inset},
                "encoding": {"url": {"field": "image", "type": "nominal"}},
            },
            {
                "transform": [{"filter": "datum.mark != ''"}],
                "mark": {"type": "text", "fontWeight": "bold", "fontSize": max(10, step // 2), "color": "#145a32"},
                "encoding": {"text": {"field": "mark", "type": "nominal"}},
            },
            {  # on top of the cards, so that a tap on a card picks its cell too
                "params": [{"name": SELECTION, "select": {"type": "point", "fields": ["x", "y"], "on": "click"}}],
                "mark": {"type": "rect", "fill": "#ffffff", "fillOpacity": 0.01, "cursor": "pointer"},
            },
        ],
    }
