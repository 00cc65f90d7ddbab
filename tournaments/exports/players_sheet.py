"""The "Players" sheet: the entry list by section and draw number, with each player's category."""

from __future__ import annotations

from openpyxl import Workbook

from scoring.rules.match.categories import CATEGORIES

from .context import ExportData, start_number
from .labels import label, sheet_name
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .standings_sheet import number
from .styles import RowWriter

_CATEGORY_NAMES = {c.number: (c.ru, c.en) for c in CATEGORIES}


def category_name(value: int | None, language: str) -> str:
    """ "7 · Специалист" / "7 · Expert": the number and name of the book's table (Part 9,
    "Категории игроков"), as the app's pages write a category; blank when unknown."""
    names = _CATEGORY_NAMES.get(value) if value is not None else None
    if names is None:
        return ""
    return f"{value} · {names[1] if language.startswith('en') else names[0]}"


def count(data: ExportData) -> int:
    return len(data.players)


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    lang = data.language
    ws = wb.create_sheet(sheet_name("players", lang))
    out = RowWriter(ws)
    rank = {s: i for i, s in enumerate(data.sections)}
    players = sorted(
        data.players,
        key=lambda p: (rank[p.section], p.draw_number is None, p.draw_number or 0, p.name_ru),
    )
    categories = {p.id: category_name(data.options.categories.get(p.id), lang) for p in players}
    headers = ["number", "name_ru", "name_latin"]
    widths = [
        6,
        name_width([p.name_ru for p in players]),
        name_width([p.name_latin for p in players]),
    ]
    if data.multi_section:
        headers.append("section")
        widths.append(name_width([data.info.section_name(s) for s in data.sections], 12, 30))
    headers += ["category", "club", "rating", "status"]
    widths += [
        name_width(list(categories.values()), 12, 24),
        name_width([p.club for p in players], 12, 30),
        9,
        12,
    ]
    setup_sheet(ws, widths, freeze_cols=2, date_columns=len(data.info.days))
    write_title(out, data, label("players", lang))
    out.append([(label(h, lang), "header") for h in headers])
    for p in players:
        cells: list[tuple[object, str | None]] = [
            (start_number(p), None),
            (p.name_ru, None),
            (p.name_latin, None),
        ]
        if data.multi_section:
            cells.append((data.info.section_name(p.section), None))
        cells += [
            (categories[p.id], None),
            (p.club, None),
            (number(p.rating), None),
            _status(p, lang),
        ]
        out.append(cells)
        progress.advance()


def _status(player, lang: str) -> tuple[object, str | None]:
    """ "disqualified" / "removed" for a sanctioned player (not merely "withdrawn", which a
    disqualification also sets), "withdrawn" for one who left, else blank."""
    if player.removal:
        return label(player.removal, lang), "pending"
    if player.withdrawn:
        return label("withdrawn", lang), "pending"
    return "", None
