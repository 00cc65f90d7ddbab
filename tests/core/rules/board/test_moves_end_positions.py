"""The fast path: legal end positions without Play objects, for every variant."""

from __future__ import annotations

import pytest

from scoring.rules import Position, legal_end_positions, legal_plays
from scoring.rules.variants import VARIANTS


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_end_positions_are_the_positions_of_the_legal_plays(variant, game_positions):
    for pos, dice in game_positions(6, 11, variant)[::3]:
        plays = legal_plays(pos, dice)
        ends = legal_end_positions(pos, dice)
        if plays[0].is_pass:
            assert ends == []  # a dance: nothing reachable, like GNU Backgammon
        else:
            assert ends == [p.position for p in plays]
            assert all(after.turn == 1 - pos.turn for after in ends)


def test_no_end_positions_when_the_game_is_over_and_bad_dice_are_refused():
    white = (15,) + (0,) * 25
    black = (0, 0, 0, 0, 0, 0, 15) + (0,) * 19
    over = Position(white, black, 1, "backgammon")
    assert legal_end_positions(over, (3, 1)) == [] == legal_plays(over, (3, 1))
    with pytest.raises(ValueError, match="dice"):
        legal_end_positions(Position.start(), (0, 7))
