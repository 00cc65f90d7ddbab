"""Our legal plays against GNU Backgammon's move generator (gnubg_nn), an independent oracle."""

from __future__ import annotations

import pytest

from scoring.rules import START_POSITION_ID, Position, legal_plays, legal_positions, position_id
from scoring.rules.board.generate.general import _gen_general
from scoring.rules.board.generate.short import _gen_short
from scoring.rules.variants import VARIANTS

gnubg_nn = pytest.importorskip("gnubg_nn")


def gnubg_positions(pid: str, dice: tuple[int, int]) -> set[str]:
    board = gnubg_nn.board_from_position_id(pid)
    keys = gnubg_nn.moves(board, dice[0], dice[1])
    return {
        gnubg_nn.position_id([list(side) for side in gnubg_nn.board_from_position_key(k)])
        for k in keys
    }


def test_opening_rolls_match_gnubg():
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            assert legal_positions(START_POSITION_ID, (d1, d2)) == gnubg_positions(
                START_POSITION_ID, (d1, d2)
            )


def test_thousands_of_random_game_positions_match_gnubg(backgammon_positions):
    assert len(backgammon_positions) > 3000
    mismatches = []
    for pos, dice in backgammon_positions:
        pid = position_id(pos)
        if legal_positions(pid, dice) != gnubg_positions(pid, dice):
            mismatches.append((pid, dice))
    assert mismatches == []


def test_dance_gives_no_positions_like_gnubg():
    # White has a checker on the bar and Black holds every point of its home board.
    white = [0] * 26
    white[25] = 1
    white[13] = 14
    black = [0] * 26
    for i in range(1, 7):  # Black's home = where White enters
        black[i] = 2
    black[0] = 3
    pos = Position(tuple(white), tuple(black), 0, "backgammon")
    pid = position_id(pos)
    assert legal_positions(pid, (6, 5)) == set() == gnubg_positions(pid, (6, 5))
    plays = legal_plays(pos, (6, 5))
    assert len(plays) == 1 and plays[0].is_pass and plays[0].position.turn == 1


def test_fast_generator_equals_general_search(backgammon_positions):
    """The specialised backgammon generator and the all-variants search agree."""
    v = VARIANTS["backgammon"]
    for pos, dice in backgammon_positions[::12]:
        fast = {r[1] for r in _gen_short(pos.mover, pos.opponent, *dice)}
        slow = {r[1] for r in _gen_general(v, pos.mover, pos.opponent, *dice)}
        assert fast == slow, (position_id(pos), dice)
