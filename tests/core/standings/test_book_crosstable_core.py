"""The book's "Результаты матчей" (Part 9) reproduced by the core."""

from __future__ import annotations

from tournaments.standings import (
    CrosstableLayout,
    StandingsOptions,
    System,
    build_crosstable,
    compute_standings,
)
from tournaments.standings.book_example import book_example, parse_book_grid

BOOK_TOTALS = (21, 22, 27, 26, 22, 19)
BOOK_ORDER = ["Сидоров", "Белов", "Петров", "Серов", "Иванов", "Чернов"]


def test_book_standings_order_and_petrov_over_serov_on_head_to_head():
    players, matches = book_example()
    standings = compute_standings(players, matches, StandingsOptions(system=System.ROUND_ROBIN))
    assert [r.player.name_ru for r in standings.rows] == BOOK_ORDER
    assert [r.place_label for r in standings.rows] == ["1", "2", "3", "4", "5", "6"]
    petrov, serov = standings.rows[2], standings.rows[3]
    assert petrov.values["points"] == serov.values["points"] == 22
    assert (petrov.values["h2h"], serov.values["h2h"]) == (1, 0)
    # Those not tied were never judged on head-to-head.
    assert standings.rows[0].values["h2h"] is None


def test_without_head_to_head_petrov_and_serov_share_third_place():
    players, matches = book_example()
    standings = compute_standings(players, matches, StandingsOptions(tiebreaks=("points",)))
    assert [r.place_label for r in standings.rows[2:4]] == ["3–4", "3–4"]


def test_book_layout_cells_totals_and_places_match_the_printed_table():
    players, matches = book_example()
    table = build_crosstable(players, matches)
    printed = parse_book_grid()
    got = [[table.text(r, c) for c in range(6)] for r in range(6)]
    assert got == printed
    assert table.totals == BOOK_TOTALS
    assert table.places == ("5", "3", "1", "2", "4", "6")


def test_book_reading_of_one_cell_ivanov_row_serov_column():
    # "в клетке пересечения её [строки №1] с вертикальным столбцом игрока Серова (№5)
    # увидим счёт их матча – 5:2. Матч выиграл Серов (№5), набрав 5 очков."
    players, matches = book_example()
    table = build_crosstable(players, matches)
    assert table.text(0, 4) == "5:2"
    assert table.cells[0][4].outcome == "win"  # read for the column player, Serov
    (match,) = [m for m in matches if {m.player_a, m.player_b} == {1, 5}]
    assert match.winner == 5


def test_row_layout_is_the_transpose_with_totals_per_row():
    players, matches = book_example()
    book = build_crosstable(players, matches)
    rows = build_crosstable(players, matches, layout=CrosstableLayout.ROW)
    for r in range(6):
        for c in range(6):
            assert rows.text(r, c) == book.text(c, r)
    assert rows.totals == BOOK_TOTALS
    assert rows.text(0, 4) == "2:5"  # Ivanov's own points first along his row


def test_place_order_lists_the_champion_first():
    players, matches = book_example()
    table = build_crosstable(players, matches, order="place")
    assert [p.name_ru for p in table.players] == BOOK_ORDER
    assert table.totals == (27, 26, 22, 22, 21, 19)
