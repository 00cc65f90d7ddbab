"""Issue 35's simulator invariant on a known event: the team match shown by the API is its
players' results added up, with a forfeit, a double forfeit and a void match among them."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import Client

from tests.factories import (
    EntryFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
)
from tests.simulator import invariants
from tests.simulator.event_machine import PLAIN, EventMachine
from tournaments.entries import status as entry_status
from tournaments.models import (
    Entry,
    EntryStatus,
    Match,
    Official,
    OfficialRole,
    ResultKind,
    ResultStatus,
    RoundStatus,
    TeamMember,
)
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db


def test_team_score_equals_the_individual_results_with_forfeits():
    director = UserFactory(username="seam-team")
    t = TournamentFactory(slug="seam-team", system="scheveningen", rounds_planned=None)
    Official.objects.create(tournament=t, user=director, role=OfficialRole.ORGANISER)
    for i, name in enumerate(("Москва", "Баку")):
        team = TeamFactory(tournament=t, name=name)
        for board in (1, 2, 3):
            TeamMemberFactory(team=team, board=board, entry=EntryFactory(tournament=t, draw_number=10 * i + board))
    rounds = pm.generate_next(t, user=director)
    kinds = [ResultKind.PLAYED, ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT, ResultKind.TIME_FORFEIT,
             ResultKind.VOID, ResultKind.PLAYED, ResultKind.PLAYED, ResultKind.FORFEIT, ResultKind.PLAYED]  # fmt: skip
    matches = [m for r in rounds for m in r.matches.order_by("table")]
    for rnd in rounds:
        pm.publish_round(rnd, user=director)
    for i, (m, kind) in enumerate(zip(matches, kinds, strict=True)):
        m.result_kind = kind
        if kind == ResultKind.DOUBLE_FORFEIT:
            m.score_a, m.score_b, m.winner = 0, 0, ""
        elif kind == ResultKind.VOID:
            m.score_a = m.score_b = None
            m.winner = ""
        else:
            m.winner = "a" if i % 2 else "b"
            m.score_a, m.score_b = (5, i % 4) if m.winner == "a" else (i % 4, 5)
        m.result_status = ResultStatus.CONFIRMED
        m.save()
    client = Client()
    client.force_login(director)
    event = invariants.Event(t, director, clients={"organiser": client})
    invariants.team_score_is_the_sum_of_the_individual_results(event)
    shown = client.get(f"/api/tournaments/{t.slug}/team-match/").json()["matches"][0]["total"]
    assert shown["played"] == 8 and shown["forfeits"] == 3 and sum(shown["match_points"]) == 7


def _two_teams(slug, size=2):
    director = UserFactory(username=f"{slug}-dir")
    t = TournamentFactory(slug=slug, system="scheveningen", rounds_planned=None)
    Official.objects.create(tournament=t, user=director, role=OfficialRole.ORGANISER)
    for i, name in enumerate(("Москва", "Баку")):
        team = TeamFactory(tournament=t, name=name)
        for board in range(1, size + 1):
            TeamMemberFactory(team=team, board=board, entry=EntryFactory(tournament=t, draw_number=10 * i + board))
    client = Client()
    client.force_login(director)
    return t, director, invariants.Event(t, director, clients={"organiser": client})


def test_no_withdrawn_member_waits_in_the_scheveningen_schedule():
    """The seam the simulator found: a member withdrawn before the draw was seated and his
    matches stayed pending. Now the schedule is refused; a withdrawal after the draw settles
    every match of his, drafts included, and the team score still adds up."""
    t, director, event = _two_teams("seam-gone", size=3)
    early = t.entries.get(draw_number=12)
    entry_status.withdraw(early, director)
    with pytest.raises(pm.PairingRefused):
        pm.generate_next(t, user=director)
    invariants.a_withdrawal_settles_the_whole_fixed_schedule(event)
    entry_status.reinstate(early, director)
    rounds = pm.generate_next(t, user=director)
    pm.publish_round(rounds[0], user=director)
    entry_status.withdraw(t.entries.get(draw_number=2), director, settle="forfeit")
    invariants.a_withdrawal_settles_the_whole_fixed_schedule(event)
    for rnd in rounds[1:]:
        pm.publish_round(rnd, user=director)
    invariants.team_score_is_the_sum_of_the_individual_results(event)


def test_the_invariant_catches_a_withdrawn_member_left_in_the_schedule():
    """Withdrawn without the settle step (the old seam): the invariant fails, naming the games."""
    t, director, event = _two_teams("seam-gone-caught")
    pm.generate_next(t, user=director)
    Entry.objects.filter(draw_number=1, tournament=t).update(status=EntryStatus.WITHDRAWN)
    with pytest.raises(AssertionError, match="still wait in the schedule"):
        invariants.a_withdrawal_settles_the_whole_fixed_schedule(event)


def test_the_simulator_s_four_teams_settle_a_withdrawn_member_s_next_stage(settings):
    """The simulator's four-team option (a knockout of team matches) on a known path, through its
    own rules and invariants: a member withdraws during stage 1, his team wins, and the final is
    drawn with him on his board. Before the fix the invariant failed on that draft (his matches
    waited in the schedule) and its publication was refused; now they are forfeits to his
    opponents, the final publishes and closes, and the team score adds up."""
    settings.ZARIK_API_THROTTLE_RATES = {}  # the end-of-run pages read the API many times
    machine = EventMachine()
    try:
        machine.set_up(**{**PLAIN, "system": "scheveningen", "size": 8, "teams": 4})
        t = machine.tournament
        team_of = dict(TeamMember.objects.filter(team__tournament=t).values_list("entry_id", "team_id"))

        def play_out(winners):
            """The desk enters each pending match in turn; a player of ``winners`` wins it."""
            while machine._pending():
                m = machine._pending()[0]
                machine.director_enters_results([(0, "a" if team_of[m.entry_a_id] in winners else "b", 1, False)])
                machine.check_the_event()

        machine.pair_the_next_round(publish=False)  # stage 1: two team matches, rounds 1 and 2
        stage1 = list(t.rounds.order_by("number"))
        assert [r.number for r in stage1] == [1, 2]
        winners = {tm["teams"][0] for tm in stage1[0].explanation["team_matches"]}
        machine.publish_the_draft()
        play_out(winners)
        gone = next(e for e in machine._entries() if team_of[e.pk] in winners)
        machine.a_player_withdraws(machine._entries().index(gone), entry_status.SETTLE_FORFEIT)
        machine.check_the_event()
        machine.publish_the_draft()
        play_out(winners)
        machine.pair_the_next_round(publish=True)  # the final: his team and the other winner
        machine.check_the_event()
        final = list(t.rounds.filter(number__gt=2).order_by("number"))
        assert [r.status for r in final] == [RoundStatus.PUBLISHED, RoundStatus.PUBLISHED]
        his = Match.objects.filter(round__in=final).filter(Q(entry_a=gone) | Q(entry_b=gone))
        assert {(m.result_kind, m.winner == ("b" if m.entry_a_id == gone.pk else "a")) for m in his} == {
            (ResultKind.FORFEIT, True)
        }
        play_out({team_of[gone.pk]})
        assert all(r.status == RoundStatus.FINISHED for r in t.rounds.all())
    finally:
        machine.teardown()
