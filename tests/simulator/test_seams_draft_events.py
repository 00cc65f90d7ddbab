"""Withdrawal × event notifications: in a round robin a withdrawal settles the player's matches
in the drafts too, and webhooks heard of them at once — a pairing and a result of a round not
yet published. The simulator's own steps, in the order that showed it, with its every-step
invariants (nobody hears of a draft's match; every confirmed result is announced) after each."""

from __future__ import annotations

import pytest

from tests.simulator.event_machine import PLAIN, EventMachine
from tournaments.models import RoundStatus

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("settle", ["forfeit", "void"])
def test_a_round_robin_withdrawal_tells_nobody_of_its_drafts_until_each_is_published(settle):
    machine = EventMachine()
    try:
        machine.set_up(**{**PLAIN, "system": "round_robin", "size": 5})
        machine.pair_the_next_round(publish=False)  # all five rounds, drafts
        machine.publish_the_draft()  # round 1
        machine.check_the_event()
        machine.a_player_withdraws(pick=0, settle=settle)  # his drafts settled, heard of by nobody
        machine.check_the_event()
        drafts = machine.event.rounds().filter(status=RoundStatus.DRAFT)
        assert drafts.count() == 4
        while drafts.exists():
            machine.publish_the_draft()  # each announces what the withdrawal settled in it
            machine.check_the_event()
        assert machine.outcomes["withdraw done"] == 1 and machine.outcomes["publish_round done"] == 5
        assert any(h.name == "round.published" for h in machine.event.heard)
    finally:
        machine.teardown()
