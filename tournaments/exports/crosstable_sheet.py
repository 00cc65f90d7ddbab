"""The "Crosstable" sheet: the book's N×N grid, or the Swiss table by rounds.

One block per section, one under the other. The grid keeps the book's reading
(the left number of a cell is the *column* player's points) unless the
organiser chose the row-first layout; every score cell is coloured by the
result of the player it is read for.
"""

from __future__ import annotations

from openpyxl import Workbook

from tournaments.standings import (
    CrosstableLayout,
    System,
    build_crosstable,
    build_round_crosstable,
)

from .context import ExportData, start_number
from .labels import label, sheet_name
from .meta import CrosstableKind
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .standings_sheet import number, place_cells
from .styles import RowWriter

Row = list[tuple[object, str | None]]

NO_RESULT_YET = frozenset({"none", "pending"})
"""Round cells without a result for this player (a round not played yet, a match still on,
no pairing): their running total (Σ) stays empty rather than repeating the last one. A void
match is a result (the round is over, counted for nobody), so its Σ is shown."""


def grid_sections(data: ExportData) -> dict[str, bool]:
    """For each section: True for the N×N grid, False for the table by rounds (chosen, or by
    the system: a round robin's and a Scheveningen event's grid, a Swiss's or cup's rounds)."""
    kind = data.options.crosstable
    out: dict[str, bool] = {}
    for section in data.sections:
        size = len(data.standings[section].rows)
        if kind == CrosstableKind.GRID:
            out[section] = True
        elif kind == CrosstableKind.ROUNDS:
            out[section] = False
        else:
            # Everyone meets everyone (of the other team, in a Scheveningen match): the grid,
            # as on the crosstable page — team A by board, then team B (:func:`_write_grid`).
            all_play = data.standings[section].options.system in (System.ROUND_ROBIN, System.SCHEVENINGEN)
            out[section] = all_play and size <= data.options.grid_limit
    return out


def count(data: ExportData) -> int:
    return sum(len(data.standings[s].rows) + 3 for s in data.sections)


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    lang = data.language
    ws = wb.create_sheet(sheet_name("crosstable", lang))
    out = RowWriter(ws)
    grids = grid_sections(data)
    widest = max((len(data.standings[s].rows) for s in data.sections), default=0)
    rounds = max((m.round for m in data.matches), default=0)
    names = [p.name(lang) for p in data.players]
    if any(grids.values()):
        widths = [6.0, name_width(names)] + [7.0] * (widest + 3)
        freeze_cols = 2
    else:
        widths = [8.0, 10.0, 6.0, name_width(names)] + [11.0, 5.0] * rounds + [8.0]
        freeze_cols = 4
    setup_sheet(
        ws,
        widths,
        freeze_cols=freeze_cols,
        freeze=not data.multi_section,
        landscape=True,
        date_columns=len(data.info.days),
    )
    heading = label("crosstable" if any(grids.values()) else "crosstable_rounds", lang)
    write_title(out, data, heading)
    for i, section in enumerate(data.sections):
        if data.multi_section:
            if i:
                out.blank()
            out.append([(data.info.section_name(section), "title")])
        if grids[section]:
            _write_grid(out, data, section, progress)
        else:
            _write_rounds(out, data, section, progress)
    if any(m.kind != "played" for m in data.matches):
        out.blank()
        out.append([(label("legend", lang), None)])


def _write_grid(out: RowWriter, data: ExportData, section: str, progress: Progress) -> None:
    lang = data.language
    layout = CrosstableLayout(data.options.crosstable_layout)
    table = build_crosstable(
        data.players,
        data.matches,
        layout=layout,
        order=data.options.crosstable_order,
        standings=data.standings[section],
        lineup=[pid for tm in data.options.team_matches for t in (tm.team_a, tm.team_b) for pid in t.players],
    )
    numbers = [start_number(p) for p in table.players]
    standings = data.standings[section]
    rows = [standings.row(p.id) for p in table.players]
    header: Row = [(label("number", lang), "header"), (label("player", lang), "header")]
    header += [(n, "header") for n in numbers]
    if layout == CrosstableLayout.ROW:
        header += [
            (label("total", lang).rstrip(":"), "header"),
            (label("place", lang), "header"),
            (label("place_shared", lang), "header"),
        ]
    out.append(header)
    for r, player in enumerate(table.players):
        cells: Row = [(numbers[r], "number"), (player.name(lang), "name")]
        for c, cell in enumerate(table.cells[r]):
            if r == c:
                cells.append((None, "diagonal"))
            elif cell is None:
                cells.append(("", "none"))
            else:
                cells.append((cell.text, cell.outcome))
        if layout == CrosstableLayout.ROW:
            cells += [(_total(table, r), "total"), *place_cells(rows[r], "total")]
        out.append(cells)
        progress.advance()
    if layout == CrosstableLayout.BOOK:
        out.append(
            [(label("total", lang), "total"), ("", "total")]
            + [(_total(table, i), "total") for i in range(len(table.players))]
        )
        out.append(
            [(label("place", lang), "total"), ("", "total")]
            + [place_cells(row)[0][:1] + ("total",) for row in rows]
        )
        if any(row.shared for row in rows):  # the ranges, under the places they explain
            out.append(
                [(label("place_shared", lang), None), ("", None)]
                + [(row.place_label if row.shared else "", None) for row in rows]
            )
    if table.not_counted:
        names = ", ".join(p.name(lang) for p in table.not_counted)
        out.append([(f"{label('not_counted', lang)}: {names}", None)])
    progress.advance(3)


def _total(table, i: int) -> object:
    """A grid total as a number with the rulings' marks ("21*"), or "—" for a player whose
    results the standings do not count (FIDE C.06 5.4.1) — as the crosstable page shows it."""
    if not table.counted(i):
        return "—"
    marks = "".join(dict.fromkeys(a.mark for a in table.adjustments[i] if a.metric == "points"))
    value = number(table.totals[i])
    return f"{value}{marks}" if marks else value


def _write_rounds(out: RowWriter, data: ExportData, section: str, progress: Progress) -> None:
    lang = data.language
    standings = data.standings[section]
    table = build_round_crosstable(data.players, data.matches, standings=standings)
    numbers = {p.id: start_number(p) for p in data.players}
    header: Row = [
        (label("place", lang), "header"),
        (label("place_shared", lang), "header"),
        (label("number", lang), "header"),
        (label("player", lang), "header"),
    ]
    for rnd in range(1, table.rounds + 1):
        header += [(f"{label('round', lang)} {rnd}", "header"), ("Σ", "header")]
    header.append((label("total", lang).rstrip(":"), "header"))
    out.append(header)
    for row in table.rows:
        cells: Row = [
            *place_cells(standings.row(row.player.id)),
            (numbers[row.player.id], None),
            (row.player.name(lang), None),
        ]
        for cell in row.cells:
            opponent = numbers.get(cell.opponent, "") if cell.opponent is not None else ""
            cells.append((cell.text(lang, opponent_number=opponent), cell.outcome))
            cells.append(("" if cell.outcome in NO_RESULT_YET else number(cell.running), None))
        # With the rulings' adjustments (a penalty), marked as on the page and the standings sheet.
        cells.append((f"{number(row.total)}{row.mark}" if row.mark else number(row.total), "total"))
        out.append(cells)
        progress.advance()
    progress.advance(3)
