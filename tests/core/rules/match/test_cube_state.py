"""The cube state machine: what a record replayer may and may not do with the cube."""

from __future__ import annotations

import pytest

from scoring.rules.errors import RuleViolation
from scoring.rules.match.cube import CubeRules, CubeState


def code_of(action) -> str:
    with pytest.raises(RuleViolation) as info:
        action()
    return info.value.problems[0].code


def test_double_take_gives_the_cube_to_the_taker():
    state = CubeState.start().offer("white").take("black")
    assert (state.value, state.owner) == (2, "black")
    # Only the holder may redouble (ch10: "удваивать ставку может только держатель").
    assert code_of(lambda: state.offer("white")) == "match.cube_not_owner"
    again = state.offer("black").take("white")
    assert (again.value, again.owner) == (4, "white")


def test_pass_scores_the_value_before_the_offer():
    state = CubeState.start().offer("white").take("black").offer("black").drop("white")
    assert state.is_over
    assert state.winner_by_pass == "black"
    assert state.points(kind_value=3) == 2  # a pass is a single game at the old stake
    assert code_of(lambda: state.offer("black")) == "match.game_over"


def test_played_out_game_scores_kind_times_stake():
    state = CubeState.start().offer("a").take("b")
    assert state.points(kind_value=2) == 4


def test_the_cube_stops_at_64():
    state = CubeState.start()
    for doubler, taker in [("a", "b"), ("b", "a")] * 3:
        state = state.offer(doubler).take(taker)
    assert state.value == 64
    assert code_of(lambda: state.offer(state.owner)) == "match.cube_above_max"
    assert state.offer_problem(state.owner).code == "match.cube_above_max"


def test_lower_agreed_maximum_is_respected():
    state = CubeState.start(CubeRules(max_value=4)).offer("a").take("b").offer("b").take("a")
    assert code_of(lambda: state.offer("a")) == "match.cube_above_max"


def test_answers_need_an_offer_and_the_other_player():
    assert code_of(lambda: CubeState.start().take("a")) == "match.no_offer"
    assert code_of(lambda: CubeState.start().drop("a")) == "match.no_offer"
    offered = CubeState.start().offer("a")
    assert code_of(lambda: offered.take("a")) == "match.wrong_responder"
    assert code_of(lambda: offered.offer("b")) == "match.offer_pending"


def test_beaver_keeps_the_cube_with_the_beaverer():
    rules = CubeRules(beaver=True)
    beavered = CubeState.start(rules).offer("a").beaver("b")
    # "D2, B4x": the beaver is itself an offer the doubler answers.
    assert beavered.pending is not None and beavered.pending.value == 4
    taken = beavered.take("a")
    assert (taken.value, taken.owner) == (4, "b")
    dropped = beavered.drop("a")
    assert dropped.winner_by_pass == "b" and dropped.points(1) == 2  # ch10: "со счётом 2:0"


def test_beaver_and_raccoon_only_when_agreed_and_in_order():
    assert code_of(lambda: CubeState.start().offer("a").beaver("b")) == "match.beaver_not_agreed"
    rules = CubeRules(beaver=True)
    beavered = CubeState.start(rules).offer("a").beaver("b")
    assert code_of(lambda: beavered.raccoon("a")) == "match.raccoon_not_agreed"
    both = CubeRules(beaver=True, raccoon=True)
    assert code_of(lambda: CubeState.start(both).offer("a").raccoon("b")) == (
        "match.raccoon_not_after_beaver"
    )
    raccooned = CubeState.start(both).offer("a").beaver("b").raccoon("a")
    assert code_of(lambda: raccooned.beaver("b")) == "match.beaver_not_after_double"
    taken = raccooned.take("b")
    assert (taken.value, taken.owner) == (8, "a")
    # A refused raccoon loses at the beaver's value (ch10).
    assert raccooned.drop("b").points(1) == 4


def test_a_taken_raccoon_goes_to_the_taker_under_gnubgs_convention_only():
    """The book gives the cube to the raccooner; GNU Backgammon to the player who took the
    raccoon, and its .mat files double from there (issue 46, a real gnubg 1.07 session)."""
    gnubg = CubeRules(beaver=True, raccoon=True, gnubg_beavers=True)
    taken = CubeState.start(gnubg).offer("a").beaver("b").raccoon("a").take("b")
    assert (taken.value, taken.owner) == (8, "b")
    beaver_taken = CubeState.start(gnubg).offer("a").beaver("b").take("a")
    assert (beaver_taken.value, beaver_taken.owner) == (4, "b")  # the beaverer, as in the book


