"""Part 9 table "Категории игроков": groups, cube rule, lengths by round, overrides."""

from __future__ import annotations

import pytest

from scoring.rules.errors import RuleViolation
from scoring.rules.match.categories import (
    CATEGORIES,
    Group,
    categories_in,
    get_category,
    round_rule,
    table_lengths,
)


def test_nine_categories_in_three_groups_with_both_names():
    assert [c.number for c in CATEGORIES] == list(range(1, 10))
    assert [c.number for c in categories_in(Group.LOWER)] == [1, 2, 3]
    assert [c.number for c in categories_in(Group.MIDDLE)] == [4, 5, 6]
    assert [c.number for c in categories_in(Group.HIGHER)] == [7, 8, 9]
    for c in CATEGORIES:
        assert c.en and c.ru and c.en != c.ru
    assert get_category(7).ru == "Специалист"
    assert get_category("Гроссмейстер").number == 9
    assert get_category("novice").en == "Novice"


def test_cube_only_outside_the_lower_group():
    assert [c.cube for c in CATEGORIES] == [False] * 3 + [True] * 6


@pytest.mark.parametrize(
    ("category", "lengths"),
    [
        (1, [5, 5, 5]),
        (4, [7, 7, 7]),
        (5, [9, 9, 9]),
        (6, [11, 11, 11]),
        (7, [11, 13, 15]),  # "с 11-ти очков, затем – с 13-ти, 15-ти и т. д."
        (8, [13, 15, 17]),  # "с 13-ти очков, затем – с 15-ти и т. д."
        (9, [13, 15, 17]),
    ],
)
def test_lengths_by_round(category, lengths):
    assert table_lengths(category, 3) == lengths
    assert [round_rule(category, r).length for r in (1, 2, 3)] == lengths


def test_table_rule_is_not_an_override():
    rule = round_rule("expert", 2, length=13, cube=True)
    assert (rule.length, rule.cube, rule.override) == (13, True, None)


def test_override_is_recorded_with_what_the_table_said():
    rule = round_rule(2, 1, length=7, cube=True, reason="final played longer by the jury")
    assert (rule.length, rule.cube) == (7, True)
    assert rule.override is not None
    assert (rule.override.table_length, rule.override.table_cube) == (5, False)
    assert rule.override.reason == "final played longer by the jury"


def test_override_without_reason_is_refused():
    with pytest.raises(RuleViolation) as info:
        round_rule(8, 2, length=11)
    problem = info.value.problems[0]
    assert problem.code == "match.override_needs_reason"
    assert "15" in problem.en and "11" in problem.en and "Мастер" in problem.ru


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: get_category(10), "match.unknown_category"),
        (lambda: get_category("champion"), "match.unknown_category"),
        (lambda: round_rule(4, 0), "match.bad_round"),
        (lambda: round_rule(4, 1, length=0, reason="x"), "match.bad_override_length"),
    ],
)
def test_bad_references(call, code):
    with pytest.raises(RuleViolation) as info:
        call()
    assert info.value.problems[0].code == code


def test_round_rule_becomes_a_match_spec_that_validates():
    from scoring.rules.match.check import validate_match
    from scoring.rules.match.spec import GameEntry, MatchSpec

    spec = MatchSpec.for_round(round_rule("expert", 2))
    assert (spec.length, spec.cube, spec.category, spec.round) == (13, True, 7, 2)
    assert validate_match(spec, final=(13, 4)).ok
    lower = MatchSpec.for_round(round_rule("pupil", 1))
    refused = validate_match(lower, [GameEntry("a", "single", cube=2)])
    assert "match.cube_off" in refused.codes
    assert "категориях 1–3" in refused.problems[0].ru
    overridden = MatchSpec.for_round(round_rule("pupil", 1, cube=True, reason="club final"))
    assert validate_match(overridden, final=(5, 0)).ok
