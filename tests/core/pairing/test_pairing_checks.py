"""Hand-made tables are re-checked by the core: no rematch, one pairing bye."""

from tournaments.pairing import check_pairings


def test_rematch_and_second_bye_are_named():
    met = {frozenset((1, 2))}
    problems = check_pairings([(2, 1), (3, None), (4, 5)], met, {3}, {1: "Иванов", 2: "Петров"})
    assert [p.code for p in problems] == ["pairing.rematch", "pairing.second_bye"]
    assert "Иванов" in problems[0].ru and "Петров" in problems[0].en
    assert problems[1].details == {"entry": 3}


def test_fresh_pairs_and_first_byes_pass():
    assert check_pairings([(1, 3), (2, None)], {frozenset((1, 2))}, {4}) == []


def test_byes_of_a_schedule_are_not_limited():
    assert check_pairings([(3, None)], set(), {3}, byes_limited=False) == []
