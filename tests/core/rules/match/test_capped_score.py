"""A match to N is won at N: a file's overshoot (gnubg's 8:4 in a match to 5) is the same
result as the official 5:4 (issue 46). One core comparison, properties over every score."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.match.check import validate_match
from scoring.rules.match.spec import MatchSpec

TO_FIVE = MatchSpec(length=5, cube=True)


def test_a_gammon_on_a_two_cube_at_three_four_is_the_official_five_four():
    assert TO_FIVE.capped((8, 4)) == (5, 4)
    assert TO_FIVE.same_result((8, 4), (5, 4))
    assert TO_FIVE.same_result((4, 8), (4, 5))


def test_a_different_loser_score_or_winner_is_still_a_mismatch():
    assert not TO_FIVE.same_result((8, 4), (5, 3))
    assert not TO_FIVE.same_result((8, 4), (4, 5))
    assert not TO_FIVE.same_result((3, 4), (5, 4))  # unfinished is not the official result


def test_a_fixed_games_match_has_nothing_to_cap():
    fixed = MatchSpec(fixed_games=4)
    assert fixed.capped((3, 1)) == (3, 1) and not fixed.same_result((3, 1), (2, 1))


def test_the_api_verdict_gives_the_capped_score_beside_the_raw_one():
    verdict = validate_match(TO_FIVE, final=(8, 4))
    assert verdict.ok and verdict.as_dict()["score"] == [8, 4] and verdict.as_dict()["capped"] == [5, 4]


@given(st.integers(1, 25), st.integers(0, 80), st.integers(0, 80))
def test_capping_is_idempotent_keeps_the_loser_and_never_passes_the_length(length, a, b):
    spec = MatchSpec(length=length, cube=True)
    capped = spec.capped((a, b))
    assert spec.capped(capped) == capped
    assert spec.same_result((a, b), capped) and spec.same_result(capped, (a, b))
    if (a >= length) != (b >= length):
        assert max(capped) == length and min(capped) == min(a, b)
    else:
        assert capped == (a, b)
