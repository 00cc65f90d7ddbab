"""The "Side brackets" sheet of a cup: each side bracket's own table (consolation, last
chance, progressive consolation), ranked among its players only.

The Standings sheet keeps the main draw's places (the standings core's convention,
:mod:`tournaments.standings.cup`); a side bracket's winner never appears above the
champion there. The sheet is written only when a cup has side brackets.
"""

from __future__ import annotations

from openpyxl import Workbook

from tournaments.standings import bracket_name, table_stages

from .context import ExportData
from .labels import label, sheet_name
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .standings_sheet import place_cells, value_cell
from .styles import RowWriter


def _sides(data: ExportData):
    return [(section, side) for section in data.sections for side in data.standings[section].side_tables]


def count(data: ExportData) -> int:
    return sum(len(side.rows) for _section, side in _sides(data))


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    sides = _sides(data)
    if not sides:
        return
    lang = data.language
    ws = wb.create_sheet(sheet_name("brackets", lang))
    out = RowWriter(ws)
    metrics = sides[0][1].metrics
    headers = [label("place", lang), label("place_shared", lang), label("number", lang), label("player", lang)]
    headers += [m.name(lang) for m in metrics]
    setup_sheet(ws, [8, 10, 6, name_width([p.name(lang) for p in data.players]), *[13] * len(metrics)], freeze=False)
    write_title(out, data, label("side_brackets", lang))
    for section, side in sides:
        out.blank()
        title = bracket_name(side.bracket, lang)
        if data.multi_section:
            title = f"{data.info.section_name(section)} — {title}"
        out.append([(title, "title")])
        out.append([(h, "header") for h in headers])
        stages = table_stages(side, data.matches, lang)
        for row in side.rows:
            p = row.player
            cells: list[tuple[object, str | None]] = [
                *place_cells(row, "total" if row.place <= 3 else "number"),
                (p.draw_number if p.draw_number is not None else "", None),
                (p.name(lang), "name_top" if row.place <= 3 else None),
            ]
            cells += [(value_cell(row, m.key, stages), None) for m in metrics]
            out.append(cells)
            progress.advance()
