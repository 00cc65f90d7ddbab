"""Results not played out, lateness and the clock: what the organiser's rules give, in the core."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.match.check import validate_match
from scoring.rules.match.result_kinds import (
    ForfeitScore,
    LatenessRule,
    TimeControl,
    lateness_penalty,
    result_for_kind,
)
from scoring.rules.match.spec import GameEntry as G
from scoring.rules.match.spec import MatchSpec

TO5 = MatchSpec(length=5)
FOUR_GAMES = MatchSpec(fixed_games=4, scoring="long_nardy", draw=Fraction(1, 2))


def test_a_no_show_under_the_full_rule_is_the_match_length_to_nothing():
    verdict = result_for_kind(TO5, "forfeit", "b", rule=ForfeitScore.FULL)
    assert verdict.ok and verdict.score == (0, 5) and verdict.winner == "b"


def test_a_no_show_under_the_played_rule_keeps_the_starting_score():
    late = replace(TO5, start=(0, 2))  # A came late twice over: 2 penalty points to B
    verdict = result_for_kind(late, "forfeit", "b", rule=ForfeitScore.PLAYED)
    assert verdict.score == (0, 2) and verdict.winner == "b"


def test_a_time_forfeit_gives_the_winner_the_match_and_the_loser_keeps_his_points():
    verdict = result_for_kind(TO5, "time_forfeit", "a", played=(2, 4))
    assert verdict.score == (5, 4) and verdict.winner == "a"
    # By the "played" rule the sheet stands, and the winner is still the one the clock named.
    kept = result_for_kind(TO5, "time_forfeit", "a", rule=ForfeitScore.PLAYED, played=(2, 4))
    assert kept.score == (2, 4) and kept.winner == "a"


def test_fixed_games_forfeit_gives_each_unplayed_game_as_a_single_win():
    verdict = result_for_kind(FOUR_GAMES, "time_forfeit", "b", played=(1, Fraction(3, 2)), games_played=2)
    assert verdict.score == (1, Fraction(7, 2))


def test_halves_only_where_a_draw_scores_half_and_games_only_as_many_as_agreed():
    assert result_for_kind(TO5, "time_forfeit", "a", played=(Fraction(3, 2), 1)).problems[0].code == (
        "match.bad_score"
    )
    assert result_for_kind(FOUR_GAMES, "time_forfeit", "a", games_played=5).problems[0].code == (
        "match.too_many_games"
    )


def test_double_forfeit_and_void_have_no_winner():
    assert result_for_kind(TO5, "double_forfeit", None).score == (0, 0)
    assert result_for_kind(TO5, "double_forfeit", None).winner is None
    assert result_for_kind(TO5, "void", None).ok


def test_refusals_name_the_reason():
    assert [p.code for p in result_for_kind(TO5, "forfeit", None).problems] == [
        "match.forfeit_needs_winner"
    ]
    decided = result_for_kind(TO5, "time_forfeit", "a", played=(5, 1)).problems
    assert decided[0].code == "match.forfeit_played_decided"
    assert "5:1" in decided[0].message("en") and "5:1" in decided[0].message("ru")
    below = result_for_kind(replace(TO5, start=(0, 2)), "time_forfeit", "a", played=(1, 1))
    assert below.problems[0].code == "match.below_start"


def test_lateness_penalty_points_go_to_the_opponent_and_a_forfeit_follows():
    rule = LatenessRule(every=5, forfeit_after=15)
    first = lateness_penalty(rule, TO5, "a", 11)
    assert (first.points, first.forfeit, first.start) == (2, False, (0, 2))
    assert lateness_penalty(rule, TO5, "a", 15).forfeit
    # Entered again (a correction), the penalty replaces the earlier one; B's own lateness stays.
    started = replace(TO5, start=(1, 2))
    assert lateness_penalty(rule, started, "a", 6).start == (1, 1)
    # A penalty that reaches the match length decides it: a forfeit too.
    short = MatchSpec(length=3)
    assert lateness_penalty(LatenessRule(every=1), short, "b", 3).forfeit


def test_a_match_starting_from_penalty_points_is_checked_from_there():
    spec = replace(TO5, start=(0, 2))
    ledger = [G("b", "single"), G("a", "gammon"), G("b", "gammon")]  # 0:2 → 0:3 → 2:3 → 2:5
    verdict = validate_match(spec, ledger)
    assert verdict.ok and verdict.score == (2, 5) and verdict.winner == "b"
    assert validate_match(spec, final=(5, 2)).ok
    assert validate_match(spec, final=(5, 1)).codes == ["match.below_start"]


def test_time_control_as_data_and_its_limits():
    tc = TimeControl(move_seconds=45, minutes_per_point=2, delay_seconds=12)
    assert tc.problems() == [] and tc.clock_minutes(7) == 14
    assert tc.describe("en", 7) == "45 s a move; clock: 2 min a point = 14 min each, delay 12 s"
    assert tc.describe("ru", 7).startswith("45 с на ход; часы: 2 мин на очко = 14 мин каждому")
    assert [p.code for p in TimeControl(move_seconds=60).problems()] == ["match.move_limit_range"]


@settings(max_examples=80, deadline=None)
@given(
    length=st.integers(1, 15),
    a=st.integers(0, 14),
    b=st.integers(0, 14),
    winner=st.sampled_from(["a", "b"]),
    rule=st.sampled_from(list(ForfeitScore)),
)
def test_a_forfeit_never_lowers_a_score_and_names_its_winner(length, a, b, winner, rule):
    spec = MatchSpec(length=length)
    played = (min(a, length - 1), min(b, length - 1))
    verdict = result_for_kind(spec, "time_forfeit", winner, rule=rule, played=played)
    assert verdict.ok and verdict.winner == winner
    assert all(s >= p for s, p in zip(verdict.score, played, strict=True))
    if rule == ForfeitScore.FULL:
        assert verdict.score["ab".index(winner)] == length
