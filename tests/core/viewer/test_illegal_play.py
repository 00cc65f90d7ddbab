"""An illegal play stops there: reported once at its move and side, never an impossible board."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.board.position import Position
from scoring.rules.records.matfile import validate_mat_text
from scoring.viewer.frames import view_text

DATA = Path(__file__).resolve().parents[2] / "data" / "records"
MAT3 = (DATA / "gnubg_match3_seed7.mat").read_text()
ROW3 = "  3) 53: 8/3 6/3                 62: 13/7 7/5"


def possible(position: Position) -> bool:
    """A board that can exist: 15 checkers a side, no negative count, no point held by both."""
    w, b = position.white, position.black
    if min(w) < 0 or min(b) < 0 or sum(w) != 15 or sum(b) != 15:
        return False
    return not any(w[i] and b[25 - i] for i in range(1, 25))


@pytest.mark.parametrize("printed", ["13/7 7/1", "13/7 7/3", "13/5 7/5", "13/7 7/5*", "13/7 5/1"])
def test_an_illegal_play_is_reported_once_at_its_move_and_quoted_as_printed(printed):
    assert ROW3 in MAT3
    text = MAT3.replace(ROW3, ROW3.replace("13/7 7/5", printed), 1)
    errors = validate_mat_text(text).errors
    assert len(errors) == 1, [e.en for e in errors]
    (error,) = errors
    assert (error.game, error.move, error.side) == (1, 3, "black")
    # Quoted in the file's own numbering (Black's "7/…"), the through numbering beside it.
    step = printed.split()[1].rstrip("*")
    assert step.split("/")[0] + "/" in error.en and "(through numbering: printed 12/" in error.en
    assert "сквозной нумерации" in error.ru
    view = view_text(text)
    assert all(possible(f.position) for f in view.frames)
    assert [view.problems[i].move for i in view.frames[view.problem_frames[0]].problems] == [3]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_a_wrong_play_never_draws_an_impossible_board(seed):
    """Any play rewritten to random points: every frame shown is a board that can exist."""
    rng = random.Random(seed)
    lines = MAT3.splitlines()
    rows = [i for i, line in enumerate(lines) if re.match(r"\s*\d+\) .*\d\d: \d", line)]
    i = rng.choice(rows)

    def garble(match: re.Match) -> str:
        return f"{rng.randint(1, 25)}/{rng.randint(0, 24)}{'*' if rng.random() < 0.2 else ''}"

    lines[i] = re.sub(r"\d{1,2}/\d{1,2}\*?", garble, lines[i])
    view = view_text("\n".join(lines))
    assert all(possible(f.position) for f in view.frames)
    for index in view.problem_frames:
        assert index is None or 0 <= index < len(view.frames)


def test_a_game_of_garbage_is_given_up_once_and_costs_little():
    """Every play rewritten: each game reports its first illegal plays, then stops, saying so once."""
    from scoring.rules.records.replay import MAX_ILLEGAL

    rng = random.Random(7)
    garbled = re.sub(r"\d{1,2}/\d{1,2}\*?", lambda m: f"{rng.randint(1, 24)}/{rng.randint(0, 23)}", MAT3)
    view = view_text(garbled)
    assert all(possible(f.position) for f in view.frames)
    assert any(p.code == "record.gave_up" for p in view.problems)
    for game in view.games:
        codes = [p.code for p in view.problems if p.game == game.number]
        assert codes.count("record.gave_up") <= 1
        if "record.gave_up" in codes:
            given_up = next(p for p in view.problems if p.game == game.number and p.code == "record.gave_up")
            assert "not checked further" in given_up.en and "не проверяется" in given_up.ru
            later = [p for p in view.problems if p.game == game.number and (p.move or 0) > (given_up.move or 0)
                     and p.code not in ("record.result_mismatch",)]
            assert later == []
            assert len([c for c in codes if c != "record.result_mismatch"]) <= MAX_ILLEGAL + 1


def test_the_nearest_play_is_named_in_the_printed_numbering_with_its_hits():
    """Issue 46: a problem about an illegal Black move named the nearest legal play in one
    numbering and the printed move in another, and dropped the ``*`` of a hit."""
    mat = (DATA / "gnubg_match5_pass_rows.mat").read_text()
    row = " 11) 51: 2/1 21/16               42: 8/4* 4/2 "
    assert row in mat
    (error,) = validate_mat_text(mat.replace(row, row.replace("8/4* 4/2", "8/5 4/2"), 1)).errors
    assert "nearest legal play: 8/4* 4/2." in error.en  # Black's own numbering, as printed, the hit kept
    assert "(through numbering: printed 17/20 21/23; nearest legal 17/21* 21/23)" in error.en
    assert "записано 17/20 21/23; ближайший ход по правилам 17/21* 21/23" in error.ru
