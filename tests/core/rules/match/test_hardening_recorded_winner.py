"""A stored result's winner must be its score's (issue 29: a restored archive named any winner).

Property: for any final score of a match to N points that the match core accepts, the
winner it finds, recorded, raises nothing; the other side, recorded, is refused; and a
ledger that leaves a decided match without a winner is refused.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.match.check import recorded_winner_problems, validate_match
from scoring.rules.match.spec import MatchSpec

LENGTHS = st.sampled_from([3, 5, 7, 9, 11])


@given(length=LENGTHS, loser=st.integers(min_value=0, max_value=12), a_wins=st.booleans())
def test_the_scores_winner_is_accepted_and_the_other_side_refused(length, loser, a_wins):
    loser = min(loser, length - 1)
    final = (length, loser) if a_wins else (loser, length)
    verdict = validate_match(MatchSpec(length=length), final=final)
    if not verdict.ok:
        return  # an impossible score is the match core's own refusal
    winner = verdict.winner
    assert winner == ("a" if a_wins else "b")
    assert recorded_winner_problems(winner, winner, required=True) == []
    other = "b" if winner == "a" else "a"
    assert [p.code for p in recorded_winner_problems(winner, other, required=True)] == ["match.winner_contradicts"]
    assert [p.code for p in recorded_winner_problems(winner, "", required=True)] == ["match.winner_missing"]
    assert recorded_winner_problems(winner, "", required=False) == []  # a report without a named winner


@given(side=st.sampled_from(["a", "b"]))
def test_a_winner_named_for_an_undecided_score_is_refused(side):
    problems = recorded_winner_problems(None, side, required=False)
    assert [p.code for p in problems] == ["match.winner_undecided"]
    assert problems[0].en != problems[0].ru
