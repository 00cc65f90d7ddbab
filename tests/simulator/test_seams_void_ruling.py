"""Withdrawal × rulings, found by the rebalanced simulator (issue 43): a result under dispute is
not settled by a withdrawal (it is neither pending nor reported), and a ruling or an appeal that
voided it used to put the match back to "not played" — in a round robin, a game for a player who
has left, which nobody can play or settle, so the schedule never ended. The ruling now settles
it as his withdrawal settled his other matches (``scoring/workflow/disputes.py``)."""

from __future__ import annotations

import pytest

from scoring import workflow
from scoring.models import Outcome
from tests.simulator.event_machine import PLAIN, EventMachine
from tournaments.models import EntryStatus, Match, ResultStatus

pytestmark = pytest.mark.django_db


def test_a_result_voided_by_a_ruling_after_its_player_withdrew_does_not_wait_for_him():
    machine = EventMachine()
    try:
        machine.set_up(**{**PLAIN, "system": "round_robin", "size": 4})
        machine.play_a_round_out()  # the whole schedule paired, round 1 published
        machine.check_the_event()
        machine.play_a_round_out()  # and played
        machine.check_the_event()
        machine.a_player_disputes_a_confirmed_result(pick=0, side="a")  # round 1, table 1
        machine.check_the_event()
        disputed = Match.objects.get(round__tournament=machine.tournament, result_status=ResultStatus.DISPUTED)
        gone = machine._entries().index(disputed.entry_a)
        machine.a_player_withdraws(pick=gone, settle="forfeit")
        machine.check_the_event()
        dispute = disputed.disputes.get()  # the director voids it (the machine itself steers clear)
        machine._attempt(workflow.rule_dispute, dispute.pk, machine.director, outcome=Outcome.VOID,
                         version=disputed.version, ruling="the board was set up wrong")  # fmt: skip
        disputed.refresh_from_db()
        assert disputed.entry_a.status == EntryStatus.WITHDRAWN
        assert disputed.result_status == ResultStatus.CONFIRMED  # settled: a forfeit to his opponent
        assert (disputed.result_kind, disputed.winner) == ("forfeit", "b")
        machine.check_the_event()  # no match waits for a withdrawn player; the schedule can end
    finally:
        machine.teardown()
