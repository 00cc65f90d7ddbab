"""The middle-game fast paths of legal_end_positions build positions without steps.

They must give exactly the positions of the legal plays, in the same order, for either
side on roll and every roll — including hits (the opponent's bar), chains over blots
and doubles that hit more than one blot.
"""

from __future__ import annotations

import pytest

from scoring.rules import Position, legal_end_positions, legal_plays
from scoring.rules.variants import get_variant

ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


@pytest.mark.parametrize("variant", ["backgammon", "nackgammon", "hypergammon", "short_nardy"])
def test_every_roll_from_middle_game_positions_matches_the_plays(variant, game_positions):
    checkers = get_variant(variant).checkers
    checked = {0: 0, 1: 0}
    for pos, _dice in game_positions(4, 29, variant)[::4]:
        if pos.mover[25] or sum(pos.mover[7:]) < 2:
            continue  # not a middle-game position: another path answers
        checked[pos.turn] += 1
        for dice in ROLLS:
            plays = legal_plays(pos, dice)
            ends = legal_end_positions(pos, dice)
            expected = [] if plays[0].is_pass else [p.position for p in plays]
            assert ends == expected, (pos, dice)
            assert all(checkers == sum(p.white) == sum(p.black) for p in ends)
    assert checked[0] and checked[1]  # both sides on roll were exercised


def test_a_double_hitting_two_blots_sends_both_to_the_bar():
    white = [0] * 26
    white[24] = 2
    white[13] = 5
    white[8] = 3
    white[6] = 5
    black = [0] * 26
    black[6] = 13
    black[25 - 22] = 1  # a blot on white's 22
    black[25 - 20] = 1  # a blot on white's 20
    pos = Position(tuple(white), tuple(black), 0, "backgammon")
    ends = legal_end_positions(pos, (2, 2))
    assert ends == [p.position for p in legal_plays(pos, (2, 2))]
    both = [p for p in ends if p.black[25] == 2]
    assert both and all(p.black[3] == 0 and p.black[5] == 0 for p in both)
