"""The book's example crosstable (Part 9, table "Результаты матчей") as core data.

Six players, 5-point matches without the cube. The grid is kept exactly as
printed — in a player's *column* the left number is that player's points
against the row player — so the demo tournament, the tests and the export all
start from the book's own text rather than from a re-typed list of matches.
"""

from __future__ import annotations

from .types import Match, Player

BOOK_NAMES_RU = ("Иванов", "Петров", "Сидоров", "Белов", "Серов", "Чернов")
BOOK_NAMES_LATIN = ("Ivanov", "Petrov", "Sidorov", "Belov", "Serov", "Chernov")

BOOK_GRID = """\
№\t1\t2\t3\t4\t5\t6
1\t\t4:5\t7:4\t3:6\t5:2\t5:4
2\t5:4\t\t4:5\t6:4\t4:5\t5:4
3\t4:7\t5:4\t\t4:5\t4:6\t3:5
4\t6:3\t4:6\t5:4\t\t4:7\t2:6
5\t2:5\t5:4\t6:4\t7:4\t\t4:5
6\t4:5\t4:5\t5:3\t6:2\t5:4\t
Итого:\t21\t22\t27\t26\t22\t19"""


def parse_book_grid(text: str = BOOK_GRID) -> list[list[str]]:
    """The N×N cells of a grid printed in the book's layout (header and totals dropped)."""
    lines = [line.split("\t") for line in text.splitlines()]
    body = [cells for cells in lines[1:] if cells and cells[0].strip().isdigit()]
    return [[cell.strip() for cell in cells[1:]] for cells in body]


def book_example(first_id: int = 1) -> tuple[list[Player], list[Match]]:
    """Players 1–6 with draw numbers 1–6, and one finished match per pair.

    Only the upper triangle is read; the lower one is its mirror in the book.
    The book does not say in which round each match was played, so rounds follow
    the usual circle schedule (five rounds of three matches).
    """
    players = [
        Player(first_id + i, ru, lat, draw_number=i + 1)
        for i, (ru, lat) in enumerate(zip(BOOK_NAMES_RU, BOOK_NAMES_LATIN, strict=True))
    ]
    grid = parse_book_grid()
    matches: list[Match] = []
    for r, row in enumerate(grid):
        for c in range(r + 1, len(row)):
            col_points, row_points = (int(x) for x in row[c].split(":"))
            col_id, row_id = players[c].id, players[r].id
            winner = col_id if col_points > row_points else row_id
            rnd = _circle_round(r, c, len(grid))
            matches.append(Match(rnd, col_id, row_id, col_points, row_points, winner=winner))
    return players, matches


def _circle_round(i: int, j: int, n: int) -> int:
    """Round (1-based) of the pair (i, j) in the circle method for an even ``n``."""
    for rnd in range(n - 1):
        ring = [0, *[(k + rnd) % (n - 1) + 1 for k in range(n - 1)]]
        pairs = {frozenset((ring[k], ring[n - 1 - k])) for k in range(n // 2)}
        if frozenset((i, j)) in pairs:
            return rnd + 1
    raise ValueError(f"pair {i}, {j} not scheduled")
