"""GNU Backgammon Position IDs and Match IDs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    BLACK,
    START_POSITION_ID,
    WHITE,
    MatchKey,
    Position,
    decode_match_id,
    encode_match_id,
    position_from_id,
    position_id,
)

gnubg_nn = pytest.importorskip("gnubg_nn")


def test_start_position_id():
    assert position_id(Position.start()) == START_POSITION_ID == "4HPwATDgc/ABMA"
    assert position_from_id(START_POSITION_ID) == Position.start()
    assert position_from_id(START_POSITION_ID, BLACK) == Position.start(turn=BLACK)


def test_ids_agree_with_gnubg_both_ways(backgammon_positions):
    for pos, _ in backgammon_positions[::7]:
        pid = position_id(pos)
        mover, opp = pos.mover, pos.opponent
        board = [[opp[i] for i in range(1, 26)], [mover[i] for i in range(1, 26)]]
        assert gnubg_nn.position_id(board) == pid
        assert gnubg_nn.board_from_position_id(pid) == board
        assert position_from_id(pid, pos.turn) == pos


def test_position_id_is_from_the_side_on_roll():
    pos = Position.from_labels({"1": 15}, {"12": 15}, turn=WHITE)
    assert position_id(pos) != position_id(pos.passed())
    assert position_from_id(position_id(pos.passed()), BLACK) == pos.passed()


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "!!!!!!!!!!!!!!", "//////////////"])
def test_malformed_position_ids_are_rejected(bad):
    with pytest.raises(ValueError):
        position_from_id(bad)


def test_match_id_manual_example():
    # gnubg manual §11.7: 9-point match, 2-4, 2-cube owned by player 0, player 1 rolled 5-2.
    key = MatchKey(
        cube=2, cube_owner=0, dice_owner=1, turn=1, dice=(5, 2), match_length=9, score=(2, 4)
    )
    assert encode_match_id(key) == "QYkqASAAIAAA"
    assert decode_match_id("QYkqASAAIAAA") == key


@settings(max_examples=200, deadline=None)
@given(
    cube=st.sampled_from([1, 2, 4, 8, 16, 32, 64]),
    owner=st.sampled_from([0, 1, 3]),
    dice_owner=st.integers(0, 1),
    crawford=st.booleans(),
    state=st.integers(0, 4),
    turn=st.integers(0, 1),
    dbl=st.booleans(),
    resign=st.integers(0, 3),
    dice=st.tuples(st.integers(0, 6), st.integers(0, 6)),
    length=st.integers(0, 25),
    score=st.tuples(st.integers(0, 30), st.integers(0, 30)),
)
def test_match_id_round_trip(
    cube, owner, dice_owner, crawford, state, turn, dbl, resign, dice, length, score
):
    key = MatchKey(cube, owner, dice_owner, crawford, state, turn, dbl, resign, dice, length, score)
    mid = encode_match_id(key)
    assert len(mid) == 12
    assert decode_match_id(mid) == key


def test_match_id_rejects_bad_cube_and_text():
    with pytest.raises(ValueError):
        encode_match_id(MatchKey(cube=3))
    with pytest.raises(ValueError):
        decode_match_id("QYkqASAAIAA")
