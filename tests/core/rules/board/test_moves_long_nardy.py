"""Long nardy (jang) and karzar: ch9 r2–r6, and the Caucasian short-nardy rule (ch10)."""

from __future__ import annotations

import pytest

from scoring.rules import BLACK, WHITE, Position, Step, check_play, label_to_index, legal_plays


def printed(pos: Position, plays, numbering: str = "traditional") -> set[tuple[str, ...]]:
    """Each play as sorted printed steps, so the order of independent steps does not matter."""
    from scoring.rules.board.position import index_to_label

    geo = pos.rules.geometry
    return {
        tuple(
            sorted(
                f"{index_to_label(s.src, pos.turn, numbering, geo)}/"
                f"{index_to_label(s.dst, pos.turn, numbering, geo)}"
                for s in p.steps
            )
        )
        for p in plays
    }


def steps(pos: Position, *pairs: str) -> list[Step]:
    geo = pos.rules.geometry
    out = []
    for pair in pairs:
        a, b = pair.rstrip("*").split("/")
        out.append(
            Step(
                label_to_index(a, pos.turn, "traditional", geo),
                label_to_index(b, pos.turn, "traditional", geo),
                pair.endswith("*"),
            )
        )
    return out


START = Position.start("long_nardy")


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (6, ("012/06", "012/06")),  # r4: 6-6 only with two head checkers
        (5, ("012/07", "02/9", "07/02", "9/4")),
        (4, ("012/08", "012/08", "08/04", "08/04")),
        (3, ("012/09", "012/09", "06/03", "09/06")),  # 012/09/06/03, 012/09
        (2, ("010/08", "012/010", "06/04", "08/06")),
        (1, ("010/09", "011/010", "012/011", "09/08")),
    ],
)
def test_first_turn_doubles_follow_r4(roll, expected):
    plays = legal_plays(START, (roll, roll))
    assert printed(START, plays) == {tuple(sorted(expected))}


def test_first_turn_double_when_blocked_takes_a_second_head_checker():
    # Fig. 20: White played 6-2 012/06/04; Black's 5-5: 12/7/2/09 and then 12/7.
    pos = Position.from_labels({"012": 14, "04": 1}, {"12": 15}, BLACK, "long_nardy")
    assert printed(pos, legal_plays(pos, (5, 5))) == {("12/7", "12/7", "2/09", "7/2")}
    # Fig. 21: White on 09; Black 5-5 is 12/7/2(2).
    pos = Position.from_labels({"012": 14, "09": 1}, {"12": 15}, BLACK, "long_nardy")
    assert printed(pos, legal_plays(pos, (5, 5))) == {("12/7", "12/7", "7/2", "7/2")}
    # After White's 5-5 012/07/02/9/4, Black's 2-2 is 12/10/8/6, 12/10.
    pos = Position.from_labels({"012": 14, "4": 1}, {"12": 15}, BLACK, "long_nardy")
    assert printed(pos, legal_plays(pos, (2, 2))) == {("10/8", "12/10", "12/10", "8/6")}


def test_first_turn_three_three_split_two_and_two_is_a_head_rule_problem():
    check = check_play(START, (3, 3), steps(START, "012/09", "09/06", "012/09", "09/06"))
    assert not check.ok
    assert [p.code for p in check.problems] == ["record.head_rule"]


def test_only_one_checker_leaves_the_head_after_the_first_turn():
    pos = Position.from_labels({"012": 14, "01": 1}, {"12": 14, "8": 1}, WHITE, "long_nardy")
    for play in legal_plays(pos, (6, 5)):
        assert sum(1 for s in play.steps if s.src == 24) <= 1
    check = check_play(pos, (6, 5), steps(pos, "012/06", "012/07"))
    assert [p.code for p in check.problems] == ["record.head_rule"]


def test_a_single_checker_closes_a_point_and_nothing_is_hit():
    pos = Position.from_labels({"012": 14, "01": 1}, {"12": 14, "09": 1}, WHITE, "long_nardy")
    for play in legal_plays(pos, (3, 1)):
        assert all(s.dst != 21 for s in play.steps)  # 09 holds one black checker
        assert not any(s.hit for s in play.steps)
    closed = check_play(pos, (3, 1), steps(pos, "012/09", "01/12"))
    assert [p.code for p in closed.problems] == ["record.point_closed"]
    hit = check_play(pos, (3, 1), steps(pos, "012/09*"))
    assert [p.code for p in hit.problems] == ["record.hit_forbidden"]


def _prime_position(variant: str, black: dict[str, int]) -> Position:
    # White: 7(2), 6, 5, 4, 3 — playing 7/2 builds the six-prime 7…2 (fig. 22).
    white = {"012": 9, "7": 2, "6": 1, "5": 1, "4": 1, "3": 1}
    return Position.from_labels(white, black, WHITE, variant)


def _has_six_prime(board: tuple[int, ...]) -> bool:
    return any(all(board[i] for i in range(k, k + 6)) for k in range(1, 19))


def _builds_prime(pos: Position) -> bool:
    assert not _has_six_prime(pos.white)
    return any(_has_six_prime(play.position.white) for play in legal_plays(pos, (5, 1)))


def test_six_prime_allowed_with_an_opposing_checker_ahead_r5():
    ahead = _prime_position("long_nardy", {"12": 13, "11": 1, "1": 1})
    assert _builds_prime(ahead)
    assert check_play(ahead, (5, 1), steps(ahead, "012/011", "7/2")).ok


def test_six_prime_forbidden_with_every_opposing_checker_behind_it():
    behind = _prime_position("long_nardy", {"12": 14, "11": 1})
    assert not _builds_prime(behind)
    check = check_play(behind, (5, 1), steps(behind, "012/011", "7/2"))
    assert [p.code for p in check.problems] == ["record.prime_rule"]
    assert "щещдар" in check.problems[0].ru


def test_karzar_needs_an_opposing_checker_in_its_home_r6():
    ahead_not_home = _prime_position("karzar", {"12": 13, "11": 1, "1": 1})
    assert not _builds_prime(ahead_not_home)
    home = _prime_position("karzar", {"12": 13, "11": 1, "01": 1})
    assert _builds_prime(home)


def _caucasian(variant: str) -> Position:
    white = {"012": 11, "8": 1, "6": 2, "3": 1}
    black = {"5": 1, "12": 14}  # a lone black checker on White's 5
    return Position.from_labels(white, black, WHITE, variant)


def test_caucasian_hitter_may_not_hide_on_an_own_point():
    pos = _caucasian("caucasian")
    results = {p.position for p in legal_plays(pos, (3, 2))}
    hide = check_play(pos, (3, 2), steps(pos, "8/5*", "5/3"))
    assert [p.code for p in hide.problems] == ["record.caucasian_hide"]
    # In backgammon the same play is fine.
    bg = _caucasian("backgammon")
    assert check_play(bg, (3, 2), steps(bg, "8/5*", "5/3")).ok
    # Covering the hitter with another checker, or moving on to an empty point, is allowed.
    assert check_play(pos, (3, 2), steps(pos, "8/5*", "6/4")).ok
    cover = check_play(pos, (3, 1), steps(pos, "8/5*", "6/5"))
    assert cover.ok and cover.position in {p.position for p in legal_plays(pos, (3, 1))}
    assert check_play(pos, (3, 1), steps(pos, "8/5*", "5/4")).ok
    assert len(results) == len(legal_plays(pos, (3, 2)))
