"""Moving checkers as printed, without the rules (the replayer's way past a misprint)."""

from __future__ import annotations

import pytest

from scoring.rules import (
    BLACK,
    WHITE,
    Position,
    Step,
    apply_steps_unchecked,
    label_to_index,
    legal_plays,
    play_unchecked,
)


def steps_of(pos: Position, *pairs: str) -> list[Step]:
    out = []
    for pair in pairs:
        a, b = pair.split("/")
        out.append(
            Step(label_to_index(a, pos.turn, "through"), label_to_index(b, pos.turn, "through"))
        )
    return out


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_each_colour_keeps_its_own_checkers_after_an_unchecked_play(side):
    """Regression: the result used to carry the colours swapped (the mover's board became
    the opponent's)."""
    start = Position.start("backgammon", side)
    steps = steps_of(start, "13/7", "13/8") if side == WHITE else steps_of(start, "12/18", "12/17")
    after = apply_steps_unchecked(start, steps)
    assert after.turn == 1 - side
    assert after.board(1 - side) == start.board(1 - side)  # the opponent did not move
    mover = after.board(side)
    assert (mover[13], mover[8], mover[7]) == (3, 4, 1)
    # The same play is legal, so the rules core must reach the very same position.
    assert after in {p.position for p in legal_plays(start, (6, 5))}


def test_unchecked_play_agrees_with_every_legal_play_from_random_games(backgammon_positions):
    for pos, dice in backgammon_positions[::25]:
        for play in legal_plays(pos, dice):
            if play.is_pass:
                continue
            done = play_unchecked(pos, play.steps)
            assert done.position == play.position
            assert done.plausible and done.missing == ()
            assert sorted(done.hits) == sorted(s.dst for s in play.steps if s.hit)


def test_a_hit_sends_the_blot_of_the_right_colour_to_the_bar():
    white = [0] * 26
    white[6], white[0] = 2, 13
    black = [0] * 26
    black[20], black[0] = 1, 14  # Black's 20 is White's 5
    pos = Position(tuple(white), tuple(black), WHITE, "backgammon")
    done = play_unchecked(pos, [Step(6, 5)])
    assert done.hits == (5,)
    assert done.position.black[25] == 1 and done.position.black[20] == 0
    assert done.position.white[5] == 1 and done.position.white[6] == 1


def test_impossible_steps_are_flagged_and_missing_checkers_skipped():
    start = Position.start("backgammon", BLACK)
    backwards = play_unchecked(start, steps_of(start, "12/8"))  # Black moving away from home
    assert not backwards.plausible and backwards.missing == ()
    onto_closed = play_unchecked(start, steps_of(start, "1/6"))  # White holds its 6 point
    assert not onto_closed.plausible
    nothing = play_unchecked(start, steps_of(start, "5/3", "12/16"))
    assert nothing.missing == (0,) and not nothing.plausible
    assert nothing.position.board(BLACK)[label_to_index("16", BLACK, "through")] == 1
    with pytest.raises(ValueError, match="no checker"):
        apply_steps_unchecked(start, steps_of(start, "5/3"))
