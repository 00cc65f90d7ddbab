"""The book's own short-nardy rules that international backgammon does not have.

* exact bear-off (ch8 r22, r26): a die matching an occupied home point bears off from
  that point — with 6-1 and one checker on the 6 point, ``6/5/off`` is illegal in short
  nardy and its Caucasian variant, legal in backgammon (and in GNU Backgammon);
* the Caucasian hitting checker (ch10): after hitting in its own home it may not go on
  to an own point, closed or single, in the same turn; it may stay, move on to an empty
  point, be covered by another checker, or bear off.
"""

from __future__ import annotations

import pytest

from scoring.rules import (
    PROBLEM_CODES,
    WHITE,
    Position,
    Step,
    check_play,
    label_to_index,
    legal_plays,
)

SHORT_GAMES = ("short_nardy", "caucasian")
INTERNATIONAL = ("backgammon", "nackgammon")


def steps(pos: Position, *pairs: str) -> list[Step]:
    out = []
    for chain in pairs:
        labels = chain.split("/")
        for a, b in zip(labels, labels[1:], strict=False):
            out.append(
                Step(
                    label_to_index(a.rstrip("*"), pos.turn, "through"),
                    label_to_index(b.rstrip("*"), pos.turn, "through"),
                    True if b.endswith("*") else None,
                )
            )
    return out


def bear_off(variant: str, white: dict[str, int], off: int) -> Position:
    return Position.from_labels(white, {"19": 15}, WHITE, variant, "through", white_off=off)


def outcomes(pos: Position, dice: tuple[int, int]) -> set[Position]:
    return {p.position for p in legal_plays(pos, dice)}


@pytest.mark.parametrize("variant", SHORT_GAMES + INTERNATIONAL)
def test_book_example_six_one_with_one_checker_on_six(variant):
    """ch8 r26: "при броске 6–1 игрок выполнил ход 6/5/off" — not allowed in the book's game."""
    pos = bear_off(variant, {"6": 1, "5": 2, "4": 3, "3": 3, "2": 3}, off=3)
    check = check_play(pos, (6, 1), steps(pos, "6/5/off"))
    six_five_off = bear_off(variant, {"5": 2, "4": 3, "3": 3, "2": 3}, off=4).passed()
    if variant in SHORT_GAMES:
        assert [p.code for p in check.problems] == ["record.exact_bear_off_required"]
        problem = check.problems[0]
        assert problem.details["point"] == 6
        assert "6/off" not in problem.en and "point 6" in problem.en
        assert "пункта 6" in problem.ru and "6/5/off" in problem.ru
        assert six_five_off not in outcomes(pos, (6, 1))
        # Every legal play takes the checker off the 6 point with the six.
        for play in legal_plays(pos, (6, 1)):
            assert any(s.src == 6 and s.dst == 0 and s.die == 6 for s in play.steps)
    else:
        assert check.ok and six_five_off in outcomes(pos, (6, 1))


@pytest.mark.parametrize("variant", SHORT_GAMES)
def test_both_matching_dice_bear_off_from_their_points(variant):
    """r22: "если на зарах выпало 5–2, то нужно снять одну шашку с пункта 2, а другую с 5"."""
    pos = bear_off(variant, {"5": 2, "4": 3, "2": 3, "1": 2}, off=5)
    plays = legal_plays(pos, (5, 2))
    assert [sorted((s.src, s.dst) for s in p.steps) for p in plays] == [[(2, 0), (5, 0)]]
    moved_inside = check_play(pos, (5, 2), steps(pos, "5/3", "5/off"))
    assert [p.code for p in moved_inside.problems] == ["record.exact_bear_off_required"]
    # Backgammon lets the five be played 5/off and the two be played inside home.
    bg = bear_off("backgammon", {"5": 2, "4": 3, "2": 3, "1": 2}, off=5)
    assert len(legal_plays(bg, (5, 2))) > 1


@pytest.mark.parametrize("variant", SHORT_GAMES)
def test_a_die_whose_point_is_empty_plays_as_usual(variant):
    """r23/r26: no checker on the die's point — bear off from the highest, or move inside."""
    pos = bear_off(variant, {"5": 1, "3": 4, "2": 2}, off=8)
    results = {tuple(sorted((s.src, s.dst) for s in p.steps)) for p in legal_plays(pos, (6, 1))}
    # The six bears off the 5 (the highest point); the one is free, even 5/4 first.
    assert results == {((3, 2), (5, 0)), ((2, 1), (5, 0)), ((4, 0), (5, 4))}
    assert check_play(pos, (6, 1), steps(pos, "5/off", "3/2")).ok


