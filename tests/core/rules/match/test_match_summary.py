"""Final-score-only entry ("5:3"): plausibility against the match length and options."""

from __future__ import annotations

import itertools

import pytest

from scoring.rules.match.check import validate_match
from scoring.rules.match.spec import MatchSpec
from scoring.rules.match.summary import game_values

# Part 9, table "Результаты матчей", exactly as printed: 6 players, 5-point matches,
# backgammon scoring without the cube. In a column, the left number is that column's
# player's points against the row's player.
BOOK_GRID = """
    4:5 7:4 3:6 5:2 5:4
5:4     4:5 6:4 4:5 5:4
4:7 5:4     4:5 4:6 3:5
6:3 4:6 5:4     4:7 2:6
2:5 5:4 6:4 7:4     4:5
4:5 4:5 5:3 6:2 5:4
"""
BOOK_TOTALS = [21, 22, 27, 26, 22, 19]


def book_cells() -> list[list[tuple[int, int] | None]]:
    rows = []
    for line in BOOK_GRID.strip("\n").splitlines():
        cells = [line[i : i + 4].strip() for i in range(0, 24, 4)]
        rows.append([tuple(map(int, c.split(":"))) if c else None for c in cells])
    return rows


def book_matches() -> list[tuple[int, int, tuple[int, int]]]:
    """(column player, row player, (column's points, row's points)) for the 15 pairs."""
    cells = book_cells()
    return [(c, r, cells[r][c]) for r, c in itertools.combinations(range(6), 2)]


def test_book_grid_is_read_as_printed():
    cells = book_cells()
    totals = [sum(cells[r][c][0] for r in range(6) if r != c) for c in range(6)]
    assert totals == BOOK_TOTALS
    for r, c in itertools.combinations(range(6), 2):  # each match appears twice, mirrored
        assert cells[r][c] == cells[c][r][::-1]
    assert len(book_matches()) == 15


@pytest.mark.parametrize(("col", "row", "score"), book_matches())
def test_book_crosstable_matches_validate_as_summaries(col, row, score):
    spec = MatchSpec(length=5, cube=False, scoring="backgammon")
    result = validate_match(spec, final=score)
    assert result.ok, result.problems
    assert result.winner == ("a" if score[0] >= 5 else "b")


@pytest.mark.parametrize(("final", "ok"), [((7, 4), True), ((6, 2), True), ((4, 7), True)])
def test_book_examples_of_scores_past_five(final, ok):
    # "счёт 7:4 показывает, что последняя партия закончилась коксом"
    assert validate_match(MatchSpec(length=5), final=final).ok is ok


@pytest.mark.parametrize(
    ("final", "code"),
    [
        ((9, 4), "match.final_jump_impossible"),  # would need 5 points from 4
        ((8, 0), "match.final_jump_impossible"),
        ((5, 5), "match.final_both_reached"),
        ((6, 7), "match.final_both_reached"),
        ((4, 3), "match.match_unfinished"),
        ((0, 0), "match.match_unfinished"),
        ((-1, 5), "match.bad_score"),
        ((5.5, 2), "match.bad_score"),
    ],
)
def test_impossible_five_point_scores_without_cube(final, code):
    result = validate_match(MatchSpec(length=5), final=final)
    assert result.codes == [code]
    assert result.winner is None or code in {"match.final_jump_impossible", "match.bad_score"}


def test_message_says_how_much_was_needed_and_what_one_game_is_worth():
    problem = validate_match(MatchSpec(length=5), final=(9, 4)).problems[0]
    assert "at least 5" in problem.en and "at most 3" in problem.en
    assert "не меньше 5" in problem.ru and "не больше 3" in problem.ru


def test_trictrac_koks_allows_a_big_jump_without_cube():
    # trictrac: oyun 1, mars 2, home mars 4, koks 8 — from 4 a koks gives 12.
    spec = MatchSpec(length=5, scoring="trictrac")
    assert validate_match(spec, final=(12, 0)).ok
    assert validate_match(spec, final=(13, 0)).codes == ["match.final_jump_impossible"]
    assert validate_match(MatchSpec(length=5, scoring="oyun_mars"), final=(7, 0)).codes == [
        "match.final_jump_impossible"
    ]


def test_crawford_game_limits_the_jump_from_match_point():
    cube = MatchSpec(length=5, cube=True)
    # 68 = 4 + 64: only from 4:0, where the last game must be the Crawford game (no cube).
    assert validate_match(cube, final=(68, 0)).codes == ["match.final_jump_impossible"]
    # Without the Crawford rule a 64-cube game is possible there.
    assert validate_match(MatchSpec(length=5, cube=True, crawford=False), final=(68, 0)).ok
    # If the opponent won the Crawford game (has a point), later games have the cube again.
    assert validate_match(cube, final=(68, 1)).ok
    # The trailer at match point: from 0:4 the last game is the Crawford game...
    assert validate_match(cube, final=(64, 4)).codes == ["match.final_jump_impossible"]
    # ...but with a point won in the Crawford game, 1 + 64 is possible.
    assert validate_match(cube, final=(65, 4)).ok


def test_davé_ladder_values():
    spec = MatchSpec(length=5, cube=True, dave=True, scoring="long_nardy")
    assert game_values(spec) == {k * c for k in (1, 2, 3) for c in range(1, 7)}
    assert validate_match(spec, final=(18, 0)).ok  # home mars 3 × "давэ ба щещ" 6
    assert validate_match(spec, final=(7 + 19, 0)).codes == ["match.final_jump_impossible"]


@pytest.mark.parametrize(
    ("spec", "final", "ok"),
    [
        (MatchSpec(fixed_games=4, scoring="long_nardy", draw=1), (4, 4), True),
        (MatchSpec(fixed_games=4, scoring="long_nardy", draw=1), (13, 0), False),
        (MatchSpec(fixed_games=4, scoring="long_nardy"), (12, 0), True),
        (MatchSpec(fixed_games=4, scoring="long_nardy"), (3, 0), False),  # 4 games ≥ 4 points
        (MatchSpec(fixed_games=1, scoring="trictrac"), (3, 0), False),  # 1, 2, 4 or 8 only
        (MatchSpec(fixed_games=2, scoring="trictrac"), (0, 0), False),  # no draws agreed
        (MatchSpec(fixed_games=2, scoring="trictrac"), (2, 1), True),
        (MatchSpec(fixed_games=3, draw=0.5), (1.5, 1.5), True),
        (MatchSpec(fixed_games=3, draw=0.5), (0.5, 0.5), False),
        (MatchSpec(fixed_games=3, draw=0.5), (2.25, 0), None),
    ],
)
def test_fixed_games_totals(spec, final, ok):
    result = validate_match(spec, final=final)
    if ok is None:
        assert result.codes == ["match.bad_score"]
    elif ok:
        assert result.ok, result.problems
    else:
        assert result.codes == ["match.final_total_impossible"]
