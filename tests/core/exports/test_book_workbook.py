"""The book's crosstable survives the trip to Excel: written, then read back with openpyxl."""

from __future__ import annotations

import io
from datetime import date

import pytest
from openpyxl import load_workbook

from tournaments.exports import ExportOptions, TournamentInfo, write_workbook
from tournaments.exports.styles import LOSS_FILL, WIN_FILL
from tournaments.standings import CrosstableLayout, StandingsOptions, System
from tournaments.standings.book_example import book_example, parse_book_grid

INFO = TournamentInfo("Пример из книги", "Book example", slug="book-crosstable", starts_on=date(2011, 5, 1))
RR = StandingsOptions(system=System.ROUND_ROBIN)


def export(language: str = "ru", **options):
    players, matches = book_example()
    buffer = io.BytesIO()
    write_workbook(buffer, INFO, players, matches, ExportOptions(language, RR, **options))
    buffer.seek(0)
    return load_workbook(buffer)


def rows(ws) -> list[tuple]:
    return list(ws.iter_rows(values_only=True))


def find_row(ws, first: str) -> int:
    for i, row in enumerate(ws.iter_rows(values_only=True), start=1):
        if row and row[0] == first:
            return i
    raise AssertionError(f"no row starting with {first!r}")


def test_book_crosstable_read_back_from_the_workbook(tmp_path):
    players, matches = book_example()
    path = tmp_path / "book.xlsx"
    write_workbook(path, INFO, players, matches, ExportOptions("ru", RR))
    ws = load_workbook(path)["Турнирная таблица"]
    header = find_row(ws, "№")
    assert [c.value for c in ws[header]][:8] == ["№", "Игрок", 1, 2, 3, 4, 5, 6]
    grid = [
        ["" if v is None else v for v in row[2:8]]
        for row in ws.iter_rows(min_row=header + 1, max_row=header + 6, values_only=True)
    ]
    assert grid == parse_book_grid()
    names = [ws.cell(header + 1 + i, 2).value for i in range(6)]
    assert names == ["Иванов", "Петров", "Сидоров", "Белов", "Серов", "Чернов"]
    totals = [c.value for c in ws[header + 7]][:8]
    assert totals[0] == "Итого:" and totals[2:] == [21, 22, 27, 26, 22, 19]
    places = [c.value for c in ws[header + 8]][:8]
    assert places[0] == "Место" and places[2:] == [5, 3, 1, 2, 4, 6]


def test_book_standings_sheet_order_points_and_head_to_head():
    ws = export()["Турнирное положение"]
    header = find_row(ws, "Место")
    assert rows(ws)[header - 1][:6] == ("Место", "Делят места", "№", "Игрок", "Очки", "Личная встреча")
    body = rows(ws)[header : header + 6]
    assert [r[3] for r in body] == ["Сидоров", "Белов", "Петров", "Серов", "Иванов", "Чернов"]
    assert [r[0] for r in body] == [1, 2, 3, 4, 5, 6]
    assert [r[4] for r in body] == [27, 26, 22, 22, 21, 19]
    assert (body[2][5], body[3][5]) == (1, 0)  # Петров won the match against Серов


def test_english_headings_and_latin_names():
    wb = export("en")
    st = wb["Standings"]
    header = find_row(st, "Place")
    assert rows(st)[header - 1][:6] == (
        "Place", "Shared places", "No.", "Player", "Points scored", "Head-to-head"
    )
    assert rows(st)[header][3] == "Sidorov"
    ct = wb["Crosstable"]
    assert ct.cell(1, 1).value == "Book example — Crosstable"
    assert ct.cell(find_row(ct, "Total:"), 3).value == 21
    assert find_row(wb["Players"], "No.") == 3
    assert rows(wb["Pairings"])[2][:4] == ("Round", "Table", "No.", "Player 1")


def test_russian_titles():
    wb = export("ru")
    assert wb["Турнирная таблица"].cell(1, 1).value == "Пример из книги — Результаты матчей"
    assert rows(wb["Участники"])[2] == (
        "№",
        "Имя (рус.)",
        "Имя (лат.)",
        "Категория",
        "Клуб",
        "Рейтинг",
        "Статус",
    )


def test_wins_and_losses_are_coloured_for_the_player_the_cell_is_read_for():
    ws = export()["Турнирная таблица"]
    header = find_row(ws, "№")
    serov_beat_ivanov = ws.cell(header + 1, 2 + 5)  # row Иванов, column Серов: "5:2"
    assert serov_beat_ivanov.value == "5:2"
    assert serov_beat_ivanov.fill.fgColor.rgb.endswith(WIN_FILL.fgColor.rgb[-6:])
    petrov_lost_to_ivanov = ws.cell(header + 1, 2 + 2)  # column Петров: "4:5"
    assert petrov_lost_to_ivanov.value == "4:5"
    assert petrov_lost_to_ivanov.fill.fgColor.rgb.endswith(LOSS_FILL.fgColor.rgb[-6:])


def test_row_first_layout_puts_totals_and_places_at_the_end_of_rows():
    ws = export(crosstable_layout=CrosstableLayout.ROW)["Турнирная таблица"]
    header = find_row(ws, "№")
    assert [c.value for c in ws[header]][8:11] == ["Итого", "Место", "Делят места"]
    ivanov = [c.value for c in ws[header + 1]]
    assert ivanov[6] == "2:5" and ivanov[8:11] == [21, 5, None]


def test_sheets_are_set_up_for_screen_and_print():
    wb = export()
    assert wb.sheetnames == ["Турнирное положение", "Турнирная таблица", "Пары", "Участники"]
    for ws in wb.worksheets:
        assert ws.freeze_panes is not None and ws.freeze_panes.endswith("4")
        assert ws.print_title_rows == "$3:$3"
        assert ws.sheet_properties.pageSetUpPr.fitToPage
        assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
        assert ws.column_dimensions["B"].width >= 6
    assert wb["Турнирная таблица"].page_setup.orientation == "landscape"
    assert wb["Турнирное положение"].page_setup.orientation == "portrait"


def test_progress_reports_up_to_completion():
    players, matches = book_example()
    calls: list[tuple[int, int]] = []
    write_workbook(io.BytesIO(), INFO, players, matches, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1][0] == calls[-1][1] > 0
    done = [d for d, _ in calls]
    assert done == sorted(done)
    assert len({t for _, t in calls}) == 1


def test_bad_tiebreak_is_refused_before_anything_is_written():
    from scoring.rules.errors import RuleViolation

    players, matches = book_example()
    buffer = io.BytesIO()
    opts = ExportOptions(standings=StandingsOptions(tiebreaks=("points", "buchholtz")))
    with pytest.raises(RuleViolation):
        write_workbook(buffer, INFO, players, matches, opts)
    assert buffer.tell() == 0