@pytest.mark.parametrize("variant", SHORT_GAMES)
def test_doubles_take_off_from_the_point_then_play_the_rest_in_either_order(variant):
    """r25: 3-3 with three checkers on 3 and one on 5: 5/2 and 3/off(3), "или – наоборот"."""
    pos = bear_off(variant, {"5": 1, "3": 3, "1": 2}, off=9)
    plays = legal_plays(pos, (3, 3))
    assert len(plays) == 1
    assert sorted((s.src, s.dst) for s in plays[0].steps) == [(3, 0), (3, 0), (3, 0), (5, 2)]
    first = check_play(pos, (3, 3), steps(pos, "5/2", "3/off", "3/off", "3/off"))
    then = check_play(pos, (3, 3), steps(pos, "3/off", "3/off", "3/off", "5/2"))
    assert first.ok and then.ok and first.position == then.position == plays[0].position
    # With five on the 3 point, all four come off there (r25: "4 шашки снимаются").
    five = bear_off(variant, {"3": 5, "1": 2}, off=8)
    assert [sorted((s.src, s.dst) for s in p.steps) for p in legal_plays(five, (3, 3))] == [
        [(3, 0)] * 4
    ]


@pytest.mark.parametrize("variant", SHORT_GAMES)
def test_the_rule_starts_when_the_last_checker_comes_home(variant):
    """3-3 with one checker on 7: once 7/4 brings it home, the dice left must bear off from
    the occupied 3 point; moves inside home made *before* that are free."""
    white = {"7": 1, "6": 1, "5": 1, "3": 2, "1": 2}
    pos = bear_off(variant, white, off=8)
    late = check_play(pos, (3, 3), steps(pos, "7/4/1", "6/3", "5/2"))
    assert [p.code for p in late.problems] == ["record.exact_bear_off_required"]
    assert late.problems[0].details["point"] == 3
    early = check_play(pos, (3, 3), steps(pos, "6/3", "5/2", "7/4", "3/off"))
    assert early.ok
    bg = bear_off("backgammon", white, off=8)
    assert check_play(bg, (3, 3), steps(bg, "7/4/1", "6/3", "5/2")).ok


def test_the_new_code_is_documented():
    assert "record.exact_bear_off_required" in PROBLEM_CODES


# -- the Caucasian hitting checker (ch10) ---------------------------------------------------


def caucasian(variant: str = "caucasian") -> Position:
    # White: a hitter on 8 and 7, a closed 6 point, a single checker on 3; a black blot on
    # White's 5 point and another on White's 4 point.
    white = {"13": 10, "8": 1, "7": 1, "6": 2, "3": 1}
    black = {"5": 1, "4": 1, "1": 13}
    return Position.from_labels(white, black, WHITE, variant, "through")


def codes_of(pos: Position, dice: tuple[int, int], *pairs: str) -> list[str]:
    return [p.code for p in check_play(pos, dice, steps(pos, *pairs)).problems]


def test_caucasian_hitter_may_not_land_on_a_single_own_checker():
    """ch10: "не может встать на одиночную шашку своего цвета (создавая закрытый пункт)"."""
    assert codes_of(caucasian(), (3, 2), "8/5*", "5/3") == ["record.caucasian_hide"]
    assert codes_of(caucasian("backgammon"), (3, 2), "8/5*", "5/3") == []


def test_caucasian_hitter_may_not_hide_on_a_closed_own_point():
    """ch10: "не может уйти на занятые своими шашками пункты" (here the made 4 point)."""
    pos = Position.from_labels(
        {"13": 10, "7": 1, "6": 2, "4": 2}, {"5": 1, "1": 14}, WHITE, "caucasian", "through"
    )
    assert codes_of(pos, (2, 1), "7/5*", "5/4") == ["record.caucasian_hide"]
    assert all(
        not (any(s.hit for s in p.steps) and any(s.src == 5 and s.dst == 4 for s in p.steps))
        for p in legal_plays(pos, (2, 1))
    )


def test_caucasian_hitter_may_stay_move_on_or_be_covered():
    pos = caucasian()
    assert codes_of(pos, (3, 1), "8/5*", "7/6") == []  # stays alone on 5
    assert codes_of(pos, (3, 1), "8/5*/4*") == []  # moves on (hitting again) to a blot
    assert codes_of(pos, (3, 2), "8/5*", "7/5") == []  # covered by another checker


def test_caucasian_hitter_may_bear_off_after_hitting():
    """ch10: "при выводе шашек во двор ударная шашка может побить шашку противника и
    вторым ходом … сама может быть выведена из дома во двор"."""
    pos = Position.from_labels(
        {"6": 1, "4": 3, "3": 3, "2": 3},
        {"5": 1, "24": 14},
        WHITE,
        "caucasian",
        "through",
        white_off=5,
    )
    check = check_play(pos, (5, 1), steps(pos, "6/5*/off"))
    assert check.ok, [p.en for p in check.problems]
    assert check.position in outcomes(pos, (5, 1))
    assert check.position.black[25] == 1  # the black blot went to the bar


def test_caucasian_rule_is_only_about_hits_in_ones_own_home():
    """Hitting outside home and then joining an own point is fine (the rule is about home)."""
    pos = Position.from_labels(
        {"13": 12, "10": 1, "6": 2}, {"9": 1, "1": 14}, WHITE, "caucasian", "through"
    )
    assert codes_of(pos, (3, 1), "13/10", "10/9*") == []
    assert codes_of(pos, (3, 1), "10/9*/6") == []
