"""The "Team match" sheet of a Scheveningen event: the main result (book Part 9: «наряду с
основным командным матчем удаётся провести и личное первенство»).

For each team match: the score by match wins and by points in total and per round, then
the board-by-board grid — team A's players down, team B's across — with each player's
match wins. Scored by the standings core (:mod:`tournaments.standings.team_match`); the
sheet comes after the four sheets every event has, so scripts that find them by position
keep working, and the workbook opens on it.
"""

from __future__ import annotations

from fractions import Fraction

from openpyxl import Workbook

from tournaments.standings import team_match as core
from tournaments.standings.crosstable import format_value, marked

from .context import ExportData
from .labels import label, sheet_name
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .styles import RowWriter

_RESULT = {core.WIN: 1.0, core.DRAW: 0.5, core.LOSS: 0.0, core.DOUBLE_FORFEIT: 0.0}
_STYLE = {core.WIN: "win", core.LOSS: "loss", core.DOUBLE_FORFEIT: "loss"}


def _n(value: Fraction) -> int | float:
    """Whole numbers as ints so Excel shows 3, not 3.0; halves stay numbers."""
    return int(value) if value.denominator == 1 else float(value)


def _text(value: Fraction) -> str:
    return format_value(float(value))


def count(data: ExportData) -> int:
    return sum(len(tm.team_a.players) + len(tm.rounds) for tm in data.options.team_matches)


def _cell(cell: core.BoardCell | None) -> tuple[object, str | None]:
    if cell is None:
        return ("", "number")
    if cell.outcome == core.PENDING:
        return (f"– ({cell.round})", "number")
    if cell.outcome == core.VOID:
        return (f"× ({cell.round})", "number")
    score = marked(cell.kind, _RESULT[cell.outcome], f"{_text(cell.score_a)}:{_text(cell.score_b)}")
    return (f"{score} ({cell.round})", _STYLE.get(cell.outcome, "number"))


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    matches = data.options.team_matches
    if not matches:
        return
    lang = data.language
    names = {p.id: p.name(lang) for p in data.players}
    widest = max(len(tm.team_b.players) for tm in matches)
    ws = wb.create_sheet(sheet_name("team_match", lang))
    out = RowWriter(ws)
    setup_sheet(ws, [8, name_width(list(names.values())), *[14] * (widest + 1)], freeze=False, landscape=True)
    write_title(out, data, label("team_match", lang))
    for tm in matches:
        a, b, total = tm.team_a.name, tm.team_b.name, tm.total
        out.blank()
        out.append([(f"{a} — {b}", "title")])
        out.append([("", None), (label("team", lang), "header"), (label("match_wins", lang), "header"),
                    (label("points", lang), "header")])  # fmt: skip
        out.append([("", None), (a, "name_top"), (_n(total.match_points_a), "total"), (_n(total.points_a), "total")])
        out.append([("", None), (b, "name_top"), (_n(total.match_points_b), "total"), (_n(total.points_b), "total")])
        if tm.final:
            verdict = (
                f"{label('team_won', lang)} «{a if tm.winner == 'a' else b}»" if tm.winner else label("team_drawn", lang)
            )
        else:
            verdict = f"{label('team_pending', lang)}: {total.pending}"
        out.append([("", None), (verdict, None)])
        out.blank()
        out.append([(label("team_by_rounds", lang), "title")])
        out.append([(label("round", lang), "header"), (f"{a}: {label('match_wins', lang)}", "header"),
                    (f"{b}: {label('match_wins', lang)}", "header"), (f"{a}: {label('points', lang)}", "header"),
                    (f"{b}: {label('points', lang)}", "header")])  # fmt: skip
        for number, tally in tm.rounds:
            out.append([(number, "number"), (_n(tally.match_points_a), "number"), (_n(tally.match_points_b), "number"),
                        (_n(tally.points_a), "number"), (_n(tally.points_b), "number")])  # fmt: skip
            progress.advance()
        out.blank()
        out.append([(label("team_boards", lang).format(a=a, b=b), "title")])
        header = [(label("board", lang), "header"), (a, "header")]
        header += [(f"{j + 1}. {names.get(pid, '')}", "header") for j, pid in enumerate(tm.team_b.players)]
        header.append((label("match_wins", lang), "header"))
        out.append(header)
        rows_points, cols_points = tm.board_points()
        for i, pid in enumerate(tm.team_a.players):
            row: list[tuple[object, str | None]] = [(i + 1, "number"), (names.get(pid, ""), "name_top")]
            row += [_cell(c) for c in tm.grid[i]]
            row.append((_n(rows_points[i]), "total"))
            out.append(row)
            progress.advance()
        footer: list[tuple[object, str | None]] = [("", None), (f"{b}: {label('match_wins', lang)}", "header")]
        footer += [(_n(p), "total") for p in cols_points]
        out.append(footer)
    out.blank()
    out.append([(label("team_rule", lang), None)])
    out.append([(label("legend", lang), None)])
