"""A player's rating history as an SVG line graph, drawn on the server (no JS, no chart service).

Plain Python, no Django: the view passes the points and the words (already in
the reader's language) and puts the returned markup into the page. The drawing
is accessible on its own: ``role="img"`` with a ``<title>`` and ``<desc>``, labelled
axes, and a ``<title>`` on every point so a screen reader or a hover tells its value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.utils.formats import number_format

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44
MAX_CIRCLES = 400
"""Past this many points only the line is drawn (the table below the graph has every value)."""


@dataclass(frozen=True, slots=True)
class GraphPoint:
    label: str
    """What the point's tooltip says besides the rating (a date and an opponent, say)."""
    rating: float


@dataclass(frozen=True, slots=True)
class GraphWords:
    title: str
    desc: str
    x_axis: str
    y_axis: str


def _nice_step(span: float) -> float:
    """A round tick step giving about five ticks over ``span``."""
    raw = max(span, 1.0) / 5
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def rating_svg(points: Sequence[GraphPoint], words: GraphWords, graph_id: str = "rating-graph") -> str:
    """The graph's ``<svg>`` markup; every text is escaped here."""
    ratings = [p.rating for p in points] or [1500.0]
    low, high = min(ratings), max(ratings)
    step = _nice_step(high - low)
    y_min = math.floor(low / step) * step
    y_max = math.ceil(high / step) * step
    if y_max <= y_min:
        y_min, y_max = y_min - step, y_max + step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    count = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return LEFT + plot_w * i / count

    def y(value: float) -> float:
        return TOP + plot_h * (y_max - value) / (y_max - y_min)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-graph" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-labelledby="{graph_id}-title {graph_id}-desc">',
        f'<title id="{graph_id}-title">{escape(words.title)}</title>',
        f'<desc id="{graph_id}-desc">{escape(words.desc)}</desc>',
        f'<g class="axes" stroke="currentColor" stroke-width="1">'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>'
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/></g>',
    ]
    ticks = []
    value = y_min
    while value <= y_max + step / 2:
        ty = y(value)
        ticks.append(
            f'<line x1="{LEFT - 4}" y1="{ty:.1f}" x2="{LEFT + plot_w}" y2="{ty:.1f}" class="grid-line"/>'
            f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{value:g}</text>'
        )
        value += step
    out.append(f'<g class="y-ticks" font-size="14" fill="currentColor" stroke-opacity="0.2">{"".join(ticks)}</g>')
    if points:
        first, last = 0, len(points) - 1
        out.append(
            f'<g class="x-ticks" font-size="14" fill="currentColor">'
            f'<text x="{x(first):.1f}" y="{TOP + plot_h + 16}" text-anchor="start">{first}</text>'
            + (
                f'<text x="{x(last):.1f}" y="{TOP + plot_h + 16}" text-anchor="end">{last}</text>'
                if last != first
                else ""
            )
            + "</g>"
        )
    out.append(
        f'<text class="axis-label" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" '
        f'text-anchor="middle" font-size="15" fill="currentColor">{escape(words.x_axis)}</text>'
        f'<text class="axis-label" x="14" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" font-size="15" '
        f'fill="currentColor" transform="rotate(-90 14 {TOP + plot_h / 2:.1f})">{escape(words.y_axis)}</text>'
    )
    if points:
        coords = " ".join(f"{x(i):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
        out.append(
            f'<polyline class="line" fill="none" stroke="currentColor" stroke-width="2" points="{coords}"/>'
        )
        if len(points) <= MAX_CIRCLES:
            dots = []
            for i, p in enumerate(points):
                dots.append(
                    f'<circle cx="{x(i):.1f}" cy="{y(p.rating):.1f}" r="3" data-rating="{p.rating:.2f}">'
                    f"<title>{escape(p.label)}: {escape(number_format(p.rating, 2))}</title></circle>"
                )
            out.append(f'<g class="points" fill="currentColor">{"".join(dots)}</g>')
    out.append("</svg>")
    return "".join(out)
