"""One position as an SVG board, in the book's orientation for its variant, both numberings.

The book draws the board from White's side (ch8 fig. 14 for the short games, ch9 fig. 19
for long nardy; ch5–7 fig. 6 and 9 name the points):

* short games (backgammon, trictrac, …): the top row reads 01…012 from left to right and
  the bottom row 1…12; White's home 1…6 is bottom left, Black's 01…06 top left, the
  bar between 6|7 and 06|07. White moves clockwise, Black against it.
* long nardy: both sides move counter-clockwise; the top row reads 01…012 and the bottom
  row 12…1 from left to right, so White's home 1…6 is bottom right and its head 012 top
  right; Black's head 12 is bottom left and its home 01…06 top left.

Each point carries its traditional label (the book's) and, smaller, its through label
(backgammon's 1…24; for long nardy White's path). Drawn on the server as plain text, so
the page needs no script and a screen reader gets the position from ``<title>``/``<desc>``.
"""

from __future__ import annotations

from html import escape

from scoring.rules.board.position import (
    BAR,
    BLACK,
    OFF,
    WHITE,
    Position,
    index_to_label,
    opposite_index,
)
from scoring.rules.variants import get_variant

COLUMN = 36
BAR_WIDTH = 30
TRAY = 44
TOP = 34
HEIGHT = 300
POINT = 126
RADIUS = 15
LEFT = TRAY
WIDTH = TRAY * 2 + COLUMN * 12 + BAR_WIDTH
TOTAL_HEIGHT = TOP * 2 + HEIGHT

FILL = {WHITE: "#f5f0e1", BLACK: "#2b2b2b"}
INK = {WHITE: "#2b2b2b", BLACK: "#f5f0e1"}
SIDE = {"white": WHITE, "black": BLACK}


def column_points(geometry: str) -> tuple[list[int], list[int]]:
    """White's index of the point in each column, left to right: (top row, bottom row)."""
    if geometry == "long":
        return [13 + c for c in range(12)], [12 - c for c in range(12)]
    return [24 - c for c in range(12)], [1 + c for c in range(12)]


def _x(column: int) -> int:
    return LEFT + column * COLUMN + (BAR_WIDTH if column >= 6 else 0)


def _checker(cx: float, cy: float, side: int, label: str = "") -> str:
    out = (
        f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{RADIUS - 1}" fill="{FILL[side]}" '
        f'stroke="{INK[WHITE]}" stroke-width="1.5"/>'
    )
    if label:
        out += (
            f'<text x="{cx:.0f}" y="{cy + 5:.0f}" text-anchor="middle" font-size="13" '
            f'font-weight="bold" fill="{INK[side]}">{label}</text>'
        )
    return out


def _stack(x: int, top: bool, side: int, count: int) -> list[str]:
    out = []
    shown = min(count, 5)
    for n in range(shown):
        offset = RADIUS + n * (RADIUS * 2 - 2)
        cy = TOP + offset if top else TOP + HEIGHT - offset
        label = str(count) if count > 5 and n == shown - 1 else ""
        out.append(_checker(x + COLUMN / 2, cy, side, label))
    return out


def _die(x: float, y: float, value: int, side: int) -> str:
    return (
        f'<rect x="{x:.0f}" y="{y:.0f}" width="28" height="28" rx="5" fill="{FILL[side]}" '
        f'stroke="{INK[WHITE]}"/><text x="{x + 14:.0f}" y="{y + 20:.0f}" text-anchor="middle" '
        f'font-size="17" font-weight="bold" fill="{INK[side]}">{value}</text>'
    )


