"""Layout shared by all sheets: title lines, column widths, frozen header, print setup."""

from __future__ import annotations

from collections.abc import Sequence

from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.worksheet import Worksheet

from .context import ExportData
from .styles import RowWriter

HEADER_ROW = 3
"""Rows 1–2 are the title and the dates/venue line; the table header is row 3."""

DATE_WIDTH = 11.0
"""A date cell shows "########" in a narrower column (a number never spills into the next cell)."""


def setup_sheet(
    ws: WriteOnlyWorksheet,
    widths: Sequence[float],
    *,
    freeze_cols: int = 0,
    freeze: bool = True,
    landscape: bool = False,
    date_columns: int = 0,
) -> None:
    """Must run before the first row is written (write-only sheets stream rows).

    ``date_columns``: how many leading columns hold a date cell in the title lines
    (:func:`write_title`), widened so the date shows.
    """
    widths = [max(w, DATE_WIDTH) if i < date_columns else w for i, w in enumerate(widths)]
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    if freeze:
        ws.freeze_panes = f"{get_column_letter(freeze_cols + 1)}{HEADER_ROW + 1}"
    ws.print_title_rows = f"{HEADER_ROW}:{HEADER_ROW}"
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.paperSize = Worksheet.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.print_options.gridLines = True


def write_title(out: RowWriter, data: ExportData, heading: str) -> None:
    """The title, then the event's days as date cells and the venue beside them."""
    out.append([(data.title(heading), "title")])
    line: list[tuple[object, str | None]] = [(day, data.date_style) for day in data.info.days]
    if data.info.venue:
        line.append((data.info.venue, "subtitle"))
    out.append(line)


def name_width(names: Sequence[str], minimum: float = 18, maximum: float = 40) -> float:
    longest = max((len(n) for n in names), default=0)
    return float(min(max(longest + 2, minimum), maximum))
