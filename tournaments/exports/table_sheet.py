"""A one-sheet workbook of a plain table (a season's standings, a rating list), styled like the others.

The pages hand over the heading, a subtitle, the column headers and the rows
already in the reader's language; this module only lays them out (title lines,
header row 3, frozen header, print setup, the shared styles). No Django.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openpyxl import Workbook

from .sheet_setup import name_width, setup_sheet
from .styles import RowWriter

#: Sheet names may not hold these characters, and are at most 31 long (Excel's rules).
_BAD_SHEET_CHARS = str.maketrans({c: " " for c in "[]:*?/\\"})


@dataclass(frozen=True)
class Column:
    header: str
    width: float | None = None  # None: as wide as the longest value (names)
    style: str | None = "number"  # a style of :data:`.styles.STYLES`


def table_workbook(
    sheet: str,
    title: str,
    subtitle: str,
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    *,
    marks: Iterable[Sequence[str | None]] | None = None,
) -> bytes:
    """The workbook as bytes. ``marks`` (optional, per row and column) overrides a cell's style."""
    rows = [list(r) for r in rows]
    marks = [list(m) for m in marks] if marks is not None else None
    widths = [
        c.width if c.width is not None else name_width([str(r[i]) for r in rows])
        for i, c in enumerate(columns)
    ]
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(sheet.translate(_BAD_SHEET_CHARS)[:31] or "Sheet")
    setup_sheet(ws, widths, freeze_cols=2, landscape=len(columns) > 8)
    out = RowWriter(ws)
    out.append([(title, "title")])
    out.append([(subtitle, "subtitle")])
    out.append([(c.header, "header") for c in columns])
    for n, row in enumerate(rows):
        styles = marks[n] if marks is not None else [None] * len(columns)
        out.append([(v, styles[i] or columns[i].style) for i, v in enumerate(row)])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()
