"""The maze as a chart a referee taps: each cell a mark, each card drawn as the replay
draws it (:func:`dashboard.maze_svg.card_svg`, as an image), the cells where the card
in hand may go marked with a letter.

Streamlit reports a tap on a cell as a point selection of its ``x`` and ``y``
(``st.altair_chart(..., on_select=…)``), so the page takes it as the cell picked.
Altair is Streamlit's own charting library; nothing here imports Streamlit.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

import altair as alt

from dashboard.maze_svg import bounds, card_svg
from events.maze import Cell, Placed

SELECTION: Final = "cell"
"""The name of the chart's point selection: ``selection[SELECTION]`` lists the cell tapped."""
WIDTH: Final = 340
"""Pixels across on a phone of 390 (the page's margins left out)."""
LARGEST: Final = 48
"""The largest cell, in pixels, when the maze is small."""

_FILL: Final = {"empty": "#f7f3ea", "mark": "#abebc6", "card": "#fbf8f1"}


@lru_cache(maxsize=512)
def _picture(card: str, kind: str, rotated: bool, sides: int, passable: bool, face_up: bool, setup: bool) -> str:
    placed = Placed(card, kind, rotated, sides, passable, face_up)  # type: ignore[arg-type]
    svg = card_svg(placed, setup=setup)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def picture(placed: Placed, *, setup: bool = False) -> str:
    """A card's picture as a ``data:`` address (an image mark's, or a button label's)."""
    return _picture(placed.card, placed.kind, placed.rotated, placed.sides, placed.passable, placed.face_up, setup)


def maze_chart(
    cells: Mapping[Cell, Placed],
    *,
    setup_cell: Cell | None = None,
    marks: Mapping[Cell, str] | None = None,
    highlight: Cell | None = None,
    width: int = WIDTH,
) -> alt.LayerChart:
    """The maze, every card drawn and every cell tappable; ``marks``: a letter for each
    cell where the card in hand may go; ``highlight``: the cell the last entry acted on.
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
                    "edge": "#e67e22" if (x, y) == highlight else "#e5dccb",
                    "image": picture(placed, setup=(x, y) == setup_cell) if placed is not None else None,
                    "mark": mark,
                }
            )
    base = alt.Chart({"values": rows}).encode(
        x=alt.X("x:O", axis=alt.Axis(title=None, orient="top", ticks=False, domain=False, labelAngle=0)),
        y=alt.Y("y:O", axis=alt.Axis(title=None, ticks=False, domain=False)),
    )
    tap = alt.selection_point(fields=["x", "y"], name=SELECTION, on="click", empty=False)
    grid = base.mark_rect(strokeWidth=2).encode(
        fill=alt.Fill("fill:N", scale=None),
        stroke=alt.Stroke("edge:N", scale=None),
        tooltip=alt.value(None),
    )
    inset = max(12, step - 4)
    images = base.transform_filter("datum.image != null").mark_image(width=inset, height=inset).encode(url="image:N")
    letters = (
        base.transform_filter("datum.mark != ''")
        .mark_text(fontWeight="bold", fontSize=max(10, step // 2), color="#1e8449")
        .encode(text="mark:N")
    )
    chart: alt.LayerChart = (
        alt.layer(grid.add_params(tap), images, letters)
        .properties(width=alt.Step(step), height=alt.Step(step))
        .configure_view(strokeWidth=0)
    )
    return chart
