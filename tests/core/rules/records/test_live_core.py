"""The live recording's core: any match recorded step by step writes a record the readers take
back without a problem and with the same score; a refused step changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.errors import RuleViolation
from scoring.rules.match.spec import MatchSpec
from scoring.rules.records import live as core
from scoring.viewer.frames import view_text
from tests.scoring.live.helpers import match_steps

BG = MatchSpec(length=3, cube=True, beaver=True, raccoon=True)
NARDY = MatchSpec(length=1, scoring="long_nardy")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), every=st.sampled_from([0, 5, 11]))
def test_a_recorded_backgammon_match_reads_back_with_its_score(seed, every):
    steps = match_steps(BG, "backgammon", seed, double_every=every)
    state = core.replay(BG, "backgammon", steps)
    assert state.phase == core.OVER and max(state.score) >= 3
    view = view_text(core.to_mat(state, ("Ann", "Bob")), variant="backgammon")
    assert not view.problems
    assert tuple(view.final_score) == state.score
    assert len([f for f in view.frames if f.kind == "play"]) == len([s for s in steps if s["kind"] == "play"])


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_recorded_long_nardy_game_reads_back_in_the_books_notation(seed):
    steps = match_steps(NARDY, "long_nardy", seed)
    state = core.replay(NARDY, "long_nardy", steps)
    text = core.to_book_text(state, ("Анна", "Борис"))
    view = view_text(text, variant="long_nardy")
    assert not view.problems and tuple(view.final_score) == state.score


@pytest.mark.parametrize(
    ("step", "code"),
    [
        ({"kind": "play", "text": "13/7, 13/8"}, "live.wrong_step"),
        ({"kind": "roll", "dice": [7, 1], "side": "white"}, "live.bad_dice"),
        ({"kind": "roll", "dice": [6, 1]}, "live.opening_side"),
        ({"kind": "double"}, "live.wrong_step"),
        ({"kind": "castle"}, "live.unknown_step"),
    ],
)
def test_a_step_the_moment_does_not_allow_is_refused_with_its_code(step, code):
    state = core.start(BG, "backgammon")
    with pytest.raises(RuleViolation) as exc:
        core.apply(state, step)
    assert exc.value.problems[0].code == code


def test_a_play_is_checked_against_the_dice_on_the_table():
    state = core.apply(core.start(BG, "backgammon"), {"kind": "roll", "dice": [3, 1], "side": "white"})
    with pytest.raises(RuleViolation) as exc:
        core.apply(state, {"kind": "play", "text": "6–5 24/18, 13/8"})  # another roll's play
    assert exc.value.problems[0].code == "live.illegal_play"
    after = core.apply(state, {"kind": "play", "text": "8/5, 6/5"})
    assert after.phase == core.ROLL and after.side_on_roll == "black"
    assert core.ids(state)["position_id"] == "4HPwATDgc/ABMA"


def test_the_cube_follows_the_match_rules_pass_ends_the_game_and_crawford_switches_it_off():
    state = core.apply(core.start(BG, "backgammon"), {"kind": "roll", "dice": [3, 1], "side": "white"})
    state = core.apply(state, {"kind": "play", "text": "8/5, 6/5"})
    assert "double" in core.allowed_steps(state)
    state = core.apply(state, {"kind": "double"})
    assert core.allowed_steps(state)[:3] == ["take", "pass", "beaver"]
    state = core.apply(state, {"kind": "pass"})  # Black doubled on roll, White passed
    assert state.score == (0, 1) and state.phase == core.OPENING
    state = core.apply(state, {"kind": "roll", "dice": [3, 1], "side": "black"})
    state = core.apply(state, {"kind": "resign", "side": "black", "result": "single"})
    assert state.score == (1, 1) and not state.crawford
    state = core.apply(state, {"kind": "roll", "dice": [3, 1], "side": "white"})
    state = core.apply(state, {"kind": "resign", "side": "white", "result": "single"})
    assert state.score == (1, 2) and state.crawford  # Black is one point away: the Crawford game
    state = core.apply(state, {"kind": "roll", "dice": [3, 1], "side": "white"})
    state = core.apply(state, {"kind": "play", "text": "8/5, 6/5"})
    assert "double" not in core.allowed_steps(state)
    with pytest.raises(RuleViolation):
        core.apply(state, {"kind": "double"})
