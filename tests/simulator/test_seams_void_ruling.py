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
from tournaments.models import (
    AuditEntry,
    EntryStatus,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
    TournamentStatus,
)

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


def test_a_ruling_that_voids_a_result_after_the_end_reopens_its_round_and_the_event():
    """A void ruling on the last round of a finished event sends the match back to be played:
    its round is open again (audited) and the event is in progress until the replay is
    confirmed, which closes both again — as the referee model says (issue 43's known gap)."""
    machine = EventMachine()
    try:
        machine.set_up(**{**PLAIN, "system": "round_robin", "size": 4})
        for _ in range(12):
            if machine.moment.finished:
                break
            machine.play_a_round_out()
            machine.check_the_event()
        tournament = machine.tournament
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.FINISHED
        last = Round.objects.filter(tournament=tournament).order_by("-number").first()
        confirmed = machine._confirmed()
        match = confirmed[-1]
        assert match.round_id == last.pk
        machine.a_player_disputes_a_confirmed_result(pick=len(confirmed) - 1, side="a")
        match.refresh_from_db()
        assert match.result_status == ResultStatus.DISPUTED, "the machine disputed the last round's last table"
        machine._attempt(workflow.rule_dispute, match.disputes.get().pk, machine.director, outcome=Outcome.VOID,
                         version=match.version, ruling="the dice were not shaken in the cup")  # fmt: skip
        match.refresh_from_db()
        last.refresh_from_db()
        tournament.refresh_from_db()
        assert match.result_status == ResultStatus.PENDING
        assert last.status == RoundStatus.PUBLISHED
        assert tournament.status == TournamentStatus.IN_PROGRESS
        assert AuditEntry.objects.filter(action="round.reopen", object_id=str(last.pk)).exists()
        machine.check_the_event()  # the tables agree with the referee: the event is not over
        machine.play_a_round_out()  # the match is played again and confirmed
        machine.check_the_event()
        last.refresh_from_db()
        tournament.refresh_from_db()
        assert (last.status, tournament.status) == (RoundStatus.FINISHED, TournamentStatus.FINISHED)
    finally:
        machine.teardown()
