"""Game-by-game ledgers: running score, Crawford marking, and every refusal with its game."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.rules.match.check import validate_match
from scoring.rules.match.spec import GameEntry, MatchSpec

G = GameEntry
CUBE5 = MatchSpec(length=5, cube=True)


def test_running_score_match_point_and_crawford():
    games = [
        G("a", "gammon", cube=2),  # 4:0 — a reaches match point
        G("b", "single"),  # Crawford game: no cube
        G("b", "gammon", cube=2),  # post-Crawford: the cube is back
        G("a", "single"),
    ]
    # b won the match with the post-Crawford gammon, so game 4 cannot exist.
    result = validate_match(CUBE5, games)
    assert [(p.code, p.game) for p in result.problems] == [("match.game_after_end", 4)]
    result = validate_match(CUBE5, games[:3], final=(4, 5))
    assert result.ok and result.score == (4, 5) and result.winner == "b"
    assert result.crawford_game == 2
    assert [line.score for line in result.games] == [(4, 0), (4, 1), (4, 5)]
    assert [line.match_point for line in result.games] == [False, True, True]
    assert [line.crawford for line in result.games] == [False, True, False]
    assert [line.post_crawford for line in result.games] == [False, False, True]


def test_final_score_may_pass_the_length():
    games = [G("a", "single"), G("b", "single")] * 4 + [G("a", "backgammon")]
    result = validate_match(MatchSpec(length=5), games, final=(7, 4))
    assert result.ok and result.winner == "a" and result.score == (7, 4)
    assert result.crawford_game is None  # no cube: the Crawford rule has nothing to restrict


def test_crawford_only_once_and_not_when_switched_off():
    games = [G("a", "single")] * 4 + [G("b", "single"), G("b", "gammon", cube=2)]
    assert validate_match(CUBE5, games).crawford_game == 5
    off = MatchSpec(length=5, cube=True, crawford=False)
    games_off = [G("a", "single")] * 4 + [G("b", "single", cube=2), G("a", "single")]
    result = validate_match(off, games_off)
    assert result.ok and result.crawford_game is None


def test_holland_marks_post_crawford_games():
    spec = MatchSpec(length=3, cube=True, holland=True)
    result = validate_match(spec, [G("a", "gammon"), G("b", "single"), G("a", "single", cube=2)])
    assert result.ok
    assert [line.holland for line in result.games] == [False, False, True]


def test_dropped_double_scores_the_value_before_the_offer():
    result = validate_match(CUBE5, [G("a", "single", cube=4, dropped=True), G("a", "single")])
    assert result.ok and result.score == (5, 0)


def test_autodoubles_within_the_limit():
    spec = MatchSpec(length=7, cube=True, autodoubles=1)
    result = validate_match(spec, [G("b", "gammon", cube=2, autodoubles=1), G("b", "single", 4)])
    assert result.ok and result.score == (0, 8)


def test_fixed_games_with_draws_scored_one_each():
    # Part 9, Perm: 4 games, oyun 1 / mars 2 / home mars 3, a draw scored 1:1.
    spec = MatchSpec(fixed_games=4, scoring="long_nardy", draw=1)
    games = [G("a", "mars"), G.draw(), G("b", "home_mars"), G("a", "oyun")]
    result = validate_match(spec, games)
    assert result.ok and result.score == (4, 4) and result.winner is None and result.decided
    assert [line.white for line in result.games] == ["a", "b", "a", "b"]


def test_fixed_games_with_half_point_draws():
    spec = MatchSpec(fixed_games=2, scoring="oyun_mars", draw=Fraction(1, 2))
    result = validate_match(spec, [G.draw(), G("b", "mars")], final=(0.5, 2.5))
    assert result.ok and result.winner == "b"
    assert result.as_dict()["score"] == [0.5, 2.5]


@pytest.mark.parametrize(
    ("spec", "games", "final", "code", "game"),
    [
        # a cube in the Crawford game (a reached 4 in game 1)
        (CUBE5, [G("a", "gammon", 2), G("b", "single", 2)], None, "match.cube_in_crawford", 2),
        (CUBE5, [G("a", "gammon", 2), G("b", "single", dropped=True)], None,
         "match.cube_in_crawford", 2),
        (MatchSpec(length=5, cube=True, autodoubles=1),
         [G("a", "gammon", 2), G("b", "single", 2, autodoubles=1)], None, "match.cube_in_crawford", 2),
        # a cube where the cube is off
        (MatchSpec(length=5), [G("a", "single", 2)], None, "match.cube_off", 1),
        (MatchSpec(length=5), [G("a", "single"), G("a", "single", dropped=True)], None,
         "match.cube_off", 2),
        (MatchSpec(length=5, category=1), [G("a", "single", 2)], None, "match.cube_off", 1),
        (MatchSpec(length=5), [G("a", "single", autodoubles=1)], None,
         "match.autodoubles_without_cube", 1),
        # a value that is not a cube value, above the maximum
        (CUBE5, [G("a", "single", 3)], None, "match.cube_not_legal", 1),
        (CUBE5, [G("a", "single", 0)], None, "match.cube_not_legal", 1),
        (MatchSpec(length=5, cube=True, dave=True), [G("a", "single", 7)], None,
         "match.cube_above_max", 1),
        (CUBE5, [G("a", "single", 128)], None, "match.cube_above_max", 1),
        (MatchSpec(length=5, cube=True, max_cube=8), [G("a", "single", 16)], None,
         "match.cube_above_max", 1),
        # automatic doubles
        (CUBE5, [G("a", "single", 2, autodoubles=1)], None, "match.autodoubles_exceeded", 1),
        (MatchSpec(length=5, cube=True, autodoubles=3),
         [G("a", "single", 2, autodoubles=2)], None, "match.autodoubles_cube_mismatch", 1),
        (MatchSpec(length=5, cube=True, autodoubles=1), [G("a", "single", autodoubles=-1)],
         None, "match.bad_autodoubles", 1),
        # pass at the maximum, pass scored as a gammon
        (CUBE5, [G("a", "single", 64, dropped=True)], None, "match.drop_at_max", 1),
        (CUBE5, [G("a", "gammon", 2, dropped=True)], None, "match.dropped_kind", 1),
        # kinds and winners
        (MatchSpec(length=5), [G("a", "mars")], None, "match.bad_kind", 1),
        (MatchSpec(length=5, scoring="long_nardy"), [G("a", "koks")], None, "match.bad_kind", 1),
        (MatchSpec(length=5), [G("c", "single")], None, "match.bad_winner", 1),
        (MatchSpec(length=5), [G(None, "single")], None, "match.bad_winner", 1),
        (MatchSpec(fixed_games=2), [G("a", "single"), G.draw()], None, "match.draw_not_allowed", 2),
        (MatchSpec(length=3), [G("a", "single", dropped="yes")], None, "match.bad_dropped", 1),
        # the match as a whole
        (MatchSpec(length=3), [G("a", "backgammon"), G("b", "single")], None,
         "match.game_after_end", 2),
        (MatchSpec(length=3), [G("a", "single"), G("b", "single")], None,
         "match.match_unfinished", None),
        (MatchSpec(fixed_games=2), [G("a", "single")] * 3, None, "match.too_many_games", 3),
        (MatchSpec(fixed_games=3), [G("a", "single")] * 2, None, "match.match_unfinished", None),
        (MatchSpec(length=3), [G("a", "backgammon")], (3, 1), "match.final_mismatch", None),
    ],
)  # fmt: skip
def test_refusals(spec, games, final, code, game):
    result = validate_match(spec, games, final)
    assert not result.ok
    hits = [p for p in result.problems if p.code == code]
    assert hits, result.codes
    assert hits[0].game == game
    assert hits[0].en and hits[0].ru and hits[0].en != hits[0].ru
    if game is not None:
        assert str(game) in hits[0].en and str(game) in hits[0].ru


def test_crawford_mutation_message_names_the_leader():
    result = validate_match(CUBE5, [G("b", "gammon", 2), G("a", "single", 2)])
    problem = result.problems[0]
    assert "(player B is one point" in problem.en and "игроку Б осталось" in problem.ru
    named = problem.message("ru", names={"a": "Иванов", "b": "Петров"})
    assert "Петрову" not in named and "Петров" in named


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        (MatchSpec(), "match.bad_format"),
        (MatchSpec(length=5, fixed_games=3), "match.bad_format"),
        (MatchSpec(length=0), "match.bad_length"),
        (MatchSpec(fixed_games=-2), "match.bad_fixed_games"),
        (MatchSpec(length=5, scoring="chess"), "match.bad_scoring"),
        (MatchSpec(length=5, cube=True, jacoby=True), "match.jacoby_in_match"),
        (MatchSpec(fixed_games=4, jacoby=True), "match.jacoby_in_match"),
        (MatchSpec(length=5, holland=True), "match.holland_needs_crawford"),
        (MatchSpec(length=5, cube=True, crawford=False, holland=True), "match.holland_needs_crawford"),
        (MatchSpec(length=5, draw=1), "match.draw_needs_fixed_games"),
        (MatchSpec(fixed_games=4, draw=2), "match.bad_draw_value"),
        (MatchSpec(length=5, cube=True, raccoon=True), "match.raccoon_needs_beaver"),
        (MatchSpec(length=5, cube=True, max_cube=100), "match.bad_max_cube"),
        (MatchSpec(length=5, autodoubles=1), "match.autodoubles_without_cube"),
        (MatchSpec(length=5, cube=True, dave=True, autodoubles=1), "match.autodouble_in_dave"),
        (MatchSpec(length=5, cube=True, autodoubles=-3), "match.bad_autodouble_limit"),
        (MatchSpec(length=5, cube=True, category=2), "match.category_cube"),
        (MatchSpec(length=7, category=3), "match.category_length"),
        (MatchSpec(length=13, cube=True, category=7, round=1), "match.category_length"),
        (MatchSpec(length=12, cube=True, category=8), "match.category_length"),
        (MatchSpec(length=5, category=12), "match.unknown_category"),
    ],
)
def test_option_refusals_apply_to_every_result(spec, code):
    result = validate_match(spec, final=(5, 0))
    assert code in result.codes
    assert not result.ok


def test_nothing_given_is_refused():
    assert validate_match(MatchSpec(length=5)).codes == ["match.nothing_to_check"]


def test_category_rows_accept_their_own_lengths_and_recorded_overrides():
    assert validate_match(MatchSpec(length=15, cube=True, category=7, round=3), final=(15, 2)).ok
    assert validate_match(MatchSpec(length=17, cube=True, category="master"), final=(17, 2)).ok
    overridden = MatchSpec(length=7, cube=True, category=1, organiser_override=True)
    assert validate_match(overridden, [G("a", "single", 8)]).ok
