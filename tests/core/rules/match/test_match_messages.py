"""Every error code of the match, cube and category cores is reachable, in both languages."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match import categories
from scoring.rules.match import result_kinds as rk
from scoring.rules.match.check import recorded_winner_problems, validate_match, validate_match_data
from scoring.rules.match.cube import CubeRules, CubeState
from scoring.rules.match.spec import GameEntry as G
from scoring.rules.match.spec import MatchSpec

Trigger = Callable[[], list[Problem]]


def raised(action: Callable[[], object]) -> list[Problem]:
    with pytest.raises(RuleViolation) as info:
        action()
    return info.value.problems


def checked(spec: MatchSpec, games=None, final=None) -> list[Problem]:
    return list(validate_match(spec, games, final).problems)


C5 = MatchSpec(length=5, cube=True)

MATCH_TRIGGERS: dict[str, Trigger] = {
    "nothing_to_check": lambda: checked(MatchSpec(length=5)),
    "bad_format": lambda: checked(MatchSpec(), final=(1, 0)),
    "bad_length": lambda: checked(MatchSpec(length=-1), final=(1, 0)),
    "bad_fixed_games": lambda: checked(MatchSpec(fixed_games=0), final=(1, 0)),
    "knockout_level": lambda: checked(MatchSpec(fixed_games=4, must_decide=True), final=(2, 2)),
    "bad_scoring": lambda: checked(MatchSpec(length=3, scoring="go"), final=(3, 0)),
    "jacoby_in_match": lambda: checked(MatchSpec(length=3, jacoby=True), final=(3, 0)),
    "holland_needs_crawford": lambda: checked(MatchSpec(length=3, holland=True), final=(3, 0)),
    "bad_draw_value": lambda: checked(MatchSpec(fixed_games=2, draw=3), final=(2, 0)),
    "draw_needs_fixed_games": lambda: checked(MatchSpec(length=3, draw=1), final=(3, 0)),
    "category_cube": lambda: checked(MatchSpec(length=7, category=4), final=(7, 0)),
    "category_length": lambda: checked(MatchSpec(length=9, cube=True, category=4), final=(9, 0)),
    "bad_input": lambda: list(validate_match_data({"length": "five"}).problems),
    "bad_winner": lambda: checked(MatchSpec(length=1), [G("x", "single")]),
    "bad_kind": lambda: checked(MatchSpec(length=1), [G("a", "koks")]),
    "draw_not_allowed": lambda: checked(MatchSpec(fixed_games=1), [G.draw()]),
    "cube_not_legal": lambda: checked(C5, [G("a", "single", 6)]),
    "cube_above_max": lambda: checked(C5, [G("a", "single", 256)]),
    "cube_off": lambda: checked(MatchSpec(length=5, category=3), [G("a", "single", 4)]),
    "cube_in_crawford": lambda: checked(C5, [G("a", "gammon", 2), G("b", "single", 2)]),
    "autodoubles_exceeded": lambda: checked(C5, [G("a", "single", 2, autodoubles=1)]),
    "autodoubles_without_cube": lambda: checked(
        MatchSpec(length=1), [G("a", "single", autodoubles=1)]
    ),
    "autodouble_in_dave": lambda: checked(
        MatchSpec(length=5, cube=True, dave=True), [G("a", "single", 2, autodoubles=1)]
    ),
    "bad_autodoubles": lambda: checked(C5, [G("a", "single", autodoubles=-1)]),
    "autodoubles_cube_mismatch": lambda: checked(
        MatchSpec(length=5, cube=True, autodoubles=2), [G("a", "single", 2, autodoubles=2)]
    ),
    "drop_at_max": lambda: checked(
        MatchSpec(length=5, cube=True, max_cube=8), [G("a", "single", 8, dropped=True)]
    ),
    "dropped_kind": lambda: checked(C5, [G("a", "backgammon", 2, dropped=True)]),
    "bad_dropped": lambda: checked(C5, [G("a", "single", dropped=1)]),
    "game_after_end": lambda: checked(MatchSpec(length=1), [G("a", "single"), G("b", "single")]),
    "too_many_games": lambda: checked(MatchSpec(fixed_games=1), [G("a", "single")] * 2),
    "match_unfinished": lambda: checked(MatchSpec(length=5), final=(4, 3)),
    "final_mismatch": lambda: checked(MatchSpec(length=1), [G("a", "single")], (0, 1)),
    "bad_score": lambda: checked(MatchSpec(length=5), final=(5, -2)),
    "final_both_reached": lambda: checked(MatchSpec(length=5), final=(5, 5)),
    "final_jump_impossible": lambda: checked(MatchSpec(length=5), final=(9, 4)),
    "final_total_impossible": lambda: checked(MatchSpec(fixed_games=1), final=(4, 0)),
}

CUBE_TRIGGERS: dict[str, Trigger] = {
    "cube_off": lambda: raised(lambda: CubeState.start(CubeRules(enabled=False)).offer("a")),
    "cube_in_crawford": lambda: raised(
        lambda: CubeState.start(CubeRules(crawford_game=True)).offer("a")
    ),
    "cube_above_max": lambda: raised(
        lambda: CubeState.start(CubeRules(max_value=2)).offer("a").take("b").offer("b")
    ),
    "cube_not_owner": lambda: raised(lambda: CubeState.start().offer("a").take("b").offer("a")),
    "offer_pending": lambda: raised(lambda: CubeState.start().offer("a").offer("a")),
    "no_offer": lambda: raised(lambda: CubeState.start().take("b")),
    "wrong_responder": lambda: raised(lambda: CubeState.start().offer("a").drop("a")),
    "beaver_not_agreed": lambda: raised(lambda: CubeState.start().offer("a").beaver("b")),
    "raccoon_not_agreed": lambda: raised(
        lambda: CubeState.start(CubeRules(beaver=True)).offer("a").beaver("b").raccoon("a")
    ),
    "beaver_not_after_double": lambda: raised(
        lambda: CubeState.start(CubeRules(beaver=True)).offer("a").beaver("b").beaver("a")
    ),
    "raccoon_not_after_beaver": lambda: raised(
        lambda: CubeState.start(CubeRules(beaver=True, raccoon=True)).offer("a").raccoon("b")
    ),
    "holland_too_early": lambda: raised(
        lambda: CubeState.start(CubeRules(holland_trailer="b")).offer("b", moves_each=0)
    ),
    "game_over": lambda: raised(lambda: CubeState.start().offer("a").drop("b").take("b")),
    "autodoubles_exceeded": lambda: raised(lambda: CubeState.start().autodouble()),
    "autodouble_after_offer": lambda: raised(
        lambda: CubeState.start(CubeRules(autodoubles=1)).offer("a").autodouble()
    ),
    "autodouble_in_dave": lambda: raised(
        lambda: CubeState.start(CubeRules.dave_ladder()).autodouble()
    ),
    "autodoubles_without_cube": lambda: CubeRules(enabled=False, autodoubles=1).problems(),
    "bad_max_cube": lambda: CubeRules(max_value=10).problems(),
    "raccoon_needs_beaver": lambda: CubeRules(raccoon=True).problems(),
    "bad_autodouble_limit": lambda: CubeRules(autodoubles=-2).problems(),
}

S5 = MatchSpec(length=5)
LATE = rk.LatenessRule(every=5, forfeit_after=30)

KIND_TRIGGERS: dict[str, Trigger] = {
    "bad_result_kind": lambda: list(rk.result_for_kind(S5, "walkover", "a").problems),
    "forfeit_needs_winner": lambda: list(rk.result_for_kind(S5, "forfeit", None).problems),
    "forfeit_no_winner": lambda: list(rk.result_for_kind(S5, "double_forfeit", "a").problems),
    "knockout_no_winner": lambda: list(rk.result_for_kind(MatchSpec(length=5, must_decide=True), "void", None).problems),
    "forfeit_played_decided": lambda: list(
        rk.result_for_kind(S5, "time_forfeit", "a", played=(5, 2)).problems
    ),
    "below_start": lambda: checked(replace(S5, start=(0, 2)), final=(5, 1)),
    # a stored result read back (a restored archive): its winner against its score's
    "winner_contradicts": lambda: recorded_winner_problems("a", "b", required=True),
    "winner_undecided": lambda: recorded_winner_problems(None, "a", required=False),
    "winner_missing": lambda: recorded_winner_problems("b", "", required=True),
    "bad_late_rule": lambda: rk.LatenessRule(every=10, forfeit_after=5).problems(),
    "bad_minutes_late": lambda: list(rk.lateness_penalty(LATE, S5, "a", -3).problems),
    "no_late_rule": lambda: list(rk.lateness_penalty(rk.LatenessRule(), S5, "a", 3).problems),
    "move_limit_range": lambda: rk.TimeControl(move_seconds=60).problems(),
    "bad_clock": lambda: rk.TimeControl(minutes_per_point=-1).problems(),
    "delay_and_increment": lambda: rk.TimeControl(
        minutes_per_point=2, delay_seconds=12, increment_seconds=5
    ).problems(),
    "clock_bonus_without_clock": lambda: rk.TimeControl(delay_seconds=12).problems(),
}

CATEGORY_TRIGGERS: dict[str, Trigger] = {
    "unknown_category": lambda: raised(lambda: categories.get_category(0)),
    "bad_round": lambda: raised(lambda: categories.round_rule(7, -1)),
    "bad_override_length": lambda: raised(
        lambda: categories.round_rule(7, 1, length=2.5, reason="x")
    ),
    "override_needs_reason": lambda: raised(lambda: categories.round_rule(1, 1, cube=True)),
}

from scoring.rules.problems.match import MATCH  # noqa: E402

CATALOGUES = [
    ("match", MATCH_TRIGGERS),
    ("kinds", KIND_TRIGGERS),
    ("cube", CUBE_TRIGGERS),
    ("categories", CATEGORY_TRIGGERS),
]


#: Problems with the match file itself, produced by ``manage.py validate_match`` and tested
#: there (tests/test_validate_match_command.py), not by the core.
FILE_CODES = {"file_unreadable", "file_not_utf8", "file_not_json"}


def test_every_code_has_a_trigger():
    triggered = {code for _, triggers in CATALOGUES for code in triggers}
    assert triggered | FILE_CODES == set(MATCH)


CASES = [(name, code, trigger) for name, triggers in CATALOGUES for code, trigger in triggers.items()]


@pytest.mark.parametrize(("name", "code", "trigger"), CASES, ids=[f"{n}:{c}" for n, c, _ in CASES])
def test_code_is_produced_with_both_languages(name, code, trigger):
    problems = [p for p in trigger() if p.code == f"match.{code}"]
    assert problems, f"{name}: {code} not produced"
    problem = problems[0]
    assert problem.en.strip() and problem.ru.strip()
    assert problem.en != problem.ru
    assert re.search("[а-яё]", problem.ru, re.IGNORECASE)
    for text in (problem.en, problem.ru):
        assert "{" not in text and "}" not in text, text


def test_impossible_score_names_the_players_or_says_player_a() -> None:
    """12:0 in a match to 5: the message names who would have needed the jump."""
    problem = validate_match(MatchSpec(length=5), final=(12, 0)).problems[0]
    assert problem.code == "match.final_jump_impossible"
    named = problem.message("en", names={"a": "Ivanov", "b": "Petrov"})
    assert "Ivanov would have needed" in named
    assert "Петров" not in problem.message("ru", names={"a": "Иванов", "b": "Петров"})
    assert "Иванов должен был" in problem.message("ru", names={"a": "Иванов", "b": "Петров"})
    assert "player A would have needed" in problem.message("en")
    assert "игрок А должен был" in problem.message("ru")
    assert " a would" not in problem.message("en") and " a должен" not in problem.message("ru")


def test_no_template_holds_a_place_prefix() -> None:
    """"Game 4: " / "Move 12, White: " is added once by Problem.message, never by a template."""
    from scoring.rules.problems.record import RECORD

    for catalogue in (MATCH, RECORD):
        for name in catalogue:
            for template in catalogue.templates(name):
                assert not re.search(r"(Game|Партия|Move|Ход) \{(game|move)\}", template), (name, template)


def test_a_half_point_in_a_match_to_n_reads_as_the_score_typed_not_a_python_list():
    """Issue 44: a player entering 5:2.5 read "not [Decimal('5'), Decimal('2.5')]"."""
    from decimal import Decimal

    [problem] = [p for p in validate_match(MatchSpec(length=5), None, (Decimal("5"), Decimal("2.5"))).problems
                 if p.code == "match.bad_score"]  # fmt: skip
    assert problem.message("en") == "The final score must be two non-negative whole numbers, not 5:2.5."
    assert problem.message("ru") == "Итоговый счёт — это два неотрицательных целых числа, а не 5:2,5."