def test_crawford_game_has_no_cube_at_all():
    state = CubeState.start(CubeRules(crawford_game=True, autodoubles=1))
    assert code_of(lambda: state.offer("a")) == "match.cube_in_crawford"
    assert code_of(state.autodouble) == "match.cube_in_crawford"


def test_cube_off_refuses_every_use():
    state = CubeState.start(CubeRules(enabled=False))
    assert code_of(lambda: state.offer("a")) == "match.cube_off"
    assert code_of(state.autodouble) == "match.autodoubles_without_cube"
    assert CubeRules(enabled=False).legal_values() == (1,)


def test_automatic_doubles_up_to_the_limit_only_before_any_double():
    state = CubeState.start(CubeRules(autodoubles=2)).autodouble().autodouble()
    assert (state.value, state.owner, state.autodoubles) == (4, None, 2)
    assert code_of(state.autodouble) == "match.autodoubles_exceeded"
    assert code_of(CubeState.start().autodouble) == "match.autodoubles_exceeded"  # default: none
    offered = CubeState.start(CubeRules(autodoubles=None)).offer("a")
    assert code_of(offered.autodouble) == "match.autodouble_after_offer"
    unlimited = CubeState.start(CubeRules(autodoubles=None))
    for _ in range(6):
        unlimited = unlimited.autodouble()
    assert unlimited.value == 64
    assert code_of(unlimited.autodouble) == "match.cube_above_max"


def test_holland_blocks_the_trailer_until_both_made_two_moves():
    rules = CubeRules(holland_trailer="b")
    state = CubeState.start(rules)
    assert code_of(lambda: state.offer("b", moves_each=1)) == "match.holland_too_early"
    assert state.offer("b", moves_each=2).pending.value == 2
    assert state.offer("a", moves_each=0).pending.value == 2  # the leader is not restricted


def test_dave_ladder_goes_one_step_at_a_time_to_six():
    rules = CubeRules.dave_ladder()
    assert rules.legal_values() == (1, 2, 3, 4, 5, 6)
    state = CubeState.start(rules).offer("a").take("b")
    assert state.value == 2
    state = state.offer("b").take("a")  # "давэ ба сэ": a mars 2:0 becomes 6:0 (ch14)
    assert state.value == 3 and state.points(kind_value=2) == 6
    assert code_of(CubeState.start(CubeRules.dave_ladder(autodoubles=1)).autodouble) == (
        "match.autodouble_in_dave"
    )


def test_rule_set_contradictions():
    codes = lambda rules: [p.code for p in rules.problems()]  # noqa: E731
    assert codes(CubeRules()) == []
    assert codes(CubeRules(max_value=48)) == ["match.bad_max_cube"]
    assert codes(CubeRules(max_value=128)) == ["match.bad_max_cube"]
    assert codes(CubeRules.dave_ladder(max_value=7)) == ["match.bad_max_cube"]
    assert codes(CubeRules(raccoon=True)) == ["match.raccoon_needs_beaver"]
    assert codes(CubeRules(autodoubles=-1)) == ["match.bad_autodouble_limit"]
    assert codes(CubeRules.dave_ladder(autodoubles=1)) == ["match.autodouble_in_dave"]
    assert codes(CubeRules(enabled=False, autodoubles=1)) == ["match.autodoubles_without_cube"]


def test_russian_cube_messages_use_russian_side_names():
    """A record's colours read as белые/чёрные, a ledger's sides as игрок А/Б."""
    cases = [
        (
            lambda: CubeState.start().offer("white").take("black").offer("white"),
            "У белых",
            "у чёрных",
        ),
        (lambda: CubeState.start().offer("black").take("black"), "со стороны чёрных", None),
        (lambda: CubeState.start().offer("a").drop("a"), "со стороны игрока А", None),
        (
            lambda: CubeState.start(CubeRules(holland_trailer="b")).offer("b", moves_each=0),
            "отстающий (игрок Б)",
            None,
        ),
    ]
    for action, expected, also in cases:
        with pytest.raises(RuleViolation) as info:
            action()
        ru = info.value.problems[0].ru
        assert expected in ru and (also is None or also in ru), ru
        assert "white" not in ru and "black" not in ru