def board_svg(
    position: Position,
    *,
    dice: tuple[int, int] | None = None,
    dice_side: str | None = None,
    cube: int = 1,
    cube_owner: str | None = None,
    title: str = "",
    description: str = "",
    flip: bool = False,
) -> str:
    """The SVG text of ``position`` (see the module docstring for the layout).

    ``flip`` turns the board round (Black's side at the bottom, as Black sits): the rows
    swap and read the other way, and everything off the points moves with them; the
    labels stay upright.
    """
    rules = get_variant(position.variant)
    geometry = rules.geometry
    top_row, bottom_row = column_points(geometry)
    if flip:
        top_row, bottom_row = bottom_row[::-1], top_row[::-1]

    def place(x: float, y: float) -> tuple[float, float]:
        return (WIDTH - x, TOP * 2 + HEIGHT - y) if flip else (x, y)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {TOTAL_HEIGHT}" '
        f'class="board-svg" role="img" aria-labelledby="board-title board-desc">',
        f'<title id="board-title">{escape(title)}</title>',
        f'<desc id="board-desc">{escape(description)}</desc>',
        f'<rect x="0" y="{TOP}" width="{WIDTH}" height="{HEIGHT}" fill="#7a5230"/>',
        f'<rect x="{LEFT}" y="{TOP}" width="{COLUMN * 12 + BAR_WIDTH}" height="{HEIGHT}" fill="#e9d7a8"/>',
        f'<rect x="{LEFT + COLUMN * 6}" y="{TOP}" width="{BAR_WIDTH}" height="{HEIGHT}" fill="#7a5230"/>',
    ]
    for row, points in (("top", top_row), ("bottom", bottom_row)):
        is_top = row == "top"
        for column, white_index in enumerate(points):
            x = _x(column)
            shade = "#b5603a" if column % 2 == 0 else "#3f6e62"
            base, tip = (TOP, TOP + POINT) if is_top else (TOP + HEIGHT, TOP + HEIGHT - POINT)
            parts.append(
                f'<polygon points="{x},{base} {x + COLUMN},{base} {x + COLUMN / 2:.0f},{tip}" '
                f'fill="{shade}"/>'
            )
            traditional = index_to_label(white_index, WHITE, "traditional", geometry)
            through = index_to_label(white_index, WHITE, "through", geometry)
            ty = (TOP - 17, TOP - 4) if is_top else (TOP + HEIGHT + 16, TOP + HEIGHT + 30)
            parts.append(
                f'<text x="{x + COLUMN / 2:.0f}" y="{ty[0]}" text-anchor="middle" font-size="15" '
                f'font-weight="bold" fill="#222" class="label-traditional">{traditional}</text>'
                f'<text x="{x + COLUMN / 2:.0f}" y="{ty[1]}" text-anchor="middle" font-size="12" '
                f'fill="#666" class="label-through">{through}</text>'
            )
            white = position.white[white_index]
            black = position.black[opposite_index(geometry, white_index)]
            if white:
                parts.extend(_stack(x, is_top, WHITE, white))
            if black:
                parts.extend(_stack(x, is_top, BLACK, black))
    bar_x = LEFT + COLUMN * 6 + BAR_WIDTH / 2
    for side, cy in ((WHITE, TOP + HEIGHT / 2 + 40), (BLACK, TOP + HEIGHT / 2 - 40)):
        count = position.board(side)[BAR]
        if count:
            parts.append(_checker(*place(bar_x, cy), side, str(count)))
    # Borne-off checkers in the tray next to each side's home.
    white_tray = WIDTH - TRAY / 2 if geometry == "long" else TRAY / 2
    for side, tx, ty in (
        (WHITE, white_tray, TOP + HEIGHT - 30),
        (BLACK, TRAY / 2, TOP + 30),
    ):
        count = position.board(side)[OFF]
        if count:
            parts.append(_checker(*place(tx, ty), side, str(count)))
    # The cube: centred on the right, or on its owner's side.
    cube_y = {None: TOP + HEIGHT / 2, "white": TOP + HEIGHT - 80, "black": TOP + 80}[cube_owner]
    cube_x = WIDTH - TRAY / 2 if geometry != "long" or cube_owner != "white" else TRAY / 2
    cube_x, cube_y = place(cube_x, cube_y)
    parts.append(
        f'<rect x="{cube_x - 16:.0f}" y="{cube_y - 16:.0f}" width="32" height="32" rx="4" '
        f'fill="#fff" stroke="#222" class="cube"/><text x="{cube_x:.0f}" y="{cube_y + 6:.0f}" '
        f'text-anchor="middle" font-size="15" font-weight="bold" fill="#222">{cube if cube > 1 else 64}</text>'
    )
    if dice is not None:
        side = SIDE.get(dice_side or "white", WHITE)
        dx = LEFT + COLUMN * 9 + BAR_WIDTH - 32
        dy = TOP + HEIGHT / 2 - 14
        if flip:  # the pair's centre turns round with the board; the dice keep their order
            dx = WIDTH - (dx + 64)
        parts.append(_die(dx, dy, dice[0], side) + _die(dx + 36, dy, dice[1], side))
    parts.append("</svg>")
    return "".join(parts)


def pip_counts(position: Position) -> tuple[int, int]:
    """Pips each side still has to travel (White, Black): a checker on its own point n
    counts n, on the bar 25 — the count players and GNU Backgammon show."""
    return tuple(sum(i * c for i, c in enumerate(position.board(side)) if i) for side in (WHITE, BLACK))  # type: ignore[return-value]


def describe(position: Position, language: str = "en") -> str:
    """The position in words for ``<desc>``: each side's points in the book's labels."""
    english = not language.startswith("ru")
    names = ("White", "Black") if english else ("Белые", "Чёрные")
    off_word = "off" if english else "во дворе"
    parts = []
    for side in (WHITE, BLACK):
        labels = position.labels(side, "traditional")
        cells = ", ".join(f"{label}({count})" for label, count in labels.items())
        parts.append(f"{names[side]}: {cells or '—'}; {off_word} {position.board(side)[OFF]}")
    return ". ".join(parts)


__all__ = ["board_svg", "column_points", "describe", "pip_counts"]
