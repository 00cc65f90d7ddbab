"""Disagreements the referee model (``tests/simulator/referee.py``) found that issue 43 did not
list, each replayed as the simulator found it and fixed in the product. ``check_the_event``
compares every table with the model's after the step."""

from __future__ import annotations

import pytest

from scoring.models import Outcome, SanctionKind
from tests.simulator.event_machine import PLAIN, EventMachine
from tournaments.models import Variant

pytestmark = pytest.mark.django_db


def _replay(steps, **set_up):
    machine = EventMachine()
    try:
        machine.set_up(**{**PLAIN, **set_up})
        machine.check_the_event()
        for step, kwargs in steps:
            getattr(machine, step)(**kwargs)
            machine.check_the_event()
        return machine.event.comparisons, dict(machine.outcomes)
    finally:
        machine.teardown()


def test_a_late_entrys_missed_round_counts_as_an_unplayed_game_for_buchholz():
    """A Swiss of 3, round 1 played, a fourth player enters late (no points for the missed
    round, the default): the missed round is an unplayed game (FIDE C.04.2: a zero-point bye),
    valued by FIDE C.07's virtual opponent like any other — his Buchholz was 0 where a player
    who lost round 1 had 1, so he ranked alone below them."""
    comparisons, _ = _replay([("play_a_round_out", {})] * 2 + [("a_player_enters_late", {})], system="swiss", size=3,
                             length=1)  # fmt: skip
    assert comparisons


def test_a_disqualified_round_robin_player_is_not_left_out_as_a_withdrawal():
    """A round robin of 6, a player disqualified before round 1 (past results kept, the rest
    forfeited), the schedule played: the fewer-than-half rule (FIDE C.06 5.4.1) is about
    leaving, not a sanction (manual, organiser/systems, "Fewer than half of the games
    played") — his forfeits count for his opponents and his crosstable total is his points,
    while he has no place (issue 43). It used to drop him as an uncounted withdrawal."""
    disqualify = {"kind": SanctionKind.DISQUALIFICATION, "past": "keep", "pick": 0, "settle": "forfeit"}
    comparisons, _ = _replay([("the_director_sanctions", disqualify)] + [("play_a_round_out", {})] * 2,
                             system="round_robin", size=6, length=1, games=1)  # fmt: skip
    assert comparisons


def test_a_cup_ruling_that_changes_who_went_through_is_refused_once_the_next_stage_is_played():
    """A cup of 3: the semi-final's result disputed and voided, played again, the final played;
    then the jury was asked to give the semi-final to the other player. The bracket then named
    a different finalist than the final's own players, and the real finalist was placed 3. A
    decision that changes who went through is refused once a later stage seats them
    (``workflow.knockout_moved_on``); the final's places stand."""
    _, outcomes = _replay([
        ("play_a_round_out", {}),  # the semi-final and a bye paired and published
        ("play_a_round_out", {}),  # and played
        ("a_player_enters_late", {}),
        ("a_player_disputes_a_confirmed_result", {"pick": 12, "side": "a"}),
        ("the_director_rules", {"loser": 0, "outcome": Outcome.VOID, "pick": 36, "winner": "a"}),
        ("play_a_round_out", {"scores": [("a", 0)]}),  # the semi-final played again, won by a
        ("play_a_round_out", {}),  # the final paired and published
        ("play_a_round_out", {}),  # and played
        ("a_player_appeals_and_the_jury_decides", {"loser": 0, "outcome": Outcome.REPLACE, "pick": 0, "side": "a",
                                                    "via_link": False, "winner": "b"}),
    ], system="knockout", size=3, length=1, cube=True, lateness=True)  # fmt: skip
    assert outcomes.get("decide_appeal refused workflow.knockout_moved_on") == 1, sorted(outcomes.items())


def test_a_disqualified_players_voided_byes_count_for_nobody():
    """A sectioned Swiss of 8 played for five rounds, then a player disqualified with his past
    results voided: his voided byes still counted as wins (the standings read a bye's row without
    its kind), so the wins column said 3 where every result of his is void (manual, referee,
    "Forfeits …": a void match counts for nobody)."""
    steps = [("a_player_withdraws", {"pick": 44, "settle": "forfeit"})] + [("play_a_round_out", {})] * 10 + [
        ("the_director_sanctions", {"kind": SanctionKind.DISQUALIFICATION, "past": "void", "pick": 30,
                                    "settle": "void"})]  # fmt: skip
    comparisons, outcomes = _replay(steps, system="swiss", size=8, length=1, sections=True,
                                    variant=Variant.LONG_NARDY, lateness=True)  # fmt: skip
    assert comparisons and outcomes.get("record_sanction done") == 1, outcomes


def test_a_cup_correction_that_changes_who_went_through_is_refused_once_the_next_stage_is_paired():
    """A cup of 3: the semi-final played, the final paired and played; the director then
    "corrected" the semi-final to the other winner. Rulings were refused there already, but a
    correction was not: the bracket named a finalist who never played the final, who was placed
    3. A correction that changes who went through is refused like a ruling
    (``workflow.knockout_moved_on``); one that keeps the winner is still made."""
    _, outcomes = _replay([
        ("play_a_round_out", {}),  # the semi-final and a bye paired and published
        ("play_a_round_out", {"scores": [("a", 0)]}),  # and played, won by a
        ("play_a_round_out", {}),  # the final paired and published
        ("play_a_round_out", {}),  # and played
        ("director_corrects_a_confirmed_result", {"pick": 0, "winner": "b", "loser": 0}),
        ("director_corrects_a_confirmed_result", {"pick": 0, "winner": "a", "loser": 0}),
    ], system="knockout", size=3, length=3)  # fmt: skip
    assert outcomes.get("submit_result refused workflow.knockout_moved_on") == 1, sorted(outcomes.items())
    assert outcomes.get("submit_result done", 0) >= 3, sorted(outcomes.items())
