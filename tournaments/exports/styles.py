"""The workbook's look, and cheap styled cells for write-only sheets.

Setting fonts and fills one attribute at a time makes openpyxl hash style
objects for every cell; for 100,000 cells that dominates the export. So body
cells that need no colour are written bare (print gridlines draw the lines),
and styled cells are built once per style and column and reused
(:class:`RowWriter`). Every cell of every sheet passes through :class:`RowWriter`, so
it is also the one place where text that looks like a formula is pinned as text.
"""

from __future__ import annotations

from typing import Any

from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from clubs.names import strip_invisible

_THIN = Side(style="thin", color="B0B0B0")
_BOX = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_CENTER = Alignment(horizontal="center", vertical="center")
_LEFT = Alignment(horizontal="left", vertical="center")
_WRAP = Alignment(horizontal="center", vertical="center", wrap_text=True)

WIN_FILL = PatternFill("solid", start_color="C6EFCE", end_color="C6EFCE")
LOSS_FILL = PatternFill("solid", start_color="FFC7CE", end_color="FFC7CE")
DRAW_FILL = PatternFill("solid", start_color="FFEB9C", end_color="FFEB9C")
HEADER_FILL = PatternFill("solid", start_color="DDEBF7", end_color="DDEBF7")
DIAGONAL_FILL = PatternFill("solid", start_color="808080", end_color="808080")

STYLES: dict[str, dict[str, Any]] = {
    "title": {"font": Font(bold=True, size=14)},
    "subtitle": {"font": Font(italic=True, color="555555")},
    # The event's days in the title lines: real dates, shown as each language writes them.
    "date_ru": {"font": Font(italic=True, color="555555"), "number_format": "DD.MM.YYYY", "alignment": _LEFT},
    "date_en": {"font": Font(italic=True, color="555555"), "number_format": "YYYY-MM-DD", "alignment": _LEFT},
    "header": {"font": Font(bold=True), "fill": HEADER_FILL, "border": _BOX, "alignment": _WRAP},
    "text": {"border": _BOX, "alignment": _LEFT},
    "name": {"border": _BOX, "alignment": _LEFT},
    "name_top": {"border": _BOX, "alignment": _LEFT, "font": Font(bold=True)},
    "number": {"border": _BOX, "alignment": _CENTER},
    # A rating: the cell keeps full precision, Excel shows two decimals (as the pages do).
    "rating": {"border": _BOX, "alignment": _CENTER, "number_format": "0.00"},
    # A date in a table: a real date cell, shown as each language writes dates.
    "day_ru": {"border": _BOX, "alignment": _CENTER, "number_format": "DD.MM.YYYY"},
    "day_en": {"border": _BOX, "alignment": _CENTER, "number_format": "YYYY-MM-DD"},
    "total": {"font": Font(bold=True), "border": _BOX, "alignment": _CENTER, "fill": HEADER_FILL},
    "win": {"fill": WIN_FILL, "font": Font(color="006100"), "border": _BOX, "alignment": _CENTER},
    "loss": {"fill": LOSS_FILL, "font": Font(color="9C0006"), "border": _BOX, "alignment": _CENTER},
    "draw": {"fill": DRAW_FILL, "font": Font(color="9C5700"), "border": _BOX, "alignment": _CENTER},
    "mixed": {"fill": DRAW_FILL, "border": _BOX, "alignment": _CENTER},
    "bye": {"font": Font(italic=True, color="555555"), "border": _BOX, "alignment": _CENTER},
    "pending": {"font": Font(italic=True, color="808080"), "border": _BOX, "alignment": _CENTER},
    # Results without play (a crosstable cell's outcome, ``standings.crosstable.OUTCOME_LETTERS``):
    # coloured like the played result they count as, in italics so they read as not played.
    "forfeit_win": {"fill": WIN_FILL, "font": Font(italic=True, color="006100"), "border": _BOX, "alignment": _CENTER},
    "forfeit_loss": {"fill": LOSS_FILL, "font": Font(italic=True, color="9C0006"), "border": _BOX, "alignment": _CENTER},
    "void": {"font": Font(italic=True, color="555555"), "border": _BOX, "alignment": _CENTER},
    "none": {"border": _BOX, "alignment": _CENTER},
    "diagonal": {"fill": DIAGONAL_FILL, "border": _BOX},
    "winner_name": {"fill": WIN_FILL, "font": Font(bold=True), "border": _BOX, "alignment": _LEFT},
    "loser_name": {"fill": LOSS_FILL, "border": _BOX, "alignment": _LEFT},
    "plain": {},
}


# A text starting with one of these is a formula (or DDE payload) to Excel or LibreOffice
# once someone retypes or re-saves it as CSV; a player named "=HYPERLINK(…)" must stay a name.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def _text_cell(ws: WriteOnlyWorksheet, value: str, style: str | None) -> WriteOnlyCell:
    """A fresh cell pinned to the string type (openpyxl makes "=…" a formula), value unchanged.

    Fresh, not the reused cell of its style and column: ``quotePrefix`` is part of the
    style and would otherwise stick to the following rows.
    """
    cell = WriteOnlyCell(ws, value)
    for attr, obj in STYLES[style].items() if style else ():
        setattr(cell, attr, obj)
    cell.data_type = "s"
    cell.quotePrefix = True  # shown and re-saved as typed text, never evaluated
    return cell


class RowWriter:
    """Appends rows of ``(value, style)`` pairs to one write-only worksheet.

    ``style=None`` writes the bare value (the cheapest cell openpyxl can write);
    other styles use a cell object kept per (style, column) and reused row after
    row — safe because a write-only sheet serialises each row during ``append``.
    """

    def __init__(self, ws: WriteOnlyWorksheet) -> None:
        self.ws = ws
        self._cells: dict[tuple[str, int], WriteOnlyCell] = {}

    def append(self, items: list[tuple[Any, str | None]]) -> None:
        row: list[Any] = []
        for column, (value, style) in enumerate(items):
            if isinstance(value, str):
                value = strip_invisible(value)  # no bidi override or zero-width space in a cell
            if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
                row.append(_text_cell(self.ws, value, style))
                continue
            if style is None:
                row.append(None if value == "" else value)
                continue
            cell = self._cells.get((style, column))
            if cell is None:
                cell = WriteOnlyCell(self.ws)
                for attr, obj in STYLES[style].items():
                    setattr(cell, attr, obj)
                self._cells[(style, column)] = cell
            cell.value = None if value == "" else value
            row.append(cell)
        self.ws.append(row)

    def blank(self) -> None:
        self.ws.append([])
