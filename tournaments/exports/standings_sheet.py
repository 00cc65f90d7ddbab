"""The "Standings" sheet: one table for all sections, places counted within each section."""

from __future__ import annotations

from openpyxl import Workbook

from tournaments.standings import StandingRow, table_stages

from .context import ExportData, start_number
from .labels import label, sheet_name
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .styles import RowWriter


def count(data: ExportData) -> int:
    return len(data.players)


def number(value: float | None) -> float | int | str:
    """Whole numbers as ints so Excel shows 22, not 22.0; halves stay numbers."""
    if value is None:
        return ""
    return int(value) if value == int(value) else value


def place_cells(row: StandingRow, style: str | None = None) -> list[tuple[object, str | None]]:
    """The place as a number (a shared place: its first number), then the range ("3–4") as text
    in the next column when the place is shared — numbers sort and sum, the range says why.
    A row without a place (disqualified, or results not counted) shows "—" and no range."""
    if not row.placed:
        return [("—", style), ("", None)]
    return [(row.place, style), (row.place_label if row.shared else "", None)]


def value_cell(row, key: str, stages: dict[int, str]) -> float | int | str:
    """The metric's value; one a ruling changed gets the adjustment's mark ("7*", see the legend).
    A cup's stage is written in words (``stages``, :func:`tournaments.standings.table_stages`)."""
    if key == "stage" and row.player.id in stages:
        return stages[row.player.id]
    value = number(row.values.get(key))
    if key in row.adjusted:
        marks = "".join(dict.fromkeys(a.mark for a in row.adjustments if a.metric == key))
        return f"{value}{marks}"
    return value


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    lang = data.language
    ws = wb.create_sheet(sheet_name("standings", lang))
    out = RowWriter(ws)
    metrics = next(iter(data.standings.values())).metrics if data.standings else []
    has_club = any(p.club for p in data.players)
    headers = [label("place", lang), label("place_shared", lang)]
    widths: list[float] = [8, 10]
    if data.multi_section:
        headers.append(label("section", lang))
        widths.append(name_width([data.info.section_name(s) for s in data.sections], 12, 30))
    headers += [label("number", lang), label("player", lang)]
    widths += [6, name_width([p.name(lang) for p in data.players])]
    if has_club:
        headers.append(label("club", lang))
        widths.append(name_width([p.club for p in data.players], 12, 30))
    headers += [m.name(lang) for m in metrics]
    widths += [13] * len(metrics)
    prizes = data.options.prizes
    if prizes:
        headers.append(label("prize", lang))
        widths.append(12)
    setup_sheet(ws, widths, freeze_cols=len(headers) - len(metrics), date_columns=len(data.info.days))
    write_title(out, data, label("standings", lang))
    out.append([(h, "header") for h in headers])
    for section in data.sections:
        stages = table_stages(data.standings[section], data.matches, lang)
        for row in data.standings[section].rows:
            p = row.player
            top = row.placed and row.place <= 3
            cells = place_cells(row, "total" if top else "number")
            if data.multi_section:
                cells.append((data.info.section_name(section), None))
            cells.append((start_number(p), None))
            cells.append((p.name(lang), "name_top" if top else None))
            if has_club:
                cells.append((p.club, None))
            cells += [(value_cell(row, m.key, stages), None) for m in metrics]
            if prizes:
                prize = prizes.get(p.id)
                cells.append((float(prize) if prize is not None else "", None))
            out.append(cells)
            progress.advance()
    if data.options.adjustments:
        out.blank()
        out.append([(label("adjustments", lang), "title")])
        names = {p.id: p.name(lang) for p in data.players}
        for adj in data.options.adjustments:
            amount = number(adj.amount)
            out.append([(adj.mark, None), (names.get(adj.player, ""), None), (amount, None), (adj.reason, None)])
    champion = data.champion
    if champion is not None and champion.finished:
        out.blank()
        section_names = data.info.sections
        several = len(champion.winners) > 1  # one section: its first place is the champion
        for key, winners in champion.winners if several else ():
            if winners:
                who = ", ".join(p.name(lang) for p in winners)
                out.append([(f"{label('section_winner', lang)} — {section_names.get(key) or key}: {who}", None)])
        if champion.champion is not None:
            title = label("champion" if several else "title", lang)
            text = f"{title}: {champion.champion.name(lang)}"
        else:
            names = ", ".join(p.name(lang) for p in champion.candidates)
            text = f"{label('playoff', lang)}: {names}"
        out.append([(text, "title")])
