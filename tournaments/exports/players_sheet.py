"""The "Players" sheet: the entry list by section and draw number."""

from __future__ import annotations

from openpyxl import Workbook

from .context import ExportData
from .labels import SHEET_PLAYERS, label
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .standings_sheet import number
from .styles import RowWriter


def count(data: ExportData) -> int:
    return len(data.players)


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    lang = data.language
    ws = wb.create_sheet(SHEET_PLAYERS)
    out = RowWriter(ws)
    rank = {s: i for i, s in enumerate(data.sections)}
    players = sorted(
        data.players,
        key=lambda p: (rank[p.section], p.draw_number is None, p.draw_number or 0, p.name_ru),
    )
    headers = ["number", "name_ru", "name_latin", "section", "club", "rating", "status"]
    widths = [
        6,
        name_width([p.name_ru for p in players]),
        name_width([p.name_latin for p in players]),
        name_width([data.info.section_name(s) for s in data.sections], 12, 30),
        name_width([p.club for p in players], 12, 30),
        9,
        12,
    ]
    setup_sheet(ws, widths, freeze_cols=2)
    write_title(out, data, label("players", lang))
    out.append([(label(h, lang), "header") for h in headers])
    for p in players:
        out.append(
            [
                (p.draw_number if p.draw_number is not None else "", None),
                (p.name_ru, None),
                (p.name_latin, None),
                (data.info.section_name(p.section), None),
                (p.club, None),
                (number(p.rating), None),
                (label("withdrawn", lang), "pending") if p.withdrawn else ("", None),
            ]
        )
        progress.advance()
