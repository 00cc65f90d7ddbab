"""A Scheveningen event of four teams is a knockout of team matches, one stage drawn at a time.
A member who withdraws has every match of his settled the way a two-team event settles them —
a forfeit to his opponent, or void if the director chose it — in the stages drawn after his
withdrawal too, so the director can
publish and close every later round without recording a forfeit by hand."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from scoring import workflow
from tests.factories import (
    EntryFactory,
    OfficialFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
)
from tests.simulator import invariants
from tournaments.entries import status as entry_status
from tournaments.models import (
    CompetitionSystem,
    Match,
    OfficialRole,
    ResultKind,
    ResultStatus,
    RoundStatus,
    TournamentStatus,
)
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.pairing_manager import withdrawn

pytestmark = pytest.mark.django_db

TEAMS = ("Москва", "Баку", "Ереван", "Тбилиси")


def _event(slug: str):
    """Four teams of two boards; the director is the organiser."""
    director = UserFactory(username=f"{slug}-dir")
    t = TournamentFactory(
        name=slug, slug=slug, starts_on=dt.date(2026, 1, 10), system=CompetitionSystem.SCHEVENINGEN,
        bare=True, public=True,
    )
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    for i, name in enumerate(TEAMS):
        team = TeamFactory(tournament=t, name=name)
        for board in (1, 2):
            TeamMemberFactory(
                team=team, board=board,
                entry=EntryFactory(tournament=t, draw_number=2 * i + board, player__last_name=f"{name}{board}"),
            )
    client = Client()
    client.force_login(director)
    return t, director, invariants.Event(t, director, clients={"organiser": client})


def _team_of(t) -> dict[int, int]:
    return {m.entry_id: m.team_id for team in t.teams.all() for m in team.members.all()}


def _pairs(rnd) -> list[tuple[int, int]]:
    """The team matches of a stage (from its first round): (team A, team B) each."""
    return [tuple(tm["teams"]) for tm in rnd.explanation["team_matches"]]


def _play(rnd, director, winners: set[int], team_of: dict[int, int]) -> None:
    """The desk enters every open match of the round: the player of a team in ``winners`` wins 5:1."""
    for m in rnd.matches.exclude(result_status=ResultStatus.CONFIRMED).order_by("table"):
        side = "a" if team_of[m.entry_a_id] in winners else "b"
        final = (5, 1) if side == "a" else (1, 5)
        workflow.submit_result(m.pk, director, version=m.version, final=final, confirm=True)


def _his(rounds, entry) -> list[Match]:
    return [
        m for r in rounds for m in Match.objects.filter(round=r).order_by("table")
        if entry.pk in (m.entry_a_id, m.entry_b_id)
    ]


def _as_forfeit(m: Match, entry) -> tuple:
    """What the director sees of a withdrawn player's match, from his side: kind, status, who won
    and the score (his, the opponent's)."""
    mine = "a" if m.entry_a_id == entry.pk else "b"
    won = "" if not m.winner else ("him" if m.winner == mine else "opponent")
    score = (m.score_a, m.score_b) if mine == "a" else (m.score_b, m.score_a)
    return m.result_kind, m.result_status, won, score


@pytest.mark.parametrize("when", ["during_stage_one", "between_stages"])
def test_a_member_withdrawn_in_stage_one_forfeits_the_next_stage_drawn_after(when):
    """The bug: the next stage seated him and its publication was refused, naming him; the
    director could neither pair it again (it seats him again) nor change a Scheveningen pairing."""
    t, director, event = _event(f"schev-gone-{when.replace('_', '-')}")
    team_of = _team_of(t)
    stage1 = pm.generate_next(t, user=director)
    assert [r.number for r in stage1] == [1, 2]
    pairs = _pairs(stage1[0])
    winners = {a for a, _b in pairs}  # team A of each match wins the stage
    gone = next(m.entry for m in t.teams.get(pk=pairs[0][0]).members.all() if m.board == 2)
    pm.publish_round(stage1[0], user=director)
    _play(stage1[0], director, winners, team_of)
    if when == "during_stage_one":
        entry_status.withdraw(gone, director, "ill", settle=entry_status.SETTLE_FORFEIT)
        [settled] = _his(stage1[1:], gone)  # his round-2 game, a draft: settled by the withdrawal
        assert _as_forfeit(settled, gone)[:3] == (ResultKind.FORFEIT, ResultStatus.CONFIRMED, "opponent")
    pm.publish_round(stage1[1], user=director)
    _play(stage1[1], director, winners, team_of)
    if when == "between_stages":
        entry_status.withdraw(gone, director, "ill", settle=entry_status.SETTLE_FORFEIT)
    # His team wins its match all the same (3:1 or 4:0) and goes on to the final.
    stage2 = pm.generate_next(t, user=director)
    assert [r.number for r in stage2] == [3, 4]
    his = _his(stage2, gone)
    assert len(his) == 2  # he is on his board: the line-ups are fixed once the schedule is drawn
    for m in his:
        kind, status, won, (mine, theirs) = _as_forfeit(m, gone)
        assert (kind, status, won) == (ResultKind.FORFEIT, ResultStatus.CONFIRMED, "opponent"), m.round.number
        assert theirs > mine
    if when == "during_stage_one":
        # The same forfeit as the one his withdrawal settled in the stage drawn before it.
        assert {_as_forfeit(m, gone) for m in his} == {_as_forfeit(settled, gone)}
    invariants.a_withdrawal_settles_the_whole_fixed_schedule(event)
    # The director publishes every round of the final and enters only the games played.
    finalists = {team_of[e] for r in stage2 for m in r.matches.all() for e in (m.entry_a_id, m.entry_b_id)}
    champion = min(finalists - {team_of[gone.pk]})
    for rnd in stage2:
        pm.publish_round(rnd, user=director)
        invariants.no_published_match_waits_for_a_withdrawn_player(event)
        _play(rnd, director, {champion}, team_of)
        rnd.refresh_from_db()
        assert rnd.status == RoundStatus.FINISHED, rnd.number
    # The team match counts his forfeits as the two-team event does: a win to the other team.
    invariants.team_score_is_the_sum_of_the_individual_results(event)
    shown = event.clients["organiser"].get(f"/api/tournaments/{t.slug}/team-match/").json()["matches"]
    final = next(m for m in shown if {m["team_a"]["id"], m["team_b"]["id"]} == finalists)
    assert final["total"]["forfeits"] == 2 and final["total"]["pending"] == 0
    assert final["winner"] == ("a" if final["team_a"]["id"] == champion else "b")
    with pytest.raises(pm.PairingRefused) as over:
        pm.generate_next(t, user=director)
    assert over.value.problems[0].code == "pairing.knockout_over"
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


@pytest.mark.parametrize("published", [False, True])
def test_a_member_who_withdraws_after_the_next_stage_was_drawn_forfeits_the_rest_of_it(published):
    """The other order: the final is drawn (and, with ``published``, its first round is out)
    when he withdraws — his withdrawal settles its rounds, drafts included, as in a two-team
    event, and every round publishes and closes."""
    t, director, event = _event(f"schev-late-{int(published)}")
    team_of = _team_of(t)
    stage1 = pm.generate_next(t, user=director)
    winners = {a for a, _b in _pairs(stage1[0])}
    for rnd in stage1:
        pm.publish_round(rnd, user=director)
        _play(rnd, director, winners, team_of)
    stage2 = pm.generate_next(t, user=director)
    if published:
        pm.publish_round(stage2[0], user=director)
    gone = next(e for e in t.entries.order_by("draw_number") if team_of[e.pk] in winners)
    entry_status.withdraw(gone, director, "left", settle=entry_status.SETTLE_FORFEIT)
    his = _his(stage2, gone)
    assert [_as_forfeit(m, gone)[:3] for m in his] == [
        (ResultKind.FORFEIT, ResultStatus.CONFIRMED, "opponent")
    ] * 2
    for rnd in stage2:
        rnd.refresh_from_db()
        if rnd.status == RoundStatus.DRAFT:
            pm.publish_round(rnd, user=director)
        _play(rnd, director, winners, team_of)
        rnd.refresh_from_db()
        assert rnd.status == RoundStatus.FINISHED, rnd.number
    invariants.team_score_is_the_sum_of_the_individual_results(event)


def test_a_member_whose_games_the_director_voided_has_the_next_stage_voided_too():
    """The director chose void when he left: the stage drawn after it voids his board the same
    way as the rounds his withdrawal settled (the choice is kept on the entry; a stage drawn
    later used to forfeit it whatever was chosen)."""
    t, director, event = _event("schev-gone-void")
    team_of = _team_of(t)
    stage1 = pm.generate_next(t, user=director)
    pairs = _pairs(stage1[0])
    winners = {a for a, _b in pairs}
    gone = next(m.entry for m in t.teams.get(pk=pairs[0][0]).members.all() if m.board == 2)
    pm.publish_round(stage1[0], user=director)
    _play(stage1[0], director, winners, team_of)
    entry_status.withdraw(gone, director, "ill", settle=withdrawn.SETTLE_VOID)
    [settled] = _his(stage1[1:], gone)
    assert settled.result_kind == ResultKind.VOID
    pm.publish_round(stage1[1], user=director)
    _play(stage1[1], director, winners, team_of)
    stage2 = pm.generate_next(t, user=director)
    his = _his(stage2, gone)
    assert len(his) == 2 and {m.result_kind for m in his} == {ResultKind.VOID}
    invariants.a_withdrawal_settles_the_whole_fixed_schedule(event)
    finalists = {team_of[e] for r in stage2 for m in r.matches.all() for e in (m.entry_a_id, m.entry_b_id)}
    champion = min(finalists - {team_of[gone.pk]})
    for rnd in stage2:
        pm.publish_round(rnd, user=director)
        _play(rnd, director, {champion}, team_of)
        rnd.refresh_from_db()
        assert rnd.status == RoundStatus.FINISHED, rnd.number
    invariants.team_score_is_the_sum_of_the_individual_results(event)
